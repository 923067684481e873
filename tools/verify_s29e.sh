#!/usr/bin/env bash
# Session 29, call 5: did abd966c's shared merge helpers move the Cols plan's times (4096² BF16 axis 0
# read 74.9 µs in call 4's survey against 74.0 in session 28)? tools/cols_probe.py on the library and on
# session 28's main (923668c, built on the development machine for sm_90 and carried as build/base_lib),
# two rounds interleaved; then racecheck on the Cols cases (the Factor kernel's barriers changed).
# Files under $OUT: s29e_log.txt, cols_ab.txt, racecheck.txt.
NAME=${NAME:-s29e}
END=${END:-400}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
library_build
export PYTHONPATH="$PWD/tools:$PYTHONPATH"
probe_rounds "$OUT/cols_ab.txt" tools/cols_probe.py build/lib build/base_lib
lpn_sanitize racecheck "$OUT/racecheck.txt" cols
step "done"
