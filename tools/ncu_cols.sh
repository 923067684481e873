#!/usr/bin/env bash
# Session 27: the Cols plan's cut axis under ncu: each kernel's duration, DRAM bytes, achieved occupancy
# and registers, for 4096x4096 BF16 axis 0 and 100000x64 F32 axis 0 (tools/cols_probe.py's slow rows).
# From the repository root on the GPU machine after `source .gpu/setup.sh` and a build; writes
# $OUT/ncu_cols.txt.
set -u
OUT=${OUT:-/tmp}
export PYTHONPATH="$PWD:${PYTHONPATH:-}"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
METRICS=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size,launch__block_size,smsp__average_warp_latency_issue_stalled_long_scoreboard,smsp__inst_executed.sum
cat >/tmp/ncu_cols_case.py <<'PY'
import sys
import numpy as np
import infiniop_py as ip
shape, dtype = {"bf16": ((4096, 4096), ip.bfloat16), "f32": ((100000, 64), np.float32)}[sys.argv[1]]
x = ip.DeviceArray.from_numpy((np.random.default_rng(1).standard_normal(shape) * 3).astype(dtype))
y = ip.DeviceArray.from_numpy(np.zeros(shape, dtype))
for _ in range(3):
    ip.lp_norm(x, axis=0, out=y)
ip.runtime.synchronize("nvidia")
print("done")
PY
for c in bf16 f32; do
    echo "=== $c" >>"$OUT/ncu_cols.txt"
    timeout 120 "$NCU" --clock-control none -k "regex:colsKernel" --launch-skip 2 --launch-count 2 \
        --metrics "$METRICS" python3 /tmp/ncu_cols_case.py "$c" >>"$OUT/ncu_cols.txt" 2>&1
    echo "=== $c rc $?" >>"$OUT/ncu_cols.txt"
done
