#!/usr/bin/env bash
# Session 35, call 4 (H200): the closing run of main with this session's Cols changes as defaults (16-bit
# pairs rounded together; 16-byte packs for 16-bit types where the axis stays whole, the threads fill half
# the GPU and p is 1 or 2; blocks of 4- and 8-byte elements narrowing to rows of 256 bytes to hold 8 rows
# a thread): the library, the whole suite, memcheck and racecheck on the Cols plans (with a BF16 16-byte
# pack case and a narrowed F32 case), dtype_survey [cols16] [pack] once, the end-to-end bench, and
# tools/behind_sweep.py with what time is left. Files under $OUT: s35d_log.txt, gpu_suite.txt,
# sanitize.txt, survey.txt, bench.txt / bench.json, sweep.txt.
NAME=${NAME:-s35d}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
whole_suite 280
SANITIZE_CAP=40 lpn_sanitize memcheck "$OUT/sanitize.txt" cols
SANITIZE_CAP=40 lpn_sanitize racecheck "$OUT/sanitize.txt" cols
step "tools/dtype_survey.py [cols16] [pack]"
timeout -k 3 "$(cap 40)" $PY tools/dtype_survey.py "[cols16]" "[pack]" >"$OUT/survey.txt" 2>&1
echo "rc=$?" | tee -a "$LOG"
end_to_end_bench "$OUT/bench" 100 45
if [ $((END - SECONDS)) -ge 40 ]; then
    step "behind_sweep"
    timeout -k 3 "$(cap 200)" $PY tools/behind_sweep.py 35 $((END - SECONDS - 20)) >"$OUT/sweep.txt" 2>&1
    echo "rc=$?" | tee -a "$LOG"
fi
step "done"
