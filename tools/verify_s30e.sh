#!/usr/bin/env bash
# Session 30, call 3: the library with Grid planned for rows of 2.8-4.4 MB beyond Hold's budget
# (INFINI_LP_NORM_GRID_BEYOND_HOLD): those shapes against PyTorch with the kernels each call launched
# (tools/long_rows_probe.py "(Grid)" etc.), the new Grid tests, memcheck on tools/sanitize_lpn.py grid,
# then where Grid starts to pay (LPN7_ONLY=gridedge). Files under $OUT: s30e_log.txt, probes.txt,
# grid_tests.txt, sanitize.txt, gridedge.txt, lpn7_bench_build.txt.
NAME=${NAME:-s30e}
END=${END:-575}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
harness_build_bg tools/lpn7_bench.cu build/lpn7_bench
library_build
export PYTHONPATH="$PWD/tools:$PYTHONPATH"
step "long_rows_probe (Grid) (Pipe) (Hold)"
timeout -k 3 "$(cap 130)" $PY tools/long_rows_probe.py "(Grid)" "(Pipe)" "(Hold)" >"$OUT/probes.txt" 2>&1
echo "rc=$?" | tee -a "$LOG" "$OUT/probes.txt"
lp_tests "$OUT/grid_tests.txt" 140 "Grid GPU tests" "across_grid"
lpn_sanitize memcheck "$OUT/sanitize.txt" grid
wait
LPN7_ONLY=gridedge harness_run build/lpn7_bench "$OUT/gridedge.txt" 120 "LPN7_ONLY=gridedge"
step "done"
