#!/usr/bin/env bash
# Session 28: the Cols plan's statistics in one pass, Factor's merge without a chain of divisions, F64
# threads holding at most 8 rows (cols.cu, nvidia.cc), against the library of the previous main
# (build/base_lib, carried): tools/cols_probe.py on both, two rounds interleaved; the LPNorm tests of
# other axes on the GPU; memcheck on tools/sanitize_lpn.py's Cols cases. Files under $OUT:
# s28a_log.txt, probe.txt, cols_tests.txt, memcheck.txt.
NAME=${NAME:-s28a}
END=${END:-480}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
probe_rounds "$OUT/probe.txt" tools/cols_probe.py build/lib build/base_lib
cols_gpu_tests "$OUT/cols_tests.txt" 200
lpn_sanitize memcheck "$OUT/memcheck.txt" cols
step "done"
