#!/usr/bin/env bash
# Session 32, call 3: call 2 found that a Hold grid partly resident on a low-priority stream waits forever
# when a Hold grid comes on a high-priority one (plain or cooperative), and that every Hold launch
# cooperative (INFINI_LP_NORM_HOLD_COOPERATIVE=1) ends it. Here: the same hazard with other whole-grid or
# cluster work on the high-priority stream (LPNorm's Grid and Pipe plans, RandomSample's argmax teams, a
# cuBLAS matmul), on the default library and on =1; then what =1 costs with and without Hold's
# programmatic dependent launch (=1 with INFINI_LP_NORM_HOLD_PDL=0): long_rows_probe "(HoldC)".
# Files under $OUT: s32c_log.txt, starve.txt, holdc.txt.
NAME=${NAME:-s32c}
END=${END:-585}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
H=native/src/ops/lp_norm/hold.cu
build_variant_pair build_c1 "-DINFINI_LP_NORM_HOLD_COOPERATIVE=1" $H
build_variant_pair build_c3 "-DINFINI_LP_NORM_HOLD_COOPERATIVE=1 -DINFINI_LP_NORM_HOLD_PDL=0" $H
starve_probe build/lib grid pipe team matmul
starve_probe build_c1/lib grid pipe team matmul prio
for round in 1 2; do
    for lib in build/lib build_c1/lib build_c3/lib; do
        step "long_rows_probe.py, $lib, round $round"
        echo "== $lib, round $round" >>"$OUT/holdc.txt"
        INFINIOP_LIBRARY=$PWD/$lib/libinfiniop.so timeout -k 3 "$(cap 60)" $PY tools/long_rows_probe.py \
            "32x1M BF16 p 2 (HoldC)" "8x1M BF16 p 2 (HoldC)" "16x1M F32 p 2 (HoldC)" >>"$OUT/holdc.txt" 2>&1
        echo "rc=$?" | tee -a "$LOG" "$OUT/holdc.txt"
    done
done
step "done"
