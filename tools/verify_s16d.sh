#!/usr/bin/env bash
# Session 16, LPNorm's Pipe plan with 1024-thread blocks (INFINI_LP_NORM_PIPE_THREADS; default 512):
# one device call from the repository root after `source .gpu/setup.sh`. Two builds of the harness
# (tools/lpn7_bench.cu, in parallel), then LPN7_ONLY=pipe on each, two rounds interleaved: float64
# checks of every Pipe case (non-finite rows, extreme sums, uneven chunks, clusters of 2 / 8 / 16, F64,
# bitwise repeat, in place), then graph µs per call (32x1M, 64x1M, 16x1M, 8x1M BF16, Pipe's variants).
# Writes under $OUT: s16d_log.txt, s16d_t512_r{1,2}.txt, s16d_t1024_r{1,2}.txt.
NAME=s16d
END=${END:-330}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
for t in 512 1024; do
    harness_build_bg tools/lpn7_bench.cu "build/s16d_t$t" "-DINFINI_LP_NORM_PIPE_THREADS=$t"
done
wait
ls -l build/s16d_t512 build/s16d_t1024 >>"$LOG" 2>&1
for r in 1 2; do
    for t in 512 1024; do
        step "harness LPN7_ONLY=pipe, $t threads, round $r"
        LPN7_ONLY=pipe timeout -k 3 "$(cap 70)" build/s16d_t$t "$OUT/s16d_t${t}_r$r.txt" >>"$LOG" 2>&1
        echo "harness rc=$? (1: a check failed; 124: stopped at its cap)" | tee -a "$LOG"
    done
done
step "done"
