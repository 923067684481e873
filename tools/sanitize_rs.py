"""RandomSample's GPU paths in few launches, for compute-sanitizer (issue 12: memcheck and
racecheck clean). The test files take > 200 s per shard under racecheck (the cluster kernels with
65 KB of shared memory are slow to instrument); this covers each path once or twice:

    compute-sanitizer --tool racecheck --error-exitcode 99 python3 tools/sanitize_rs.py
    compute-sanitizer --tool memcheck  --error-exitcode 99 python3 tools/sanitize_rs.py

Paths: argmax teams of 1 to 16 blocks and the one-launch batches (2, 8, 64, 256 rows); sampling
teams of 1, 8 and 16 (the 8- and 16-wide few-rows instances), the many-rows instance, the
top-p guesses (first and second), the exact descents (K beyond the candidate cap), non-finite rows,
a batch mixing argmax and sampling rows. Each GPU result is compared with the CPU backend's (the
rule of SPEC §4, itself tested against a float64 reference); exits 1 on a mismatch.
"""
from __future__ import annotations

import sys

import numpy as np

import infiniop_py as ip

SAMPLE = (0.5, 0.9, 50, 0.8)


def rows_of(rng, rows, n, scale=3.0, dtype=np.float16):
    return (rng.standard_normal((rows, n)) * scale).astype(dtype)


def check(name, logits, params):
    """params: one (r, p, k, T) for every row, or per-row lists."""
    rows = logits.shape[0]
    per_row = [params] * rows if not isinstance(params[0], (list, tuple)) else list(zip(*params))
    arrays = [np.array([p[i] for p in per_row], dt) for i, dt in enumerate((np.float32, np.float32, np.int32,
                                                                            np.float32))]
    cpu = ip.random_sample_batch(logits, *arrays)
    out = ip.DeviceArray.from_numpy(np.full(rows, -7, np.int64))
    ip.random_sample_batch(ip.DeviceArray.from_numpy(logits), *arrays, out=out)
    gpu = out.to_numpy()
    bad = np.nonzero(gpu != cpu)[0]
    print(f"{name}: {rows}x{logits.shape[1]} {logits.dtype}: " + ("ok" if bad.size == 0 else
          f"WRONG rows {bad[:8].tolist()} (gpu {gpu[bad[:8]].tolist()}, cpu {cpu[bad[:8]].tolist()})"), flush=True)
    return bad.size == 0


def main() -> int:
    rng = np.random.default_rng(2026)
    ok = True
    argmax = (0.0, 0.9, 50, 0.8)
    for rows, n in ((1, 1000), (1, 32000), (1, 151936), (2, 151936), (8, 151936), (64, 151936), (256, 32000)):
        ok &= check("argmax", rows_of(rng, rows, n), argmax)
    ok &= check("argmax f32", rows_of(rng, 4, 151936, dtype=np.float32), argmax)
    ok &= check("sample team 1", rows_of(rng, 1, 3000), SAMPLE)
    ok &= check("sample team 8", rows_of(rng, 1, 32000), SAMPLE)
    ok &= check("sample team 16", rows_of(rng, 1, 151936), SAMPLE)
    ok &= check("sample team 16 bf16", rows_of(rng, 1, 262144, dtype=ip.bfloat16), SAMPLE)
    ok &= check("sample 4 rows (16-wide)", rows_of(rng, 4, 151936), SAMPLE)
    ok &= check("sample 8 rows (8-wide)", rows_of(rng, 8, 151936), SAMPLE)
    ok &= check("sample 64 rows (many rows)", rows_of(rng, 64, 32000), SAMPLE)
    ok &= check("top-p only (first guess)", rows_of(rng, 1, 151936), (0.5, 0.9, 0, 0.8))
    ok &= check("top-p only, peaked (second guess / exact)", rows_of(rng, 1, 151936, scale=12.0), (0.999, 0.5, 0, 0.3))
    ok &= check("K = 5000 (exact descents)", rows_of(rng, 1, 151936), (0.7, 0.95, 5000, 1.0))
    ok &= check("K = n - 1, T = 2", rows_of(rng, 1, 131072, dtype=np.float32), (0.7, 1.0, 131071, 2.0))
    x = rows_of(rng, 3, 151936)
    x[0, rng.permutation(151936)[:5000]] = -np.inf
    x[1, 17] = np.inf
    x[2, 99] = np.nan
    ok &= check("non-finite rows", x, SAMPLE)
    mixed = ([0.0, 0.5, 0.3, 0.9], [0.9, 0.9, 0.95, 1.0], [50, 50, 3000, 0], [0.8, 0.8, 1.0, 0.5])
    ok &= check("mixed argmax and sampling rows", rows_of(rng, 4, 151936), mixed)
    print("all ok" if ok else "MISMATCHES")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
