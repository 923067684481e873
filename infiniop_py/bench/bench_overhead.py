"""Host cost per call (issue 11): what a Python user waits for on tiny inputs.

    python -m infiniop_py bench --suite overhead [--device cpu|nvidia] [--quick] [--json FILE]
    python3 infiniop_py/bench/bench_overhead.py --device torch-cpu   (torch CPU tensors: the torch branch, no GPU)
    python3 infiniop_py/bench/bench_overhead.py [--device ...]   (also runs against an older package)

For every functional call and every descriptor call, on inputs so small that
the kernel is nothing: host time per call (a loop of calls timed with the host
clock, the device synchronised only between loops, so that nothing waits for
the device unless the call itself does), next to

- the raw C call through cffi on a cached descriptor with pre-cast pointers
  (the floor a binding can reach in cffi's ABI mode), and
- the reference library's own call: PyTorch on the GPU, NumPy on the CPU.

The three are timed interleaved in the same run (loop of ours, loop of raw,
loop of the reference, repeated), medians reported. Each call's result is
checked once before timing; the numbers are printed, never asserted.
Only the public API and `_ffi` are used, so that the same file measures an
older version of the package (the before/after tables in notes/overhead.md).
"""
from __future__ import annotations

import dataclasses
import statistics
import sys
import time
from typing import Callable, List, Optional

import numpy as np

import infiniop_py as ip
from infiniop_py._ffi import ffi, lib


@dataclasses.dataclass
class Call:
    """One timed call: `ours` next to its raw C call and the reference library's equivalent."""

    op: str
    name: str
    ours: Callable[[], object]
    raw: Optional[Callable[[], object]]
    base: Optional[Callable[[], object]]
    check: Callable[[], object]  # True, or a string saying what is wrong


@dataclasses.dataclass
class OverheadRow:
    op: str
    call: str
    ours_us: float
    raw_us: Optional[float]
    base_us: Optional[float]
    ok: bool = True
    note: str = ""

    @property
    def vs_raw(self) -> Optional[float]:
        return None if self.raw_us is None else self.ours_us / self.raw_us

    @property
    def vs_base(self) -> Optional[float]:
        return None if self.base_us is None else self.ours_us / self.base_us

    def as_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d.update(vs_raw=self.vs_raw, vs_base=self.vs_base)
        return d


def _vp(address: int):
    return ffi.cast("void *", address)


def _handle(device: str) -> "ip.Handle":
    return ip.Handle(device, 0)


def _desc(cls, handle, *arrays, params=()):
    tds = [ip.TensorDescriptor.from_array(a) for a in arrays]
    return cls(handle, *tds, *params)


def _workspace(desc, device: str):
    size = desc.workspace_size
    ws = ip.Workspace(device, size) if size else None
    return ws, (_vp(ws.ptr) if ws else ffi.NULL), size


# ---- the calls ----

def _mul_calls(a, b, c, mul, raw, base_out, base_new, poison, matches) -> List[Call]:
    """The three Mul calls on arrays of either library: `poison(c)` before each
    check, `matches(result)` says whether a result is right."""
    def check_of(fn):
        def check():
            poison(c)
            r = fn()
            return matches(c if r is None or r is c else r)
        return check

    return [
        Call("mul", "ip.mul(a, b, out=c)", lambda: ip.mul(a, b, out=c), raw, base_out,
             check_of(lambda: ip.mul(a, b, out=c))),
        Call("mul", "ip.mul(a, b)", lambda: ip.mul(a, b), raw, base_new, check_of(lambda: ip.mul(a, b))),
        Call("mul", "Mul descriptor(c, a, b)", lambda: mul(c, a, b), raw, base_out, check_of(lambda: mul(c, a, b))),
    ]


