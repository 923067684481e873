#!/usr/bin/env bash
# Session 14, second and sixth device calls (timeout_s 400), from the repository root after
# `source .gpu/setup.sh` (NAME=s14f for the sixth: the --ncu list below as it is now):
# where 4097²'s odd word tiles lose against 4096²'s word tiles. The library (make -j16) and
# tools/rearr4_bench.cu, then ncu on `rearr4_bench --ncu` (one launch each, caches flushed: odd word
# tiles span 1 and 2 on 4097², wide word and 64-unit word tiles on 4096², skewed word tiles on 4098²,
# a copy kernel of 4097²'s and 4096²'s bytes): DRAM and L2 bytes, L1 requests and sectors, occupancy,
# warp stall reasons, and the SpeedOfLight / MemoryWorkloadAnalysis / WarpStateStats sections.
# Call 6 ran rearr4_bench's later --ncu list: the odd word tiles on 4097², 4098² and 4098² src + 1,
# skewed word tiles span 1 on 4098², the wide word tile on 4096², a copy kernel of 4097²'s bytes.
# Writes under $OUT: ${NAME}_log.txt, _ncu.txt (metrics), _ncu_sections.txt.
NAME=${NAME:-s14b}
END=${END:-380}
source "$(dirname "$0")/verify_common.sh"
library_build
rearr4_build
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sector_op_read_hit_rate.pct
M=$M,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
M=$M,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,launch__occupancy_limit_registers
M=$M,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio
M=$M,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active
step "ncu metrics"
LD_LIBRARY_PATH=build/lib timeout -k 3 "$(cap 150)" ncu --metrics "$M" -c 8 build/rearr4_bench --ncu \
    >"$OUT/${NAME}_ncu.txt" 2>&1
echo "ncu metrics rc=$?" | tee -a "$LOG"
step "ncu sections"
LD_LIBRARY_PATH=build/lib timeout -k 3 "$(cap 150)" ncu --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section Occupancy -c 8 build/rearr4_bench --ncu >"$OUT/${NAME}_ncu_sections.txt" 2>&1
echo "ncu sections rc=$?" | tee -a "$LOG"
step "done"
