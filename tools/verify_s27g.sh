#!/usr/bin/env bash
# Session 27: the cut axis holding at most 8 rows a thread where it holds them (planCols; call 7 measured
# it as -DINFINI_LP_NORM_COLS_SPLIT_ROWS=8). The library; tools/cols_probe.py; memcheck on
# tools/sanitize_lpn.py's Cols cases; the LPNorm tests of the cut axis and of every layout and axis on the GPU.
# Files under $OUT: s27g_log.txt, probe.txt, memcheck.txt, cols_tests.txt.
NAME=${NAME:-s27g}
END=${END:-300}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
step "tools/cols_probe.py"
timeout -k 3 "$(cap 60)" $PY tools/cols_probe.py >"$OUT/probe.txt" 2>&1
echo "probe rc=$?" | tee -a "$LOG" "$OUT/probe.txt"
lpn_sanitize memcheck "$OUT/memcheck.txt" cols
cols_gpu_tests "$OUT/cols_tests.txt" 150
step "done"
