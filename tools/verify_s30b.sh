#!/usr/bin/env bash
# Drafted in session 29 for session 30 (not run yet): the Split plan's apply kernel compiled for 4 blocks
# an SM (-DINFINI_LP_NORM_SPLIT_APPLY_MIN_BLOCKS=4: 64 registers, 28 bytes of spills for F64) against the
# library's 3 (75 registers for F64), through the library on the shapes still planned Split
# (tools/long_rows_probe.py "(Split)"), two rounds interleaved, then the Split GPU tests on the variant.
# Files under $OUT: s30b_log.txt, split_ab.txt, split_tests.txt.
NAME=${NAME:-s30b}
END=${END:-400}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_pair build/split4 "-DINFINI_LP_NORM_SPLIT_APPLY_MIN_BLOCKS=4" native/src/ops/lp_norm/rows.cu
export PYTHONPATH="$PWD/tools:$PYTHONPATH"
probe_rounds "$OUT/split_ab.txt" "tools/long_rows_probe.py (Split)" build/lib build/split4/lib
export INFINIOP_LIBRARY=$PWD/build/split4/lib/libinfiniop.so
lp_tests "$OUT/split_tests.txt" 150 "Split GPU tests on the variant" \
    "few_long_rows or long_rows_chained or extreme_magnitudes_long_rows"
unset INFINIOP_LIBRARY
step "done"
