#!/usr/bin/env bash
# Written at the end of session 51 for session 52 (H200), not yet run: Mul's narrow tiles against the lane
# gather for transposed planes of 5-8 rows (build_lt: INFINI_ELEMENTWISE_LANE_TILE_ROWS=8, plan_nvidia.cc;
# session 40 measured 12 on two cases, one each way) against two default runs on 91 cases it moves (a
# generator of planes of 5-8 rows, seed 5253: 25 each of F32, BF16, F64, 16 F16; and the seed-51 sweep's
# worst Mul line, (179,6,148,67) F16 a order (0,2,3,1): narrow tiles 43.5 µs against PyTorch's 29.5),
# then the Mul GPU tests of the tiled and gather forms on it.
# Files under $OUT: s52b_log.txt, ab.txt, tests.txt.
NAME=${NAME:-s52b}
END=${END:-300}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_sets "build_lt|-DINFINI_ELEMENTWISE_LANE_TILE_ROWS=8|native/src/ops/elementwise/plan_nvidia.cc"
cp notes/sweeps/session52_lane_tile_rows_cases.txt /tmp/lt.txt
ab_repro 40 lt=default=build lt=lt=build_lt lt=default2=build
variant_tests build_lt 60 1 tests/test_mul.py "nvidia and (tile or gather or lane)"
step "done"
