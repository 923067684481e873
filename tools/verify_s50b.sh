#!/usr/bin/env bash
# Session 50's second call (H200): the three knobs call 1 (verify_s50a.sh) measured, merged as defaults:
# Cols blocks of >= 16 thread rows merge the max once (INFINI_LP_NORM_COLS_MERGE_ONCE_MIN_ROWS 16), the
# one-row Factor kernel for cut axes of <= 8 chunks (..._FACTOR_ONE_ROW_CHUNKS 8), the 2-byte gather at 5
# blocks an SM (INFINI_ELEMENTWISE_GATHER_MIN_BLOCKS_2B 5):
# - the whole suite on the merged tree (GPU tests required);
# - memcheck on the Cols tests (the merge's barrier order is new at by >= 16) and the 2-byte gathers;
# - build_old (all three off) / default / build_old on call 1's merge set (127 cases; by-8 blocks lost
#   there and now keep the old merge);
# - build_i25 (INFINI_LP_NORM_COLS_NARROW_MAX_IDLE_PCT=25) against the new default on call 1's 60
#   narrowing cases (mixed in call 1: to 0.70 and to 1.19x).
# Files under $OUT: s50b_log.txt, ab.txt, tests.txt, the suite's logs.
NAME=${NAME:-s50b}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
L=native/src/ops/lp_norm
M=native/src/ops/mul
build_variant_sets \
    "build_old|-DINFINI_LP_NORM_COLS_MERGE_ONCE_MIN_ROWS=0 -DINFINI_LP_NORM_COLS_FACTOR_ONE_ROW_CHUNKS=0 -DINFINI_ELEMENTWISE_GATHER_MIN_BLOCKS_2B=0|$L/cols.cu $M/kernels_f16.cu $M/kernels_int_small.cu" \
    "build_i25|-DINFINI_LP_NORM_COLS_NARROW_MAX_IDLE_PCT=25|$L/nvidia.cc"
whole_suite 250
# memcheck FILE CAP -k: the default library under compute-sanitizer (the suite above ran the tests plain).
memcheck() {
    step "memcheck: $1 -k \"$3\""
    INFINIOP_LIBRARY=$PWD/build/lib/libinfiniop.so timeout -k 3 "$(cap "$2")" compute-sanitizer --tool memcheck \
        --report-api-errors no --error-exitcode 99 $PY -m pytest -q -x -p no:cacheprovider "$1" -k "$3" \
        >>"$OUT/tests.txt" 2>&1
    echo "memcheck rc=$? (99: errors reported)" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
}
memcheck tests/test_lp_norm.py 60 "nvidia and columns_every_p"
memcheck tests/test_mul.py 40 "nvidia and gather"
cp notes/sweeps/session49_merge_top_cases.txt /tmp/mt.txt
ab_repro 50 mt=old=build_old mt=new=build mt=old2=build_old
cp notes/sweeps/session49_narrow_idle_cases.txt /tmp/ni.txt
ab_repro 25 ni=default=build ni=i25=build_i25 ni=default2=build
step "done"
