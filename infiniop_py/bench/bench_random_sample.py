"""RandomSample benchmark: ours against the sort-based PyTorch pipeline (sort,
softmax, cumsum, searchsorted) and torch.argmax, on the same inputs, same run.

    python3 -m infiniop_py.bench.bench_random_sample [--device nvidia|cpu] [--eager] [--profile] [--only TEXT] [--json PATH]

Two times per case, same run, same inputs: "ABI eager", a loop of
`PER_GRAPH` eager calls of the C ABI (infiniopRandomSample[Batch] through
cffi, no Python layer of ours) between two CUDA events, what a serving loop
pays per token; and "graph", `PER_GRAPH` calls captured in a CUDA graph
(device time without launch gaps). Both over rotating input buffers (more
bytes than L2 holds), medians, divided by `PER_GRAPH`. PyTorch (sort
pipeline, or torch.argmax) is timed as a graph too. `--eager` adds rows
timing one functional call from Python (harness.run_case). Correctness is checked
against a float64 NumPy reference before timing. On the CPU the baseline is
the same sort-based pipeline in NumPy.
"""
from __future__ import annotations

import statistics
import sys

import numpy as np


import infiniop_py as ip  # noqa: E402
from infiniop_py.bench import harness  # noqa: E402

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


SAMPLE = (0.5, 0.9, 50, 0.8)
TOPP_ONLY = (0.5, 0.9, 0, 0.8)
GPU_SPECS = [
    # name, batch, vocab, torch dtype name, (random_val, topp, topk, T) or None for argmax
    *[(f"{kind} v={voc} {dt}" + (" k=50 p=0.9 T=0.8" if kind == "sample" else ""), 1, voc, dt,
       SAMPLE if kind == "sample" else None)
      for voc, dts in ((32000, ("float16",)), (151936, ("float16", "bfloat16")), (262144, ("float16",)))
      for dt in dts for kind in ("sample", "argmax")],
    *[(f"{kind} {b}x151936 float16" + (" k=50 p=0.9 T=0.8" if kind == "sample" else ""), b, 151936, "float16",
       SAMPLE if kind == "sample" else None)
      for b in (8, 64, 256) for kind in ("sample", "argmax")],
    ("argmax 64x151936 float32", 64, 151936, "float32", None),
    ("sample v=151936 float16 top-p only p=0.9 T=0.8", 1, 151936, "float16", TOPP_ONLY),
    ("sample 64x151936 float16 top-p only p=0.9 T=0.8", 64, 151936, "float16", TOPP_ONLY),
]
CPU_SPECS = [
    ("sample v=32000 float32 k=50 p=0.9 T=0.8", 32000, (0.5, 0.9, 50, 0.8)),
    ("sample v=151936 float32 k=50 p=0.9 T=0.8", 151936, (0.5, 0.9, 50, 0.8)),
    ("sample v=151936 float32 top-p only p=0.9 T=0.8", 151936, (0.5, 0.9, 0, 0.8)),
    ("argmax v=151936 float32", 151936, None),
]


