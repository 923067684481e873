#!/usr/bin/env bash
# Session 23's closing device call on main: the library build, the whole suite in shards with GPU
# tests required (tools/gpu_suite.sh; this session's new odd-pitch tests and hold.cu's mend
# included), then the end-to-end bench of every operator with PyTorch in the same run when time is
# left. Files under $OUT: s23d_log.txt, gpu_suite.txt, s23d_bench.txt / .json.
NAME=${NAME:-s23d}
END=${END:-590}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
library_build
step "whole suite (tools/gpu_suite.sh 300)"
OUT=$OUT timeout -k 3 "$(cap 330)" bash tools/gpu_suite.sh 300 >>"$LOG" 2>&1
echo "suite rc=$?" | tee -a "$LOG"
end_to_end_bench "$OUT/${NAME}_bench" 200 120
step "done"
