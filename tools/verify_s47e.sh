#!/usr/bin/env bash
# Session 47's closing call (H200): the whole suite with GPU tests required on the final tree, which has
# every merge of the session as its default: SMALL_TILES 1 (kernels_u2.cu byte-identical to call 4's
# build_small, kernels_u1.cu to before), wide slabs in place of column chunks (call 4 tested the default),
# 128-thread tiled Mul blocks for 2-byte types (call 4 tested the default).
# Files under $OUT: s47e_log.txt, gpu_suite.txt.
NAME=${NAME:-s47e}
END=${END:-330}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
library_build
whole_suite 215
step "done"
