#!/usr/bin/env bash
# Written in session 38 (no device time left) for session 39's first call (H200). Three measuring knobs,
# each off by default (the default build's kernels are byte-identical to session 38's call 4):
# - build_re: the generic kernel's unrolled 5- and 6-dim forms (INFINI_REARRANGE_GENERIC_UNROLLED_DIMS=6;
#   session 38's sweep: 5-D permutations on the generic kernel at 1.7-1.8x PyTorch's time, past 4 dims
#   its kMaxDims loop, 3.4x the 4-dim form's SASS) and box transposes' 16-byte loads
#   (INFINI_REARRANGE_BOX_VEC_LOADS=1; the box kernel is memory-latency-bound, 74 of 80 random box-shaped
#   cases behind PyTorch). A case runs either kernel, so one library measures both.
# - build_chunks: LPNorm's Slab plan in column chunks (INFINI_LP_NORM_SLAB_CHUNKS=2, slab.cu
#   slabChunkKernel; a Python model of its index arithmetic matched NumPy on 142 cases) for inner extents
#   past 256 with short columns (27 of session 38's LPNorm cases behind PyTorch on scalar Cols, to 1.37x).
# Runs: each variant's tests and sanitizers; session 38's behind cases and the random box-shaped cases
# (tools/shaped_cases.py box 38 80) on the default and the variants; ncu on three cases where time is left.
# Files under $OUT: s39a_log.txt, tests.txt (sanitizers too), ab.txt (every A/B under === headers),
# ncu_behind.txt.
NAME=${NAME:-s39a}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
r=native/src/ops/rearrange
RE_FLAGS="-DINFINI_REARRANGE_GENERIC_UNROLLED_DIMS=6 -DINFINI_REARRANGE_BOX_VEC_LOADS=1"
VARIANT_CXXFLAGS="$RE_FLAGS" build_variant_pair build_re "$RE_FLAGS" $r/kernels_u1.cu $r/kernels_u2.cu $r/kernels_u4.cu $r/kernels_u8.cu \
    $r/kernels_u16.cu $r/rearrange_nvidia.cc
VARIANT_CXXFLAGS="-DINFINI_LP_NORM_SLAB_CHUNKS=2" build_variant_pair build_chunks "" native/src/ops/lp_norm/nvidia.cc
step "LPNorm column tests, build_chunks"
INFINIOP_LIBRARY=$PWD/build_chunks/lib/libinfiniop.so timeout -k 3 "$(cap 80)" $PY -m pytest -q -p no:cacheprovider \
    -rfEs tests/test_lp_norm.py -k "nvidia and (layouts or columns or column_chunks or slab or reference_cases or nonfinite)" \
    >>"$OUT/tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
INFINIOP_LIBRARY=$PWD/build_chunks/lib/libinfiniop.so SANITIZE_CAP=30 lpn_sanitize memcheck "$OUT/tests.txt" cols
INFINIOP_LIBRARY=$PWD/build_chunks/lib/libinfiniop.so SANITIZE_CAP=30 lpn_sanitize racecheck "$OUT/tests.txt" cols
step "Rearrange tests, build_re (the generic forms and the box loads)"
INFINIOP_LIBRARY=$PWD/build_re/lib/libinfiniop.so timeout -k 3 "$(cap 60)" $PY -m pytest -q -p no:cacheprovider \
    -rfEs tests/test_rearrange.py -k nvidia >>"$OUT/tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
INFINIOP_LIBRARY=$PWD/build_re/lib/libinfiniop.so timeout -k 3 "$(cap 40)" compute-sanitizer --tool memcheck \
    --report-api-errors no --error-exitcode 99 $PY -m pytest -q -x -p no:cacheprovider tests/test_rearrange.py \
    -k "nvidia and (small_dim or dense_block or many_dim)" >>"$OUT/tests.txt" 2>&1
echo "memcheck rc=$? (99: errors reported)" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
grep "^rearrange" notes/sweeps/session38_behind.txt >/tmp/re38.txt
grep "^lp_norm" notes/sweeps/session38_behind.txt >/tmp/lpn38.txt
$PY tools/shaped_cases.py box 38 80 >/tmp/box38.txt
for run in re=default=build re=re=build_re box=default=build box=re=build_re lpn=default=build \
    lpn=chunks=build_chunks; do
    set_=${run%%=*}; rest=${run#*=}; lib=${rest%%=*}
    step "$set_ cases, $lib"
    echo "=== $set_ $lib" >>"$OUT/ab.txt"
    INFINIOP_LIBRARY=$PWD/${rest#*=}/lib/libinfiniop.so timeout -k 3 "$(cap 50)" $PY tools/behind_sweep.py --repro \
        "/tmp/${set_}38.txt" 200 --no-kernels >>"$OUT/ab.txt" 2>&1
    echo "rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/ab.txt" | tee -a "$LOG"
done
if [ $((END - SECONDS)) -ge 150 ]; then
    step "ncu: a 5-D row permutation, a 5-D int8 transpose, Mul's worst (default library)"
    LINES="rearrange (42, 8, 9, 70, 105) src order (3, 1, 0, 2, 4) dst (529200, 66150, 7350, 105, 1) int8;rearrange (39, 7, 17, 24, 74) src order (3, 1, 0, 4, 2) dst (211344, 30192, 1776, 74, 1) int8;mul (69, 13, 80, 71) a order (0, 2, 3, 1) b (1, 13, 80, 1) bfloat16" \
        OUT="$OUT" timeout -k 3 "$(cap 200)" bash tools/ncu_behind.sh
    echo "ncu rc=$?" | tee -a "$LOG"
fi
step "done"
