#!/usr/bin/env bash
# Written in session 41 (its device time spent) for session 42's first call (H200).
# - The default library: test_ragged_rows_gpu's two new block-group shapes ((600, 8858) BF16 negative
#   row strides, (560, 9001) F16 padded rows; written after session 41's last call) with memcheck.
# - build_tail: INFINI_LP_NORM_STREAM_ASYNC_TAIL=1 (stream.cu, off by default: the default kernels'
#   SASS unchanged): a ragged row's partial last pack by cp.async where its 16 bytes end within x's span,
#   instead of element loads (session 41: ~15% on ragged block groups between its calls 2 and 3). Its
#   streamed and ragged row tests, memcheck on them (the last row of x still takes element loads), and
#   the ragged row cases of tools/shaped_cases.py lprows 41 100 plus session 40's LPNorm behind cases on
#   both libraries.
# Files under $OUT: s42a_log.txt, tests.txt, ab.txt.
NAME=${NAME:-s42a}
END=${END:-420}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_pair build_tail "-DINFINI_LP_NORM_STREAM_ASYNC_TAIL=1" native/src/ops/lp_norm/stream.cu
step "memcheck: ragged rows on block groups (default library)"
timeout -k 3 "$(cap 60)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY -m pytest -q -x -p no:cacheprovider tests/test_lp_norm.py -k "ragged_rows_gpu and (8858 or 9001)" \
    >>"$OUT/tests.txt" 2>&1
echo "memcheck rc=$? (99: errors reported)" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
variant_tests build_tail 100 90 tests/test_lp_norm.py "streamed or ragged_rows" \
    "block_streamed or (ragged_rows_gpu and (8858 or 9001 or 2857))"
$PY tools/shaped_cases.py lprows 41 100 >/tmp/all.txt
$PY - <<'PY' >/tmp/rag.txt
import re
SZ = {"float16": 2, "bfloat16": 2, "float32": 4, "float64": 8}
for line in open("/tmp/all.txt"):
    m = re.match(r"lp_norm \((\d+), (\d+)\) axis 1 p \d (\w+)", line)
    if m and int(m[2]) % (16 // SZ[m[3]]):
        print(line, end="")
PY
grep "^lp_norm" notes/sweeps/session40_behind.txt >/tmp/lpb.txt
ab_repro 50 rag=default=build rag=tail=build_tail lpb=default=build lpb=tail=build_tail
step "done"
