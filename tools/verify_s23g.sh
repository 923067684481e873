#!/usr/bin/env bash
# Session 23: the odd word tiles now let the next launch in only as their blocks exit (the library's
# new default). One call: the default library beside a variant where every other tile kernel and the
# contiguous elementwise (Mul) kernel do the same (-DINFINI_REARRANGE_TRIGGER_AT_EXIT=1
# -DINFINI_ELEMENTWISE_TRIGGER_AT_EXIT=1, a measuring knob); the Rearrange GPU tests and memcheck on
# the default; tools/eager_probe.py --batches on both (two rounds); `python -m infiniop_py bench --op
# rearrange` and `--op mul` on both, PyTorch in the same run. Files: s23g_log.txt, s23g_tests.txt,
# s23g_eager.txt, s23g_bench_{lib,late}_{rearrange,mul}.txt (+ .json).
NAME=${NAME:-s23g}
END=${END:-580}
source "$(dirname "$0")/verify_common.sh"
R=native/src/ops/rearrange M=native/src/ops/mul
build_variant_pair build/late "-DINFINI_REARRANGE_TRIGGER_AT_EXIT=1 -DINFINI_ELEMENTWISE_TRIGGER_AT_EXIT=1" \
    $R/kernels_u1.cu $R/kernels_u2.cu $R/kernels_u4.cu $R/kernels_u8.cu $R/kernels_u16.cu \
    $M/kernels_f16.cu $M/kernels_f32.cu $M/kernels_int_large.cu $M/kernels_int_small.cu
step "Rearrange GPU tests (build/lib)"
timeout -k 3 "$(cap 150)" $PY -m pytest -q -p no:cacheprovider -rfEs tests/test_rearrange.py tests/test_properties.py \
    tests/test_fuzz.py >"$OUT/${NAME}_tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"
tail -n 2 "$OUT/${NAME}_tests.txt" >>"$LOG"
step "memcheck: 4097, odd pitches, dependent chains (build/lib)"
timeout -k 3 "$(cap 120)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
    $PY -m pytest -q -x -p no:cacheprovider tests/test_rearrange.py \
    -k "(4097 or odd or dependent) and not cpu" >>"$OUT/${NAME}_tests.txt" 2>&1
echo "memcheck rc=$? (99: errors reported)" | tee -a "$LOG"
tail -n 2 "$OUT/${NAME}_tests.txt" >>"$LOG"
eager_probe_rounds "$OUT/${NAME}_eager.txt" build/lib build/late/lib
for op in rearrange mul; do
    for lib in lib late/lib; do
        INFINIOP_LIBRARY=$PWD/build/$lib/libinfiniop.so end_to_end_bench "$OUT/${NAME}_bench_${lib%%/*}_$op" 90 40 --op $op
    done
done
step "done"
