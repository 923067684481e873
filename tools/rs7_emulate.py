"""CPU emulation of two rs7 changes to the sampling kernel (session rs7, no GPU):

1. forVectors' kOneBody against session 6's kRolled: for many (begin, length, misalignment, NT,
   U, V), every thread's sequence of calls (i0, cnt, vector) must be the same but for steps where
   no thread has an element (kOneBody leaves such steps of the last tile out), and every thread
   must make as many calls as the others (fv uses warp intrinsics).
2. vecBest<Lean>: the first element of a full F16 vector whose value equals the packed max (NaN-
   ignoring, either of -0 / +0 on ties) must be the first whose order key equals the max's key.

    python3 tools/rs7_emulate.py      (prints the counts; exits 1 on a mismatch)
"""
from __future__ import annotations

import random
import sys

import numpy as np

def head_of(begin, end, mis0, v):
    """The end of the unaligned head (row starts mis0 elements past a 16-byte boundary)."""
    mis = (mis0 + begin) % v
    head = 0 if mis == 0 else v - mis
    return begin + min(head, end - begin)


def rolled(begin, end, mis0, nt, u_n, v):
    """Session 6's kRolled: per thread, the calls (i0, cnt, vector); element values = indices."""
    h = head_of(begin, end, mis0, v)
    calls = {t: [] for t in range(nt)}
    if h > begin:
        for t in range(nt):
            i = begin + t
            valid = i < h
            calls[t].append((i, 1 if valid else 0, tuple([i if valid else 0] + [0] * (v - 1))))
    tile = h
    while tile < end:
        for t in range(nt):
            vecs = []
            for u in range(u_n):
                i0 = tile + (u * nt + t) * v
                vecs.append(tuple(i0 + s if i0 + s < end else 0 for s in range(v)))
            for u in range(u_n):
                i0 = tile + (u * nt + t) * v
                calls[t].append((i0, 0 if i0 >= end else min(end - i0, v), vecs[u]))
        tile += nt * v * u_n
    return calls


def onebody(begin, end, mis0, nt, u_n, v):
    """rs7's kOneBody, step by step as forVectorsOneBody runs it."""
    h = head_of(begin, end, mis0, v)
    calls = {t: [] for t in range(nt)}
    for t in range(nt):
        vecs = [None] * u_n
        base, lim, stride, tile = begin, h, 1, h
        steps, u = (1 if h > begin else 0), 0
        while True:
            if u == steps:
                if tile >= end:
                    break
                for w in range(u_n):
                    i0 = tile + (w * nt + t) * v
                    vecs[w] = tuple(i0 + s for s in range(v)) if i0 + v <= end else (0,) * v
                base, lim, stride, u = tile, end, v, 0
                steps = min(u_n, (end - tile + nt * v - 1) // (nt * v))
                tile += nt * v * u_n
            i0 = base + (u * nt + t) * stride
            cnt = 0 if i0 >= lim else min(lim - i0, stride)
            if cnt < v:
                vecs[0] = tuple(i0 + s if s < cnt else 0 for s in range(v))
            calls[t].append((i0, cnt, vecs[0]))
            vecs = vecs[1:] + [vecs[-1]]
            u += 1
    return calls


def same_calls(a, b) -> bool:
    """b is a with some steps left out where no thread had an element (cnt == 0 in every thread)."""
    def busy(calls):
        n = len(calls[0])
        keep = [k for k in range(n) if any(c[k][1] > 0 for c in calls.values())]
        return {t: [c[k] for k in keep] for t, c in calls.items()}
    return busy(a) == busy(b) and all(len(b[t]) <= len(a[t]) for t in a)


def key16(x) -> int:
    """common/order_key.h's orderKey for a 16-bit pattern."""
    b = int(np.array([x], np.float16).view(np.uint16)[0])
    k = ((b ^ (((b >> 15) * 0x7FFF) | 0x8000)) + (1 if b == 0x8000 else 0)) & 0xFFFF
    return k * (1 if (b & 0x7FFF) <= 0x7C00 else 0)


def hmax(a, b):
    """__hmax: NaN-ignoring; on equal values (-0 / +0) either may come back."""
    if np.isnan(a):
        return b
    if np.isnan(b):
        return a
    return random.choice([a, b]) if a == b else max(a, b)


def main() -> int:
    configs = 0
    for nt, u, v in ((4, 4, 8), (3, 2, 4), (8, 4, 2), (5, 3, 8)):
        for begin in range(0, 40, 3):
            for length in list(range(90)) + [257, 1000, 1003]:
                for mis0 in range(v):
                    a = rolled(begin, begin + length, mis0, nt, u, v)
                    b = onebody(begin, begin + length, mis0, nt, u, v)
                    if not same_calls(a, b) or len({len(c) for c in b.values()}) > 1:
                        print("forVectors mismatch:", nt, u, v, begin, length, mis0)
                        return 1
                    configs += 1
    print(f"forVectors: the same calls (empty steps aside) in {configs} configurations")
    random.seed(1)
    pool = [np.float16(x) for x in (0.0, -0.0, 1.0, -1.0, 2.5, np.inf, -np.inf, np.nan, 65504, -65504, 6e-8, -6e-8)]
    for _ in range(200000):
        vec = [random.choice(pool) if random.random() < 0.7 else np.float16(random.gauss(0, 3)) for _ in range(8)]
        mx = vec[0]
        for x in vec[1:]:
            mx = hmax(mx, x)
        by_key = min((s for s in range(8) if key16(vec[s]) == key16(mx)), default=None)
        by_value = min((s for s in range(8) if np.float32(vec[s]) == np.float32(mx)), default=0)
        if by_key != by_value:
            print("vecBest mismatch:", vec)
            return 1
    print("vecBest<Lean>: the same element in 200000 random F16 vectors (ties, -0/+0, inf, NaN)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
