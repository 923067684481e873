#!/usr/bin/env bash
# Session 51's second call (H200): two LPNorm knobs, each against two default runs on the cases it moves:
# - build_pm (INFINI_LP_NORM_COLS_PLAIN_MERGE=1, cols.cu): thread rows merge their plain one-pass sums,
#   thread row 0 scales once (no division a thread), wherever no sum left the plain range; 149 Cols cases
#   of more than one thread row (60 cut axes, 60 Whole, seed 5152; the seed-50 sweep's 29 such lines);
# - build_sl (INFINI_LP_NORM_SLAB_ONE_PART_MAX_LEN=64, nvidia.cc): Slab columns of up to 64 rows a thread
#   each (was 16); 100 slab cases whose plan it changes (shaped_cases.py slab 5151) and the seed-50
#   sweep's 10 Slab lines;
# - the GPU tests of the kernels each touches (Cols every layout, axis, cut axis, non-finite; Slab), and
#   memcheck on a part;
# - which stores the default build's Rows and Cols kernels issue (cuobjdump -sass): vector.cuh's stPack
#   wrote plain 16-byte packs as scalar stores in PTX.
# Files under $OUT: s51b_log.txt, ab.txt, tests.txt, sass_stores.txt.
NAME=${NAME:-s51b}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_sets "build_pm|-DINFINI_LP_NORM_COLS_PLAIN_MERGE=1|native/src/ops/lp_norm/cols.cu" \
    "build_sl|-DINFINI_LP_NORM_SLAB_ONE_PART_MAX_LEN=64|native/src/ops/lp_norm/nvidia.cc"
step "SASS stores of rows.cu and cols.cu (default build)"
for f in rows cols; do
    echo "== $f" >>"$OUT/sass_stores.txt"
    cuobjdump -sass "build/obj/native/src/ops/lp_norm/$f.cu.o" 2>>"$OUT/sass_stores.txt" | grep -o "STG[.A-Z0-9]*" |
        sort | uniq -c >>"$OUT/sass_stores.txt"
done
ls build/obj/native/src/ops/lp_norm/ >>"$OUT/sass_stores.txt" 2>&1
cp notes/sweeps/session51_plain_merge_cases.txt /tmp/pm.txt
cp notes/sweeps/session51_slab_one_part_cases.txt /tmp/sl.txt
ab_repro 60 pm=default=build pm=pm=build_pm pm=default2=build
ab_repro 45 sl=default=build sl=sl=build_sl sl=default2=build
variant_tests build_pm 90 60 tests/test_lp_norm.py \
    "(nvidia and (columns or nonfinite_inputs_as_torch)) or cols_cut or split_over or cols_uncut" \
    "cols_cut or (nvidia and columns_of_mixed)"
variant_tests build_sl 40 30 tests/test_lp_norm.py "nvidia and slab" "nvidia and slab_groups and f32"
step "done"
