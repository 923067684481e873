"""One RandomSample case for ncu: python3 bench/ncu_case.py [batch] [topk] [random_val]."""
import sys

import torch

import infiniop_py as ip

batch = int(sys.argv[1]) if len(sys.argv) > 1 else 1
k = int(sys.argv[2]) if len(sys.argv) > 2 else 50
r = float(sys.argv[3]) if len(sys.argv) > 3 else 0.5
x = torch.randn(batch, 151936, device="cuda").mul_(3).half()
out = torch.empty(batch, device="cuda", dtype=torch.int64)
for _ in range(8):
    ip.random_sample_batch(x, [r] * batch, 0.9, k, 0.8, out=out)
torch.cuda.synchronize()
