#!/usr/bin/env bash
# Session 43, closing call (H200): the default library with this session's changes (Rearrange's
# INFINI_REARRANGE_MIN_B_FILL_1B 80, and whatever of call 3's knobs won), the whole suite (GPU tests
# required), the end-to-end bench and, with the time left, a fresh sweep (seed 43).
# Where 150 s are left after the bench: call 3's unmeasured host knobs, INFINI_LP_NORM_COLS_SPLIT_ROWS=8
# (the cut axis in more chunks, at most 8 rows a thread) on the seed-42 LPNorm cases and 40 random
# cut-axis cases, and INFINI_LP_NORM_RAGGED_MIN_LEN_2B=26 on 60 16-bit rows of 17-40 (ab.txt).
# (RAGGED_MIN_LEN_2B became the band INFINI_LP_NORM_RAGGED_SCALAR_FROM_2B / TO_2B, 21-25, after this call.)
# Files under $OUT: s43d_log.txt, gpu_suite.txt, bench.txt, bench.json, ab.txt, sweep43.txt.
NAME=${NAME:-s43d}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
whole_suite 215
end_to_end_bench "$OUT/bench" 60 60
# Call 3's host knobs that its time did not reach (each a host object, seconds to build), when 150 s are left.
if [ $((END - SECONDS)) -ge 150 ]; then
    N=native/src/ops/lp_norm/nvidia.cc
    F="-DINFINI_LP_NORM_COLS_SPLIT_ROWS=8"
    VARIANT_CXXFLAGS="$F" build_variant_pair build_split8 "$F" $N
    F="-DINFINI_LP_NORM_RAGGED_MIN_LEN_2B=26"
    VARIANT_CXXFLAGS="$F" build_variant_pair build_rml2b "$F" $N
    grep "^lp_norm" notes/sweeps/session42_behind.txt >/tmp/lp42.txt
    $PY tools/shaped_cases.py colscut 43 40 >/tmp/cut.txt
    $PY tools/shaped_cases.py lpshort16 43 60 >/tmp/short16.txt
    ab_repro 25 lp42=default=build lp42=split8=build_split8 cut=default=build cut=split8=build_split8 \
        short16=default=build short16=rml2b=build_rml2b
fi
sweep_if_time 43
step "done"
