#!/usr/bin/env bash
# Session 23: the odd word tiles' trigger (library: once the tile is loaded) against the old one at
# entry (-DINFINI_REARRANGE_ODD_TRIGGER=0) on odd-pitch F16 transposes from 257² to 4097²
# (tools/small_calls_probe.py --odd), two rounds interleaved: do one-wave grids lose what 4097²
# gained? Files: s23l_log.txt, s23l_probe.txt.
NAME=${NAME:-s23l}
END=${END:-300}
source "$(dirname "$0")/verify_common.sh"
build_variant_pair build/entry -DINFINI_REARRANGE_ODD_TRIGGER=0 native/src/ops/rearrange/kernels_u2.cu
for round in 1 2; do
    for lib in build/lib build/entry/lib; do
        step "small_calls_probe --odd, $lib, round $round"
        echo "== $lib, round $round" >>"$OUT/${NAME}_probe.txt"
        INFINIOP_LIBRARY=$PWD/$lib/libinfiniop.so timeout -k 3 "$(cap 60)" $PY tools/small_calls_probe.py --odd \
            >>"$OUT/${NAME}_probe.txt" 2>&1
        echo "rc=$?" | tee -a "$LOG" "$OUT/${NAME}_probe.txt"
    done
done
step "done"
