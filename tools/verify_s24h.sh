#!/usr/bin/env bash
# Session 24: the other tile kernels (tileKernel, word, skewed and skewed word tiles) letting the next
# launch in once the block's tile is in shared memory (-DINFINI_REARRANGE_TILE_TRIGGER=1, as the odd
# word tiles do since session 23) against the library (at entry): short calls eager and as graph
# replays (tools/small_calls_probe.py, two rounds interleaved), the Rearrange bench rows on both
# libraries, and the Rearrange GPU tests of dependent chains and graphs on the variant.
# Files: s24h_log.txt, s24h_probe.txt, s24h_bench_base.txt, s24h_bench_tl.txt, s24h_tests.txt.
NAME=${NAME:-s24h}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
r=native/src/ops/rearrange
build_variant_pair build/tl "-DINFINI_REARRANGE_TILE_TRIGGER=1" \
    $r/kernels_u1.cu $r/kernels_u2.cu $r/kernels_u4.cu $r/kernels_u8.cu $r/kernels_u16.cu
probe_rounds "$OUT/${NAME}_probe.txt" "tools/small_calls_probe.py" build/lib build/tl/lib
end_to_end_bench "$OUT/${NAME}_bench_base" 80 60 --op rearrange
INFINIOP_LIBRARY="$PWD/build/tl/lib/libinfiniop.so" end_to_end_bench "$OUT/${NAME}_bench_tl" 80 60 --op rearrange
step "Rearrange GPU tests on the variant: dependent chains, graphs"
INFINIOP_LIBRARY="$PWD/build/tl/lib/libinfiniop.so" timeout -k 3 "$(cap 120)" $PY -m pytest -q -p no:cacheprovider \
    -rfEs tests/test_rearrange.py -k "dependent or graph" >"$OUT/${NAME}_tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"
tail -n 2 "$OUT/${NAME}_tests.txt" >>"$LOG"
rm -f "$OUT"/*.json
step "done"
