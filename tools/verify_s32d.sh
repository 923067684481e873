#!/usr/bin/env bash
# Session 32, closing call: Hold's launches cooperative by default (calls 2-3: a plain Hold grid partly
# resident waited forever behind a higher-priority Hold, Grid or Pipe launch). The library,
# tests/test_stream_priority.py, tools/hold_starve_probe.py on the scenarios the test leaves out, the
# whole suite, the end-to-end bench. Files under $OUT: s32d_log.txt, priority.txt, starve.txt,
# gpu_suite.txt, bench.txt, bench.json.
NAME=${NAME:-s32d}
END=${END:-580}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
library_build
step "tests/test_stream_priority.py"
timeout -k 3 "$(cap 150)" $PY -m pytest -q -p no:cacheprovider -rfEs tests/test_stream_priority.py >"$OUT/priority.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"
tail -n 3 "$OUT/priority.txt" >>"$LOG"
step "hold_starve_probe.py same rev matmul"
timeout -k 3 "$(cap 80)" $PY tools/hold_starve_probe.py --limit 20 same rev matmul >"$OUT/starve.txt" 2>&1
echo "rc=$?" | tee -a "$LOG" "$OUT/starve.txt"
whole_suite 300
end_to_end_bench "$OUT/bench" 90 60
step "done"
