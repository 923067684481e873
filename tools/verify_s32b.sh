#!/usr/bin/env bash
# Session 32, call 2: can a partly resident Hold grid lose its last SM to a Hold grid of higher stream
# priority and wait forever (tools/hold_starve_probe.py: a one-block hog holds one SM, then the
# scenarios' Hold calls)? On the default library, on INFINI_LP_NORM_HOLD_COOPERATIVE=1 (every Hold launch
# cooperative) and =2 (cooperative only on streams above the lowest priority); then what =2 costs:
# long_rows_probe "(HoldC)" on the default stream (the priority query) and on a high-priority stream.
# Files under $OUT: s32b_log.txt, starve.txt, holdc.txt. (Ran at 45adc14; knob value 2 was taken out after
# it, in cf4f4fe, so on a later tree build_c2 is every launch cooperative.)
NAME=${NAME:-s32b}
END=${END:-585}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
H=native/src/ops/lp_norm/hold.cu
build_variant_pair build_c1 "-DINFINI_LP_NORM_HOLD_COOPERATIVE=1" $H
build_variant_pair build_c2 "-DINFINI_LP_NORM_HOLD_COOPERATIVE=2" $H
starve_probe build/lib alone same prio rev
starve_probe build_c1/lib prio same
starve_probe build_c2/lib prio same rev
starve_probe build/lib --shape 32x1048576 prio
for round in 1 2; do
    for lib in build/lib build_c2/lib; do
        for where in default --high-priority; do
            step "long_rows_probe.py $where, $lib, round $round"
            echo "== $lib, $where stream, round $round" >>"$OUT/holdc.txt"
            INFINIOP_LIBRARY=$PWD/$lib/libinfiniop.so timeout -k 3 "$(cap 60)" $PY tools/long_rows_probe.py \
                ${where#default} "32x1M BF16 p 2 (HoldC)" "8x1M BF16 p 2 (HoldC)" >>"$OUT/holdc.txt" 2>&1
            echo "rc=$?" | tee -a "$LOG" "$OUT/holdc.txt"
        done
    done
done
step "done"
