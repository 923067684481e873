#!/usr/bin/env bash
# Session 51's fifth call (H200, the ~250 s of device time left): Slab columns of 33-64 rows a thread each
# where the one-part group holds >= 80 columns (build_sv: INFINI_LP_NORM_SLAB_ONE_PART_MAX_LEN=64,
# INFINI_LP_NORM_SLAB_ONE_PART_MIN_COLS=80, nvidia.cc) against two default runs on 45 fresh slab cases it
# moves (shaped_cases.py slab 5154), then the Slab GPU tests on it with what time is left.
# Files under $OUT: s51e_log.txt, ab.txt, tests.txt.
NAME=${NAME:-s51e}
END=${END:-190}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_sets "build_sv|-DINFINI_LP_NORM_SLAB_ONE_PART_MAX_LEN=64 -DINFINI_LP_NORM_SLAB_ONE_PART_MIN_COLS=80|native/src/ops/lp_norm/nvidia.cc"
cp notes/sweeps/session51_slab_long_cases.txt /tmp/sv.txt
ab_repro 25 sv=default=build sv=sv=build_sv sv=default2=build
variant_tests build_sv 40 1 tests/test_lp_norm.py "nvidia and slab_groups"
step "done"
