#!/usr/bin/env bash
# Session 9, third check (issue 12), from the repository root after `source .gpu/setup.sh`,
# timeout_s 300: the resident-teams rule across batch sizes (default against
# -DINFINI_RS_TEAM_FIT=0: sampling batches of 2, 4, 16, 24, 32, 48, 96, 128 rows, A B B A), and
# ncu (speed of light, memory workload, warp states) of one 64x151936 F16 argmax launch.
NAME=s9c
END=280
source "$(dirname "$0")/verify_common.sh"
build_rs_pair build/nofit "-DINFINI_RS_TEAM_FIT=0"
AB="$OUT/s9c_ab.txt"
for v in default nofit nofit default; do
    lib="$PWD/build/lib/libinfiniop.so"; [ "$v" = nofit ] && lib="$PWD/build/nofit/lib/libinfiniop.so"
    step "A/B: $v"
    RS_AB_ROWS=2,4,16,24,32,48,96,128 INFINIOP_LIBRARY="$lib" timeout -k 3 "$(cap 50)" $PY tools/rs5_ab.py "$v" >>"$AB" 2>&1
    echo "$v rc=$?" | tee -a "$LOG"
done
$PY tools/rs_ab_summary.py "$AB" default nofit >>"$AB" 2>&1
step "ncu argmax_64x151936"
timeout -k 3 "$(cap 60)" ncu --clock-control none -k regex:argmax --launch-skip 3 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section LaunchStats \
    --section Occupancy $PY tools/ncu_cases.py argmax_64x151936 >"$OUT/s9c_ncu_argmax.txt" 2>&1
echo "ncu rc=$?" | tee -a "$LOG"
step "done"
