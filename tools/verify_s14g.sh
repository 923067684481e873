#!/usr/bin/env bash
# Session 14, seventh device call (timeout_s 300), from the repository root after `source .gpu/setup.sh`:
# with the whole-row stores, do the skewed word tiles (64-unit tiles, a gathered 64th unit for odd
# src rows; session 8: 34.0 µs on 4097²) now beat the odd word tiles on odd pitches? The library
# (make -j16), tools/rearr4_bench.cu, then `rearr4_bench --skew` twice.
# Outcome (H100, two rounds): no. 4097² skewed words span 1 29.03-29.05, span 2 32.88-32.91 against
# the odd word tiles' 26.59-26.65; 4098² src + 1 28.74-28.82 against 26.62-26.66.
# Writes under $OUT: s14g_log.txt, s14g_skew.txt.
NAME=s14g
END=${END:-280}
source "$(dirname "$0")/verify_common.sh"
library_build
rearr4_build
rearr4_rounds --skew "$OUT/s14g_skew.txt" 90
step "done"
