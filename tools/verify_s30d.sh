#!/usr/bin/env bash
# Session 30, call 2: Grid against the library's plan on rows of 3-4.4 MB of every dtype (Grid's chunks
# are 2-33 KB a block), inside and beyond Hold's budget (tools/lpn7_bench.cu LPN7_ONLY=gridrule), for a
# planner rule. Files under $OUT: s30d_log.txt, gridrule.txt, lpn7_bench_build.txt.
NAME=${NAME:-s30d}
END=${END:-400}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
harness_build_bg tools/lpn7_bench.cu build/lpn7_bench
wait
LPN7_ONLY=gridrule harness_run build/lpn7_bench "$OUT/gridrule.txt" 300 "LPN7_ONLY=gridrule"
step "done"
