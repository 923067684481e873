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
# Files under $OUT: s48a_log.txt, ab.txt, tests.txt.
NAME=${NAME:-s48a}
END=${END:-400}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
L=native/src/ops/lp_norm
build_variant_sets "build_big|-DINFINI_LP_NORM_SLAB_BIG_KB=96|$L/nvidia.cc $L/slab.cu"
variant_tests build_big 60 50 tests/test_lp_norm.py "nvidia and (slab or column_chunks or nonfinite)" \
    "nvidia and slab"
cp notes/sweeps/session47_slab_big_cases.txt /tmp/big.txt
ab_repro 50 big=default=build big=big=build_big big=default2=build
step "done"
