#!/usr/bin/env bash
# Session 36, call 3 (H200): LPNorm's ragged rows (rows.cu RAGGED kernels) and Mul's two-run gather on
# the default library; a variant with two planner knobs (host sources only): Rearrange's low-fill gate
# at 50% (default 25) and Mul's tiled path giving every poorly filled case to the gather form
# (INFINI_ELEMENTWISE_TILED_MIN_FILL=101, default 0). Runs: LPNorm's ragged and long-row tests, memcheck
# and racecheck on the Rows / Split plans; Mul's tests on both libraries; Rearrange's tests on the
# variant; every case of notes/sweeps/session35_behind.txt on both (no kernels); the LPNorm bench.
# Files under $OUT (8 at most come back): s36e_log.txt, tests_lp.txt, sanitize.txt, tests_mul_re.txt,
# repro_default.txt, repro_knobs.txt, bench_lp_norm_default.txt.
NAME=${NAME:-s36e}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
VARIANT_CXXFLAGS="-DINFINI_REARRANGE_MIN_TILE_FILL=50 -DINFINI_ELEMENTWISE_TILED_MIN_FILL=101" \
    build_variant_pair build_knobs "" native/src/ops/rearrange/rearrange_nvidia.cc native/src/ops/elementwise/plan_nvidia.cc
KNOBS=$PWD/build_knobs/lib/libinfiniop.so
lp_tests "$OUT/tests_lp.txt" 120 "LPNorm ragged and long-row GPU tests" "ragged or few_long_rows or split_over"
SANITIZE_CAP=45 lpn_sanitize memcheck "$OUT/sanitize.txt" "split rows"
SANITIZE_CAP=45 lpn_sanitize racecheck "$OUT/sanitize.txt" "split rows"
for lib in build/lib build_knobs/lib; do
    step "Mul tests, $lib"
    echo "== Mul, $lib" >>"$OUT/tests_mul_re.txt"
    INFINIOP_LIBRARY=$PWD/$lib/libinfiniop.so timeout -k 3 "$(cap 60)" $PY -m pytest -q -p no:cacheprovider -rfEs \
        tests/test_mul.py >>"$OUT/tests_mul_re.txt" 2>&1
    echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests_mul_re.txt" >>"$LOG"
done
step "Rearrange tests, build_knobs"
echo "== Rearrange, build_knobs" >>"$OUT/tests_mul_re.txt"
INFINIOP_LIBRARY=$KNOBS timeout -k 3 "$(cap 60)" $PY -m pytest -q -p no:cacheprovider -rfEs tests/test_rearrange.py \
    >>"$OUT/tests_mul_re.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests_mul_re.txt" >>"$LOG"
for pair in default=build/lib knobs=build_knobs/lib; do
    step "every behind case of session 35, ${pair%%=*}"
    INFINIOP_LIBRARY=$PWD/${pair#*=}/libinfiniop.so timeout -k 3 "$(cap 80)" $PY tools/behind_sweep.py --repro \
        notes/sweeps/session35_behind.txt 500 --no-kernels >"$OUT/repro_${pair%%=*}.txt" 2>&1
    echo "rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/repro_${pair%%=*}.txt" | tee -a "$LOG"
done
[ $((END - SECONDS)) -ge 25 ] && bench_libraries infiniop_py.bench.bench_lp_norm "$OUT/bench_lp_norm" default=build/lib
step "done"
