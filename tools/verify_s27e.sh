#!/usr/bin/env bash
# Session 27: the cut axis in three kernels (Stats, Factor, Apply; cols.cu). The library;
# tools/cols_probe.py on it (call 4's table, tools/verify_s27d.sh, has the two-kernel form and the uncut
# plan); memcheck on tools/sanitize_lpn.py's Cols cases; the LPNorm tests of other axes on the GPU.
# Files under $OUT: s27e_log.txt, probe.txt, memcheck.txt, cols_tests.txt.
NAME=${NAME:-s27e}
END=${END:-400}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
step "tools/cols_probe.py"
timeout -k 3 "$(cap 60)" $PY tools/cols_probe.py >"$OUT/probe.txt" 2>&1
echo "probe rc=$?" | tee -a "$LOG" "$OUT/probe.txt"
lpn_sanitize memcheck "$OUT/memcheck.txt" cols
cols_gpu_tests "$OUT/cols_tests.txt" 200
step "done"
