#!/usr/bin/env bash
# Session 20, main with the tensor-copy tiles in the library and Hold's per-thread reads: one device
# call. The library and tools/rearr4_bench.cu; `rearr4_bench --tma` twice (the library's shape beside
# the wide word tiles and two other shapes, every variant checked bit-exact first; 5120² and 6144²
# too, outside the planned sizes); the whole suite with GPU tests required (tools/gpu_suite.sh);
# memcheck on the tensor-copy tile tests. Writes s20c_log.txt, s20c_rearr4.txt, gpu_suite.txt,
# s20c_sanitize.txt.
NAME=s20c
END=${END:-570}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
git log --oneline -1 >>"$LOG" 2>&1
library_build
rearr4_build
rearr4_rounds --tma "$OUT/${NAME}_rearr4.txt" 40
whole_suite 300
step "compute-sanitizer memcheck, test_rearrange.py -k 'tensor_copy and nvidia'"
timeout -k 3 "$(cap 90)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY -m pytest -q -p no:cacheprovider tests/test_rearrange.py -k "tensor_copy and nvidia" \
    >"$OUT/${NAME}_sanitize.txt" 2>&1
echo "memcheck rc=$? (99: errors reported; 124: stopped at its cap)" | tee -a "$LOG"
tail -n 3 "$OUT/${NAME}_sanitize.txt" >>"$LOG"
step "done"
