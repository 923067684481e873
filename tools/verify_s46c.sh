#!/usr/bin/env bash
# Session 46, call 3 (H200): the closing checks on main with INFINI_REARRANGE_GROW_SHORTER 1 (call 2: 108
# regrouped cases at 0.653 of their time) and the box word stores removed (SASS of every Rearrange kernel
# file identical to the session's start): the library, the whole suite with GPU tests required, the
# end-to-end bench. Then a question call 2 raised: at the default, 97 of the 107 box cases ran behind
# PyTorch (median 1.13x). Boxes were chosen over the generic kernel in sessions 37-38, before the generic
# kernel's unrolled 5-6-dim forms (session 39) and lean forms (session 40); build_nobox
# (INFINI_REARRANGE_BOX=0, the planner only: 106 of the 107 cases go to the generic kernel, one to tiles)
# is timed against the default on those cases, and Rearrange's GPU tests run on it.
# Files under $OUT: s46c_log.txt, gpu_suite.txt, bench.txt / .json, ab.txt, tests.txt.
NAME=${NAME:-s46c}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_sets "build_nobox|-DINFINI_REARRANGE_BOX=0|native/src/ops/rearrange/rearrange_nvidia.cc"
whole_suite 215
end_to_end_bench "$OUT/bench" 60 60
cp notes/sweeps/session46_box_cases.txt /tmp/box.txt
ab_repro 50 box=default=build box=nobox=build_nobox
variant_tests build_nobox 50 30 tests/test_rearrange.py "nvidia or large" "dense_block and (nvidia or large)"
step "done"
