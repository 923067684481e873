#!/usr/bin/env bash
# Session 53, call 2 (H200): the three Cols rules merged from call 1 (tools/verify_s53a.sh) against the
# tree without them (build_old: WHOLE_STREAM_F64=0, CUT_STREAM_F64=0 in nvidia.cc, WHOLE16_WIDE_MIN_BLOCKS=0
# in cols.cu, the a5bf6c7 plans and kernels) on fresh cases that the plan probe puts on each
# (shaped_cases.py colscut / colsmid 5353 and 16-byte-pack columns of 100-300 rows, seed 5354; at least
# 30-40 MB; notes/sweeps/session53_*_cases.txt):
# - cut64: F64 pairs on a cut axis at 5-8 rows a thread, now streamed in the threads target's chunks;
# - whole64: F64 whole columns at 9-16 rows a thread (pairs, singles of <= 11 rows), now streamed;
# - w16f32: F32 4-packs at 16 rows, the 16-row Whole kernel now at 2 blocks an SM;
# then the whole suite on the default library, memcheck on the new and the cut-axis tests, and two
# measuring knobs for F32 4-packs against the default (the same two streaming rules: build_wf32 on the
# w16f32 cases, build_cf32 on cut axes of F32 4-packs at 5-8 rows).
# Files under $OUT: s53b_log.txt, ab.txt (runs: old, new, old2; then new, knob, new2), tests.txt, suite shards.
NAME=${NAME:-s53b}
END=${END:-565}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
lp=native/src/ops/lp_norm
old="-DINFINI_LP_NORM_COLS_WHOLE_STREAM_F64=0 -DINFINI_LP_NORM_COLS_CUT_STREAM_F64=0"
old="$old -DINFINI_LP_NORM_COLS_WHOLE16_WIDE_MIN_BLOCKS=0"
build_variant_sets "build_old|$old|$lp/nvidia.cc $lp/cols.cu" \
    "build_wf32|-DINFINI_LP_NORM_COLS_WHOLE_STREAM_F32=1|$lp/nvidia.cc" \
    "build_cf32|-DINFINI_LP_NORM_COLS_CUT_STREAM_F32=1|$lp/nvidia.cc"
for v in cut64 whole64 w16f32 cf32; do cp "notes/sweeps/session53_${v}_cases.txt" "/tmp/$v.txt"; done
cp /tmp/w16f32.txt /tmp/wf32.txt
ab_repro 40 cut64=old=build_old cut64=new=build cut64=old2=build_old
ab_repro 40 whole64=old=build_old whole64=new=build whole64=old2=build_old
ab_repro 30 w16f32=old=build_old w16f32=new=build w16f32=old2=build_old
whole_suite 200
variant_tests build 40 40 tests/test_lp_norm.py "nvidia and streamed_not_held" \
    "nvidia and (streamed_not_held or cols_cut)"
ab_repro 30 wf32=new=build wf32=wf32=build_wf32 wf32=new2=build
ab_repro 30 cf32=new=build cf32=cf32=build_cf32 cf32=new2=build
step "done"
