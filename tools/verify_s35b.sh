#!/usr/bin/env bash
# Session 35, call 2 (H200): why 2-byte Cols columns run far below a copy ((12,16,512,512) BF16 axis 1:
# 133 µs against a same-bytes copy of 50, while F32, twice the bytes, takes 109.5), and the narrowed blocks
# of call 1 again with more cases. Libraries: build (default), build_w256 (blocks may narrow to rows of
# 256 bytes: -DINFINI_LP_NORM_COLS_MIN_ROW_BYTES=256, columns of 65-128 rows at 16 thread rows), build_p8
# (16-byte Cols packs for 16-bit types: -DINFINI_LP_NORM_COLS_PACK_16BIT=8 in nvidia.cc and cols.cu).
# dtype_survey [cols16] and [pack] cases, two rounds on the three; ncu of ours and PyTorch on
# (12,16,512,512) BF16 and F32 axis 1 (tools/ncu_behind.sh); the thread-row and Cols tests on build_p8;
# tools/behind_sweep.py (seeded random Rearrange, Mul and LPNorm cases against PyTorch) on the default.
# Files under $OUT: s35b_log.txt, survey.txt, ncu_behind.txt, tests_p8.txt, sweep.txt.
NAME=${NAME:-s35b}
END=${END:-570}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
lp=native/src/ops/lp_norm
VARIANT_CXXFLAGS="-DINFINI_LP_NORM_COLS_MIN_ROW_BYTES=256" build_variant_pair build_w256 "" $lp/nvidia.cc
VARIANT_CXXFLAGS="-DINFINI_LP_NORM_COLS_PACK_16BIT=8" build_variant_pair build_p8 \
    "-DINFINI_LP_NORM_COLS_PACK_16BIT=8" $lp/nvidia.cc $lp/cols.cu
probe_rounds "$OUT/survey.txt" "tools/dtype_survey.py [cols16] [pack]" build/lib build_w256/lib build_p8/lib
step "ncu: (12,16,512,512) BF16 and F32 axis 1"
CASES="12x16x512x512 bfloat16 1 2;12x16x512x512 float32 1 2" timeout -k 3 "$(cap 100)" bash tools/ncu_behind.sh
echo "rc=$?" | tee -a "$LOG"
INFINIOP_LIBRARY=$PWD/build_p8/lib/libinfiniop.so cols_gpu_tests "$OUT/tests_p8.txt" 90
step "behind_sweep"
timeout -k 3 "$(cap 200)" $PY tools/behind_sweep.py 35 $((END - SECONDS - 30)) >"$OUT/sweep.txt" 2>&1
echo "rc=$?" | tee -a "$LOG"
step "done"
