#!/usr/bin/env bash
# Session 18, the final tree: one device call. The library; the whole suite with GPU tests required
# (tools/gpu_suite.sh); compute-sanitizer memcheck on tools/sanitize_lpn.py (every LPNorm plan) and
# racecheck on its Hold cases. Writes under $OUT: s18h_log.txt, gpu_suite.txt, s18h_sanitize.txt.
NAME=s18h
END=${END:-580}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
library_build
step "whole suite (GPU tests required)"
OUT="$OUT" bash tools/gpu_suite.sh "$(cap 300)" >>"$LOG" 2>&1
echo "gpu_suite rc=$?" | tee -a "$LOG"
step "compute-sanitizer memcheck, tools/sanitize_lpn.py (every plan)"
timeout -k 3 "$(cap 70)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY tools/sanitize_lpn.py >"$OUT/s18h_sanitize.txt" 2>&1
echo "memcheck rc=$? (99: errors reported; 124: stopped at its cap)" | tee -a "$LOG" "$OUT/s18h_sanitize.txt"
step "compute-sanitizer racecheck, tools/sanitize_lpn.py hold"
timeout -k 3 "$(cap 60)" compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 99 \
    $PY tools/sanitize_lpn.py hold >>"$OUT/s18h_sanitize.txt" 2>&1
echo "racecheck rc=$? (99: hazards reported; 124: stopped at its cap)" | tee -a "$LOG" "$OUT/s18h_sanitize.txt"
step "done"
