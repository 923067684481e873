#!/usr/bin/env bash
# Session 23: short Rearrange and Mul calls with every tile kernel and Mul's contiguous kernel
# triggering the next launch at exit (-DINFINI_REARRANGE_TRIGGER_AT_EXIT=1
# -DINFINI_ELEMENTWISE_TRIGGER_AT_EXIT=1) against the library (at entry), eager and as graph replays
# (tools/small_calls_probe.py), two rounds interleaved. Files: s23k_log.txt, s23k_probe.txt.
NAME=${NAME:-s23k}
END=${END:-400}
source "$(dirname "$0")/verify_common.sh"
R=native/src/ops/rearrange M=native/src/ops/mul
build_variant_pair build/late "-DINFINI_REARRANGE_TRIGGER_AT_EXIT=1 -DINFINI_ELEMENTWISE_TRIGGER_AT_EXIT=1" \
    $R/kernels_u1.cu $R/kernels_u2.cu $R/kernels_u4.cu $R/kernels_u8.cu $R/kernels_u16.cu \
    $M/kernels_f16.cu $M/kernels_f32.cu $M/kernels_int_large.cu $M/kernels_int_small.cu
for round in 1 2; do
    for lib in build/lib build/late/lib; do
        step "small_calls_probe, $lib, round $round"
        echo "== $lib, round $round" >>"$OUT/${NAME}_probe.txt"
        INFINIOP_LIBRARY=$PWD/$lib/libinfiniop.so timeout -k 3 "$(cap 90)" $PY tools/small_calls_probe.py \
            >>"$OUT/${NAME}_probe.txt" 2>&1
        echo "rc=$?" | tee -a "$LOG" "$OUT/${NAME}_probe.txt"
    done
done
step "done"
