"""Where the host time of one call goes (issue 11): each step of the hot path timed alone.

    python -m infiniop_py.bench.host_costs [--device cpu|nvidia|torch-cpu]

Prints the median host time of each piece a functional call is made of (array
accessors, cffi conversions, the cache key and its lookup, the C call through either
binding), next to the whole call, on the same arrays as `bench --suite overhead`'s Mul
(NumPy F32 4x4 on the CPU, torch F16 16x64 on NVIDIA; torch-cpu: torch F32 16x64 CPU
tensors, the torch branch without a GPU). A profiling aid: the numbers
are printed, never checked; GPU work queued by the C calls is drained between rounds.
"""
from __future__ import annotations

import argparse
import statistics
import timeit

import numpy as np

import infiniop_py as ip
from infiniop_py._ffi import ffi, lib
from infiniop_py.ops import _base


def _timer(namespace: dict, sync):
    def t(stmt: str, number: int = 20000) -> None:
        runs = []
        for _ in range(9):
            sync()
            runs.append(timeit.timeit(stmt, globals=namespace, number=number) / number * 1e9)
        sync()
        print(f"| `{stmt}` | {statistics.median(runs):.0f} |", flush=True)
    return t


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default="cpu", choices=["cpu", "nvidia", "torch-cpu"])
    device = parser.parse_args(argv).device
    VP = ffi.typeof("void *")
    ns = {"ip": ip, "ffi": ffi, "cast": ffi.cast, "VP": VP, "N": ffi.NULL, "fb": ffi.from_buffer,
          "CHARS": ffi.typeof("char[]"), "dc": _base.descriptor_cache, "empty": lambda: None}
    if device != "cpu":
        import torch

        gpu = device == "nvidia"
        sync = torch.cuda.synchronize if gpu else (lambda: None)
        a, b = ((torch.randn(16, 64, device="cuda").half() if gpu else torch.randn(16, 64)) for _ in range(2))
        c = torch.empty_like(a)
        ns.update(torch=torch, a=a, b=b, c=c)
        pointers = "ci, ai, bi = c.data_ptr(), a.data_ptr(), b.data_ptr()"
    else:
        sync = lambda: None  # noqa: E731
        a, b = (np.random.default_rng(i).standard_normal((4, 4)).astype(np.float32) for i in range(2))
        c = np.empty_like(a)
        ns.update(a=a, b=b, c=c)
        pointers = "ci, ai, bi = c.ctypes.data, a.ctypes.data, b.ctypes.data"
    exec(pointers, ns)
    op = ip.Mul(ip.Handle("cpu" if device == "torch-cpu" else device), *[ip.TensorDescriptor.from_array(x) for x in (c, a, b)])
    ns.update(op=op, dp=op.ptr, f=op._c_function, fi=op._c_int)
    exec("cp, ap, bp = cast(VP, ci), cast(VP, ai), cast(VP, bi)", ns)
    for _ in range(10):
        ip.mul(a, b, out=c)
    sync()
    print(f"### Host cost of each step, {device}\n\n| statement | ns |\n|---|---:|")
    t = _timer(ns, sync)
    for stmt in ["empty()", "dc()", "cast(VP, ai)"]:
        t(stmt)
    if device != "cpu":
        key = "(c.device, c.shape, c.stride(), c.dtype, a.device, a.shape, a.stride(), a.dtype, b.device, " \
              "b.shape, b.stride(), b.dtype)"
        for stmt in ["a.data_ptr()", "a.shape", "a.stride()", "a.dtype", "a.device", "a.is_cuda", "a.get_device()",
                     "hash(a.device)", "a.is_cpu", key, f"hash({key})"] + (
                         ["torch.cuda.current_stream()", "torch.cuda.current_stream().cuda_stream"] if gpu else []):
            t(stmt)
        # the torch branch's key since dev/py4: the place from guards, no torch.device
        guards = "c.is_cuda and a.is_cuda and b.is_cuda" if gpu else "c.is_cpu and a.is_cpu and b.is_cpu"
        t(guards)
        ns["cached_old"] = {eval(key, ns): op}
        t(f"cached_old[{key}]")
        key = "(0, c.shape, c.stride(), c.dtype, a.shape, a.stride(), a.dtype, b.shape, b.stride(), b.dtype)"
    else:
        key = "(c.shape, c.strides, c.dtype, a.shape, a.strides, a.dtype, b.shape, b.strides, b.dtype)"
        for stmt in ["fb(a)", "fb(CHARS, c, True)", "a.flags.c_contiguous", "a.shape", "a.strides", "a.dtype",
                     "a.__array_interface__['data'][0]", key, f"hash({key})"]:
            t(stmt)
    ns["cached"] = {eval(key, ns): op}
    t(f"cached[{key}]")
    calls = ["f(dp, N, 0, cp, ap, bp, N)", "fi(dp, N, 0, ci, ai, bi, 0)",
             "f(dp, N, 0, cast(VP, ci), cast(VP, ai), cast(VP, bi), N)", "op(c, a, b)", "ip.mul(a, b, out=c)"]
    calls += ["torch.mul(a, b, out=c)"] if device != "cpu" else ["f(dp, N, 0, fb(c), fb(a), fb(b), N)",
                                                                    "np.multiply(a, b, out=c)"]
    ns["np"] = np
    for stmt in calls:
        t(stmt, 2000)
    lib.infiniopMul  # (the library stays loaded to the end)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
