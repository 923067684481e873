#!/usr/bin/env bash
# A/B of a RandomSample build variant against the default build, in one device call on a cold
# H100 (issue 12), from the repository root after `source .gpu/setup.sh`:
#     bash tools/rs_ab.sh NAME "VARIANT_NVCCFLAGS" [END seconds, default 190]
# e.g. `bash tools/rs_ab.sh nopdl -DINFINI_RS_PDL=0` (eager PDL off). build_rs_pair
# (verify_common.sh) builds both; then tools/rs5_ab.py default / NAME, A B A B (graph and ABI eager
# µs per case, every row checked against the float64 rule; with the argmax rows), and the
# RandomSample GPU tests on the default library between the rounds; before them the picks of
# tools/rs7_picks.py on both libraries, compared line by line. Writes under $OUT (4 files):
# NAME_ab.txt (read first: the summary at its end), NAME_picks.txt, NAME_tests.txt, NAME_log.txt.
NAME=$1
VFLAGS=$2
END=${3:-190}
source "$(dirname "$0")/verify_common.sh"
VB=build/$NAME
build_rs_pair "$VB" "$VFLAGS"
AB="$OUT/${NAME}_ab.txt"
ab() { # label, library
    RS_AB_ARGMAX=1 INFINIOP_LIBRARY="$2" timeout -k 3 "$(cap 45)" $PY tools/rs5_ab.py "$1" >>"$AB" 2>&1
    echo "$1 rc=$?" | tee -a "$LOG" "$AB"
}
step "picks: tools/rs7_picks.py on both libraries (expected identical)"
INFINIOP_LIBRARY="$PWD/build/lib/libinfiniop.so" timeout -k 3 "$(cap 30)" $PY tools/rs7_picks.py >"build/${NAME}_picks_default.txt" 2>>"$LOG"
INFINIOP_LIBRARY="$PWD/$VB/lib/libinfiniop.so" timeout -k 3 "$(cap 30)" $PY tools/rs7_picks.py >"build/${NAME}_picks_$NAME.txt" 2>>"$LOG"
$PY tools/rs7_picks.py --compare "build/${NAME}_picks_default.txt" "build/${NAME}_picks_$NAME.txt" >"$OUT/${NAME}_picks.txt" 2>&1
echo "picks compared rc=$? (1: some differ, see ${NAME}_picks.txt)" | tee -a "$LOG"
head -n 2 "$OUT/${NAME}_picks.txt" | tee -a "$LOG"
step "A/B round 1"
ab default "$PWD/build/lib/libinfiniop.so"; ab "$NAME" "$PWD/$VB/lib/libinfiniop.so"
step "GPU tests (default library): test_random_sample.py, test_random_sample_argmax.py"
timeout -k 3 "$(cap 50)" $PY -m pytest tests/test_random_sample.py tests/test_random_sample_argmax.py -q \
    -p no:cacheprovider >"$OUT/${NAME}_tests.txt" 2>&1
echo "tests rc=$? (124: stopped at its cap, see the count above)" | tee -a "$LOG" "$OUT/${NAME}_tests.txt"
if [ $((END - SECONDS)) -ge 50 ]; then
    step "A/B round 2"
    ab "$NAME" "$PWD/$VB/lib/libinfiniop.so"; ab default "$PWD/build/lib/libinfiniop.so"
else
    step "A/B round 2 skipped: $((END - SECONDS)) s left"
fi
$PY tools/rs_ab_summary.py "$AB" default "$NAME" >>"$AB" 2>&1
step "done"
