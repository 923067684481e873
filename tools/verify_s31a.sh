#!/usr/bin/env bash
# Drafted in session 30 for session 31 (not run yet): the shapes session 30's planner rules left on
# Split / Cluster (F64 rows of 32K-56K below Pipe's rows rule, 15-26 MB; F32 rows of 128K-384K beyond
# L2) against PyTorch with the kernels named (tools/long_rows_probe.py "(Edge)" "(Cluster)"), then
# racecheck on tools/sanitize_lpn.py's Grid and Pipe cases (memcheck ran clean in session 30). Files
# under $OUT: s31a_log.txt, probes.txt, racecheck.txt.
NAME=${NAME:-s31a}
END=${END:-330}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
library_build
step "long_rows_probe (Edge) (Cluster)"
PYTHONPATH="$PWD/tools:$PYTHONPATH" timeout -k 3 "$(cap 90)" $PY tools/long_rows_probe.py "(Edge)" "(Cluster)" \
    >"$OUT/probes.txt" 2>&1
echo "rc=$?" | tee -a "$LOG" "$OUT/probes.txt"
SANITIZE_CAP=200 lpn_sanitize racecheck "$OUT/racecheck.txt" "pipe grid"
step "done"
