#!/usr/bin/env bash
# For the next session (drafted in session 32, branch dev/odd-tma): the odd tensor-copy tiles in the library
# for odd src pitches of 4-16 MiB a side (nvidia.h's window, to be set from this run), and the persistent form
# in the harness. rearr4_bench --oddtma twice (the one-tile form at 4 / 6 / 8 blocks an SM, the ring at
# 16x1 / 8x2 / 5x3 / 4x4, both sides through the copy engine (odd_tma_full.cuh) at 10x1 / 6x2 / 4x3, the odd
# word tiles and this build's library call, on 4097², 3001x1999, 1025x4097,
# 1537², 2049², 4097x2049, 6145x4097), the Rearrange GPU tests with memcheck on the odd-pitch ones,
# small_calls_probe --odd (257²-4097², eager and graphs), and the Rearrange end-to-end bench.
# Also the library with -DINFINI_REARRANGE_ODD_TMA=2 (build_full: both sides through the copy engine in the
# window) under the Rearrange GPU tests. Files under $OUT: ${NAME}_log.txt, oddtma.txt, rearrange_tests.txt,
# rearrange_tests_full.txt, small_odd.txt, bench_rearrange.txt.
NAME=${NAME:-s33a}
END=${END:-585}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_pair build_full "-DINFINI_REARRANGE_ODD_TMA=2" native/src/ops/rearrange/kernels_u2.cu
rearr4_build
rearr4_rounds --oddtma "$OUT/oddtma.txt" 90
rearrange_gpu_checks "$OUT/rearrange_tests.txt"
step "Rearrange GPU tests on build_full (both sides through the copy engine in the window)"
INFINIOP_LIBRARY=$PWD/build_full/lib/libinfiniop.so timeout -k 3 "$(cap 150)" $PY -m pytest -q -x -p no:cacheprovider \
    tests/test_rearrange.py -k "nvidia or gpu" >"$OUT/rearrange_tests_full.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"
tail -n 3 "$OUT/rearrange_tests_full.txt" >>"$LOG"
probe_scripts "$OUT/small_odd.txt" 60 "small_calls_probe --odd"
end_to_end_bench "$OUT/bench_rearrange" 60 30 --op rearrange
step "done"
