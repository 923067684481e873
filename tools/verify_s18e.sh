#!/usr/bin/env bash
# Session 18, after the library's rule put Hold first for 8+ rows of 1M+ 2-byte elements: one device
# call. The library and the stage-trace harness built together; LPN7_ONLY=holdtrace (tile by tile);
# LPNorm's GPU tests (their shard); bench_lp_norm. Writes under $OUT: s18e_log.txt, s18e_trace.txt,
# s18e_lp_gpu.txt, s18e_bench_lp_norm.txt.
NAME=s18e
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
harness_build_bg tools/lpn7_bench.cu build/s18e_trace -DINFINI_LP_NORM_STAGE_TRACE
library_build
wait
tail -n 3 "$OUT"/s18e_trace_build.txt >>"$LOG"
step "harness LPN7_ONLY=holdtrace"
LPN7_ONLY=holdtrace timeout -k 3 "$(cap 60)" build/s18e_trace "$OUT/s18e_trace.txt" >>"$LOG" 2>&1
echo "trace rc=$?" | tee -a "$LOG"
lpnorm_gpu_tests "$OUT/s18e_lp_gpu.txt" 260
bench_if_time infiniop_py.bench.bench_lp_norm "$OUT/s18e_bench_lp_norm.txt" 90
step "done"
