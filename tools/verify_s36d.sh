#!/usr/bin/env bash
# Session 36, call 2 (H200): the default library with the Split Factor kernel (64 chunks) and the
# low-fill tile gate (25%) on, the generic Rearrange kernel at several units a thread, and Mul's gather
# form (elementwise/nvidia.cuh gatherKernel). Runs: Mul's tests and memcheck on the gather cases;
# Rearrange's GPU checks (tests, properties, fuzz, memcheck); every case of
# notes/sweeps/session35_behind.txt again (no kernels) and the worst Mul / Rearrange ones with their
# kernels; the Rearrange and Mul benches.
# Files under $OUT (8 at most come back): s36d_log.txt, tests_mul.txt, re_checks.txt, repro_all.txt,
# repro_kern.txt, bench_rearrange.txt, bench_mul.txt.
NAME=${NAME:-s36d}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
library_build
step "Mul tests"
timeout -k 3 "$(cap 100)" $PY -m pytest -q -p no:cacheprovider -rfEs tests/test_mul.py >"$OUT/tests_mul.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 2 "$OUT/tests_mul.txt" >>"$LOG"
step "memcheck, Mul's gather cases"
timeout -k 3 "$(cap 60)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY -m pytest -q -x -p no:cacheprovider tests/test_mul.py -k "gathered and nvidia" >>"$OUT/tests_mul.txt" 2>&1
echo "memcheck rc=$? (99: errors reported; 124: stopped at its cap)" | tee -a "$LOG"
tail -n 3 "$OUT/tests_mul.txt" >>"$LOG"
rearrange_gpu_checks "$OUT/re_checks.txt"
step "every behind case of session 35, again (no kernels)"
timeout -k 3 "$(cap 150)" $PY tools/behind_sweep.py --repro notes/sweeps/session35_behind.txt 500 --no-kernels \
    >"$OUT/repro_all.txt" 2>&1
echo "rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/repro_all.txt" >>"$LOG"
grep "^mul" notes/sweeps/session35_behind.txt >/tmp/mul_behind.txt
grep "^rearrange" notes/sweeps/session35_behind.txt >/tmp/re_behind.txt
step "worst Mul and Rearrange cases with kernels"
timeout -k 3 "$(cap 50)" $PY tools/behind_sweep.py --repro /tmp/mul_behind.txt 14 >"$OUT/repro_kern.txt" 2>&1
timeout -k 3 "$(cap 40)" $PY tools/behind_sweep.py --repro /tmp/re_behind.txt 12 >>"$OUT/repro_kern.txt" 2>&1
echo "rc=$?" | tee -a "$LOG"
[ $((END - SECONDS)) -ge 40 ] && bench_libraries infiniop_py.bench.bench_rearrange "$OUT/bench_rearrange" default=build/lib
[ $((END - SECONDS)) -ge 25 ] && bench_libraries infiniop_py.bench.bench_mul "$OUT/bench_mul" default=build/lib
step "done"
