#!/usr/bin/env bash
# Session 17, the final tree: one device call from the repository root after `source .gpu/setup.sh`.
# The library and the harness (tools/lpn7_bench.cu) built in parallel; the whole suite with GPU tests
# required (tools/gpu_suite.sh); compute-sanitizer memcheck and racecheck on tools/sanitize_lpn.py
# (Hold, Pipe, TwoPass, Sweep, Split, Stream, Rows, Cols); the harness's Hold cases (LPN7_ONLY=hold:
# checks, and graph µs for the library's new choices 8 / 12 / 16 / 20 x 1M and 16 x 2M BF16);
# bench_lp_norm and bench_random_sample. Writes under $OUT: s17e_log.txt, gpu_suite.txt,
# s17e_sanitize.txt, s17e_hold.txt, bench_lp_norm.txt, bench_random_sample.txt.
NAME=s17e
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
git log --oneline -1 >>"$LOG" 2>&1
harness_build_bg tools/lpn7_bench.cu build/s17e_lpn7
library_build
wait
step "whole suite (GPU tests required)"
OUT="$OUT" bash tools/gpu_suite.sh "$(cap 270)" >>"$LOG" 2>&1
echo "gpu_suite rc=$?" | tee -a "$LOG"
for tool in memcheck racecheck; do
    step "compute-sanitizer $tool, tools/sanitize_lpn.py"
    echo "== $tool" >>"$OUT/s17e_sanitize.txt"
    timeout -k 3 "$(cap 60)" compute-sanitizer --tool "$tool" --report-api-errors no --error-exitcode 99 \
        $PY tools/sanitize_lpn.py >>"$OUT/s17e_sanitize.txt" 2>&1
    echo "$tool rc=$? (99: errors reported; 124: stopped at its cap)" | tee -a "$LOG" "$OUT/s17e_sanitize.txt"
done
step "harness LPN7_ONLY=hold"
LPN7_ONLY=hold timeout -k 3 "$(cap 90)" build/s17e_lpn7 "$OUT/s17e_hold.txt" >>"$LOG" 2>&1
echo "harness rc=$? (1: a check failed; 124: stopped at its cap)" | tee -a "$LOG"
for b in lp_norm random_sample; do
    step "benchmark bench_$b"
    timeout -k 3 "$(cap 60)" $PY -m "infiniop_py.bench.bench_$b" >"$OUT/bench_$b.txt" 2>&1
    echo "bench_$b rc=$? (124: stopped at its cap)" | tee -a "$LOG" "$OUT/bench_$b.txt"
done
step "done"
