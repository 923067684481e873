"""Which kernel torch.mul launches for the issue's Mul cases, and its launch shape (grid, block,
registers), from torch.profiler's trace; beside ours (bench_mul's GPU cases). Session 16: torch's
4096² F16/BF16 kernel ran 0.3 µs faster than ours in graphs.

    python3 tools/torch_mul_kernel.py [trace-dir]
"""
from __future__ import annotations

import json
import os
import sys
import tempfile

import torch


def main() -> int:
    out_dir = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp()
    cases = [((4096, 4096), torch.float16), ((4096, 4096), torch.bfloat16), ((8192, 8192), torch.float32)]
    for shape, dt in cases:
        a = torch.rand(shape, device="cuda", dtype=torch.float32).to(dt)
        b = torch.rand(shape, device="cuda", dtype=torch.float32).to(dt)
        c = torch.empty_like(a)
        torch.mul(a, b, out=c)
        torch.cuda.synchronize()
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            for _ in range(5):
                torch.mul(a, b, out=c)
            torch.cuda.synchronize()
        path = os.path.join(out_dir, f"torch_mul_{shape[0]}_{str(dt).split('.')[-1]}.json")
        prof.export_chrome_trace(path)
        with open(path) as f:
            events = json.load(f)["traceEvents"]
        kernels = [e for e in events if e.get("cat") == "kernel"]
        durs = sorted(e["dur"] for e in kernels)
        k = kernels[0]
        args = k.get("args", {})
        print(f"{shape} {dt}: {k['name'][:160]}")
        print(f"  grid {args.get('grid')} block {args.get('block')} registers {args.get('registers per thread')} "
              f"shared {args.get('shared memory')} occupancy {args.get('est. achieved occupancy %')}; "
              f"profiled durations µs {durs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
