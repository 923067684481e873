#!/usr/bin/env bash
# Session 27: the Cols plan cutting a long axis of few columns into chunks (cols.cu's Stats and Apply
# kernels, INFINI_LP_NORM_COLS_SPLIT). The library and, beside it, one built with
# -DINFINI_LP_NORM_COLS_SPLIT=0; tools/cols_probe.py on both, two rounds interleaved; memcheck on
# tools/sanitize_lpn.py's Cols cases; the LPNorm tests of other axes on the GPU (test_cols_cut_axis_gpu
# and every layout / axis test). Files under $OUT: s27d_log.txt, probe.txt, memcheck.txt, cols_tests.txt.
NAME=${NAME:-s27d}
END=${END:-500}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
VARIANT_CXXFLAGS=-DINFINI_LP_NORM_COLS_SPLIT=0 build_variant_pair build/uncut "" native/src/ops/lp_norm/nvidia.cc
probe_rounds "$OUT/probe.txt" tools/cols_probe.py build/lib build/uncut/lib
lpn_sanitize memcheck "$OUT/memcheck.txt" cols
cols_gpu_tests "$OUT/cols_tests.txt" 200
step "done"
