#!/usr/bin/env bash
# Session 33, call 8 (H200): the Cols plan's Whole mode compiled for 3 blocks an SM where a thread holds at
# most 8 rows (-DINFINI_LP_NORM_COLS_WHOLE_MIN_BLOCKS=3: F64 at 8 rows 98 -> 80 registers, 44 bytes
# spilled; call 7's ncu: 2 blocks an SM, 24% of warps active, behind PyTorch on (12,16,512,512) F64 axes 1
# and 0) against the default: tools/dtype_survey.py "(12,16" two rounds, the LPNorm bench on both; the
# Cols GPU tests on the variant. Files under $OUT: s33h_log.txt, whole3.txt, bench_*.txt, cols_tests.txt.
NAME=${NAME:-s33h}
END=${END:-300}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_pair build_w3 "-DINFINI_LP_NORM_COLS_WHOLE_MIN_BLOCKS=3" native/src/ops/lp_norm/cols.cu
probe_rounds "$OUT/whole3.txt" "tools/dtype_survey.py (12,16" build/lib build_w3/lib
for v in build build_w3; do
    step "LPNorm bench, $v"
    INFINIOP_LIBRARY=$PWD/$v/lib/libinfiniop.so timeout -k 3 "$(cap 40)" $PY -m infiniop_py bench --device nvidia \
        --op lp_norm >"$OUT/bench_$v.txt" 2>&1
    echo "rc=$?" | tee -a "$LOG"
done
INFINIOP_LIBRARY=$PWD/build_w3/lib/libinfiniop.so cols_gpu_tests "$OUT/cols_tests.txt" 120
step "done"
