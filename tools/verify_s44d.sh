#!/usr/bin/env bash
# Session 44, a diagnostic call (H200) with the device time the closing call left: ncu's stall reasons
# (the WarpStateStats section beside ncu_behind.sh's metrics), ours and PyTorch's kernels, on
# - (1460, 18847) F16 axis 1 p 1 on the default and on build_tail2 (INFINI_LP_NORM_STREAM_ASYNC_TAIL=2,
#   stream.cu): session 43's ncu found the same instructions, DRAM bytes and L2 sectors in both, yet
#   48.9 against 104.1 µs; where the slower form's warps wait is the question.
# - Mul (663,368,31) BF16 a order (2,0,1) b (1,1,31), the sweep's worst Mul case (28.8 against PyTorch's
#   21.9 µs), a 31 x 243984 tiled plane on which neither more bytes in flight nor flat stores helped.
# - Then (written after session 44's calls): the seed-44 sweep's LPNorm cases behind PyTorch again on the
#   default library, after MIN_ROW_BYTES_2B's restriction to the 16-row kernel (35ce3f5: 4 of them, the
#   worst 1.45x, take their session-43 streamed plans again; not measured since).
# - And build_wide (INFINI_ELEMENTWISE_WIDE_TILES_2B=7: tiles of 64 / 128 along j for 1- and 2-byte
#   elements; kernels_f16, kernels_int_small and the planner; default SASS and host object byte-identical):
#   Mul's GPU tests on it (TRANSPOSES' (141,37,31), (300,37,31) and (190,1000) take 128- and 64-wide
#   tiles), memcheck on the transposed ones, then A/B on the 52 cases of the sweeps' lists and three
#   mulperm sets whose plan it changes (notes/sweeps/session44_widetile_cases.txt, tools/mul_plan_probe.cc),
#   the three worst tiled Mul cases among them.
# Files under $OUT: s44d_log.txt, ncu_behind.txt, ab.txt, tests.txt.
NAME=${NAME:-s44d}
END=${END:-520}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_pair build_tail2 "-DINFINI_LP_NORM_STREAM_ASYNC_TAIL=2" native/src/ops/lp_norm/stream.cu
M=native/src/ops/mul F="-DINFINI_ELEMENTWISE_WIDE_TILES_2B=7"
VARIANT_CXXFLAGS="$F" build_variant_pair build_wide "$F" $M/kernels_f16.cu $M/kernels_int_small.cu \
    native/src/ops/elementwise/plan_nvidia.cc
grep -h "^lp_norm" notes/sweeps/session44_behind.txt >/tmp/lp44.txt
cp notes/sweeps/session44_widetile_cases.txt /tmp/mulw.txt
ab_repro 30 lp44=default=build mulw=default=build mulw=wide=build_wide
variant_tests build_wide 60 30 tests/test_mul.py "nvidia" "nvidia and transposed"
export SECTIONS="WarpStateStats"
ncu_line build "mul (663, 368, 31) a order (2, 0, 1) b (1, 1, 31) bfloat16"
for lib in build build_tail2; do
    ncu_line $lib "lp_norm (1460, 18847) axis 1 p 1 float16"
done
step "done"
