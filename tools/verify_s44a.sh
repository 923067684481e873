#!/usr/bin/env bash
# Written in session 43 (its device time spent) for session 44's first call (H200): three host knobs for the
# Cols plan (nvidia.cc planCols; each variant is a host object, seconds to build):
# - build_uncut: INFINI_LP_NORM_COLS_UNCUT_MIN_ROW_BYTES=128: where the axis would be cut, blocks of
#   narrower thread rows (down to 8 packs of 16 bytes) keep it whole if that brings a column within
#   held_max rows a thread: the seed-43 sweep's worst LPNorm case, (146,65,404) F64 axis 0 (1.41x), is a
#   column of 146 rows cut in 3 chunks.
# - build_wave: INFINI_LP_NORM_COLS_WAVE_FIT=1: more chunks until the Stats / Apply grids' last wave is 90%
#   full (session 43's ncu: (4983, 940) F64's grids were 2.22 waves).
# - build_n2b: INFINI_LP_NORM_COLS_MIN_ROW_BYTES_2B=32: 16-bit columns that would hold 9-16 rows a thread on
#   the 16-row Whole kernel (one block an SM) take narrower thread rows (16 scalar threads, 4 packs of 8
#   bytes) and at most 8 rows a thread: (105,620,341) F16 axis 0 (1.22x in the seed-42 sweep), (69,172,19,
#   119) BF16 (1.33x in seed 43) among them.
# - build_all: the three, for the tests: the LPNorm Cols GPU tests (331 incl. the cut axis) and memcheck on
#   the cut-axis ones.
# A/B: the seed-42 and seed-43 LPNorm cases behind PyTorch on the default and the two single-knob variants;
# 60 random cut-axis cases (shaped_cases.py colscut 44 60: columns of 300+ rows, which UNCUT never takes)
# with WAVE_FIT; 50 columns of 129-256 rows (colsband 44 50, the only ones UNCUT takes) with UNCUT.
# tools/lp_plan_probe.cc (the planner on the host, session 43) over these sets: UNCUT changes the plan of 41
# of the 50 colsband cases and of 2 seed-42/43 cases ((146,65,404) F64, (178,40,31,21) F16); WAVE_FIT that
# of 32 of the 60 colscut cases and of 3 seed-42/43 cases; MIN_ROW_BYTES_2B that of 35 of the 58 16-bit
# colsmid cases and of 6 seed-42/43 cases.
# Files under $OUT: s44a_log.txt, tests.txt, ab.txt.
NAME=${NAME:-s44a}
END=${END:-450}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
N=native/src/ops/lp_norm/nvidia.cc
for v in "uncut:-DINFINI_LP_NORM_COLS_UNCUT_MIN_ROW_BYTES=128" "wave:-DINFINI_LP_NORM_COLS_WAVE_FIT=1" \
    "n2b:-DINFINI_LP_NORM_COLS_MIN_ROW_BYTES_2B=32" \
    "all:-DINFINI_LP_NORM_COLS_UNCUT_MIN_ROW_BYTES=128 -DINFINI_LP_NORM_COLS_WAVE_FIT=1 -DINFINI_LP_NORM_COLS_MIN_ROW_BYTES_2B=32"; do
    VARIANT_CXXFLAGS="${v#*:}" build_variant_pair "build_${v%%:*}" "${v#*:}" $N
done
SEL="(nvidia and (cols or columns or layouts or long_rows_and or extreme or nonfinite_inputs_as or column_chunks)) or cols_cut or columns_split or cols_pointer"
variant_tests build_all 120 45 tests/test_lp_norm.py "$SEL" "cols_cut or columns_split"
grep -h "^lp_norm" notes/sweeps/session42_behind.txt notes/sweeps/session43_behind.txt >/tmp/lpb.txt
$PY tools/shaped_cases.py colscut 44 60 >/tmp/cut.txt
$PY tools/shaped_cases.py colsband 44 50 >/tmp/band.txt
$PY tools/shaped_cases.py colsmid 44 120 | grep "float16\|bfloat16" >/tmp/mid16.txt
ab_repro 40 lpb=default=build lpb=uncut=build_uncut lpb=wave=build_wave lpb=n2b=build_n2b \
    cut=default=build cut=wave=build_wave band=default=build band=uncut=build_uncut \
    mid16=default=build mid16=n2b=build_n2b
step "done"
