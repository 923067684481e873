#!/usr/bin/env bash
# Session 31, call 5: Hold for F64 rows from 32K (below Pipe's rows rule; Pipe first where it plans, as
# before): the Hold and Pipe-wide GPU tests (the held-on-chip test has F64 100x(32K + 2) now), then
# long_rows_probe "(E32)" "(PipeL2)" with PyTorch and the kernels named. Files under $OUT: s31f_log.txt,
# tests.txt, probes.txt.
NAME=${NAME:-s31f}
END=${END:-360}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
library_build
step "long_rows_probe (E32) (PipeL2)"
PYTHONPATH="$PWD/tools:$PYTHONPATH" timeout -k 3 "$(cap 60)" $PY tools/long_rows_probe.py "(E32)" "(PipeL2)" \
    >"$OUT/probes.txt" 2>&1
echo "rc=$?" | tee -a "$LOG" "$OUT/probes.txt"
lp_tests "$OUT/tests.txt" 220 "Hold and Pipe-wide GPU tests" "held_on_chip or pipe_wide"
step "done"
