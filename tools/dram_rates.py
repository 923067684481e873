"""Session 20: DRAM rates by direction on the GPU (H100 question: does a phase that only writes,
as LPNorm Hold's phase B, run slower than a copy?). For 1 GiB and 64 MiB buffers: a write-only fill
(torch fill_), a read-only reduction (torch amax over int32) and a
copy (copy_), timed with events around 20 launches queued back to back, median of 5 rounds; GB/s of
DRAM bytes (written, read, read + written).

  PYTHONPATH=. python3 tools/dram_rates.py
"""
import statistics

import torch


def rate(fn, nbytes, reps=20, rounds=5):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(rounds):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(reps):
            fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) / reps * 1e-3)
    t = statistics.median(times)
    return t * 1e6, nbytes / t / 1e9


def main():
    print("device:", torch.cuda.get_device_name(0))
    for size in (1 << 30, 64 << 20):
        n = size // 4
        x = torch.ones(n, dtype=torch.int32, device="cuda")
        y = torch.empty_like(x)
        out = torch.empty((), dtype=torch.int32, device="cuda")
        rows = [("write only (fill_)", lambda: y.fill_(7), size),
                ("read only (amax)", lambda: torch.amax(x, dim=0, out=out), size),
                ("copy (copy_)", lambda: y.copy_(x), 2 * size)]
        for name, fn, nbytes in rows:
            us, gbs = rate(fn, nbytes)
            print(f"{size >> 20:5d} MiB  {name:20s} {us:9.1f} µs  {gbs:7.0f} GB/s")


if __name__ == "__main__":
    main()
