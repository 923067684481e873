#!/usr/bin/env bash
# Session 31, call 2: streams with fewer SMs than the device (stream_sms.h). The library against a build
# without the check (INFINI_STREAM_SMS_CHECK=0, as before): tools/green_ctx_probe.py on a 16-SM green
# context (every case, with the kernels each call launched; the check-less build on the two Hold cases
# whose rows span more blocks than 16 SMs hold), the check's host cost (tools/stream_sms_cost.cu), and
# tests/test_green_context.py. Files under $OUT: s31c_log.txt, green.txt, green_nocheck.txt, cost.txt,
# green_tests.txt.
NAME=${NAME:-s31c}
END=${END:-570}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
harness_build_bg tools/stream_sms_cost.cu build/stream_sms_cost native/src/common/cuda/stream_sms_nvidia.cc
VARIANT_CXXFLAGS="-DINFINI_STREAM_SMS_CHECK=0" build_variant_pair build_nocheck "-DINFINI_STREAM_SMS_CHECK=0" \
    native/src/ops/random_sample/nvidia.cu native/src/ops/lp_norm/nvidia.cc
wait
green_probe "$OUT/green.txt" build/lib 25 --primary-only
green_probe "$OUT/green_nocheck.txt" build_nocheck/lib 25 --primary-only lp_hold_bf16_1x4M lp_hold_dram_f64_4x4M
step "stream_sms_cost"
timeout -k 3 "$(cap 30)" build/stream_sms_cost >"$OUT/cost.txt" 2>&1
echo "rc=$?" | tee -a "$LOG" "$OUT/cost.txt"
step "tests/test_green_context.py"
timeout -k 3 "$(cap 240)" $PY -m pytest -q -p no:cacheprovider -rfEs --durations=5 tests/test_green_context.py \
    >"$OUT/green_tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"
tail -n 2 "$OUT/green_tests.txt" >>"$LOG"
step "done"
