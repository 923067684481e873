#!/usr/bin/env bash
# Session 15: the Sweep plan's stage trace (LPN7_ONLY=sweeptrace in a -DINFINI_LP_NORM_STAGE_TRACE build
# of tools/lpn7_bench.cu; L2 flushed before the traced launch): when each block of the stats kernel
# (iteration 0) and of the apply kernel (iteration 1) starts, sees its first tile, finishes its tiles
# and ends; Pipe's 32x1M beside it. One device call from the repository root after
# `source .gpu/setup.sh`. Writes under $OUT: s15d_trace.txt, s15d_log.txt.
NAME=s15d
END=${END:-200}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
mkdir -p build
step "trace harness build (nvcc, sm_90)"
timeout -k 3 "$(cap 120)" "$NVCC" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/include -Inative/src \
    -DINFINI_WITH_NVIDIA -DINFINI_LP_NORM_STAGE_TRACE tools/lpn7_bench.cu -o build/s15d_trace >>"$LOG" 2>&1
echo "trace build rc=$?" | tee -a "$LOG"
step "stage trace (LPN7_ONLY=sweeptrace)"
LPN7_ONLY=sweeptrace timeout -k 3 "$(cap 40)" build/s15d_trace "$OUT/s15d_trace.txt" >>"$LOG" 2>&1
echo "trace rc=$?" | tee -a "$LOG"
step "done"
