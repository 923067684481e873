#!/usr/bin/env bash
# Session 24: Grid's data movement alone and what slows it. Builds of tools/lpn7_bench.cu
# (LPN7_ONLY=grid: every plan checked, then graph µs with the lag / depth sweep), one a VARIANT:
#   real      the kernel as the library has it;
#   nowait    the probe: the compute warps never wait for a factor (checks fail by design);
#   stagger   the probe with every block on a different row at a time (PROBE_STAGGER);
#   plain     the probe with plain stores instead of streaming ones (PLAIN_STORES);
#   drop      the probe with x's copies under an L2 evict-first policy (DROP_HINT);
#   realdrop  the real kernel with DROP_HINT;
#   nomerge   the probe with no merger polling (PROBE_NO_MERGE);
#   nopub     that, and no record stored either (PROBE_NO_PUBLISH);
#   nosum     nopub, and the compute warps do not sum the chunks (PROBE_NO_SUM);
#   noscale   nosum, and the packs stored as landed (PROBE_NO_SCALE): a copy through Grid's pipeline.
# Calls: 5 VARIANTS="nowait real" (as verify_s24c.sh, since folded in here), 10 "nowait stagger",
# 11 "nowait plain", 12 "drop realdrop", 13 "real"; session 25 (tools/verify_s25d.sh) "nowait nomerge nopub", then "nopub nosum noscale".
# Files under $OUT: s24i_log.txt, grid_<variant>.txt.
NAME=${NAME:-s24i}
END=${END:-330}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
VARIANTS=${VARIANTS:-nowait stagger plain}
N=-DINFINI_LP_NORM_GRID_PROBE_NO_WAIT=1
declare -A FLAGS=([nowait]="$N" [stagger]="$N -DINFINI_LP_NORM_GRID_PROBE_STAGGER=1"
    [plain]="$N -DINFINI_LP_NORM_GRID_PLAIN_STORES=1" [drop]="$N -DINFINI_LP_NORM_GRID_DROP_HINT=1"
    [real]="" [realdrop]="-DINFINI_LP_NORM_GRID_DROP_HINT=1" [nomerge]="$N -DINFINI_LP_NORM_GRID_PROBE_NO_MERGE=1"
    [nopub]="$N -DINFINI_LP_NORM_GRID_PROBE_NO_MERGE=1 -DINFINI_LP_NORM_GRID_PROBE_NO_PUBLISH=1"
    [nosum]="$N -DINFINI_LP_NORM_GRID_PROBE_NO_MERGE=1 -DINFINI_LP_NORM_GRID_PROBE_NO_PUBLISH=1 -DINFINI_LP_NORM_GRID_PROBE_NO_SUM=1"
    [noscale]="$N -DINFINI_LP_NORM_GRID_PROBE_NO_MERGE=1 -DINFINI_LP_NORM_GRID_PROBE_NO_PUBLISH=1 -DINFINI_LP_NORM_GRID_PROBE_NO_SUM=1 -DINFINI_LP_NORM_GRID_PROBE_NO_SCALE=1")
for v in $VARIANTS; do
    BUILD_LOGS=build harness_build_bg tools/lpn7_bench.cu build/s24i_$v ${FLAGS[$v]}
done
wait
for v in $VARIANTS; do
    # rc 1 is by design for the probes (their results are wrong); for real / realdrop it is a failed check
    LPN7_ONLY=grid harness_run build/s24i_$v "$OUT/grid_$v.txt" 120 "LPN7_ONLY=grid, $v"
done
step "done"
