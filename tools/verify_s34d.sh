#!/usr/bin/env bash
# Session 34, call 4 (H200): Cols columns of 9-16 rows of 2- and 4-byte elements, where a thread holds 16
# rows in 8- or 16-byte packs (172-176 registers, one block of 256 an SM; the bench's (12,16,512,512) F32
# axis 1 and axis 0 rows at 72.5% and 64.5% of a copy of their bytes). Two variants against the default:
# build_h8, at most 8 rows a thread (-DINFINI_LP_NORM_COLS_HELD=8 in nvidia.cc: two thread rows a column,
# Whole mode's 8-row kernel at 3 blocks an SM); build_m2, the 16-row kernel compiled for 2 blocks an SM
# (-DINFINI_LP_NORM_COLS_WHOLE16_MIN_BLOCKS=2 in cols.cu: 128 registers, 36-44 bytes spilled).
# tools/dtype_survey.py cols16 two rounds on the three, the LPNorm bench on each, the Cols GPU tests on both
# variants. Files under $OUT: s34d_log.txt, cols16.txt, bench_*.txt, tests_h8.txt, tests_m2.txt.
NAME=${NAME:-s34d}
END=${END:-500}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
VARIANT_CXXFLAGS="-DINFINI_LP_NORM_COLS_HELD=8" build_variant_pair build_h8 "" native/src/ops/lp_norm/nvidia.cc
build_variant_pair build_m2 "-DINFINI_LP_NORM_COLS_WHOLE16_MIN_BLOCKS=2" native/src/ops/lp_norm/cols.cu
probe_rounds "$OUT/cols16.txt" "tools/dtype_survey.py cols16" build/lib build_h8/lib build_m2/lib
for v in build build_h8 build_m2; do
    step "LPNorm bench, $v"
    INFINIOP_LIBRARY=$PWD/$v/lib/libinfiniop.so timeout -k 3 "$(cap 40)" $PY -m infiniop_py bench --device nvidia \
        --op lp_norm >"$OUT/bench_$v.txt" 2>&1
    echo "rc=$?" | tee -a "$LOG"
done
INFINIOP_LIBRARY=$PWD/build_h8/lib/libinfiniop.so cols_gpu_tests "$OUT/tests_h8.txt" 100
INFINIOP_LIBRARY=$PWD/build_m2/lib/libinfiniop.so cols_gpu_tests "$OUT/tests_m2.txt" 100
step "done"
