#!/usr/bin/env bash
# Session 12, second device call (timeout_s 560), from the repository root after `source .gpu/setup.sh`:
#   1. the library (make -j16) and, beside it, tools/lpn7_bench.cu three times: Pipe without and with
#      the look-ahead sums during the merge (-DINFINI_LP_NORM_PIPE_AHEAD=0 / 1), and 1 with the stage
#      trace;
#   2. LPN7_ONLY=pipe on AHEAD 0 and 1 (every Pipe check, then graph µs of 32x1M, 64x1M, 16x1M, 8x1M
#      BF16), twice, interleaved; LPN7_ONLY=pipetrace on the trace build;
#   3. tools/rearr4_bench.cu --shapes (the library call now takes the wide word tiles on 4096²);
#   4. tests: test_rearrange.py (wide word tiles) and the LPNorm long-row / graph tests.
# Writes under $OUT: s12b_log.txt, s12b_pipe{0,1}_{1,2}.txt, s12b_trace.txt, s12b_shapes.txt, s12b_tests.txt.
NAME=s12b
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
mkdir -p build
hb() { # hb NAME FLAGS...: a harness build in the background
    local name=$1
    shift
    timeout -k 3 "$(cap 150)" "$NVCC" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/include \
        -Inative/src -DINFINI_WITH_NVIDIA "$@" tools/lpn7_bench.cu -o "build/$name" >"build/$name.log" 2>&1
    echo "$name build rc=$?" >>"$LOG"
}
hb lpn_a0 -DINFINI_LP_NORM_PIPE_AHEAD=0 &
hb lpn_a1 -DINFINI_LP_NORM_PIPE_AHEAD=1 &
hb lpn_tr -DINFINI_LP_NORM_PIPE_AHEAD=1 -DINFINI_LP_NORM_STAGE_TRACE &
library_build
rearr4_build
wait
step "rearr4_bench --shapes"
LD_LIBRARY_PATH=build/lib timeout -k 3 "$(cap 60)" build/rearr4_bench --shapes >"$OUT/s12b_shapes.txt" 2>&1
echo "shapes rc=$?" | tee -a "$LOG" "$OUT/s12b_shapes.txt"
for round in 1 2; do
    for a in 0 1; do
        step "LPN7_ONLY=pipe, AHEAD=$a, round $round"
        LPN7_ONLY=pipe timeout -k 3 "$(cap 70)" build/lpn_a$a "$OUT/s12b_pipe${a}_$round.txt" >>"$LOG" 2>&1
        echo "AHEAD=$a round $round rc=$? (1: a check FAILED; 124: stopped at its cap)" | tee -a "$LOG"
    done
done
step "pipetrace (AHEAD=1)"
LPN7_ONLY=pipetrace timeout -k 3 "$(cap 30)" build/lpn_tr "$OUT/s12b_trace.txt" >>"$LOG" 2>&1
echo "pipetrace rc=$?" | tee -a "$LOG"
step "tests"
timeout -k 3 "$(cap 150)" $PY -m pytest tests/test_rearrange.py -q -p no:cacheprovider -k "nvidia" \
    >"$OUT/s12b_tests.txt" 2>&1 &
timeout -k 3 "$(cap 150)" $PY -m pytest tests/test_lp_norm.py -q -p no:cacheprovider \
    -k "long or two_pass or graph or dependent or chained or nonfinite" >"$OUT/s12b_tests_lpn.txt" 2>&1
echo "lpn tests rc=$?" | tee -a "$LOG"
wait
tail -n 1 "$OUT/s12b_tests.txt" "$OUT/s12b_tests_lpn.txt" | tee -a "$LOG"
step "done"
