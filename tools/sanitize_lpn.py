"""LPNorm's GPU plans in few launches, for compute-sanitizer (memcheck, racecheck): the test
files take minutes a shard under racecheck; this runs each plan once on a small case:

    compute-sanitizer --tool racecheck --error-exitcode 99 python3 tools/sanitize_lpn.py
    compute-sanitizer --tool memcheck  --error-exitcode 99 python3 tools/sanitize_lpn.py [PLAN ...]

Plans (H100 planner): Pipe (32 x 1M BF16, 136 x (128K + 6) F64 p 3 with non-finite rows: clusters of 16 blocks, bulk copies into 32 KB slots,
distributed shared memory merge), Hold (16 x 2M BF16, 8 x (2M + 8) F16 and 8 x (1M + 4) F32 with
non-finite rows, 4 x 1M F64 p 3:
one resident grid, pieces held in registers, a shared-memory ring and L2, a manager warp and named
barriers, records exchanged through the workspace), TwoPass (6 x 1M BF16), Sweep (2 x 1M BF16, 3 x (1M - 40) F16:
two kernels over every SM, the second a programmatic dependent), Split (2 x 1M F32; 1 x (1M + 1) F16 and 2 x (1M + 3) F32 in ragged packs), Grid (24 x (1M + 4) F32 with non-finite rows, 26 x (2M - 64) BF16 p 3: one
resident grid, every block a chunk of every row in a ring of bulk copies, flagged records), Stream (2200 x 4096 F16: a warp's
cp.async ring), Rows (1024 x 64 F16; ragged packs: 300 x 2857 F16, 64 x 333 F64 p 3), Cols (axis 0 of 512 x 300 F32; cut into chunks: axis 0 of 4096 x 4096
BF16 with non-finite columns, of 10007 x 7 F64; BF16 in 16-byte packs, F32 blocks narrowed), and non-finite rows on
Pipe, Hold, Stream and Sweep. Each result is compared with a float64 NumPy reference under the test suite's
bounds (F.normalize's rule for NaN and inf); exits 1 on a mismatch.
"""
from __future__ import annotations

import sys

import numpy as np

import infiniop_py as ip

TOL = {np.dtype(np.float16): 2e-3, np.dtype(np.float32): 1e-5, np.dtype(np.float64): 1e-12, np.dtype(ip.bfloat16): 1e-2}


def reference(x: np.ndarray, axis: int, p: int, eps: float) -> np.ndarray:
    x64 = x.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        norm = np.sum(np.abs(x64) ** p, axis=axis, keepdims=True) ** (1.0 / p)
        return x64 / np.maximum(norm, eps)


CPU = "--cpu" in sys.argv  # a dry run of the script on the CPU backend
# Plan names to run (the other arguments; none: all), e.g. `tools/sanitize_lpn.py hold`.
ONLY = [a for a in sys.argv[1:] if not a.startswith("--")]


def check(name: str, x: np.ndarray, axis: int = 1, p: int = 2, eps: float = 1e-12) -> bool:
    if ONLY and name.split(",")[0] not in ONLY:
        return True
    if CPU:
        got = ip.lp_norm(x, axis=axis, p=p, eps=eps).astype(np.float64)
    else:
        out = ip.DeviceArray.from_numpy(np.full(x.shape, np.nan, x.dtype))
        ip.lp_norm(ip.DeviceArray.from_numpy(x), axis=axis, p=p, eps=eps, out=out)
        got = out.to_numpy().astype(np.float64)
    want = reference(x, axis, p, eps)
    tol = TOL[x.dtype]
    same_nan = np.array_equal(np.isnan(got), np.isnan(want))
    finite = ~np.isnan(want)
    close = np.allclose(got[finite], want[finite], rtol=tol, atol=tol * 1e-2)
    ok = same_nan and close
    print(f"{name}: {x.shape} {x.dtype} axis {axis} p {p}: " + ("ok" if ok else
          f"WRONG (NaN positions {'match' if same_nan else 'differ'}, values {'close' if close else 'off'})"),
          flush=True)
    return ok


