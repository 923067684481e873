#!/usr/bin/env bash
# Session 36, call 1 (H200): verify_s36a and verify_s36b in one call, both knobs in one variant build
# (they live in different sources and different operators): the Split plan's Factor kernel
# (-DINFINI_LP_NORM_SPLIT_FACTOR_CHUNKS=64, lp_norm/nvidia.cc) and the low-fill tile gate
# (-DINFINI_REARRANGE_MIN_TILE_FILL=25, rearrange_nvidia.cc), against the default. Runs: LPNorm long-row
# tests, Rearrange tests, memcheck / racecheck on Split, --repro of the sweep's worst LPNorm, Rearrange and
# Mul cases on both libraries (Mul: only to see its kernels), the Rearrange bench on both.
# Files under $OUT: s36c_log.txt, tests_lp.txt, tests_re.txt, sanitize.txt, repro_lp.txt, repro_re.txt,
# repro_mul.txt, bench_default.txt / bench_knobs.txt.
NAME=${NAME:-s36c}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
VARIANT_CXXFLAGS="-DINFINI_LP_NORM_SPLIT_FACTOR_CHUNKS=64 -DINFINI_REARRANGE_MIN_TILE_FILL=25" \
    build_variant_pair build_knobs "" native/src/ops/lp_norm/nvidia.cc native/src/ops/rearrange/rearrange_nvidia.cc
KNOBS=$PWD/build_knobs/lib/libinfiniop.so
grep "^lp_norm" notes/sweeps/session35_behind.txt >/tmp/lp_behind.txt
grep "^rearrange" notes/sweeps/session35_behind.txt >/tmp/re_behind.txt
grep "^mul" notes/sweeps/session35_behind.txt >/tmp/mul_behind.txt
probe_rounds "$OUT/repro_lp.txt" "tools/behind_sweep.py --repro /tmp/lp_behind.txt 10" build/lib build_knobs/lib
probe_rounds "$OUT/repro_re.txt" "tools/behind_sweep.py --repro /tmp/re_behind.txt 10" build/lib build_knobs/lib
INFINIOP_LIBRARY=$KNOBS lp_tests "$OUT/tests_lp.txt" 120 "long-row GPU tests, build_knobs" \
    "few_long_rows or split_over or held_on_chip"
step "Rearrange tests, build_knobs"
INFINIOP_LIBRARY=$KNOBS timeout -k 3 "$(cap 110)" $PY -m pytest -q -p no:cacheprovider -x \
    tests/test_rearrange.py >"$OUT/tests_re.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 2 "$OUT/tests_re.txt" >>"$LOG"
INFINIOP_LIBRARY=$KNOBS SANITIZE_CAP=40 lpn_sanitize memcheck "$OUT/sanitize.txt" split
INFINIOP_LIBRARY=$KNOBS SANITIZE_CAP=40 lpn_sanitize racecheck "$OUT/sanitize.txt" split
step "mul repro (default library)"
timeout -k 3 "$(cap 40)" $PY tools/behind_sweep.py --repro /tmp/mul_behind.txt 8 >"$OUT/repro_mul.txt" 2>&1
echo "rc=$?" | tee -a "$LOG"
[ $((END - SECONDS)) -ge 60 ] && bench_libraries infiniop_py.bench.bench_rearrange "$OUT/bench" default=build/lib knobs=build_knobs/lib
step "done"
