"""NumPy emulation of native/src/ops/rearrange/odd_tma_tile.cuh (session 32), tile by tile, every
thread at once: the copy engine's boxes from the 8 residue maps (out-of-range coordinates as zeros), then each thread's
dst words. Checks every dst unit against the transpose, that nothing outside the dst view is written,
and that each warp's shared-memory reads of one instruction hit distinct banks (or the same word).

    python tools/odd_tma_emulate.py [ROWSxCOLS[+DSTSHIFT[+SRCSHIFT]] ...]

rows = len_a (src row length = src pitch, odd), cols = len_b (src rows).
"""
import sys

import numpy as np

EDGE, SECTOR, RESIDUES, BOX_ROWS, BOX_UNITS, BOX_STRIDE = 64, 16, 8, 10, 72, 768
POISON = 0xFFFF


def emulate(rows: int, cols: int, dst_shift: int = 0, src_shift: int = 0, rng=np.random.default_rng(1)) -> str:
    len_a, len_b, P, D = rows, cols, rows, cols  # src pitch P (odd), dst pitch D
    pad = 64
    src = np.full(pad + src_shift + P * len_b + pad, 0, np.uint16)
    view = rng.integers(0, 65535, size=(len_b, P), dtype=np.uint16)  # never POISON
    src[pad + src_shift:pad + src_shift + P * len_b] = view.ravel()
    src[:pad + src_shift] = rng.integers(0, 65535, size=pad + src_shift)  # bytes before the view: readable
    dst = np.full(pad + dst_shift + D * len_a + pad, POISON, np.uint16)
    d0 = pad + dst_shift  # the dst pointer (allocations 128-byte aligned at index 0)
    s0 = pad + src_shift
    s = [((s0 + k * P) & 7) for k in range(RESIDUES)]
    bases = [s0 + k * P - s[k] for k in range(RESIDUES)]
    inner = [len_a + s[k] for k in range(RESIDUES)]
    outer = [(len_b - k + 7) // 8 for k in range(RESIDUES)]
    tiles_a = (len_a + EDGE - 1) // EDGE
    tiles_b = (len_b + SECTOR - 1 + EDGE - 1) // EDGE
    x = np.arange(32)[None, :]  # lanes
    y = np.arange(8)[:, None]  # warps
    conflicts = 0
    for tb in range(tiles_b):
        for ta in range(tiles_a):
            a0, b0 = ta * EDGE, tb * EDGE
            sm = np.zeros(RESIDUES * BOX_STRIDE, np.uint16)
            g0 = b0 // 8 - SECTOR // 8
            for k in range(RESIDUES):
                g = g0 + np.arange(BOX_ROWS)[:, None]
                c = a0 + np.arange(BOX_UNITS)[None, :]
                ok = (g >= 0) & (g < outer[k]) & (c >= 0) & (c < inner[k])
                idx = bases[k] + np.where(ok, g, 0) * 8 * P + np.where(ok, c, 0)
                box = np.where(ok, src[idx], 0)
                sm[k * BOX_STRIDE:k * BOX_STRIDE + BOX_ROWS * BOX_UNITS] = box.ravel()
            whole = a0 + EDGE <= len_a and b0 >= SECTOR and b0 + EDGE <= len_b
            lo, hi, brow, rowaddr = [], [], [], []
            for h in range(2):
                ra = d0 + (a0 + y + 8 * h) * D  # dst row a0 + y + 8h (units)
                e = ra & (SECTOR - 1)
                r = SECTOR - e + 2 * x
                r1 = r + 1
                sk = np.array(s)
                lo.append((r & 7) * BOX_STRIDE + (r >> 3) * BOX_UNITS + sk[r & 7] + y + 8 * h)
                hi.append((r1 & 7) * BOX_STRIDE + (r1 >> 3) * BOX_UNITS + sk[r1 & 7] + y + 8 * h)
                brow.append(b0 - e + 2 * x)
                rowaddr.append(ra)
            for j in range(EDGE // 8):
                h, cc = j & 1, y + 8 * j
                col = 16 * (j >> 1)
                for addr in (lo[h] + col, hi[h] + col):  # one warp instruction per row of this array
                    words = addr // 2
                    for w in words:
                        banks = {}
                        for word in np.unique(w):
                            banks.setdefault(word % 32, []).append(word)
                        conflicts += sum(len(v) - 1 for v in banks.values())
                u0, u1 = sm[lo[h] + col], sm[hi[h] + col]
                row_ok = np.broadcast_to(whole | (a0 + cc < len_a), u0.shape)
                b = np.broadcast_to(brow[h], u0.shape)
                out = rowaddr[h] + (j >> 1) * 16 * D + brow[h]
                out = np.broadcast_to(out, u0.shape)
                if whole:
                    assert (b >= 0).all() and (b + 1 < len_b).all(), "a whole tile's word outside the row"
                m0 = row_ok & (b >= 0) & (b < len_b)
                m1 = row_ok & (b + 1 >= 0) & (b + 1 < len_b)
                if whole:
                    assert (out % 2 == 0).all(), "a word store off 4 bytes"
                dst[out[m0]] = u0[m0]
                dst[out[m1] + 1] = u1[m1]
    want = np.full_like(dst, POISON)
    want[d0:d0 + D * len_a] = view[:, :len_a].T.ravel()
    if not np.array_equal(dst, want):
        bad = np.nonzero(dst != want)[0]
        return f"WRONG at {bad.size} units (first index {bad[0] - d0} from the dst pointer)"
    return f"exact; {conflicts} bank conflicts"


if __name__ == "__main__":
    cases = sys.argv[1:] or ["65x80", "129x200+1", "97x17+3+5", "193x130+0+1", "1025x333+7+3", "3001x1999"]
    for case in cases:
        parts = case.split("+")
        rows, cols = (int(v) for v in parts[0].split("x"))
        shifts = [int(v) for v in parts[1:]] + [0, 0]
        print(f"{case}: {emulate(rows, cols, shifts[0], shifts[1])}", flush=True)
