#!/usr/bin/env bash
# Session 43's second call (H200), after verify_s43a.sh.
# Rearrange: session 42 sent 2-byte tiles whose b group (dst's innermost dims, cut short by a's dim) fills
# under 80% of its span to the generic kernel (INFINI_REARRANGE_MIN_B_FILL_2B 80: 78 such F16 permutations
# 0.806x, behind PyTorch 30 -> 8). The same gate for int8 / F32 / F64 tiles, INFINI_REARRANGE_MIN_B_FILL
# (rearrange_nvidia.cc, host, default 0), at 80 (build_obfill80): Rearrange's GPU tests and memcheck on its
# generic / small-dim / many-dim tests there; A/B on 90 int8 / F32 / F64 permutations with tiles 50%+ full
# and b under 88% of its span (notes/sweeps/session42_bshort_other_cases.txt), the seed-42 sweep's
# Rearrange cases behind of those units, and session 40's random permutations of those units.
# Mul (elementwise/nvidia.h's session-43 knobs, kernels_f16.cu + the planner; F16 / BF16 only, the other
# kernel files copied from the default build, whose planner then sizes int8 / int16 grids for the
# variant's rounds: correct, as the kernels loop, but not measured here):
# - build_tile4: INFINI_ELEMENTWISE_TILE_ROUND_BYTES=4 (a tiled block takes 2 tiles of 2-byte elements a
#   round); build_tile4g0: the same and INFINI_ELEMENTWISE_GATHER_PLANE_BYTES=0 (small transposed planes to
#   tiles, not the gather form); build_lane16: INFINI_ELEMENTWISE_LANE_ROUND_BYTES=16 (8 elements of 2
#   bytes a lane-mapping thread a round).
# - Mul's GPU tests on build_tile4g0 and build_lane16, memcheck on the transposed / gathered tests there.
# - A/B: the seed-42 sweep's Mul cases behind and 100 random permuted Mul cases (shaped_cases.py mulperm
#   43 200, 16-bit lines) on the default and the three variants.
# - ncu (time left): (1234, 15275) F32 and (4983, 940) F64 axis 0 (the cut axis: Stats, Factor, Apply),
#   at 1.15x PyTorch in the seed-42 sweep and ~2.2 TB/s for their three passes.
# Files under $OUT: s43b_log.txt, tests.txt, ab.txt, ncu_behind.txt.
NAME=${NAME:-s43b}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
F="-DINFINI_REARRANGE_MIN_B_FILL=80"
VARIANT_CXXFLAGS="$F" build_variant_pair build_obfill80 "$F" native/src/ops/rearrange/rearrange_nvidia.cc
M="native/src/ops/mul/kernels_f16.cu native/src/ops/elementwise/plan_nvidia.cc"
for v in "tile4:-DINFINI_ELEMENTWISE_TILE_ROUND_BYTES=4" \
    "tile4g0:-DINFINI_ELEMENTWISE_TILE_ROUND_BYTES=4 -DINFINI_ELEMENTWISE_GATHER_PLANE_BYTES=0" \
    "lane16:-DINFINI_ELEMENTWISE_LANE_ROUND_BYTES=16"; do
    VARIANT_CXXFLAGS="${v#*:}" build_variant_pair "build_${v%%:*}" "${v#*:}" $M
done
variant_tests build_obfill80 60 30 tests/test_rearrange.py "nvidia" "nvidia and (generic or small_dim or many_dim)"
for lib in build_tile4g0 build_lane16; do
    variant_tests $lib 60 30 tests/test_mul.py "nvidia" "nvidia and (transposed or gathered or narrow)"
done
cp notes/sweeps/session42_bshort_other_cases.txt /tmp/obshort.txt
grep "^rearrange.*\(int8\|float32\|float64\):" notes/sweeps/session42_behind.txt >/tmp/re42.txt
$PY tools/shaped_cases.py reperm 40 80 | grep -v float16 >/tmp/reperm.txt
grep "^mul" notes/sweeps/session42_behind.txt >/tmp/mul42.txt
$PY tools/shaped_cases.py mulperm 43 200 | grep "float16\|bfloat16" | head -n 100 >/tmp/mulperm.txt
wc -l /tmp/*.txt >>"$LOG"
ab_repro 40 obshort=default=build obshort=b80=build_obfill80 re42=default=build re42=b80=build_obfill80 \
    reperm=default=build reperm=b80=build_obfill80
ab_repro 40 mul42=default=build mul42=tile4=build_tile4 mul42=tile4g0=build_tile4g0 mul42=lane16=build_lane16 \
    mulperm=default=build mulperm=tile4=build_tile4 mulperm=tile4g0=build_tile4g0 mulperm=lane16=build_lane16
if [ $((END - SECONDS)) -ge 50 ]; then
    step "ncu: two cut-axis Cols cases of the seed-42 sweep"
    LINES="lp_norm (1234, 15275) axis 0 p 2 float32;lp_norm (4983, 940) axis 0 p 2 float64" OUT="$OUT" \
        timeout -k 3 "$(cap 60)" bash tools/ncu_behind.sh
    echo "ncu rc=$?" | tee -a "$LOG"
fi
step "done"
