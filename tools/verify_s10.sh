#!/usr/bin/env bash
# Session 10 (issue 12): the lean argmax kernel as the library's default, checked in one device
# call from the repository root after `source .gpu/setup.sh` (timeout_s 590, ~8 min):
#   1. the library (make -j16) and, beside it, the argmax sweep (lean shapes: lib, pipe256x8,
#      lean256x8, leank256x8, lean512x4, lean256x4; the rule check first);
#   2. bench_random_sample (ABI eager and graph µs, torch in the same run);
#   3. compute-sanitizer memcheck and racecheck on tools/sanitize_rs.py (every RandomSample path);
#   4. the whole suite, GPU tests required (tools/gpu_suite.sh).
# Writes under $OUT: s10_log.txt (steps, the sweep's tables), s10_sweep_full.txt, s10_bench.txt,
# s10_sanitize.txt, gpu_suite.txt.
NAME=s10
END=${END:-570}
source "$(dirname "$0")/verify_common.sh"
mkdir -p build
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
git log --oneline -1 >>"$LOG" 2>&1
step "sweep build (background) and library build"
timeout -k 3 "$(cap 120)" "$NVCC" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/include -Inative/src \
    -DINFINI_WITH_NVIDIA -DARGMAX_SWEEP_LEAN_ONLY tools/argmax_sweep.cu -o build/argmax_sweep_s10 \
    >build/s10_sweep_build.log 2>&1 &
SWEEP_PID=$!
library_build
wait "$SWEEP_PID"
echo "sweep build rc=$?" | tee -a "$LOG"
tail -n 5 build/s10_sweep_build.log >>"$LOG"
harness_run build/argmax_sweep_s10 "$OUT/s10_sweep_full.txt" 60 "argmax sweep, lean shapes"
bench_if_time infiniop_py.bench.bench_random_sample "$OUT/s10_bench.txt" 100
for tool in memcheck racecheck; do
    step "compute-sanitizer $tool"
    timeout -k 3 "$(cap 90)" compute-sanitizer --tool "$tool" --report-api-errors no --error-exitcode 99 \
        $PY tools/sanitize_rs.py >>"$OUT/s10_sanitize.txt" 2>&1
    echo "$tool rc=$?" | tee -a "$LOG" "$OUT/s10_sanitize.txt"
done
step "whole suite (GPU tests required)"
OUT="$OUT" bash tools/gpu_suite.sh "$(cap 260)" >>"$LOG" 2>&1
echo "gpu_suite rc=$?" | tee -a "$LOG"
step "done"