def _calls_cpu() -> List[Call]:
    rng = np.random.default_rng(0)
    f32 = np.float32
    h = _handle("cpu")
    calls: List[Call] = []
    null = ffi.NULL

    # Mul, 4x4 F32
    a, b, c = (rng.uniform(-2, 2, (4, 4)).astype(f32) for _ in range(3))
    mul = _desc(ip.Mul, h, c, a, b)
    mp, cp, ap, bp = mul.ptr, _vp(c.ctypes.data), _vp(a.ctypes.data), _vp(b.ctypes.data)
    raw_mul = lambda: lib.infiniopMul(mp, null, 0, cp, ap, bp, null)  # noqa: E731
    ref = a.astype(np.float64) * b

    calls += _mul_calls(a, b, c, mul, raw_mul, lambda: np.multiply(a, b, out=c), lambda: np.multiply(a, b),
                        lambda x: x.fill(np.nan),
                        lambda x: bool(np.array_equal(x, ref.astype(f32))) or "differs from NumPy")

    # Rearrange, a 4x4 transpose
    src = rng.uniform(-2, 2, (4, 4)).astype(f32)
    dst = np.empty((4, 4), f32)
    st = src.T
    re = _desc(ip.Rearrange, h, dst, st)
    rp, dp, sp = re.ptr, _vp(dst.ctypes.data), _vp(st.ctypes.data)
    raw_re = lambda: lib.infiniopRearrange(rp, dp, sp, null)  # noqa: E731

    def re_check(fn):
        def check():
            dst.fill(np.nan)
            fn()
            return bool(np.array_equal(dst, st)) or "differs from NumPy"
        return check

    base = lambda: np.copyto(dst, st)  # noqa: E731
    calls += [
        Call("rearrange", "ip.rearrange(a.T, out=o)", lambda: ip.rearrange(st, out=dst), raw_re, base,
             re_check(lambda: ip.rearrange(st, out=dst))),
        Call("rearrange", "Rearrange descriptor(o, a.T)", lambda: re(dst, st), raw_re, base,
             re_check(lambda: re(dst, st))),
    ]

    # LPNorm, 4x4 F32 along the last axis
    x = rng.uniform(-2, 2, (4, 4)).astype(f32)
    y = np.empty_like(x)
    lp = _desc(ip.LPNorm, h, y, x, params=(-1, 2, 1e-12))
    lws, lwsp, lwss = _workspace(lp, "cpu")
    lpp, yp, xp = lp.ptr, _vp(y.ctypes.data), _vp(x.ctypes.data)
    raw_lp = lambda: lib.infiniopLPNorm(lpp, lwsp, lwss, yp, xp, null)  # noqa: E731
    xr = x.astype(np.float64)
    lp_ref = xr / np.maximum(np.linalg.norm(xr, axis=-1, keepdims=True), 1e-12)

    def lp_check(fn):
        def check():
            y.fill(np.nan)
            fn()
            return bool(np.allclose(y, lp_ref, rtol=1e-5, atol=1e-6)) or "differs from NumPy"
        return check

    base = lambda: np.divide(x, np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12), out=y)  # noqa: E731
    calls += [
        Call("lp_norm", "ip.lp_norm(x, out=y)", lambda: ip.lp_norm(x, out=y), raw_lp, base,
             lp_check(lambda: ip.lp_norm(x, out=y))),
        Call("lp_norm", "LPNorm descriptor(y, x)", lambda: lp(y, x), raw_lp, base, lp_check(lambda: lp(y, x))),
    ]
    calls += _random_sample_calls("cpu", h, rng.standard_normal(1024).astype(f32),
                                  rng.standard_normal((64, 1024)).astype(f32), np.empty((), np.int64),
                                  np.empty(64, np.int64), None, keep=(lws,))
    return calls


