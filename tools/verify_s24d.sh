#!/usr/bin/env bash
# Session 24, call 6: where transpose 4097² F16 (odd word tiles, 84.8% of the copy roofline) loses
# against 4096² (tensor-copy tiles, 91%): ncu's warp states (tools/ncu_stalls.sh, kernel names now
# matched demangled) and each kernel's DRAM / L2 bytes in steady state (the 4th call of 5, caches as
# the 3rd left them). Files under $OUT: s24d_log.txt, ncu_stalls.txt, ncu_bytes.txt.
NAME=${NAME:-s24d}
END=${END:-300}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
library_build
step "ncu warp states"
OUT="$OUT" timeout -k 3 "$(cap 90)" bash tools/ncu_stalls.sh transpose_4097_f16 transpose_4096_f16 >>"$LOG" 2>&1
echo "ncu_stalls rc=$?" | tee -a "$LOG"
METRICS=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_requests_srcunit_tex_op_write.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem
for c in transpose_4097_f16 transpose_4096_f16; do
    step "ncu bytes: $c"
    echo "=== $c" >>"$OUT/ncu_bytes.txt"
    timeout -k 3 "$(cap 60)" ncu --clock-control none --cache-control none --replay-mode application \
        --kernel-name-base demangled -k regex:infini --launch-skip 3 --launch-count 1 --metrics "$METRICS" \
        python3 tools/ncu_cases.py "$c" >>"$OUT/ncu_bytes.txt" 2>&1
    echo "=== $c rc $?" >>"$OUT/ncu_bytes.txt"
done
step "done"
