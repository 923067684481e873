#!/usr/bin/env bash
# Written in session 39 (its device time spent) for session 40's first call (H200). Two measuring knobs,
# each off by default (the default build's kernels are byte-identical to session 39's call 5):
# - build_lean: the generic Rearrange kernel's lean variants (INFINI_REARRANGE_GENERIC_LEAN=1: 32-bit
#   offsets, and no dst offsets where dst is in the linear order; 32 registers for 1-2-byte units against
#   40-44, 512 SASS instructions against 704 for the 5-dim 2-byte form). Session 39's sweep: 5-D F16
#   permutations at up to 2.26x PyTorch's time ((6,39,89,24,38) order (4,2,1,0,3) 131 against 58 µs).
# - build_lane: Mul's gather form in the lane mapping (INFINI_ELEMENTWISE_LANE_GATHER=1) with the rule
#   written after session 39's call 5 (transposed inputs whose unit-stride neighbours lie over 2 KB of
#   output apart; call 5, without the rule: geomean 0.95 with losses up to 1.31x where they lay close).
# - build_lanetiles: that and INFINI_ELEMENTWISE_LANE_TILE_ROWS=12: planes of at most 12 rows far from the
#   output's rows on the lane mapping instead of narrow tiles ((6,167,97,121) F16: 54.6 against 34.5 µs).
# Runs: each variant's tests and memcheck; session 39's Rearrange and Mul behind cases, 120 random
# permuted Mul cases, on the default and the variants. Files: s40a_log.txt, tests.txt, ab.txt.
NAME=${NAME:-s40a}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
r=native/src/ops/rearrange
m=native/src/ops/mul
LEAN="-DINFINI_REARRANGE_GENERIC_LEAN=1"
LANE="-DINFINI_ELEMENTWISE_LANE_GATHER=1"
VARIANT_CXXFLAGS="$LEAN" build_variant_pair build_lean "$LEAN" $r/kernels_u1.cu $r/kernels_u2.cu $r/kernels_u4.cu \
    $r/kernels_u8.cu $r/kernels_u16.cu $r/rearrange_nvidia.cc
VARIANT_CXXFLAGS="$LANE" build_variant_pair build_lane "$LANE" $m/kernels_f16.cu $m/kernels_f32.cu \
    $m/kernels_int_small.cu $m/kernels_int_large.cu native/src/ops/elementwise/plan_nvidia.cc
VARIANT_CXXFLAGS="$LANE -DINFINI_ELEMENTWISE_LANE_TILE_ROWS=12" build_variant_pair build_lanetiles \
    "$LANE -DINFINI_ELEMENTWISE_LANE_TILE_ROWS=12" $m/kernels_f16.cu $m/kernels_f32.cu $m/kernels_int_small.cu \
    $m/kernels_int_large.cu native/src/ops/elementwise/plan_nvidia.cc
variant_tests build_lean 60 40 tests/test_rearrange.py "nvidia" "nvidia and (small_dim or many_dim or generic or negative)"
variant_tests build_lanetiles 60 30 tests/test_mul.py "nvidia" "nvidia and (gathered or transposed or narrow)"
grep "^rearrange" notes/sweeps/session39_behind.txt >/tmp/re.txt
grep "^mul" notes/sweeps/session39_behind.txt >/tmp/mul.txt
$PY tools/shaped_cases.py mulperm 39 120 >/tmp/perm.txt
ab_repro 40 re=default=build re=lean=build_lean mul=default=build mul=lane=build_lane mul=lanetiles=build_lanetiles \
    perm=default=build perm=lane=build_lane perm=lanetiles=build_lanetiles
step "done"
