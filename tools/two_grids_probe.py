"""Drafted in session 31 for a later one (not run yet): can two of LPNorm's Hold grids wait for each
other? Hold is a plain launch of one block an SM whose blocks wait for each other's records, so two Hold
calls on two streams at once could each hold part of the SMs and wait forever for the rest (a
cooperative launch would make the driver refuse instead, at 1.5-2.5 µs an eager call: notes/lp_norm.md,
"Session 31"). Each round, in a child process with a time limit: a filler kernel (a matmul) on a third
stream takes SMs first, then Hold calls go onto a low-priority and a high-priority stream alternately,
so that the later, higher-priority grid is offered the SMs the filler frees. Every result is checked
against float64.

    python tools/two_grids_probe.py [--rounds N] [--limit S] [--shape ROWSxLEN]   (default 20, 60, 1x4194304)

The default shape is one BF16 row of 4M over every block (the widest wait: every block waits for all
others). The library: INFINIOP_LIBRARY, or the default build.
"""
import os
import subprocess
import sys
import time


def child(rounds: int, rows: int, length: int) -> None:
    import torch

    import infiniop_py as ip

    lo_pri, hi_pri = torch.cuda.Stream.priority_range() if hasattr(torch.cuda.Stream, "priority_range") else (0, -1)
    low = torch.cuda.Stream(priority=lo_pri)
    high = torch.cuda.Stream(priority=hi_pri)
    filler = torch.cuda.Stream()
    xs = [torch.randn(rows, length, device="cuda", dtype=torch.bfloat16) for _ in range(2)]
    outs = [torch.full_like(x, float("nan")) for x in xs]
    a = torch.randn(8192, 8192, device="cuda")
    wants = [torch.nn.functional.normalize(x.double(), dim=-1) for x in xs]
    torch.cuda.synchronize()
    for r in range(rounds):
        with torch.cuda.stream(filler):
            _ = a @ a  # SMs busy when the Hold grids arrive
        for k in range(8):
            s = low if k % 2 == 0 else high
            ip.lp_norm(xs[k % 2], axis=-1, out=outs[k % 2], stream=s.cuda_stream)
        torch.cuda.synchronize()
        for o, w in zip(outs, wants):
            err = (o.double() - w).abs().max().item()
            if not err <= 8e-3 * w.abs().max().item():
                print(f"round {r}: WRONG (max err {err:.3g})", flush=True)
                return
    print(f"{rounds} rounds: ok", flush=True)


def main(argv) -> int:
    rounds, limit, rows, length = 20, 60, 1, 4 << 20
    it = iter(argv)
    for a in it:
        if a == "--rounds":
            rounds = int(next(it))
        elif a == "--limit":
            limit = int(next(it))
        elif a == "--shape":
            rows, length = (int(v) for v in next(it).lower().split("x"))
        elif a == "--child":
            child(rounds, rows, length)
            return 0
    cmd = [sys.executable, os.path.abspath(__file__), "--child", "--rounds", str(rounds), "--shape", f"{rows}x{length}"]
    t0 = time.time()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
        print(f"rc {r.returncode}, {time.time() - t0:.1f} s\n{(r.stdout + r.stderr).strip()[-3000:]}")
    except subprocess.TimeoutExpired:
        print(f"NO ANSWER within {limit} s (killed): two Hold grids waited for each other, or a round ran long")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.getcwd())
    sys.exit(main(sys.argv[1:]))
