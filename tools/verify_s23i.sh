#!/usr/bin/env bash
# Session 23: the odd word tiles' PDL trigger at the blocks' exit (-DINFINI_REARRANGE_ODD_TRIGGER=2)
# against the library's (1: once a block has its tile in shared memory) on 4097² F16:
# tools/eager_probe.py --batches (two rounds) and `python -m infiniop_py bench --op rearrange` twice
# on each. (Run on branch dev/rearr-odd-tune as the library at exit against a knob for 1; this is
# the same comparison from main.) Files: s23i_log.txt, s23i_eager.txt, s23i_bench_{lib,exit}{,2}.txt.
NAME=${NAME:-s23i}
END=${END:-400}
source "$(dirname "$0")/verify_common.sh"
build_variant_pair build/exit -DINFINI_REARRANGE_ODD_TRIGGER=2 native/src/ops/rearrange/kernels_u2.cu
eager_probe_rounds "$OUT/${NAME}_eager.txt" build/lib build/exit/lib
for lib in lib exit/lib lib exit/lib; do
    tag=${lib%%/*}
    [ -e "$OUT/${NAME}_bench_$tag.txt" ] && tag=${tag}2
    INFINIOP_LIBRARY=$PWD/build/$lib/libinfiniop.so end_to_end_bench "$OUT/${NAME}_bench_$tag" 60 30 --op rearrange
done
rm -f "$OUT"/${NAME}_bench_*.json # (8 files come back)
step "done"
