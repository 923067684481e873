"""One side of the rs5 A/B (issue 12, single-row sampling): the sampling cases
of bench_random_sample on whichever library INFINIOP_LIBRARY names, ours only
(CUDA-graph device time and ABI eager, µs per call), each row checked against
the float64 reference first, plus extra single rows (fresh seeds, several r)
checked the same way. Run it once per build, interleaved (A B A B).

    INFINIOP_LIBRARY=build/rs5wide/lib/libinfiniop.so python3 tools/rs5_ab.py LABEL
"""
from __future__ import annotations

import os
import sys

from infiniop_py.bench import bench_random_sample as brs
from infiniop_py.bench import harness

CASES = ("sample v=32000 float16", "sample v=151936 float16", "sample v=151936 bfloat16",
         "sample v=262144 float16", "sample 8x151936 float16", "sample 64x151936 float16 k",
         "sample v=151936 float16 top-p only")
# RS_AB_ARGMAX=1 adds the argmax rows (single rows and batches); RS_AB_ROWS="2,16,32" adds
# sampling batches of those sizes (k=50 p=0.9 T=0.8 over 151936 F16 logits).
ARGMAX = ("argmax v=32000 float16", "argmax v=151936 float16", "argmax 8x151936 float16", "argmax 64x151936 float16")


def extra_checks(label: str) -> int:
    """Single rows on fresh inputs (several r, k, p, T): wrong rows against the F64 rule."""
    torch = harness.torch()
    ip = brs.ip
    out = torch.empty((), device="cuda", dtype=torch.int64)
    params = [(r, p, k, t) for r in (0.01, 0.5, 0.97) for (p, k, t) in ((0.9, 50, 0.8), (1.0, 64, 1.0),
                                                                        (0.5, 2000, 0.7), (0.9, 0, 0.8))]
    wrong = 0
    for voc in (32000, 151936, 262144):
        for seed, (r, p, k, t) in enumerate(params):
            gen = torch.Generator(device="cuda").manual_seed(1000 + seed)
            x = torch.randn(voc, device="cuda", generator=gen).mul_(3).to(torch.float16)
            out.fill_(-1)
            ip.random_sample(x, r, p, k, t, out=out)
            got = int(out.item())
            want = brs.reference(x.float().cpu().numpy(), r, p, k, t)
            if got != want:
                wrong += 1
                print(f"{label}: WRONG v={voc} r={r} p={p} k={k} T={t}: got {got}, want {want}")
    return wrong


def main() -> int:
    label = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("INFINIOP_LIBRARY", "default")
    cases = CASES + (ARGMAX if os.environ.get("RS_AB_ARGMAX") == "1" else ())
    specs = [s for s in brs.GPU_SPECS if any(s[0].startswith(c) for c in cases)]
    for b in filter(None, os.environ.get("RS_AB_ROWS", "").split(",")):
        specs.append((f"sample {int(b)}x151936 float16 k=50 p=0.9 T=0.8", int(b), 151936, "float16", brs.SAMPLE))
    bad = 0
    for spec in specs:
        p = brs._Prepared(*spec)
        p.ours(0, None)
        harness.torch().cuda.synchronize()
        verdict = p.check()
        ok = verdict is True
        bad += not ok
        graph = harness.time_cuda_graph([lambda s, k=k: p.ours(k, s) for k in range(p.nbuf)],
                                        per_graph=brs.PER_GRAPH)
        eager = brs.abi_eager_us(p)
        print(f"{label} | {spec[0]} | graph {graph:.1f} | eager {eager:.1f} | {'ok' if ok else verdict}", flush=True)
    wrong = extra_checks(label)
    print(f"{label}: {bad} bench rows wrong, {wrong} extra rows wrong", flush=True)
    return 1 if bad or wrong else 0


if __name__ == "__main__":
    sys.exit(main())
