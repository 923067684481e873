#!/usr/bin/env bash
# Session 26: what faster sums could give Hold. Builds of tools/lpn7_bench.cu: the default (real)
# and -DINFINI_LP_NORM_HOLD_PROBE_NO_SUM=1 (nosum: phase A sums nothing; wrong results by design),
# each run with LPN7_ONLY=hold; then Grid's stage trace (default build, block 0's factor posts
# printed). Files under $OUT: s26b_log.txt, hold_<variant>.txt, grid_trace.txt.
NAME=${NAME:-s26b}
END=${END:-300}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
BUILD_LOGS=build harness_build_bg tools/lpn7_bench.cu build/s26b_real
BUILD_LOGS=build harness_build_bg tools/lpn7_bench.cu build/s26b_nosum -DINFINI_LP_NORM_HOLD_PROBE_NO_SUM=1
BUILD_LOGS=build harness_build_bg tools/lpn7_bench.cu build/s26b_trace -DINFINI_LP_NORM_GRID_TRACE
wait
for v in real nosum; do
    LPN7_ONLY=hold harness_run build/s26b_$v "$OUT/hold_$v.txt" 100 "LPN7_ONLY=hold, $v"
done
LPN7_ONLY=gridtrace harness_run build/s26b_trace "$OUT/grid_trace.txt" 30 "Grid stage trace"
step "done"
