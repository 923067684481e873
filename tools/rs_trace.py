"""Stage trace of the sampling kernel (issue 12): run on a library built with -DINFINI_RS_TRACE
(tools/rs_trace.sh builds one and runs this), a few calls per case; every team member prints its
stage cycles (device printf), member 0 of each row a full line at its end.

    INFINIOP_LIBRARY=build/trace/lib/libinfiniop.so python3 tools/rs_trace.py > trace.txt
    python3 tools/rs_trace.py --summary trace.txt

The summary gives, per case, the median over calls of member 0's stages in cycles. Marks 2-4:
"choice" is the time from the argmax merge to the collect (the bucket choice, and the exact descents
when they run: then "descent1"/"descent2" split it).
"""
from __future__ import annotations

import re
import statistics
import sys

CASES = ((1, 151936, 50, 0.9), (1, 151936, 0, 0.9), (1, 32000, 50, 0.9), (1, 262144, 50, 0.9), (64, 151936, 50, 0.9))
REPS = 3


def run() -> None:
    import torch

    import infiniop_py as ip

    for rows, n, k, p in CASES:
        g = torch.Generator(device="cuda").manual_seed(7)
        x = torch.randn(rows, n, device="cuda", generator=g).mul_(3).to(torch.float16)
        out = torch.empty(rows, device="cuda", dtype=torch.int64)
        for rep in range(REPS):
            print(f"== rows={rows} n={n} k={k} p={p} rep {rep}", flush=True)
            if rows == 1:
                ip.random_sample(x[0], 0.5, p, k, 0.8, out=out[0])
            else:
                ip.random_sample_batch(x, 0.5, p, k, 0.8, out=out)
            torch.cuda.synchronize()


def summary(path: str) -> None:
    stages = ("sweep1", "merge", "choice", "collect", "sync", "sort", "scan")
    per_case: dict = {}
    case = None
    for line in open(path):
        m = re.match(r"== (rows=\S+ n=\S+ k=\S+ p=\S+) rep", line)
        if m:
            case = m.group(1)
            continue
        if case is None or not line.startswith("trace n="):
            continue
        d = {k: int(v) for k, v in re.findall(r"(\w+) (-?\d+)", line.split(":", 1)[1])}
        d["choice"] = d["descent1"] + d["descent2"]  # mark 3 unset on the fast path: the sum is still marks 2-4
        per_case.setdefault(case, []).append(d)
    for case, ds in per_case.items():
        med = {s: statistics.median(d[s] for d in ds) for s in stages}
        total = sum(med.values())
        print(f"{case} ({len(ds)} lines): " + ", ".join(f"{s} {med[s]:.0f}" for s in stages)
              + f"; sum {total:.0f} cycles = {total / 1980:.1f} µs at 1.98 GHz")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--summary":
        summary(sys.argv[2])
    else:
        run()
