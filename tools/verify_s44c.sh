#!/usr/bin/env bash
# Session 44, closing call (H200): the default library with this session's merges (COLS_MIN_ROW_BYTES_2B 32,
# COLS_UNCUT_MIN_ROW_BYTES 128 with the one-wave rule, and the CPU SmallTile; the other knobs of verify_s44a /
# s44b lost) and session 43's 16-bit ragged band (INFINI_LP_NORM_RAGGED_SCALAR_FROM_2B
# / TO_2B 21-25), whose first whole-suite run this is: the whole suite (GPU tests required), the
# end-to-end bench and, with the time left, a fresh sweep (seed 44).
# Files under $OUT: s44c_log.txt, gpu_suite.txt, bench.txt, bench.json, sweep44.txt.
NAME=${NAME:-s44c}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
whole_suite 215
end_to_end_bench "$OUT/bench" 60 60
sweep_if_time 44
step "done"
