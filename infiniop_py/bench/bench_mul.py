"""Mul benchmark: ours against torch.mul(out=) on the same inputs (NumPy's
multiply(out=) on the CPU), reported against the measured copy roofline.

    python3 -m infiniop_py.bench.bench_mul [--device nvidia|cpu] [--json PATH]

Every case is checked before it is timed (harness.run_case). The latency case
rotates among 16 buffer sets so that it is not timed out of L2. It and the
large contiguous cases (GRAPH_ROWS) are also timed as CUDA-graph replays for
both libraries: that takes the Python and launch overhead out and leaves the
kernels' own time.
"""
from __future__ import annotations

from typing import List


import infiniop_py as ip  # noqa: E402
from infiniop_py.bench import harness  # noqa: E402

GPU_CASES = [
    # name, c shape, a (shape, transposed or an order of dims), b shape, dtype name, buffer sets
    ("16x5632 F16 (latency)", (16, 5632), ((16, 5632), False), (16, 5632), "float16", 16),
    ("4096x4096 F16", (4096, 4096), ((4096, 4096), False), (4096, 4096), "float16", 1),
    ("4096x4096 BF16", (4096, 4096), ((4096, 4096), False), (4096, 4096), "bfloat16", 1),
    ("8192x8192 F32", (8192, 8192), ((8192, 8192), False), (8192, 8192), "float32", 1),
    ("8192x8192 * 8192x1 F32 (broadcast)", (8192, 8192), ((8192, 8192), False), (8192, 1), "float32", 1),
    ("8192x8192 F32, a transposed", (8192, 8192), ((8192, 8192), True), (8192, 8192), "float32", 1),
]

# Cases also timed as CUDA-graph replays (the kernels' own time beside the
# eager row, which adds each call's launch between two events).
GRAPH_ROWS = ("16x5632 F16 (latency)", "4096x4096 F16", "4096x4096 BF16", "8192x8192 F32")

CPU_CASES = [
    ("1024x1024 F32", (1024, 1024), (1024, 1024), "float32"),
    ("1024x1024 * 1024x1 F32 (broadcast)", (1024, 1024), (1024, 1), "float32"),
    ("1024x1024 F16", (1024, 1024), (1024, 1024), "float16"),
]


def _descriptor(c, a, b) -> ip.Mul:
    """A Mul descriptor for these arrays; called with raw pointers (one C call)."""
    view = ip._arrays.as_view(c)
    handle = ip.ops._base.default_handle(view.device, view.device_id)
    descs = [ip.TensorDescriptor.from_array(x) for x in (c, a, b)]
    op = ip.Mul(handle, *descs)
    for d in descs:
        d.close()
    return op


def _gpu_sets(c_shape, a_spec, b_shape, dtype, nsets):
    t = harness.torch()

    def rand(shape):
        return (t.rand(shape, device="cuda", dtype=t.float32) * 4 - 2).to(dtype)

    a_shape, layout = a_spec
    # a's layout: True (a 2-D transpose), False (contiguous), or an order of its dims in memory (the
    # outermost first: tools/behind_sweep.py's permuted operands).
    order = tuple(layout) if isinstance(layout, tuple) else (1, 0) if layout else tuple(range(len(a_shape)))
    sets = []
    for _ in range(nsets):
        a = rand([a_shape[i] for i in order]).permute([order.index(i) for i in range(len(a_shape))])
        sets.append((t.empty(c_shape, device="cuda", dtype=dtype), a, rand(b_shape)))
    return sets


def _gpu_case(name, c_shape, a_spec, b_shape, dtype_name, nsets) -> harness.Case:
    t = harness.torch()
    dtype = getattr(t, dtype_name)
    sets = _gpu_sets(c_shape, a_spec, b_shape, dtype, nsets)
    op = _descriptor(*sets[0])
    ptrs = [(c.data_ptr(), a.data_ptr(), b.data_ptr()) for c, a, b in sets]
    ours = [lambda p=p: op(*p) for p in ptrs]
    theirs = [lambda c=c, a=a, b=b: t.mul(a, b, out=c) for c, a, b in sets]

    def check():
        for (c, a, b), call in zip(sets, ours):
            c.fill_(float("nan"))
            call()
            if not t.equal(c, t.mul(a, b)):
                return "differs from torch.mul"
        return True

    c, a, b = sets[0]
    nbytes = sum(x.numel() * x.element_size() for x in (c, a, b))
    case = harness.Case("mul", name, "nvidia", ours[0], theirs[0], check, nbytes,
                        rotate=ours if nsets > 1 else None, baseline_rotate=theirs if nsets > 1 else None)
    case._graph = (op, sets)  # for the CUDA-graph row
    return case


def _cpu_case(name, shape, b_shape, dtype_name) -> harness.Case:
    import numpy as np

    rng = np.random.default_rng(0)
    dtype = np.dtype(dtype_name)
    a = rng.uniform(-2, 2, shape).astype(dtype)
    b = rng.uniform(-2, 2, b_shape).astype(dtype)
    c = np.empty(shape, dtype)
    op = _descriptor(c, a, b)
    ptrs = (c.ctypes.data, a.ctypes.data, b.ctypes.data)

    def check():
        c.fill(np.nan)
        op(*ptrs)
        return bool(np.array_equal(c, (a.astype(np.float64) * b).astype(dtype))) or "differs from NumPy"

    return harness.Case("mul", name, "cpu", lambda: op(*ptrs), lambda: np.multiply(a, b, out=c), check,
                        a.nbytes + b.nbytes + c.nbytes)


def cases(device: str = "nvidia") -> List[harness.Case]:
    """The issue's GPU cases (inputs allocated), or a few CPU cases."""
    if device == "cpu":
        return [_cpu_case(*spec) for spec in CPU_CASES]
    return [_gpu_case(*spec) for spec in GPU_CASES]


def graph_row(case: harness.Case) -> harness.Row:
    """A case as CUDA-graph replays: kernels' own time, and a check that our
    Calculate is capturable (results checked after the replays)."""
    t = harness.torch()
    op, sets = case._graph
    for c, _, _ in sets:
        c.fill_(float("nan"))
    ours = harness.time_cuda_graph([lambda s, c=c, a=a, b=b: op(c.data_ptr(), a.data_ptr(), b.data_ptr(), stream=s.cuda_stream)
                      for c, a, b in sets])
    t.cuda.synchronize()
    ok = all(bool(t.equal(c, t.mul(a, b))) for c, a, b in sets)
    theirs = harness.time_cuda_graph([lambda s, c=c, a=a, b=b: t.mul(a, b, out=c) for c, a, b in sets])
    return harness.Row("mul", case.name + ", CUDA graph", ours, theirs, case.bytes_moved,
                       harness.copy_roofline_gbps(), ok, "per call, graph replays")


def main(argv=None) -> List[harness.Row]:
    parser = harness.arguments(__doc__)
    args = parser.parse_args(argv)
    all_cases = cases(args.device)
    rows = []
    for c in all_cases:
        rows.append(harness.run_case(c))
        if args.device == "nvidia" and c.name in GRAPH_ROWS:
            rows.append(graph_row(c))
    return harness.report(rows, "Mul", args)


if __name__ == "__main__":
    main()
