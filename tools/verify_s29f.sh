#!/usr/bin/env bash
# Session 29, call 6: which half of abd966c's cols.cu change cost the 2-byte cut axis (call 5: 4096² F16
# axis 0 65.2 -> 67.3 µs, BF16 74.1 -> 74.9)? tools/cols_probe.py 4096x4096 on the library, session 28's
# main (build/base_lib), and two libraries built here with one piece of cols.cu as it was (build/varC:
# the old Factor kernel; build/varD: the old mergeThreadRows), two rounds interleaved.
# Files under $OUT: s29f_log.txt, cols_bisect.txt.
NAME=${NAME:-s29f}
END=${END:-300}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
export PYTHONPATH="$PWD/tools:$PYTHONPATH"
probe_rounds "$OUT/cols_bisect.txt" "tools/cols_probe.py 4096x4096" build/lib build/base_lib build/varC/lib build/varD/lib
step "done"
