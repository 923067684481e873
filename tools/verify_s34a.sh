#!/usr/bin/env bash
# Session 34, call 1 (H200): main as session 33 left it, on the GPU: the library, the whole suite (the
# cols.cu default flip and the tensor-copy planners' shared plainTransposePitches had not run there),
# memcheck and racecheck on the Cols plans (Whole mode at 3 blocks an SM: the F64 8-row kernel spills),
# and the end-to-end bench when time is left. Files under $OUT: s34a_log.txt, gpu_suite shards,
# sanitize.txt, bench.txt / bench.json.
NAME=${NAME:-s34a}
END=${END:-580}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
whole_suite 300
SANITIZE_CAP=50 lpn_sanitize memcheck "$OUT/sanitize.txt" cols
SANITIZE_CAP=60 lpn_sanitize racecheck "$OUT/sanitize.txt" cols
end_to_end_bench "$OUT/bench" 100 60
step "done"
