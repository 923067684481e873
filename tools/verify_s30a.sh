#!/usr/bin/env bash
# Drafted in session 29 for session 30 (not run yet): F32 long rows beyond Hold's budget, where the
# library plans Cluster, against every plan, Grid (off in the library) with its tunings included
# (tools/lpn7_bench.cu LPN7_ONLY=f32big; session 29 saw Grid take F32 64x1M in 199 µs against Cluster's
# 223), and the library against PyTorch on F32 rows (tools/long_rows_probe.py F32). Files under $OUT:
# s30a_log.txt, f32big.txt, probes.txt, s30a_build.txt.
NAME=${NAME:-s30a}
END=${END:-420}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
harness_build_bg tools/lpn7_bench.cu build/s30a
library_build
probe_scripts "$OUT/probes.txt" 90 "long_rows_probe F32"
wait
LPN7_ONLY=f32big harness_run build/s30a "$OUT/f32big.txt" 240 "LPN7_ONLY=f32big"
step "done"
