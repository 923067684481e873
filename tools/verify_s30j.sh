#!/usr/bin/env bash
# Session 30, call 8: the merged library (Pipe for 8-byte rows of 32K+ whatever their total): the
# LPNorm F64 GPU tests and the Pipe / Grid tests, then the within-L2 F64 shapes against PyTorch with
# the kernels named. Files under $OUT: s30j_log.txt, f64_tests.txt, probes.txt.
NAME=${NAME:-s30j}
END=${END:-250}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
step "long_rows_probe (PipeL2)"
PYTHONPATH="$PWD/tools:$PYTHONPATH" timeout -k 3 "$(cap 30)" $PY tools/long_rows_probe.py "(PipeL2)" >"$OUT/probes.txt" 2>&1
echo "rc=$?" | tee -a "$LOG" "$OUT/probes.txt"
lp_tests "$OUT/f64_tests.txt" 150 "LPNorm F64 GPU tests, Pipe-wide tests" "_gpu and (f64 or pipe_wide) and not across_grid and not beyond_hold"
step "done"
