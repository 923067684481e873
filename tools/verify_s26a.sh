#!/usr/bin/env bash
# Session 26: Grid with its compute warps split into summing warps and storing warps
# (-DINFINI_LP_NORM_GRID_SUM_WARPS=S), so that no sum sits between a row's stores and its slot's
# refill. Builds of tools/lpn7_bench.cu, one a VARIANT "S:kind" (kind real, probe (PROBE_NO_WAIT:
# wrong results by design) or trace (LPN7_ONLY=gridtrace)); each run in the order given.
# Files under $OUT: s26a_log.txt, grid_<S>_<kind>.txt. The knob was removed after call 2 (refuted;
# notes/lp_norm.md, "Session 26"): to rerun, check out 7a64512.
NAME=${NAME:-s26a}
END=${END:-400}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
VARIANTS=${VARIANTS:-4:trace 4:real 4:probe 6:real}
declare -A KIND=([real]="" [probe]="-DINFINI_LP_NORM_GRID_PROBE_NO_WAIT=1" [trace]="-DINFINI_LP_NORM_GRID_TRACE")
declare -A MODE=([real]=grid [probe]=grid [trace]=gridtrace)
for v in $VARIANTS; do
    s=${v%%:*} k=${v##*:}
    BUILD_LOGS=build harness_build_bg tools/lpn7_bench.cu build/s26a_${s}_$k -DINFINI_LP_NORM_GRID_SUM_WARPS=$s ${KIND[$k]}
done
wait
for v in $VARIANTS; do
    s=${v%%:*} k=${v##*:}
    [ -x build/s26a_${s}_$k ] || { step "build/s26a_${s}_$k missing"; tail -5 build/s26a_${s}_${k}_build.txt >>"$LOG"; continue; }
    LPN7_ONLY=${MODE[$k]} harness_run build/s26a_${s}_$k "$OUT/grid_${s}_$k.txt" 90 "LPN7_ONLY=${MODE[$k]}, sum warps $s, $k"
done
step "done"
