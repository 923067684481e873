#!/usr/bin/env bash
# Session 49's last call (H200, ~300 s of device time left), diagnostics for session 50 on the seed-49 sweep's
# worst lines (notes/sweeps/session49_probe_lines.txt): eager and graph µs (tools/eager_graph_lines.py),
# then ncu with stall reasons on four of them: (123,21,129,72) F16 axis 2 (Whole Cols of 16-byte packs,
# 9 packs a row in blocks 8 packs wide: the second block column holds one; 2.0x PyTorch), (436,226,49) F64
# axis 0 and (147,25,25,80) BF16 axis 0 (the cut axis, 1.28x / 1.22x), (741,318,27) BF16 Mul a order
# (0,2,1) (gather, 1.16x). Files under $OUT: s49e_log.txt, lines.txt, ncu_behind.txt.
NAME=${NAME:-s49e}
END=${END:-250}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
graph_lines notes/sweeps/session49_probe_lines.txt 40
export SECTIONS="WarpStateStats"
ncu_line build "lp_norm (123, 21, 129, 72) axis 2 p 2 float16" 30
ncu_line build "lp_norm (436, 226, 49) axis 0 p 2 float64" 30
ncu_line build "lp_norm (147, 25, 25, 80) axis 0 p 2 bfloat16" 30
ncu_line build "mul (741, 318, 27) a order (0, 2, 1) b (1, 318, 27) bfloat16" 30
step "done"
