#!/usr/bin/env bash
# Session 35, call 1 (H200): Cols blocks narrower than 32 packs where that lets a thread hold its column
# within 8 rows. Today a column of 65-128 rows leaves a thread 9-16 rows (the 16-row Whole kernel, 172-184
# registers, one block an SM) and one of 129-256+ rows is streamed (read twice). build_r64: blocks may
# narrow to rows of 64 bytes (-DINFINI_LP_NORM_COLS_MIN_ROW_BYTES=64 in nvidia.cc: 4 packs of 16 bytes, so
# 65-128 rows get 16 thread rows, 129-256 get 32, 257-512 get 64). tools/dtype_survey.py on the [cols16,
# [cols32 and [cols64 cases (two rounds, both libraries), the Cols GPU tests on build_r64 (which run the
# new plans), the thread-row tests on the default, the LPNorm end-to-end bench on the default (its new
# BF16 Cols row). Files under $OUT: s35a_log.txt, cols.txt, tests_r64.txt, tests_default.txt, lpn.txt/json.
NAME=${NAME:-s35a}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
VARIANT_CXXFLAGS="-DINFINI_LP_NORM_COLS_MIN_ROW_BYTES=64" build_variant_pair build_r64 "" native/src/ops/lp_norm/nvidia.cc
probe_rounds "$OUT/cols.txt" "tools/dtype_survey.py [cols" build/lib build_r64/lib
INFINIOP_LIBRARY=$PWD/build_r64/lib/libinfiniop.so cols_gpu_tests "$OUT/tests_r64.txt" 120
lp_tests "$OUT/tests_default.txt" 60 "thread-row tests, default library" "split_over"
end_to_end_bench "$OUT/lpn" 60 30 --op lp_norm
step "done"
