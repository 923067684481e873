#!/usr/bin/env bash
# Session 33, call 5 (H200): LPNorm 32x1M BF16 is the one goal a copy of its bytes leaves room for (copy
# 34.4 µs eager, Hold 44.9; the goal 37.0). Which plan is nearest on this chip and where Hold's time goes:
# tools/lpn7_bench.cu with LPN7_ONLY=grid (its first case is 32x1M BF16: every plan and the Grid
# variants, each checked, graph µs, beside a copy of the same bytes) and LPN7_ONLY=holdtrace (a
# -DINFINI_LP_NORM_STAGE_TRACE build: Hold's stage points, 16x1M and 32x1M). Meanwhile the library and
# RandomSample's graph rows (python -m infiniop_py.bench.bench_random_sample --eager: eager rows moved
# 9.3-13.0 µs between this session's runs on argmax 8x151936 F16).
# Files under $OUT: s33e_log.txt, grid.txt, holdtrace.txt, rs_graph.txt, build logs.
NAME=${NAME:-s33e}
END=${END:-400}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
harness_build_bg tools/lpn7_bench.cu build/lpn7 
harness_build_bg tools/lpn7_bench.cu build/lpn7_trace -DINFINI_LP_NORM_STAGE_TRACE
library_build
step "bench_random_sample --eager (graph rows, ABI eager, Python eager)"
timeout -k 3 "$(cap 90)" $PY -m infiniop_py.bench.bench_random_sample --eager >"$OUT/rs_graph.txt" 2>&1
echo "rc=$?" | tee -a "$LOG" "$OUT/rs_graph.txt"
wait
step "lpn7 builds: $(ls build/lpn7 build/lpn7_trace 2>&1 | tr '\n' ' ')"
step "LPN7_ONLY=grid"
LPN7_ONLY=grid timeout -k 3 "$(cap 90)" build/lpn7 "$OUT/grid.txt" >>"$LOG" 2>&1
echo "rc=$? (124: stopped at its cap)" | tee -a "$LOG"
step "LPN7_ONLY=holdtrace"
LPN7_ONLY=holdtrace timeout -k 3 "$(cap 40)" build/lpn7_trace "$OUT/holdtrace.txt" >>"$LOG" 2>&1
echo "rc=$?" | tee -a "$LOG"
step "done"
