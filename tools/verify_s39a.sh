#!/usr/bin/env bash
# Written in session 38 (no device time left) for session 39's first call (H200).
# Session 38's fresh sweep (seed 38): Rearrange's worst cases are 5-D permutations on the generic kernel,
# rows kept whole ((42,8,9,70,105) int8 order (3,1,0,2,4): 105-byte rows under four permuted dims, 117 µs
# against PyTorch's 66) and short transposed groups alike. Past 4 dims the generic kernel runs its
# kMaxDims loop (3.4x the 4-dim form's SASS). build_unrolled: unrolled forms for 5 and 6 dims
# (INFINI_REARRANGE_GENERIC_UNROLLED_DIMS=6, in the kernels and the planner).
# build_chunks: LPNorm's Slab plan in column chunks (INFINI_LP_NORM_SLAB_CHUNKS=2, slab.cu slabChunkKernel,
# never run: a Python model of its index arithmetic matched NumPy on 142 cases) for inner extents past 256
# with short columns (27 of session 38's LPNorm cases behind PyTorch on scalar Cols, up to 1.37x).
# Runs: Rearrange tests and memcheck on the small-dim / dense-block / many-dim tests on build_unrolled;
# LPNorm column tests and memcheck / racecheck on sanitize_lpn.py cols on build_chunks; session 38's
# behind cases (Rearrange, LPNorm) on each pair; ncu on three cases (default library) where time is left.
# Files under $OUT: s39a_log.txt, tests.txt, re_{default,unrolled}.txt, lpn_{default,chunks}.txt,
# ncu_behind.txt.
NAME=${NAME:-s39a}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
r=native/src/ops/rearrange
VARIANT_CXXFLAGS="-DINFINI_REARRANGE_GENERIC_UNROLLED_DIMS=6" build_variant_pair build_unrolled \
    "-DINFINI_REARRANGE_GENERIC_UNROLLED_DIMS=6" $r/kernels_u1.cu $r/kernels_u2.cu $r/kernels_u4.cu $r/kernels_u8.cu \
    $r/kernels_u16.cu $r/rearrange_nvidia.cc
VARIANT_CXXFLAGS="-DINFINI_LP_NORM_SLAB_CHUNKS=2" build_variant_pair build_chunks "" native/src/ops/lp_norm/nvidia.cc
step "LPNorm column tests, build_chunks"
INFINIOP_LIBRARY=$PWD/build_chunks/lib/libinfiniop.so timeout -k 3 "$(cap 80)" $PY -m pytest -q -p no:cacheprovider \
    -rfEs tests/test_lp_norm.py -k "nvidia and (layouts or columns or column_chunks or slab or reference_cases or nonfinite)" \
    >>"$OUT/tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
INFINIOP_LIBRARY=$PWD/build_chunks/lib/libinfiniop.so SANITIZE_CAP=30 lpn_sanitize memcheck "$OUT/tests.txt" cols
INFINIOP_LIBRARY=$PWD/build_chunks/lib/libinfiniop.so SANITIZE_CAP=30 lpn_sanitize racecheck "$OUT/tests.txt" cols
step "Rearrange tests, build_unrolled"
INFINIOP_LIBRARY=$PWD/build_unrolled/lib/libinfiniop.so timeout -k 3 "$(cap 60)" $PY -m pytest -q -p no:cacheprovider \
    -rfEs tests/test_rearrange.py -k nvidia >>"$OUT/tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
INFINIOP_LIBRARY=$PWD/build_unrolled/lib/libinfiniop.so timeout -k 3 "$(cap 40)" compute-sanitizer --tool memcheck \
    --report-api-errors no --error-exitcode 99 $PY -m pytest -q -x -p no:cacheprovider tests/test_rearrange.py \
    -k "nvidia and (small_dim or dense_block or many_dim)" >>"$OUT/tests.txt" 2>&1
echo "memcheck rc=$? (99: errors reported)" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
grep "^rearrange" notes/sweeps/session38_behind.txt >/tmp/re38.txt
grep "^lp_norm" notes/sweeps/session38_behind.txt >/tmp/lpn38.txt
for run in re=default=build re=unrolled=build_unrolled lpn=default=build lpn=chunks=build_chunks; do
    set_=${run%%=*}; rest=${run#*=}; lib=${rest%%=*}
    step "session 38's $set_ behind cases, $lib"
    INFINIOP_LIBRARY=$PWD/${rest#*=}/lib/libinfiniop.so timeout -k 3 "$(cap 50)" $PY tools/behind_sweep.py --repro \
        "/tmp/${set_}38.txt" 200 --no-kernels >"$OUT/${set_}_$lib.txt" 2>&1
    echo "rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/${set_}_$lib.txt" | tee -a "$LOG"
done
if [ $((END - SECONDS)) -ge 150 ]; then
    step "ncu: a 5-D row permutation, a 5-D int8 transpose, Mul's worst (default library)"
    LINES="rearrange (42, 8, 9, 70, 105) src order (3, 1, 0, 2, 4) dst (529200, 66150, 7350, 105, 1) int8;rearrange (39, 7, 17, 24, 74) src order (3, 1, 0, 4, 2) dst (211344, 30192, 1776, 74, 1) int8;mul (69, 13, 80, 71) a order (0, 2, 3, 1) b (1, 13, 80, 1) bfloat16" \
        OUT="$OUT" timeout -k 3 "$(cap 200)" bash tools/ncu_behind.sh
    echo "ncu rc=$?" | tee -a "$LOG"
fi
step "done"
