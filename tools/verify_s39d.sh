#!/usr/bin/env bash
# Session 39, call 4 (H200): the gather form's lane mapping (INFINI_ELEMENTWISE_LANE_GATHER=1 in build_lane,
# off by default: consecutive lanes on consecutive output elements where a gathered input is transposed;
# call 1's ncu put the vector mapping's (69,13,80,71) BF16 at 32.6 µs against PyTorch's 18.6 with the
# same L2 sectors and DRAM bytes, 54% of warps active against 86%). Mul's GPU tests and memcheck on
# build_lane; session 38's Mul behind cases and the random permuted ones on the default and build_lane;
# LPNorm's Slab tests on the default (the planners' shared inner-extent check); then a fresh sweep
# (seed 39) of the default library with what time is left.
# Files under $OUT: s39d_log.txt, tests.txt, ab.txt, sweep39.txt.
NAME=${NAME:-s39d}
END=${END:-470}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
m=native/src/ops/mul
LANE="-DINFINI_ELEMENTWISE_LANE_GATHER=1"
VARIANT_CXXFLAGS="$LANE" build_variant_pair build_lane "$LANE" $m/kernels_f16.cu $m/kernels_f32.cu \
    $m/kernels_int_small.cu $m/kernels_int_large.cu native/src/ops/elementwise/plan_nvidia.cc
step "Mul GPU tests, build_lane"
INFINIOP_LIBRARY=$PWD/build_lane/lib/libinfiniop.so timeout -k 3 "$(cap 60)" $PY -m pytest -q -p no:cacheprovider \
    -rfEs tests/test_mul.py -k nvidia >>"$OUT/tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
INFINIOP_LIBRARY=$PWD/build_lane/lib/libinfiniop.so timeout -k 3 "$(cap 30)" compute-sanitizer --tool memcheck \
    --report-api-errors no --error-exitcode 99 $PY -m pytest -q -x -p no:cacheprovider tests/test_mul.py \
    -k "nvidia and (gathered or transposed or narrow)" >>"$OUT/tests.txt" 2>&1
echo "memcheck rc=$? (99: errors reported)" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
step "LPNorm Slab and column tests, default"
timeout -k 3 "$(cap 60)" $PY -m pytest -q -p no:cacheprovider -rfEs tests/test_lp_norm.py \
    -k "nvidia and (slab or column_chunks or columns or layouts)" >>"$OUT/tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
grep "^mul" notes/sweeps/session38_behind.txt >/tmp/mul.txt
$PY tools/shaped_cases.py mulperm 39 120 >/tmp/perm.txt
ab_repro 30 mul=default=build mul=lane=build_lane perm=default=build perm=lane=build_lane
left=$((END - SECONDS - 15))
if [ "$left" -ge 30 ]; then
    step "random sweep, seed 39, $left s"
    timeout -k 3 "$((left + 10))" $PY tools/behind_sweep.py 39 "$left" >"$OUT/sweep39.txt" 2>&1
    echo "sweep rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/sweep39.txt" >>"$LOG"
fi
step "done"
