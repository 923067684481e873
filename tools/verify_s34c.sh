#!/usr/bin/env bash
# Session 34, call 3 (H200): after Hold in waves lost (call 2), two measurements. (1) Is Hold's write
# phase (~3.5 TB/s) bound by its stores' policy? lpn7_bench LPN7_ONLY=holdstore, Hold beside a memset of
# y, in the library's build (streaming stores) and one with plain stores, A B A. (2) 4097²'s odd word
# tiles at span 2 against span 1 (rearr4_bench --skew, two rounds; span 2 reads ~9% fewer L2 sectors).
# Files under $OUT: s34c_log.txt, holdstore.txt, skew.txt.
NAME=${NAME:-s34c}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
export BUILD_LOGS=build
mkdir -p build
harness_build_bg tools/lpn7_bench.cu build/lpn7
harness_build_bg tools/lpn7_bench.cu build/lpn7_st -DINFINI_LP_NORM_HOLD_STORE_CS=0
library_build
rearr4_build
rearr4_rounds --skew "$OUT/skew.txt" 60
step "waiting for the harness builds"
wait
for b in lpn7 lpn7_st; do
    echo "== build $b: $(tail -n 3 build/${b}_build.txt | tr '\n' ' ')" >>"$LOG"
done
for b in lpn7 lpn7_st lpn7; do
    step "LPN7_ONLY=holdstore build/$b"
    echo "==== build/$b" >>"$OUT/holdstore.txt"
    LPN7_ONLY=holdstore timeout -k 3 "$(cap 60)" "build/$b" "build/${b}_out.txt" >/dev/null 2>&1
    echo "rc=$?" | tee -a "$LOG" "$OUT/holdstore.txt"
    cat "build/${b}_out.txt" >>"$OUT/holdstore.txt" 2>/dev/null
done
step "done"