def _random_sample_calls(device, h, logits, batch_logits, out, out_b, torch, keep=()) -> List[Call]:
    """random_sample (argmax: random_val 0) and random_sample_batch on 64 rows, on either device."""
    null = ffi.NULL
    gpu = torch is not None
    ptr = (lambda t: t.data_ptr()) if gpu else (lambda a: a.ctypes.data)
    host = (lambda t: t.cpu().numpy()) if gpu else (lambda a: a)
    argmax = int(np.argmax(host(logits)))
    argmax_b = np.argmax(host(batch_logits).astype(np.float64), axis=1)
    rs = _desc(ip.RandomSample, h, out, logits)
    ws, wsp, wss = _workspace(rs, device)
    rsp, op_, lp_ = rs.ptr, _vp(ptr(out)), _vp(ptr(logits))
    raw_rs = lambda: lib.infiniopRandomSample(rsp, wsp, wss, op_, lp_, 0.0, 0.9, 5, 1.0, null)  # noqa: E731

    rows = batch_logits.shape[0]
    rv, tp, tt = (np.zeros(rows, np.float32), np.full(rows, 0.9, np.float32), np.ones(rows, np.float32))
    tk = np.full(rows, 5, np.int32)
    rsb = _desc(ip.RandomSampleBatch, h, out_b, batch_logits)
    wsb, wsbp, wsbs = _workspace(rsb, device)
    fcast = lambda arr: ffi.cast("const float *", arr.ctypes.data)  # noqa: E731
    rvp, tpp, ttp, tkp = fcast(rv), fcast(tp), fcast(tt), ffi.cast("const int *", tk.ctypes.data)
    rsbp, obp, blp = rsb.ptr, _vp(ptr(out_b)), _vp(ptr(batch_logits))
    raw_rsb = lambda: lib.infiniopRandomSampleBatch(rsbp, wsbp, wsbs, obp, blp, rvp, tpp, tkp, ttp, rows,  # noqa: E731
                                                    null)

    def poison(o):
        if gpu:
            o.fill_(-1)
        else:
            o.fill(-1)

    def one_check(fn):
        def check():
            poison(out)
            r = fn()
            got = r if isinstance(r, int) else int(host(out))
            return got == argmax or f"index {got}, argmax {argmax}"
        return check

    def batch_check(fn):
        def check():
            poison(out_b)
            r = fn()
            got = r if isinstance(r, np.ndarray) else host(out_b)
            return bool(np.array_equal(got, argmax_b)) or "differs from the argmax"
        return check

    keep_alive = (ws, wsb, keep)
    if gpu:
        base_one = lambda: torch.argmax(logits)  # noqa: E731
        base_int = lambda: int(torch.argmax(logits))  # noqa: E731
        base_b = lambda: torch.argmax(batch_logits, 1)  # noqa: E731
    else:
        base_one = base_int = lambda: np.argmax(logits)  # noqa: E731
        base_b = lambda: np.argmax(batch_logits, 1)  # noqa: E731
    n = logits.shape[0]
    calls = [
        Call("random_sample", f"ip.random_sample(x, 0.0, ..., out=o), n={n}",
             lambda: ip.random_sample(logits, 0.0, 0.9, 5, 1.0, out=out), raw_rs, base_one,
             one_check(lambda: ip.random_sample(logits, 0.0, 0.9, 5, 1.0, out=out))),
        Call("random_sample", f"ip.random_sample(x, 0.0, ...) -> int, n={n}",
             lambda: ip.random_sample(logits, 0.0, 0.9, 5, 1.0), raw_rs, base_int,
             one_check(lambda: ip.random_sample(logits, 0.0, 0.9, 5, 1.0))),
        Call("random_sample", "RandomSample descriptor(o, x, ...)",
             lambda: rs(out, logits, 0.0, 0.9, 5, 1.0), raw_rs, base_one,
             one_check(lambda: rs(out, logits, 0.0, 0.9, 5, 1.0))),
        Call("random_sample", f"ip.random_sample_batch(X, arrays, out=o), {rows} rows",
             lambda: ip.random_sample_batch(batch_logits, rv, tp, tk, tt, out=out_b), raw_rsb, base_b,
             batch_check(lambda: ip.random_sample_batch(batch_logits, rv, tp, tk, tt, out=out_b))),
        Call("random_sample", f"ip.random_sample_batch(X, scalars, out=o), {rows} rows",
             lambda: ip.random_sample_batch(batch_logits, 0.0, 0.9, 5, 1.0, out=out_b), raw_rsb, base_b,
             batch_check(lambda: ip.random_sample_batch(batch_logits, 0.0, 0.9, 5, 1.0, out=out_b))),
        Call("random_sample", "RandomSampleBatch descriptor(o, X, arrays)",
             lambda: rsb(out_b, batch_logits, rv, tp, tk, tt), raw_rsb, base_b,
             batch_check(lambda: rsb(out_b, batch_logits, rv, tp, tk, tt))),
    ]
    for c in calls:
        c.keep = keep_alive  # the workspaces live as long as the calls
    return calls


