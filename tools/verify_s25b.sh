#!/usr/bin/env bash
# Session 25: odd word strips (INFINI_REARRANGE_ODD_STRIP = N: a block moves N whole odd word tiles
# along b in turn, the 16 rows a tile shares with the one before kept in a ring in shared memory, the
# next tile's rows loaded before this tile's stores) against the library (one tile a block). Builds
# the library and, at once, kernels_u2.cu at each N of STRIPS; then tools/eager_probe.py --batches on
# every library (two rounds interleaved), the Rearrange GPU tests on every variant, memcheck on the
# odd-pitch selection of the first, and the Rearrange end-to-end bench on the library and the first.
# Files under $OUT: s25b_log.txt, s25b_probe.txt, s25b_tests.txt, s25b_bench_base.txt, s25b_bench_strip.txt.
NAME=${NAME:-s25b}
END=${END:-575}
STRIPS=${STRIPS:-"3 5 2 9"}
source "$(dirname "$0")/verify_common.sh"
obj=native/src/ops/rearrange/kernels_u2.cu
step "build: the library, and kernels_u2.cu with INFINI_REARRANGE_ODD_STRIP in $STRIPS"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
git log --oneline -1 >>"$LOG" 2>&1
pids=""
for n in $STRIPS; do
    rm -rf build/s$n; mkdir -p build/s$n
    timeout -k 3 "$(cap 150)" make -j2 CUDA_ARCHS=90 BUILD=build/s$n EXTRA_NVCCFLAGS="-DINFINI_REARRANGE_ODD_STRIP=$n" \
        build/s$n/obj/$obj.o >build/s${n}_make.log 2>&1 &
    pids="$pids $!"
done
timeout -k 3 "$(cap 150)" make -j12 CUDA_ARCHS=90 >>"$LOG" 2>&1
echo "make (default) rc=$?" | tee -a "$LOG"
libs="build/lib"
for pid in $pids; do wait "$pid"; done
for n in $STRIPS; do
    tail -n 2 build/s${n}_make.log >>"$LOG"
    mkdir -p build/s$n/obj && cp -a -n build/obj/. build/s$n/obj/
    timeout -k 3 "$(cap 60)" make -j16 CUDA_ARCHS=90 BUILD=build/s$n EXTRA_NVCCFLAGS="-DINFINI_REARRANGE_ODD_STRIP=$n" \
        build/s$n/lib/libinfiniop.so build/s$n/lib/libinfinirt.so build/s$n/lib/build_info.json >>"$LOG" 2>&1
    echo "make (strips of $n) rc=$?" | tee -a "$LOG"
    libs="$libs build/s$n/lib"
done
eager_probe_rounds "$OUT/${NAME}_probe.txt" $libs
for n in $STRIPS; do
    step "Rearrange GPU tests, strips of $n"
    echo "== strips of $n" >>"$OUT/${NAME}_tests.txt"
    INFINIOP_LIBRARY=$PWD/build/s$n/lib/libinfiniop.so timeout -k 3 "$(cap 90)" $PY -m pytest -q -x -p no:cacheprovider \
        tests/test_rearrange.py tests/test_properties.py tests/test_fuzz.py >>"$OUT/${NAME}_tests.txt" 2>&1
    echo "tests (strips of $n) rc=$?" | tee -a "$LOG"
    tail -n 1 "$OUT/${NAME}_tests.txt" >>"$LOG"
done
first=${STRIPS%% *}
step "memcheck, odd pitches, strips of $first"
INFINIOP_LIBRARY=$PWD/build/s$first/lib/libinfiniop.so timeout -k 3 "$(cap 90)" compute-sanitizer --tool memcheck \
    --report-api-errors no --error-exitcode 99 $PY -m pytest -q -x -p no:cacheprovider tests/test_rearrange.py \
    -k "((odd or skew or 4097 or 4098 or misaligned or tensor_copy) and nvidia) or dependent" >>"$OUT/${NAME}_tests.txt" 2>&1
echo "memcheck rc=$? (99: errors reported)" | tee -a "$LOG"
tail -n 2 "$OUT/${NAME}_tests.txt" >>"$LOG"
end_to_end_bench "$OUT/${NAME}_bench_base" 60 40 --op rearrange
INFINIOP_LIBRARY="$PWD/build/s$first/lib/libinfiniop.so" end_to_end_bench "$OUT/${NAME}_bench_strip" 60 40 --op rearrange
rm -f "$OUT"/*.json
step "done"
