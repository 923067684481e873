#!/usr/bin/env bash
# Session 45, call 3 (H200): ragged F64 rows on block groups against Rows. The default library (with call
# 2's merges: TILED_HOIST for all but 4-byte types, ROWS_ITEMS6 but for 16-bit ragged rows) against
# build_f64rows (INFINI_LP_NORM_RAGGED_F64_ROWS_MAX=4096, stream.cu: every ragged F64 row that Rows can hold
# stays on Rows) on 40 random ragged F64 row cases of 1025-8191 elements, 600-30000 rows
# (notes/sweeps/session45_f64ragged_cases.txt); the ragged and mid-length row tests and memcheck on it.
# Files under $OUT: s45c_log.txt, ab.txt, tests.txt.
NAME=${NAME:-s45c}
END=${END:-300}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_sets "build_f64rows|-DINFINI_LP_NORM_RAGGED_F64_ROWS_MAX=4096|native/src/ops/lp_norm/stream.cu"
cp notes/sweeps/session45_f64ragged_cases.txt /tmp/f64rag.txt
ab_repro 40 f64rag=default=build f64rag=f64rows=build_f64rows f64rag=default2=build
variant_tests build_f64rows 50 40 tests/test_lp_norm.py "nvidia and (ragged_rows_gpu or mid_length)" \
    "nvidia and (ragged_rows_gpu or mid_length) and f64"
step "done"
