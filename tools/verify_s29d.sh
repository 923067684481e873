#!/usr/bin/env bash
# Session 29's closing run: the library, the whole test suite on the GPU (tools/gpu_suite.sh, GPU tests
# required, the new beyond-budget Hold shard included), the end-to-end bench of every operator with
# PyTorch in the same run, tools/dtype_survey.py and tools/long_rows_probe.py (F64 rows). Files under
# $OUT: s29d_log.txt, gpu_suite.txt, bench.txt / .json, probes.txt.
NAME=${NAME:-s29d}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
closing_checks
probe_scripts "$OUT/probes.txt" 45 dtype_survey "long_rows_probe F64"
step "done"
