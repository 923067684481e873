#!/usr/bin/env bash
# Session 23: the odd word tiles' trigger (library: once the tile is loaded) against the old one at
# entry (-DINFINI_REARRANGE_ODD_TRIGGER=0) on odd-pitch F16 transposes from 257² to 4097²
# (tools/small_calls_probe.py --odd), two rounds interleaved: do one-wave grids lose what 4097²
# gained? Files: s23l_log.txt, s23l_probe.txt.
NAME=${NAME:-s23l}
END=${END:-300}
source "$(dirname "$0")/verify_common.sh"
build_variant_pair build/entry -DINFINI_REARRANGE_ODD_TRIGGER=0 native/src/ops/rearrange/kernels_u2.cu
probe_rounds "$OUT/${NAME}_probe.txt" "tools/small_calls_probe.py --odd" build/lib build/entry/lib
step "done"
