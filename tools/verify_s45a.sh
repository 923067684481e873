#!/usr/bin/env bash
# Session 45, call 2 (H200): three measuring variants against the default library, which now takes wide
# tiles (INFINI_ELEMENTWISE_WIDE_TILES_2B 7) only where the lane gather would otherwise take a plane
# whose 32 x 32 tiles are too sparse (elementwise/plan_nvidia.cc; 12 of 773 sweep cases change plan,
# tools/mul_plan_probe.cc, 9 of them measured in call 1 at 0.62-0.81):
# - build_nowide (WIDE_TILES_2B 0: the plans before): A/B on those 12 cases;
# - build_hoist (INFINI_ELEMENTWISE_TILED_HOIST=1, every Mul kernel file): a thread's tile offsets and
#   steps computed once; A/B on 178 tiled Mul cases (the sweeps' lists and mulperm 45), Mul GPU tests and
#   memcheck on the tiled ones;
# - build_items6 (INFINI_LP_NORM_ROWS_ITEMS6=1, rows.cu and nvidia.cc): rows at most 3/4 full on 4-pack
#   threads take half the threads with 6 packs; A/B on 82 row cases (tools/shaped_cases.py lpmid 45,
#   those whose plan changes, and (9675, 1191) F64), LPNorm row tests and memcheck on it;
# - the default library's Mul GPU tests (the new wide-tile planes) and memcheck on them; ncu on
#   (9675, 1191) F64 (default and items6).
# Files under $OUT: s45a_log.txt, ab.txt, tests.txt, ncu_behind.txt.
NAME=${NAME:-s45a}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
M=native/src/ops/mul L=native/src/ops/lp_norm
build_variant_sets \
    "build_nowide|-DINFINI_ELEMENTWISE_WIDE_TILES_2B=0|$M/kernels_f16.cu $M/kernels_int_small.cu native/src/ops/elementwise/plan_nvidia.cc" \
    "build_hoist|-DINFINI_ELEMENTWISE_TILED_HOIST=1|$M/kernels_f16.cu $M/kernels_f32.cu $M/kernels_int_small.cu $M/kernels_int_large.cu" \
    "build_items6|-DINFINI_LP_NORM_ROWS_ITEMS6=1|$L/rows.cu $L/nvidia.cc"
cp notes/sweeps/session45_wide_rescue_cases.txt /tmp/wide12.txt
cp notes/sweeps/session45_tiled_cases.txt /tmp/tiled.txt
cp notes/sweeps/session45_lpmid_cases.txt /tmp/lpmid.txt
ab_repro 30 wide12=default=build wide12=nowide=build_nowide
ab_repro 50 tiled=default=build tiled=hoist=build_hoist
ab_repro 50 lpmid=default=build lpmid=items6=build_items6
variant_tests build 40 30 tests/test_mul.py "nvidia and (wide_tile or transposed)"
variant_tests build_hoist 60 40 tests/test_mul.py "nvidia" "nvidia and (wide_tile or transposed or narrow)"
variant_tests build_items6 60 40 tests/test_lp_norm.py \
    "nvidia and (mid_length or ragged or long_rows or layouts or reference_cases or nonfinite or extreme) and not reference_cases_large" \
    "nvidia and (mid_length or ragged_rows_gpu)"
export SECTIONS="WarpStateStats"
ncu_line build "lp_norm (9675, 1191) axis 1 p 2 float64"
ncu_line build_items6 "lp_norm (9675, 1191) axis 1 p 2 float64"
ncu_line build_hoist "mul (663, 368, 31) a order (2, 0, 1) b (1, 1, 31) bfloat16"
step "done"
