#!/usr/bin/env bash
# Session 32, first call: the four host-code commits of session 31's second review (7b358a9 driverFunction,
# 3184ec2 streamSmCount, 2a8f87b launchOrPortable, 21c0a08 RandomSample's SM count from its handle) had not
# run on a GPU. The library, tools/two_grids_probe.py (two Hold grids on two streams of different
# priority with a matmul taking SMs first: do they wait for each other?), green_ctx_probe.py on every case,
# then the whole suite. Files under $OUT: s32a_log.txt, two_grids.txt, green.txt, gpu_suite.txt.
NAME=${NAME:-s32a}
END=${END:-585}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
library_build
for shape in 1x4194304 32x1048576; do
    step "two_grids_probe.py --shape $shape"
    echo "== $shape" >>"$OUT/two_grids.txt"
    timeout -k 3 "$(cap 50)" $PY tools/two_grids_probe.py --rounds 20 --limit 40 --shape "$shape" >>"$OUT/two_grids.txt" 2>&1
    echo "rc=$?" | tee -a "$LOG" "$OUT/two_grids.txt"
done
green_probe "$OUT/green.txt" build/lib 25
whole_suite 300
step "done"
