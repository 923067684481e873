#!/usr/bin/env bash
# Session 48, call 2 (H200): what call 1 merged, confirmed, and where the short calls behind PyTorch lose.
# - build_old (INFINI_LP_NORM_SLAB_BIG_KB=32, _4B=32: no slab past 32 KB, as before dbb10aa) beside the
#   default; A/B default / old / default again on 64 random cases the big-slab rule moves (the probe: 213
#   of 3000 `shaped_cases.py slab/colsmid 4848` cases, each to call 1's measured plan;
#   notes/sweeps/session48_slab_big_rule_cases.txt), fresh against call 1's 104.
# - the default's LPNorm Slab / column-chunk / non-finite tests (test_slab_groups has the rule's big slabs
#   now) and Rearrange's short-run / small-dim tests (32 x 64 small tiles, 32 x 32 where those fail the
#   gates: 0d188bf), memcheck on both selections.
# - tools/eager_graph_lines.py on the seed-47 sweep's worst Mul, Rearrange and LPNorm lines
#   (notes/sweeps/session48_probe_lines.txt): eager and graph µs, ours and PyTorch's, and our kernels.
# - ncu on three of them.
# Files under $OUT: s48b_log.txt, ab.txt, tests.txt, lines.txt, ncu_behind.txt.
NAME=${NAME:-s48b}
END=${END:-500}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
L=native/src/ops/lp_norm
build_variant_sets "build_old|-DINFINI_LP_NORM_SLAB_BIG_KB=32 -DINFINI_LP_NORM_SLAB_BIG_KB_4B=32|$L/nvidia.cc $L/slab.cu"
cp notes/sweeps/session48_slab_big_rule_cases.txt /tmp/rule.txt
ab_repro 45 rule=default=build rule=old=build_old rule=default2=build
variant_tests build 60 50 tests/test_lp_norm.py "nvidia and (slab or column_chunks or nonfinite)" "nvidia and slab"
variant_tests build 40 30 tests/test_rearrange.py "nvidia and (short_src or small_dim or large)" \
    "(short_src or small_dim) and nvidia"
graph_lines notes/sweeps/session48_probe_lines.txt 110
ncu_line build "mul (119, 136, 107) a order (0, 2, 1) b (119, 1, 107) float16" 50
ncu_line build "lp_norm (731, 11398) axis 1 p 2 float64" 50
ncu_line build "lp_norm (2481, 2600) axis 0 p 2 float64" 50
step "done"