def _calls_gpu(dev: str = "cuda") -> List[Call]:
    """The torch calls: the issue's cases on the GPU; with dev="cpu", the same calls on
    torch CPU tensors (F32, small logits) so that the torch branch is timed without a GPU."""
    import torch

    torch.manual_seed(0)
    gpu = dev == "cuda"
    f16 = torch.float16 if gpu else torch.float32
    h = _handle("nvidia" if gpu else "cpu")
    null = ffi.NULL
    calls: List[Call] = []

    def rand(*shape):
        return torch.randn(*shape, device=dev, dtype=torch.float32).to(f16)

    # Mul, 16x64 F16 (the issue's case)
    a, b, c = rand(16, 64), rand(16, 64), torch.empty(16, 64, device=dev, dtype=f16)
    mul = _desc(ip.Mul, h, c, a, b)
    mp, cp, ap, bp = mul.ptr, _vp(c.data_ptr()), _vp(a.data_ptr()), _vp(b.data_ptr())
    raw_mul = lambda: lib.infiniopMul(mp, null, 0, cp, ap, bp, null)  # noqa: E731
    ref = a * b

    calls += _mul_calls(a, b, c, mul, raw_mul, lambda: torch.mul(a, b, out=c), lambda: torch.mul(a, b),
                        lambda x: x.fill_(float("nan")),
                        lambda x: bool(torch.equal(torch.as_tensor(x), ref)) or "differs from torch.mul")

    # Rearrange: a 64x16 tensor's transpose into a contiguous 16x64
    src = rand(64, 16)
    st = src.t()
    dst = torch.empty(16, 64, device=dev, dtype=f16)
    re = _desc(ip.Rearrange, h, dst, st)
    rp, dp, sp = re.ptr, _vp(dst.data_ptr()), _vp(st.data_ptr())
    raw_re = lambda: lib.infiniopRearrange(rp, dp, sp, null)  # noqa: E731

    def re_check(fn):
        def check():
            dst.fill_(float("nan"))
            fn()
            return bool(torch.equal(dst, st)) or "differs from copy_"
        return check

    base = lambda: dst.copy_(st)  # noqa: E731
    calls += [
        Call("rearrange", "ip.rearrange(a.t(), out=o)", lambda: ip.rearrange(st, out=dst), raw_re, base,
             re_check(lambda: ip.rearrange(st, out=dst))),
        Call("rearrange", "Rearrange descriptor(o, a.t())", lambda: re(dst, st), raw_re, base,
             re_check(lambda: re(dst, st))),
    ]

    # LPNorm, 16x64 F16 along the last axis
    x = rand(16, 64)
    y = torch.empty_like(x)
    lp = _desc(ip.LPNorm, h, y, x, params=(-1, 2, 1e-12))
    lws, lwsp, lwss = _workspace(lp, h.device)
    lpp, yp, xp = lp.ptr, _vp(y.data_ptr()), _vp(x.data_ptr())
    raw_lp = lambda: lib.infiniopLPNorm(lpp, lwsp, lwss, yp, xp, null)  # noqa: E731
    lp_ref = torch.nn.functional.normalize(x.double(), dim=-1, eps=1e-12)

    def lp_check(fn):
        def check():
            y.fill_(float("nan"))
            fn()
            return bool(torch.allclose(y.double(), lp_ref, rtol=2e-3, atol=1e-3)) or "differs from normalize"
        return check

    base = lambda: torch.nn.functional.normalize(x, dim=-1, eps=1e-12, out=y)  # noqa: E731
    calls += [
        Call("lp_norm", "ip.lp_norm(x, out=y)", lambda: ip.lp_norm(x, out=y), raw_lp, base,
             lp_check(lambda: ip.lp_norm(x, out=y))),
        Call("lp_norm", "LPNorm descriptor(y, x)", lambda: lp(y, x), raw_lp, base, lp_check(lambda: lp(y, x))),
    ]
    calls += _random_sample_calls(h.device, h, rand(151936 if gpu else 1024), rand(64, 1024 if gpu else 64),
                                  torch.empty((), device=dev, dtype=torch.int64),
                                  torch.empty(64, device=dev, dtype=torch.int64), torch, keep=(lws,))
    return calls


