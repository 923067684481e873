#!/usr/bin/env bash
# Session 29, call 1: the LPNorm merges' shared helpers (math.h rescaledSum, cols.cu combineThreadRows,
# device.cuh forBatchedLoads) and session 28's last planner rule and tests, on the GPU; then F64 rows
# beyond Hold: every plan (tools/lpn7_bench.cu LPN7_ONLY=f64) and the library against PyTorch
# (tools/f64_rows_probe.py). Files under $OUT: s29a_log.txt, lp_tests.txt, cols_tests.txt, f64.txt,
# probes.txt, sanitize.txt, ncu_behind.txt.
NAME=${NAME:-s29a}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
harness_build_bg tools/lpn7_bench.cu build/s29a
library_build
cols_gpu_tests "$OUT/cols_tests.txt" 150
lpnorm_gpu_tests "$OUT/lp_tests.txt" 150
lpn_sanitize memcheck "$OUT/sanitize.txt" cols
wait
LPN7_ONLY=f64 harness_run build/s29a "$OUT/f64.txt" 150 "LPN7_ONLY=f64"
probe_scripts "$OUT/probes.txt" 60 f64_rows_probe
step "ncu: 16x1M and 16x256K F64, ours and PyTorch's kernels"
CASES="16x1048576 float64 1 2;16x262144 float64 1 2" OUT="$OUT" timeout -k 3 "$(cap 150)" bash tools/ncu_behind.sh
echo "ncu rc=$?" | tee -a "$LOG"
step "done"
