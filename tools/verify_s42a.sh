#!/usr/bin/env bash
# Written in session 41 (its device time spent) for session 42's first call (H200).
# - The default library: test_ragged_rows_gpu's two new block-group shapes ((600, 8858) BF16 negative
#   row strides, (560, 9001) F16 padded rows; written after session 41's last call) under memcheck.
# - build_tail: INFINI_LP_NORM_STREAM_ASYNC_TAIL=1 (stream.cu, off by default: the default kernels'
#   SASS unchanged): a ragged row's partial last pack by cp.async where its 16 bytes end within x's span,
#   instead of element loads (session 41: ~15% on ragged block groups between its calls 2 and 3).
# - build_tailall: the same and INFINI_LP_NORM_BLOCK_STREAM=2, block groups for every row of 512+ packs
#   a warp cannot take (session 41 left ragged F32, 1.23x, and aligned rows of 512-1024 packs, 1.07x,
#   on Rows, both measured with element loads).
# Runs: build_tail's streamed and ragged row tests with memcheck on the block-group ones; 100 random row
# cases (tools/shaped_cases.py lprows 41 100) on the three libraries, session 40's LPNorm behind cases on
# two.
# Files under $OUT: s42a_log.txt, tests.txt, ab.txt.
NAME=${NAME:-s42a}
END=${END:-500}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_pair build_tail "-DINFINI_LP_NORM_STREAM_ASYNC_TAIL=1" native/src/ops/lp_norm/stream.cu
build_variant_pair build_tailall "-DINFINI_LP_NORM_STREAM_ASYNC_TAIL=1 -DINFINI_LP_NORM_BLOCK_STREAM=2" \
    native/src/ops/lp_norm/stream.cu
step "memcheck: ragged rows on block groups (default library)"
timeout -k 3 "$(cap 60)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY -m pytest -q -x -p no:cacheprovider tests/test_lp_norm.py -k "ragged_rows_gpu and (8858 or 9001)" \
    >>"$OUT/tests.txt" 2>&1
echo "memcheck rc=$? (99: errors reported)" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
variant_tests build_tail 100 90 tests/test_lp_norm.py "streamed or ragged_rows" \
    "block_streamed or (ragged_rows_gpu and (8858 or 9001 or 2857))"
$PY tools/shaped_cases.py lprows 41 100 >/tmp/rows.txt
grep "^lp_norm" notes/sweeps/session40_behind.txt >/tmp/lpb.txt
ab_repro 50 rows=default=build rows=tail=build_tail rows=tailall=build_tailall lpb=default=build \
    lpb=tail=build_tail
step "done"
