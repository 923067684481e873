"""Rearrange benchmark: the issue's layouts, ours against torch's copy_ on the
same tensors, with the measured device-to-device copy bandwidth as roofline.

    python3 -m infiniop_py.bench.bench_rearrange [--device nvidia|cpu] [--json PATH]

On NVIDIA (needs torch) our descriptor is called with raw pointers on torch's
current stream against `dst.copy_(src)`; on the CPU against `np.copyto`. Every
case is checked bit for bit before it is timed (harness.run_case); GPU rows
also carry the per-call time of CUDA-graph replays (launch overhead out).
"""
from __future__ import annotations

import math
from typing import List, NamedTuple, Tuple


from infiniop_py._layout import contiguous_strides, permuted_strides  # noqa: E402
from infiniop_py.bench import harness  # noqa: E402


class Spec(NamedTuple):
    name: str
    shape: Tuple[int, ...]
    dst_strides: Tuple[int, ...]
    src_strides: Tuple[int, ...]
    dtype: str  # torch / NumPy dtype name


def specs() -> List[Spec]:
    n = 4096
    nhwc = (32, 224, 224, 64)  # dst shape; src is NCHW (32, 64, 224, 224) contiguous seen as NHWC
    heads = (64, 32, 2048, 128)  # dst [B, H, S, D]; src is [B, S, H, D] contiguous
    rev = (7, 5, 50, 50, 4, 3)
    return [
        Spec("transpose 4096² F16", (n, n), (n, 1), (1, n), "float16"),
        Spec("transpose 4096² F32", (n, n), (n, 1), (1, n), "float32"),
        Spec("NCHW→NHWC 32×64×224×224 F32", nhwc, contiguous_strides(nhwc), permuted_strides(nhwc, (0, 3, 1, 2)), "float32"),
        Spec("head split 64×2048×32×128 F16", heads, contiguous_strides(heads), permuted_strides(heads, (0, 2, 1, 3)), "float16"),
        Spec("6-D reverse 7×5×50×50×4×3 F32", rev, contiguous_strides(rev), permuted_strides(rev, (5, 4, 3, 2, 1, 0)), "float32"),
        Spec("contiguous 512 MiB F32", (1 << 27,), (1,), (1,), "float32"),
        # Beyond the list: an odd-sized transpose (no paired accesses)
        # and a broadcast source.
        Spec("transpose 4097² F16", (4097, 4097), (4097, 1), (1, 4097), "float16"),
        Spec("broadcast (0,1) 4096×10752 F32", (4096, 10752), (10752, 1), (0, 1), "float32"),
    ]


def cpu_specs() -> List[Spec]:
    n = 2048
    nhwc = (8, 56, 56, 64)
    heads = (8, 32, 512, 128)
    return [
        Spec("transpose 2048² F32", (n, n), (n, 1), (1, n), "float32"),
        Spec("transpose 2048² F16", (n, n), (n, 1), (1, n), "float16"),
        Spec("NCHW→NHWC 8×64×56×56 F32", nhwc, contiguous_strides(nhwc), permuted_strides(nhwc, (0, 3, 1, 2)), "float32"),
        Spec("head split 8×512×32×128 F16", heads, contiguous_strides(heads), permuted_strides(heads, (0, 2, 1, 3)), "float16"),
        Spec("contiguous 64 MiB F32", (1 << 24,), (1,), (1,), "float32"),
    ]


def _moved(spec: Spec, itemsize: int) -> Tuple[int, int]:
    """(src elements spanned, bytes that must move: dst written once, each
    distinct src element read once)."""
    numel = math.prod(spec.shape)
    src_numel = 1 + sum((n - 1) * s for n, s in zip(spec.shape, spec.src_strides))
    return src_numel, (numel + min(src_numel, numel)) * itemsize


