#!/usr/bin/env bash
# Session rs6 (issue 12, RandomSample): the few-rows sampling kernel in two
# widths (MaxTeam 8 for teams of <= 8 blocks, 16 for teams of 16). One device
# call on a cold H100, from the repository root, after `source .gpu/setup.sh`:
#     bash tools/verify_rs6.sh          (run with timeout_s 240; stops itself before 200 s)
# Builds the default library (build/) and, beside it, build/t8: the same tree
# with -DINFINI_RS_SAMPLE_TEAM=8 (no teams of 16; every sampling launch on the
# 8-wide instances), its RandomSample objects compiled alongside the default
# build, the rest copied from it. Then tools/rs5_ab.py default / t8, A B A B
# (graph and ABI eager µs per case, every row checked against the F64 rule),
# and the RandomSample GPU tests on the default library.
# Writes under $OUT (3 files): rs6_ab.txt (read first: the summary at its
# end), rs6_tests.txt, rs6_log.txt (builds, the SASS identity check of the
# 8-wide few-rows instances between the two builds, step times).
# Prediction: n=32000 and 8x151936 equal to t8 within 0.1 µs (today's main is
# 0.3-0.4 µs slower there); n=151936 / 262144 single rows ~23.6 / ~24.7 (as
# main: 16-wide, 1.7-2.2 µs below t8).
NAME=rs6
END=195
source "$(dirname "$0")/verify_common.sh"
T8=build/t8
T8FLAGS=-DINFINI_RS_SAMPLE_TEAM=8
RS=native/src/ops/random_sample
build_rs_pair "$T8" "$T8FLAGS"

step "SASS: the 8-wide few-rows instances of the two builds (expected: identical)"
# sampleKernel<__half, 8, TopP, 8>: _ZN6infini13random_sample6nvidia12sampleKernelI6__halfLi8ELb0ELi8EEEv...
timeout -k 3 "$(cap 30)" $PY tools/sass_compare.py "build/obj/$RS/kernel_f16.cu.o" "$T8/obj/$RS/kernel_f16.cu.o" \
    'sampleKernelI6__halfLi8ELb[01]ELi8E' >>"$LOG" 2>&1

A="$PWD/build/lib/libinfiniop.so"
B="$PWD/$T8/lib/libinfiniop.so"
ab() { # label, library
    INFINIOP_LIBRARY="$2" timeout -k 3 "$(cap 40)" $PY tools/rs5_ab.py "$1" >>"$OUT/rs6_ab.txt" 2>&1
    echo "$1 rc=$?" | tee -a "$LOG" "$OUT/rs6_ab.txt"
}
step "A/B round 1: default, t8"
ab default "$A"; ab t8 "$B"

step "GPU tests (default library): test_random_sample.py, test_random_sample_argmax.py"
timeout -k 3 "$(cap 50)" $PY -m pytest tests/test_random_sample.py tests/test_random_sample_argmax.py -q \
    -p no:cacheprovider >"$OUT/rs6_tests.txt" 2>&1
echo "random_sample tests rc=$? (124: stopped at its cap, see the count above)" | tee -a "$LOG" "$OUT/rs6_tests.txt"

if [ $((END - SECONDS)) -ge 50 ]; then
    step "A/B round 2: default, t8"
    ab default "$A"; ab t8 "$B"
else
    step "A/B round 2 skipped: $((END - SECONDS)) s left"
fi
$PY - "$OUT/rs6_ab.txt" >>"$OUT/rs6_ab.txt" 2>&1 <<'PY'
import collections, statistics, sys
t = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = [x.strip() for x in line.split("|")]
    if len(f) == 5 and f[2].startswith("graph"):
        t[(f[1], f[0])].append((float(f[2].split()[1]), float(f[3].split()[1])))
print("\nsummary (median of rounds), graph / eager µs: default | t8 | default - t8 (graph)")
for case in dict.fromkeys(k[0] for k in t):
    a, b = t.get((case, "default"), []), t.get((case, "t8"), [])
    if a and b:
        m = lambda v, i: statistics.median(x[i] for x in v)
        print(f"{case}: {m(a,0):.2f} / {m(a,1):.2f} | {m(b,0):.2f} / {m(b,1):.2f} | {m(a,0) - m(b,0):+.2f}")
PY
step "done"
