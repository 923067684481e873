#!/usr/bin/env bash
# Written at the end of session 46 for session 47's first call (H200), not yet run: what session 46 merged
# after its last device call, checked. Since call 4 (9d6f948): LPNorm's CPU code in one file per element
# type (host only; 992 arrays bitwise equal here), and INFINI_REARRANGE_REGROUP_TILES_2B 0 (2-byte
# transposes regroup only where the b-first tiles are refused; tools/rearr_plan_probe.cc: 8 of 4112 cases
# change, back to their session-45 plans, all measured in session 46's call 2). Here:
# - the library (its longest host object is now lp_norm/cpu_f16.cc, ~31 s on the 2-core host against
#   cpu.cc's 51 s) and build_regroup (REGROUP_TILES_2B=1, the planner only);
# - the whole suite (Rearrange's GPU tests among it), then memcheck on the contested-dim, small-dim, skewed
#   and odd-pitch Rearrange tests;
# - A/B on the 8 regroup cases (notes/sweeps/session46_regroup2b_cases.txt), default against regroup;
# Files under $OUT: s47a_log.txt, gpu_suite.txt, ab.txt, rearrange_tests.txt.
NAME=${NAME:-s47a}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_sets "build_regroup|-DINFINI_REARRANGE_REGROUP_TILES_2B=1|native/src/ops/rearrange/rearrange_nvidia.cc"
whole_suite 215
cp notes/sweeps/session46_regroup2b_cases.txt /tmp/regroup.txt
ab_repro 30 regroup=default=build regroup=regroup=build_regroup regroup=default2=build
step "memcheck: contested-dim, small-dim, skewed and odd-pitch Rearrange tests"
timeout -k 3 "$(cap 60)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY -m pytest -q -x -p no:cacheprovider tests/test_rearrange.py \
    -k "(continuing_both or small_dim or skew or odd) and nvidia" >>"$OUT/rearrange_tests.txt" 2>&1
echo "memcheck rc=$? (99: errors reported)" | tee -a "$LOG"; tail -n 1 "$OUT/rearrange_tests.txt" >>"$LOG"
step "done"
