#!/usr/bin/env bash
# Written in session 40 (its device time spent) for session 41's first call (H200). One measuring knob,
# off by default (the default build's kernels unchanged; host planner only):
# - build_lanodd: INFINI_ELEMENTWISE_LANE_ODD_ROWS=4096, Mul's gather plans whose output rows are no
#   multiple of a 16-byte vector and at most 4096 elements long on the lane mapping instead of the vector
#   mapping. Session 40's sweep (seed 40): 26 of Mul's 42 cases behind PyTorch are F64, 22 of them with an
#   odd innermost extent (1.0-1.28x).
# Runs: the variant's Mul tests and memcheck (test_gathered_inputs' odd rows take the lane mapping
# there); session 40's Mul behind cases and 120 random odd-row Mul cases (tools/shaped_cases.py mulodd)
# on the default and the variant; ncu on a ragged and an aligned LPNorm Rows case; with the time left,
# the whole suite on the default library.
# Files under $OUT: s41a_log.txt, tests.txt, ab.txt, ncu_behind.txt, gpu_suite.txt.
NAME=${NAME:-s41a}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
ODD="-DINFINI_ELEMENTWISE_LANE_ODD_ROWS=4096"
# shellcheck disable=SC2086
VARIANT_CXXFLAGS="$ODD" build_variant_pair build_lanodd "$ODD" $MUL_VARIANT_SRCS
variant_tests build_lanodd 60 40 tests/test_mul.py "nvidia" "nvidia and (gathered or broadcasting or row_layouts or f64)"
grep "^mul.*BEHIND" notes/sweeps/session40_behind.txt >/tmp/mul.txt
$PY tools/shaped_cases.py mulodd 41 120 >/tmp/odd.txt
ab_repro 40 mul=default=build mul=lanodd=build_lanodd odd=default=build odd=lanodd=build_lanodd
if [ $((END - SECONDS)) -ge 100 ]; then
    # Session 40's sweep: ragged LPNorm rows on the Rows plan run at ~0.9 TB/s where aligned rows of the
    # same plan shape (tpr 512, 4 packs a thread) run at ~2.1: (2828, 8858) BF16 p 1 110.4 µs for 100 MB
    # (PyTorch 101.7), (1191, 14704) BF16 p 2 33.0 for 70 MB (71.7). Why (registers, loads in flight)?
    # And the aligned twin of session 40's ncu case (1387, 17311) F16 p 1 (Rows at tpr 1024: 122.3 µs,
    # 64 registers, 1 block an SM, 43% of warps active; PyTorch 92.7 in three kernels).
    step "ncu: a ragged and an aligned LPNorm Rows case (default library)"
    LINES="lp_norm (2828, 8858) axis 1 p 1 bfloat16;lp_norm (1191, 14704) axis 1 p 2 bfloat16;lp_norm (1387, 17312) axis 1 p 1 float16" \
        OUT="$OUT" timeout -k 3 "$(cap 80)" bash tools/ncu_behind.sh
    echo "ncu rc=$?" | tee -a "$LOG"
fi
if [ $((END - SECONDS)) -ge 230 ]; then
    whole_suite 220
fi
step "done"