class _Prepared:
    """One GPU spec's inputs (rotating buffers, more bytes than L2), our call and PyTorch's."""

    def __init__(self, name, batch, voc, dt, params):
        torch = harness.torch()
        self.name, self.batch, self.voc, self.params = name, batch, voc, params
        dtype = getattr(torch, dt)
        self.nbytes = batch * voc * dtype.itemsize
        self.nbuf = max(2, min(256, L2_BYTES // self.nbytes + 1))
        gen = torch.Generator(device="cuda").manual_seed(0)
        xs = [torch.randn(batch, voc, device="cuda", generator=gen).mul_(3).to(dtype) for _ in range(self.nbuf)]
        self.xs = [x[0] for x in xs] if batch == 1 else xs
        self.r, self.topp, self.topk, self.temp = params if params else (0.0, 0.9, 50, 0.8)
        self.out = torch.empty((batch,) if batch > 1 else (), device="cuda", dtype=torch.int64)
        self.rv, self.tp, self.tk, self.tt = ([v] * batch for v in (self.r, self.topp, self.topk, self.temp))

    def ours(self, k, stream):
        if self.batch == 1:
            ip.random_sample(self.xs[k], self.r, self.topp, self.topk, self.temp, out=self.out, stream=stream)
        else:
            ip.random_sample_batch(self.xs[k], self.rv, self.tp, self.tk, self.tt, out=self.out, stream=stream)

    def abi_calls(self):
        """Per buffer, a zero-argument call of the C ABI itself (cffi, the descriptor made
        once here), on torch's current stream: the eager cost a serving loop pays."""
        from infiniop_py._ffi import ffi, lib

        torch = harness.torch()
        handle = ip.Handle("nvidia", torch.cuda.current_device())
        if self.batch == 1:
            desc = ip.RandomSample(handle, self.out, self.xs[0])
        else:
            desc = ip.RandomSampleBatch(handle, self.out, self.xs[0])
        self._keep = (handle, desc)
        ws = torch.empty(max(desc.workspace_size, 1), dtype=torch.uint8, device="cuda")
        self._keep += (ws,)
        wsp, wss = ffi.cast("void *", ws.data_ptr()), desc.workspace_size
        out = ffi.cast("void *", self.out.data_ptr())
        stream = ffi.cast("void *", torch.cuda.current_stream().cuda_stream)
        if self.batch == 1:
            r, tp, tk, tt = float(self.r), float(self.topp), int(self.topk), float(self.temp)
            return [lambda x=ffi.cast("void *", x.data_ptr()): lib.infiniopRandomSample(
                desc.ptr, wsp, wss, out, x, r, tp, tk, tt, stream) for x in self.xs]
        arrays = (ffi.new("float[]", self.rv), ffi.new("float[]", self.tp), ffi.new("int[]", self.tk),
                  ffi.new("float[]", self.tt))
        self._keep += arrays
        rv, tp, tk, tt = arrays
        return [lambda x=ffi.cast("void *", x.data_ptr()): lib.infiniopRandomSampleBatch(
            desc.ptr, wsp, wss, out, x, rv, tp, tk, tt, self.batch, stream) for x in self.xs]

    def theirs(self, k, stream):
        if self.params is None:
            return harness.torch().argmax(self.xs[k], dim=-1)
        return torch_pipeline(self.xs[k], self.r, self.topp, self.topk, self.temp)

    def want(self):
        host = self.xs[0].float().cpu().numpy().reshape(self.batch, self.voc)
        return [reference(host[b], self.r, self.topp, self.topk, self.temp) for b in range(self.batch)]

    def check(self):
        """Ours (after one call on buffer 0) against the float64 reference, every row."""
        got = self.out.cpu().numpy().reshape(-1)
        want = self.want()
        bad = [b for b in range(self.batch) if int(got[b]) != want[b]]
        return True if not bad else f"rows {bad[:5]} differ from the float64 reference"


def numpy_pipeline(x, r, topp, topk, temp):
    """The sort-based sampler in NumPy (the CPU baseline), same definition."""
    order = np.argsort(-x, kind="stable")
    v = x[order].astype(np.float64)
    w = np.exp((v - v[0]) / temp)
    c = np.cumsum(w)
    n = x.size
    K = n if topk <= 0 or topk >= n else topk
    t = r * min(min(topp, 1.0) * c[-1], c[K - 1])
    return int(order[min(int(np.searchsorted(c, t)), K - 1)])


def _cpu_case(name, voc, params) -> harness.Case:
    x = np.random.default_rng(0).standard_normal(voc).astype(np.float32) * 3
    r, topp, topk, temp = params if params else (0.0, 0.9, 50, 0.8)
    res = {}

    def ours():
        res["got"] = ip.random_sample(x, r, topp, topk, temp)

    def baseline():
        return int(np.argmax(x)) if params is None else numpy_pipeline(x, r, topp, topk, temp)

    def check():
        want = reference(x, r, topp, topk, temp)
        return True if res.get("got") == want else f"got {res.get('got')}, the reference says {want}"

    return harness.Case("random_sample", name, "cpu", ours, baseline, check, x.nbytes)


def cases(device: str = "nvidia", only: str = ""):
    """The issue's cases (those whose name contains `only`) as harness.Case objects
    (inputs allocated), eager calls; on NVIDIA each also carries `_prepared` for
    the CUDA-graph timing in main()."""
    if device == "cpu":
        return [_cpu_case(*spec) for spec in CPU_SPECS if only in spec[0]]
    out = []
    for spec in (s for s in GPU_SPECS if only in s[0]):
        p = _Prepared(*spec)
        case = harness.Case("random_sample", p.name, "nvidia", ours=lambda p=p: p.ours(0, None),
                            baseline=lambda p=p: p.theirs(0, None), check=p.check, bytes_moved=p.nbytes,
                            rotate=[lambda p=p, k=k: p.ours(k, None) for k in range(p.nbuf)],
                            baseline_rotate=[lambda p=p, k=k: p.theirs(k, None) for k in range(p.nbuf)])
        case._prepared = p
        out.append(case)
    return out


def abi_eager_us(p: _Prepared, reps: int = 50) -> float:
    """Median µs per call of PER_GRAPH back-to-back eager ABI calls between two CUDA events."""
    torch = harness.torch()
    calls = p.abi_calls()
    for k in range(10):
        assert calls[k % len(calls)]() == 0, "the C call failed"
    torch.cuda.synchronize()
    times = []
    for rep in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for j in range(PER_GRAPH):
            calls[(rep * PER_GRAPH + j) % len(calls)]()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / PER_GRAPH)
    return statistics.median(times)


def graph_row(case) -> "harness.Row":
    """Ours and PyTorch as CUDA-graph replays (PER_GRAPH calls per graph over
    rotating buffers): the kernels' own time, without Python. Checked first."""
    torch = harness.torch()
    p = case._prepared
    p.ours(0, None)
    torch.cuda.synchronize()
    verdict = p.check()
    want = p.want()
    theirs_got = p.theirs(0, None).cpu().numpy().reshape(-1)
    torch_ok = all(int(g) == w for g, w in zip(theirs_got, want))
    ours_us = harness.time_cuda_graph([lambda s, k=k: p.ours(k, s) for k in range(p.nbuf)], per_graph=PER_GRAPH)
    torch_us = harness.time_cuda_graph([lambda s, k=k: p.theirs(k, s) for k in range(p.nbuf)], per_graph=PER_GRAPH)
    p.abi_us = abi_eager_us(p)
    note = f"ABI eager {p.abi_us:.1f} µs" + ("" if torch_ok else "; PyTorch pipeline differs from the reference")
    return harness.Row("random_sample", p.name, ours_us, torch_us, p.nbytes, harness.copy_roofline_gbps(),
                       verdict is True, note if verdict is True else str(verdict))


def profile(device_cases) -> None:
    """Per-kernel device times (torch.profiler) of our eager calls, for tuning."""
    torch = harness.torch()
    for case in device_cases:
        for _ in range(5):
            case.ours()
        torch.cuda.synchronize()
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            for _ in range(20):
                case.ours()
            torch.cuda.synchronize()
        print(f"== {case.name}")
        for ev in prof.key_averages():
            if ev.device_time_total > 0:
                print(f"   {ev.key[:90]:90s} n={ev.count:3d} avg={ev.device_time_total / max(ev.count, 1):8.2f} us")


def latency_table(rows) -> str:
    """The issue's view: ABI eager next to graph device time and PyTorch (graph), µs per call."""
    lines = ["", f"device: {harness.device_name()}", "",
             "| case | ours, ABI eager | ours, graph | PyTorch, graph | PyTorch / ours (eager) | ok |",
             "|---|---:|---:|---:|---:|---|"]
    for r in rows:
        if "ABI eager" not in r.note:
            continue
        eager = float(r.note.split("ABI eager ")[1].split(" ")[0])
        lines.append(f"| {r.case} | {eager:.1f} | {r.ours_us:.1f} | {r.torch_us:.1f} | {r.torch_us / eager:.2f}x | "
                     f"{'yes' if r.ok else 'NO'} |")
    return "\n".join(lines)


def main(argv=None):
    parser = harness.arguments(__doc__)
    parser.add_argument("--eager", action="store_true", help="also time single eager calls from Python")
    parser.add_argument("--profile", action="store_true", help="print per-kernel times instead of the table")
    parser.add_argument("--only", default="", help="only the cases whose name contains this text (e.g. argmax)")
    args = parser.parse_args(argv)
    all_cases = cases(args.device, args.only)
    if args.profile:
        profile(all_cases)
        return []
    rows = []
    for case in all_cases:
        if args.device == "nvidia":
            row = graph_row(case)
            print(f"{row.case}: ours {row.ours_us:.1f} µs, torch {row.torch_us:.1f} µs, ok={row.ok} {row.note}",
                  flush=True)
            rows.append(row)
            if not args.eager:
                continue
        eager = harness.run_case(case)
        if args.device == "nvidia":
            eager.case += " (eager, from Python)"
        rows.append(eager)
    if args.device == "nvidia":
        print(latency_table(rows))
    title = "RandomSample" + (" (CUDA-graph replays, median µs per call)" if args.device == "nvidia" else "")
    return harness.report(rows, title, args)


if __name__ == "__main__":
    rows = main(sys.argv[1:])
    sys.exit(0 if all(r.ok for r in rows) else 1)
