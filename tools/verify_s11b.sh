#!/usr/bin/env bash
# Issue 13, session 11: Pipe's tile size (INFINI_LP_NORM_PIPE_TILE_KB) on every shape Pipe takes.
# One device call (timeout_s 450), from the repository root after `source .gpu/setup.sh`:
#     [TILES="16 32"] [TESTS=1] bash tools/verify_s11b.sh
#   1. the library and tools/lpn7_bench.cu once per tile size in TILES, in parallel;
#   2. LPN7_ONLY=pipe on each: every Pipe check (float64, torch's non-finite rule, extreme sums,
#      bitwise repeat, in place), then graph µs of 32x1M, 64x1M, 16x1M, 8x1M BF16;
#   3. with TESTS=1, the whole tests/test_lp_norm.py on the library.
# Writes under $OUT: s11b_log.txt, s11b_pipeKB.txt for each size, s11b_tests.txt.
NAME=s11b
END=${END:-420}
TILES=${TILES:-16 32}
TESTS=${TESTS:-1}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
git log --oneline -1 >>"$LOG" 2>&1
mkdir -p build
for kb in $TILES; do
    timeout -k 3 "$(cap 150)" "$NVCC" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/include \
        -Inative/src -DINFINI_WITH_NVIDIA -DINFINI_LP_NORM_PIPE_TILE_KB=$kb tools/lpn7_bench.cu \
        -o build/lpn_pipe$kb >build/lpn_pipe$kb.log 2>&1 &
    eval "pid$kb=$!"
done
library_build
for kb in $TILES; do
    eval "wait \$pid$kb"
    echo "harness $kb KB build rc=$?" | tee -a "$LOG"
    tail -n 3 build/lpn_pipe$kb.log >>"$LOG"
done
for kb in $TILES; do
    step "LPN7_ONLY=pipe, $kb KB tiles"
    LPN7_ONLY=pipe timeout -k 3 "$(cap 80)" build/lpn_pipe$kb "$OUT/s11b_pipe$kb.txt" >>"$LOG" 2>&1
    echo "harness $kb rc=$? (1: a check FAILED; 124: stopped at its cap)" | tee -a "$LOG"
done
if [ "$TESTS" = 1 ]; then
    step "tests/test_lp_norm.py on the library"
    timeout -k 3 "$(cap 200)" $PY -m pytest tests/test_lp_norm.py -q -p no:cacheprovider >"$OUT/s11b_tests.txt" 2>&1
    echo "tests rc=$? (124: stopped at its cap)" | tee -a "$LOG" "$OUT/s11b_tests.txt"
    tail -n 1 "$OUT/s11b_tests.txt" | tee -a "$LOG"
fi
step "done"
