#!/usr/bin/env bash
# Session 42, call 4 (H200), closing: the default library with this session's changes (stream.cu's ragged
# kernels: a row's offsets and packs once an iteration, storeSpanPack; Rearrange's INFINI_REARRANGE_MIN_B_FILL_2B
# 80, between call 3's 75 and 90): call 3's Rearrange cases
# again (the b-fill gate at 80), the whole suite (GPU tests required), the end-to-end bench and, with the
# time left, a fresh sweep (seed 42).
# Files under $OUT: s42d_log.txt, ab.txt, gpu_suite.txt, bench.txt, bench.json, sweep42.txt.
NAME=${NAME:-s42d}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
cp notes/sweeps/session42_bshort_cases.txt /tmp/bshort.txt
grep "^rearrange.*float16" notes/sweeps/session41_behind.txt >/tmp/re41.txt
ab_repro 30 bshort=b80=build re41=b80=build
whole_suite 215
end_to_end_bench "$OUT/bench" 60 60
sweep_if_time 42
step "done"
