#!/usr/bin/env bash
# Session 37, call 3 (H200), closing. The default library: call 2's (whole suite passed there) with the
# box kernel's loads back to one a thread (call 1's kernel: call 2's batched loads ran the large int8
# boxes 13-15% slower) and its finer boxes kept. A variant (build_knobs) with three measuring knobs:
# the box's flat load where the box is one run of src (INFINI_REARRANGE_BOX_FLAT_LOAD), Mul's small
# transposed planes (<= 256 KB) on the gather form (INFINI_ELEMENTWISE_GATHER_PLANE_BYTES), LPNorm rows'
# one-pass sum with its own p = 3 case (INFINI_LP_NORM_ROWS_CUBE).
# Runs: Rearrange tests and memcheck on the box cases (default); Rearrange, Mul and LPNorm GPU tests on
# the variant; session 36's 197 behind cases on both; the end-to-end bench; a fresh sweep (seed 37) with
# what time is left.
# Files under $OUT: s37c_log.txt, tests.txt, repro_{default,knobs}.txt, bench.txt, bench.json, sweep37.txt.
NAME=${NAME:-s37c}
END=${END:-565}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
r=native/src/ops/rearrange
VARIANT_CXXFLAGS="-DINFINI_ELEMENTWISE_GATHER_PLANE_BYTES=262144" build_variant_pair build_knobs \
    "-DINFINI_REARRANGE_BOX_FLAT_LOAD=1 -DINFINI_LP_NORM_ROWS_CUBE=1" \
    $r/kernels_u1.cu $r/kernels_u2.cu $r/kernels_u4.cu $r/kernels_u8.cu $r/kernels_u16.cu \
    native/src/ops/lp_norm/rows.cu native/src/ops/elementwise/plan_nvidia.cc
step "Rearrange tests and memcheck on the box cases, default library"
timeout -k 3 "$(cap 60)" $PY -m pytest -q -p no:cacheprovider -rfEs tests/test_rearrange.py >>"$OUT/tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
timeout -k 3 "$(cap 30)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY -m pytest -q -x -p no:cacheprovider tests/test_rearrange.py -k "dense_block and nvidia" >>"$OUT/tests.txt" 2>&1
echo "memcheck rc=$? (99: errors reported)" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
step "Rearrange, Mul and LPNorm GPU tests, build_knobs"
INFINIOP_LIBRARY=$PWD/build_knobs/lib/libinfiniop.so timeout -k 3 "$(cap 110)" $PY -m pytest -q -p no:cacheprovider \
    -rfEs tests/test_rearrange.py tests/test_mul.py tests/test_lp_norm.py \
    -k "nvidia and (not lp_norm or layouts or reference_cases or ragged or columns or extreme or huge_p)" \
    >>"$OUT/tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
INFINIOP_LIBRARY=$PWD/build_knobs/lib/libinfiniop.so timeout -k 3 "$(cap 20)" compute-sanitizer --tool memcheck \
    --report-api-errors no --error-exitcode 99 $PY -m pytest -q -x -p no:cacheprovider tests/test_rearrange.py \
    -k "dense_block and nvidia" >>"$OUT/tests.txt" 2>&1
echo "memcheck (knobs) rc=$? (99: errors reported)" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
for pair in default=build/lib knobs=build_knobs/lib; do
    step "session 36's behind cases, ${pair%%=*}"
    INFINIOP_LIBRARY=$PWD/${pair#*=}/libinfiniop.so timeout -k 3 "$(cap 50)" $PY tools/behind_sweep.py --repro \
        notes/sweeps/session36_behind.txt 200 --no-kernels >"$OUT/repro_${pair%%=*}.txt" 2>&1
    echo "rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/repro_${pair%%=*}.txt" | tee -a "$LOG"
done
end_to_end_bench "$OUT/bench" 80 60
left=$((END - SECONDS - 20))
if [ "$left" -ge 30 ]; then
    step "random sweep, seed 37, $left s"
    timeout -k 3 "$((left + 15))" $PY tools/behind_sweep.py 37 "$left" >"$OUT/sweep37.txt" 2>&1
    echo "sweep rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/sweep37.txt" >>"$LOG"
fi
step "done"
