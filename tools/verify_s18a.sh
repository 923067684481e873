#!/usr/bin/env bash
# Session 18, first device call, on dev/rs-wide (main + the RandomSample F32-limit fix behind
# INFINI_RS_WIDE_ROWS, default on). Builds the library and, beside it, build/wide0 (the fix off: sm_90
# SASS identical to main's); then tools/readrate_probe.cu (the per-SM read rate, notes/lp_norm.md);
# LPNorm's GPU tests (their first run since mergedFactorBy, aa3696d); and the RandomSample A/B of
# tools/rs_ab.sh (wide on = default, wide0 = before the fix) with 256-row batches. Writes under $OUT:
# s18a_log.txt, s18a_probe.txt, s18a_lp_gpu.txt, wide0_ab.txt (summary at its end), wide0_picks.txt,
# wide0_tests.txt.
NAME=s18a
END=${END:-570}
source "$(dirname "$0")/verify_common.sh"
harness_build_bg tools/readrate_probe.cu build/readrate_probe
build_rs_pair build/wide0 "-DINFINI_RS_WIDE_ROWS=0"
wait
tail -n 3 "$OUT/readrate_probe_build.txt" >>"$LOG"
step "read-rate probe"
timeout -k 3 "$(cap 90)" build/readrate_probe "$OUT/s18a_probe.txt" >>"$LOG" 2>&1
echo "probe rc=$?" | tee -a "$LOG"
lpnorm_gpu_tests "$OUT/s18a_lp_gpu.txt" 240
export RS_AB_ROWS=256
rs_ab_rounds wide0 build/wide0
step "done"
