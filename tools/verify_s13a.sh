#!/usr/bin/env bash
# Session 13, first device call (timeout_s 560), from the repository root after `source .gpu/setup.sh`:
#   1. the library (make -j16) and, beside it: tools/lpn7_bench.cu (Pipe with rows in a fixed order
#      and claimed at run time, one build) and its stage-trace build; tools/pdlmul_bench.cu with the
#      contiguous loads plain and with an L2 prefetch of 256 bytes; tools/rearr4_bench.cu with the tile
#      kernels' loads plain, L2::256B (REARR_HINTS=4) and L2::128B (8);
#   2. LPN7_ONLY=pipe (every Pipe check on both, then graph µs); pipetrace with LPN7_PIPE_CLAIM=1;
#   3. rearr4_bench --pdl on the three builds; pdlmul_bench on the two.
# Not kept: the Mul prefetch knob and Pipe's rows claimed at run time (that code is on dev/pipe-claim); on main
# the mul builds are the same and lpn7_bench has no "pipe claim" row.
# Writes under $OUT: s13a_log.txt, s13a_pipe.txt, s13a_trace.txt, s13a_rearr{0,4,8}.txt, s13a_mul{0,256}.txt.
NAME=s13a
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
mkdir -p build
nv() { # nv NAME SOURCE FLAGS...: a standalone sm_90 harness in the background
    local name=$1 src=$2
    shift 2
    timeout -k 3 "$(cap 200)" "$NVCC" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/include \
        -Inative/src -Itools -DINFINI_WITH_NVIDIA "$@" "$src" -o "build/$name" >"build/$name.log" 2>&1
    echo "$name build rc=$?" >>"$LOG"
}
nv lpn tools/lpn7_bench.cu &
nv lpn_tr tools/lpn7_bench.cu -DINFINI_LP_NORM_STAGE_TRACE &
nv mul0 tools/pdlmul_bench.cu -DINFINI_ELEMENTWISE_L2_PREFETCH=0 &
nv mul256 tools/pdlmul_bench.cu -DINFINI_ELEMENTWISE_L2_PREFETCH=256 &
library_build
nv rearr0 tools/rearr4_bench.cu -Lbuild/lib -linfiniop -linfinirt &
nv rearr4 tools/rearr4_bench.cu -DREARR_HINTS=4 -Lbuild/lib -linfiniop -linfinirt &
nv rearr8 tools/rearr4_bench.cu -DREARR_HINTS=8 -Lbuild/lib -linfiniop -linfinirt &
wait
cat build/*.log | grep -i "error" | head -20 >>"$LOG"
step "LPN7_ONLY=pipe"
LPN7_ONLY=pipe timeout -k 3 "$(cap 120)" build/lpn "$OUT/s13a_pipe.txt" >>"$LOG" 2>&1
echo "pipe rc=$? (1: a check FAILED; 124: stopped at its cap)" | tee -a "$LOG"
step "pipetrace, rows claimed"
LPN7_ONLY=pipetrace LPN7_PIPE_CLAIM=1 timeout -k 3 "$(cap 30)" build/lpn_tr "$OUT/s13a_trace.txt" >>"$LOG" 2>&1
echo "pipetrace rc=$?" | tee -a "$LOG"
for h in 0 4 8; do
    step "rearr4_bench --pdl, REARR_HINTS=$h"
    LD_LIBRARY_PATH=build/lib timeout -k 3 "$(cap 60)" build/rearr$h --pdl >"$OUT/s13a_rearr$h.txt" 2>&1
    echo "rearr$h rc=$?" | tee -a "$LOG"
done
for m in 0 256; do
    step "pdlmul_bench, L2 prefetch $m"
    timeout -k 3 "$(cap 60)" build/mul$m "$OUT/s13a_mul$m.txt" >>"$LOG" 2>&1
    echo "mul$m rc=$?" | tee -a "$LOG"
done
step "done"
