#!/usr/bin/env bash
# Session 43, closing call (H200): the default library with this session's changes (Rearrange's
# INFINI_REARRANGE_MIN_B_FILL_1B 80, and whatever of call 3's knobs won), the whole suite (GPU tests
# required), the end-to-end bench and, with the time left, a fresh sweep (seed 43).
# Files under $OUT: s43d_log.txt, gpu_suite.txt, bench.txt, bench.json, sweep43.txt.
NAME=${NAME:-s43d}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
whole_suite 215
end_to_end_bench "$OUT/bench" 60 60
sweep_if_time 43
step "done"
