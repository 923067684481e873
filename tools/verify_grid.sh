#!/usr/bin/env bash
# Issue 13, LPNorm long rows: the Grid plan (native/src/ops/lp_norm/grid.cu; notes/lp_norm.md,
# "Session 10: the Grid plan") against Pipe, TwoPass and main's plans. One device call, from the
# repository root, after `source .gpu/setup.sh` (timeout_s 300):
#   1. the library (make -j14, Grid on by default) in the background; the harness
#      (tools/lpn7_bench.cu, LPN7_ONLY=grid): float64 checks of every plan and Grid variant
#      (non-finite rows, out-of-range sums, every dtype, empty last chunk, garbage workspace,
#      bitwise repeatable, in place), then graph µs per call;
#   2. the LPNorm GPU tests of long rows on the library; bench_lp_norm's 32x1M BF16 row.
# Writes under $OUT: grid_trace.txt (per-row stage times of a -DINFINI_LP_NORM_GRID_TRACE build),
# grid_harness.txt, grid_tests.txt, grid_bench.txt, grid_log.txt.
NAME=grid
END=${END:-280}
source "$(dirname "$0")/verify_common.sh"
step "library build in the background (make -j14 CUDA_ARCHS=90)"
git log --oneline -1 >>"$LOG" 2>&1
mkdir -p build
timeout -k 3 "$(cap 150)" make -j14 CUDA_ARCHS=90 >build/grid_make.log 2>&1 &
MAKEPID=$!
step "trace harness build (background)"
timeout -k 3 "$(cap 100)" "$NVCC" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/include -Inative/src \
    -DINFINI_WITH_NVIDIA -DINFINI_LP_NORM_GRID_TRACE tools/lpn7_bench.cu -o build/grid_trace >build/grid_trace_build.log 2>&1 &
TRACEPID=$!
harness_build tools/lpn7_bench.cu build/grid_bench 100
wait "$TRACEPID"
echo "trace harness build rc=$?" | tee -a "$LOG"
step "stage trace (LPN7_ONLY=gridtrace)"
LPN7_ONLY=gridtrace timeout -k 3 "$(cap 20)" build/grid_trace "$OUT/grid_trace.txt" >>"$LOG" 2>&1
echo "trace rc=$?" | tee -a "$LOG"
step "harness (LPN7_ONLY=grid): checks, then graph timing"
LPN7_ONLY=grid timeout -k 3 "$(cap 90)" build/grid_bench "$OUT/grid_harness.txt" >>"$LOG" 2>&1
echo "harness rc=$? (1: a check failed, see FAILED; 124: stopped at its cap)" | tee -a "$LOG"
wait "$MAKEPID"
echo "make rc=$?" | tee -a "$LOG"
tail -n 5 build/grid_make.log >>"$LOG"
step "LPNorm GPU tests of long rows (Grid where it plans)"
timeout -k 3 "$(cap 45)" $PY -m pytest tests/test_lp_norm.py -q -p no:cacheprovider -x \
    -k "long or two_pass or graph or chained or nonfinite or extreme" >"$OUT/grid_tests.txt" 2>&1
echo "tests rc=$? (124: stopped at its cap, see the count above)" | tee -a "$LOG" "$OUT/grid_tests.txt"
step "bench_lp_norm's long-row case (3 rounds)"
cat >build/grid_bench_case.py <<'PY'
from infiniop_py.bench import bench_lp_norm as b, harness
spec = next(s for s in b.GPU_CASES if "32x1M" in s[0])
case = b._gpu_case(*spec)
for _ in range(3):
    r, g = harness.run_case(case), b.graph_row(case)
    print(f"{spec[0]}: eager {r.ours_us:.2f} us, graph {g.ours_us:.2f} us (torch graph {g.torch_us:.2f}), "
          f"ok {r.ok} {g.ok} {r.note}", flush=True)
PY
timeout -k 3 "$(cap 40)" $PY build/grid_bench_case.py >"$OUT/grid_bench.txt" 2>&1
echo "bench rc=$?" | tee -a "$LOG" "$OUT/grid_bench.txt"
step "done"
