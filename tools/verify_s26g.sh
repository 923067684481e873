#!/usr/bin/env bash
# Session 26: Hold planned for fewer rows and 512K rows (nvidia.cc's holdPays). The library and, beside
# it, one built with -DINFINI_LP_NORM_HOLD_WIDE=0 (8+ rows of 1M only, as before); tools/hold_rule_probe.py
# on both, two rounds interleaved; LPNorm's GPU tests (tools/gpu_suite.sh's lp_gpu shard) and memcheck on
# tools/sanitize_lpn.py on the library.
# Files under $OUT: s26g_log.txt, probe.txt, lp_tests.txt, memcheck.txt.
NAME=${NAME:-s26g}
END=${END:-590}
source "$(dirname "$0")/verify_common.sh"
VARIANT_CXXFLAGS=-DINFINI_LP_NORM_HOLD_WIDE=0 build_variant_pair build/narrow "" native/src/ops/lp_norm/nvidia.cc
probe_rounds "$OUT/probe.txt" tools/hold_rule_probe.py build/lib build/narrow/lib
lpnorm_gpu_tests "$OUT/lp_tests.txt" 300
lpn_sanitize memcheck "$OUT/memcheck.txt"
step "done"
