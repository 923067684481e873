"""Rearrange benchmark: the issue's layouts, ours against torch's copy_ on the
same tensors, with the measured device-to-device copy bandwidth as roofline.

Run on the GPU machine: `python3 bench/bench_rearrange.py` (needs torch).
Every case is checked bit for bit against torch before it is timed.
"""
from __future__ import annotations

import math
import os
import sys
from typing import List, NamedTuple, Tuple

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import harness  # noqa: E402


class Case(NamedTuple):
    name: str
    shape: Tuple[int, ...]
    dst_strides: Tuple[int, ...]
    src_strides: Tuple[int, ...]
    dtype: str  # torch dtype name


def _contiguous(shape):
    strides, step = [], 1
    for s in reversed(shape):
        strides.insert(0, step)
        step *= s
    return tuple(strides)


def _permuted(shape, order):
    inner = _contiguous([shape[i] for i in order])
    strides = [0] * len(shape)
    for j, i in enumerate(order):
        strides[i] = inner[j]
    return tuple(strides)


def cases() -> List[Case]:
    n = 4096
    nchw = (32, 64, 224, 224)
    nhwc = (32, 224, 224, 64)  # dst shape; src is NCHW contiguous seen as NHWC
    heads = (64, 32, 2048, 128)  # dst [B, H, S, D]; src is [B, S, H, D] contiguous
    rev = (7, 5, 50, 50, 4, 3)
    return [
        Case("transpose 4096² F16", (n, n), (n, 1), (1, n), "float16"),
        Case("transpose 4096² F32", (n, n), (n, 1), (1, n), "float32"),
        Case("NCHW→NHWC 32×64×224×224 F32", nhwc, _contiguous(nhwc), _permuted(nhwc, (0, 3, 1, 2)), "float32"),
        Case("head split 64×2048×32×128 F16", heads, _contiguous(heads), _permuted(heads, (0, 2, 1, 3)), "float16"),
        Case("6-D reverse 7×5×50×50×4×3 F32", rev, _contiguous(rev), _permuted(rev, (5, 4, 3, 2, 1, 0)), "float32"),
        Case("contiguous 512 MiB F32", (1 << 27,), (1,), (1,), "float32"),
        # Beyond the list: an odd-sized transpose (no paired accesses)
        # and a broadcast source.
        Case("transpose 4097² F16", (4097, 4097), (4097, 1), (1, 4097), "float16"),
        Case("broadcast (0,1) 4096×10752 F32", (4096, 10752), (10752, 1), (0, 1), "float32"),
    ]


def run_case(case: Case, roofline: float) -> harness.Row:
    import infiniop_py as ip

    torch = harness.torch()
    dtype = getattr(torch, case.dtype)
    numel = math.prod(case.shape)
    nbytes = numel * torch.empty((), dtype=dtype).element_size()
    # Enough buffer sets that one pass over them does not fit in L2.
    sets = max(1, min(8, math.ceil((192 << 20) / (2 * nbytes))))
    src_numel = 1 + sum((n - 1) * s for n, s in zip(case.shape, case.src_strides))
    srcs = [torch.randn(src_numel, device="cuda").to(dtype) for _ in range(sets)]
    dsts = [torch.empty(numel, device="cuda", dtype=dtype) for _ in range(sets)]
    src_views = [s.as_strided(case.shape, case.src_strides) for s in srcs]
    dst_views = [d.as_strided(case.shape, case.dst_strides) for d in dsts]
    handle = ip.Handle("nvidia", torch.cuda.current_device())
    desc = ip.Rearrange(handle, dst_views[0], src_views[0])
    default_stream = torch.cuda.current_stream().cuda_stream

    def ours(k, capturing=False):
        d, s = dsts[k].data_ptr(), srcs[k].data_ptr()
        if capturing:  # the capture runs on a side stream: ask for it at call time
            return lambda: desc(d, s, stream=torch.cuda.current_stream().cuda_stream)
        return lambda: desc(d, s, stream=default_stream)

    def theirs(k, capturing=False):
        return lambda: dst_views[k].copy_(src_views[k])

    ok = True
    for k in range(sets):
        dsts[k].fill_(float("nan"))
        ours(k)()
        got = dst_views[k].contiguous().view(torch.uint8)
        ok = ok and torch.equal(got, src_views[k].contiguous().view(torch.uint8))
    torch.cuda.synchronize()
    ours_us = harness.time_cuda(None, rotate=[ours(k) for k in range(sets)]) if ok else float("nan")
    torch_us = harness.time_cuda(None, rotate=[theirs(k) for k in range(sets)])
    note = f"{sets} buffer sets" if sets > 1 else ""
    if ok:  # launch overhead out: the same calls replayed from CUDA graphs
        note += f"{'; ' if note else ''}in a CUDA graph: ours {_graph_us(torch, ours, sets):.1f} µs, " \
                f"PyTorch {_graph_us(torch, theirs, sets):.1f} µs"
    desc.close()
    del srcs, dsts, src_views, dst_views
    torch.cuda.empty_cache()
    # Bytes that must move: dst written once, each distinct src element read once.
    moved = nbytes + min(src_numel, numel) * (nbytes // numel)
    return harness.Row("rearrange", case.name, ours_us, torch_us, moved, roofline, ok=ok, note=note)


def _graph_us(torch, make_call, sets: int, calls: int = 16) -> float:
    """Median time per call of `calls` calls (rotating over the buffer sets)
    captured into one CUDA graph and replayed."""
    graph = torch.cuda.CUDAGraph()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        make_call(0, True)()  # warm-up outside the capture
    torch.cuda.current_stream().wait_stream(side)
    with torch.cuda.graph(graph):
        for i in range(calls):
            make_call(i % sets, True)()
    us = harness.time_cuda(graph.replay, warmup=3, reps=20) / calls
    del graph
    return us


def main() -> List[harness.Row]:
    roofline = harness.copy_roofline_gbps()
    rows = [run_case(c, roofline) for c in cases()]
    harness.print_table(rows, "Rearrange")
    return rows


if __name__ == "__main__":
    main()
