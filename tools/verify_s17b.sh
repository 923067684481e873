#!/usr/bin/env bash
# Session 17, LPNorm's Hold plan, second call: the stage trace of Hold (16x1M and 32x1M BF16, all
# registers and none; Pipe's 32x1M beside it: LPN7_ONLY=holdtrace in a -DINFINI_LP_NORM_STAGE_TRACE
# build of tools/lpn7_bench.cu), then LPN7_ONLY=hold with Hold's variants (plain launches, 12 and 0
# packs a worker in registers): checks and graph µs. Writes under $OUT: s17b_log.txt, s17b_trace.txt,
# s17b_hold.txt.
NAME=s17b
END=${END:-330}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
harness_build_bg tools/lpn7_bench.cu build/s17b_trace -DINFINI_LP_NORM_STAGE_TRACE
harness_build_bg tools/lpn7_bench.cu build/s17b_lpn7
wait
tail -n 3 "$OUT/s17b_trace_build.txt" "$OUT/s17b_lpn7_build.txt" >>"$LOG" 2>&1
step "harness LPN7_ONLY=holdtrace"
LPN7_ONLY=holdtrace timeout -k 3 "$(cap 40)" build/s17b_trace "$OUT/s17b_trace.txt" >>"$LOG" 2>&1
echo "trace rc=$?" | tee -a "$LOG"
step "harness LPN7_ONLY=hold"
LPN7_ONLY=hold timeout -k 3 "$(cap 150)" build/s17b_lpn7 "$OUT/s17b_hold.txt" >>"$LOG" 2>&1
echo "harness rc=$? (1: a check failed; 124: stopped at its cap)" | tee -a "$LOG"
step "done"
