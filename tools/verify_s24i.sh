#!/usr/bin/env bash
# Session 24: why Grid's data movement alone (the no-wait probe, 61 µs for 32x1M BF16 against the
# copy's 45.4) is slow. Probe builds of tools/lpn7_bench.cu (LPN7_ONLY=grid; checks fail by design):
# no waits, no waits with every block on a different row at a time (PROBE_STAGGER), and no waits
# with plain stores instead of streaming ones (PLAIN_STORES; call 11, VARIANTS="nowait plain"); x's
# copies with an L2 evict-first policy (DROP_HINT), in the probe and in the real kernel (call 12,
# VARIANTS="drop realdrop"; "real" is the library's kernel).
# Files under $OUT: s24i_log.txt, grid_<variant>.txt.
NAME=${NAME:-s24i}
END=${END:-330}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
VARIANTS=${VARIANTS:-nowait stagger plain}
N=-DINFINI_LP_NORM_GRID_PROBE_NO_WAIT=1
declare -A FLAGS=([nowait]="$N" [stagger]="$N -DINFINI_LP_NORM_GRID_PROBE_STAGGER=1"
    [plain]="$N -DINFINI_LP_NORM_GRID_PLAIN_STORES=1" [drop]="$N -DINFINI_LP_NORM_GRID_DROP_HINT=1"
    [real]="" [realdrop]="-DINFINI_LP_NORM_GRID_DROP_HINT=1")
for v in $VARIANTS; do
    BUILD_LOGS=build harness_build_bg tools/lpn7_bench.cu build/s24i_$v ${FLAGS[$v]}
done
wait
for v in $VARIANTS; do
    step "harness (LPN7_ONLY=grid), probe $v"
    LPN7_ONLY=grid timeout -k 3 "$(cap 120)" build/s24i_$v "$OUT/grid_$v.txt" >>"$LOG" 2>&1
    echo "harness rc=$? (1 by design for the probes: their results are wrong)" | tee -a "$LOG"
done
step "done"
