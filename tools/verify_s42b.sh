#!/usr/bin/env bash
# Session 42, call 2 (H200). Call 1 (verify_s42a.sh) found INFINI_LP_NORM_STREAM_ASYNC_TAIL=1 (a short
# cp.async for a ragged row's last pack) 1.4-2.4x slower on 16-bit ragged block groups. This call:
# - The default library, whose ragged Stream kernels changed since call 1 (a row's offsets and packs
#   computed once an iteration; storeSpanPack): the streamed and ragged row tests, memcheck on the
#   block-group ones.
# - build_tail2: ASYNC_TAIL=2 (the last pack's whole 16 bytes by cp.async where they end within x's span,
#   the elements after the row zeroed after the wait): the same tests and memcheck; A/B on call 1's 100
#   row cases and session 40's LPNorm cases.
# - build_w16: INFINI_LP_NORM_COLS_WHOLE16_MIN_BLOCKS=2 (written in session 41): the seed-41 sweep's worst
#   LPNorm case, (1005, 81, 324) F16 axis 1 (1.34x), is a Cols plan whose threads hold 11 rows, on the
#   16-row Whole kernel at 172-184 registers (one block an SM); at two blocks an SM ptxas gives the 16-bit
#   forms 128 registers, no spill (F32 36 bytes spilled, F64 116). Cols GPU tests, memcheck on the 16-bit
#   column tests; A/B on 100 random Cols cases with a 65-128-element axis (shaped_cases.py colsmid 42 100)
#   and the seed-41 sweep's LPNorm behind cases.
# - With the time left: ncu on the seed-41 sweep's worst Rearrange and Mul cases and two LPNorm Cols ones.
# Files under $OUT: s42b_log.txt, tests.txt, ab.txt, ncu_behind.txt.
NAME=${NAME:-s42b}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_pair build_w16 "-DINFINI_LP_NORM_COLS_WHOLE16_MIN_BLOCKS=2" native/src/ops/lp_norm/cols.cu
build_variant_pair build_tail2 "-DINFINI_LP_NORM_STREAM_ASYNC_TAIL=2" native/src/ops/lp_norm/stream.cu
variant_tests build 60 40 tests/test_lp_norm.py "streamed or ragged_rows" \
    "block_streamed or (ragged_rows_gpu and (8858 or 9001 or 2857))"
variant_tests build_tail2 60 40 tests/test_lp_norm.py "streamed or ragged_rows" \
    "block_streamed or (ragged_rows_gpu and (8858 or 9001 or 2857))"
$PY tools/shaped_cases.py lprows 41 100 >/tmp/rows.txt
grep "^lp_norm" notes/sweeps/session40_behind.txt >/tmp/lpb.txt
ab_repro 40 rows=default=build rows=tail2=build_tail2 lpb=default=build lpb=tail2=build_tail2
variant_tests build_w16 120 60 tests/test_lp_norm.py "nvidia or cols_cut or split_over" \
    "nvidia and columns and (float16 or bfloat16 or f16 or bf16)"
$PY tools/shaped_cases.py colsmid 42 100 >/tmp/cols.txt
grep "^lp_norm" notes/sweeps/session41_behind.txt >/tmp/lp41.txt
ab_repro 40 cols=default=build cols=w16=build_w16 lp41=default=build lp41=w16=build_w16
if [ $((END - SECONDS)) -ge 50 ]; then
    step "ncu: the seed-41 sweep's worst Rearrange, Mul and LPNorm cases (default library)"
    LINES="rearrange (145, 122, 5, 47) src order (1, 3, 0, 2) dst (28670, 235, 47, 1) float16;mul (39, 9, 146, 164) a order (0, 2, 3, 1) b (1, 9, 146, 1) bfloat16;rearrange (55, 24, 65, 5, 27) src order (3, 1, 4, 0, 2) dst (210600, 8775, 135, 27, 1) float16;lp_norm (1005, 81, 324) axis 1 p 2 float16;lp_norm (61, 210, 248) axis 1 p 2 float64" \
        OUT="$OUT" timeout -k 3 "$(cap 100)" bash tools/ncu_behind.sh
    echo "ncu rc=$?" | tee -a "$LOG"
fi
step "done"
