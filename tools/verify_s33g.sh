#!/usr/bin/env bash
# Session 33, call 7 (H200): the Cols shapes call 6's survey found behind PyTorch on this chip ((12,16,512,
# 512) F64 axis 1: 373.7 against 348.7 µs eager; axis 0 p 1: 416.1 against 405.1). ncu on both (ours and
# PyTorch's kernels: duration, DRAM bytes, registers, occupancy, stalls), then an A/B of F64 threads
# holding at most 4 rows (-DINFINI_LP_NORM_COLS_HELD_F64=4, nvidia.cc) against 8 on the survey's F64
# and BF16 Cols / Stream shapes, two rounds. Files under $OUT: s33g_log.txt, ncu_behind.txt, held4.txt.
NAME=${NAME:-s33g}
END=${END:-300}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
VARIANT_CXXFLAGS="-DINFINI_LP_NORM_COLS_HELD_F64=4" build_variant_pair build_h4 "" native/src/ops/lp_norm/nvidia.cc
step "ncu_behind.sh, F64 (12,16,512,512) axes 1 and 0"
CASES="12x16x512x512 float64 1 2;12x16x512x512 float64 0 1" OUT="$OUT" timeout -k 3 "$(cap 90)" bash tools/ncu_behind.sh
echo "rc=$?" | tee -a "$LOG"
probe_rounds "$OUT/held4.txt" "tools/dtype_survey.py (12,16 4096x4096" build/lib build_h4/lib
step "done"
