#!/usr/bin/env bash
# Session 49's third call (H200): session 49's second call again (its case files lacked the ": ours ... ratio" tail that
# behind_sweep.py --repro reads, so both A/Bs ran 0 cases; the files now have it), its ncu lines left out:
# - build_w32 (INFINI_ELEMENTWISE_GATHER_VEC_BYTES_WIDE=32: the Mul gather kernel for 4- and 8-byte types in
#   32-byte vectors, two 16-byte loads a thread and input, twice the elements a thread): A/B default / w32 /
#   default again on 110 F32 / F64 gather cases (notes/sweeps/session49_gather_wide_cases.txt: the 45 of the
#   seed-45..48 sweeps' F32 / F64 Mul lines behind PyTorch that take the gather form, and 65 random
#   `shaped_cases.py mulperm 4949 / mulodd 4950` ones); the Mul GPU tests on build_w32, memcheck on gathers;
# - build_wb4 (INFINI_LP_NORM_COLS_WHOLE_MIN_BLOCKS=4: Whole-mode Cols kernels of at most 8 rows a thread
#   compiled for 4 blocks an SM, 64 registers: 16-bit 4-packs spill nothing, F64 2-packs 180 bytes): A/B
#   on 134 cases (notes/sweeps/session49_cols_whole_cases.txt: the seed-48 sweep's 12 LPNorm lines behind
#   PyTorch, then up to 7 random Whole-mode cases of each dtype x pack x rows held); the Cols GPU tests on
#   build_wb4, memcheck on some;
# Files under $OUT: s49c_log.txt, ab.txt, tests.txt.
NAME=${NAME:-s49c}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
M=native/src/ops/mul
build_variant_sets \
    "build_w32|-DINFINI_ELEMENTWISE_GATHER_VEC_BYTES_WIDE=32|$M/kernels_f32.cu $M/kernels_int_large.cu native/src/ops/elementwise/plan_nvidia.cc" \
    "build_wb4|-DINFINI_LP_NORM_COLS_WHOLE_MIN_BLOCKS=4|native/src/ops/lp_norm/cols.cu"
cp notes/sweeps/session49_gather_wide_cases.txt /tmp/gw.txt
ab_repro 50 gw=default=build gw=w32=build_w32 gw=default2=build
cp notes/sweeps/session49_cols_whole_cases.txt /tmp/cw.txt
ab_repro 70 cw=default=build cw=wb4=build_wb4 cw=default2=build
variant_tests build_w32 40 30 tests/test_mul.py "nvidia" "nvidia and gather"
variant_tests build_wb4 100 40 tests/test_lp_norm.py "(nvidia and column) or (gpu and (cols or columns))" \
    "nvidia and columns_every_p"
step "done"
