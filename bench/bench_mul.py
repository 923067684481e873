"""Mul benchmark: ours against torch.mul(out=) on the same inputs, and the
measured copy roofline, on the current CUDA device.

    python3 bench/bench_mul.py [--json PATH]

Each case is checked against PyTorch before it is timed. Small cases rotate
among several buffer sets so that they are not timed out of L2; the latency
case is also timed as CUDA-graph replays (one call per buffer set) for both, which
removes the Python/launch overhead and shows the kernels' own time.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Callable, List, NamedTuple

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import infiniop_py as ip  # noqa: E402
from bench import harness  # noqa: E402


class Case(NamedTuple):
    name: str
    make: Callable  # () -> (c, a, b) torch tensors
    rotate: int = 1  # buffer sets used in turn
    graph: bool = False


def _t():
    return harness.torch()


def _rand(shape, dtype):
    t = _t()
    return (t.rand(shape, device="cuda", dtype=t.float32) * 4 - 2).to(dtype)


def cases() -> List[Case]:
    t = _t()

    def plain(shape, dtype):
        return lambda: (t.empty(shape, device="cuda", dtype=dtype), _rand(shape, dtype), _rand(shape, dtype))

    def broadcast():
        return (t.empty(8192, 8192, device="cuda"), _rand((8192, 8192), t.float32), _rand((8192, 1), t.float32))

    def transposed():
        return (t.empty(8192, 8192, device="cuda"), _rand((8192, 8192), t.float32).t(),
                _rand((8192, 8192), t.float32))

    return [
        Case("16x5632 F16 (latency)", plain((16, 5632), t.float16), rotate=16, graph=True),
        Case("4096x4096 F16", plain((4096, 4096), t.float16)),
        Case("4096x4096 BF16", plain((4096, 4096), t.bfloat16)),
        Case("8192x8192 F32", plain((8192, 8192), t.float32)),
        Case("8192x8192 * 8192x1 F32 (broadcast)", broadcast),
        Case("8192x8192 F32, a transposed", transposed),
    ]


def _bytes(c, a, b) -> int:
    # Each input read once (a broadcast input only as large as it is), the output written once.
    return sum(x.numel() * x.element_size() for x in (c, a, b))


def _descriptor(c, a, b) -> ip.Mul:
    handle = ip.ops._base.default_handle("nvidia", c.device.index or 0)
    descs = [ip.TensorDescriptor.from_array(x) for x in (c, a, b)]
    op = ip.Mul(handle, *descs)
    for d in descs:
        d.close()
    return op


def _graph_us(calls) -> float:
    """Median µs per call, from replays of a graph of one call per buffer set."""
    t = _t()
    s = t.cuda.Stream()
    s.wait_stream(t.cuda.current_stream())
    with t.cuda.stream(s):
        for f in calls[:3]:
            f(s)
    t.cuda.current_stream().wait_stream(s)
    t.cuda.synchronize()
    g = t.cuda.CUDAGraph()
    with t.cuda.graph(g, stream=s):
        for f in calls:
            f(s)
    return harness.time_cuda(g.replay, warmup=5, reps=50) / len(calls)


def run_case(case: Case) -> List[harness.Row]:
    t = _t()
    sets = [case.make() for _ in range(case.rotate)]
    op = _descriptor(*sets[0])
    # Correctness first: ours against torch on every buffer set.
    ok = True
    for c, a, b in sets:
        c.fill_(float("nan"))
        op(c.data_ptr(), a.data_ptr(), b.data_ptr())
        ref = t.mul(a, b)
        t.cuda.synchronize()
        ok = ok and bool(t.equal(c, ref))
    ours = [lambda c=c, a=a, b=b: op(c.data_ptr(), a.data_ptr(), b.data_ptr()) for c, a, b in sets]
    theirs = [lambda c=c, a=a, b=b: t.mul(a, b, out=c) for c, a, b in sets]
    roof = harness.copy_roofline_gbps()
    nbytes = _bytes(*sets[0])
    rows = [harness.Row("mul", case.name, harness.time_cuda(ours[0], rotate=ours),
                        harness.time_cuda(theirs[0], rotate=theirs), nbytes, roof, ok, "eager call")]
    if case.graph:
        ours_s = [lambda s, c=c, a=a, b=b: op(c.data_ptr(), a.data_ptr(), b.data_ptr(), stream=s.cuda_stream)
                  for c, a, b in sets]
        theirs_s = [lambda s, c=c, a=a, b=b: t.mul(a, b, out=c) for c, a, b in sets]
        g_ok = True
        for c, a, b in sets:
            c.fill_(float("nan"))
        _graph_us(ours_s)
        t.cuda.synchronize()
        for c, a, b in sets:
            g_ok = g_ok and bool(t.equal(c, t.mul(a, b)))
        rows.append(harness.Row("mul", case.name, _graph_us(ours_s), _graph_us(theirs_s), nbytes, roof,
                                ok and g_ok, "CUDA graph, per call"))
    op.close()
    del sets
    t.cuda.empty_cache()
    return rows


def main(argv=None) -> List[harness.Row]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", help="also write the rows as JSON here")
    args = parser.parse_args(argv)
    rows: List[harness.Row] = []
    for case in cases():
        rows.extend(run_case(case))
    harness.print_table(rows, "Mul")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": harness.device_name(), "rows": [r.as_dict() for r in rows]}, f, indent=1)
    return rows


if __name__ == "__main__":
    main()
