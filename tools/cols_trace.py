"""Session 28: where a cut axis's time goes (cols.cu's Stats, Factor and Apply kernels). CUPTI's
kernel records (through torch.profiler) of eager calls queued back to back over bench_lp_norm's
buffer sets; with programmatic dependent launch a kernel may start before its predecessor ends, so
each kernel's share is measured end to end: from the previous kernel's end to its own. Prints, per
case, the median share of each kernel, their sum (a call), and PyTorch's kernels the same way.

  PYTHONPATH=.:tools python3 tools/cols_trace.py [NAME-SUBSTRING...]
"""
import re
import statistics
import sys

import torch

from infiniop_py.bench import bench_lp_norm as b
from kernel_gaps import kernels  # tools/, beside this script: CUPTI's kernel records of run()

CALLS = 60
SPECS = [
    ("4096x4096 BF16 axis 0 p 2", (4096, 4096), "bfloat16", 0, 2),
    ("4096x4096 F16 axis 0 p 2", (4096, 4096), "float16", 0, 2),
    ("4096x4096 F32 axis 0 p 2", (4096, 4096), "float32", 0, 2),
    ("8192x1024 F32 axis 0 p 2", (8192, 1024), "float32", 0, 2),
    ("4096x4096 F64 axis 0 p 2", (4096, 4096), "float64", 0, 2),
]


def short(name):
    if "colsFactorKernel" in name:
        return "Factor"
    m = re.search(r"ColsMode\)(\d)", name)
    if m:
        return ["Whole", "Stats", "Apply"][int(m.group(1))]
    return name.split("<")[0].split("(")[0][-28:]


def shares(ks, skip=9):
    out = {}
    ends = [k[0] + k[1] for k in ks]
    for i in range(skip, len(ks)):
        out.setdefault(short(ks[i][2]), []).append(ends[i] - ends[i - 1])
    return {k: statistics.median(v) for k, v in out.items()}


def main():
    words = sys.argv[1:]
    print("device:", torch.cuda.get_device_name(0), "torch", torch.__version__)
    for spec in SPECS:
        if words and not any(w in spec[0] for w in words):
            continue
        case = b._gpu_case(*spec)
        assert case.check() is True
        for who, calls in (("ours", case.rotate or [case.ours]), ("torch", case.baseline_rotate or [case.baseline])):
            def run():
                for i in range(CALLS):
                    calls[i % len(calls)]()
            run()
            torch.cuda.synchronize()
            s = shares(kernels(run))
            print(f"{spec[0]} {who:5s}: " + ", ".join(f"{k} {v:6.2f}" for k, v in s.items()) +
                  f" | sum {sum(s.values()):6.2f} µs", flush=True)


if __name__ == "__main__":
    main()
