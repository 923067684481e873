#!/usr/bin/env bash
# Session 45, call 5 (H200, the ~460 s of device time left): the gather form's short rows. build_gshort
# (INFINI_ELEMENTWISE_GATHER_SHORT_RUNS=1, Mul's kernel files: a vector of output elements over rows
# shorter than itself loads as two runs where the second fits in its row, not element by element) against
# the default library on 150 gather cases with rows of V/2 to V-1 elements (tools/shaped_cases.py mulshort
# 45 and the sweeps' lists, notes/sweeps/session45_gather_short_cases.txt); Mul's GPU tests and memcheck
# on the new short-row gather tests on it.
# Files under $OUT: s45d_log.txt, ab.txt, tests.txt.
NAME=${NAME:-s45d}
END=${END:-300}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
M=native/src/ops/mul
build_variant_sets "build_gshort|-DINFINI_ELEMENTWISE_GATHER_SHORT_RUNS=1|$M/kernels_f16.cu $M/kernels_f32.cu $M/kernels_int_small.cu"
cp notes/sweeps/session45_gather_short_cases.txt /tmp/gshort.txt
ab_repro 40 gshort=default=build gshort=short=build_gshort
variant_tests build_gshort 50 40 tests/test_mul.py "nvidia" "nvidia and (gather_short or transposed)"
variant_tests build 30 30 tests/test_mul.py "nvidia and gather_short"
step "done"
