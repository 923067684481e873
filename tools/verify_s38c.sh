#!/usr/bin/env bash
# Session 38, call 3 (H200). The default library is the candidate: LPNorm's Slab plan wherever it applies
# (INFINI_LP_NORM_SLAB=2) with groups of slabs a block, short columns a thread each and columns scaled in
# shared memory (slab.cu rewritten after call 2: tiny slabs had lost up to 3.5x PyTorch's time); box
# transposes ahead of the tiles on 2-byte units (INFINI_REARRANGE_BOX=3: call 2 found int8 tiles losing to
# boxes); plain tiles where skewed ones would add a tile along a short b (INFINI_REARRANGE_SKEW_MIN_FILL=60).
#   old:    SLAB=0 BOX=1 SKEW_MIN_FILL=0 (session 37's defaults)
#   noskew: the candidate without the skew rule
# Whole suite on the candidate first, then the sanitizers on the slab cases, then A/B on random slab- and
# box-shaped cases (tools/shaped_cases.py, seed 38 as in call 2) and session 37's behind cases.
# Files under $OUT: s38c_log.txt, gpu_suite.txt, tests.txt (sanitizers), ab.txt (every A/B under headers).
NAME=${NAME:-s38c}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
LPN=native/src/ops/lp_norm/nvidia.cc
RE=native/src/ops/rearrange/rearrange_nvidia.cc
VARIANT_CXXFLAGS="-DINFINI_LP_NORM_SLAB=0 -DINFINI_REARRANGE_BOX=1 -DINFINI_REARRANGE_SKEW_MIN_FILL=0" \
    build_variant_pair old "" $LPN $RE
VARIANT_CXXFLAGS="-DINFINI_REARRANGE_SKEW_MIN_FILL=0" build_variant_pair noskew "" $RE
whole_suite 250
INFINIOP_LIBRARY=$PWD/build/lib/libinfiniop.so SANITIZE_CAP=30 lpn_sanitize memcheck "$OUT/tests.txt" cols
INFINIOP_LIBRARY=$PWD/build/lib/libinfiniop.so SANITIZE_CAP=30 lpn_sanitize racecheck "$OUT/tests.txt" cols
$PY tools/shaped_cases.py slab 38 80 >/tmp/slab_cases.txt
$PY tools/shaped_cases.py box 38 80 >/tmp/box_cases.txt
grep "^lp_norm" notes/sweeps/session37_behind.txt >/tmp/lpn37.txt
grep "^rearrange" notes/sweeps/session37_behind.txt >/tmp/re37.txt
for run in slab=new=build slab=old=old lpn37=new=build re37=new=build re37=old=old re37=noskew=noskew \
    box=new=build; do
    set_=${run%%=*}; rest=${run#*=}; lib=${rest%%=*}
    case $set_ in slab) file=/tmp/slab_cases.txt ;; box) file=/tmp/box_cases.txt ;; *) file=/tmp/$set_.txt ;; esac
    step "$set_ cases, $lib"
    echo "=== $set_ $lib" >>"$OUT/ab.txt"
    INFINIOP_LIBRARY=$PWD/${rest#*=}/lib/libinfiniop.so timeout -k 3 "$(cap 40)" $PY tools/behind_sweep.py --repro \
        "$file" 150 --no-kernels >>"$OUT/ab.txt" 2>&1
    echo "rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/ab.txt" | tee -a "$LOG"
done
step "done"
