#!/usr/bin/env bash
# Session 33, call 4 (H200): where the time goes against a copy of the same bytes. ncu (clocks left alone)
# on rearr4_bench --ncu (the odd word tiles on 4097², 4098², 4098² src + 1; the skewed words on 4098²;
# the wide word tile on 4096²; a copy kernel of 4097²'s bytes: one launch each, caches flushed) and
# tools/ncu_dram.sh (LPNorm's Hold on 32x1M BF16 against torch.mul moving the same bytes, steady state);
# then the end-to-end bench with its new column, a device copy of each case's bytes timed as the case.
# Files under $OUT: s33d_log.txt, ncu_rearr.txt, ncu_dram.txt, bench.txt/.json.
NAME=${NAME:-s33d}
END=${END:-440}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
rearr4_build
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sector_op_read_hit_rate.pct
M=$M,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
M=$M,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
step "ncu metrics, rearr4_bench --ncu"
LD_LIBRARY_PATH=build/lib timeout -k 3 "$(cap 120)" ncu --clock-control none --metrics "$M" -c 8 build/rearr4_bench --ncu \
    >"$OUT/ncu_rearr.txt" 2>&1
echo "ncu rc=$?" | tee -a "$LOG"
step "tools/ncu_dram.sh"
OUT="$OUT" timeout -k 3 "$(cap 100)" bash tools/ncu_dram.sh >>"$LOG" 2>&1
echo "ncu_dram rc=$?" | tee -a "$LOG"
end_to_end_bench "$OUT/bench" 150 60
step "done"
