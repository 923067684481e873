#!/usr/bin/env bash
# Session 45, call 6 (H200, ~300 s of device time left): INFINI_ELEMENTWISE_GATHER_SHORT_RUNS as merged
# (on, the rule for every vector of a launch: rows of size0 >= V - gcd(V, size0)), whose SASS differs from
# call 5's per-vector build: Mul's GPU tests (the short-row gathers with rows of 12 and 15 for int8 among
# them) and memcheck on the gather and transposed ones, then call 5's 150 short-row gathers again.
# Files under $OUT: s45e_log.txt, tests.txt, ab.txt.
NAME=${NAME:-s45e}
END=${END:-200}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
variant_tests build 50 40 tests/test_mul.py "nvidia" "nvidia and (gather_short or transposed or strided)"
cp notes/sweeps/session45_gather_short_cases.txt /tmp/gshort.txt
ab_repro 40 gshort=default=build
step "done"
