#!/usr/bin/env bash
# Session 50's last call (H200, ~300 s of device time left): the final tree, whose 16-bit Cols plans in
# 16-byte packs keep rows of >= 8 packs (INFINI_LP_NORM_COLS_MIN_ROW_BYTES_2B_PACK16 128, host planning
# only; the kernels are call 3's):
# - the Cols GPU tests on the default library;
# - call 3's 70 fresh cases once on it (each checked against float64; call 3 had them on build_p128, whose
#   plans these are for 67 of them, the other 3 now the old default's).
# Files under $OUT: s50d_log.txt, tests.txt, ab.txt.
NAME=${NAME:-s50d}
END=${END:-235}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
library_build
variant_tests build 100 1 tests/test_lp_norm.py "(nvidia and column) or (gpu and (cols or columns))" "nvidia and columns_every_p"
cp notes/sweeps/session50_pack16_cases.txt /tmp/pk.txt
ab_repro 30 pk=final=build
step "done"
