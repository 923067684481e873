#!/usr/bin/env bash
# Session 14, third, fourth, fifth and tenth device calls (timeout_s 560), from the repository root
# after `source .gpu/setup.sh`: a Rearrange A/B of the default library against build/base.
# Call 3: NAME=s14c BASE_FLAGS="-DINFINI_REARRANGE_WHOLE_ROWS=0" BASE_CXXFLAGS= (the whole-row stores
# against the general loops, skewed word tiles at span 2). Call 10: NAME=s14j
# BASE_FLAGS="-DINFINI_REARRANGE_EDGE_LOADS=0" BASE_CXXFLAGS= (odd word edge tiles' loads).
# Call 4 (as is): the whole-row stores (storeWholeSkewRows) with the skewed word tiles at span 1, 6
# blocks an SM, against BASE_FLAGS="-DINFINI_REARRANGE_WHOLE_ROWS=0 -DINFINI_REARRANGE_SKEW_SPAN=2"
# (kernels_u2.cu) and BASE_CXXFLAGS="-DINFINI_REARRANGE_SKEW_SPAN=2" (rearrange_nvidia.cc): session
# 13's kernels and plan. Call 5: NAME=s14e BASE_FLAGS="-DINFINI_REARRANGE_ODD_RAW=0" BASE_CXXFLAGS=
# on branch dev/odd-raw (raw odd rows against the shuffle: no difference, not kept).
#   1. the default library (build/) and build/base with BASE_FLAGS / BASE_CXXFLAGS;
#      tools/rearr4_bench.cu against build/lib, and build/rearr4_base (the harness with BASE_FLAGS);
#   2. rearr4_bench --library on build/base and build/, twice, interleaved;
#   3. rearr4_bench --skew on both harnesses (the spans with and without the whole-row stores);
#   4. test_rearrange.py + test_properties.py + test_fuzz.py on build/ (GPU required);
#   5. compute-sanitizer memcheck on the odd-pitch / skewed Rearrange tests; 6. bench_rearrange.
# Writes under $OUT: ${NAME}_log.txt, _lib.txt, _skew.txt, _tests.txt, _bench.txt.
NAME=${NAME:-s14d}
BASE_FLAGS=${BASE_FLAGS--DINFINI_REARRANGE_WHOLE_ROWS=0 -DINFINI_REARRANGE_SKEW_SPAN=2}
BASE_CXXFLAGS=${BASE_CXXFLAGS--DINFINI_REARRANGE_SKEW_SPAN=2}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
VARIANT_CXXFLAGS="$BASE_CXXFLAGS" build_variant_pair build/base "$BASE_FLAGS" native/src/ops/rearrange/kernels_u2.cu \
    native/src/ops/rearrange/rearrange_nvidia.cc
timeout -k 3 "$(cap 120)" "$NVCC" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -DINFINI_WITH_NVIDIA \
    $BASE_FLAGS -Inative/src -Inative/include -Itools tools/rearr4_bench.cu -Lbuild/lib \
    -linfiniop -linfinirt -o build/rearr4_base >"$OUT/${NAME}_base_build.txt" 2>&1 &
rearr4_build
wait
rearrange_library_ab build/base "$OUT/${NAME}_lib.txt"
for h in rearr4_base rearr4_bench; do
    step "$h --skew"
    echo "== $h" >>"$OUT/${NAME}_skew.txt"
    LD_LIBRARY_PATH=build/lib timeout -k 3 "$(cap 90)" build/$h --skew >>"$OUT/${NAME}_skew.txt" 2>&1
    echo "$h --skew rc=$?" | tee -a "$LOG" "$OUT/${NAME}_skew.txt"
done
rearrange_gpu_checks "$OUT/${NAME}_tests.txt"
bench_if_time infiniop_py.bench.bench_rearrange "$OUT/${NAME}_bench.txt" 90
step "done"
