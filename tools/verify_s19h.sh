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
rearr4_rounds --pdl "$OUT/s19h_pdl.txt" 90
step "done"
