"""Session 23: short calls (2-10 µs) of Rearrange and Mul, µs a call eager (batches of 200 back to
back, buffers rotated over 8 sets so that nothing is timed out of L2) and as graph replays, for
comparing libraries built with other PDL trigger placements (INFINIOP_LIBRARY=...).

  PYTHONPATH=. python3 tools/small_calls_probe.py [--odd]

--odd: odd-pitch F16 transposes of several sizes instead (the odd word tiles, whose PDL trigger
moved in session 23).
"""
import sys

import torch

import infiniop_py as ip
from eager_probe import rearrangements  # tools/, beside this script
from infiniop_py.bench import harness

SETS = 8


def rearrange_case(h, shape, order, dtype):
    """dst contiguous over `shape`; src a contiguous tensor of shape[order] seen permuted."""
    desc, ptrs, held = rearrangements(h, shape, order, dtype, SETS)
    # each call holds the buffers (not only their addresses): freed buffers would be written
    return [lambda st=None, d=d, s=s, held=held: desc(d, s, stream=st) for d, s in ptrs]


def mul_case(h, shape, dtype):
    a = [torch.randn(shape, device="cuda").to(dtype) for _ in range(SETS)]
    b = [torch.randn(shape, device="cuda").to(dtype) for _ in range(SETS)]
    c = [torch.empty(shape, device="cuda", dtype=dtype) for _ in range(SETS)]
    descs = [ip.TensorDescriptor.from_array(x) for x in (c[0], a[0], b[0])]
    op = ip.Mul(h, *descs)
    return [lambda st=None, c=c, a=a, b=b: op(c.data_ptr(), a.data_ptr(), b.data_ptr(), stream=st)
            for c, a, b in zip(c, a, b)]


def main():
    print("device:", torch.cuda.get_device_name(0))
    h = ip.Handle("nvidia", 0)
    cur = torch.cuda.current_stream().cuda_stream
    cases = [
        ("rearrange 6-D reverse 7x5x50x50x4x3 F32", rearrange_case(h, (7, 5, 50, 50, 4, 3), (5, 4, 3, 2, 1, 0), torch.float32)),
        ("rearrange transpose 1024² F16", rearrange_case(h, (1024, 1024), (1, 0), torch.float16)),
        ("rearrange transpose 1031² F16 (odd)", rearrange_case(h, (1031, 1031), (1, 0), torch.float16)),
        ("rearrange transpose 1024² F32", rearrange_case(h, (1024, 1024), (1, 0), torch.float32)),
        ("rearrange NCHW->NHWC 8x64x56x56 F32", rearrange_case(h, (8, 56, 56, 64), (0, 3, 1, 2), torch.float32)),
        ("mul 16x5632 F16", mul_case(h, (16, 5632), torch.float16)),
        ("mul 1024x4096 F16", mul_case(h, (1024, 4096), torch.float16)),
    ]
    if "--odd" in sys.argv:
        cases = [(f"rearrange transpose {n}² F16 (odd)", rearrange_case(h, (n, n), (1, 0), torch.float16))
                 for n in (257, 1031, 2049, 3001, 4097)]
    print(f"{'case':42} {'eager':>7} {'graph':>7}  (µs a call)")
    for name, calls in cases:
        eager = harness.time_cuda(lambda: None, rotate=[lambda c=c: c(cur) for c in calls], batch=200)
        graph = harness.time_cuda_graph([lambda s, c=c: c(s.cuda_stream) for c in calls])
        print(f"{name:42} {eager:7.2f} {graph:7.2f}")


if __name__ == "__main__":
    main()
