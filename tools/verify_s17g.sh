#!/usr/bin/env bash
# Session 17, the final tree: one device call from the repository root after `source .gpu/setup.sh`.
# The default library and, beside it, build/s17g_nonaligned (hold.cu with its barriers in the
# non-aligned form, -DINFINI_LP_NORM_HOLD_BAR_ALIGNED=0); compute-sanitizer racecheck on
# tools/sanitize_lpn.py's Hold cases with each (the aligned form's report: hazards between the
# workers' statistics and the manager's reads across barrier 1); memcheck on the default; then the
# whole suite with GPU tests required (tools/gpu_suite.sh, test_reliability.py alone at the end);
# bench_lp_norm. Writes under $OUT: s17g_log.txt, s17g_sanitize.txt, gpu_suite.txt, bench_lp_norm.txt.
NAME=s17g
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
build_variant_pair build/s17g_nonaligned "-DINFINI_LP_NORM_HOLD_BAR_ALIGNED=0" native/src/ops/lp_norm/hold.cu
for lib in build/lib build/s17g_nonaligned/lib; do
    step "compute-sanitizer racecheck, tools/sanitize_lpn.py hold, $lib"
    echo "== racecheck $lib" >>"$OUT/s17g_sanitize.txt"
    INFINIOP_LIBRARY=$PWD/$lib/libinfiniop.so timeout -k 3 "$(cap 60)" compute-sanitizer --tool racecheck \
        --report-api-errors no --error-exitcode 99 $PY tools/sanitize_lpn.py hold >>"$OUT/s17g_sanitize.txt" 2>&1
    echo "racecheck $lib rc=$? (99: errors reported; 124: stopped at its cap)" | tee -a "$LOG" "$OUT/s17g_sanitize.txt"
done
step "compute-sanitizer memcheck, tools/sanitize_lpn.py (all plans)"
echo "== memcheck" >>"$OUT/s17g_sanitize.txt"
timeout -k 3 "$(cap 40)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY tools/sanitize_lpn.py >>"$OUT/s17g_sanitize.txt" 2>&1
echo "memcheck rc=$? (99: errors reported; 124: stopped at its cap)" | tee -a "$LOG" "$OUT/s17g_sanitize.txt"
step "whole suite (GPU tests required)"
OUT="$OUT" bash tools/gpu_suite.sh "$(cap 280)" >>"$LOG" 2>&1
echo "gpu_suite rc=$?" | tee -a "$LOG"
bench_if_time infiniop_py.bench.bench_lp_norm "$OUT/bench_lp_norm.txt" 30
step "done"
