#!/usr/bin/env bash
# Branch dev/hold-async (and dev/s20): Hold's read phase through per-thread async copies against
# session 18's bulk copies, and the tiles kept in flight. One device call: tools/lpn7_bench.cu built
# four ways side by side (per-thread with the whole ring ahead, per-thread with 4 (the default) and 6 tiles ahead,
# bulk = -DINFINI_LP_NORM_HOLD_PER_THREAD=0), each run with LPN7_ONLY=hold (every check, then graph µs
# of Hold's cases beside Pipe and the copy); the stage trace of per-thread 4 ahead and of bulk.
# REARR=1 (dev/s20: the register transpose too) also builds the library and runs
# tools/rearr4_bench.cu --pdl twice. QUICK=0 also runs the Hold GPU tests, memcheck and racecheck on
# tools/sanitize_lpn.py hold; EAGER=1 runs tools/eager_probe.py --batches on the library. At most 7
# files under $OUT (8 come back): ${NAME}_log.txt (with the builds' tails), ${NAME}_hold.txt (the
# runs), ${NAME}_trace.txt (the traces), ${NAME}_rearr4.txt, ${NAME}_eager.txt, ${NAME}_tests.txt,
# ${NAME}_sanitize.txt.
NAME=${NAME:-s20a}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
export BUILD_LOGS=build/logs
mkdir -p "$BUILD_LOGS"
git log --oneline -1 >>"$LOG" 2>&1
# VARIANTS="name=flag,flag name=..." replaces the four builds (flags comma-separated; "name=" for the
# default build); TRACED="name ..." the traced ones (default: ahead4 bulk).
declare -A FLAGS=([ring]="-DINFINI_LP_NORM_HOLD_AHEAD=0" [ahead4]="-DINFINI_LP_NORM_HOLD_AHEAD=4" [ahead6]="-DINFINI_LP_NORM_HOLD_AHEAD=6"
                  [bulk]="-DINFINI_LP_NORM_HOLD_PER_THREAD=0")
NAMES="ring ahead4 ahead6 bulk"
if [ -n "${VARIANTS:-}" ]; then
    FLAGS=()
    NAMES=""
    for spec in $VARIANTS; do
        FLAGS[${spec%%=*}]=$(echo "${spec#*=}" | tr , ' ')
        NAMES="$NAMES ${spec%%=*}"
    done
fi
TRACED=${TRACED:-ahead4 bulk}
for v in $NAMES; do
    harness_build_bg tools/lpn7_bench.cu "build/${NAME}_$v" ${FLAGS[$v]}
done
for v in $TRACED; do
    harness_build_bg tools/lpn7_bench.cu "build/${NAME}_tr_$v" -DINFINI_LP_NORM_STAGE_TRACE ${FLAGS[$v]}
done
[ "${QUICK:-1}" = 1 ] && [ "${REARR:-0}" = 0 ] && [ "${EAGER:-0}" = 0 ] || library_build
[ "${REARR:-0}" = 1 ] && rearr4_build
wait
tail -n 2 "$BUILD_LOGS"/${NAME}_*_build.txt >>"$LOG"
# run_into FILE BINARY WHAT: the harness's report appended to FILE under a header.
run_into() {
    local tmp=build/logs/report.txt
    echo "==== $3" >>"$1"
    timeout -k 3 "$(cap 60)" "$2" "$tmp" >>"$LOG" 2>&1
    local rc=$?
    cat "$tmp" >>"$1" 2>/dev/null
    rm -f "$tmp"
    echo "$3 rc=$rc (1: a check failed; 124: stopped at its cap)" | tee -a "$LOG" "$1"
}
for v in $NAMES; do
    step "harness LPN7_ONLY=hold, $v (${FLAGS[$v]})"
    LPN7_ONLY=hold run_into "$OUT/${NAME}_hold.txt" "build/${NAME}_$v" "hold $v"
done
for v in $TRACED; do
    step "harness LPN7_ONLY=holdtrace, $v"
    LPN7_ONLY=holdtrace run_into "$OUT/${NAME}_trace.txt" "build/${NAME}_tr_$v" "trace $v"
done
[ "${REARR:-0}" = 1 ] && rearr4_rounds --pdl "$OUT/${NAME}_rearr4.txt" 60
if [ "${EAGER:-0}" = 1 ]; then # the library's eager rows against longer batches and graphs
    step "eager_probe --batches"
    timeout -k 3 "$(cap 90)" $PY tools/eager_probe.py --batches >"$OUT/${NAME}_eager.txt" 2>&1
    echo "eager probe rc=$?" | tee -a "$LOG"
fi
if [ "${QUICK:-1}" = 1 ]; then step "done (quick)"; exit 0; fi
hold_gpu_tests "$OUT/${NAME}_tests.txt" 150
lpn_sanitize memcheck "$OUT/${NAME}_sanitize.txt" hold
lpn_sanitize racecheck "$OUT/${NAME}_sanitize.txt" hold
step "done"
