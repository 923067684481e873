#!/usr/bin/env bash
# Issue 13, LPNorm long rows (branch dev/lpn7): the TwoPass plan against main's
# Cluster / Split plans. One device call on a cold H100, from the repository
# root, after `source .gpu/setup.sh`:
#     bash tools/verify_lpn7.sh          (run with timeout_s 240; stops itself before 200 s)
# Writes under $OUT (3 files):
#   lpn7_harness.txt  tools/lpn7_bench.cu: float64 checks of every plan and
#                     TwoPass variant (non-finite rows, out-of-range sums, every
#                     dtype, bitwise repeatable, in place), then graph µs per
#                     call of copy / main's plan / TwoPass (+ a sweep of cluster
#                     sizes, rounds and cache hints for 32x1M BF16, 64x1M BF16
#                     and 32x1M F32). Read first: the "graph µs" blocks.
#   lpn7_tests.txt    the LPNorm GPU tests of long rows on the library (TwoPass
#                     is its default on sm_90), INFINIOP_REQUIRE_GPU=1: the
#                     TwoPass tests first, then the other long-row/graph tests.
#   lpn7_log.txt      builds, step times.
# The library build runs in the background while the harness runs (the
# harness times CUDA graphs on the GPU; host load does not enter them).
NAME=lpn7
END=195
source "$(dirname "$0")/verify_common.sh"

step "library build in the background (make -j14 CUDA_ARCHS=90)"
git log --oneline -1 >>"$LOG" 2>&1
mkdir -p build
timeout -k 3 "$(cap 120)" make -j14 CUDA_ARCHS=90 >build/lpn7_make.log 2>&1 &
MAKEPID=$!

harness_build tools/lpn7_bench.cu build/lpn7_bench 45

step "harness: checks, then graph timing (copy / main / TwoPass and variants)"
timeout -k 3 "$(cap 75)" build/lpn7_bench "$OUT/lpn7_harness.txt" >>"$LOG" 2>&1
echo "harness rc=$? (1: a check failed, see FAILED in lpn7_harness.txt; 124: stopped at its cap)" | tee -a "$LOG"

step "waiting for the library build"
wait "$MAKEPID"
echo "make rc=$?" | tee -a "$LOG"
tail -n 5 build/lpn7_make.log >>"$LOG"

step "GPU tests: TwoPass (and the out-of-range long rows it takes)"
timeout -k 3 "$(cap 80)" $PY -m pytest tests/test_lp_norm.py -v -p no:cacheprovider --durations=6 -k "two_pass or extreme_magnitudes_long" \
    >"$OUT/lpn7_tests.txt" 2>&1
echo "tests (two_pass) rc=$? (124: stopped at its cap, see the count above)" | tee -a "$LOG" "$OUT/lpn7_tests.txt"

if [ $((END - SECONDS)) -ge 15 ]; then
    step "GPU tests: the other long-row, non-finite long-row and graph-capture tests"
    timeout -k 3 "$(cap 60)" $PY -m pytest tests/test_lp_norm.py -v -p no:cacheprovider \
        -k "nonfinite_inputs_long_rows or graph_capture or long_rows_many" >>"$OUT/lpn7_tests.txt" 2>&1
    echo "tests (long rows) rc=$? (124: stopped at its cap)" | tee -a "$LOG" "$OUT/lpn7_tests.txt"
else
    step "other long-row tests skipped: $((END - SECONDS)) s left"
fi
step "done"
