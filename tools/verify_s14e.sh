#!/usr/bin/env bash
# Session 14, fifth device call (timeout_s 560), from the repository root after `source .gpu/setup.sh`:
# whole odd word tiles keep their rows raw (no shuffle; the dst side's reads add each row's parity).
#   1. the default library (build/) and build/base: kernels_u2.cu with -DINFINI_REARRANGE_ODD_RAW=0 (the
#      shuffle, as at 11e0712); tools/rearr4_bench.cu against build/lib, and build/rearr4_rows0 (the
#      harness with ODD_RAW=0);
#   2. rearr4_bench --library on build/base and build/, twice, interleaved;
#   3. rearr4_bench --skew on both harnesses (now also the odd word tiles on the even-pitch cases);
#   4. test_rearrange.py + test_properties.py + test_fuzz.py on build/ (GPU required);
#   5. compute-sanitizer memcheck on the odd-pitch / skewed Rearrange tests; 6. bench_rearrange.
# Outcome (H100): no difference (4097² 26.6 µs either way); the raw rows were not kept (branch dev/odd-raw;
# notes/rearrange.md, "Session 14"), so on main this script builds two equal libraries.
# Writes under $OUT: s14e_log.txt, s14e_lib.txt, s14e_skew.txt, s14e_tests.txt, s14e_bench.txt.
NAME=s14e
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
build_variant_pair build/base "-DINFINI_REARRANGE_ODD_RAW=0" native/src/ops/rearrange/kernels_u2.cu
timeout -k 3 "$(cap 120)" "$NVCC" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -DINFINI_WITH_NVIDIA \
    -DINFINI_REARRANGE_ODD_RAW=0 -Inative/src -Inative/include -Itools tools/rearr4_bench.cu -Lbuild/lib \
    -linfiniop -linfinirt -o build/rearr4_rows0 >"$OUT/s14e_rows0_build.txt" 2>&1 &
rearr4_build
wait
for round in 1 2; do
    for lib in build/base/lib build/lib; do
        step "rearr4_bench --library, $lib, round $round"
        echo "== $lib, round $round" >>"$OUT/s14e_lib.txt"
        LD_LIBRARY_PATH=$lib timeout -k 3 "$(cap 40)" build/rearr4_bench --library >>"$OUT/s14e_lib.txt" 2>&1
        echo "rc=$?" | tee -a "$LOG" "$OUT/s14e_lib.txt"
    done
done
for h in rearr4_rows0 rearr4_bench; do
    step "$h --skew"
    echo "== $h" >>"$OUT/s14e_skew.txt"
    LD_LIBRARY_PATH=build/lib timeout -k 3 "$(cap 90)" build/$h --skew >>"$OUT/s14e_skew.txt" 2>&1
    echo "$h --skew rc=$?" | tee -a "$LOG" "$OUT/s14e_skew.txt"
done
step "Rearrange GPU tests"
timeout -k 3 "$(cap 150)" $PY -m pytest -q -x -p no:cacheprovider tests/test_rearrange.py tests/test_properties.py \
    tests/test_fuzz.py >"$OUT/s14e_tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"
tail -n 3 "$OUT/s14e_tests.txt" >>"$LOG"
step "memcheck, odd pitches and skewed tiles"
timeout -k 3 "$(cap 120)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY -m pytest -q -x -p no:cacheprovider tests/test_rearrange.py \
    -k "(odd or skew or 4097 or 4098 or misaligned) and nvidia" >>"$OUT/s14e_tests.txt" 2>&1
echo "memcheck rc=$? (99: errors reported; 124: stopped at its cap)" | tee -a "$LOG"
tail -n 3 "$OUT/s14e_tests.txt" >>"$LOG"
bench_if_time infiniop_py.bench.bench_rearrange "$OUT/s14e_bench.txt" 90
step "done"
