#!/usr/bin/env bash
# Session 41, call 2 (H200). The default library now gives Mul's gather plans of 8-byte elements in odd
# rows of at most 4096 the lane mapping (call 1: F64 0.920, 16-bit types lost to 1.8x). One measuring
# knob, off by default (the warp Stream kernels' SASS unchanged):
# - build_bstream: INFINI_LP_NORM_BLOCK_STREAM_MIN_PACKS=512, LPNorm rows of at least 512 packs that a
#   warp's ring cannot take on a Stream plan of block groups (stream.cu) instead of Rows. Call 1's ncu:
#   Rows at 2.1 TB/s on (1191, 14704) BF16, 0.95 on the ragged (2828, 8858) BF16.
# Runs: the variant's LPNorm row tests (block streamed, warp streamed, ragged rows), memcheck and
# racecheck on the block-streamed ones, the kernels a few cases launch there; 100 random row cases
# (tools/shaped_cases.py lprows) and session 40's LPNorm behind cases on both libraries; the 120 odd-row
# Mul cases of call 1 on the new default.
# Files under $OUT: s41b_log.txt, tests.txt, ab.txt, kernels.txt.
NAME=${NAME:-s41b}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_pair build_bstream "-DINFINI_LP_NORM_BLOCK_STREAM_MIN_PACKS=512" native/src/ops/lp_norm/stream.cu
variant_tests build_bstream 100 70 tests/test_lp_norm.py "block_streamed or many_rows_streamed or ragged_rows" \
    "block_streamed"
step "racecheck: block-streamed rows (build_bstream)"
INFINIOP_LIBRARY=$PWD/build_bstream/lib/libinfiniop.so timeout -k 3 "$(cap 60)" compute-sanitizer --tool racecheck \
    --error-exitcode 99 $PY -m pytest -q -x -p no:cacheprovider tests/test_lp_norm.py \
    -k "block_streamed and (8858 or 2051)" >>"$OUT/tests.txt" 2>&1
echo "racecheck rc=$? (99: hazards reported)" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
$PY tools/shaped_cases.py lprows 41 100 >/tmp/rows.txt
grep "^lp_norm" notes/sweeps/session40_behind.txt >/tmp/lpb.txt
grep "(2828, 8858)\|(1463, 20326)\|(625, 5766)\|(1360, 4088)" /tmp/lpb.txt /tmp/rows.txt | cut -d: -f2- >/tmp/probe.txt
step "kernels of four row cases (build_bstream)"
INFINIOP_LIBRARY=$PWD/build_bstream/lib/libinfiniop.so timeout -k 3 "$(cap 40)" $PY tools/behind_sweep.py \
    --repro /tmp/probe.txt 4 >"$OUT/kernels.txt" 2>&1
echo "rc=$?" | tee -a "$LOG"
$PY tools/shaped_cases.py mulodd 41 120 >/tmp/odd.txt
ab_repro 50 rows=default=build rows=bstream=build_bstream lpb=default=build lpb=bstream=build_bstream \
    odd=default=build
step "done"
