#!/usr/bin/env bash
# Session 38, call 2 (H200). Call 1 (verify_s38a.sh): the Slab plan won 4 of session 37's LPNorm behind
# cases (up to 336 -> 187 µs) and lost 2 (inner extents 13 and 5: 107 -> 135, 52 -> 85); box transposes
# ahead of the tiles took (65,44,39,59) F16 47 -> 22 µs (PyTorch 18) and lost nothing past noise.
# Now the Slab plan groups neighbouring slabs in a block (INFINI_LP_NORM_SLAB_GROUPS, thread rows of
# about sqrt(len) / 2); libraries:
#   cand_a: Slab in place of scalar Cols (SLAB=1), box transposes ahead of the tiles (BOX=2)
#   cand_b: Slab wherever it applies (SLAB=2), BOX=2
#   cand_c: SLAB=1 without groups (call 1's kernel arithmetic), to see what the groups do
# On random box- and slab-shaped cases (tools/shaped_cases.py), not only those behind PyTorch.
# Files under $OUT: s38b_log.txt, tests.txt (sanitizers too), slab_{default,a,b,c}.txt, lpn37_{a,b}.txt,
# box_{default,a}.txt.
NAME=${NAME:-s38b}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
LPN=native/src/ops/lp_norm/nvidia.cc
RE=native/src/ops/rearrange/rearrange_nvidia.cc
VARIANT_CXXFLAGS="-DINFINI_LP_NORM_SLAB=1 -DINFINI_REARRANGE_BOX=2" build_variant_pair cand_a "" $LPN $RE
VARIANT_CXXFLAGS="-DINFINI_LP_NORM_SLAB=2 -DINFINI_REARRANGE_BOX=2" build_variant_pair cand_b "" $LPN $RE
VARIANT_CXXFLAGS="-DINFINI_LP_NORM_SLAB=1 -DINFINI_LP_NORM_SLAB_GROUPS=0" build_variant_pair cand_c "" $LPN
step "LPNorm tests on the GPU (layouts, columns, reference cases, non-finite), cand_b"
INFINIOP_LIBRARY=$PWD/cand_b/lib/libinfiniop.so timeout -k 3 "$(cap 80)" $PY -m pytest -q -p no:cacheprovider \
    -rfEs tests/test_lp_norm.py -k "nvidia and (layouts or columns or slab or reference_cases or nonfinite or zero or extreme)" \
    >>"$OUT/tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
INFINIOP_LIBRARY=$PWD/cand_b/lib/libinfiniop.so SANITIZE_CAP=30 lpn_sanitize memcheck "$OUT/tests.txt" cols
INFINIOP_LIBRARY=$PWD/cand_b/lib/libinfiniop.so SANITIZE_CAP=30 lpn_sanitize racecheck "$OUT/tests.txt" cols
$PY tools/shaped_cases.py slab 38 80 >/tmp/slab_cases.txt
$PY tools/shaped_cases.py box 38 80 >/tmp/box_cases.txt
grep "^lp_norm" notes/sweeps/session37_behind.txt >/tmp/s37_lpn.txt
for run in slab=default=build slab=a=cand_a slab=b=cand_b slab=c=cand_c lpn37=a=cand_a lpn37=b=cand_b \
    box=default=build box=a=cand_a; do
    set_=${run%%=*}; rest=${run#*=}; lib=${rest%%=*}
    case $set_ in slab) file=/tmp/slab_cases.txt ;; box) file=/tmp/box_cases.txt ;; *) file=/tmp/s37_lpn.txt ;; esac
    step "$set_ cases, $lib"
    INFINIOP_LIBRARY=$PWD/${rest#*=}/lib/libinfiniop.so timeout -k 3 "$(cap 45)" $PY tools/behind_sweep.py --repro \
        "$file" 150 --no-kernels >"$OUT/${set_}_$lib.txt" 2>&1
    echo "rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/${set_}_$lib.txt" | tee -a "$LOG"
done
step "done"
