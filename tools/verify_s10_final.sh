#!/usr/bin/env bash
# Session 10, the final tree in one device call (timeout_s 560), from the repository root after
# `source .gpu/setup.sh`: the library, the whole suite with GPU tests required
# (tools/gpu_suite.sh), then the end-to-end benchmark with PyTorch in the same run.
# Writes under $OUT: final_log.txt, gpu_suite.txt, bench.txt, bench.json.
NAME=final
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
git log --oneline -1 >>"$LOG" 2>&1
library_build
step "whole suite (GPU tests required)"
OUT="$OUT" bash tools/gpu_suite.sh "$(cap 250)" >>"$LOG" 2>&1
echo "gpu_suite rc=$?" | tee -a "$LOG"
step "end-to-end benchmark"
timeout -k 3 "$(cap 230)" $PY -m infiniop_py bench --device nvidia --json "$OUT/bench.json" >"$OUT/bench.txt" 2>&1
echo "bench rc=$? (124: stopped at its cap)" | tee -a "$LOG" "$OUT/bench.txt"
step "done"
