#!/usr/bin/env bash
# Session 9, second call (issue 12; issue 13's LPNorm sweep alongside), from the repository root
# after `source .gpu/setup.sh`, timeout_s 600:
#   - A/B/C of the sampling kernel: default (the one-warp tail in the small-K instances only)
#     against tt = -DINFINI_RS_TOPP_TAIL=1 (the tail in the top-p instance too: the first call's
#     tree) and nv = -DINFINI_RS_VECTOR_WEIGHTS=0 (the collect's total an element at a time);
#     tools/rs7_picks.py on all three (expected identical), tools/rs5_ab.py rounds A B C C B A;
#   - the RandomSample GPU tests on the default build;
#   - the stage trace (-DINFINI_RS_TRACE build; tools/rs_trace.py: 64x151936, top-p only, ...);
#   - ncu (SpeedOfLight, WarpStateStats, SchedulerStats, Occupancy) of one sampling launch of
#     64x151936 k=50, 1x151936 k=50 and 1x151936 top-p only;
#   - tools/lpn7_bench.cu with LPN7_ONLY=variants (LPNorm TwoPass grids, issue 13).
# Everything lands in $OUT/s9b.tgz; the A/B summary is printed last.
NAME=s9b
END=440
FINAL_OUT=$OUT
export OUT=/tmp/s9b_out
rm -rf "$OUT"; mkdir -p "$OUT"
source "$(dirname "$0")/verify_common.sh"
RS=native/src/ops/random_sample
mkdir -p build
step "lpn7_bench build (background)"
timeout -k 3 "$(cap 200)" "$NVCC" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/include -Inative/src \
    -DINFINI_WITH_NVIDIA tools/lpn7_bench.cu -o build/lpn7_bench >"$OUT/lpn7_build.txt" 2>&1 &
LPN_PID=$!
build_rs_pair build/tt "-DINFINI_RS_TOPP_TAIL=1"
step "trace build (background)"
TR=build/trace
( rm -rf "$TR" && mkdir -p "$TR/obj" && cp -a build/obj/. "$TR/obj/" && rm -f "$TR/obj/$RS/"*.o &&
  timeout -k 3 "$(cap 200)" make -j6 CUDA_ARCHS=90 BUILD="$TR" EXTRA_NVCCFLAGS=-DINFINI_RS_TRACE \
    "$TR/lib/libinfiniop.so" "$TR/lib/libinfinirt.so" >"$OUT/trace_build.txt" 2>&1 ) &
TR_PID=$!
build_rs_pair build/nv "-DINFINI_RS_VECTOR_WEIGHTS=0"
wait "$TR_PID"; echo "trace build rc=$?" | tee -a "$LOG"
wait "$LPN_PID"; echo "lpn7 build rc=$?" | tee -a "$LOG"

lib() { [ "$1" = default ] && echo "$PWD/build/lib/libinfiniop.so" || echo "$PWD/build/$1/lib/libinfiniop.so"; }
step "picks on default, tt, nv"
for v in default tt nv; do
    INFINIOP_LIBRARY="$(lib $v)" timeout -k 3 "$(cap 30)" $PY tools/rs7_picks.py >"build/picks_$v.txt" 2>>"$LOG"
done
for v in tt nv; do
    $PY tools/rs7_picks.py --compare build/picks_default.txt "build/picks_$v.txt" >"$OUT/picks_$v.txt" 2>&1
    echo "picks default vs $v rc=$?: $(sed -n 2p "$OUT/picks_$v.txt")" | tee -a "$LOG"
done
AB="$OUT/ab.txt"
for v in default tt nv nv tt default; do
    step "A/B: $v"
    RS_AB_ARGMAX=0 INFINIOP_LIBRARY="$(lib $v)" timeout -k 3 "$(cap 40)" $PY tools/rs5_ab.py "$v" >>"$AB" 2>&1
    echo "$v rc=$?" | tee -a "$LOG"
done
step "GPU tests (default)"
timeout -k 3 "$(cap 60)" $PY -m pytest tests/test_random_sample.py tests/test_random_sample_argmax.py -q \
    -p no:cacheprovider >"$OUT/tests.txt" 2>&1
echo "tests rc=$?: $(tail -n 1 "$OUT/tests.txt")" | tee -a "$LOG"
step "stage trace"
INFINIOP_LIBRARY="$PWD/$TR/lib/libinfiniop.so" timeout -k 3 "$(cap 40)" $PY tools/rs_trace.py >"$OUT/trace.txt" 2>&1
$PY tools/rs_trace.py --summary "$OUT/trace.txt" >"$OUT/trace_summary.txt" 2>&1
for c in sample_64x151936 sample_151936 sample_topp_151936; do
    step "ncu $c"
    timeout -k 3 "$(cap 40)" ncu --clock-control none -k regex:sampleKernel --launch-skip 3 --launch-count 1 \
        --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy \
        --section LaunchStats $PY tools/ncu_cases.py "$c" >"$OUT/ncu_$c.txt" 2>&1
    echo "ncu $c rc=$?" | tee -a "$LOG"
done
step "lpn7 sweep"
LPN7_ONLY=variants timeout -k 3 "$(cap 120)" build/lpn7_bench "$OUT/lpn7_sweep_full.txt" >"$OUT/lpn7_sweep.txt" 2>&1
echo "lpn7 sweep rc=$?" | tee -a "$LOG"
step "done"
tar czf "$FINAL_OUT/s9b.tgz" -C "$OUT" .
$PY tools/rs_ab_summary.py "$AB" default tt
$PY tools/rs_ab_summary.py "$AB" default nv
cat "$OUT/trace_summary.txt"
tail -n 30 "$OUT/lpn7_sweep.txt"
