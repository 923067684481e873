#!/usr/bin/env bash
# Session 29, call 3: Hold beyond its L2 budget in the library (nvidia.cc INFINI_LP_NORM_HOLD_DRAM, F64
# Hold from rows of 64K): its variants by how much of what is read twice stays in L2 (tools/lpn7_bench.cu
# LPN7_ONLY=beyond, "hold dram keep ..."), the library against PyTorch (tools/long_rows_probe.py), the
# Hold GPU tests and the new beyond-budget test, memcheck on Hold's cases. Files under $OUT: s29c_log.txt,
# beyond.txt, probes.txt, hold_tests.txt, sanitize.txt, s29c_build.txt.
NAME=${NAME:-s29c}
END=${END:-580}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
harness_build_bg tools/lpn7_bench.cu build/s29c
library_build
lp_tests "$OUT/hold_tests.txt" 150 "Hold GPU tests, beyond the budget too" \
    "held_on_chip or beyond_hold or dependent_long_rows or long_rows_chained or two_held"
lpn_sanitize memcheck "$OUT/sanitize.txt" hold
probe_scripts "$OUT/probes.txt" 100 long_rows_probe
wait
LPN7_ONLY=beyond harness_run build/s29c "$OUT/beyond.txt" 150 "LPN7_ONLY=beyond"
step "done"
