#!/usr/bin/env bash
# Session 24, call 5: how fast Grid's data movement alone runs (chunk b of every row bulk-copied into
# a ring by one producer lane, stored scaled by the compute warps lag rows later): a harness built
# with -DINFINI_LP_NORM_GRID_PROBE_NO_WAIT=1 (the compute warps never wait for a factor; its checks
# fail by design) against the real kernel, LPN7_ONLY=grid, graph µs with the lag / depth sweep.
# Files under $OUT: s24c_log.txt, grid_harness.txt, grid_nowait.txt.
NAME=${NAME:-s24c}
END=${END:-330}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
BUILD_LOGS=build harness_build_bg tools/lpn7_bench.cu build/s24c_grid
BUILD_LOGS=build harness_build_bg tools/lpn7_bench.cu build/s24c_nowait -DINFINI_LP_NORM_GRID_PROBE_NO_WAIT=1
wait
step "harness (LPN7_ONLY=grid), the probe build (no waits: its checks fail by design)"
LPN7_ONLY=grid timeout -k 3 "$(cap 120)" build/s24c_nowait "$OUT/grid_nowait.txt" >>"$LOG" 2>&1
echo "probe harness rc=$?" | tee -a "$LOG"
step "harness (LPN7_ONLY=grid), the real kernel"
LPN7_ONLY=grid timeout -k 3 "$(cap 120)" build/s24c_grid "$OUT/grid_harness.txt" >>"$LOG" 2>&1
echo "harness rc=$? (1: a check failed, see FAILED; 124: stopped at its cap)" | tee -a "$LOG"
step "done"
