#!/usr/bin/env bash
# Issue 13, skewed word tiles for odd-pitch 2-byte transposes (branch dev/rearr7): one device
# call on the H100, cold machine. From the repository root, after `source .gpu/setup.sh`:
#     bash tools/verify_rearr7.sh
# Writes under $OUT (4 files): rearr7_bench.txt (tools/rearr4_bench.cu: every kernel checked bit
# for bit, then µs per launch in a CUDA graph: session 5's skewed tile against the skewed word
# tiles, spans 1 and 2, 4/6/8 blocks per SM, the unit and word tiles, and the library call of this
# build), rearr7_ncu.txt (one launch each on 4097²: session 5's kernel, span 2, span 1; 4096² word
# tile; L2 sectors, DRAM bytes, time), rearr7_tests.txt (Rearrange GPU tests, INFINIOP_REQUIRE_GPU=1),
# rearr7_log.txt (build and step log). Each step has a cap; the script stops before 200 s.
NAME=rearr7
END=195
source "$(dirname "$0")/verify_common.sh"

step "library build (make -j16 CUDA_ARCHS=90)"
timeout -k 3 "$(cap 110)" make -j16 CUDA_ARCHS=90 >>"$LOG" 2>&1
echo "make rc=$?" | tee -a "$LOG"

step "harness build (nvcc, sm_90, linked to the library; ptxas -v in this log)"
timeout -k 3 "$(cap 60)" "$NVCC" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/src -Inative/include \
    -DINFINI_WITH_NVIDIA -Xptxas -v tools/rearr4_bench.cu -Lbuild/lib -linfiniop -linfinirt \
    -Xlinker -rpath="$PWD/build/lib" -o build/rearr4_bench >>"$LOG" 2>&1
echo "harness build rc=$?" | tee -a "$LOG"

step "A/B harness (bit-exact checks, then graph timings)"
timeout -k 3 "$(cap 50)" build/rearr4_bench >"$OUT/rearr7_bench.txt" 2>&1
echo "harness rc=$?" | tee -a "$LOG" "$OUT/rearr7_bench.txt"

step "ncu: one launch each"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
if [ -n "$NCU" ]; then
    timeout -k 3 "$(cap 45)" "$NCU" --clock-control none -k regex:Tile -c 4 --metrics \
        lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,dram__bytes.sum,gpu__time_duration.sum,lts__t_sectors_srcunit_ltcfabric.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum \
        build/rearr4_bench --ncu >"$OUT/rearr7_ncu.txt" 2>&1
    echo "ncu rc=$?" | tee -a "$LOG" "$OUT/rearr7_ncu.txt"
else
    echo "ncu not found" | tee "$OUT/rearr7_ncu.txt"
fi

step "GPU tests (tests/test_rearrange.py)"
timeout -k 3 "$(cap 60)" $PY -m pytest tests/test_rearrange.py -q -x -p no:cacheprovider >"$OUT/rearr7_tests.txt" 2>&1
echo "tests rc=$? (124: stopped at its cap)" | tee -a "$LOG" "$OUT/rearr7_tests.txt"
tail -1 "$OUT/rearr7_tests.txt" | tee -a "$LOG"
step "done"
