#!/usr/bin/env bash
# Session 50's third call (H200), on the merged tree (merge once at >= 16 thread rows, the one-row Factor
# kernel for cut axes of <= 6 chunks, 2-byte gathers at 5 blocks an SM; the idle-column narrowing guard
# removed):
# - build_p128 (INFINI_LP_NORM_COLS_MIN_ROW_BYTES_2B_PACK16=128, nvidia.cc: 16-bit columns in 16-byte packs
#   not narrowed below 8 packs a row) against two default runs on 70 fresh cases it moves (seed 5050,
#   notes/sweeps/session50_pack16_cases.txt);
# - the end-to-end bench, then the seed-50 sweep with what time is left.
# Files under $OUT: s50c_log.txt, ab.txt, bench*, sweep50.txt.
NAME=${NAME:-s50c}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_sets "build_p128|-DINFINI_LP_NORM_COLS_MIN_ROW_BYTES_2B_PACK16=128|native/src/ops/lp_norm/nvidia.cc"
cp notes/sweeps/session50_pack16_cases.txt /tmp/pk.txt
ab_repro 40 pk=default=build pk=p128=build_p128 pk=default2=build
end_to_end_bench "$OUT/bench" 90 100
sweep_if_time 50
step "done"
