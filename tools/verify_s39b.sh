#!/usr/bin/env bash
# Session 39, call 2 (H200): Mul's transposed planes. Session 38's sweep found its worst Mul cases
# on the gather form with a transposed operand whose unit-stride dim j lies outside other output
# dims ((69,13,80,71) BF16 a order (0,2,3,1): 1.81x PyTorch's time; (27,281,509) BF16 a order
# (1,2,0): 1.73x); j shorter than 16 has no tiles at all. Two knobs (elementwise/nvidia.h,
# plan_nvidia.cc), both off by default:
# - build_nt: INFINI_ELEMENTWISE_NARROW_TILES=1, tiles of 8 or 16 along j (128 or 64 along i) for
#   planes of 5-31 rows where they are fuller than 32x32 tiles;
# - build_ntr: that and INFINI_ELEMENTWISE_GATHER_REUSE_BYTES=1024: the gather form only where j's
#   neighbours lie at most 1 KB of output apart.
# - build_old: session 38's defaults for the three knobs session 39's call 1 flipped
#   (INFINI_REARRANGE_GENERIC_UNROLLED_DIMS 4, INFINI_REARRANGE_BOX_VEC_LOADS 0, INFINI_LP_NORM_SLAB_CHUNKS 0),
#   against the default build with them (the box loads now only for blocks of 64 bytes and more, the
#   column chunks in place of scalar Cols only, at most 100 rows).
# Runs: Mul's GPU tests on build_ntr (and memcheck on the narrow planes); session 38's Mul behind cases
# and 120 random Mul cases with a permuted (tools/shaped_cases.py mulperm 39 120) on the default and both
# Mul variants; the random box-shaped cases and session 38's LPNorm behind cases on build_old and the
# default. Files: s39b_log.txt, tests.txt, ab.txt.
NAME=${NAME:-s39b}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
m=native/src/ops/mul
MUL_SRCS="$m/kernels_f16.cu $m/kernels_f32.cu $m/kernels_int_small.cu $m/kernels_int_large.cu native/src/ops/elementwise/plan_nvidia.cc"
NT="-DINFINI_ELEMENTWISE_NARROW_TILES=1"
NTR="$NT -DINFINI_ELEMENTWISE_GATHER_REUSE_BYTES=1024"
r=native/src/ops/rearrange
OLD="-DINFINI_REARRANGE_GENERIC_UNROLLED_DIMS=4 -DINFINI_REARRANGE_BOX_VEC_LOADS=0 -DINFINI_LP_NORM_SLAB_CHUNKS=0"
VARIANT_CXXFLAGS="$OLD" build_variant_pair build_old "$OLD" $r/kernels_u1.cu $r/kernels_u2.cu $r/kernels_u4.cu \
    $r/kernels_u8.cu $r/kernels_u16.cu $r/rearrange_nvidia.cc native/src/ops/lp_norm/nvidia.cc
VARIANT_CXXFLAGS="$NT" build_variant_pair build_nt "$NT" $MUL_SRCS
VARIANT_CXXFLAGS="$NTR" build_variant_pair build_ntr "$NTR" $MUL_SRCS
variant_tests build_ntr 90 30 tests/test_mul.py "nvidia" "nvidia and narrow"
grep "^mul" notes/sweeps/session38_behind.txt >/tmp/mul.txt
grep "^lp_norm" notes/sweeps/session38_behind.txt >/tmp/lpn.txt
$PY tools/shaped_cases.py mulperm 39 120 >/tmp/perm.txt
$PY tools/shaped_cases.py box 38 80 >/tmp/box.txt
ab_repro 45 mul=default=build mul=nt=build_nt mul=ntr=build_ntr perm=default=build perm=nt=build_nt perm=ntr=build_ntr \
    box=old=build_old box=default=build lpn=old=build_old lpn=default=build
step "done"
