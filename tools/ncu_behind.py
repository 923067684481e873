"""Session 28: one case for ncu (tools/ncu_behind.sh): ours and PyTorch's, each warmed on 3 buffer
sets, then the measured calls inside the NVTX ranges "ours" and "torch" (the third set, the previous
call's writes still in L2 as in a graph of calls).
    python3 tools/ncu_behind.py SHAPE DTYPE AXIS P     an LPNorm case (SHAPE: 4096x4096)
    python3 tools/ncu_behind.py --line DESCRIPTION      any case of a behind_sweep.py line (session 37),
                                                        e.g. "rearrange (65, 44, 39, 59) src order (0, 1,
                                                        3, 2) dst (101244, 2301, 59, 1) float16\""""
import sys

import torch

if sys.argv[1] == "--line":
    from behind_sweep import case_of  # (tools/, this script's directory)

    case = case_of(sys.argv[2].split(": ours ")[0].strip())
    assert case is not None, f"not a behind_sweep.py line: {sys.argv[2]}"
else:
    from infiniop_py.bench import bench_lp_norm as b

    shape = tuple(int(v) for v in sys.argv[1].split("x"))
    case = b._gpu_case(sys.argv[1], shape, sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
assert case.check() is True, "our result differs from PyTorch's"
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
