#!/usr/bin/env bash
# Session 24's closing call: the end-to-end bench of every operator with PyTorch in the same run
# (Hold's scaleWords now device.cuh's scalePack: its 32x1M row against this session's first bench),
# memcheck on the Hold plan of the default library, and the last LPNorm GPU tests that call 6's Grid
# library run did not reach within its cap (the dependent chains, the shared and offset workspaces),
# one by one with their times.
# Files under $OUT: s24g_log.txt, s24g_bench.txt, hold_memcheck.txt, grid_rest.txt.
NAME=${NAME:-s24g}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
VARIANT_CXXFLAGS=-DINFINI_LP_NORM_GRID=1 build_variant_pair build/grid "" native/src/ops/lp_norm/nvidia.cc
end_to_end_bench "$OUT/${NAME}_bench" 200 60
lpn_sanitize memcheck "$OUT/hold_memcheck.txt" hold
step "LPNorm GPU tests on the Grid library: the rest of call 6's"
INFINIOP_LIBRARY="$PWD/build/grid/lib/libinfiniop.so" timeout -k 3 "$(cap 200)" $PY -m pytest -v -p no:cacheprovider \
    -rfEs --durations=10 tests/test_lp_norm.py -k "dependent_long_rows or one_workspace or workspace_at_any" \
    >"$OUT/grid_rest.txt" 2>&1
echo "grid rest rc=$? (124: stopped at its cap)" | tee -a "$LOG"
tail -n 3 "$OUT/grid_rest.txt" >>"$LOG"
rm -f "$OUT"/*.json
step "done"
