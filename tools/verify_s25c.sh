#!/usr/bin/env bash
# Session 25: tools/move_probe.cu (what slows the Grid plan's data movement: its pattern, its thread
# stores or its lag), built and run twice. Files under $OUT: s25c_log.txt, s25c_probe1.txt, s25c_probe2.txt.
NAME=${NAME:-s25c}
END=${END:-300}
source "$(dirname "$0")/verify_common.sh"
step "move_probe build"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
git log --oneline -1 >>"$LOG" 2>&1
mkdir -p build
timeout -k 3 "$(cap 120)" "$NVCC" -O3 -std=c++17 -arch=sm_90 -Inative/src -Itools tools/move_probe.cu -o build/move_probe >>"$LOG" 2>&1
echo "build rc=$?" | tee -a "$LOG"
for r in 1 2; do
    step "move_probe, round $r"
    timeout -k 3 "$(cap 90)" build/move_probe "$OUT/${NAME}_probe$r.txt" >/dev/null 2>>"$LOG"
    echo "probe rc=$?" | tee -a "$LOG"
done
step "done"
