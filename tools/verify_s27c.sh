#!/usr/bin/env bash
# Session 27: the library at the new Hold rule; tools/dtype_survey.py (shapes of every float dtype
# beyond the bench's, against PyTorch); the end-to-end bench of every operator with PyTorch in the
# same run. Files under $OUT: s27c_log.txt, survey.txt, bench.txt / .json.
NAME=${NAME:-s27c}
END=${END:-500}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
library_build
step "tools/dtype_survey.py"
timeout -k 3 "$(cap 150)" $PY tools/dtype_survey.py >"$OUT/survey.txt" 2>&1
echo "survey rc=$?" | tee -a "$LOG" "$OUT/survey.txt"
end_to_end_bench "$OUT/bench" 200 60
step "done"
