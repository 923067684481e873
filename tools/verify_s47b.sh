#!/usr/bin/env bash
# Written at the end of session 46 for session 47 (H200), not yet run: 32-unit unit tiles for 1- and
# 2-byte transposes whose 64-unit tiles the fill gates refuse (INFINI_REARRANGE_SMALL_TILES=1; nvidia.h,
# rearrange_nvidia.cc planTile, unit_tile.cuh's tileKernel<U, 32>). Those cases run the generic kernel now,
# level with PyTorch at 0.3-0.8 TB/s on the largest F16 ones ((74,33,54,10,34) F16 627 µs, PyTorch 690).
# tools/rearr_plan_probe.cc: 306 of 4112 probe cases and 43 of the seed-46 sweep's 934 Rearrange cases
# move from the generic kernel to the small tiles (F16 and int8). tools/tile_emulate.cc ran the kernel on
# 205 random small-tile plans (and 317 plans of 64-unit unit tiles) bit for bit; two mutations (a
# 64-unit tile count for 32-unit tiles, unguarded dst stores) failed 41 and 94 cases. At 0 the Rearrange
# kernels' SASS and the plans are unchanged.
# - build_small (kernels_u1.cu, kernels_u2.cu, the planner) beside the default;
# - A/B: 103 cases (notes/sweeps/session46_small_tile_cases.txt: the 43 seed-46 cases, 60 of the probe's),
#   default / small, then small again;
# - Rearrange's GPU tests on build_small, memcheck on the short-run, contested-dim and small-dim tests;
# - ncu on (74,33,54,10,34) F16 on both (the generic kernel's L2 traffic against the tiles').
# Files under $OUT: s47b_log.txt, ab.txt, tests.txt, ncu_behind.txt.
NAME=${NAME:-s47b}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
R=native/src/ops/rearrange
build_variant_sets "build_small|-DINFINI_REARRANGE_SMALL_TILES=1|$R/kernels_u1.cu $R/kernels_u2.cu $R/rearrange_nvidia.cc"
cp notes/sweeps/session46_small_tile_cases.txt /tmp/small.txt
ab_repro 60 small=default=build small=small=build_small small=small2=build_small
variant_tests build_small 90 60 tests/test_rearrange.py "nvidia or large" \
    "(short_src or continuing_both or small_dim or dense_block) and (nvidia or large)"
ncu_line build "rearrange (74, 33, 54, 10, 34) src order (2, 1, 4, 3, 0) dst (605880, 18360, 340, 34, 1) float16"
ncu_line build_small "rearrange (74, 33, 54, 10, 34) src order (2, 1, 4, 3, 0) dst (605880, 18360, 340, 34, 1) float16"
step "done"
