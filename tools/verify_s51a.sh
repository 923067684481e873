#!/usr/bin/env bash
# Written at the end of session 50 for session 51 (H200), not yet run: where the seed-50 sweep's worst lines
# lose, before any change (the session had no device time left to look):
# - eager and graph µs of 9 of its lines (notes/sweeps/session50_probe_lines.txt): the host's share;
# - ncu with stall reasons (WarpStateStats) on six: the F64 cut axis (259,429,58) axis 0 (5 chunks: Stats,
#   the one-row Factor, Apply), F64 Whole pairs at 32 thread rows (189,199,114) axis 0, the BF16 Slab
#   (129,239,17,31) axis 2 and the F64 Slab (141,195,11,39) axis 2, and two Mul gathers (F16 a order
#   (3,0,1,2), F64 a order (0,1,3,2)).
# Also the cut-axis GPU tests: 2b4c4d1 rewrote the Factor launch's host code after its last GPU run.
# Files under $OUT: s51a_log.txt, cut_axis_tests.txt, lines.txt, ncu_behind.txt.
NAME=${NAME:-s51a}
END=${END:-300}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
lp_tests "$OUT/cut_axis_tests.txt" 60 "cut-axis GPU tests (2b4c4d1's Factor launch)" "cols_cut_axis_gpu"
graph_lines notes/sweeps/session50_probe_lines.txt 40
export SECTIONS="WarpStateStats"
ncu_line build "lp_norm (259, 429, 58) axis 0 p 2 float64" 30
ncu_line build "lp_norm (189, 199, 114) axis 0 p 2 float64" 30
ncu_line build "lp_norm (129, 239, 17, 31) axis 2 p 2 bfloat16" 30
ncu_line build "lp_norm (141, 195, 11, 39) axis 2 p 2 float64" 30
ncu_line build "mul (55, 10, 107, 52) a order (3, 0, 1, 2) b (55, 10, 107, 52) float16" 30
ncu_line build "mul (86, 63, 5, 56) a order (0, 1, 3, 2) b (1, 1, 1, 56) float64" 30
step "done"
