#!/usr/bin/env bash
# Session 41, call 4 (H200), closing: the default library with this session's merges (Mul's lane mapping
# for odd rows of 8-byte elements; LPNorm's Stream of block groups by blockStreamPays and its p 3 case,
# whose kernels are byte-identical to call 3's build_bs2): memcheck on the streamed row tests, the row and
# LPNorm behind cases of calls 2-3 again (the rule's choices), the whole suite (GPU tests required), the
# end-to-end bench and, with the time left, a fresh sweep (seed 41).
# Files under $OUT: s41d_log.txt, tests.txt, ab.txt, gpu_suite.txt, bench.txt, bench.json, sweep41.txt.
NAME=${NAME:-s41d}
END=${END:-570}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
step "memcheck: streamed LPNorm rows (default library)"
timeout -k 3 "$(cap 70)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY -m pytest -q -x -p no:cacheprovider tests/test_lp_norm.py -k "block_streamed or many_rows_streamed" \
    >>"$OUT/tests.txt" 2>&1
echo "memcheck rc=$? (99: errors reported)" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
$PY tools/shaped_cases.py lprows 41 100 >/tmp/rows.txt
grep "^lp_norm" notes/sweeps/session40_behind.txt >/tmp/lpb.txt
ab_repro 40 rows=default=build lpb=default=build
whole_suite 215
end_to_end_bench "$OUT/bench" 60 60
left=$((END - SECONDS - 15))
if [ "$left" -ge 30 ]; then
    step "random sweep, seed 41, $left s"
    timeout -k 3 "$((left + 10))" $PY tools/behind_sweep.py 41 "$left" >"$OUT/sweep41.txt" 2>&1
    echo "sweep rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/sweep41.txt" >>"$LOG"
fi
step "done"
