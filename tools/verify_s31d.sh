#!/usr/bin/env bash
# Session 31, closing call: the library where Hold asks the stream before its launch and the cluster /
# cooperative launches that a smaller stream refuses run again on portable plans (LPNorm) or teams of one
# block (RandomSample): tools/green_ctx_probe.py on those cases with the kernels each call launched, then
# the closing checks (the whole suite, tests/test_green_context.py in its "others" shard; the end-to-end
# bench). Files under $OUT: s31d_log.txt, green.txt, gpu_suite.txt, bench.txt, bench.json.
NAME=${NAME:-s31d}
END=${END:-585}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
library_build
green_probe "$OUT/green.txt" build/lib 25 --primary-only lp_hold_bf16_1x4M lp_grid_f32_32x1M lp_pipe_bf16_64x1.5M \
    lp_cluster_f32_128x512K sample_f32_128K argmax_bf16_128K argmax_batch_f16_4x128K
whole_suite 300
end_to_end_bench "$OUT/bench" 90 50
step "done"
