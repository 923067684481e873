#!/usr/bin/env bash
# Session 33, call 3 (H200): call 2's rearr4_bench runs again (its build failed: a header that the
# dropped ring form had pulled in): --oddtma on the window's ends, --tma, --pdl; memcheck on the odd-pitch
# Rearrange tests (the odd tensor-copy tiles in 1-24 MiB); the whole suite on the H200 (the first time
# on this chip). Files under $OUT: s33c_log.txt, oddtma.txt, tma.txt, pdl.txt, memcheck.txt, gpu_suite.txt.
NAME=${NAME:-s33c}
END=${END:-575}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
rearr4_build
for mode in oddtma tma pdl; do
    step "rearr4_bench --$mode"
    LD_LIBRARY_PATH=build/lib timeout -k 3 "$(cap 60)" build/rearr4_bench --$mode >"$OUT/$mode.txt" 2>&1
    echo "rc=$?" | tee -a "$LOG" "$OUT/$mode.txt"
done
rearrange_memcheck "$OUT/memcheck.txt"
whole_suite 300
step "done"
