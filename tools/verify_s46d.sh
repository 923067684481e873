#!/usr/bin/env bash
# Session 46, call 4 (H200): main after the box transposes' removal (call 3: the generic kernel took 0.667
# of the boxes' time on 107 box cases, behind PyTorch 97 -> 0; every other Rearrange kernel's SASS is
# unchanged, and tools/rearr_plan_probe.cc gives the measured no-box build's plans for 4112 cases). The
# whole suite ran in call 3 on 0ee7ff8, the tree before the removal. Here: the library, Rearrange's GPU
# tests (test_rearrange.py, test_properties.py, test_fuzz.py), memcheck on the dense-block, small-dim,
# many-dim and new contested-dim tests, then a fresh random sweep (seed 46) for what is left.
# Files under $OUT: s46d_log.txt, rearrange_tests.txt, sweep46.txt.
NAME=${NAME:-s46d}
END=${END:-495}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
step "Rearrange GPU tests"
timeout -k 3 "$(cap 120)" $PY -m pytest -q -p no:cacheprovider tests/test_rearrange.py tests/test_properties.py \
    tests/test_fuzz.py >"$OUT/rearrange_tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/rearrange_tests.txt" >>"$LOG"
step "memcheck: dense-block, small-dim, many-dim, contested-dim Rearrange tests"
timeout -k 3 "$(cap 60)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY -m pytest -q -x -p no:cacheprovider tests/test_rearrange.py \
    -k "(dense_block or small_dim or many_dim or continuing_both) and (nvidia or large)" >>"$OUT/rearrange_tests.txt" 2>&1
echo "memcheck rc=$? (99: errors reported)" | tee -a "$LOG"; tail -n 1 "$OUT/rearrange_tests.txt" >>"$LOG"
sweep_if_time 46
step "done"
