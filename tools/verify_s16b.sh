#!/usr/bin/env bash
# Session 16, second device call (from the repository root after `source .gpu/setup.sh`):
#   1. the library (Mul's contiguous kernels now with PDL in graphs too) and, at the same time,
#      tools/mulsched_bench.cu;
#   2. mulsched_bench alone (idle host): Mul's vector kernel at other block sizes / vectors a thread
#      and with cache hints, graphs and per-call events, float64 checks;
#   3. tools/torch_mul_kernel.py: torch.mul's kernel and launch shape for the same cases;
#   4. the Mul shard of the GPU suite (dependent chains in graphs now with programmatic edges);
#   5. bench_mul, PyTorch in the same run.
# Writes under $OUT: s16b_log.txt, s16b_mulsched.txt, s16b_torch_kernel.txt, s16b_tests.txt,
# s16b_bench_mul.txt.
NAME=s16b
END=${END:-300}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
harness_build_bg tools/mulsched_bench.cu build/mulsched_bench
library_build
wait
echo "mulsched_bench build: $([ -x build/mulsched_bench ] && echo ok || echo MISSING)" | tee -a "$LOG"
harness_run build/mulsched_bench "$OUT/s16b_mulsched.txt" 90 "mulsched: block sizes, vectors a thread, hints"
step "torch.mul's kernels"
timeout -k 3 "$(cap 40)" $PY tools/torch_mul_kernel.py "$OUT" >"$OUT/s16b_torch_kernel.txt" 2>&1
echo "torch kernels rc=$?" | tee -a "$LOG"
step "Mul GPU tests"
timeout -k 3 "$(cap 90)" $PY -m pytest -q -p no:cacheprovider tests/test_mul.py tests/test_bad_inputs.py \
    >"$OUT/s16b_tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"
tail -n 2 "$OUT/s16b_tests.txt" >>"$LOG"
bench_if_time infiniop_py.bench.bench_mul "$OUT/s16b_bench_mul.txt" 60
step "done"
