#!/usr/bin/env bash
# Session 23's closing call on main (after the odd word tiles' trigger change): the library build, the
# whole suite in shards with GPU tests required (tools/gpu_suite.sh), memcheck on the odd pitches and
# the dependent chains, then the end-to-end bench of every operator with PyTorch in the same run.
# (Call 5 ran the same without the memcheck step, as verify_s23d.sh, since folded in here.)
# Files under $OUT: s23j_log.txt, gpu_suite.txt, s23j_memcheck.txt, s23j_bench.txt / .json.
NAME=${NAME:-s23j}
END=${END:-590}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
library_build
whole_suite 330
rearrange_memcheck "$OUT/${NAME}_memcheck.txt"
end_to_end_bench "$OUT/${NAME}_bench" 120 60
step "done"
