"""The cases below their goals, one per process, for ncu (tools/ncu_stalls.sh): each
allocates its inputs with torch, then calls the library CALLS times on the current stream.

    python3 tools/ncu_cases.py CASE        (CASE: one of CASES' keys; 'list' prints them)
"""
from __future__ import annotations

import sys

import torch

import infiniop_py as ip

CALLS = 5


def _randn(*shape, dtype=torch.float16):
    g = torch.Generator(device="cuda").manual_seed(11)
    return torch.randn(*shape, device="cuda", generator=g).mul_(3).to(dtype)


def lp_norm(rows, cols, dtype):
    x = _randn(rows, cols, dtype=dtype)
    y = torch.empty_like(x)
    return lambda: ip.lp_norm(x, axis=1, p=2, out=y)


def transpose(n):
    a = _randn(n, n)
    o = torch.empty_like(a)
    return lambda: ip.rearrange(a.t(), out=o)


def mul(n, dtype):
    a, b = _randn(n, n, dtype=dtype), _randn(n, n, dtype=dtype)
    c = torch.empty_like(a)
    return lambda: ip.mul(a, b, out=c)


def sample(rows, n, argmax=False, k=50):
    """top-k 50 (or k), top-p 0.9, T 0.8 (the bench's case), or argmax (random_val 0)."""
    x = _randn(rows, n)
    r = 0.0 if argmax else 0.5
    if rows == 1:
        o = torch.empty((), device="cuda", dtype=torch.int64)
        return lambda: ip.random_sample(x[0], r, 0.9, k, 0.8, out=o)
    o = torch.empty(rows, device="cuda", dtype=torch.int64)
    return lambda: ip.random_sample_batch(x, r, 0.9, k, 0.8, out=o)


CASES = {
    "lpnorm_32x1M_bf16": lambda: lp_norm(32, 1 << 20, torch.bfloat16),
    "lpnorm_4096_f16": lambda: lp_norm(4096, 4096, torch.float16),
    "transpose_4097_f16": lambda: transpose(4097),
    "transpose_4096_f16": lambda: transpose(4096),
    "mul_4096_f16": lambda: mul(4096, torch.float16),
    "argmax_64x151936": lambda: sample(64, 151936, argmax=True),
    "sample_151936": lambda: sample(1, 151936),
    "sample_64x151936": lambda: sample(64, 151936),
    "sample_topp_151936": lambda: sample(1, 151936, k=0),
}

if __name__ == "__main__":
    if sys.argv[1] == "list":
        print(" ".join(CASES))
        sys.exit(0)
    call = CASES[sys.argv[1]]()
    for _ in range(CALLS):
        call()
    torch.cuda.synchronize()
    print(sys.argv[1], "ok")
