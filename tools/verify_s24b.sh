#!/usr/bin/env bash
# Session 24, calls 2-3 (call 3: with the merger polling every pending record a round trip and the epoch flags): the measurement notes/lp_norm.md's plan asks for before any new kernel. Does a
# pipeline of rows across the whole GPU (Grid: block b owns chunk b of every row) keep pace with
# DRAM once the lag is deep (10 rows) and the reads in flight few (3-4 rows)? The stage trace
# gives each row's landed / published / all-seen / stored times (rows apart, the records' round
# trip); the harness sweep gives graph µs against Hold and the copy, every plan checked first.
# Files under $OUT: s24b_log.txt, grid_trace.txt, grid_harness.txt.
NAME=${NAME:-s24b}
END=${END:-400}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
harness_build_bg tools/lpn7_bench.cu build/s24b_trace -DINFINI_LP_NORM_GRID_TRACE
harness_build_bg tools/lpn7_bench.cu build/s24b_grid
wait
LPN7_ONLY=gridtrace harness_run build/s24b_trace "$OUT/grid_trace.txt" 40 "stage trace (LPN7_ONLY=gridtrace)"
LPN7_ONLY=grid harness_run build/s24b_grid "$OUT/grid_harness.txt" 200 "LPN7_ONLY=grid: checks, then graph timing with the lag sweep"
step "done"
