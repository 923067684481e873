#!/usr/bin/env bash
# Session 9's staged RandomSample changes, verified in one device call (from the repository root,
# after `source .gpu/setup.sh`; run with timeout_s 600):
#   1. tools/rs_ab.sh s8 "-DINFINI_RS_VECTOR_WEIGHTS=0 -DINFINI_RS_SMALL_TAIL=0": the default build
#      (vector weights in the collect, the one-warp tail) against session 8's sampling code;
#   2. tools/verify_am9.sh: the piece-queue argmax (-DINFINI_ARGMAX_QUEUE=1) against the default.
# Each script writes its own files; everything is packed into $OUT/s9.tgz (the device returns at
# most 8 files), with the two summaries beside it.
set -u
FINAL_OUT=$OUT
export OUT=/tmp/s9_out
rm -rf "$OUT"; mkdir -p "$OUT"
bash tools/rs_ab.sh s8 "-DINFINI_RS_VECTOR_WEIGHTS=0 -DINFINI_RS_SMALL_TAIL=0" 200
bash tools/verify_am9.sh
tar czf "$FINAL_OUT/s9.tgz" -C "$OUT" .
cp "$OUT/s8_ab.txt" "$OUT/am9_sweep.txt" "$FINAL_OUT/" 2>/dev/null
tail -n 25 "$OUT/s8_ab.txt"
