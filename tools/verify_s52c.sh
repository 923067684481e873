#!/usr/bin/env bash
# Session 52's first call (H200): tools/verify_s52a.sh and tools/verify_s52b.sh (written in session 51)
# in one device call, to spend one machine start and one default build on both:
# - build_cm3 (INFINI_LP_NORM_COLS_CUT_MIN_BLOCKS=3, cols.cu) against two default runs on the 112 cut axes
#   of notes/sweeps/session52_cut_min_blocks_cases.txt;
# - build_lt (INFINI_ELEMENTWISE_LANE_TILE_ROWS=8, plan_nvidia.cc) against two default runs on the 91 Mul
#   cases of notes/sweeps/session52_lane_tile_rows_cases.txt;
# - on the default library, test_slab_groups' two shapes added at the end of session 51 (never run on a
#   GPU) and memcheck on them;
# - each variant's GPU tests and memcheck; ncu (WarpStateStats) of (259,429,58) F64 axis 0 on both
#   LPNorm libraries when time is left.
# Files under $OUT: s52c_log.txt, ab.txt, tests.txt, ncu_behind.txt.
NAME=${NAME:-s52c}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_sets "build_cm3|-DINFINI_LP_NORM_COLS_CUT_MIN_BLOCKS=3|native/src/ops/lp_norm/cols.cu" \
    "build_lt|-DINFINI_ELEMENTWISE_LANE_TILE_ROWS=8|native/src/ops/elementwise/plan_nvidia.cc"
cp notes/sweeps/session52_cut_min_blocks_cases.txt /tmp/cm.txt
cp notes/sweeps/session52_lane_tile_rows_cases.txt /tmp/lt.txt
ab_repro 50 cm=default=build cm=cm3=build_cm3 cm=default2=build
ab_repro 40 lt=default=build lt=lt=build_lt lt=default2=build
variant_tests build 90 60 tests/test_lp_norm.py "nvidia and slab_groups and (6000 or 4000)"
variant_tests build_cm3 60 40 tests/test_lp_norm.py "cols_cut or (nvidia and columns_of_mixed)"
variant_tests build_lt 50 1 tests/test_mul.py "nvidia and (tile or gather or lane)"
export SECTIONS="WarpStateStats"
ncu_line build "lp_norm (259, 429, 58) axis 0 p 2 float64" 30
ncu_line build_cm3 "lp_norm (259, 429, 58) axis 0 p 2 float64" 30
step "done"
