#!/usr/bin/env bash
# Session 53, call 3 (H200): the closing measurements of the session's tree (the F64 / F32 Cols rules merged;
# the whole suite ran in call 2 on it without WHOLE_STREAM_F32, whose plans are call 2's build_wf32's): the
# Cols GPU tests on it, memcheck on the new and the cut-axis tests; the end-to-end bench; ncu of two Mul
# gather lines of the seed-52
# sweep (short 16-bit rows without two runs a vector: (175,95,79,5) BF16 b (1,1,1,5) 25.2 against 19.8 µs;
# (125,297,43) F16 a (0,2,1) 1.26x), ours and PyTorch's kernels; then a random sweep (seed 53) for the rest.
# Files under $OUT: s53c_log.txt, tests.txt, bench.txt / bench.json, ncu_behind.txt, sweep53.txt.
NAME=${NAME:-s53c}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
variant_tests build 100 60 tests/test_lp_norm.py "(cols or columns or zero_parts or chunks) and not cpu" \
    "streamed_not_held or cols_cut"
end_to_end_bench "$OUT/bench" 90 60
ncu_line build "mul (175, 95, 79, 5) a order (0, 1, 2, 3) b (1, 1, 1, 5) bfloat16: ours 25.16 us, torch 19.77 us, ratio 1.273, 26.3 MB, ok True  BEHIND;mul (125, 297, 43) a order (0, 2, 1) b (125, 1, 43) float16: ours 9.96 us, torch 7.92 us, ratio 1.258, 6.4 MB, ok True  BEHIND" 70
sweep_if_time 53 10
step "done"
