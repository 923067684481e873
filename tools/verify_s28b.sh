#!/usr/bin/env bash
# Session 28: why the cut axis of 2-byte 4096x4096 axis 0 lags (BF16 p 2: 90 µs, PyTorch 75): the
# library against three measuring builds (cols.cu compiled for 4 blocks an SM; 2-byte packs of 16
# bytes; at most 8 rows a thread in any cut axis), tools/cols_probe.py's 4096x4096 rows on each, two
# rounds; the Cols kernels' SASS (tools/sass_cols.sh). Files under $OUT: s28b_log.txt, probe.txt,
# sass_cols.txt. (Both cols.cu knobs were removed after this call: main compiles the cut axis's
# kernels for 4 blocks an SM, and 16-byte 2-byte packs lost.)
NAME=${NAME:-s28b}
END=${END:-500}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
L=native/src/ops/lp_norm
build_variant_pair build/mb4 "-DINFINI_LP_NORM_COLS_MIN_BLOCKS=4" $L/cols.cu
VARIANT_CXXFLAGS=-DINFINI_LP_NORM_COLS_VEC_2B=8 build_variant_pair build/v8 "-DINFINI_LP_NORM_COLS_VEC_2B=8" \
    $L/cols.cu $L/nvidia.cc
VARIANT_CXXFLAGS=-DINFINI_LP_NORM_COLS_SPLIT_ROWS=8 build_variant_pair build/rows8 "" $L/nvidia.cc
step "SASS"
OUT=$OUT bash tools/sass_cols.sh
probe_rounds "$OUT/probe.txt" "tools/cols_probe.py 4096x4096" build/lib build/mb4/lib build/v8/lib build/rows8/lib
step "done"
