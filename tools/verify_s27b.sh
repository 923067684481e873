#!/usr/bin/env bash
# Session 27: Hold planned for F32 / F64 rows and more 2-byte shapes (nvidia.cc's holdPays,
# INFINI_LP_NORM_HOLD_WIDER). The library and, beside it, one built with -DINFINI_LP_NORM_HOLD_WIDER=0
# (session 26's rule); tools/hold_wider_probe.py on both, two rounds interleaved; LPNorm's GPU tests
# (the Hold ones) and memcheck on tools/sanitize_lpn.py (every plan) on the library.
# Files under $OUT: s27b_log.txt, probe.txt, lp_tests.txt, memcheck.txt.
NAME=${NAME:-s27b}
END=${END:-590}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
VARIANT_CXXFLAGS=-DINFINI_LP_NORM_HOLD_WIDER=0 build_variant_pair build/narrow "" native/src/ops/lp_norm/nvidia.cc
probe_rounds "$OUT/probe.txt" tools/hold_wider_probe.py build/lib build/narrow/lib
lpn_sanitize memcheck "$OUT/memcheck.txt"
hold_gpu_tests "$OUT/lp_tests.txt" 200
step "done"
