#!/usr/bin/env bash
# Session 16, first device call (from the repository root after `source .gpu/setup.sh`):
#   1. the library and, at the same time, tools/pdlmul_bench.cu;
#   2. pdlmul_bench alone (idle host): Mul 4096² F16/BF16 and 8192² F32 with PDL off / eager only /
#      always in one build: graph, eager and per-call-events µs (is the events-timed bench row paying
#      for the PDL launch?);
#   3. the whole suite with GPU tests required (tools/gpu_suite.sh): covers Sweep's 4-slot default and
#      its merge through row_stats.cuh's mergedFactor;
#   4. compute-sanitizer memcheck and racecheck on tools/sanitize_lpn.py (Sweep and Split added);
#   5. bench_mul (graph rows for the large cases, new) and bench_lp_norm, PyTorch in the same run.
# Writes under $OUT: s16a_log.txt, s16a_pdlmul.txt, gpu_suite.txt, s16a_sanitize.txt,
# s16a_bench_mul.txt, s16a_bench_lp_norm.txt.
NAME=s16a
END=${END:-575}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
harness_build_bg tools/pdlmul_bench.cu build/pdlmul_bench
library_build
wait
echo "pdlmul_bench build: $([ -x build/pdlmul_bench ] && echo ok || echo MISSING)" | tee -a "$LOG"
harness_run build/pdlmul_bench "$OUT/s16a_pdlmul.txt" 60 "pdlmul: off / eager only / always"

step "whole suite (GPU tests required)"
OUT="$OUT" bash tools/gpu_suite.sh "$(cap 270)" >>"$LOG" 2>&1
echo "gpu_suite rc=$?" | tee -a "$LOG"

for tool in memcheck racecheck; do
    step "compute-sanitizer $tool, tools/sanitize_lpn.py"
    echo "== $tool" >>"$OUT/s16a_sanitize.txt"
    timeout -k 3 "$(cap 70)" compute-sanitizer --tool "$tool" --report-api-errors no --error-exitcode 99 \
        $PY tools/sanitize_lpn.py >>"$OUT/s16a_sanitize.txt" 2>&1
    echo "$tool rc=$? (99: errors reported; 124: stopped at its cap)" | tee -a "$LOG" "$OUT/s16a_sanitize.txt"
done

for b in mul lp_norm; do
    bench_if_time "infiniop_py.bench.bench_$b" "$OUT/s16a_bench_$b.txt" 80
done
step "done"
