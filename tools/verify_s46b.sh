#!/usr/bin/env bash
# Session 46, call 2 (H200): verify_s46a.sh's box word stores again (call 1's build ran past its cap: host
# C++ lp_norm/cpu.cc now takes ~115 s on this machine; library_build's cap is 240 s), and planTile's
# grouping with the shorter group grown first (INFINI_REARRANGE_GROW_SHORTER=1, rearrange_nvidia.cc):
# a dim that continues both the src and the dst run goes to the group that needs it, and the fuller of
# the two groupings is taken. tools/box_emulate.cc --probe over 4112 Rearrange cases: identical plans at
# 0; at 1, 223 change (177 generic -> tiles, 46 regrouped tiles, none to generic).
# - build_w4 / build_w8 / build_w16 (kernels_u1.cu, kernels_u2.cu, the planner), build_grow (the planner);
# - A/B: 107 box cases (notes/sweeps/session46_box_cases.txt) on default / w4 / w8 / w16; 108 of the 223
#   regrouped cases (notes/sweeps/session46_grow_cases.txt) on default / grow;
# - Rearrange GPU tests on build_grow (test_rearrange.py; memcheck on the new and the small-dim tests),
#   the box tests on build_w8 with memcheck.
# Files under $OUT: s46b_log.txt, ab.txt, tests.txt.
NAME=${NAME:-s46b}
END=${END:-550}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
R=native/src/ops/rearrange
SRC="$R/kernels_u1.cu $R/kernels_u2.cu $R/rearrange_nvidia.cc"
build_variant_sets \
    "build_w4|-DINFINI_REARRANGE_BOX_WORD_BYTES=4|$SRC" \
    "build_w8|-DINFINI_REARRANGE_BOX_WORD_BYTES=8|$SRC" \
    "build_w16|-DINFINI_REARRANGE_BOX_WORD_BYTES=16|$SRC" \
    "build_grow|-DINFINI_REARRANGE_GROW_SHORTER=1|$R/rearrange_nvidia.cc"
cp notes/sweeps/session46_box_cases.txt /tmp/box.txt
cp notes/sweeps/session46_grow_cases.txt /tmp/grow.txt
ab_repro 55 box=default=build box=w4=build_w4 box=w8=build_w8 box=w16=build_w16
ab_repro 55 grow=default=build grow=grow=build_grow
variant_tests build_grow 60 40 tests/test_rearrange.py "nvidia" "continuing_both or (small and nvidia)"
variant_tests build_w8 30 30 tests/test_rearrange.py "dense_block and (nvidia or large)"
step "done"
