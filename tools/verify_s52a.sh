#!/usr/bin/env bash
# Written at the end of session 51 for session 52 (H200), not yet run:
# - build_cm3 (INFINI_LP_NORM_COLS_CUT_MIN_BLOCKS=3, cols.cu: the cut axis's Stats and Apply kernels of at
#   most 8 rows a thread at 3 blocks an SM, where 4 spills in the F64 pairs' Stats and Apply and F32
#   4-packs' Apply) against two default runs on 112 cut axes of <= 8 rows a thread (seed 5152's generator,
#   35 F64, 25 F32, 20 F16, 20 BF16, and the seed-51 sweep's 12 cut-axis lines behind PyTorch;
#   notes/sweeps/session52_cut_min_blocks_cases.txt);
# - the cut-axis GPU tests and memcheck on it;
# - on the default library, test_slab_groups' two shapes added at the end of session 51 (Slab columns of
#   17-64 rows a thread each; never run on a GPU) and memcheck on them;
# - ncu (WarpStateStats) of (259,429,58) F64 axis 0 on both libraries: the Stats and Apply kernels.
# Files under $OUT: s52a_log.txt, ab.txt, tests.txt, ncu_behind.txt.
NAME=${NAME:-s52a}
END=${END:-480}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_sets "build_cm3|-DINFINI_LP_NORM_COLS_CUT_MIN_BLOCKS=3|native/src/ops/lp_norm/cols.cu"
cp notes/sweeps/session52_cut_min_blocks_cases.txt /tmp/cm.txt
ab_repro 50 cm=default=build cm=cm3=build_cm3 cm=default2=build
variant_tests build_cm3 60 60 tests/test_lp_norm.py "cols_cut or (nvidia and columns_of_mixed)"
variant_tests build 40 40 tests/test_lp_norm.py "nvidia and slab_groups and (6000 or 4000)"
export SECTIONS="WarpStateStats"
ncu_line build "lp_norm (259, 429, 58) axis 0 p 2 float64" 30
ncu_line build_cm3 "lp_norm (259, 429, 58) axis 0 p 2 float64" 30
step "done"
