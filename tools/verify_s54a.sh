#!/usr/bin/env bash
# Written at the end of session 53 for session 54's first call (H200), not yet run. Session 53 streamed F64
# columns kept whole at 9-16 rows a thread (pairs always, singles up to 11 rows: 9-10 rows won 0.69-0.79,
# 12 rows 0.91-1.01, 14-16 lost) and F32 4-packs there. Two measuring variants against two default runs on
# 40 cases each that the plan probe moves (notes/sweeps/session54_{f32s,s13}_cases.txt: colsmid 5454, at
# least 20 MB):
# - build_f32s (INFINI_LP_NORM_COLS_WHOLE_STREAM_F32_SINGLES=11): F32 single elements at 9-11 rows streamed;
# - build_s13 (INFINI_LP_NORM_COLS_WHOLE_STREAM_F64_SINGLES=13): F64 singles at 12-13 rows streamed too;
# then the Cols GPU tests on each.
# Files under $OUT: s54a_log.txt, ab.txt (runs: default, variant, default2 per set), tests.txt.
NAME=${NAME:-s54a}
END=${END:-500}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
lp=native/src/ops/lp_norm
build_variant_sets "build_f32s|-DINFINI_LP_NORM_COLS_WHOLE_STREAM_F32_SINGLES=11|$lp/nvidia.cc" \
    "build_s13|-DINFINI_LP_NORM_COLS_WHOLE_STREAM_F64_SINGLES=13|$lp/nvidia.cc"
for v in f32s s13; do cp "notes/sweeps/session54_${v}_cases.txt" "/tmp/$v.txt"; done
ab_repro 40 f32s=default=build f32s=f32s=build_f32s f32s=default2=build
ab_repro 40 s13=default=build s13=s13=build_s13 s13=default2=build
sel="(cols or columns or zero_parts or chunks) and not cpu"
variant_tests build_f32s 100 1 tests/test_lp_norm.py "$sel"
variant_tests build_s13 100 1 tests/test_lp_norm.py "$sel"
step "done"
