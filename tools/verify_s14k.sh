#!/usr/bin/env bash
# Session 14, last device call (timeout_s 600), from the repository root after `source .gpu/setup.sh`:
# the final tree (the skewed word tiles' edge loads as well) and its A/B.
#   1. the default library (build/) and build/base with -DINFINI_REARRANGE_EDGE_LOADS=0 in kernels_u2.cu
#      (the edge tiles along b of both odd and skewed word tiles load row by row, as at a9f6ab5);
#      tools/rearr4_bench.cu against build/lib; rearr4_bench --library on both, twice, interleaved;
#   2. the whole suite with GPU tests required (tools/gpu_suite.sh);
#   3. bench_rearrange, bench_lp_norm and bench_mul (PyTorch in the same run).
# Writes under $OUT: s14k_log.txt, s14k_lib.txt, gpu_suite.txt, bench_{rearrange,lp_norm,mul}.txt.
NAME=s14k
END=${END:-580}
source "$(dirname "$0")/verify_common.sh"
build_variant_pair build/base "-DINFINI_REARRANGE_EDGE_LOADS=0" native/src/ops/rearrange/kernels_u2.cu
rearr4_build
rearrange_library_ab build/base "$OUT/s14k_lib.txt"
step "whole suite (GPU tests required)"
OUT="$OUT" bash tools/gpu_suite.sh "$(cap 260)" >>"$LOG" 2>&1
echo "gpu_suite rc=$?" | tee -a "$LOG"
for b in rearrange lp_norm mul; do
    step "benchmark bench_$b"
    timeout -k 3 "$(cap 90)" $PY -m "infiniop_py.bench.bench_$b" >"$OUT/bench_$b.txt" 2>&1
    echo "bench_$b rc=$? (124: stopped at its cap)" | tee -a "$LOG" "$OUT/bench_$b.txt"
done
step "done"
