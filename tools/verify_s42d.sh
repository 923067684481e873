#!/usr/bin/env bash
# Session 42, call 4 (H200), closing: the default library with this session's changes (stream.cu's ragged
# kernels: a row's offsets and packs once an iteration, storeSpanPack; KNOBS_PLACEHOLDER): memcheck on the
# streamed and ragged row tests, the whole suite (GPU tests required), the end-to-end bench and, with the
# time left, a fresh sweep (seed 42).
# Files under $OUT: s42d_log.txt, tests.txt, gpu_suite.txt, bench.txt, bench.json, sweep42.txt.
NAME=${NAME:-s42d}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
step "memcheck: streamed and ragged LPNorm rows (default library)"
timeout -k 3 "$(cap 60)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY -m pytest -q -x -p no:cacheprovider tests/test_lp_norm.py \
    -k "block_streamed or many_rows_streamed or (ragged_rows_gpu and (8858 or 9001 or 2857))" >>"$OUT/tests.txt" 2>&1
echo "memcheck rc=$? (99: errors reported)" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
whole_suite 215
end_to_end_bench "$OUT/bench" 60 60
sweep_if_time 42
step "done"
