#!/usr/bin/env bash
# Session 36, call 4 (H200), closing: the merged defaults (ragged LPNorm rows, Split Factor kernel,
# Rearrange's fill gate at 50% and the generic kernel's units a thread, Mul's gather form and its fill
# gate at 70%). Runs: the whole suite (GPU tests required), memcheck on Mul's gather and transposed
# cases, the end-to-end bench, then a fresh random sweep against PyTorch (seed 36) for what time is left.
# Files under $OUT: s36f_log.txt, gpu_suite.txt, memcheck_mul.txt, bench.txt, bench.json, sweep36.txt.
NAME=${NAME:-s36f}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
library_build
whole_suite 250
step "memcheck, Mul's gather and transposed cases"
timeout -k 3 "$(cap 40)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY -m pytest -q -x -p no:cacheprovider tests/test_mul.py -k "(gathered or transposed) and nvidia" \
    >"$OUT/memcheck_mul.txt" 2>&1
echo "memcheck rc=$? (99: errors reported; 124: stopped at its cap)" | tee -a "$LOG"
tail -n 2 "$OUT/memcheck_mul.txt" >>"$LOG"
end_to_end_bench "$OUT/bench" 90 60
left=$((END - SECONDS - 20))
if [ "$left" -ge 30 ]; then
    step "random sweep, seed 36, $left s"
    timeout -k 3 "$((left + 15))" $PY tools/behind_sweep.py 36 "$left" >"$OUT/sweep36.txt" 2>&1
    echo "sweep rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/sweep36.txt" >>"$LOG"
fi
step "done"
