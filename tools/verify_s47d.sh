#!/usr/bin/env bash
# Session 47's last call (H200): the small-tile rule on fresh cases, what calls 1-3 merged, the bench, a sweep.
# - build_small (INFINI_REARRANGE_SMALL_TILES=1 with the rule of b031b2a: 2-byte units whose src neighbours
#   lie a generic block's chunk or more apart in dst), A/B against the default on 71 fresh cases the rule
#   moves (notes/sweeps/session47_small_tile_rule_cases.txt, `shaped_cases.py reperm 4747`); Rearrange's
#   GPU tests on it, memcheck on the short-run and small-dim ones.
# - the default library, with call 3's merges (LPNorm's wide slabs in place of column chunks, ca7de24; the
#   tiled Mul kernel in 128-thread blocks for 2-byte types, its F16 / BF16 cubin byte-identical to call 3's
#   build_t128): the Mul GPU tests and LPNorm's Slab / column-chunk tests; the end-to-end bench; the
#   seed-47 sweep for what is left.
# Files under $OUT: s47d_log.txt, ab.txt, tests.txt, bench.txt / bench.json, sweep47.txt.
NAME=${NAME:-s47d}
END=${END:-470}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
R=native/src/ops/rearrange
build_variant_sets "build_small|-DINFINI_REARRANGE_SMALL_TILES=1|$R/kernels_u1.cu $R/kernels_u2.cu $R/rearrange_nvidia.cc"
cp notes/sweeps/session47_small_tile_rule_cases.txt /tmp/small.txt
ab_repro 40 small=default=build small=small=build_small
variant_tests build_small 60 30 tests/test_rearrange.py "nvidia or large" "(short_src or small_dim) and nvidia"
step "the default's Mul GPU tests and LPNorm Slab / column-chunk tests"
timeout -k 3 "$(cap 60)" $PY -m pytest -q -p no:cacheprovider -rfEs tests/test_mul.py -k nvidia >>"$OUT/tests.txt" 2>&1
echo "mul tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
timeout -k 3 "$(cap 40)" $PY -m pytest -q -p no:cacheprovider -rfEs tests/test_lp_norm.py \
    -k "nvidia and (slab or column_chunks)" >>"$OUT/tests.txt" 2>&1
echo "lp_norm tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
end_to_end_bench "$OUT/bench" 90 60
sweep_if_time 47
step "done"
