#!/usr/bin/env bash
# Written in session 35 for a next-session call (H200), which had no device time left: Rearrange transposes
# whose tiles would be less than a quarter full go to the generic kernel (-DINFINI_REARRANGE_MIN_TILE_FILL=25
# in rearrange_nvidia.cc), against the default, on the sweep's Rearrange cases behind PyTorch (a transposed
# group of 8-11 units in one 64-unit tile a block: up to 12.7x PyTorch's time). Runs: Rearrange's tests with
# the variant, tools/behind_sweep.py --repro on the rearrange lines of notes/sweeps/session35_behind.txt and
# the Rearrange bench on both libraries. Files under $OUT: s36b_log.txt, tests_fill.txt, repro.txt,
# bench_default.txt, bench_fill.txt.
NAME=${NAME:-s36b}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
VARIANT_CXXFLAGS="-DINFINI_REARRANGE_MIN_TILE_FILL=25" build_variant_pair build_fill "" \
    native/src/ops/rearrange/rearrange_nvidia.cc
step "Rearrange tests, build_fill"
INFINIOP_LIBRARY=$PWD/build_fill/lib/libinfiniop.so timeout -k 3 "$(cap 120)" $PY -m pytest -q -p no:cacheprovider \
    tests/test_rearrange.py >"$OUT/tests_fill.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"
grep "^rearrange" notes/sweeps/session35_behind.txt >/tmp/re_behind.txt
probe_rounds "$OUT/repro.txt" "tools/behind_sweep.py --repro /tmp/re_behind.txt 12" build/lib build_fill/lib
bench_libraries infiniop_py.bench.bench_rearrange "$OUT/bench" default=build/lib fill=build_fill/lib
step "done"
