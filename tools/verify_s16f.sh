#!/usr/bin/env bash
# Session 16, after the final suite (one device call, from the repository root after
# `source .gpu/setup.sh`): the library; tools/leak_probe.py (device memory after each chunk of
# create/destroy cycles, alone on the GPU: the suite's leak test saw 4.0 MiB less free memory with
# other shards running beside it); the leak test alone; the RandomSample / overhead / bad-input
# tests (list parameters now packed by struct); the end-to-end benchmark on an idle host.
# Writes under $OUT: s16f_log.txt, s16f_leak.txt, s16f_tests.txt, s16f_bench.txt, s16f_bench.json.
NAME=s16f
END=${END:-330}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
library_build
step "leak probe: 6 chunks of 50000 cycles"
timeout -k 3 "$(cap 120)" $PY tools/leak_probe.py 6 50000 >"$OUT/s16f_leak.txt" 2>&1
echo "probe rc=$?" | tee -a "$LOG"
cat "$OUT/s16f_leak.txt" >>"$LOG"
step "tests: the leak test alone, then RandomSample / overhead / bad inputs"
timeout -k 3 "$(cap 60)" $PY -m pytest -q -p no:cacheprovider tests/test_reliability.py -k "create_destroy_cycles" \
    >"$OUT/s16f_tests.txt" 2>&1
echo "leak test rc=$?" | tee -a "$LOG"
timeout -k 3 "$(cap 90)" $PY -m pytest -q -p no:cacheprovider tests/test_random_sample.py tests/test_overhead.py \
    tests/test_bad_inputs.py >>"$OUT/s16f_tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"
tail -n 2 "$OUT/s16f_tests.txt" >>"$LOG"
end_to_end_bench "$OUT/s16f_bench" 90 40
step "done"
