#!/usr/bin/env bash
# Session 26: where Hold should start. tools/lpn7_bench.cu with LPN7_ONLY=holdrule: every timed case of
# fewer than 8 rows or rows shorter than 1M that Hold takes, checked, then graph µs against every
# other plan (Sweep, TwoPass, Pipe, Split). Files under $OUT: s26f_log.txt, holdrule.txt.
NAME=${NAME:-s26f}
END=${END:-240}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
BUILD_LOGS=build harness_build_bg tools/lpn7_bench.cu build/s26f
wait
LPN7_ONLY=holdrule harness_run build/s26f "$OUT/holdrule.txt" 150 "LPN7_ONLY=holdrule"
step "done"
