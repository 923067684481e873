#!/usr/bin/env bash
# Session 27: Hold where holdPays has no measurement. tools/lpn7_bench.cu with LPN7_ONLY=holdwide: F32 and
# F64 rows that fit Hold (the library plans Cluster or Split there) and 2-byte shapes outside the
# session-26 region, each checked (float64 reference), then graph µs for the library's plan and every
# other plan. Files under $OUT: s27a_log.txt, holdwide.txt, s27a_build.txt.
NAME=${NAME:-s27a}
END=${END:-300}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
harness_build_bg tools/lpn7_bench.cu build/s27a
wait
LPN7_ONLY=holdwide harness_run build/s27a "$OUT/holdwide.txt" 240 "LPN7_ONLY=holdwide"
step "done"