def _loop_us(fn: Callable[[], object], inner: int) -> float:
    start = time.perf_counter()
    for _ in range(inner):
        fn()
    return (time.perf_counter() - start) / inner * 1e6


def measure(calls: List[Call], *, inner: int, reps: int, sync: Callable[[], None]) -> List[OverheadRow]:
    rows = []
    for call in calls:
        verdict = call.check()
        sync()
        if verdict is not True:
            rows.append(OverheadRow(call.op, call.name, float("nan"), None, None, False, str(verdict)))
            continue
        fns = [f for f in (call.ours, call.raw, call.base) if f is not None]
        for f in fns:  # warm up (descriptor caches, workspaces, lazy symbols)
            _loop_us(f, max(inner // 4, 2))
        sync()
        samples: List[List[float]] = [[] for _ in fns]
        for _ in range(reps):
            for i, f in enumerate(fns):
                samples[i].append(_loop_us(f, inner))
                sync()  # outside the timed loop: the next loop starts on an idle queue
        med = iter([statistics.median(s) for s in samples])
        ours = next(med)
        raw = next(med) if call.raw is not None else None
        base = next(med) if call.base is not None else None
        rows.append(OverheadRow(call.op, call.name, ours, raw, base))
    return rows


def run(device: str = "cpu", quick: bool = False) -> List[OverheadRow]:
    """Build, check and time every call on `device`."""
    if device == "nvidia":
        import torch

        calls = _calls_gpu()
        sync = torch.cuda.synchronize
        inner, reps = (10, 3) if quick else (100, 21)
    elif device == "torch-cpu":
        calls = _calls_gpu("cpu")
        sync = lambda: None  # noqa: E731
        inner, reps = (10, 3) if quick else (300, 21)
    else:
        calls = _calls_cpu()
        sync = lambda: None  # noqa: E731
        inner, reps = (10, 3) if quick else (300, 21)
    return measure(calls, inner=inner, reps=reps, sync=sync)


def markdown_table(rows: List[OverheadRow], device: str) -> str:
    base = "NumPy" if device == "cpu" else "PyTorch"
    lines = [f"| op | call | ours (µs/call) | raw C call (µs) | ours / raw | {base} (µs) | ours / {base} | note |",
             "|---|---|---:|---:|---:|---:|---:|---|"]

    def num(v, fmt):
        return "—" if v is None else format(v, fmt)

    for r in rows:
        note = r.note if r.ok else ("WRONG RESULT " + r.note).strip()
        lines.append(f"| {r.op} | `{r.call}` | {r.ours_us:.2f} | {num(r.raw_us, '.2f')} | {num(r.vs_raw, '.2f')}× | "
                     f"{num(r.base_us, '.2f')} | {num(r.vs_base, '.2f')}× | {note} |")
    return "\n".join(lines)


def device_label(device: str) -> str:
    if device == "nvidia":
        import torch

        return torch.cuda.get_device_name()
    import platform

    if device == "torch-cpu":
        return f"CPU ({platform.processor() or platform.machine()}), torch tensors"
    return f"CPU ({platform.processor() or platform.machine()})"


def main(argv=None) -> int:
    import argparse
    import json

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default="cpu", choices=["cpu", "nvidia", "torch-cpu"])
    parser.add_argument("--quick", action="store_true", help="few repetitions: checks that everything runs")
    parser.add_argument("--json", help="also write the rows as JSON here")
    args = parser.parse_args(argv)
    rows = run(args.device, args.quick)
    label = device_label(args.device)
    print(f"### Host cost per call, {label}; infiniop_py {getattr(ip, '__version__', '?')} from {ip.__file__}")
    print()
    print(markdown_table(rows, args.device))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": label, "device_kind": args.device, "suite": "overhead",
                       "rows": [r.as_dict() for r in rows]}, f, indent=1)
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
