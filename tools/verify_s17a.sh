#!/usr/bin/env bash
# Session 17, LPNorm's Hold plan (hold.cu; the library plans it before Pipe, INFINI_LP_NORM_HOLD 1):
# one device call from the repository root after `source .gpu/setup.sh`. The library and the harness
# (tools/lpn7_bench.cu) built in parallel; the harness's Hold cases (LPN7_ONLY=hold: float64 checks of
# every plan, non-finite rows, extreme sums, uneven pieces, F64, garbage workspace, bitwise repeat, in
# place; graph µs against copy, Pipe, TwoPass, Sweep); the LPNorm GPU tests of long rows; bench_lp_norm.
# Writes under $OUT: s17a_log.txt, s17a_hold.txt, s17a_tests.txt, s17a_bench_lpn.txt.
NAME=s17a
END=${END:-420}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
harness_build_bg tools/lpn7_bench.cu build/s17a_lpn7
library_build
wait
tail -n 5 "$OUT/s17a_lpn7_build.txt" >>"$LOG"
step "harness LPN7_ONLY=hold"
LPN7_ONLY=hold timeout -k 3 "$(cap 150)" build/s17a_lpn7 "$OUT/s17a_hold.txt" >>"$LOG" 2>&1
echo "harness rc=$? (1: a check failed; 124: stopped at its cap)" | tee -a "$LOG"
step "LPNorm GPU tests of long rows"
timeout -k 3 "$(cap 120)" $PY -m pytest -q -p no:cacheprovider tests/test_lp_norm.py \
    -k "gpu or long or extreme or nonfinite or torch or workspace" >"$OUT/s17a_tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"
tail -n 3 "$OUT/s17a_tests.txt" >>"$LOG"
bench_if_time infiniop_py.bench.bench_lp_norm "$OUT/s17a_bench_lpn.txt" 90
step "done"
