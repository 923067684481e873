#!/usr/bin/env bash
# Session 19: the wide word tiles at 6 blocks an SM (1024 tiles of 4096² F16 in 1.29 waves of 792
# instead of 1.55 of 660; 40 registers, 28 bytes spilled) against the library's 5, with PDL.
# One device call: the library, tools/rearr4_bench.cu --pdl twice. Writes $OUT/s19h_log.txt,
# $OUT/s19h_pdl.txt.
NAME=s19h
END=${END:-400}
source "$(dirname "$0")/verify_common.sh"
library_build
rearr4_build
for round in 1 2; do
    step "rearr4_bench --pdl, round $round"
    echo "== round $round" >>"$OUT/s19h_pdl.txt"
    LD_LIBRARY_PATH=build/lib timeout -k 3 "$(cap 90)" build/rearr4_bench --pdl >>"$OUT/s19h_pdl.txt" 2>&1
    echo "rc=$?" | tee -a "$LOG" "$OUT/s19h_pdl.txt"
done
step "done"
