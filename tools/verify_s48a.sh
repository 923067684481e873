#!/usr/bin/env bash
# Written at the end of session 47 for session 48 (H200), not yet run: one LPNorm slab a block past 32 KB
# (INFINI_LP_NORM_SLAB_BIG_KB=96: nvidia.cc planSlab, slab.cu planSlabSmem sets the Slab kernel's dynamic
# shared-memory limit past 48 KB at Create). The seed-47 sweep's worst LPNorm case, (65,18,69,261) F32 axis 2
# p 1 (70 KB slabs on scalar Cols), ran 142.2 µs against PyTorch's 109.1. tools/lp_plan_probe.cc: 1971 of
# 3000 random cases with 32-96 KB slabs change (1265 from column chunks, 499 from scalar Cols, 207 from
# packed Cols); 104 of them in notes/sweeps/session47_slab_big_cases.txt (50 / 30 / 20 and 4 sweep cases).
# At 32 the Slab kernels' code is unchanged (sm_90 cubin .text contents identical).
# - build_big (nvidia.cc, slab.cu) beside the default; A/B default / big / default again;
# - LPNorm Slab / column-chunk / non-finite GPU tests on build_big (test_slab_groups has two big shapes),
#   memcheck on the Slab ones.
# - build_b64 (INFINI_REARRANGE_SMALL_TILE_B=64: kernels_u2.cu, rearrange_nvidia.cc): the Rearrange small
#   tiles as 32 x 64 units (8 units a thread instead of 4; tools/tile_emulate.cc: 28 such plans bit for bit,
#   two mutations caught), A/B on the 81 small-tile cases that keep small tiles there
#   (notes/sweeps/session47_small_tile_b64_cases.txt; 22 of the 103 would go back to the generic kernel);
#   Rearrange GPU tests on it, memcheck on the short-run ones.
# Files under $OUT: s48a_log.txt, ab.txt, tests.txt.
NAME=${NAME:-s48a}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
L=native/src/ops/lp_norm
R=native/src/ops/rearrange
build_variant_sets "build_big|-DINFINI_LP_NORM_SLAB_BIG_KB=96|$L/nvidia.cc $L/slab.cu" \
    "build_b64|-DINFINI_REARRANGE_SMALL_TILE_B=64|$R/kernels_u2.cu $R/rearrange_nvidia.cc"
variant_tests build_big 60 50 tests/test_lp_norm.py "nvidia and (slab or column_chunks or nonfinite)" \
    "nvidia and slab"
cp notes/sweeps/session47_slab_big_cases.txt /tmp/big.txt
ab_repro 50 big=default=build big=big=build_big big=default2=build
variant_tests build_b64 60 30 tests/test_rearrange.py "nvidia or large" "(short_src or small_dim) and nvidia"
cp notes/sweeps/session47_small_tile_b64_cases.txt /tmp/b64.txt
ab_repro 40 b64=default=build b64=b64=build_b64 b64=default2=build
step "done"
