#!/usr/bin/env bash
# Session 19: the benches' eager rows timed in batches (harness.time_cuda). One device call: the
# library; bench_rearrange, bench_lp_norm and bench_mul (PyTorch in the same run); tools/eager_probe.py
# beside them. Writes under $OUT: s19i_log.txt, s19i_bench_*.txt, s19i_eager.txt.
NAME=s19i
END=${END:-330}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
library_build
bench_if_time infiniop_py.bench.bench_rearrange "$OUT/s19i_bench_rearrange.txt" 60
bench_if_time infiniop_py.bench.bench_lp_norm "$OUT/s19i_bench_lp_norm.txt" 60
bench_if_time infiniop_py.bench.bench_mul "$OUT/s19i_bench_mul.txt" 60
step "eager probe"
timeout -k 3 "$(cap 40)" $PY tools/eager_probe.py >"$OUT/s19i_eager.txt" 2>&1
echo "eager probe rc=$?" | tee -a "$LOG"
step "done"
