#!/usr/bin/env bash
# Written in session 37 (no device time left) for session 38's first call (H200).
# - The default library's untried pieces: box transposes at the limits merged last (1- and 2-byte units,
#   10 MB and more: test_dense_block_permutations_large_gpu, memcheck on it).
# - build_slab: LPNorm's Slab plan in place of scalar Cols (INFINI_LP_NORM_SLAB=1, slab.cu, never run):
#   the Cols tests and memcheck / racecheck on tools/sanitize_lpn.py cols on it, and session 37's LPNorm
#   behind cases on both libraries (the worst: Cols of small odd inner extents, up to 2.06x).
# - build_box2: box transposes ahead of the tiles (INFINI_REARRANGE_BOX=2; (65,44,39,59) F16, a 39 x 59
#   transpose on 56%-full tiles, was 2.6x PyTorch's time), session 37's Rearrange behind cases on both.
# - The worst F16 Rearrange cases of session 37's sweep again, with the kernels they run (which tile path).
# - ncu on (65,44,39,59) F16 and the largest int8 box case, where time is left (tools/ncu_behind.sh LINES).
# Files under $OUT: s38a_log.txt, tests.txt (sanitizers too), lpn_{default,slab}.txt, re_{default,box2,kernels}.txt,
# ncu_behind.txt.
NAME=${NAME:-s38a}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
VARIANT_CXXFLAGS="-DINFINI_LP_NORM_SLAB=1" build_variant_pair build_slab "" native/src/ops/lp_norm/nvidia.cc
VARIANT_CXXFLAGS="-DINFINI_REARRANGE_BOX=2" build_variant_pair build_box2 "" native/src/ops/rearrange/rearrange_nvidia.cc
step "large dense-block tests (box transposes) and memcheck on them, default library"
timeout -k 3 "$(cap 40)" $PY -m pytest -q -p no:cacheprovider -rfEs tests/test_rearrange.py -k "dense_block" \
    >>"$OUT/tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
timeout -k 3 "$(cap 40)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY -m pytest -q -x -p no:cacheprovider tests/test_rearrange.py -k "dense_block_permutations_large" \
    >>"$OUT/tests.txt" 2>&1
echo "memcheck rc=$? (99: errors reported)" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
step "LPNorm Cols tests (every layout and axis, columns, reference cases), build_slab"
INFINIOP_LIBRARY=$PWD/build_slab/lib/libinfiniop.so timeout -k 3 "$(cap 80)" $PY -m pytest -q -p no:cacheprovider \
    -rfEs tests/test_lp_norm.py -k "nvidia and (layouts or columns or reference_cases or nonfinite or zero or extreme)" \
    >>"$OUT/tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
INFINIOP_LIBRARY=$PWD/build_slab/lib/libinfiniop.so SANITIZE_CAP=30 lpn_sanitize memcheck "$OUT/tests.txt" cols
INFINIOP_LIBRARY=$PWD/build_slab/lib/libinfiniop.so SANITIZE_CAP=30 lpn_sanitize racecheck "$OUT/tests.txt" cols
step "Rearrange tests, build_box2"
INFINIOP_LIBRARY=$PWD/build_box2/lib/libinfiniop.so timeout -k 3 "$(cap 60)" $PY -m pytest -q -p no:cacheprovider \
    -rfEs tests/test_rearrange.py -k nvidia >>"$OUT/tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
grep "^lp_norm" notes/sweeps/session37_behind.txt >/tmp/s37_lpn.txt
grep "^rearrange" notes/sweeps/session37_behind.txt >/tmp/s37_re.txt
for run in lpn=default=build/lib lpn=slab=build_slab/lib re=default=build/lib re=box2=build_box2/lib; do
    kind=${run%%=*}; rest=${run#*=}; lib=${rest%%=*}
    step "session 37's $kind behind cases, $lib"
    INFINIOP_LIBRARY=$PWD/${rest#*=}/libinfiniop.so timeout -k 3 "$(cap 40)" $PY tools/behind_sweep.py --repro \
        "/tmp/s37_$kind.txt" 150 --no-kernels >"$OUT/${kind}_$lib.txt" 2>&1
    echo "rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/${kind}_$lib.txt" | tee -a "$LOG"
done
grep -E "^rearrange \((65, 44, 39, 59|48, 10, 9, 102, 51|382, 35, 181|61, 10, 51, 99)\)" \
    notes/sweeps/session37_behind.txt >/tmp/s37_re_worst.txt
step "the worst F16 Rearrange cases with their kernels (default library)"
timeout -k 3 "$(cap 40)" $PY tools/behind_sweep.py --repro /tmp/s37_re_worst.txt 4 >"$OUT/re_kernels.txt" 2>&1
echo "rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/re_kernels.txt" | tee -a "$LOG"
if [ $((END - SECONDS)) -ge 150 ]; then
    step "ncu: the 39 x 59 F16 transpose and the largest int8 box case, ours and PyTorch's kernels"
    LINES="rearrange (65, 44, 39, 59) src order (0, 1, 3, 2) dst (101244, 2301, 59, 1) float16;rearrange (117, 58, 6, 75, 25) src order (1, 0, 2, 4, 3) dst (652500, 11250, 1875, 25, 1) int8" \
        OUT="$OUT" timeout -k 3 "$(cap 200)" bash tools/ncu_behind.sh
    echo "ncu rc=$?" | tee -a "$LOG"
fi
step "done"
