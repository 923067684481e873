#!/usr/bin/env bash
# Written at the end of session 52 for session 53's first call (H200), not yet run. F64 columns, most of
# what LPNorm has behind PyTorch (26 of the seed-52 sweep's 34 lines), four measuring variants, each against
# two default runs on 60 cases it moves (the seed-52 sweep's F64 lines of >= 20 µs it moves first, then the
# plan probe's /tmp/allc.txt cases; notes/sweeps/session53_*_cases.txt):
# - build_w16 (INFINI_LP_NORM_COLS_WHOLE16_MIN_BLOCKS=2, cols.cu): Whole mode's 16-row kernels at 2 blocks an
#   SM. ptxas: <double, 2, 16> 182 -> 128 registers, <float, 4, 16> 181 -> 128, none spilled (session 34's
#   tree spilled 36-44 bytes). The seed-52 sweep's worst LPNorm line, (14,140,177,24) F64 axis 2, 161.7 µs
#   against 65.8, runs <double, 2, 16> at one block an SM;
# - build_ws (INFINI_LP_NORM_COLS_WHOLE_STREAM_PAST_F64=8, nvidia.cc): those F64 columns streamed instead;
# - build_h16 (INFINI_LP_NORM_COLS_CUT_HELD_F64=16): F64 cut axes in fewer chunks of up to 16 rows a thread;
# - build_cs (INFINI_LP_NORM_COLS_CUT_STREAM_F64=1): F64 cut axes in the threads target's chunks, streamed
#   (PyTorch's reduce's shape; 11 of the seed-52 sweep's 15 F64-pair cut axes at 8 rows are behind);
# then the Cols GPU tests on each variant (memcheck on the cut ones).
# Files under $OUT: s53a_log.txt, ab.txt (runs: default, variant, default2 per set), tests.txt.
NAME=${NAME:-s53a}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
lp=native/src/ops/lp_norm
build_variant_sets "build_w16|-DINFINI_LP_NORM_COLS_WHOLE16_MIN_BLOCKS=2|$lp/cols.cu" \
    "build_ws|-DINFINI_LP_NORM_COLS_WHOLE_STREAM_PAST_F64=8|$lp/nvidia.cc" \
    "build_h16|-DINFINI_LP_NORM_COLS_CUT_HELD_F64=16|$lp/nvidia.cc" \
    "build_cs|-DINFINI_LP_NORM_COLS_CUT_STREAM_F64=1|$lp/nvidia.cc"
for v in w16 ws h16 cs; do cp "notes/sweeps/session53_${v}_cases.txt" "/tmp/$v.txt"; done
ab_repro 30 w16=default=build w16=w16=build_w16 w16=default2=build
ab_repro 30 ws=default=build ws=ws=build_ws ws=default2=build
ab_repro 30 h16=default=build h16=h16=build_h16 h16=default2=build
ab_repro 30 cs=default=build cs=cs=build_cs cs=default2=build
sel="nvidia and (cols or columns or layouts_every_axis or zero_parts or chunks or extreme)"
variant_tests build_w16 45 1 tests/test_lp_norm.py "$sel"
variant_tests build_ws 45 1 tests/test_lp_norm.py "$sel"
variant_tests build_h16 45 25 tests/test_lp_norm.py "$sel" "nvidia and (cols_cut or zero_parts)"
variant_tests build_cs 45 25 tests/test_lp_norm.py "$sel" "nvidia and (cols_cut or zero_parts)"
step "done"
