#!/usr/bin/env bash
# Session 17, LPNorm's Wave plan with waves in flight (hold.cu, lag): the stage trace of Wave
# (32x1M BF16 at lag 2 and 1, 16x1M; LPN7_ONLY=wavetrace in a -DINFINI_LP_NORM_STAGE_TRACE build of tools/lpn7_bench.cu), then
# LPN7_ONLY=wave (the cases Wave takes, its variants beside Hold, Pipe, TwoPass, Sweep): checks and graph
# µs. Writes under $OUT: s17d_log.txt, s17d_trace.txt, s17d_wave.txt.
NAME=s17d
END=${END:-330}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
harness_build_bg tools/lpn7_bench.cu build/s17d_trace -DINFINI_LP_NORM_STAGE_TRACE
harness_build_bg tools/lpn7_bench.cu build/s17d_lpn7
wait
tail -n 3 "$OUT/s17d_trace_build.txt" "$OUT/s17d_lpn7_build.txt" >>"$LOG" 2>&1
step "harness LPN7_ONLY=wavetrace"
LPN7_ONLY=wavetrace timeout -k 3 "$(cap 40)" build/s17d_trace "$OUT/s17d_trace.txt" >>"$LOG" 2>&1
echo "trace rc=$?" | tee -a "$LOG"
step "harness LPN7_ONLY=wave"
LPN7_ONLY=wave timeout -k 3 "$(cap 150)" build/s17d_lpn7 "$OUT/s17d_wave.txt" >>"$LOG" 2>&1
echo "harness rc=$? (1: a check failed; 124: stopped at its cap)" | tee -a "$LOG"
step "done"
