#!/usr/bin/env bash
# Session 43's third call (H200): the cut-axis Cols plan (Stats, Factor, Apply), 14 of the seed-42 sweep's 33
# LPNorm cases behind PyTorch; and the 16-bit short ragged rows.
# - build_tail: INFINI_LP_NORM_BATCHED_TAIL=1 (device.cuh: every batch of forBatchedLoads predicated, so
#   that a chunk's last rows load as one batch, not one at a time).
# - build_tailsb: that and INFINI_LP_NORM_COLS_SMALL_BATCH_BYTES=64 (streamed packs under 16 bytes: 64
#   bytes of loads in flight, not 8 loads; call 2's ncu: (1234, 15275) F32's Stats kernel at 2.0 TB/s).
# - build_split8: INFINI_LP_NORM_COLS_SPLIT_ROWS=8 (host: more chunks, at most 8 rows a thread, held).
# - build_rml2b: INFINI_LP_NORM_RAGGED_MIN_LEN_2B=26 (host: 16-bit ragged rows of 17-25 keep the scalar plan).
# Tests: the Cols GPU tests on build_tailsb and build_split8 (memcheck on the cut-axis ones), the ragged
# row tests on build_rml2b. A/B: the seed-42 LPNorm cases and 60 random cut-axis cases (shaped_cases.py
# colscut 43 60) on the default and the three Cols variants; 80 16-bit rows of 17-40 (lpshort16 43 80) on
# the default and build_rml2b.
# (RAGGED_MIN_LEN_2B became the band INFINI_LP_NORM_RAGGED_SCALAR_FROM_2B / TO_2B after call 4.)
# Files under $OUT: s43c_log.txt, tests.txt, ab.txt.
NAME=${NAME:-s43c}
END=${END:-420}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
C=native/src/ops/lp_norm/cols.cu N=native/src/ops/lp_norm/nvidia.cc
build_variant_pair build_tail "-DINFINI_LP_NORM_BATCHED_TAIL=1" $C
build_variant_pair build_tailsb "-DINFINI_LP_NORM_BATCHED_TAIL=1 -DINFINI_LP_NORM_COLS_SMALL_BATCH_BYTES=64" $C
F="-DINFINI_LP_NORM_COLS_SPLIT_ROWS=8"
VARIANT_CXXFLAGS="$F" build_variant_pair build_split8 "$F" $N
F="-DINFINI_LP_NORM_RAGGED_MIN_LEN_2B=26"
VARIANT_CXXFLAGS="$F" build_variant_pair build_rml2b "$F" $N
SEL="(nvidia and (cols or columns or layouts or long_rows_and or extreme or nonfinite_inputs_as or column_chunks)) or cols_cut or columns_split or cols_pointer"
for lib in build_tailsb build_split8; do
    variant_tests $lib 50 25 tests/test_lp_norm.py "$SEL" "cols_cut or columns_split"
done
variant_tests build_rml2b 30 15 tests/test_lp_norm.py "ragged_rows or (nvidia and (last or rows))" "ragged_rows_gpu and (19 or 333)"
grep "^lp_norm" notes/sweeps/session42_behind.txt >/tmp/lp42.txt
$PY tools/shaped_cases.py colscut 43 60 >/tmp/cut.txt
$PY tools/shaped_cases.py lpshort16 43 80 >/tmp/short16.txt
ab_repro 40 lp42=default=build lp42=tail=build_tail lp42=tailsb=build_tailsb lp42=split8=build_split8 \
    cut=default=build cut=tail=build_tail cut=tailsb=build_tailsb cut=split8=build_split8 \
    short16=default=build short16=rml2b=build_rml2b
step "done"
