#!/usr/bin/env bash
# Issue 13, odd word tiles for odd-pitch 2-byte transposes (4097² F16; odd_word_tile.cuh, built only
# with -DINFINI_REARRANGE_ODD_WORDS=1): one device call on the H100, cold machine, timeout_s 300.
# From the repository root, after `source .gpu/setup.sh`:
#     bash tools/verify_odd.sh
# Builds the default library (build/) and beside it the knob build (build/odd: the two Rearrange
# objects the knob changes compiled with it, every other object copied from build/), and
# tools/rearr4_bench.cu once (no rpath: LD_LIBRARY_PATH picks the library). Writes under $OUT
# (at most 6 files):
#   odd_bench.txt    every kernel checked bit for bit, then µs per launch in a CUDA graph (odd
#                    word tiles, spans 1/2/3 and 4..8 blocks/SM, against session 5's skewed tiles,
#                    the skewed word tiles, unit and word tiles) and the knob build's library call;
#                    then the default build's library call on the same cases (--library);
#   odd_tests.txt    tests/test_rearrange.py against the knob build (INFINIOP_LIBRARY, GPU required);
#   odd_ncu.txt      one launch each on 4097² (session 5, skewed words span 2/1, odd words span 2/1),
#                    4096² word tile, 4098² skewed words: sectors, DRAM bytes, time (if time is left);
#   odd_ptxas.txt    the harness's ptxas -v (registers, spills of every kernel);
#   odd_log.txt      build and step log.
# Each step has a cap; the script stops before 200 s.
NAME=odd
END=195
source "$(dirname "$0")/verify_common.sh"
ODD=build/odd
KNOB=-DINFINI_REARRANGE_ODD_WORDS=1
REARR=native/src/ops/rearrange
mkdir -p build
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
git log --oneline -1 >>"$LOG" 2>&1

step "background: harness object (nvcc sm_90, ptxas -v) and the knob's two objects of $ODD"
timeout -k 3 "$(cap 120)" "$NVCC" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/src -Inative/include \
    -DINFINI_WITH_NVIDIA -Xptxas -v -c tools/rearr4_bench.cu -o build/rearr4_bench.o >"$OUT/odd_ptxas.txt" 2>&1 &
HARNESS_PID=$!
rm -rf "$ODD"
timeout -k 3 "$(cap 120)" make -j4 CUDA_ARCHS=90 BUILD="$ODD" EXTRA_NVCCFLAGS="$KNOB" EXTRA_CXXFLAGS="$KNOB" \
    "$ODD/obj/$REARR/kernels_u2.cu.o" "$ODD/obj/$REARR/rearrange_nvidia.cc.o" >"$OUT/odd_knob_make.txt" 2>&1 &
KNOB_PID=$!
library_build
wait "$KNOB_PID"
echo "make ($ODD knob objects) rc=$?" | tee -a "$LOG"
tail -n 3 "$OUT/odd_knob_make.txt" >>"$LOG"
rm -f "$OUT/odd_knob_make.txt"

step "knob library ($ODD: every other object copied from build/)"
mkdir -p "$ODD/obj" && cp -a -n build/obj/. "$ODD/obj/"
timeout -k 3 "$(cap 40)" make -j16 CUDA_ARCHS=90 BUILD="$ODD" EXTRA_NVCCFLAGS="$KNOB" EXTRA_CXXFLAGS="$KNOB" \
    "$ODD/lib/libinfiniop.so" "$ODD/lib/libinfinirt.so" >>"$LOG" 2>&1
echo "make ($ODD library) rc=$?" | tee -a "$LOG"
strings "$ODD/lib/libinfiniop.so" | grep -c oddWordTileKernel | sed 's/^/odd word tile kernel names in the knob library: /' | tee -a "$LOG"

step "GPU tests (tests/test_rearrange.py) against the knob build (while the harness compiles)"
INFINIOP_LIBRARY="$PWD/$ODD/lib/libinfiniop.so" timeout -k 3 "$(cap 40)" \
    $PY -m pytest tests/test_rearrange.py -q -x -p no:cacheprovider >"$OUT/odd_tests.txt" 2>&1
echo "tests rc=$? (124: stopped at its cap)" | tee -a "$LOG" "$OUT/odd_tests.txt"
tail -1 "$OUT/odd_tests.txt" | tee -a "$LOG"

step "harness link"
wait "$HARNESS_PID"
echo "harness compile rc=$?" | tee -a "$LOG"
timeout -k 3 "$(cap 20)" "$NVCC" -arch=sm_90 build/rearr4_bench.o -Lbuild/lib -linfiniop -linfinirt \
    -o build/rearr4_bench >>"$LOG" 2>&1
echo "harness link rc=$?" | tee -a "$LOG"

step "A/B harness against the knob build (bit-exact checks, then graph timings)"
LD_LIBRARY_PATH="$PWD/$ODD/lib" timeout -k 3 "$(cap 50)" build/rearr4_bench >"$OUT/odd_bench.txt" 2>&1
echo "harness rc=$?" | tee -a "$LOG" "$OUT/odd_bench.txt"
step "library call of the default build"
LD_LIBRARY_PATH="$PWD/build/lib" timeout -k 3 "$(cap 25)" build/rearr4_bench --library >>"$OUT/odd_bench.txt" 2>&1
echo "harness (default library) rc=$?" | tee -a "$LOG" "$OUT/odd_bench.txt"

NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
if [ -n "$NCU" ] && [ $((END - SECONDS)) -ge 25 ]; then
    step "ncu: one launch each"
    LD_LIBRARY_PATH="$PWD/$ODD/lib" timeout -k 3 "$(cap 45)" "$NCU" --clock-control none -k regex:Tile -c 7 --metrics \
        lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,dram__bytes.sum,gpu__time_duration.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,sm__warps_active.avg.pct_of_peak_sustained_active \
        build/rearr4_bench --ncu >"$OUT/odd_ncu.txt" 2>&1
    echo "ncu rc=$?" | tee -a "$LOG" "$OUT/odd_ncu.txt"
else
    step "ncu skipped (${NCU:-not found}; $((END - SECONDS)) s left)"
fi
step "done"
