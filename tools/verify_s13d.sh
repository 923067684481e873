#!/usr/bin/env bash
# Session 13, fourth device call (timeout_s 560), from the repository root after `source .gpu/setup.sh`:
#   1. the library (make -j16; Pipe launched plainly) and build/pdl2: the same with Pipe launched with
#      PDL in graphs too (pipe.cu rebuilt with -DINFINI_LP_NORM_PIPE_PDL=2, every other object copied);
#      tools/lpn7_bench.cu (Pipe plain and with PDL, one build);
#   2. LPN7_ONLY=pipe (every Pipe check on both, then graph µs);
#   3. bench_lp_norm on both libraries;
#   4. the LPNorm long-row, graph, dependent and chained tests on build/pdl2.
# Merged since: INFINI_LP_NORM_PIPE_PDL defaults to 2, so on main build/ launches Pipe with PDL too.
# Writes under $OUT: s13d_log.txt, s13d_pipe.txt, s13d_bench_{plain,pdl}.txt, s13d_tests.txt.
NAME=s13d
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
git log --oneline -1 >>"$LOG" 2>&1
mkdir -p build
step "build: lpn7_bench, build/pdl2's pipe.cu, the default library, at the same time"
timeout -k 3 "$(cap 200)" "$NVCC" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/include -Inative/src \
    -DINFINI_WITH_NVIDIA tools/lpn7_bench.cu -o build/lpn7 >build/lpn7.log 2>&1 &
lpn=$!
rm -rf build/pdl2 && mkdir -p build/pdl2
timeout -k 3 "$(cap 150)" make CUDA_ARCHS=90 BUILD=build/pdl2 EXTRA_NVCCFLAGS=-DINFINI_LP_NORM_PIPE_PDL=2 \
    build/pdl2/obj/native/src/ops/lp_norm/pipe.cu.o >build/pdl2_make.log 2>&1 &
pdl2=$!
library_build
wait "$pdl2"
echo "make (pdl2 pipe.cu) rc=$?" | tee -a "$LOG"
mkdir -p build/pdl2/obj && cp -a -n build/obj/. build/pdl2/obj/ 2>/dev/null
timeout -k 3 "$(cap 60)" make -j16 CUDA_ARCHS=90 BUILD=build/pdl2 EXTRA_NVCCFLAGS=-DINFINI_LP_NORM_PIPE_PDL=2 \
    build/pdl2/lib/libinfiniop.so build/pdl2/lib/libinfinirt.so >/dev/null 2>>"$LOG"
echo "make (pdl2 library) rc=$?" | tee -a "$LOG"
wait "$lpn"
echo "lpn7 build rc=$?" | tee -a "$LOG"
step "LPN7_ONLY=pipe"
LPN7_ONLY=pipe timeout -k 3 "$(cap 120)" build/lpn7 "$OUT/s13d_pipe.txt" >>"$LOG" 2>&1
echo "pipe rc=$? (1: a check FAILED; 124: stopped at its cap)" | tee -a "$LOG"
for v in plain pdl; do
    lib=$PWD/build/lib/libinfiniop.so
    [ "$v" = pdl ] && lib=$PWD/build/pdl2/lib/libinfiniop.so
    step "bench_lp_norm, $v"
    INFINIOP_LIBRARY=$lib timeout -k 3 "$(cap 90)" $PY -m infiniop_py.bench.bench_lp_norm >"$OUT/s13d_bench_$v.txt" 2>&1
    echo "bench $v rc=$?" | tee -a "$LOG"
done
step "LPNorm tests on build/pdl2"
INFINIOP_LIBRARY=$PWD/build/pdl2/lib/libinfiniop.so timeout -k 3 "$(cap 150)" $PY -m pytest tests/test_lp_norm.py -q \
    -p no:cacheprovider -k "long or graph or dependent or chained or nonfinite" >"$OUT/s13d_tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"
tail -n 2 "$OUT/s13d_tests.txt" | tee -a "$LOG"
step "done"
