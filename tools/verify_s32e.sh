#!/usr/bin/env bash
# Session 32, call 5: the odd tensor-copy tiles (tools/odd_tma_tile.cuh, a draft outside the library:
# the copy engine loads the src side of odd-pitch 2-byte transposes through 8 residue maps) against the
# odd word tiles and the library on the odd-pitch cases: `rearr4_bench --oddtma` (bit-exact check on
# poisoned dst, graph and eager µs), twice. Files under $OUT: s32e_log.txt, oddtma.txt.
NAME=${NAME:-s32e}
END=${END:-280}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
rearr4_build
rearr4_rounds --oddtma "$OUT/oddtma.txt" 90
step "done"
