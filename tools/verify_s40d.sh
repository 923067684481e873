#!/usr/bin/env bash
# Session 40, call 4 (H200), closing, on the little device time left (~440 s): the default library with
# call 3's winners on (LPNorm's Split statistics: one-pass sums first, 3 blocks an SM; Rearrange's tile
# fill gate at 65% for 2-byte units) and the whole suite, GPU tests required.
# Files under $OUT: s40d_log.txt, gpu_suite.txt.
NAME=${NAME:-s40d}
END=${END:-340}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
whole_suite 235
step "done"
