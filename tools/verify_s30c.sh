#!/usr/bin/env bash
# Session 30, call 1: session 29's two drafts (verify_s30a.sh, verify_s30b.sh) in one device call, the
# Split variant's GPU tests left for the closing whole suite should it be merged. Files under $OUT:
# s30c_log.txt, split_ab.txt, probes.txt, f32big.txt, lpn7_bench_build.txt.
NAME=${NAME:-s30c}
END=${END:-575}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
harness_build_bg tools/lpn7_bench.cu build/lpn7_bench
build_variant_pair build/split4 "-DINFINI_LP_NORM_SPLIT_APPLY_MIN_BLOCKS=4" native/src/ops/lp_norm/rows.cu
export PYTHONPATH="$PWD/tools:$PYTHONPATH"
probe_rounds "$OUT/split_ab.txt" "tools/long_rows_probe.py (Split)" build/lib build/split4/lib
probe_scripts "$OUT/probes.txt" 90 "long_rows_probe F32"
wait
LPN7_ONLY=f32big harness_run build/lpn7_bench "$OUT/f32big.txt" 240 "LPN7_ONLY=f32big"
step "done"
