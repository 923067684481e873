#!/usr/bin/env bash
# Session 47's third call (H200): three measuring knobs against main (c87f5d1 and later).
# - build_t128 (INFINI_ELEMENTWISE_TILED_THREADS=128, nvidia.cuh; the Mul kernel files): the tiled kernel
#   in blocks of 128 threads, 8 of a tile's elements a thread instead of 4 (the tiles and plans as they
#   are; at 256 the cubins are byte-identical to before). Session 45's ncu: issue-bound on 16-bit planes.
#   A/B on session 45's 178 tiled cases (notes/sweeps/session45_tiled_cases.txt), default / t128 / default.
# - build_lane (INFINI_ELEMENTWISE_LANE_TILE_ROWS=12, plan_nvidia.cc): transposed planes of at most 12
#   rows whose j neighbours lie over 2 KB of output apart take the gather form's lane mapping instead of
#   narrow tiles. tools/mul_plan_probe.cc: 92 cases change (notes/sweeps/session47_lane_rows_cases.txt:
#   82 of 6000 random permuted Mul cases and 10 from earlier sweeps, e.g. (7,197,31,105) BF16, 23.1 µs
#   against PyTorch's 17.2 in the seed-46 sweep).
# - build_slabw (INFINI_LP_NORM_SLAB_MAX_INNER=1024, lp_norm/nvidia.cc): the Slab plan for inner extents
#   of 257-1024 (a thread several columns) in place of column chunks or packed Cols. tools/lp_plan_probe.cc:
#   1598 of 3000 random such cases change (1153 from chunks, 445 from packed Cols); 101 of them in
#   notes/sweeps/session47_slab_wide_cases.txt (60 / 40, and the seed-46 sweep's (188,73,11,278) BF16
#   axis 2: 249 µs on chunks against PyTorch's 180).
# - the Mul GPU tests on build_t128, memcheck on its tiled ones; the Slab and column-chunk LPNorm tests
#   on build_slabw, with memcheck.
# Files under $OUT: s47c_log.txt, ab.txt, tests.txt.
NAME=${NAME:-s47c}
END=${END:-555}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
M=native/src/ops/mul
build_variant_sets \
    "build_t128|-DINFINI_ELEMENTWISE_TILED_THREADS=128|$M/kernels_f16.cu $M/kernels_f32.cu $M/kernels_int_small.cu $M/kernels_int_large.cu" \
    "build_lane|-DINFINI_ELEMENTWISE_LANE_TILE_ROWS=12|native/src/ops/elementwise/plan_nvidia.cc" \
    "build_slabw|-DINFINI_LP_NORM_SLAB_MAX_INNER=1024|native/src/ops/lp_norm/nvidia.cc"
variant_tests build_t128 70 60 tests/test_mul.py "nvidia" "nvidia and (wide_tile or transposed or narrow)"
variant_tests build_slabw 50 40 tests/test_lp_norm.py "nvidia and (slab or column_chunks or nonfinite)" \
    "nvidia and (slab or column_chunks)"
cp notes/sweeps/session45_tiled_cases.txt /tmp/tiled.txt
cp notes/sweeps/session47_lane_rows_cases.txt /tmp/lane.txt
cp notes/sweeps/session47_slab_wide_cases.txt /tmp/slabw.txt
ab_repro 50 tiled=default=build tiled=t128=build_t128 tiled=default2=build
ab_repro 30 lane=default=build lane=lane=build_lane
ab_repro 40 slabw=default=build slabw=slabw=build_slabw
step "done"