def main() -> int:
    rng = np.random.default_rng(2026)

    def rows(shape, dtype):
        return (rng.standard_normal(shape) * 3).astype(dtype)

    def nonfinite_rows(shape, dtype, inf=np.inf):
        """rows(shape, dtype) with `inf` in row 1, NaN in row 2, row 3 all zero."""
        x = rows(shape, dtype)
        x[1, 5] = inf
        x[2, 7] = np.nan
        x[3, :] = 0
        return x

    ok = True
    ok &= check("pipe", rows((32, 1 << 20), ip.bfloat16))
    ok &= check("hold, rows through L2", rows((16, 2 << 20), ip.bfloat16))
    ok &= check("two_pass", rows((6, 1 << 20), ip.bfloat16))
    ok &= check("stream", rows((2200, 4096), np.float16))
    ok &= check("rows", rows((1024, 64), np.float16))
    ok &= check("cols", rows((512, 300), np.float32), axis=0)
    c = rows((4096, 4096), ip.bfloat16)
    c[5, 9] = np.inf
    c[:, 17] = 0
    c[100, 300] = np.nan
    ok &= check("cols, cut axis, non-finite columns", c, axis=0)
    ok &= check("cols, cut axis, single elements", rows((10007, 7), np.float64), axis=0, p=3)
    ok &= check("cols, F64 rows shared by thread rows", rows((6, 16, 96, 256), np.float64), axis=1, p=3)
    ok &= check("cols, BF16 in 16-byte packs", rows((48, 16, 4096), ip.bfloat16), axis=1)
    ok &= check("cols, F32 blocks narrowed to 16 packs", rows((4, 100, 260), np.float32), axis=1)
    ok &= check("cols, odd inner extent, held rows, p 3", rows((43, 16, 108, 19), np.float16), axis=2, p=3)
    ok &= check("cols, BF16 in 16-byte packs, p 3", rows((48, 16, 4096), ip.bfloat16), axis=1, p=3)
    ok &= check("cols, slabs of odd inner extent (INFINI_LP_NORM_SLAB)", rows((688, 108, 19), np.float16), axis=1)
    ok &= check("cols, slabs, F64, 129 columns (INFINI_LP_NORM_SLAB)", rows((300, 9, 129), np.float64), axis=1, p=3)
    ok &= check("cols, slabs in groups of 3, the last of 2, non-finite slabs (INFINI_LP_NORM_SLAB)",
                nonfinite_rows((1001, 45, 7), np.float16), axis=1)
    ok &= check("cols, column chunks of 256, a short last chunk (INFINI_LP_NORM_SLAB_CHUNKS)",
                nonfinite_rows((280, 9, 301), np.float16), axis=1)
    ok &= check("sweep", rows((2, 1 << 20), ip.bfloat16))
    ok &= check("split", rows((2, 1 << 20), np.float32))
    ok &= check("split, ragged packs, 513 chunks a row", rows((1, (1 << 20) + 1), np.float16))
    ok &= check("rows, ragged packs", rows((300, 2857), np.float16))
    ok &= check("rows, ragged packs, F64", rows((64, 333), np.float64), p=3)
    ok &= check("rows, ragged packs, many rows (Stream with INFINI_LP_NORM_RAGGED_STREAM)", rows((2400, 2857), np.float16))
    ok &= check("split, ragged packs, the second row off the grid", rows((2, (1 << 20) + 3), np.float32))
    z = rows((3, (1 << 20) - 40), np.float16)
    z[0, 9] = np.inf
    z[1, 3] = np.nan
    z[2, 1000:] = 0
    ok &= check("sweep, non-finite rows, uneven chunks", z)
    x = nonfinite_rows((32, 1 << 20), ip.bfloat16)
    ok &= check("pipe, non-finite rows", x)
    h = nonfinite_rows((8, (2 << 20) + 8), np.float16)
    ok &= check("hold, non-finite rows", h)
    f = nonfinite_rows((8, (1 << 20) + 4), np.float32, inf=-np.inf)
    ok &= check("hold, F32, non-finite rows", f)
    ok &= check("hold, F64", rows((4, 1 << 20), np.float64), p=3)
    d = nonfinite_rows((6, (1 << 21) + 6), np.float64)  # session 29: beyond the L2 budget, the rest read again from DRAM
    ok &= check("hold, F64 beyond the L2 budget, non-finite rows", d, p=3)
    g = nonfinite_rows((24, (1 << 20) + 4), np.float32, inf=-np.inf)  # session 30: 4 MB rows beyond Hold's budget, the Grid plan
    ok &= check("grid, F32 rows of 4 MB, non-finite rows", g)
    ok &= check("grid, BF16 rows of 4 MB", rows((26, (2 << 20) - 64), ip.bfloat16), p=3)
    w = nonfinite_rows((136, (128 << 10) + 6), np.float64)  # session 30: Pipe for 8-byte rows
    ok &= check("pipe, F64, non-finite rows", w, p=3)
    y = rows((2200, 4096), np.float16)
    y[0, 0] = -np.inf
    y[9, 100] = np.nan
    y[17, :] = 0
    ok &= check("stream, non-finite rows", y)
    print("all ok" if ok else "SOME PLAN WRONG")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
