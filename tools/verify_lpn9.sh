#!/usr/bin/env bash
# Issue 13, LPNorm long rows: the Pipe plan (native/src/ops/lp_norm/pipe.cu; notes/lp_norm.md,
# "Session 9: the Pipe plan") against TwoPass and main's plans. One device call on a cold H100,
# from the repository root, after `source .gpu/setup.sh`:
#     bash tools/verify_lpn9.sh          (run with timeout_s 240; stops itself before 200 s)
# Writes under $OUT (4 files):
#   lpn9_harness.txt  tools/lpn7_bench.cu with LPN7_ONLY=pipe: the cases the Pipe plan takes,
#                     float64 checks of main / TwoPass / Pipe and its variants (non-finite
#                     rows, out-of-range sums, every dtype, bitwise repeatable, in place), then
#                     graph µs per call (copy, main, TwoPass, Pipe and its sweep for 32x1M and
#                     64x1M BF16; 16x1M and 8x1M BF16). Read first: the "graph µs" blocks and the
#                     "Pipe clusters of N active" lines at the top.
#   lpn9_tests.txt    the LPNorm GPU tests of long rows on a library built with
#                     -DINFINI_LP_NORM_PIPE=1 (build/pipe: Pipe first wherever it plans).
#   lpn9_make.txt     the tail of that build.
#   lpn9_log.txt      builds, step times.
# The library build runs in the background while the harness runs (the harness times CUDA
# graphs on the GPU; host load does not enter them).
NAME=lpn9
END=195
source "$(dirname "$0")/verify_common.sh"

step "library build with the Pipe knob in the background (make -j14 CUDA_ARCHS=90 BUILD=build/pipe)"
git log --oneline -1 >>"$LOG" 2>&1
mkdir -p build
timeout -k 3 "$(cap 150)" make -j14 CUDA_ARCHS=90 BUILD=build/pipe EXTRA_CXXFLAGS=-DINFINI_LP_NORM_PIPE=1 \
    EXTRA_NVCCFLAGS=-DINFINI_LP_NORM_PIPE=1 >build/lpn9_make.log 2>&1 &
MAKEPID=$!

harness_build tools/lpn7_bench.cu build/lpn9_bench 100

step "harness (LPN7_ONLY=pipe): checks, then graph timing (copy / main / TwoPass / Pipe and variants)"
LPN7_ONLY=pipe timeout -k 3 "$(cap 70)" build/lpn9_bench "$OUT/lpn9_harness.txt" >>"$LOG" 2>&1
echo "harness rc=$? (1: a check failed, see FAILED in lpn9_harness.txt; 124: stopped at its cap)" | tee -a "$LOG"

step "waiting for the library build"
wait "$MAKEPID"
echo "make rc=$?" | tee -a "$LOG"
tail -n 15 build/lpn9_make.log >"$OUT/lpn9_make.txt"

step "GPU tests of long rows on build/pipe (Pipe first)"
INFINIOP_LIBRARY="$PWD/build/pipe/lib/libinfiniop.so" timeout -k 3 "$(cap 80)" $PY -m pytest tests/test_lp_norm.py \
    -q -p no:cacheprovider --durations=5 -k "long or two_pass or graph" >"$OUT/lpn9_tests.txt" 2>&1
echo "tests rc=$? (124: stopped at its cap, see the count above)" | tee -a "$LOG" "$OUT/lpn9_tests.txt"
step "done"
