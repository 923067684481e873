#!/usr/bin/env bash
# Session 49's fourth and closing call (H200), on 28bed0d's two merges:
# - build_old (INFINI_ELEMENTWISE_GATHER_WIDE_8B=0 and INFINI_LP_NORM_COLS_WHOLE_SMALL_MIN_BLOCKS=3: the
#   library before them) against the default on fresh cases the merges move: 50 F64 gather cases whose
#   gathered inputs run along rows (notes/sweeps/session49_gather_wide_fresh_cases.txt, `shaped_cases.py
#   mulperm 4952 / mulodd 4953`) and 81 Whole-mode Cols cases of the kernels now at 4 blocks an SM
#   (notes/sweeps/session49_cols_small_fresh_cases.txt, random non-innermost axes, seed 4954), each as old /
#   new / old again;
# - on the default: the Mul GPU tests (memcheck on the gather ones), the Cols GPU tests (memcheck on some);
# - the end-to-end bench, then the seed-49 random sweep for what is left.
# Files under $OUT: s49d_log.txt, ab.txt, tests.txt, bench.txt / .json, sweep49.txt.
NAME=${NAME:-s49d}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
M=native/src/ops/mul
build_variant_sets "build_old|-DINFINI_ELEMENTWISE_GATHER_WIDE_8B=0 -DINFINI_LP_NORM_COLS_WHOLE_SMALL_MIN_BLOCKS=3|$M/kernels_f32.cu $M/kernels_int_large.cu native/src/ops/elementwise/plan_nvidia.cc native/src/ops/lp_norm/cols.cu"
cp notes/sweeps/session49_gather_wide_fresh_cases.txt /tmp/gf.txt
ab_repro 40 gf=old=build_old gf=new=build gf=old2=build_old
cp notes/sweeps/session49_cols_small_fresh_cases.txt /tmp/cf.txt
ab_repro 50 cf=old=build_old cf=new=build cf=old2=build_old
variant_tests build 40 30 tests/test_mul.py "nvidia" "nvidia and gather"
variant_tests build 100 40 tests/test_lp_norm.py "(nvidia and column) or (gpu and (cols or columns))" \
    "nvidia and columns_every_p"
end_to_end_bench "$OUT/bench" 90 100
sweep_if_time 49
step "done"
