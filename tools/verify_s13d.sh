#!/usr/bin/env bash
# Session 13, PDL for LPNorm's long-row plans (timeout_s 560), from the repository root after
# `source .gpu/setup.sh`. VARIANT picks the plan: pipe (default; merged since, so on main both builds
# launch Pipe with PDL) or two_pass (its knob was not kept, so on main both builds are the same;
# notes/lp_norm.md, "PDL for TwoPass"):
#   1. the library (make -j16) and build/pdl2: the same with the plan's object rebuilt with its PDL
#      knob at 2 (PDL in graphs too), every other object copied; tools/lpn7_bench.cu beside them
#      (Pipe and TwoPass, each plain and with PDL where the harness has the variant);
#   2. LPN7_ONLY=pipe (every check on each, then graph µs);
#   3. bench_lp_norm on both libraries;
#   4. the LPNorm long-row, TwoPass, graph, dependent, chained and non-finite tests on build/pdl2.
# Writes under $OUT: s13d_log.txt, s13d_pipe.txt, s13d_bench_{plain,pdl}.txt, s13d_tests.txt.
NAME=s13d
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
VARIANT=${VARIANT:-pipe}
case "$VARIANT" in
pipe) knob=-DINFINI_LP_NORM_PIPE_PDL=2 ;;
two_pass) knob=-DINFINI_LP_NORM_TWO_PASS_PDL=2 ;;
*) echo "VARIANT: pipe or two_pass" >&2; exit 2 ;;
esac
mkdir -p build
timeout -k 3 "$(cap 200)" "$NVCC" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/include -Inative/src \
    -DINFINI_WITH_NVIDIA tools/lpn7_bench.cu -o build/lpn7 >build/lpn7.log 2>&1 &
lpn=$!
build_variant_pair build/pdl2 "$knob" native/src/ops/lp_norm/$VARIANT.cu
wait "$lpn"
echo "lpn7 build rc=$?" | tee -a "$LOG"
step "LPN7_ONLY=pipe"
LPN7_ONLY=pipe timeout -k 3 "$(cap 120)" build/lpn7 "$OUT/s13d_pipe.txt" >>"$LOG" 2>&1
echo "pipe rc=$? (1: a check FAILED; 124: stopped at its cap)" | tee -a "$LOG"
bench_libraries infiniop_py.bench.bench_lp_norm "$OUT/s13d_bench" plain=build/lib pdl=build/pdl2/lib
step "LPNorm tests on build/pdl2"
INFINIOP_LIBRARY=$PWD/build/pdl2/lib/libinfiniop.so timeout -k 3 "$(cap 150)" $PY -m pytest tests/test_lp_norm.py -q \
    -p no:cacheprovider -k "long or two_pass or graph or dependent or chained or nonfinite" >"$OUT/s13d_tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"
tail -n 2 "$OUT/s13d_tests.txt" | tee -a "$LOG"
step "done"
