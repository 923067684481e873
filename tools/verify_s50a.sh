#!/usr/bin/env bash
# Written at the end of session 49 for session 50's first call (H200), not yet run: the four measuring knobs
# session 49 wrote from its call 5's ncu (notes/lp_norm.md, notes/mul.md, "Session 49"), each against two
# default runs on the cases it changes:
# - build_top (INFINI_LP_NORM_COLS_MERGE_TOP_ONCE=1, cols.cu): 127 cases: the seed-48 and seed-49
#   sweeps' 47 LPNorm lines behind PyTorch, then Cols cases of 16+ thread rows
#   (notes/sweeps/session49_merge_top_cases.txt);
#   the Cols GPU tests and memcheck on it (its barrier and shared-memory order are new);
# - build_f8 (INFINI_LP_NORM_COLS_FACTOR_ONE_ROW_CHUNKS=8, cols.cu): 73 cut axes of 2-8 chunks
#   (notes/sweeps/session49_factor_rows_cases.txt); the cut-axis GPU tests and memcheck on it;
# - build_i25 (INFINI_LP_NORM_COLS_NARROW_MAX_IDLE_PCT=25, nvidia.cc): 60 16-bit columns the narrowing would
#   leave mostly idle (notes/sweeps/session49_narrow_idle_cases.txt, (123,21,129,72) F16 axis 2 first);
# - build_g5 (INFINI_ELEMENTWISE_GATHER_MIN_BLOCKS=5, the Mul kernel files: 48 registers, nothing spilled
#   for 16-bit types): 90 16-bit gather cases (notes/sweeps/session48_gather_vec8_cases.txt).
# Files under $OUT: s50a_log.txt, ab.txt, tests.txt.
NAME=${NAME:-s50a}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
L=native/src/ops/lp_norm
M=native/src/ops/mul
build_variant_sets \
    "build_top|-DINFINI_LP_NORM_COLS_MERGE_TOP_ONCE=1|$L/cols.cu" \
    "build_f8|-DINFINI_LP_NORM_COLS_FACTOR_ONE_ROW_CHUNKS=8|$L/cols.cu" \
    "build_i25|-DINFINI_LP_NORM_COLS_NARROW_MAX_IDLE_PCT=25|$L/nvidia.cc" \
    "build_g5|-DINFINI_ELEMENTWISE_GATHER_MIN_BLOCKS=5|$M/kernels_f16.cu $M/kernels_f32.cu $M/kernels_int_small.cu $M/kernels_int_large.cu"
# (In the order of what they may gain; what END leaves is cut from the last, the gather A/B.)
cp notes/sweeps/session49_merge_top_cases.txt /tmp/mt.txt
ab_repro 50 mt=default=build mt=top=build_top mt=default2=build
cp notes/sweeps/session49_narrow_idle_cases.txt /tmp/ni.txt
ab_repro 25 ni=default=build ni=i25=build_i25 ni=default2=build
variant_tests build_top 80 30 tests/test_lp_norm.py "(nvidia and column) or (gpu and (cols or columns))" \
    "nvidia and columns_every_p"
cp notes/sweeps/session49_factor_rows_cases.txt /tmp/fr.txt
ab_repro 30 fr=default=build fr=f8=build_f8 fr=default2=build
variant_tests build_f8 45 30 tests/test_lp_norm.py "cut_axis and gpu"
cp notes/sweeps/session48_gather_vec8_cases.txt /tmp/g5.txt
ab_repro 25 g5=default=build g5=g5=build_g5 g5=default2=build
step "done"
