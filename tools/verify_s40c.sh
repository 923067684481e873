#!/usr/bin/env bash
# Session 40, call 3 (H200): two measuring knobs, each built as variants beside the default library.
# - LPNorm's Split statistics kernel (rows.cu): INFINI_LP_NORM_SPLIT_STATS_PLAIN=1 (each chunk's one-pass
#   sum first, the scaled statistics only where it is out of range), alone (build_plain) and with
#   INFINI_LP_NORM_SPLIT_STATS_MIN_BLOCKS=3 (build_plain3: 80 registers for the 16-bit forms, 3 blocks an
#   SM). Call 2's ncu: one ragged row of 9114740 BF16, Stats 23.1 µs of the call's 44.5 (PyTorch's
#   reduction 13.2); the sweeps' ragged single rows run 1.0-1.17x PyTorch's time.
# - Rearrange's tile fill gate (rearrange_nvidia.cc INFINI_REARRANGE_MIN_TILE_FILL, 50 now) at 65 and 80:
#   call 2's ncu put session 39's two worst 5-D F16 cases on skewWordTileKernel (59% and 64% full tiles,
#   2.2x PyTorch's instructions), and the generic kernel got its lean forms in call 1.
# Runs: each kind's tests and memcheck on one variant; session 39's and call 2's (seed 40) behind cases and
# 80 random 4-5-dim permutations (tools/shaped_cases.py reperm) on the default and the variants.
# Files under $OUT: s40c_log.txt, tests.txt, ab.txt.
NAME=${NAME:-s40c}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
P1="-DINFINI_LP_NORM_SPLIT_STATS_PLAIN=1"
P3="-DINFINI_LP_NORM_SPLIT_STATS_PLAIN=1 -DINFINI_LP_NORM_SPLIT_STATS_MIN_BLOCKS=3"
VARIANT_CXXFLAGS="$P1" build_variant_pair build_plain "$P1" native/src/ops/lp_norm/rows.cu
VARIANT_CXXFLAGS="$P3" build_variant_pair build_plain3 "$P3" native/src/ops/lp_norm/rows.cu
for f in 65 80; do
    F="-DINFINI_REARRANGE_MIN_TILE_FILL=$f"
    VARIANT_CXXFLAGS="$F" build_variant_pair build_fill$f "$F" native/src/ops/rearrange/rearrange_nvidia.cc
done
variant_tests build_plain3 90 45 tests/test_lp_norm.py \
    "ragged_rows or nonfinite_inputs_long_rows or extreme_magnitudes_long_rows or long_rows_many or few_long_rows" \
    "ragged_rows_gpu or nonfinite_inputs_long_rows"
variant_tests build_fill80 40 30 tests/test_rearrange.py "nvidia" "nvidia and (generic or small_dim or many_dim)"
{ grep "^lp_norm" notes/sweeps/session39_behind.txt; grep "^lp_norm.*BEHIND" notes/sweeps/session40_behind.txt; } >/tmp/lpn.txt
{ grep "^rearrange" notes/sweeps/session39_behind.txt; grep "^rearrange.*BEHIND" notes/sweeps/session40_behind.txt; } >/tmp/re.txt
$PY tools/shaped_cases.py reperm 40 80 >/tmp/reperm.txt
ab_repro 40 lpn=default=build lpn=plain=build_plain lpn=plain3=build_plain3 \
    re=default=build re=fill65=build_fill65 re=fill80=build_fill80 \
    reperm=default=build reperm=fill65=build_fill65 reperm=fill80=build_fill80
step "done"
