#!/usr/bin/env bash
# Session 40, call 2 (H200): the default library with call 1's winners on (Rearrange's lean generic
# kernels, Mul's lane mapping). ncu first (kernel names, time, DRAM bytes) on the cases the lean kernels
# did not move (session 39's two worst Rearranges, 5-D F16) and on two ragged LPNorm shapes behind PyTorch
# (one row of 9.1M BF16 on Split; rows of 17311 F16 on Rows); then the whole suite (GPU tests required),
# the end-to-end bench and a fresh sweep (seed 40) with what is left.
# Files under $OUT: s40b_log.txt, gpu_suite.txt, ncu_behind.txt, bench.txt, bench.json, sweep40.txt.
NAME=${NAME:-s40b}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
step "ncu: two 5-D F16 Rearranges, two ragged LPNorms (default library)"
LINES="rearrange (6, 39, 89, 24, 38) src order (4, 2, 1, 0, 3) dst (3165552, 81168, 912, 38, 1) float16;rearrange (15, 4, 102, 40, 49) src order (2, 0, 4, 1, 3) dst (799680, 199920, 1960, 49, 1) float16;lp_norm (9114740,) axis 0 p 2 bfloat16;lp_norm (1387, 17311) axis 1 p 1 float16" \
    OUT="$OUT" timeout -k 3 "$(cap 120)" bash tools/ncu_behind.sh
echo "ncu rc=$?" | tee -a "$LOG"
whole_suite 200
end_to_end_bench "$OUT/bench" 60 60
left=$((END - SECONDS - 15))
if [ "$left" -ge 30 ]; then
    step "random sweep, seed 40, $left s"
    timeout -k 3 "$((left + 10))" $PY tools/behind_sweep.py 40 "$left" >"$OUT/sweep40.txt" 2>&1
    echo "sweep rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/sweep40.txt" >>"$LOG"
fi
step "done"
