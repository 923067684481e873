#!/usr/bin/env bash
# Session 45, closing call (H200): the default library with this session's merges (see the commit log from
# 26a6548; wide tiles as the lane gather's rescue, INFINI_LP_NORM_STREAM_ASYNC_TAIL removed, and what call 2
# (tools/verify_s45a.sh) showed to win): the whole suite (GPU tests required: the new wide-tile and
# mid-length row tests), the end-to-end bench and, with the time left, a fresh sweep (seed 45).
# Files under $OUT: s45b_log.txt, gpu_suite.txt, bench.txt, bench.json, sweep45.txt.
NAME=${NAME:-s45b}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
whole_suite 215
end_to_end_bench "$OUT/bench" 60 60
sweep_if_time 45
step "done"
