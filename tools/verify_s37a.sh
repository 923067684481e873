#!/usr/bin/env bash
# Written in session 36 (no device time left) for session 37's first call (H200). A variant library
# with three measuring knobs against the default: the generic Rearrange kernel with 32 bytes a thread
# (up to 16 units: byte permutations, session 36's fresh sweep's worst, 1.4-1.8x torch); Mul's tiled
# path giving every case to the gather form (INFINI_ELEMENTWISE_TILED_MIN_FILL=101; default 70: tiles
# fuller than that were never measured on it); LPNorm's ragged rows on the Stream plan
# (INFINI_LP_NORM_RAGGED_STREAM=1: stream.cu's RAGGED kernel, never run; 33 ragged many-row cases were
# behind on Rows). The Rearrange knob must reach host and device code alike (the generic kernel's grid
# is sized on the host). Runs: the GPU tests added in session 36 and not yet run on a GPU
# (test_small_dim_permutations, the ragged case with an empty Split chunk), the ragged LPNorm tests and
# memcheck / racecheck on the ragged Rows cases with the variant, Rearrange and Mul tests on the
# variant, the behind cases of notes/sweeps/session36_behind.txt on both libraries (no kernels), the Mul
# bench on both. A second variant (build_box) runs Rearrange's box transposes where the tiles are
# refused (INFINI_REARRANGE_BOX=1, written in session 36: a dense block of innermost dims permuted
# inside, several blocks a box), with Rearrange's tests, memcheck on the dense-block tests and the
# behind cases too.
NAME=${NAME:-s37a}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
r=native/src/ops/rearrange
KNOBS="-DINFINI_REARRANGE_GENERIC_BYTES=32 -DINFINI_REARRANGE_GENERIC_MAX_UNITS=16 -DINFINI_ELEMENTWISE_TILED_MIN_FILL=101"
VARIANT_CXXFLAGS="$KNOBS -DINFINI_LP_NORM_RAGGED_STREAM=1" build_variant_pair build_knobs "$KNOBS" \
    $r/rearrange_nvidia.cc $r/kernels_u1.cu $r/kernels_u2.cu $r/kernels_u4.cu $r/kernels_u8.cu $r/kernels_u16.cu \
    native/src/ops/elementwise/plan_nvidia.cc native/src/ops/lp_norm/nvidia.cc
VARIANT_CXXFLAGS="-DINFINI_REARRANGE_BOX=1" build_variant_pair build_box "" $r/rearrange_nvidia.cc
step "Rearrange tests and memcheck on the dense-block tests, build_box"
INFINIOP_LIBRARY=$PWD/build_box/lib/libinfiniop.so timeout -k 3 "$(cap 60)" $PY -m pytest -q -p no:cacheprovider -rfEs \
    tests/test_rearrange.py >>"$OUT/tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
INFINIOP_LIBRARY=$PWD/build_box/lib/libinfiniop.so timeout -k 3 "$(cap 60)" compute-sanitizer --tool memcheck \
    --report-api-errors no --error-exitcode 99 $PY -m pytest -q -x -p no:cacheprovider tests/test_rearrange.py \
    -k "(dense_block or small_dim) and nvidia" >>"$OUT/tests.txt" 2>&1
echo "memcheck rc=$? (99: errors reported)" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
step "session 36's untried GPU tests (default library)"
timeout -k 3 "$(cap 60)" $PY -m pytest -q -p no:cacheprovider -rfEs tests/test_rearrange.py tests/test_lp_norm.py \
    -k "small_dim_permutations or dense_block or (ragged_rows_gpu and (32767 or 2400 or 4000))" >>"$OUT/tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
step "Rearrange and Mul tests, LPNorm ragged tests, build_knobs"
INFINIOP_LIBRARY=$PWD/build_knobs/lib/libinfiniop.so timeout -k 3 "$(cap 110)" $PY -m pytest -q -p no:cacheprovider \
    -rfEs tests/test_rearrange.py tests/test_mul.py tests/test_lp_norm.py -k "not lp_norm or ragged" \
    >>"$OUT/tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
INFINIOP_LIBRARY=$PWD/build_knobs/lib/libinfiniop.so SANITIZE_CAP=30 lpn_sanitize memcheck "$OUT/sanitize.txt" rows
INFINIOP_LIBRARY=$PWD/build_knobs/lib/libinfiniop.so SANITIZE_CAP=30 lpn_sanitize racecheck "$OUT/sanitize.txt" rows
cp notes/sweeps/session36_behind.txt /tmp/s36_re_mul.txt
for pair in default=build/lib knobs=build_knobs/lib box=build_box/lib; do
    step "session 36's behind cases, ${pair%%=*}"
    INFINIOP_LIBRARY=$PWD/${pair#*=}/libinfiniop.so timeout -k 3 "$(cap 60)" $PY tools/behind_sweep.py --repro \
        /tmp/s36_re_mul.txt 200 --no-kernels >"$OUT/repro_${pair%%=*}.txt" 2>&1  # 8 files at most come back
    echo "rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/repro_${pair%%=*}.txt" | tee -a "$LOG"
done
[ $((END - SECONDS)) -ge 30 ] && bench_libraries infiniop_py.bench.bench_mul "$OUT/bench_mul" default=build/lib knobs=build_knobs/lib
step "done"
