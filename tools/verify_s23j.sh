#!/usr/bin/env bash
# Session 23's closing call on main (after the odd word tiles' trigger change): the library build, the
# whole suite in shards with GPU tests required (tools/gpu_suite.sh), memcheck on the odd pitches and
# the dependent chains, then the end-to-end bench of every operator with PyTorch in the same run.
# Files under $OUT: s23j_log.txt, gpu_suite.txt, s23j_memcheck.txt, s23j_bench.txt / .json.
NAME=${NAME:-s23j}
END=${END:-590}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
library_build
step "whole suite (tools/gpu_suite.sh 300)"
OUT=$OUT timeout -k 3 "$(cap 330)" bash tools/gpu_suite.sh 300 >>"$LOG" 2>&1
echo "suite rc=$?" | tee -a "$LOG"
step "memcheck: 4097, odd pitches, dependent chains"
timeout -k 3 "$(cap 100)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY -m pytest -q -x -p no:cacheprovider tests/test_rearrange.py \
    -k "(4097 or odd or dependent) and not cpu" >"$OUT/${NAME}_memcheck.txt" 2>&1
echo "memcheck rc=$? (99: errors reported)" | tee -a "$LOG"
tail -n 2 "$OUT/${NAME}_memcheck.txt" >>"$LOG"
end_to_end_bench "$OUT/${NAME}_bench" 120 60
step "done"
