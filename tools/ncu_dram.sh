#!/usr/bin/env bash
# DRAM and L2 traffic of one LPNorm 32x1M BF16 call (the Hold plan) against an elementwise kernel
# moving the same bytes (torch.mul(x, 1, out=y)), in steady state: the 4th of 5 back-to-back calls,
# caches left as the 3rd call left them (--cache-control none), every pass of the metrics a rerun
# of the whole process (--replay-mode application). From the repository root on the GPU machine
# after `source .gpu/setup.sh` and a build:
#     bash tools/ncu_dram.sh            (writes $OUT/ncu_dram.txt; ~1 min)
# What it answers (notes/lp_norm.md, "Session 22"): does Hold read more than x's 67 MB from DRAM,
# i.e. does its L2 part (read twice) come back from DRAM rather than from L2?
set -u
mkdir -p build
OUT=${OUT:-/tmp}
export PYTHONPATH="$PWD:${PYTHONPATH:-}"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
METRICS=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write.sum
run() { # label, kernel regex, command...
    local label=$1 regex=$2
    shift 2
    echo "=== $label" >>"$OUT/ncu_dram.txt"
    timeout 150 "$NCU" --clock-control none --cache-control none --replay-mode application -k "regex:$regex" \
        --launch-skip 3 --launch-count 1 --metrics "$METRICS" "$@" >>"$OUT/ncu_dram.txt" 2>&1
    echo "=== $label rc $?" >>"$OUT/ncu_dram.txt"
}
run hold_32x1M_bf16 holdKernel python3 tools/ncu_cases.py lpnorm_32x1M_bf16
cat >build/ncu_dram_mul.py <<'PY'
import torch
x = torch.randn(32, 1 << 20, device="cuda").to(torch.bfloat16)  # the conversion: elementwise launch 0
y = torch.empty_like(x)
for _ in range(6):  # launches 1-6; the 4th is profiled (launch-skip 3 counts the conversion)
    torch.mul(x, 1.0, out=y)
torch.cuda.synchronize()
PY
run elementwise_32x1M_bf16 elementwise python3 build/ncu_dram_mul.py
grep -E '^===|duration|dram__bytes|lts__t_sectors' "$OUT/ncu_dram.txt"
