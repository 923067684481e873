#!/usr/bin/env bash
# Written in session 41 (its device time spent) for session 42 (H200), after verify_s42a.sh.
# Session 41's sweep (seed 41): LPNorm's 18 cases behind PyTorch are all Cols / Slab; the worst, (1005,
# 81, 324) F16 axis 1 (1.34x), is a Cols plan whose threads hold 11 rows of their column: cols.cu's
# 16-row Whole kernel, which the compiler gives 172-184 registers (one block an SM). One measuring knob,
# off by default:
# - build_w16: INFINI_LP_NORM_COLS_WHOLE16_MIN_BLOCKS=2, that kernel at two blocks an SM (ptxas, sm_90:
#   16-bit packs 128 registers, no spill; F32 16-byte packs 36 bytes spilled, F64 116).
# Runs: the variant's Cols GPU tests (every layout, axis and cut axis) and memcheck on a part; 100 random
# Cols cases with a 65-128-element axis (tools/shaped_cases.py colsmid 42 100) and the seed-41 sweep's
# LPNorm behind cases on both libraries; ncu (default library) on the sweep's worst LPNorm cases (Cols at
# 16 rows a thread, F64 Cols streamed), Rearrange and transposed-BF16 Mul cases.
# Files under $OUT: s42b_log.txt, tests.txt, ab.txt, ncu_behind.txt.
NAME=${NAME:-s42b}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_pair build_w16 "-DINFINI_LP_NORM_COLS_WHOLE16_MIN_BLOCKS=2" native/src/ops/lp_norm/cols.cu
variant_tests build_w16 180 90 tests/test_lp_norm.py "nvidia or cols_cut or split_over" \
    "nvidia and columns and (float16 or bfloat16 or f16 or bf16)"
$PY tools/shaped_cases.py colsmid 42 100 >/tmp/cols.txt
grep "^lp_norm" notes/sweeps/session41_behind.txt >/tmp/lp41.txt
ab_repro 50 cols=default=build cols=w16=build_w16 lp41=default=build lp41=w16=build_w16
if [ $((END - SECONDS)) -ge 60 ]; then
    step "ncu: the seed-41 sweep's worst LPNorm, Rearrange and Mul cases (default library)"
    LINES="lp_norm (1005, 81, 324) axis 1 p 2 float16;lp_norm (61, 210, 248) axis 1 p 2 float64;rearrange (145, 122, 5, 47) src order (1, 3, 0, 2) dst (28670, 235, 47, 1) float16;mul (39, 9, 146, 164) a order (0, 2, 3, 1) b (1, 9, 146, 1) bfloat16" \
        OUT="$OUT" timeout -k 3 "$(cap 100)" bash tools/ncu_behind.sh
    echo "ncu rc=$?" | tee -a "$LOG"
fi
step "done"
