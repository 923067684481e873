#!/usr/bin/env bash
# Session 28: the LPNorm shapes behind PyTorch (session 27's survey) under ncu, ours and PyTorch's kernels
# of one call each (tools/ncu_behind.py): duration, DRAM bytes, registers, occupancy, stalls.
# From the repository root on the GPU machine after `source .gpu/setup.sh` and a build; appends to
# $OUT/ncu_behind.txt. CASES overrides the list ("SHAPE DTYPE AXIS P;..."); LINES (session 37) gives
# cases of any operator as behind_sweep.py lines instead ("DESCRIPTION;...": tools/ncu_behind.py --line).
# SECTIONS (session 44): ncu sections to collect beside the metrics, e.g. "WarpStateStats SchedulerStats"
# (stall reasons, in cycles per issued instruction: smsp__average_warps_issue_stalled_*_per_issue_active);
# the CSV is then ncu's raw page (a column a metric, a row a kernel).
set -u
OUT=${OUT:-/tmp}
export PYTHONPATH="$PWD:${PYTHONPATH:-}"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
METRICS=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size,launch__block_size,launch__occupancy_limit_registers,smsp__average_warp_latency_issue_stalled_long_scoreboard,smsp__inst_executed.sum,lts__t_sectors_srcunit_tex_op_read.sum
CASES=${CASES:-"4096x4096 bfloat16 0 2;4096x4096 float64 0 2;100000x64 float32 0 2;12x16x512x512 float64 1 2;12x16x512x512 float64 0 1;16x1048576 float64 1 2"}
profile() { # profile NAME ARGS...: ours and PyTorch's kernels of one case
    local name=$1 r
    shift
    for r in ours torch; do
        echo "=== $name $r" >>"$OUT/ncu_behind.txt"
        # shellcheck disable=SC2046
        timeout 150 "$NCU" --clock-control none --cache-control none --nvtx --nvtx-include "$r/" --csv \
            --metrics "$METRICS" $(for s in ${SECTIONS:-}; do echo --section "$s"; done) ${SECTIONS:+--page raw} \
            python3 tools/ncu_behind.py "$@" >>"$OUT/ncu_behind.txt" 2>&1
        echo "=== $name $r rc $?" >>"$OUT/ncu_behind.txt"
    done
}
if [ -n "${LINES:-}" ]; then
    IFS=';' read -ra LIST <<<"$LINES"
    for l in "${LIST[@]}"; do profile "$l" --line "$l"; done
else
    IFS=';' read -ra LIST <<<"$CASES"
    # shellcheck disable=SC2086
    for c in "${LIST[@]}"; do profile "$c" $c; done
fi
