#!/usr/bin/env bash
# Issue 13, LPNorm 4096² F16 (goal <= 26.3 µs graph on the H100): the Stream plan's one-pass sum
# with 2 or 4 accumulators (-DINFINI_LP_NORM_STREAM_ACC, stream.cu; notes/lp_norm.md, "Session 10:
# Stream's accumulators") against the default single chain. One device call (timeout_s 300),
# from the repository root after `source .gpu/setup.sh`:
#   1. the default library (build/) and, beside it, build/acc2 and build/acc4: the same objects
#      with stream.cu recompiled with the knob;
#   2. the Stream-plan GPU tests on build/acc4 (dependent chains bitwise, graphs, non-finite);
#   3. bench_lp_norm's 4096² F16 case, 3 rounds each, in the order default, acc4, acc2, acc4,
#      default (the goal's metric: the graph row).
# Writes under $OUT: acc_log.txt, acc_tests.txt, acc_bench.txt.
NAME=acc
END=${END:-280}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
git log --oneline -1 >>"$LOG" 2>&1
library_build
for n in 2 4; do
    dir=build/acc$n
    step "$dir: stream.cu with INFINI_LP_NORM_STREAM_ACC=$n, every other object copied"
    rm -rf "$dir" && mkdir -p "$dir/obj" && cp -a build/obj/. "$dir/obj/"
    rm -f "$dir/obj/native/src/ops/lp_norm/stream.cu.o"
    timeout -k 3 "$(cap 60)" make -j16 CUDA_ARCHS=90 BUILD="$dir" EXTRA_NVCCFLAGS=-DINFINI_LP_NORM_STREAM_ACC=$n \
        "$dir/lib/libinfiniop.so" "$dir/lib/libinfinirt.so" "$dir/lib/build_info.json" >>"$LOG" 2>&1
    echo "make ($dir) rc=$?" | tee -a "$LOG"
done
step "Stream-plan GPU tests on build/acc4"
INFINIOP_LIBRARY="$PWD/build/acc4/lib/libinfiniop.so" timeout -k 3 "$(cap 60)" $PY -m pytest tests/test_lp_norm.py \
    -q -p no:cacheprovider -k "streamed or dependent or graph or nonfinite" >"$OUT/acc_tests.txt" 2>&1
echo "tests rc=$? (124: stopped at its cap, see the count above)" | tee -a "$LOG" "$OUT/acc_tests.txt"
cat >build/acc_bench_case.py <<'PY'
import os
from infiniop_py.bench import bench_lp_norm as b, harness
spec = next(s for s in b.GPU_CASES if "4096x4096" in s[0])
case = b._gpu_case(*spec)
lib = os.path.relpath(os.environ["INFINIOP_LIBRARY"])
for _ in range(3):
    r, g = harness.run_case(case), b.graph_row(case)
    print(f"{lib}: {spec[0]}: eager {r.ours_us:.2f} us, graph {g.ours_us:.2f} us "
          f"(torch graph {g.torch_us:.2f}), ok {r.ok} {g.ok} {r.note}", flush=True)
PY
for lib in build build/acc4 build/acc2 build/acc4 build; do
    step "bench_lp_norm 4096² F16 on $lib"
    INFINIOP_LIBRARY="$PWD/$lib/lib/libinfiniop.so" timeout -k 3 "$(cap 30)" $PY build/acc_bench_case.py \
        >>"$OUT/acc_bench.txt" 2>&1
    echo "bench ($lib) rc=$?" | tee -a "$LOG" "$OUT/acc_bench.txt"
done
step "done"
