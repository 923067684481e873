#!/usr/bin/env bash
# Session am10 (issue 12): the lean argmax kernel (argmax_lean.cuh, knob -DINFINI_ARGMAX_LEAN=1) in
# one device call, from the repository root after `source .gpu/setup.sh` (timeout_s 240, ~200 s):
#   1. builds, at the same time: the default library (build/), the knob library (build/lean:
#      RandomSample objects with the knob, the rest copied) and the sweep with the lean shapes only
#      (tools/argmax_sweep.cu -DARGMAX_SWEEP_LEAN_ONLY: lib, pipe256x8, pipe256x4, leanlib,
#      lean256x8, leank256x8, lean512x4, lean256x4);
#   2. the sweep: the GPU rule check (adversarial and unaligned F16/BF16/F32 rows, every shape at
#      teams 1/2/4/16), then every case checked against the host argmax before and after timing;
#   3. the argmax and RandomSample GPU tests on the knob library.
# Writes under $OUT (3 files): am10_log.txt (the sweep's stdout: the rule-check line, then the
# tables; the last table is lib against leanlib per case), am10_sweep_full.txt (every shape and
# team), am10_tests.txt.
NAME=am10
END=${END:-200}
source "$(dirname "$0")/verify_common.sh"
mkdir -p build
step "sweep build (lean shapes, background)"
timeout -k 3 "$(cap 120)" "$NVCC" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/include -Inative/src \
    -DINFINI_WITH_NVIDIA -DARGMAX_SWEEP_LEAN_ONLY tools/argmax_sweep.cu -o build/argmax_sweep_am10 \
    >build/am10_sweep_build.log 2>&1 &
SWEEP_PID=$!
build_rs_pair build/lean "-DINFINI_ARGMAX_LEAN=1"
wait "$SWEEP_PID"
echo "sweep build rc=$?" | tee -a "$LOG"
tail -n 5 build/am10_sweep_build.log >>"$LOG"
harness_run build/argmax_sweep_am10 "$OUT/am10_sweep_full.txt" 110 "argmax sweep, lean shapes"
step "GPU tests on the knob library (build/lean)"
INFINIOP_LIBRARY="$PWD/build/lean/lib/libinfiniop.so" timeout -k 3 "$(cap 45)" $PY -m pytest \
    tests/test_random_sample_argmax.py tests/test_random_sample.py -q -x -p no:cacheprovider \
    >"$OUT/am10_tests.txt" 2>&1
echo "tests (knob library) rc=$? (124: stopped at its cap, see the count above)" | tee -a "$LOG" "$OUT/am10_tests.txt"
step "done"
