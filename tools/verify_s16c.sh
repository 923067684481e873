#!/usr/bin/env bash
# Session 16, third device call (from the repository root after `source .gpu/setup.sh`): Mul's
# contiguous vector kernel in 1024-thread blocks for large grids (elementwise/nvidia.h,
# contiguousVecBlock), with PDL in graphs too.
#   1. the library and, at the same time, tools/pdlmul_bench.cu and tools/mulsched_bench.cu;
#   2. mulsched_bench (block sizes again, on this machine) and pdlmul_bench (the library's plan now:
#      dependent chains bitwise for every policy, graph / eager / events µs);
#   3. the Mul shard of the GPU suite and the other dependent-call tests;
#   4. bench_mul, then the end-to-end benchmark (python -m infiniop_py bench), PyTorch in the same run.
# Writes under $OUT: s16c_log.txt, s16c_mulsched.txt, s16c_pdlmul.txt, s16c_tests.txt,
# s16c_bench_mul.txt, s16c_bench.txt, s16c_bench.json.
NAME=s16c
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
for h in mulsched pdlmul; do
    harness_build_bg "tools/${h}_bench.cu" "build/${h}_bench"
done
library_build
wait
echo "harness builds done: $(ls build/mulsched_bench build/pdlmul_bench 2>&1 | tr '\n' ' ')" | tee -a "$LOG"
harness_run build/mulsched_bench "$OUT/s16c_mulsched.txt" 60 "mulsched: block sizes, vectors a thread, hints"
harness_run build/pdlmul_bench "$OUT/s16c_pdlmul.txt" 60 "pdlmul: the library's plan, off / library / always"
step "Mul GPU tests, and every dependent / chained / graph test"
timeout -k 3 "$(cap 120)" $PY -m pytest -q -p no:cacheprovider tests/test_mul.py tests/test_bad_inputs.py \
    tests/test_core.py tests/test_reliability.py >"$OUT/s16c_tests.txt" 2>&1
echo "Mul shard rc=$?" | tee -a "$LOG"
tail -n 2 "$OUT/s16c_tests.txt" >>"$LOG"
timeout -k 3 "$(cap 120)" $PY -m pytest -q -p no:cacheprovider tests/test_lp_norm.py tests/test_rearrange.py \
    tests/test_random_sample.py -k "dependent or chained or graph" >>"$OUT/s16c_tests.txt" 2>&1
echo "dependent tests rc=$?" | tee -a "$LOG"
tail -n 2 "$OUT/s16c_tests.txt" >>"$LOG"
bench_if_time infiniop_py.bench.bench_mul "$OUT/s16c_bench_mul.txt" 60
end_to_end_bench "$OUT/s16c_bench" 240 60
step "done"
