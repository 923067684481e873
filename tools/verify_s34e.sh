#!/usr/bin/env bash
# Session 34, call 5 (H200): the closing run of main after the Cols change (a thread holds at most 8 rows
# of any dtype) and hold.cu's store-policy knob: the library, the whole suite, memcheck and racecheck on
# the Cols plans, tools/dtype_survey.py cols16 once, and the end-to-end bench. Files under $OUT:
# s34e_log.txt, gpu_suite.txt, sanitize.txt, cols16.txt, bench.txt / bench.json.
NAME=${NAME:-s34e}
END=${END:-480}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
whole_suite 280
SANITIZE_CAP=40 lpn_sanitize memcheck "$OUT/sanitize.txt" cols
SANITIZE_CAP=40 lpn_sanitize racecheck "$OUT/sanitize.txt" cols
step "tools/dtype_survey.py cols16"
timeout -k 3 "$(cap 40)" $PY tools/dtype_survey.py cols16 >"$OUT/cols16.txt" 2>&1
echo "rc=$?" | tee -a "$LOG"
end_to_end_bench "$OUT/bench" 100 45
step "done"
