#!/usr/bin/env bash
# Written at the end of session 53 for session 54's first call (H200), not yet run. Session 53 streamed F64
# columns kept whole at 9-16 rows a thread (pairs always, singles up to 11 rows: 9-10 rows won 0.69-0.79,
# 12 rows 0.91-1.01, 14-16 lost) and F32 4-packs there. Two measuring variants against two default runs on
# 40 cases each that the plan probe moves (notes/sweeps/session54_{f32s,s13}_cases.txt: colsmid 5454, at
# least 20 MB):
# - build_f32s (INFINI_LP_NORM_COLS_WHOLE_STREAM_F32_SINGLES=11): F32 single elements at 9-11 rows streamed;
# - build_s13 (INFINI_LP_NORM_COLS_WHOLE_STREAM_F64_SINGLES=13): F64 singles at 12-13 rows streamed too;
# - build_o32 (INFINI_ELEMENTWISE_GATHER_OFF32=1, plan_nvidia.cc and the Mul kernel files): the Mul gather
#   form's 32-bit offsets, merged for 2-byte types in session 53 (0.936 BF16, 0.951 F16), for the other
#   types too; F32 0.989 / F64 0.998 there on small calls, so here 54 F32 / F64 gathers of >= 16 MB
#   (shaped_cases.py mulshort / mulodd / mulperm 5454; notes/sweeps/session54_off32_cases.txt);
# - build_sm16 / build_sm24 (INFINI_LP_NORM_COLS_CUT_STREAM_MAX_ROWS=16 / 24): streamed cut axes in more
#   chunks, a thread at most 16 rows (then held, the 16-row cut kernels) or 24 (still streamed), on 48 cut
#   axes of every float type that both move (shaped_cases.py colscut 5458 and sessions 50-53's behind lines,
#   >= 20 MB; notes/sweeps/session54_cutstream_cases.txt). The knob reaches 2353 of 3000 colscut cases:
#   a rule from it wants a second, fresh set;
# then the Cols GPU tests on the LPNorm variants, the Mul gather GPU tests and memcheck on build_o32.
# Files under $OUT: s54a_log.txt, ab.txt (runs: default, variant, default2 per set), tests.txt.
NAME=${NAME:-s54a}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
lp=native/src/ops/lp_norm
build_variant_sets "build_f32s|-DINFINI_LP_NORM_COLS_WHOLE_STREAM_F32_SINGLES=11|$lp/nvidia.cc" \
    "build_s13|-DINFINI_LP_NORM_COLS_WHOLE_STREAM_F64_SINGLES=13|$lp/nvidia.cc" \
    "build_sm16|-DINFINI_LP_NORM_COLS_CUT_STREAM_MAX_ROWS=16|$lp/nvidia.cc" \
    "build_sm24|-DINFINI_LP_NORM_COLS_CUT_STREAM_MAX_ROWS=24|$lp/nvidia.cc" \
    "build_o32|-DINFINI_ELEMENTWISE_GATHER_OFF32=1|native/src/ops/elementwise/plan_nvidia.cc $(ls native/src/ops/mul/*.cu)"
for v in f32s s13 off32 cutstream; do cp "notes/sweeps/session54_${v}_cases.txt" "/tmp/$v.txt"; done
ab_repro 40 f32s=default=build f32s=f32s=build_f32s f32s=default2=build
ab_repro 40 s13=default=build s13=s13=build_s13 s13=default2=build
ab_repro 40 off32=default=build off32=o32=build_o32 off32=default2=build
cp /tmp/cutstream.txt /tmp/cs16.txt; cp /tmp/cutstream.txt /tmp/cs24.txt
ab_repro 40 cs16=default=build cs16=sm16=build_sm16 cs16=default2=build
ab_repro 40 cs24=default=build cs24=sm24=build_sm24 cs24=default2=build
variant_tests build_o32 45 35 tests/test_mul.py "nvidia and (gather or short or odd or broadcast)" \
    "nvidia and gather"
whole="(columns_split or columns_every_p or streamed_not_held or mixed_magnitudes) and not cpu"
cut="(cols_cut or column_chunks or streamed_not_held or zero_parts) and not cpu"
for v in f32s s13; do variant_tests build_$v 35 1 tests/test_lp_norm.py "$whole"; done
for v in sm16 sm24; do variant_tests build_$v 50 30 tests/test_lp_norm.py "$cut" "cols_cut"; done
step "done"
