#!/usr/bin/env bash
# Session 26: Hold's phase A without the max (INFINI_LP_NORM_HOLD_PLAIN_SUMS, default on). The library
# and two harness builds of tools/lpn7_bench.cu, the default and -DINFINI_LP_NORM_HOLD_PLAIN_SUMS=0
# (packedStats, as before), each run with LPN7_ONLY=hold (every check, then graph µs); the Hold GPU
# tests and memcheck on tools/sanitize_lpn.py hold against the library; the end-to-end bench for
# lp_norm. (Call 4 ran this with the sums on the tensor cores instead, a form since removed:
# notes/lp_norm.md, "Session 26".)
# Files under $OUT: s26c_log.txt, hold_plain.txt, hold_packed.txt, hold_tests.txt, memcheck.txt,
# bench_lp.txt / .json.
NAME=${NAME:-s26c}
END=${END:-500}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
BUILD_LOGS=build harness_build_bg tools/lpn7_bench.cu build/s26c_plain
BUILD_LOGS=build harness_build_bg tools/lpn7_bench.cu build/s26c_packed -DINFINI_LP_NORM_HOLD_PLAIN_SUMS=0
library_build
wait
for v in plain packed; do
    LPN7_ONLY=hold harness_run build/s26c_$v "$OUT/hold_$v.txt" 80 "LPN7_ONLY=hold, $v"
done
hold_gpu_tests "$OUT/hold_tests.txt" 120
lpn_sanitize memcheck "$OUT/memcheck.txt" hold
end_to_end_bench "$OUT/bench_lp" 90 30 --op lp_norm
step "done"
