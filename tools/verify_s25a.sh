#!/usr/bin/env bash
# Session 25: the GPU run that f605a93 lacked (the odd word tiles' trigger through tileLoaded(), PTX
# identical at the default build): the Rearrange GPU tests (test_rearrange, test_properties,
# test_fuzz) and memcheck on the odd-pitch / skewed / dependent-chain tests, the eager probe of the
# transposes, and the end-to-end bench of every operator with PyTorch in the same run (its % column
# now with one decimal).
# Files under $OUT: s25a_log.txt, s25a_rearrange.txt, s25a_probe.txt, s25a_bench.txt, s25a_bench.json.
NAME=${NAME:-s25a}
END=${END:-570}
source "$(dirname "$0")/verify_common.sh"
library_build
rearrange_gpu_checks "$OUT/${NAME}_rearrange.txt"
step "eager probe (4096² / 4097² F16 transposes)"
timeout -k 3 "$(cap 60)" $PY tools/eager_probe.py --batches >"$OUT/${NAME}_probe.txt" 2>&1
echo "probe rc=$?" | tee -a "$LOG"
end_to_end_bench "$OUT/${NAME}_bench" 240 60
step "done"
