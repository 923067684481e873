#!/usr/bin/env bash
# Session 18, the final tree: one device call. The library; the whole suite with GPU tests required
# (tools/gpu_suite.sh); compute-sanitizer memcheck on tools/sanitize_lpn.py (every LPNorm plan) and
# racecheck on its Hold cases. Writes under $OUT: s18h_log.txt, gpu_suite.txt, s18h_sanitize.txt.
NAME=s18h
END=${END:-580}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
library_build
whole_suite 300
lpn_sanitize memcheck "$OUT/s18h_sanitize.txt"
lpn_sanitize racecheck "$OUT/s18h_sanitize.txt" hold
step "done"
