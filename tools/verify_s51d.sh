#!/usr/bin/env bash
# Session 51's last call (H200), on the final native tree (the plain-sum merge, one-part Slab columns to 32
# rows, plain pack stores as one vector store, all merged; each kernel's sm_90 .text as measured):
# - the seed-50 sweep's 39 LPNorm lines behind PyTorch, once, on this library;
# - the end-to-end bench;
# - the seed-51 sweep with the time left.
# Files under $OUT: s51d_log.txt, ab.txt, bench.txt / .json, sweep51.txt.
NAME=${NAME:-s51d}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
grep "^lp_norm" notes/sweeps/session50_behind.txt >/tmp/b50.txt
ab_repro 30 b50=default=build
end_to_end_bench "$OUT/bench" 90 100
sweep_if_time 51
step "done"
