#!/usr/bin/env bash
# Session 44, the closing call's follow-up (H200, the 325 s of device time left): the closing call's whole
# suite (verify_s44c.sh) had every shard pass but lp_gpu_rest, which ran past its 215 s cap with 7 of its
# 105 tests left, after the new test_cols_uncut_narrow_rows_gpu failed its 4 cases on an assert that was
# wrong (a descriptor's workspace is the largest of its packed and scalar plans', and those shapes' scalar
# plans cut the axis). Here, on the default library of the mended tree: gpu_suite.sh's new lp_gpu_cols
# shard (17 tests, the mended UNCUT test among them) beside lp_gpu_rest's last two tests (9 cases: the 7
# the cap cut off and the two before them), then memcheck on UNCUT's F64 cases.
# Files under $OUT: s44e_log.txt, tests.txt.
NAME=${NAME:-s44e}
END=${END:-230}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
step "lp_gpu_cols shard and the rest of lp_gpu_rest, in parallel"
timeout -k 3 "$(cap 120)" $PY -m pytest -q -p no:cacheprovider -rfEs tests/test_lp_norm.py \
    -k "_gpu and not reference_cases_large and (columns_split or cols_uncut or cols_pointer)" >"$OUT/tests_cols.txt" 2>&1 &
pid=$!
timeout -k 3 "$(cap 120)" $PY -m pytest -q -p no:cacheprovider -rfEs tests/test_lp_norm.py \
    -k "block_streamed_rows_gpu or workspace_at_any_address_gpu" >"$OUT/tests_rest.txt" 2>&1
echo "rest rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests_rest.txt" | tee -a "$LOG"
wait $pid
echo "cols rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests_cols.txt" | tee -a "$LOG"
if [ $((END - SECONDS)) -ge 40 ]; then
    step "memcheck: UNCUT's F64 cases"
    timeout -k 3 "$(cap 60)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
        $PY -m pytest -q -x -p no:cacheprovider tests/test_lp_norm.py -k "cols_uncut and f64" >"$OUT/memcheck.txt" 2>&1
    echo "memcheck rc=$? (99: errors reported)" | tee -a "$LOG"; tail -n 2 "$OUT/memcheck.txt" | tee -a "$LOG"
fi
step "done"
