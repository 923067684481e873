#!/usr/bin/env bash
# Session 14, third device call (timeout_s 560), from the repository root after `source .gpu/setup.sh`:
# whole skewed word tiles of single dims store their rows with two sector offsets a thread
# (storeWholeSkewRows, skew_tile.cuh) and whole odd word tiles load every row unpredicated.
#   1. the default library (build/) and build/rows0 with -DINFINI_REARRANGE_WHOLE_ROWS=0 in kernels_u2.cu
#      (the general loops, as before); tools/rearr4_bench.cu against build/lib;
#   2. rearr4_bench --library on build/rows0 and build/, twice, interleaved (the library call of 4097²,
#      4096², 4096² dst + 1, 4097² dst + 1, 4098², 4098² src + 1);
#   3. rearr4_bench --skew: spans and blocks an SM of the odd and skewed word tiles with PDL;
#   4. test_rearrange.py + test_properties.py + test_fuzz.py on build/ (GPU required);
#   5. compute-sanitizer memcheck on the odd-pitch / skewed Rearrange tests; 6. bench_rearrange.
# Writes under $OUT: s14c_log.txt, s14c_lib.txt, s14c_skew.txt, s14c_tests.txt, s14c_bench.txt.
NAME=s14c
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
build_variant_pair build/rows0 "-DINFINI_REARRANGE_WHOLE_ROWS=0" native/src/ops/rearrange/kernels_u2.cu
rearr4_build
rearrange_library_ab build/rows0 "$OUT/s14c_lib.txt"
step "rearr4_bench --skew"
LD_LIBRARY_PATH=build/lib timeout -k 3 "$(cap 90)" build/rearr4_bench --skew >"$OUT/s14c_skew.txt" 2>&1
echo "rearr4_bench --skew rc=$?" | tee -a "$LOG"
rearrange_gpu_checks "$OUT/s14c_tests.txt"
bench_if_time infiniop_py.bench.bench_rearrange "$OUT/s14c_bench.txt" 90
step "done"
