#!/usr/bin/env bash
# Written in session 43 (its device time spent) for session 44 (H200): two kernel knobs for the Cols plan's
# cut axis (lp_norm/cols.cu, built in parallel: one cols.cu object takes ~100 s):
# - build_sb64: INFINI_LP_NORM_COLS_SMALL_BATCH_BYTES=64: a streaming thread keeps 64 bytes of loads in
#   flight for packs under 16 bytes (16 scalar F32 loads, not 8). Session 43's ncu: (1234, 15275) F32 axis
#   0 (scalar columns) Stats at 2.0 TB/s, 37.0 µs, against PyTorch's reduce at 28.3.
# - build_fr32: INFINI_LP_NORM_COLS_FACTOR_ROWS=32: Factor blocks of 32 thread rows (not 8), fewer records
#   a thread to walk. Session 43's ncu: (4983, 940) F64's Factor kernel 6.0 µs (30 blocks, 78 chunks).
# Tests: the Cols GPU tests (139) on both, memcheck on the cut-axis ones. A/B: the seed-42 and seed-43
# LPNorm cases behind and 60 random cut-axis cases (shaped_cases.py colscut 44 60).
# Mul (build_flat: INFINI_ELEMENTWISE_TILED_FLAT_OUT=1 in kernels_f16.cu, kernels_f32.cu and the planner,
# seconds to build): tiles over all of the output's rows (ni <= 32) store their contiguous run flat, 4
# elements a thread. tools/mul_plan_probe.cc: 3 of the 69 seed-42/43 Mul cases behind take it, the worst
# among them ((663,368,31) BF16 1.32x, (323,239,27) BF16 1.17x, (15,22,109,25) F64). Mul's GPU tests on it
# (test_transposed_and_reversed's (141,37,31) case takes the flat kernel), memcheck on the transposed ones;
# A/B on the 69 cases (the other 66 a control).
# Added in session 44 after call 1 (verify_s44a.sh): INFINI_LP_NORM_COLS_MIN_ROW_BYTES_2B is now 32 in the
# default build; build_uncut1 (INFINI_LP_NORM_COLS_UNCUT_MIN_ROW_BYTES=128 with ..._UNCUT_ONE_WAVE=1: F64
# everywhere, other types only where the uncut grid is at most one wave of the Whole kernel, the rule read
# off call 1's 50 colsband cases) on a fresh set (colsband 45 50; the probe: 16 of its 50 change plan) and
# the seed-42/43 cases. The A/B runs before the tests (the closing call's whole suite tests what is
# merged), and the variant objects build beside the default library.
# Files under $OUT: s44b_log.txt, tests.txt, ab.txt.
NAME=${NAME:-s44b}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variants_parallel native/src/ops/lp_norm/cols.cu "build_sb64:-DINFINI_LP_NORM_COLS_SMALL_BATCH_BYTES=64" \
    "build_fr32:-DINFINI_LP_NORM_COLS_FACTOR_ROWS=32"
M=native/src/ops/mul F="-DINFINI_ELEMENTWISE_TILED_FLAT_OUT=1"
VARIANT_CXXFLAGS="$F" build_variant_pair build_flat "$F" $M/kernels_f16.cu $M/kernels_f32.cu \
    native/src/ops/elementwise/plan_nvidia.cc
N=native/src/ops/lp_norm/nvidia.cc
F="-DINFINI_LP_NORM_COLS_UNCUT_MIN_ROW_BYTES=128 -DINFINI_LP_NORM_COLS_UNCUT_ONE_WAVE=1"
VARIANT_CXXFLAGS="$F" build_variant_pair build_uncut1 "$F" $N
grep -h "^lp_norm" notes/sweeps/session42_behind.txt notes/sweeps/session43_behind.txt >/tmp/lpb.txt
grep -h "^mul" notes/sweeps/session42_behind.txt notes/sweeps/session43_behind.txt >/tmp/mulb.txt
$PY tools/shaped_cases.py colscut 44 60 >/tmp/cut.txt
$PY tools/shaped_cases.py colsband 45 50 >/tmp/band45.txt
ab_repro 40 lpb=default=build lpb=sb64=build_sb64 lpb=fr32=build_fr32 lpb=uncut1=build_uncut1 \
    cut=default=build cut=sb64=build_sb64 cut=fr32=build_fr32 band45=default=build band45=uncut1=build_uncut1 \
    mulb=default=build mulb=flat=build_flat
SEL="cols_cut or columns_split or cols_pointer or (nvidia and (columns or column_chunks))"
for lib in build_sb64 build_fr32; do
    variant_tests $lib 60 30 tests/test_lp_norm.py "$SEL" "cols_cut or columns_split"
done
variant_tests build_flat 60 30 tests/test_mul.py "nvidia" "nvidia and transposed"
step "done"
