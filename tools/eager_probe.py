"""Why are the per-operator benches' eager rows 7-10 µs above their graph rows
on the H100 host (bench_rearrange's transpose 4096² F16: 34.4 eager against
24.9 in a graph; sessions 12-13 had 25.3-27.9 eager)? For that call
(ip.Rearrange on torch buffers, 3 buffer sets as the bench rotates), prints:
  host µs a call     perf_counter over 2000 calls queued back to back (the
                     Python layer plus the launch);
  batch µs a call    events around 200 calls queued back to back;
  events µs a call   an event pair around each call (how the bench's time_cuda
                     timed eager rows until session 19; it now times batches);
  + the same three for torch's copy_ of the same views, and for an empty
  torch event pair (what the pair itself costs).

  PYTHONPATH=. python3 tools/eager_probe.py [--batches]
"""
import statistics
import time

import torch

import infiniop_py as ip
from infiniop_py._layout import contiguous_strides, permuted_strides
from infiniop_py.bench import harness


def host_us(call, n=2000):
    for _ in range(50):
        call()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        call()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return (t1 - t0) / n * 1e6


def batch_us(call, n=200):
    """µs a call of one batch of n calls queued back to back (harness.time_cuda's eager method)."""
    return harness.time_cuda(call, warmup=20, reps=1, batch=n)


def events_us(call, reps=200):
    """Median µs of an event pair around each call (the eager method until session 19)."""
    return harness.time_cuda(call, reps=reps, batch=1)


def main():
    print("device:", torch.cuda.get_device_name(0), "torch", torch.__version__)
    n = 4096
    srcs = [torch.randn(n * n, device="cuda").half() for _ in range(3)]
    dsts = [torch.empty(n * n, device="cuda", dtype=torch.half) for _ in range(3)]
    sv = [s.as_strided((n, n), (1, n)) for s in srcs]
    dv = [d.as_strided((n, n), (n, 1)) for d in dsts]
    h = ip.Handle("nvidia", 0)
    desc = ip.Rearrange(h, dv[0], sv[0])
    stream = torch.cuda.current_stream().cuda_stream
    ptrs = [(d.data_ptr(), s.data_ptr()) for d, s in zip(dsts, srcs)]
    k = [0]

    def ours():
        d, s = ptrs[k[0] % 3]
        k[0] += 1
        desc(d, s, stream=stream)

    def theirs():
        i = k[0] % 3
        k[0] += 1
        dv[i].copy_(sv[i])

    def nothing():
        pass

    print(f"{'call':10} {'host µs':>9} {'batch µs':>9} {'events µs':>10}")
    for name, call in (("ours", ours), ("torch", theirs), ("empty", nothing)):
        ev = events_us(call)
        print(f"{name:10} {host_us(call):9.2f} {batch_us(call):9.2f} {ev:10.2f}")
    # The bench's events per call, three more rounds, to see the spread.
    print("ours, events µs, 3 rounds:", [round(events_us(ours), 2) for _ in range(3)])
    t = [host_us(ours, 500) for _ in range(3)]
    print("ours, host µs, 3 rounds:", [round(x, 2) for x in t], "median", round(statistics.median(t), 2))


def rearrangements(h, shape, order, dtype, sets):
    """A Rearrange descriptor over `sets` buffer pairs: dst contiguous over `shape`, src a contiguous
    tensor of shape[order] seen permuted. (descriptor, [(dst address, src address)], the buffers),
    the buffers to be held while the addresses are used."""
    count = 1
    for extent in shape:
        count *= extent
    srcs = [torch.randn(count, device="cuda").to(dtype) for _ in range(sets)]
    dsts = [torch.empty(count, device="cuda", dtype=dtype) for _ in range(sets)]
    desc = ip.Rearrange(h, dsts[0].as_strided(shape, contiguous_strides(shape)),
                        srcs[0].as_strided(shape, permuted_strides(shape, order)))
    return desc, [(d.data_ptr(), s.data_ptr()) for d, s in zip(dsts, srcs)], (srcs, dsts)


def transposes(h, n, sets=3):
    """rearrangements() of n x n F16 transposes (src seen transposed into a contiguous dst)."""
    return rearrangements(h, (n, n), (1, 0), torch.half, sets)


def batch_sweep():
    """Session 20: the end-to-end bench's eager rows (batches of 8 calls a sample) against
    longer batches and the graph, for the transposes at 4096² (tensor-copy tiles) and 4097²
    (odd word tiles): is the eager-graph gap the calls or the event pair between batches
    (a stream operation that no programmatic dependent launch crosses)?"""
    h = ip.Handle("nvidia", 0)
    stream = torch.cuda.current_stream().cuda_stream
    print(f"{'case':22} {'batch 8':>8} {'batch 32':>9} {'batch 200':>10} {'graph':>7}  (µs a call)")
    for n in (4096, 4097):
        desc, ptrs, held = transposes(h, n)  # held: the buffers behind ptrs
        rot = [lambda d=d, s=s: desc(d, s, stream=stream) for d, s in ptrs]
        graph_calls = [lambda st, d=d, s=s: desc(d, s, stream=st.cuda_stream) for d, s in ptrs]
        row = [harness.time_cuda(rot[0], rotate=rot, batch=b) for b in (8, 32, 200)]
        row.append(harness.time_cuda_graph(graph_calls))
        print(f"{'transpose %d² F16' % n:22} {row[0]:8.2f} {row[1]:9.2f} {row[2]:10.2f} {row[3]:7.2f}")


if __name__ == "__main__":
    import sys

    batch_sweep() if "--batches" in sys.argv else main()
