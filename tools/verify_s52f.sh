#!/usr/bin/env bash
# Session 52, call 4 (H200): build_mf (INFINI_LP_NORM_COLS_MAX_FREE_F64=1, cols.cu: F64's plain-merge kernels,
# the cut axis's Stats and Whole's of <= 8 rows, sum without a per-element max, taking it only where a sum
# leaves the plain range or the block merges scaled sums) against two default runs on 93 F64 Cols cases
# (session 52's cut-axis sets' F64 lines and the seed-51 sweep's F64 LPNorm lines;
# notes/sweeps/session52_max_free_cases.txt); the Cols GPU tests and memcheck on it; the new
# test_columns_with_zero_parts on the default library.
# Files under $OUT: s52f_log.txt, ab.txt, tests.txt.
NAME=${NAME:-s52f}
END=${END:-315}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_sets "build_mf|-DINFINI_LP_NORM_COLS_MAX_FREE_F64=1|native/src/ops/lp_norm/cols.cu"
cp notes/sweeps/session52_max_free_cases.txt /tmp/mf.txt
ab_repro 30 mf=default=build mf=mf=build_mf mf=default2=build
variant_tests build 25 1 tests/test_lp_norm.py "nvidia and zero_parts"
variant_tests build_mf 90 40 tests/test_lp_norm.py \
    "nvidia and (cols or columns or extreme or nonfinite or all_zero or layouts_every_axis or huge_p or eps or chunks)" \
    "nvidia and (zero_parts or columns_of_mixed or cols_cut)"
step "done"
