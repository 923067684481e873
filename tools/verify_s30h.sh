#!/usr/bin/env bash
# Session 30, call 6: the smallest 8-byte shapes the library now gives Pipe (rows of 32K-64K just beyond
# L2), every plan (LPN7_ONLY=pipeedge) and through the library against PyTorch. Files under $OUT:
# s30h_log.txt, pipeedge.txt, probes.txt, lpn7_bench_build.txt.
NAME=${NAME:-s30h}
END=${END:-300}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
harness_build_bg tools/lpn7_bench.cu build/lpn7_bench
library_build
step "long_rows_probe (PipeE)"
PYTHONPATH="$PWD/tools:$PYTHONPATH" timeout -k 3 "$(cap 60)" $PY tools/long_rows_probe.py "(PipeE)" >"$OUT/probes.txt" 2>&1
echo "rc=$?" | tee -a "$LOG" "$OUT/probes.txt"
wait
LPN7_ONLY=pipeedge harness_run build/lpn7_bench "$OUT/pipeedge.txt" 100 "LPN7_ONLY=pipeedge"
step "done"
