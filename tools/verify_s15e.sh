#!/usr/bin/env bash
# Session 15: LPNorm's Split plan with its apply kernel as the stats kernel's programmatic dependent
# (rows.cu, INFINI_LP_NORM_SPLIT_PDL), and the Sweep plan (sweep.cu) for the shapes Split takes.
# One device call from the repository root after `source .gpu/setup.sh`; VARIANT=nopdl (default:
# rows.cu with INFINI_LP_NORM_SPLIT_PDL=0) or VARIANT=nosweep (nvidia.cc with INFINI_LP_NORM_SWEEP=0):
#   1. the harness (tools/lpn7_bench.cu), then the library and, beside it, build/$VARIANT;
#   2. the harness, LPN7_ONLY=split: float64 checks of the Split plan launched plainly and with PDL
#      (eager only, always) and of the Sweep variants on every case main's planner gives Split, then
#      graph µs per call;
#   3. the LPNorm GPU tests of long rows, graphs, chained and dependent calls on the library;
#   4. the library's Split shapes, eager and in graphs, against PyTorch (tools/split_eager.py), on
#      build/$VARIANT and build/, two rounds interleaved.
# Writes under $OUT: s15e_harness.txt, s15e_tests.txt, s15e_eager.txt, s15e_log.txt.
NAME=s15e
END=${END:-280}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
mkdir -p build
harness_build tools/lpn7_bench.cu build/s15e_bench 120
step "harness (LPN7_ONLY=split)"
LPN7_ONLY=split timeout -k 3 "$(cap 90)" build/s15e_bench "$OUT/s15e_harness.txt" >>"$LOG" 2>&1
echo "harness rc=$? (1: a check failed, see FAILED; 124: stopped at its cap)" | tee -a "$LOG"
VARIANT=${VARIANT:-nopdl}
if [ "$VARIANT" = nosweep ]; then
    VARIANT_CXXFLAGS="-DINFINI_LP_NORM_SWEEP=0" build_variant_pair build/nosweep "" native/src/ops/lp_norm/nvidia.cc
else
    build_variant_pair build/nopdl "-DINFINI_LP_NORM_SPLIT_PDL=0" native/src/ops/lp_norm/rows.cu
fi
step "LPNorm GPU tests: long rows, graphs, chained and dependent calls"
timeout -k 3 "$(cap 150)" $PY -m pytest tests/test_lp_norm.py -q -p no:cacheprovider -x \
    -k "(long or split or few or graph or chained or dependent or nonfinite or extreme) and not large" >"$OUT/s15e_tests.txt" 2>&1
echo "tests rc=$? (124: stopped at its cap)" | tee -a "$LOG" "$OUT/s15e_tests.txt"
for round in 1 2; do
    for lib in build/$VARIANT/lib build/lib; do
        step "eager Split shapes against PyTorch, $lib, round $round"
        echo "== $lib, round $round" >>"$OUT/s15e_eager.txt"
        INFINIOP_LIBRARY=$PWD/$lib/libinfiniop.so timeout -k 3 "$(cap 40)" $PY tools/split_eager.py >>"$OUT/s15e_eager.txt" 2>&1
        echo "eager rc=$?" | tee -a "$LOG" "$OUT/s15e_eager.txt"
    done
done
step "done"
