#!/usr/bin/env bash
# Session 13, third device call (timeout_s 560), from the repository root after `source .gpu/setup.sh`:
#   1. the library (make -j16): L2 prefetch on the odd / skewed transposes' loads only, RandomSample's
#      weight scale clamped for subnormal temperatures; tools/rearr4_bench.cu against it;
#   2. tests: test_random_sample.py + test_properties.py, then test_rearrange.py + test_fuzz.py;
#   3. rearr4_bench (every odd / skewed variant, now with the prefetch) and bench_rearrange.
# Writes under $OUT: s13c_log.txt, s13c_tests.txt, s13c_rearr4.txt, s13c_bench.txt.
NAME=s13c
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
git log --oneline -1 >>"$LOG" 2>&1
library_build
rearr4_build
step "tests"
timeout -k 3 "$(cap 200)" $PY -m pytest tests/test_random_sample.py tests/test_properties.py tests/test_rearrange.py \
    tests/test_fuzz.py -q -p no:cacheprovider >"$OUT/s13c_tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"
tail -n 3 "$OUT/s13c_tests.txt" | tee -a "$LOG"
step "rearr4_bench (all variants)"
LD_LIBRARY_PATH=build/lib timeout -k 3 "$(cap 120)" build/rearr4_bench >"$OUT/s13c_rearr4.txt" 2>&1
echo "rearr4 rc=$?" | tee -a "$LOG"
bench_if_time infiniop_py.bench.bench_rearrange "$OUT/s13c_bench.txt" 90
step "done"
