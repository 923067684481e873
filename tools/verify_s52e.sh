#!/usr/bin/env bash
# Session 52, call 3 (H200): the closing measurements of the session's tree (the Mul lane rule and the cut
# axis's wide-pack rule merged; the whole suite passed on it in call 2): the end-to-end bench, then a random
# sweep (seed 52) for the rest of the call.
# Files under $OUT: s52e_log.txt, bench.txt / bench.json, sweep52.txt.
NAME=${NAME:-s52e}
END=${END:-575}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
library_build
end_to_end_bench "$OUT/bench" 90 60
sweep_if_time 52 10
step "done"
