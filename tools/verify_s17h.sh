#!/usr/bin/env bash
# Session 17, after the library's Hold rule narrowed to rows too long for Pipe (16x2M BF16): one
# device call. The library; tools/sanitize_lpn.py's Hold cases plain and under memcheck; LPNorm's GPU
# tests (their shard of tools/gpu_suite.sh). Writes under $OUT: s17h_log.txt, s17h_sanitize.txt,
# s17h_lp_gpu.txt.
NAME=s17h
END=${END:-330}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
library_build
step "tools/sanitize_lpn.py hold, plain then memcheck"
timeout -k 3 "$(cap 30)" $PY tools/sanitize_lpn.py hold >"$OUT/s17h_sanitize.txt" 2>&1
echo "plain rc=$?" | tee -a "$LOG" "$OUT/s17h_sanitize.txt"
timeout -k 3 "$(cap 40)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY tools/sanitize_lpn.py hold >>"$OUT/s17h_sanitize.txt" 2>&1
echo "memcheck rc=$? (99: errors reported; 124: stopped at its cap)" | tee -a "$LOG" "$OUT/s17h_sanitize.txt"
lpnorm_gpu_tests "$OUT/s17h_lp_gpu.txt" 240
step "done"
