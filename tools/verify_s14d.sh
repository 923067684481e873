#!/usr/bin/env bash
# Session 14, fourth device call (timeout_s 560), from the repository root after `source .gpu/setup.sh`:
# the whole-row stores (storeWholeSkewRows) with the skewed word tiles at span 1, 6 blocks an SM.
#   1. the default library (build/) and build/base: kernels_u2.cu and rearrange_nvidia.cc with
#      -DINFINI_REARRANGE_WHOLE_ROWS=0 -DINFINI_REARRANGE_SKEW_SPAN=2 (session 13's kernels and plan);
#      tools/rearr4_bench.cu against build/lib, and build/rearr4_rows0 (the harness with WHOLE_ROWS=0);
#   2. rearr4_bench --library on build/base and build/, twice, interleaved;
#   3. rearr4_bench --skew on both harnesses (the spans with and without the whole-row stores);
#   4. test_rearrange.py + test_properties.py + test_fuzz.py on build/ (GPU required);
#   5. compute-sanitizer memcheck on the odd-pitch / skewed Rearrange tests; 6. bench_rearrange.
# Writes under $OUT: s14d_log.txt, s14d_lib.txt, s14d_skew.txt, s14d_tests.txt, s14d_bench.txt.
NAME=s14d
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
VARIANT_CXXFLAGS="-DINFINI_REARRANGE_SKEW_SPAN=2" build_variant_pair build/base \
    "-DINFINI_REARRANGE_WHOLE_ROWS=0 -DINFINI_REARRANGE_SKEW_SPAN=2" native/src/ops/rearrange/kernels_u2.cu \
    native/src/ops/rearrange/rearrange_nvidia.cc
timeout -k 3 "$(cap 120)" "$NVCC" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -DINFINI_WITH_NVIDIA \
    -DINFINI_REARRANGE_WHOLE_ROWS=0 -Inative/src -Inative/include -Itools tools/rearr4_bench.cu -Lbuild/lib \
    -linfiniop -linfinirt -o build/rearr4_rows0 >"$OUT/s14d_rows0_build.txt" 2>&1 &
rearr4_build
wait
for round in 1 2; do
    for lib in build/base/lib build/lib; do
        step "rearr4_bench --library, $lib, round $round"
        echo "== $lib, round $round" >>"$OUT/s14d_lib.txt"
        LD_LIBRARY_PATH=$lib timeout -k 3 "$(cap 40)" build/rearr4_bench --library >>"$OUT/s14d_lib.txt" 2>&1
        echo "rc=$?" | tee -a "$LOG" "$OUT/s14d_lib.txt"
    done
done
for h in rearr4_rows0 rearr4_bench; do
    step "$h --skew"
    echo "== $h" >>"$OUT/s14d_skew.txt"
    LD_LIBRARY_PATH=build/lib timeout -k 3 "$(cap 90)" build/$h --skew >>"$OUT/s14d_skew.txt" 2>&1
    echo "$h --skew rc=$?" | tee -a "$LOG" "$OUT/s14d_skew.txt"
done
step "Rearrange GPU tests"
timeout -k 3 "$(cap 150)" $PY -m pytest -q -x -p no:cacheprovider tests/test_rearrange.py tests/test_properties.py \
    tests/test_fuzz.py >"$OUT/s14d_tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"
tail -n 3 "$OUT/s14d_tests.txt" >>"$LOG"
step "memcheck, odd pitches and skewed tiles"
timeout -k 3 "$(cap 120)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY -m pytest -q -x -p no:cacheprovider tests/test_rearrange.py \
    -k "(odd or skew or 4097 or 4098 or misaligned) and nvidia" >>"$OUT/s14d_tests.txt" 2>&1
echo "memcheck rc=$? (99: errors reported; 124: stopped at its cap)" | tee -a "$LOG"
tail -n 3 "$OUT/s14d_tests.txt" >>"$LOG"
bench_if_time infiniop_py.bench.bench_rearrange "$OUT/s14d_bench.txt" 90
step "done"
