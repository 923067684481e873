"""Session 23: odd-pitch F16 transposes of size N (argv[1]) on 8 buffer sets: eager once each and
checked, then 16 calls captured into a CUDA graph on a torch stream, replayed 3 times, checked.
Prints ok or what failed. (tools/small_calls_probe.py --odd met an illegal address in the graph
replays of 257² with both trigger placements: the probe's own bug, its lambdas held the buffers'
addresses but not the buffers, which were freed; this script, which holds them, passed at 65² to
2049², eager and in graphs.)

  PYTHONPATH=. python3 tools/repro_odd_graph.py N [SETS]
"""
import sys

import torch

import infiniop_py as ip

n = int(sys.argv[1])
sets = int(sys.argv[2]) if len(sys.argv) > 2 else 8
h = ip.Handle("nvidia", 0)
srcs = [torch.randn(n * n, device="cuda").half() for _ in range(sets)]
dsts = [torch.full((n * n,), float("nan"), device="cuda", dtype=torch.half) for _ in range(sets)]
desc = ip.Rearrange(h, dsts[0].as_strided((n, n), (n, 1)), srcs[0].as_strided((n, n), (1, n)))
calls = [lambda st, d=d.data_ptr(), s=s.data_ptr(): desc(d, s, stream=st) for d, s in zip(dsts, srcs)]


def check(what):
    torch.cuda.synchronize()
    for k in range(sets):
        want = srcs[k].view(n, n).t().contiguous().view(-1)
        if not torch.equal(dsts[k].view(torch.int16), want.view(torch.int16)):
            print(f"n={n} sets={sets}: {what}: set {k} differs")
            return False
    return True


cur = torch.cuda.current_stream().cuda_stream
for c in calls:
    c(cur)
ok = check("eager")
for d in dsts:
    d.fill_(float("nan"))
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g, stream=s):
    for j in range(16):
        calls[j % sets](s.cuda_stream)
for _ in range(3):
    g.replay()
ok = check("graph") and ok
print(f"n={n} sets={sets}: {'ok' if ok else 'FAILED'}")
