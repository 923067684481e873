#!/usr/bin/env bash
# Session 12, first device call (timeout_s 560), from the repository root after `source .gpu/setup.sh`:
#   1. the library (make -j16), beside it tools/lpn7_bench.cu with -DINFINI_LP_NORM_STAGE_TRACE;
#   2. LPN7_ONLY=pipetrace and trace: the per-row stages of Pipe and TwoPass (where 32x1M BF16's
#      time goes);
#   3. tools/rearr4_bench.cu --shapes: the word tile's SA x SB shapes on 4096² / 4098² against
#      the same bytes copied (that call also timed HEAD's kernel from an uncommitted copy);
#   4. tests: test_rearrange.py (the generalised word tile) and test_lp_norm.py (planCluster's
#      occupancy query now through activeClustersOf).
# Writes under $OUT: s12a_log.txt, s12a_trace.txt, s12a_shapes.txt, s12a_tests.txt.
NAME=s12a
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
mkdir -p build
timeout -k 3 "$(cap 150)" "$NVCC" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/include \
    -Inative/src -DINFINI_WITH_NVIDIA -DINFINI_LP_NORM_STAGE_TRACE tools/lpn7_bench.cu -o build/lpn_trace \
    >build/lpn_trace.log 2>&1 &
TPID=$!
library_build
rearr4_build
wait "$TPID"
echo "lpn_trace build rc=$?" | tee -a "$LOG"
tail -n 3 build/lpn_trace.log >>"$LOG"
step "pipetrace + trace"
LPN7_ONLY=pipetrace timeout -k 3 "$(cap 60)" build/lpn_trace "$OUT/s12a_trace.txt" >>"$LOG" 2>&1
echo "pipetrace rc=$?" | tee -a "$LOG"
LPN7_ONLY=trace timeout -k 3 "$(cap 60)" build/lpn_trace "$OUT/s12a_trace2.txt" >>"$LOG" 2>&1
echo "trace rc=$?" | tee -a "$LOG"
step "rearr4_bench --shapes"
LD_LIBRARY_PATH=build/lib timeout -k 3 "$(cap 120)" build/rearr4_bench --shapes >"$OUT/s12a_shapes.txt" 2>&1
echo "shapes rc=$?" | tee -a "$LOG" "$OUT/s12a_shapes.txt"
step "tests"
timeout -k 3 "$(cap 200)" $PY -m pytest tests/test_rearrange.py tests/test_lp_norm.py -q -p no:cacheprovider \
    >"$OUT/s12a_tests.txt" 2>&1
echo "tests rc=$? (124: stopped at its cap)" | tee -a "$LOG" "$OUT/s12a_tests.txt"
tail -n 1 "$OUT/s12a_tests.txt" | tee -a "$LOG"
step "done"
