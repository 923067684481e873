#!/usr/bin/env bash
# Session 30, closing call: the library with Grid for rows of 2.8-4.4 MB beyond Hold's budget and Pipe for
# 8-byte rows of 32K+ and 4-byte rows beyond 2 MB: those shapes against PyTorch with the kernels each
# call launched (tools/long_rows_probe.py), memcheck on tools/sanitize_lpn.py pipe grid, then the
# closing checks (whole suite, end-to-end bench). Files under $OUT: s30g_log.txt, probes.txt,
# sanitize.txt, gpu_suite.txt, bench.txt, bench.json.
NAME=${NAME:-s30g}
END=${END:-585}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
library_build
step "long_rows_probe (PipeW) (Cluster) (Grid)"
PYTHONPATH="$PWD/tools:$PYTHONPATH" timeout -k 3 "$(cap 90)" $PY tools/long_rows_probe.py "(PipeW)" "(Cluster)" \
    "(Grid)" >"$OUT/probes.txt" 2>&1
echo "rc=$?" | tee -a "$LOG" "$OUT/probes.txt"
lpn_sanitize memcheck "$OUT/sanitize.txt" "pipe grid"
whole_suite 300
end_to_end_bench "$OUT/bench" 90 50
step "done"
