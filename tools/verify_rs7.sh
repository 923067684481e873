#!/usr/bin/env bash
# Session rs7 (issue 12, RandomSample): less static code in the sampling kernel (forVectors
# kOneBody, forMarked, blockBest / Lean vecBest); every pick the same. One device call on a cold
# H100, from the repository root, after `source .gpu/setup.sh`:
#     bash tools/verify_rs7.sh          (run with timeout_s 240; stops itself before 200 s)
# Builds the default library (build/: "new") and, beside it, build/rs7old: the same tree with
# -DINFINI_RS_ROLLED=1 -DINFINI_RS_SPARSE=0 -DINFINI_RS_LEAN=0 ("old": session 6's kernel), its
# RandomSample objects compiled alongside the default build, the rest copied from it. Then:
# instructions per sampleKernel instance of both; tools/rs7_picks.py on both libraries (~1500
# cases on every path, compared line by line: expected identical); tools/rs5_ab.py new, old (graph
# and ABI eager µs, every row checked against the F64 rule); the RandomSample GPU tests on the new
# library; a second A/B round (old, new) if 50 s are left.
# Writes under $OUT (4 files): rs7_ab.txt (read first: the summary table at its end),
# rs7_picks.txt (the pick comparison), rs7_tests.txt, rs7_log.txt (builds, SASS counts, times).
# Prediction (notes/random_sample.md, session rs7): picks identical; graph µs old -> new
# n=151936 17.35 -> ~16.4, n=32000 15.3 -> ~14.5, 64x151936 65.6 -> ~56-60.
NAME=rs7
END=195
source "$(dirname "$0")/verify_common.sh"
OLD=build/rs7old
OLDFLAGS="-DINFINI_RS_ROLLED=1 -DINFINI_RS_SPARSE=0 -DINFINI_RS_LEAN=0"
RS=native/src/ops/random_sample
build_rs_pair "$OLD" "$OLDFLAGS"

step "SASS: instructions per sampleKernel instance (F16, BF16), A = new, B = old"
for dt in f16 bf16; do
    timeout -k 3 "$(cap 20)" $PY tools/sass_compare.py "build/obj/$RS/kernel_$dt.cu.o" "$OLD/obj/$RS/kernel_$dt.cu.o" \
        sampleKernel >>"$LOG" 2>&1
done

A="$PWD/build/lib/libinfiniop.so"
B="$PWD/$OLD/lib/libinfiniop.so"
step "picks: tools/rs7_picks.py on both libraries (expected identical)"
INFINIOP_LIBRARY="$A" timeout -k 3 "$(cap 30)" $PY tools/rs7_picks.py >build/rs7_picks_new.txt 2>>"$LOG"
echo "picks (new) rc=$?" | tee -a "$LOG"
INFINIOP_LIBRARY="$B" timeout -k 3 "$(cap 30)" $PY tools/rs7_picks.py >build/rs7_picks_old.txt 2>>"$LOG"
echo "picks (old) rc=$?" | tee -a "$LOG"
$PY tools/rs7_picks.py --compare build/rs7_picks_new.txt build/rs7_picks_old.txt >"$OUT/rs7_picks.txt" 2>&1
cat "$OUT/rs7_picks.txt" >>"$LOG"
head -n 2 "$OUT/rs7_picks.txt"

ab() { # label, library: one round of tools/rs5_ab.py
    INFINIOP_LIBRARY="$2" timeout -k 3 "$(cap 40)" $PY tools/rs5_ab.py "$1" >>"$OUT/rs7_ab.txt" 2>&1
    echo "$1 rc=$?" | tee -a "$LOG" "$OUT/rs7_ab.txt"
}
step "A/B round 1: new, old"
ab new "$A"; ab old "$B"

step "GPU tests on the new library (RandomSample and its argmax)"
TESTS="tests/test_random_sample.py tests/test_random_sample_argmax.py"
timeout -k 3 "$(cap 50)" $PY -m pytest $TESTS -q -p no:cacheprovider >"$OUT/rs7_tests.txt" 2>&1
echo "GPU tests rc=$? (124: stopped at its cap)" | tee -a "$LOG" "$OUT/rs7_tests.txt"

if [ $((END - SECONDS)) -lt 50 ]; then
    step "A/B round 2 skipped: $((END - SECONDS)) s left"
else
    step "A/B round 2: old, new"
    ab old "$B"; ab new "$A"
fi
$PY tools/rs_ab_summary.py "$OUT/rs7_ab.txt" new old >>"$OUT/rs7_ab.txt" 2>&1
tail -n 12 "$OUT/rs7_ab.txt"
step "done"
