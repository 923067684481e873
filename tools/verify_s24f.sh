#!/usr/bin/env bash
# Session 24: the Grid plan through the library (nvidia.cc built with -DINFINI_LP_NORM_GRID=1, so that
# Grid takes every long-row case it plans, before Hold, Pipe and TwoPass): the LPNorm GPU tests and
# memcheck on tools/sanitize_lpn.py against that library; then the Hold GPU tests on the default
# library (Hold's scaleWords now device.cuh's scalePack).
# Files under $OUT: s24f_log.txt, grid_lp_tests.txt, grid_memcheck.txt, hold_tests.txt.
NAME=${NAME:-s24f}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
VARIANT_CXXFLAGS=-DINFINI_LP_NORM_GRID=1 build_variant_pair build/grid "" native/src/ops/lp_norm/nvidia.cc
INFINIOP_LIBRARY="$PWD/build/grid/lib/libinfiniop.so" lpnorm_gpu_tests "$OUT/grid_lp_tests.txt" 220
INFINIOP_LIBRARY="$PWD/build/grid/lib/libinfiniop.so" lpn_sanitize memcheck "$OUT/grid_memcheck.txt"
hold_gpu_tests "$OUT/hold_tests.txt" 130
step "done"
