#!/usr/bin/env bash
# Session 22: Hold's L2 prefetch of each block's first tiles (INFINI_LP_NORM_HOLD_PREFETCH_TILES = 2,
# the library's default) in the library. One device call: the library build, the Hold GPU tests,
# compute-sanitizer memcheck on tools/sanitize_lpn.py hold, then `python -m infiniop_py bench --op
# lp_norm` (PyTorch in the same run). Files under $OUT: s22j_log.txt, s22j_tests.txt,
# s22j_sanitize.txt, s22j_bench.txt, s22j_bench.json.
NAME=${NAME:-s22j}
END=${END:-430}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
library_build
hold_gpu_tests "$OUT/${NAME}_tests.txt" 150
lpn_sanitize memcheck "$OUT/${NAME}_sanitize.txt" hold
end_to_end_bench "$OUT/${NAME}_bench" 170 0 --op lp_norm
step "done"
