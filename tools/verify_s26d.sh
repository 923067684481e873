#!/usr/bin/env bash
# Session 26's closing run: the library, the whole test suite on the GPU (tools/gpu_suite.sh, GPU tests
# required) and the end-to-end bench of every operator with PyTorch in the same run.
# Files under $OUT: s26d_log.txt, gpu_suite.txt, bench.txt / .json.
NAME=${NAME:-s26d}
END=${END:-580}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
library_build
whole_suite 330
end_to_end_bench "$OUT/bench" 150 60
step "done"
