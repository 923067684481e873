#!/usr/bin/env bash
# A/B of a compile-time knob of one LPNorm source on one bench_lp_norm case's graph row (issue 13).
# One device call (timeout_s 300), from the repository root after `source .gpu/setup.sh`:
#     bash tools/verify_lpn_knob.sh NAME SOURCE FLAGS CASE TESTS
#   e.g. refill native/src/ops/lp_norm/stream.cu -DINFINI_LP_NORM_STREAM_REFILL=1 4096x4096 \
#        "streamed or dependent or graph or nonfinite"
#   1. the default library (build/) and build/NAME: the same objects, SOURCE compiled with FLAGS;
#   2. the LPNorm GPU tests selected by TESTS (pytest -k) on build/NAME;
#   3. the graph row of the bench_lp_norm case whose name contains CASE, 3 rounds each, in the
#      order default, NAME, default, NAME, default.
# Writes under $OUT: NAME_log.txt, NAME_tests.txt, NAME_bench.txt.
KNOB_NAME=${1:?name}
KNOB_SOURCE=${2:?source file}
KNOB_FLAGS=${3:?nvcc flags}
export KNOB_CASE=${4:?bench case}
KNOB_TESTS=${5:?pytest -k expression}
NAME=$KNOB_NAME
END=${END:-280}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
git log --oneline -1 >>"$LOG" 2>&1
library_build
dir=build/$KNOB_NAME
step "$dir: $KNOB_SOURCE with $KNOB_FLAGS, every other object copied"
rm -rf "$dir" && mkdir -p "$dir/obj" && cp -a build/obj/. "$dir/obj/"
rm -f "$dir/obj/$KNOB_SOURCE.o"
timeout -k 3 "$(cap 60)" make -j16 CUDA_ARCHS=90 BUILD="$dir" EXTRA_NVCCFLAGS="$KNOB_FLAGS" \
    "$dir/lib/libinfiniop.so" "$dir/lib/libinfinirt.so" "$dir/lib/build_info.json" >>"$LOG" 2>&1
echo "make ($dir) rc=$?" | tee -a "$LOG"
step "LPNorm GPU tests (-k $KNOB_TESTS) on $dir"
INFINIOP_LIBRARY="$PWD/$dir/lib/libinfiniop.so" timeout -k 3 "$(cap 60)" $PY -m pytest tests/test_lp_norm.py \
    -q -p no:cacheprovider -k "$KNOB_TESTS" >"$OUT/${NAME}_tests.txt" 2>&1
echo "tests rc=$? (124: stopped at its cap, see the count above)" | tee -a "$LOG" "$OUT/${NAME}_tests.txt"
cat >build/knob_bench_case.py <<'PY'
import os
from infiniop_py.bench import bench_lp_norm as b, harness
spec = next(s for s in b.GPU_CASES if os.environ["KNOB_CASE"] in s[0])
case = b._gpu_case(*spec)
lib = os.path.relpath(os.environ["INFINIOP_LIBRARY"])
for _ in range(3):
    r, g = harness.run_case(case), b.graph_row(case)
    print(f"{lib}: {spec[0]}: eager {r.ours_us:.2f} us, graph {g.ours_us:.2f} us "
          f"(torch graph {g.torch_us:.2f}), ok {r.ok} {g.ok} {r.note}", flush=True)
PY
for lib in build "$dir" build "$dir" build; do
    step "bench_lp_norm $KNOB_CASE on $lib"
    INFINIOP_LIBRARY="$PWD/$lib/lib/libinfiniop.so" timeout -k 3 "$(cap 30)" $PY build/knob_bench_case.py \
        >>"$OUT/${NAME}_bench.txt" 2>&1
    echo "bench ($lib) rc=$?" | tee -a "$LOG" "$OUT/${NAME}_bench.txt"
done
step "done"
