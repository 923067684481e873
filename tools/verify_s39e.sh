#!/usr/bin/env bash
# Session 39, call 5 (H200): call 4 (tools/verify_s39d.sh at 25c328c) again, without its LPNorm tests
# (they passed), with its two faults mended: the lane mapping's planner had left the dims' sizes unset
# (every lane-mapped test failed there; CUDA error 700 after them), and the sweep's Rearrange check could
# not take a byte view of a tensor whose last dim has one element (bench_rearrange.py check: flattened
# first now). Mul's GPU tests and memcheck on build_lane (INFINI_ELEMENTWISE_LANE_GATHER=1), session 38's
# Mul behind cases and the random permuted ones on the default and build_lane, then the fresh sweep
# (seed 39) of the default library with what time is left.
# Files under $OUT: s39e_log.txt, tests.txt, ab.txt, sweep39.txt.
NAME=${NAME:-s39e}
END=${END:-330}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
m=native/src/ops/mul
LANE="-DINFINI_ELEMENTWISE_LANE_GATHER=1"
VARIANT_CXXFLAGS="$LANE" build_variant_pair build_lane "$LANE" $m/kernels_f16.cu $m/kernels_f32.cu \
    $m/kernels_int_small.cu $m/kernels_int_large.cu native/src/ops/elementwise/plan_nvidia.cc
variant_tests build_lane 60 30 tests/test_mul.py "nvidia" "nvidia and (gathered or transposed or narrow)"
grep "^mul" notes/sweeps/session38_behind.txt >/tmp/mul.txt
$PY tools/shaped_cases.py mulperm 39 120 >/tmp/perm.txt
ab_repro 30 mul=default=build mul=lane=build_lane perm=default=build perm=lane=build_lane
left=$((END - SECONDS - 15))
if [ "$left" -ge 30 ]; then
    step "random sweep, seed 39, $left s"
    timeout -k 3 "$((left + 10))" $PY tools/behind_sweep.py 39 "$left" >"$OUT/sweep39.txt" 2>&1
    echo "sweep rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/sweep39.txt" >>"$LOG"
fi
step "done"
