#!/usr/bin/env bash
# Session 25: the stage trace of the Grid plan with its compute warps' packed sums (LPN7_ONLY=gridtrace:
# per row the median over blocks of landed / published / past the factor wait / stored), to see where
# the real kernel (64.6 µs) waits beyond its probe (55.4-55.9). Call 8 traced the third of three calls
# on one buffer set and showed no factor wait (notes/lp_norm.md, "Session 25"); since then the trace
# takes the last of 6 calls over 3 buffer sets, as the graph timing does, and a fifth point, the
# merger's factor posted, so a rerun shows whether the compute warps wait for factors there. Session 26
# ran it twice (calls 1 and 3) and then, with the merger's own steps traced (points 5-8: poll round's
# end, merge entered, max reduced, sum reduced), as NAME=s26e (call 7).
# Files under $OUT: ${NAME}_log.txt, grid_trace.txt.
NAME=${NAME:-s25e}
END=${END:-200}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
harness_build_bg tools/lpn7_bench.cu build/s25e_trace -DINFINI_LP_NORM_GRID_TRACE
wait
LPN7_ONLY=gridtrace harness_run build/s25e_trace "$OUT/grid_trace.txt" 60 "stage trace (LPN7_ONLY=gridtrace)"
step "done"
