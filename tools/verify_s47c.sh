#!/usr/bin/env bash
# Session 47's third call (H200): two Mul measuring knobs against main, then the bench.
# - build_t128 (INFINI_ELEMENTWISE_TILED_THREADS=128, nvidia.cuh; the Mul kernel files): the tiled kernel
#   in blocks of 128 threads, 8 of a tile's elements a thread instead of 4 (the tiles and plans as they
#   are; at 256 the cubins are byte-identical to before). Session 45's ncu: issue-bound on 16-bit planes.
#   A/B on session 45's 178 tiled cases (notes/sweeps/session45_tiled_cases.txt), default / t128 / default.
# - build_lane (INFINI_ELEMENTWISE_LANE_TILE_ROWS=12, plan_nvidia.cc): transposed planes of at most 12
#   rows whose j neighbours lie over 2 KB of output apart take the gather form's lane mapping instead of
#   narrow tiles. tools/mul_plan_probe.cc: 92 cases change (notes/sweeps/session47_lane_rows_cases.txt:
#   82 of `shaped_cases.py mulperm 47 6000` and 10 from earlier sweeps, e.g. (7,197,31,105) BF16, 23.1 µs
#   against PyTorch's 17.2 in the seed-46 sweep).
# - the Mul GPU tests on build_t128, memcheck on its tiled ones; the end-to-end bench.
# - if time is left, ncu on LPNorm (319,169,86) F64 axis 1 (Cols, 1.39x PyTorch in the seed-46 sweep).
# Files under $OUT: s47c_log.txt, ab.txt, tests.txt, bench.txt / bench.json, ncu_behind.txt.
NAME=${NAME:-s47c}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
M=native/src/ops/mul
build_variant_sets \
    "build_t128|-DINFINI_ELEMENTWISE_TILED_THREADS=128|$M/kernels_f16.cu $M/kernels_f32.cu $M/kernels_int_small.cu $M/kernels_int_large.cu" \
    "build_lane|-DINFINI_ELEMENTWISE_LANE_TILE_ROWS=12|native/src/ops/elementwise/plan_nvidia.cc"
variant_tests build_t128 70 60 tests/test_mul.py "nvidia" "nvidia and (wide_tile or transposed or narrow)"
cp notes/sweeps/session45_tiled_cases.txt /tmp/tiled.txt
cp notes/sweeps/session47_lane_rows_cases.txt /tmp/lane.txt
ab_repro 50 tiled=default=build tiled=t128=build_t128 tiled=default2=build
ab_repro 30 lane=default=build lane=lane=build_lane lane=default2=build
end_to_end_bench "$OUT/bench" 90 60
# If time is left: where LPNorm's F64 columns lose (seed-46 sweep: 56.3 µs against PyTorch's 40.5).
ncu_line build "lp_norm (319, 169, 86) axis 1 p 2 float64"
step "done"
