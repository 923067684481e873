#!/usr/bin/env bash
# Session 14, ninth device call (timeout_s 560), from the repository root after `source .gpu/setup.sh`:
# the skewed and odd word tiles' edge tiles of single dims (not whole: the first and last tiles along
# a and b) store through storeSkewRows too, with bounds checks, instead of the general loop.
#   1. the working tree's library (build/) and, in parallel, HEAD's in a git worktree (/tmp/s14i_base);
#      tools/rearr4_bench.cu against build/lib;
#   2. rearr4_bench --library on HEAD's library and build/, twice, interleaved;
#   3. test_rearrange.py + test_properties.py + test_fuzz.py, memcheck on the odd / skewed tests;
#   4. bench_rearrange.
# (The device's copy of .git stood at dea737b, session 13's last commit, so "HEAD" built session 13's
# code: the A/B below is session 13 against the whole of session 14.)
# Writes under $OUT: s14i_log.txt, s14i_lib.txt, s14i_tests.txt, s14i_bench.txt.
NAME=s14i
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
step "HEAD's library in a worktree, beside the working tree's"
git log --oneline -1 >>"$LOG" 2>&1
rm -rf /tmp/s14i_base && git worktree add -f /tmp/s14i_base HEAD >>"$LOG" 2>&1
(cd /tmp/s14i_base && timeout -k 3 "$(cap 150)" make -j8 CUDA_ARCHS=90 >/tmp/s14i_base_make.log 2>&1; echo "make (HEAD) rc=$?" >>"$LOG") &
timeout -k 3 "$(cap 150)" make -j8 CUDA_ARCHS=90 >>"$LOG" 2>&1
echo "make (working tree) rc=$?" | tee -a "$LOG"
wait
rearr4_build
rearrange_library_ab /tmp/s14i_base/build "$OUT/s14i_lib.txt"
rearrange_gpu_checks "$OUT/s14i_tests.txt"
bench_if_time infiniop_py.bench.bench_rearrange "$OUT/s14i_bench.txt" 90
step "done"
