#!/usr/bin/env bash
# Session 30, call 7: 8-byte rows of 32K-64K within L2 (the library: Split or Cluster; 200x32K F64 Split
# 72.4 µs against PyTorch's 62.2, Pipe 43.7 in the harness) with Pipe for them
# (-DINFINI_LP_NORM_PIPE_F64_IN_L2=1) against the library, two rounds interleaved, PyTorch in each, then
# the Pipe tests on the variant. Files under $OUT: s30i_log.txt, pipe_l2_ab.txt, pipe_tests.txt.
NAME=${NAME:-s30i}
END=${END:-330}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
VARIANT_CXXFLAGS="-DINFINI_LP_NORM_PIPE_F64_IN_L2=1" build_variant_pair build/pipel2 "" native/src/ops/lp_norm/nvidia.cc
export PYTHONPATH="$PWD/tools:$PYTHONPATH"
probe_rounds "$OUT/pipe_l2_ab.txt" "tools/long_rows_probe.py (PipeL2)" build/lib build/pipel2/lib
export INFINIOP_LIBRARY=$PWD/build/pipel2/lib/libinfiniop.so
lp_tests "$OUT/pipe_tests.txt" 120 "Pipe GPU tests on the variant" "pipe_wide"
unset INFINIOP_LIBRARY
step "done"
