#!/usr/bin/env bash
# Written in session 42 (its device time spent) for session 43 (H200), after verify_s43a.sh.
# Session 42 sent 2-byte tiles whose b group (dst's innermost dims, cut short by a's dim) fills under 80% of
# its span to the generic kernel (INFINI_REARRANGE_MIN_B_FILL_2B 80: 78 such F16 permutations 0.806x,
# behind PyTorch 30 -> 8). The same gate for int8 / F32 / F64 tiles, INFINI_REARRANGE_MIN_B_FILL
# (rearrange_nvidia.cc, host, default 0), at 75 and 90:
# - Rearrange's GPU tests on the 90 build, memcheck on its generic / small-dim / many-dim tests.
# - A/B on 90 int8 / F32 / F64 permutations with tiles 50%+ full and b under 88% of its span
#   (notes/sweeps/session42_bshort_other_cases.txt: tools/shaped_cases.py reperm 42-55 through
#   tools/tile_groups.py), the seed-42 sweep's Rearrange cases behind of those units, and session 40's 80
#   random permutations (their lines of those units).
# Files under $OUT: s43b_log.txt, tests.txt, ab.txt.
NAME=${NAME:-s43b}
END=${END:-300}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
for f in 75 90; do
    F="-DINFINI_REARRANGE_MIN_B_FILL=$f"
    VARIANT_CXXFLAGS="$F" build_variant_pair build_obfill$f "$F" native/src/ops/rearrange/rearrange_nvidia.cc
done
variant_tests build_obfill90 40 30 tests/test_rearrange.py "nvidia" "nvidia and (generic or small_dim or many_dim)"
cp notes/sweeps/session42_bshort_other_cases.txt /tmp/obshort.txt
grep "^rearrange.*\(int8\|float32\|float64\):" notes/sweeps/session42_behind.txt >/tmp/re42.txt
$PY tools/shaped_cases.py reperm 40 80 | grep -v float16 >/tmp/reperm.txt
ab_repro 40 obshort=default=build obshort=b75=build_obfill75 obshort=b90=build_obfill90 \
    re42=default=build re42=b75=build_obfill75 re42=b90=build_obfill90 \
    reperm=default=build reperm=b75=build_obfill75 reperm=b90=build_obfill90
step "done"
