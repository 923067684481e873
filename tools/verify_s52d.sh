#!/usr/bin/env bash
# Session 52, call 2 (H200): the two rules written after call 1, each against its former self on fresh cases
# it moves, then the GPU tests of what they touch and the whole suite on the tree:
# - Mul: narrow planes (5-8 rows) to the lane gather where the transposed input steps at most nj elements
#   along the output's rows and its sectors are reused in L2 (elementwise/nvidia.h LANE_TILE_ROWS 8 with
#   plan_nvidia.cc's conditions) against build_lr0 (LANE_TILE_ROWS=0, the former narrow tiles) on 120 fresh
#   cases (shaped_cases.py mulnarrow 5252, those the rule moves; notes/sweeps/session52_lane_rule_cases.txt);
# - LPNorm: the cut axis's kernels of 8 rows of 16-byte F64 / F32 packs at 3 blocks an SM (cols.cu
#   CUT_WIDE_MIN_BLOCKS) against build_cw4 (at 4, as before) on 80 fresh cases (shaped_cases.py colscut 5262:
#   40 F64 pairs, 40 F32 4-packs at 8 rows; notes/sweeps/session52_cut_wide_cases.txt);
# - the Mul tiled / gather / lane GPU tests and memcheck on the default library; the whole suite on it.
# Files under $OUT: s52d_log.txt, ab.txt (runs: old, new, old2), tests.txt, gpu_suite shards.
NAME=${NAME:-s52d}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_sets "build_lr0|-DINFINI_ELEMENTWISE_LANE_TILE_ROWS=0|native/src/ops/elementwise/plan_nvidia.cc" \
    "build_cw4|-DINFINI_LP_NORM_COLS_CUT_WIDE_MIN_BLOCKS=4|native/src/ops/lp_norm/cols.cu"
cp notes/sweeps/session52_lane_rule_cases.txt /tmp/lr.txt
cp notes/sweeps/session52_cut_wide_cases.txt /tmp/cw.txt
ab_repro 40 lr=old=build_lr0 lr=new=build lr=old2=build_lr0
ab_repro 40 cw=old=build_cw4 cw=new=build cw=old2=build_cw4
variant_tests build 60 45 tests/test_mul.py "nvidia and (tile or gather or lane or narrow)"
whole_suite 240
step "done"
