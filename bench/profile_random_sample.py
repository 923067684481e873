"""Per-kernel times of RandomSample (torch.profiler), for tuning: not part of the benchmark table."""
import sys

import torch

import infiniop_py as ip

CASES = [("sample 151936 f16 k50", 1, 151936, (0.5, 0.9, 50, 0.8)), ("argmax 151936 f16", 1, 151936, (0.0, 0.9, 50, 0.8)),
         ("sample 32000 f16 k50", 1, 32000, (0.5, 0.9, 50, 0.8)), ("sample 64x151936 k50", 64, 151936, (0.5, 0.9, 50, 0.8)),
         ("argmax 64x151936", 64, 151936, (0.0, 0.9, 50, 0.8)), ("topp 151936", 1, 151936, (0.5, 0.9, 0, 0.8))]


def main():
    for name, batch, voc, (r, p, k, t) in CASES:
        x = torch.randn(batch, voc, device="cuda").mul_(3).half()
        out = torch.empty(batch, device="cuda", dtype=torch.int64)
        if batch == 1:
            fn = lambda: ip.random_sample(x[0], r, p, k, t, out=out[0])
        else:
            fn = lambda: ip.random_sample_batch(x, [r] * batch, p, k, t, out=out)
        for _ in range(5):
            fn()
        torch.cuda.synchronize()
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            for _ in range(20):
                fn()
            torch.cuda.synchronize()
        print(f"== {name}")
        for ev in prof.key_averages():
            if ev.device_time_total > 0:
                print(f"   {ev.key[:90]:90s} n={ev.count:3d} avg={ev.device_time_total / max(ev.count, 1):8.2f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
