#!/usr/bin/env bash
# Session 16, the final tree (from the repository root after `source .gpu/setup.sh`), one device call:
#   1. the library;
#   2. the whole suite with GPU tests required (tools/gpu_suite.sh): the session's new tests on the GPU
#      (interleaved outputs of every operator, LPNorm's huge p, Mul's large contiguous grids, list
#      parameters of the batch form);
#   3. tools/abi_audit.py with AUDIT_DEVICE=nvidia: the outside consumer's ctypes audit on the GPU;
#   4. the end-to-end benchmark (python -m infiniop_py bench, PyTorch in the same run), then the
#      per-operator benchmarks of the issue's cases with their CUDA-graph rows.
# Writes under $OUT: s16e_log.txt, gpu_suite.txt, s16e_audit.txt, s16e_bench.txt, s16e_bench.json,
# s16e_bench_{rearrange,lp_norm,mul}.txt.
NAME=s16e
END=${END:-585}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
library_build
step "whole suite (GPU tests required)"
OUT="$OUT" bash tools/gpu_suite.sh "$(cap 280)" >>"$LOG" 2>&1
echo "gpu_suite rc=$?" | tee -a "$LOG"
step "ABI audit on the GPU (AUDIT_DEVICE=nvidia)"
AUDIT_DEVICE=nvidia AUDIT_RESULTS="$OUT/s16e_audit.json" timeout -k 3 "$(cap 150)" $PY tools/abi_audit.py \
    >"$OUT/s16e_audit.txt" 2>&1
echo "audit rc=$? (1: a FAIL or HARNESS line; 2: no GPU; 124: stopped at its cap)" | tee -a "$LOG"
tail -n 4 "$OUT/s16e_audit.txt" >>"$LOG"
end_to_end_bench "$OUT/s16e_bench" 90 40
for b in rearrange lp_norm mul; do
    bench_if_time "infiniop_py.bench.bench_$b" "$OUT/s16e_bench_$b.txt" 60
done
step "done"
