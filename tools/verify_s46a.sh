#!/usr/bin/env bash
# Session 46, call 1 (H200): word stores in the box transpose kernel (INFINI_REARRANGE_BOX_WORD_BYTES,
# box.cuh). The default stores a unit (1 or 2 bytes) a thread, each located by a division per box dim;
# the variants store 4, 8 or 16 bytes a thread along dst's runs, a unit located once a word and then
# stepped. tools/box_emulate.cc ran every variant on 446 random box plans bit for bit (and caught three
# mutations). Here:
# - build_w4 / build_w8 / build_w16 beside the default (kernels_u1.cu, kernels_u2.cu, the planner);
# - A/B on 107 box cases (notes/sweeps/session46_box_cases.txt: every earlier sweep's Rearrange case
#   behind PyTorch that plans a box, and 60 of tools/shaped_cases.py box 46);
# - Rearrange GPU tests on build_w8 and the box tests on w4 / w16, memcheck on the box tests.
# Files under $OUT: s46a_log.txt, ab.txt, tests.txt. (Call 1 of session 46 ran it at 5f3019f: the default
# library's build ran past its 110 s cap in lp_norm/cpu.cc, so nothing was measured; verify_s46b.sh reruns it.)
NAME=${NAME:-s46a}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
R=native/src/ops/rearrange
SRC="$R/kernels_u1.cu $R/kernels_u2.cu $R/rearrange_nvidia.cc"
build_variant_sets \
    "build_w4|-DINFINI_REARRANGE_BOX_WORD_BYTES=4|$SRC" \
    "build_w8|-DINFINI_REARRANGE_BOX_WORD_BYTES=8|$SRC" \
    "build_w16|-DINFINI_REARRANGE_BOX_WORD_BYTES=16|$SRC"
cp notes/sweeps/session46_box_cases.txt /tmp/box.txt
ab_repro 70 box=default=build box=w4=build_w4 box=w8=build_w8 box=w16=build_w16
variant_tests build_w8 90 50 tests/test_rearrange.py "nvidia" "dense_block or (small and nvidia)"
variant_tests build_w4 30 30 tests/test_rearrange.py "dense_block and (nvidia or large)"
variant_tests build_w16 30 30 tests/test_rearrange.py "dense_block and (nvidia or large)"
ab_repro 50 box=w8b=build_w8 box=defaultb=build
step "done"
