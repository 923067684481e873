#!/usr/bin/env bash
# Session 48, call 3 (H200): rows of 4097-6144 packs on Rows, measured; the whole suite on the merged tree.
# - build_r6 (INFINI_LP_NORM_ROWS6_BEYOND=1, nvidia.cc: rows of 4097-6144 packs that may take 6 packs a
#   thread, 264+ of them, on a block of 1024 threads a row instead of the long-row plans; the seed-47
#   sweep's (731, 11398) F64 ran Split at 81.0 µs against PyTorch's 66.4, its Apply re-reading x from
#   DRAM). A/B default / r6 on 73 cases the probe moves (notes/sweeps/session48_rows6_cases.txt: 70
#   random, 32 F64 / 26 F32 / 43 16-bit of the 101 moved of 120, and three sweep cases); LPNorm row tests
#   on build_r6 (test_rows_of_mid_length has such rows now), memcheck on those.
# - the whole suite with GPU tests required on the default (call 1's merges: big slabs, 32 x 64 tiles).
# Files under $OUT: s48c_log.txt, ab.txt, tests.txt, gpu_suite.txt.
NAME=${NAME:-s48c}
END=${END:-520}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
L=native/src/ops/lp_norm
build_variant_sets "build_r6|-DINFINI_LP_NORM_ROWS6_BEYOND=1|$L/nvidia.cc"
cp notes/sweeps/session48_rows6_cases.txt /tmp/r6.txt
ab_repro 60 r6=default=build r6=r6=build_r6
variant_tests build_r6 60 40 tests/test_lp_norm.py "nvidia and (rows_of_mid_length or ragged or long_rows)" \
    "nvidia and rows_of_mid_length"
whole_suite 230
step "done"
