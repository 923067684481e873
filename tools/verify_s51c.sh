#!/usr/bin/env bash
# Session 51's third call (H200), on the tree with call 2's two rules merged (the plain-sum merge in the
# cut axis's Stats kernels and F64 Whole; Slab columns of 17-32 rows a thread each for 2- and 4-byte types
# where the group holds >= 128 of them):
# - build_st (INFINI_PACK_STORE_WB=1, every LPNorm kernel file: vector.cuh's plain pack stores as one
#   vector store) against two default runs on 120 cases of <= 60 MB (no streaming hint: plain stores),
#   70 packed Cols and 50 packed Rows (notes/sweeps/session51_pack_store_cases.txt, seeds 5152 / 5153);
# - the whole suite on build_st's library (GPU tests required; the knob's build is the one to merge).
# Files under $OUT: s51c_log.txt, ab.txt, gpu_suite.txt.
NAME=${NAME:-s51c}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
lp=native/src/ops/lp_norm
build_variant_sets "build_st|-DINFINI_PACK_STORE_WB=1|$lp/cols.cu $lp/rows.cu $lp/slab.cu $lp/stream.cu $lp/sweep.cu $lp/two_pass.cu $lp/hold.cu $lp/grid.cu $lp/pipe.cu"
cp notes/sweeps/session51_pack_store_cases.txt /tmp/st.txt
ab_repro 50 st=default=build st=st=build_st st=default2=build
INFINIOP_LIBRARY=$PWD/build_st/lib/libinfiniop.so whole_suite 250
step "done"
