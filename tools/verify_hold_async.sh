#!/usr/bin/env bash
# Branch dev/hold-async: Hold's read phase through per-thread async copies against session 18's bulk
# copies, and the tiles kept in flight. One device call: tools/lpn7_bench.cu built four ways side by
# side (per-thread with the whole ring ahead, per-thread with 4 and 6 tiles ahead, bulk =
# -DINFINI_LP_NORM_HOLD_PER_THREAD=0), each run with LPN7_ONLY=hold (every check, then graph µs of
# Hold's cases beside Pipe and the copy); the stage trace of per-thread 4 ahead and of bulk. QUICK=0
# also builds the library and runs the Hold GPU tests, memcheck and racecheck on
# tools/sanitize_lpn.py hold. Writes under $OUT: ${NAME}_log.txt, ${NAME}_<variant>.txt,
# ${NAME}_trace_<variant>.txt, ${NAME}_tests.txt, ${NAME}_sanitize.txt.
NAME=${NAME:-s20a}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
declare -A FLAGS=([ring]="" [ahead4]="-DINFINI_LP_NORM_HOLD_AHEAD=4" [ahead6]="-DINFINI_LP_NORM_HOLD_AHEAD=6"
                  [bulk]="-DINFINI_LP_NORM_HOLD_PER_THREAD=0")
for v in ring ahead4 ahead6 bulk; do
    harness_build_bg tools/lpn7_bench.cu "build/${NAME}_$v" ${FLAGS[$v]}
done
for v in ahead4 bulk; do
    harness_build_bg tools/lpn7_bench.cu "build/${NAME}_tr_$v" -DINFINI_LP_NORM_STAGE_TRACE ${FLAGS[$v]}
done
[ "${QUICK:-1}" = 1 ] || library_build
wait
tail -n 2 "$OUT"/${NAME}_*_build.txt >>"$LOG"
for v in ring ahead4 ahead6 bulk; do
    step "harness LPN7_ONLY=hold, $v (${FLAGS[$v]})"
    LPN7_ONLY=hold timeout -k 3 "$(cap 60)" "build/${NAME}_$v" "$OUT/${NAME}_$v.txt" >>"$LOG" 2>&1
    echo "harness $v rc=$? (1: a check failed; 124: stopped at its cap)" | tee -a "$LOG"
done
for v in ahead4 bulk; do
    step "harness LPN7_ONLY=holdtrace, $v"
    LPN7_ONLY=holdtrace timeout -k 3 "$(cap 30)" "build/${NAME}_tr_$v" "$OUT/${NAME}_trace_$v.txt" >>"$LOG" 2>&1
    echo "trace $v rc=$?" | tee -a "$LOG"
done
if [ "${QUICK:-1}" = 1 ]; then step "done (quick)"; exit 0; fi
step "Hold GPU tests"
timeout -k 3 "$(cap 150)" $PY -m pytest -q -p no:cacheprovider -rfEs --durations=4 tests/test_lp_norm.py \
    -k "held_on_chip or dependent_long_rows or long_rows_chained or two_held" >"$OUT/${NAME}_tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"
tail -n 2 "$OUT/${NAME}_tests.txt" >>"$LOG"
lpn_sanitize memcheck "$OUT/${NAME}_sanitize.txt" hold
lpn_sanitize racecheck "$OUT/${NAME}_sanitize.txt" hold
step "done"
