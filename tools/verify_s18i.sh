#!/usr/bin/env bash
# Session 18, the final tree, second call: the library; the end-to-end benchmark (`python -m
# infiniop_py bench`, PyTorch in the same run); compute-sanitizer memcheck on tools/sanitize_rs.py
# (RandomSample's wide-row loops are new). Writes under $OUT: s18i_log.txt, bench.txt, bench.json,
# s18i_sanitize_rs.txt.
NAME=s18i
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
library_build
end_to_end_bench "$OUT/bench" 300 0
step "compute-sanitizer memcheck, tools/sanitize_rs.py"
timeout -k 3 "$(cap 100)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY tools/sanitize_rs.py >"$OUT/s18i_sanitize_rs.txt" 2>&1
echo "memcheck rs rc=$? (99: errors reported; 124: stopped at its cap)" | tee -a "$LOG" "$OUT/s18i_sanitize_rs.txt"
step "done"
