#!/usr/bin/env bash
# Session 37, call 2 (H200): two new defaults against the library without them (build_prev).
# - Rearrange's box transposes on where the tiles are refused (INFINI_REARRANGE_BOX 1), their loads
#   batched 8 a thread and their boxes cut finer where they would be fewer than 8 an SM (call 1: boxes
#   won 1.3-1.9x on three of session 36's behind cases, lost 0.64-0.77x on two with 400-500 boxes).
# - LPNorm Cols statistics with a p = 3 case of their own (INFINI_LP_NORM_COLS_CUBE 1; the worst Cols
#   cases behind PyTorch were p 3 ones at 1.5-1.65x).
# Runs: the Rearrange tests (box now on by default) and memcheck on the box cases, the new Cols test
# and memcheck / racecheck on the Cols plans, session 36's behind cases on both libraries, then the
# whole suite (GPU tests required) on the default library.
# Files under $OUT: s37b_log.txt, tests.txt, sanitize.txt, repro_{default,prev}.txt, gpu_suite.txt.
NAME=${NAME:-s37b}
END=${END:-565}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
VARIANT_CXXFLAGS="-DINFINI_REARRANGE_BOX=0" build_variant_pair build_prev "-DINFINI_LP_NORM_COLS_CUBE=0" \
    native/src/ops/rearrange/rearrange_nvidia.cc native/src/ops/lp_norm/cols.cu
step "Rearrange tests, the new Cols test; memcheck on the box cases"
timeout -k 3 "$(cap 70)" $PY -m pytest -q -p no:cacheprovider -rfEs tests/test_rearrange.py tests/test_lp_norm.py \
    -k "not lp_norm or columns_every_p" >>"$OUT/tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
timeout -k 3 "$(cap 40)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY -m pytest -q -x -p no:cacheprovider tests/test_rearrange.py -k "dense_block and nvidia" >>"$OUT/tests.txt" 2>&1
echo "memcheck rc=$? (99: errors reported)" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
SANITIZE_CAP=25 lpn_sanitize memcheck "$OUT/sanitize.txt" cols
SANITIZE_CAP=25 lpn_sanitize racecheck "$OUT/sanitize.txt" cols
grep -v "^mul" notes/sweeps/session36_behind.txt >/tmp/s36_re_lpn.txt
for pair in default=build/lib prev=build_prev/lib; do
    step "session 36's Rearrange and LPNorm behind cases, ${pair%%=*}"
    INFINIOP_LIBRARY=$PWD/${pair#*=}/libinfiniop.so timeout -k 3 "$(cap 45)" $PY tools/behind_sweep.py --repro \
        /tmp/s36_re_lpn.txt 200 --no-kernels >"$OUT/repro_${pair%%=*}.txt" 2>&1
    echo "rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/repro_${pair%%=*}.txt" | tee -a "$LOG"
done
whole_suite 260
step "done"
