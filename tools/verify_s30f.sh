#!/usr/bin/env bash
# Session 30, call 4: Pipe against every plan on 4- and 8-byte rows of 256 KB-2.5 MB beyond Hold's
# budget (LPN7_ONLY=pipewide; the library plans Pipe for 2-byte rows only), and the library's Grid shapes
# again with the kernels each call launched named. Files under $OUT: s30f_log.txt, pipewide.txt,
# probes.txt, lpn7_bench_build.txt.
NAME=${NAME:-s30f}
END=${END:-330}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
harness_build_bg tools/lpn7_bench.cu build/lpn7_bench
library_build
wait
LPN7_ONLY=pipewide harness_run build/lpn7_bench "$OUT/pipewide.txt" 150 "LPN7_ONLY=pipewide"
export PYTHONPATH="$PWD/tools:$PYTHONPATH"
step "long_rows_probe (Grid) (Hold)"
timeout -k 3 "$(cap 60)" $PY tools/long_rows_probe.py "(Grid)" "(Hold)" >"$OUT/probes.txt" 2>&1
echo "rc=$?" | tee -a "$LOG" "$OUT/probes.txt"
step "done"
