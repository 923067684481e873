#!/usr/bin/env bash
# Session 29, call 2: rows beyond Hold's L2 budget against Hold reading what it does not hold again from
# DRAM (tools/lpn7_bench.cu LPN7_ONLY=beyond, "hold dram"), shorter F64 rows; the library (F64 Hold from
# rows of 256K) against PyTorch (tools/long_rows_probe.py); Hold's GPU tests. Files under $OUT:
# s29b_log.txt, beyond.txt, probes.txt, hold_tests.txt, s29b_build.txt.
NAME=${NAME:-s29b}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
harness_build_bg tools/lpn7_bench.cu build/s29b
library_build
probe_scripts "$OUT/probes.txt" 150 long_rows_probe
hold_gpu_tests "$OUT/hold_tests.txt" 120
wait
LPN7_ONLY=beyond harness_run build/s29b "$OUT/beyond.txt" 200 "LPN7_ONLY=beyond"
step "done"
