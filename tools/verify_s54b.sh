#!/usr/bin/env bash
# Written at the end of session 53 for session 54 (H200), not yet run: the Mul gather kernel unrolled for 4
# dims (build_d4: INFINI_ELEMENTWISE_GATHER_DIMS4=1 on the Mul kernel files; nvidia.h) against two default
# runs on 60 gathers of <= 4 simplified dims and >= 8 MB (shaped_cases.py mulshort / mulodd / mulperm 5454;
# 2-byte types at 32-bit offsets, 4- / 8-byte at 64; notes/sweeps/session54_dims4_cases.txt), after the
# Mul gather GPU tests and memcheck on it. Then, with what is left, a random sweep (seed 54).
# Files under $OUT: s54b_log.txt, tests.txt, ab.txt (runs: default, d4, default2), sweep54.txt.
NAME=${NAME:-s54b}
END=${END:-400}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_sets "build_d4|-DINFINI_ELEMENTWISE_GATHER_DIMS4=1|$(ls native/src/ops/mul/*.cu)"
variant_tests build_d4 45 35 tests/test_mul.py "nvidia and (gather or short or odd or broadcast)" "nvidia and gather"
cp notes/sweeps/session54_dims4_cases.txt /tmp/dims4.txt
ab_repro 30 dims4=default=build dims4=d4=build_d4 dims4=default2=build
sweep_if_time 54 10
step "done"
