#!/usr/bin/env bash
# Written in session 35 for the next session's first call (H200), which had no device time left: the Split
# plan's Factor kernel (rows.cu's splitFactorKernel, -DINFINI_LP_NORM_SPLIT_FACTOR_CHUNKS=64 in nvidia.cc:
# each row's chunk records merged once instead of in every Apply block) against the default, on the sweep's
# LPNorm rows that are no multiple of a pack (scalar Split: one row of 47.5M F16 1176 µs against PyTorch's
# 154). Runs: the long-row GPU tests and memcheck / racecheck on the split plans with the variant, then
# tools/behind_sweep.py --repro on the LPNorm lines of notes/sweeps/session35_behind.txt on both libraries.
# Files under $OUT: s36a_log.txt, tests_f64.txt, sanitize.txt, repro.txt.
NAME=${NAME:-s36a}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
VARIANT_CXXFLAGS="-DINFINI_LP_NORM_SPLIT_FACTOR_CHUNKS=64" build_variant_pair build_f64 "" native/src/ops/lp_norm/nvidia.cc
INFINIOP_LIBRARY=$PWD/build_f64/lib/libinfiniop.so lp_tests "$OUT/tests_f64.txt" 150 "long-row GPU tests, build_f64" \
    "few_long_rows or split_over or held_on_chip"
INFINIOP_LIBRARY=$PWD/build_f64/lib/libinfiniop.so SANITIZE_CAP=40 lpn_sanitize memcheck "$OUT/sanitize.txt" split
INFINIOP_LIBRARY=$PWD/build_f64/lib/libinfiniop.so SANITIZE_CAP=40 lpn_sanitize racecheck "$OUT/sanitize.txt" split
grep "^lp_norm" notes/sweeps/session35_behind.txt >/tmp/lp_behind.txt
probe_rounds "$OUT/repro.txt" "tools/behind_sweep.py --repro /tmp/lp_behind.txt 12" build/lib build_f64/lib
step "done"
