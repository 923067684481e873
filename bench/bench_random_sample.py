"""RandomSample benchmark: ours against the sort-based PyTorch pipeline (sort,
softmax, cumsum, searchsorted) and torch.argmax, on the same inputs, same run.

Times are medians of CUDA-event timings of a CUDA graph holding `PER_GRAPH`
calls over rotating input buffers (more bytes than L2 holds), divided by
`PER_GRAPH`: launch cost without Python overhead. The eager column times one
functional call from Python (what a user pays per token without graphs).
Correctness is checked against a float64 NumPy reference before timing.
"""
from __future__ import annotations

import sys

import numpy as np

try:
    from bench import harness
except ImportError:  # run as a script from bench/
    import harness

import infiniop_py as ip

PER_GRAPH = 20
L2_BYTES = 60 << 20


def reference(row, r, topp, topk, temp):
    v = np.asarray(row, np.float64)
    n = v.size
    order = np.lexsort((np.arange(n), -v))
    if r == 0 or topp <= 0 or topk == 1 or temp <= 0:
        return int(order[0])
    w = np.exp((v[order] - v[order[0]]) / np.float64(np.float32(temp)))
    c = np.cumsum(w)
    K = n if topk <= 0 or topk >= n else topk
    t = np.float64(np.float32(r)) * min(min(np.float64(np.float32(topp)), 1.0) * c[-1], c[K - 1])
    return int(order[min(int(np.searchsorted(c, t)), K - 1)])


def torch_pipeline(x, r, topp, topk, temp):
    """The usual sort-based sampler, exact to the same definition (stable sort for ties)."""
    torch = harness.torch()
    v, idx = torch.sort(x, dim=-1, descending=True, stable=True)
    p = torch.softmax(v.float() / temp, dim=-1)
    c = torch.cumsum(p, dim=-1)
    n = x.shape[-1]
    K = n if topk <= 0 or topk >= n else topk
    bound = torch.minimum(min(topp, 1.0) * c[..., -1:], c[..., K - 1:K])
    pos = torch.searchsorted(c, r * bound).clamp_(max=K - 1)
    return idx.gather(-1, pos)


def cases():
    """(name, batch, vocab, torch dtype name, params or None for argmax)."""
    out = []
    for voc in (32000, 151936):
        for dt in ("float16", "bfloat16"):
            out.append((f"sample v={voc} {dt} k=50 p=0.9 T=0.8", 1, voc, dt, (0.5, 0.9, 50, 0.8)))
            out.append((f"argmax v={voc} {dt}", 1, voc, dt, None))
    out.append(("sample 64x151936 float16 k=50 p=0.9 T=0.8", 64, 151936, "float16", (0.5, 0.9, 50, 0.8)))
    out.append(("argmax 64x151936 float16", 64, 151936, "float16", None))
    out.append(("sample v=151936 float16 top-p only p=0.9 T=0.8", 1, 151936, "float16", (0.5, 0.9, 0, 0.8)))
    out.append(("sample 64x151936 float16 top-p only p=0.9 T=0.8", 64, 151936, "float16", (0.5, 0.9, 0, 0.8)))
    return out


def _graph_time(torch, make_call, nbuf):
    """Median µs per call of a graph of PER_GRAPH calls cycling over nbuf buffers."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for k in range(nbuf):  # warm: descriptor caches, allocator
            make_call(k, s)
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    graphs = []
    for g0 in range(0, max(nbuf, PER_GRAPH), PER_GRAPH):
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g, stream=s):
            for j in range(PER_GRAPH):
                make_call((g0 + j) % nbuf, s)
        graphs.append(g)
    return harness.time_cuda(None, rotate=[g.replay for g in graphs], warmup=5, reps=60) / PER_GRAPH


def run_case(name, batch, voc, dt, params):
    torch = harness.torch()
    dtype = getattr(torch, dt)
    nbytes = batch * voc * dtype.itemsize
    nbuf = max(2, min(256, L2_BYTES // nbytes + 1))
    gen = torch.Generator(device="cuda").manual_seed(0)
    xs = [torch.randn(batch, voc, device="cuda", generator=gen).mul_(3).to(dtype) for _ in range(nbuf)]
    if batch == 1:
        xs = [x[0] for x in xs]
    r, topp, topk, temp = params if params else (0.0, 0.9, 50, 0.8)
    out = torch.empty((batch,) if batch > 1 else (), device="cuda", dtype=torch.int64)
    pad = [(r, topp, topk, temp)] * batch
    rv, tp, tk, tt = (list(col) for col in zip(*pad))

    def ours(k, stream):
        if batch == 1:
            ip.random_sample(xs[k], r, topp, topk, temp, out=out, stream=stream)
        else:
            ip.random_sample_batch(xs[k], rv, tp, tk, tt, out=out, stream=stream)

    def theirs(k, stream):
        if params is None:
            return torch.argmax(xs[k], dim=-1)
        return torch_pipeline(xs[k], r, topp, topk, temp)

    # Correctness first: ours against the float64 reference, every row of buffer 0.
    ours(0, None)
    torch.cuda.synchronize()
    host = xs[0].float().cpu().numpy().reshape(batch, voc)
    got = out.cpu().numpy().reshape(-1)
    want = [reference(host[b], r, topp, topk, temp) for b in range(batch)]
    ok = all(int(g) == w for g, w in zip(got, want))
    theirs_got = theirs(0, None).cpu().numpy().reshape(-1)
    torch_ok = all(int(g) == w for g, w in zip(theirs_got, want))

    ours_us = _graph_time(torch, ours, nbuf)
    torch_us = _graph_time(torch, theirs, nbuf)
    eager_us = harness.time_cuda(lambda: ours(0, None), warmup=10, reps=100)
    note = f"eager {eager_us:.1f} µs"
    if not torch_ok:
        note += "; PyTorch pipeline differs from the reference"
    return harness.Row("random_sample", name, ours_us, torch_us, nbytes, harness.copy_roofline_gbps(), ok, note)


def main(argv=None):
    rows = []
    for case in cases():
        row = run_case(*case)
        print(f"{row.case}: ours {row.ours_us:.1f} µs, torch {row.torch_us:.1f} µs, ok={row.ok} ({row.note})",
              flush=True)
        rows.append(row)
    harness.print_table(rows, "RandomSample (graph-replayed, median µs per call)")
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
