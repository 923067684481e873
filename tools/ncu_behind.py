"""Session 28: one LPNorm case for ncu (tools/ncu_behind.sh): ours and torch.nn.functional.normalize,
each warmed on 3 buffer sets, then the measured calls inside the NVTX ranges "ours" and "torch"
(the third set, the previous call's writes still in L2 as in a graph of calls).
    python3 tools/ncu_behind.py SHAPE DTYPE AXIS P     (SHAPE: 4096x4096)"""
import sys

import torch

from infiniop_py.bench import bench_lp_norm as b

shape = tuple(int(v) for v in sys.argv[1].split("x"))
case = b._gpu_case(sys.argv[1], shape, sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
assert case.check() is True, "our result differs from F.normalize"
ours = case.rotate or [case.ours]
theirs = case.baseline_rotate or [case.baseline]
for f in list(ours) * 2 + list(theirs) * 2:
    f()
torch.cuda.synchronize()
for name, calls in (("ours", ours), ("torch", theirs)):
    calls[0]()
    torch.cuda.nvtx.range_push(name)
    calls[-1]()
    torch.cuda.nvtx.range_pop()
torch.cuda.synchronize()
print("done")
