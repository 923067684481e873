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
late_trigger_variant build/late
rearrange_gpu_checks "$OUT/${NAME}_tests.txt"
eager_probe_rounds "$OUT/${NAME}_eager.txt" build/lib build/late/lib
for op in rearrange mul; do
    for lib in lib late/lib; do
        INFINIOP_LIBRARY=$PWD/build/$lib/libinfiniop.so end_to_end_bench "$OUT/${NAME}_bench_${lib%%/*}_$op" 90 40 --op $op
    done
done
step "done"
