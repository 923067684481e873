#!/usr/bin/env bash
# Issue 13, session 11: compile knobs of the Pipe plan (pipe.cu) on every shape Pipe takes.
# One device call (timeout_s 450), from the repository root after `source .gpu/setup.sh`:
#     [VARIANTS="-DINFINI_LP_NORM_PIPE_TILE_KB=16 -DINFINI_LP_NORM_PIPE_TILE_KB=32"] [TESTS=1] \
#         bash tools/verify_s11b.sh
#   1. the library and tools/lpn7_bench.cu once per flag in VARIANTS (variant i: build/lpn_pipe$i),
#      in parallel;
#   2. LPN7_ONLY=pipe on each: every Pipe check (float64, torch's non-finite rule, extreme sums,
#      bitwise repeat, in place), then graph µs of 32x1M, 64x1M, 16x1M, 8x1M BF16;
#   3. with TESTS=1, the whole tests/test_lp_norm.py on the library.
# Writes under $OUT: s11b_log.txt, s11b_pipe$i.txt for each variant, s11b_tests.txt.
NAME=s11b
END=${END:-420}
VARIANTS=${VARIANTS:--DINFINI_LP_NORM_PIPE_TILE_KB=16 -DINFINI_LP_NORM_PIPE_TILE_KB=32}
set -- $VARIANTS
N=$#
TESTS=${TESTS:-1}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
git log --oneline -1 >>"$LOG" 2>&1
mkdir -p build
for i in $(seq 1 $N); do
    flags=${!i//,/ } # a variant's flags joined by commas
    timeout -k 3 "$(cap 150)" "$NVCC" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/include \
        -Inative/src -DINFINI_WITH_NVIDIA $flags tools/lpn7_bench.cu -o build/lpn_pipe$i >build/lpn_pipe$i.log 2>&1 &
    eval "pid$i=$!"
done
library_build
for i in $(seq 1 $N); do
    eval "wait \$pid$i"
    echo "harness $i (${!i}) build rc=$?" | tee -a "$LOG"
    tail -n 3 build/lpn_pipe$i.log >>"$LOG"
done
for i in $(seq 1 $N); do
    step "LPN7_ONLY=pipe, variant $i: ${!i}"
    echo "variant $i: ${!i}" >"$OUT/s11b_pipe$i.txt"
    LPN7_ONLY=pipe timeout -k 3 "$(cap 80)" build/lpn_pipe$i "$OUT/s11b_pipe$i.part" >>"$LOG" 2>&1
    echo "harness $i rc=$? (1: a check FAILED; 124: stopped at its cap)" | tee -a "$LOG"
    cat "$OUT/s11b_pipe$i.part" >>"$OUT/s11b_pipe$i.txt" 2>/dev/null; rm -f "$OUT/s11b_pipe$i.part"
done
if [ "$TESTS" = 1 ]; then
    step "tests/test_lp_norm.py on the library"
    timeout -k 3 "$(cap 200)" $PY -m pytest tests/test_lp_norm.py -q -p no:cacheprovider >"$OUT/s11b_tests.txt" 2>&1
    echo "tests rc=$? (124: stopped at its cap)" | tee -a "$LOG" "$OUT/s11b_tests.txt"
    tail -n 1 "$OUT/s11b_tests.txt" | tee -a "$LOG"
fi
step "done"
