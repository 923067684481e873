#!/usr/bin/env bash
# Session 18: Hold with every read a bulk copy (the register packs reach the registers through the
# ring). One device call: the harness (tools/lpn7_bench.cu) plain and with the stage trace, built
# beside the library; LPN7_ONLY=hold (checks, then graph µs of Hold's cases beside Pipe, TwoPass and
# the copy); LPN7_ONLY=holdtrace; the Hold GPU tests; tools/sanitize_lpn.py hold under memcheck.
# Writes under $OUT: ${NAME}_log.txt, ${NAME}_hold.txt, ${NAME}_trace.txt, ${NAME}_tests.txt, ${NAME}_sanitize.txt.
# QUICK=1: the harness only (no library, tests or sanitizer); NAME=...: another prefix; HINT_AB=1: also
# the harness built with -DINFINI_LP_NORM_HOLD_DROP_HINT=0 (${NAME}_nohint.txt); TESTS_K=...: the tests'
# -k selection; AB_FLAGS="-D...": also the harness built with those flags (${NAME}_ab.txt), e.g.
# AB_FLAGS=-DINFINI_LP_NORM_HOLD_STEAL=0 on branch dev/hold-steal; with AB_TRACE=1 also its stage trace (${NAME}_ab_trace.txt);
# TESTS_CAP=...: the tests' time limit (s, default 120).
NAME=${NAME:-s18b}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
harness_build_bg tools/lpn7_bench.cu build/${NAME}_lpn7
harness_build_bg tools/lpn7_bench.cu build/${NAME}_trace -DINFINI_LP_NORM_STAGE_TRACE
[ "${HINT_AB:-0}" = 1 ] && harness_build_bg tools/lpn7_bench.cu build/${NAME}_nohint -DINFINI_LP_NORM_HOLD_DROP_HINT=0
[ -n "${AB_FLAGS:-}" ] && harness_build_bg tools/lpn7_bench.cu build/${NAME}_ab ${AB_FLAGS}
[ -n "${AB_FLAGS:-}" ] && [ "${AB_TRACE:-0}" = 1 ] &&
    harness_build_bg tools/lpn7_bench.cu build/${NAME}_ab_tr -DINFINI_LP_NORM_STAGE_TRACE ${AB_FLAGS}
[ "${QUICK:-0}" = 1 ] || library_build
wait
tail -n 3 "$OUT"/${NAME}_*_build.txt >>"$LOG"
step "harness LPN7_ONLY=hold"
LPN7_ONLY=hold timeout -k 3 "$(cap 120)" build/${NAME}_lpn7 "$OUT/${NAME}_hold.txt" >>"$LOG" 2>&1
echo "harness rc=$? (1: a check failed; 124: stopped at its cap)" | tee -a "$LOG"
if [ "${HINT_AB:-0}" = 1 ]; then
    step "harness LPN7_ONLY=hold, no evict-first hint"
    LPN7_ONLY=hold timeout -k 3 "$(cap 120)" build/${NAME}_nohint "$OUT/${NAME}_nohint.txt" >>"$LOG" 2>&1
    echo "harness (no hint) rc=$?" | tee -a "$LOG"
fi
if [ -n "${AB_FLAGS:-}" ]; then
    step "harness LPN7_ONLY=hold, built with ${AB_FLAGS}"
    LPN7_ONLY=hold timeout -k 3 "$(cap 120)" build/${NAME}_ab "$OUT/${NAME}_ab.txt" >>"$LOG" 2>&1
    echo "harness (${AB_FLAGS}) rc=$?" | tee -a "$LOG"
fi
step "harness LPN7_ONLY=holdtrace"
LPN7_ONLY=holdtrace timeout -k 3 "$(cap 60)" build/${NAME}_trace "$OUT/${NAME}_trace.txt" >>"$LOG" 2>&1
echo "trace rc=$?" | tee -a "$LOG"
if [ -n "${AB_FLAGS:-}" ] && [ "${AB_TRACE:-0}" = 1 ]; then
    step "harness LPN7_ONLY=holdtrace, built with ${AB_FLAGS}"
    LPN7_ONLY=holdtrace timeout -k 3 "$(cap 60)" build/${NAME}_ab_tr "$OUT/${NAME}_ab_trace.txt" >>"$LOG" 2>&1
    echo "trace (${AB_FLAGS}) rc=$?" | tee -a "$LOG"
fi
if [ "${QUICK:-0}" = 1 ]; then step "done (quick)"; exit 0; fi
step "Hold GPU tests"
timeout -k 3 "$(cap "${TESTS_CAP:-120}")" $PY -m pytest -q -p no:cacheprovider -rfEs --durations=6 \
    -o faulthandler_timeout=90 tests/test_lp_norm.py \
    -k "${TESTS_K:-held_on_chip or few_long_rows}" >"$OUT/${NAME}_tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"
tail -n 2 "$OUT/${NAME}_tests.txt" >>"$LOG"
step "tools/sanitize_lpn.py hold under memcheck"
timeout -k 3 "$(cap 60)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY tools/sanitize_lpn.py hold >"$OUT/${NAME}_sanitize.txt" 2>&1
echo "memcheck rc=$? (99: errors reported; 124: stopped at its cap)" | tee -a "$LOG" "$OUT/${NAME}_sanitize.txt"
step "done"
