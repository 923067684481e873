#!/usr/bin/env bash
# Session 33, call 6 (H200): Hold's tuning on this chip (LPN7_ONLY=hold: its first case, 32x1M BF16, with
# every Hold variant: fewer packs in registers, more of the 60 MB L2 for the L2 part; graph µs beside a
# copy of the same bytes) and tools/dtype_survey.py (LPNorm shapes of every float dtype against PyTorch:
# never behind it, on the new chip). Files under $OUT: s33f_log.txt, hold.txt, survey.txt.
NAME=${NAME:-s33f}
END=${END:-330}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
harness_build_bg tools/lpn7_bench.cu build/lpn7
library_build
step "tools/dtype_survey.py"
timeout -k 3 "$(cap 110)" $PY tools/dtype_survey.py >"$OUT/survey.txt" 2>&1
echo "rc=$?" | tee -a "$LOG" "$OUT/survey.txt"
wait
step "LPN7_ONLY=hold"
LPN7_ONLY=hold timeout -k 3 "$(cap 90)" build/lpn7 "$OUT/hold.txt" >/dev/null 2>&1
echo "rc=$? (124: stopped at its cap)" | tee -a "$LOG"
step "done"
