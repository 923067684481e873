#!/usr/bin/env bash
# Session 31, call 4: F64 rows of 32K-48K with 2M+ elements below Pipe's rows rule (the library's Split
# there: 100x32K 41.0 µs graph against PyTorch's 35.8 in call 1) on the Hold plan
# (INFINI_LP_NORM_HOLD_F64_MIN_LEN=32768) against the library, long_rows_probe "(E32)" two rounds
# interleaved with PyTorch in each; then racecheck on tools/sanitize_lpn.py's Grid and Pipe cases with
# what time is left. Files under $OUT: s31e_log.txt, e32.txt, racecheck.txt.
NAME=${NAME:-s31e}
END=${END:-280}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
VARIANT_CXXFLAGS="-DINFINI_LP_NORM_HOLD_F64_MIN_LEN=32768" build_variant_pair build_h32 "" native/src/ops/lp_norm/nvidia.cc
PYTHONPATH="$PWD/tools:$PYTHONPATH" probe_rounds "$OUT/e32.txt" "tools/long_rows_probe.py (E32)" build/lib build_h32/lib
SANITIZE_CAP=$((END - SECONDS - 10)) lpn_sanitize racecheck "$OUT/racecheck.txt" "pipe grid"
step "done"