def _gpu_case(spec: Spec) -> harness.Case:
    import infiniop_py as ip

    torch = harness.torch()
    dtype = getattr(torch, spec.dtype)
    numel = math.prod(spec.shape)
    nbytes = numel * torch.empty((), dtype=dtype).element_size()
    # Enough buffer sets that one pass over them does not fit in L2.
    sets = max(1, min(8, math.ceil((192 << 20) / (2 * nbytes))))
    src_numel, moved = _moved(spec, nbytes // numel)
    srcs = [torch.randn(src_numel, device="cuda").to(dtype) for _ in range(sets)]
    dsts = [torch.empty(numel, device="cuda", dtype=dtype) for _ in range(sets)]
    src_views = [s.as_strided(spec.shape, spec.src_strides) for s in srcs]
    dst_views = [d.as_strided(spec.shape, spec.dst_strides) for d in dsts]
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

    def check():
        for k in range(sets):
            dsts[k].fill_(float("nan") if dsts[k].is_floating_point() else 0x5A)  # poison
            ours(k)()
            # (flattened first: a contiguous tensor whose last dim has one element may keep any stride
            # there, and byte views need 1)
            got = dst_views[k].contiguous().reshape(-1).view(torch.uint8)
            if not torch.equal(got, src_views[k].contiguous().reshape(-1).view(torch.uint8)):
                return f"buffer set {k} differs from torch's copy (bit for bit)"
        return True

    case = harness.Case("rearrange", spec.name, "nvidia", ours(0), theirs(0), check, moved,
                        rotate=[ours(k) for k in range(sets)] if sets > 1 else None,
                        baseline_rotate=[theirs(k) for k in range(sets)] if sets > 1 else None)
    case._graph = (ours, theirs, sets)  # for the CUDA-graph note
    return case


def _cpu_case(spec: Spec) -> harness.Case:
    import numpy as np

    import infiniop_py as ip

    dtype = np.dtype(spec.dtype)
    numel = math.prod(spec.shape)
    src_numel, moved = _moved(spec, dtype.itemsize)
    rng = np.random.default_rng(0)
    src_buf = rng.standard_normal(src_numel).astype(dtype)
    dst_buf = np.empty(max(numel, 1), dtype)
    src = np.lib.stride_tricks.as_strided(src_buf, spec.shape, [x * dtype.itemsize for x in spec.src_strides])
    dst = np.lib.stride_tricks.as_strided(dst_buf, spec.shape, [x * dtype.itemsize for x in spec.dst_strides])
    desc = ip.Rearrange(ip.ops._base.default_handle("cpu", 0), dst, src)
    ptrs = (dst_buf.ctypes.data, src_buf.ctypes.data)
    bits = np.dtype(f"u{dtype.itemsize}")

    def check():
        dst_buf.view(np.uint8).fill(0xFF)
        desc(*ptrs)
        return bool(np.array_equal(dst.view(bits), src.view(bits))) or "differs from NumPy's copy"

    return harness.Case("rearrange", spec.name, "cpu", lambda: desc(*ptrs), lambda: np.copyto(dst, src), check,
                        moved)


def cases(device: str = "nvidia") -> List[harness.Case]:
    """The issue's GPU cases and two more (inputs allocated), or smaller CPU ones."""
    if device == "cpu":
        return [_cpu_case(spec) for spec in cpu_specs()]
    return [_gpu_case(spec) for spec in specs()]


def main(argv=None) -> List[harness.Row]:
    parser = harness.arguments(__doc__)
    args = parser.parse_args(argv)
    all_cases = cases(args.device)
    rows = []
    for case in all_cases:
        row = harness.run_case(case)
        if args.device == "nvidia":
            ours, theirs, sets = case._graph
            notes = [f"{sets} buffer sets"] if sets > 1 else []
            if row.ok:  # launch overhead out: the same calls replayed from CUDA graphs
                def graph_us(make_call):
                    return harness.time_cuda_graph([lambda _s, k=k: make_call(k, True)() for k in range(sets)],
                                                   per_graph=16)

                notes.append(f"in a CUDA graph: ours {graph_us(ours):.1f} µs, PyTorch {graph_us(theirs):.1f} µs")
            row.note = "; ".join([row.note] * bool(row.note) + notes)
        rows.append(row)
    return harness.report(rows, "Rearrange", args)


if __name__ == "__main__":
    main()
