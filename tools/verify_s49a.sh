#!/usr/bin/env bash
# Written at the end of session 48 for session 49's first call (H200), not yet run:
# - the whole suite with GPU tests required on main, with tools/gpu_suite.sh's lp_norm shard now in four
#   (CPU, 16-bit and other device-parametrized, its other files) and its hang diagnostics (a stack dump
#   for a test past 150 s, conftest.py's exit watchdog, SIGINT at the cap): session 48's calls 3 and 4 saw
#   that shard print all its results and then nothing until its cap;
# - build_v8 (INFINI_ELEMENTWISE_GATHER_VEC_BYTES_2B=8: the Mul gather kernel for 2-byte types in 8-byte
#   vectors, 4 elements a thread, twice the threads; kernels_f16.cu, kernels_int_small.cu and
#   plan_nvidia.cc: their sm_90 .text differs from the default's in the gather kernels only): A/B default /
#   v8 / default again on 90 16-bit gather cases (notes/sweeps/session48_gather_vec8_cases.txt: the 20 of
#   the seed-47/48 sweeps' Mul lines behind PyTorch that take the gather form, and 70 random
#   `shaped_cases.py mulperm/mulodd 4849` ones); the Mul GPU tests on build_v8, memcheck on the gather ones.
# Files under $OUT: s49a_log.txt, gpu_suite.txt, ab.txt, tests.txt.
NAME=${NAME:-s49a}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
M=native/src/ops/mul
build_variant_sets "build_v8|-DINFINI_ELEMENTWISE_GATHER_VEC_BYTES_2B=8|$M/kernels_f16.cu $M/kernels_int_small.cu native/src/ops/elementwise/plan_nvidia.cc"
whole_suite 230
cp notes/sweeps/session48_gather_vec8_cases.txt /tmp/g8.txt
ab_repro 40 g8=default=build g8=v8=build_v8 g8=default2=build
variant_tests build_v8 60 40 tests/test_mul.py "nvidia" "nvidia and (gather or permut or broadcast)"
step "done"
