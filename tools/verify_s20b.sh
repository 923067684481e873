#!/usr/bin/env bash
# Session 20: the tensor-copy tiles (native/src/ops/rearrange/tma_tile.cuh) measured. One device call:
# the library, tools/rearr4_bench.cu, then `rearr4_bench --tma` twice (every aligned transpose case:
# the wide word tiles, four tensor-copy shapes, the library call, a memcpy of the same bytes; every
# variant checked bit-exact on a poisoned dst first). Writes s20b_log.txt and s20b_rearr4.txt.
NAME=s20b
END=${END:-200}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
library_build
rearr4_build
rearr4_rounds --tma "$OUT/${NAME}_rearr4.txt" 60
step "done"
