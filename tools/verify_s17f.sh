#!/usr/bin/env bash
# Session 17, after the final call's findings: Hold's all-thread barrier as __syncthreads (racecheck
# had reported hazards across named barrier 1 on the 12x1M case), and the leak test run alone. One
# device call: the library; compute-sanitizer racecheck and memcheck on tools/sanitize_lpn.py's Hold
# cases; test_reliability.py alone (GPU tests required); LPNorm's GPU tests. Writes under $OUT:
# s17f_log.txt, s17f_sanitize.txt, s17f_reliability.txt, s17f_lp_gpu.txt.
NAME=s17f
END=${END:-330}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
library_build
for tool in racecheck memcheck; do
    step "compute-sanitizer $tool, tools/sanitize_lpn.py hold"
    echo "== $tool" >>"$OUT/s17f_sanitize.txt"
    timeout -k 3 "$(cap 90)" compute-sanitizer --tool "$tool" --report-api-errors no --error-exitcode 99 \
        $PY tools/sanitize_lpn.py hold >>"$OUT/s17f_sanitize.txt" 2>&1
    echo "$tool rc=$? (99: errors reported; 124: stopped at its cap)" | tee -a "$LOG" "$OUT/s17f_sanitize.txt"
done
step "test_reliability.py alone"
timeout -k 3 "$(cap 60)" $PY -m pytest -q -p no:cacheprovider -rfEs tests/test_reliability.py >"$OUT/s17f_reliability.txt" 2>&1
echo "reliability rc=$?" | tee -a "$LOG"
tail -n 2 "$OUT/s17f_reliability.txt" >>"$LOG"
step "LPNorm GPU tests"
timeout -k 3 "$(cap 150)" $PY -m pytest -q -p no:cacheprovider -rfEs tests/test_lp_norm.py \
    -k "_gpu and not reference_cases_large" >"$OUT/s17f_lp_gpu.txt" 2>&1
echo "lp gpu rc=$?" | tee -a "$LOG"
tail -n 2 "$OUT/s17f_lp_gpu.txt" >>"$LOG"
step "done"
