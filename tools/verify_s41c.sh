#!/usr/bin/env bash
# Session 41, call 3 (H200). Call 2's block-group Stream (INFINI_LP_NORM_BLOCK_STREAM_MIN_PACKS=512):
# 100 random row cases geomean 0.906 (to 0.32x on p 1 / 2), but p 3 lost to 2.7x (stream.cu's one-pass
# sum called powGeneral) and small cases sat at ~18 µs; memcheck flagged its ragged last-pack cp.async
# (fewer bytes than 16 against an allocation ending inside the pack). Now: the partial last pack loaded
# element by element, and a knob for p 3 (INFINI_LP_NORM_STREAM_CUBE).
# - build_bs2: BLOCK_STREAM_MIN_PACKS=512 and STREAM_CUBE=1 (the warp groups' p 3 too).
# Runs: the variant's streamed / ragged LPNorm tests, memcheck on the streamed ones; ncu (kernel time
# against the eager µs) on three small row cases on the variant and one on the default; call 2's row and
# LPNorm behind cases on both libraries.
# Files under $OUT: s41c_log.txt, tests.txt, ab.txt, ncu_behind.txt.
NAME=${NAME:-s41c}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_pair build_bs2 "-DINFINI_LP_NORM_BLOCK_STREAM_MIN_PACKS=512 -DINFINI_LP_NORM_STREAM_CUBE=1" \
    native/src/ops/lp_norm/stream.cu
variant_tests build_bs2 100 90 tests/test_lp_norm.py "streamed or ragged_rows" \
    "block_streamed or many_rows_streamed"
step "ncu: three small row cases on build_bs2, one on the default"
INFINIOP_LIBRARY=$PWD/build_bs2/lib/libinfiniop.so \
    LINES="lp_norm (658, 6552) axis 1 p 2 float16;lp_norm (1123, 7736) axis 1 p 3 bfloat16;lp_norm (1360, 4088) axis 1 p 1 bfloat16" \
    OUT="$OUT" timeout -k 3 "$(cap 80)" bash tools/ncu_behind.sh
echo "ncu rc=$?" | tee -a "$LOG"
LINES="lp_norm (658, 6552) axis 1 p 2 float16" OUT="$OUT" timeout -k 3 "$(cap 30)" bash tools/ncu_behind.sh
echo "ncu rc=$?" | tee -a "$LOG"
$PY tools/shaped_cases.py lprows 41 100 >/tmp/rows.txt
grep "^lp_norm" notes/sweeps/session40_behind.txt >/tmp/lpb.txt
ab_repro 50 rows=default=build rows=bs2=build_bs2 lpb=default=build lpb=bs2=build_bs2
step "done"
