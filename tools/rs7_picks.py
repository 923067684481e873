"""The picks of the sampling kernel on a fixed set of inputs, one line per case,
for comparing two builds bit for bit (session rs7, issue 12: the code-size
changes must not move any pick). Covers every path of sample.cuh: small K, top
p only (guesses), K > kCap with and without top p, exact selection on ties,
misaligned rows (the unaligned head), lengths that end in a partial vector,
-inf / NaN logits, teams of 1 / 8 / 16, batches with mixed rows; all four dtypes.

    INFINIOP_LIBRARY=build/lib/libinfiniop.so python3 tools/rs7_picks.py > new.txt
    (the same with the other library) ; diff old.txt new.txt
    python3 tools/rs7_picks.py --cpu      (the same cases on the CPU backend: a dry run of the script)
    python3 tools/rs7_picks.py --compare new.txt old.txt   (the differing lines of two runs)

Inputs come from NumPy with fixed seeds (the same on every machine). The last
line counts the cases; a case whose call raises prints its exception's type.
"""
from __future__ import annotations

import sys

import numpy as np

import infiniop_py as ip

# (random_val, topp, topk, temperature): small K; top p only; K <= kCap with
# top p; K > kCap (descent 2) with and without top p; the whole row (K == n,
# topp 1: the guess scaled by r); a temperature far from 1.
PARAMS = ((0.5, 0.9, 50, 0.8), (0.97, 1.0, 64, 1.0), (0.5, 0.9, 0, 0.8), (0.3, 0.5, 2000, 0.7),
          (0.7, 0.95, 5000, 1.0), (0.2, 1.0, 3000, 1.0), (0.4, 1.0, 0, 1.0), (0.9, 0.99, 40, 3.0),
          (0.05, 0.3, 1, 1.0))
LENGTHS = (1000, 4099, 32000, 151936, 151937, 262144)
KINDS = ("randn", "ties", "special")


def logits(kind: str, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n + 8) * 3.0
    if kind == "ties":  # few distinct values: buckets and candidates full of equal keys
        x = np.round(x * 2.0) / 2.0
    elif kind == "special":  # -inf and NaN among the logits (NaN weighs nothing, ranks last)
        x[rng.integers(0, n, n // 50)] = -np.inf
        x[rng.integers(0, n, n // 200)] = np.nan
    return x


def compare(new_path: str, old_path: str) -> int:
    """Prints how many lines of two runs differ (and the first 30); 0 when none do."""
    new, old = (open(p).read().splitlines() for p in (new_path, old_path))
    diff = [(a, b) for a, b in zip(new, old) if a != b]
    raised = sum(1 for line in new if line.split() and line.split()[-1].endswith(("Error", "Exception")))
    count = len(diff) + abs(len(new) - len(old))
    print(f"cases: new {len(new) - 1} lines, old {len(old) - 1}; last lines: {new[-1:]} / {old[-1:]}")
    print(f"differing lines: {count}; lines of the new run that raised: {raised}")
    for a, b in diff[:30]:
        print(f"new: {a}\nold: {b}")
    return 1 if count or raised else 0


def main() -> int:
    if sys.argv[1:2] == ["--compare"]:
        return compare(sys.argv[2], sys.argv[3])
    cpu = "--cpu" in sys.argv[1:]  # a dry run on the CPU backend (NumPy; no bfloat16): the script's own check
    if cpu:
        dtypes = {"float16": np.float16, "float32": np.float32, "float64": np.float64}
        put = lambda host, dt: host.astype(dtypes[dt])  # noqa: E731
        one = lambda x, r, p, k, t: str(ip.random_sample(x, r, p, k, t))  # noqa: E731
        many = lambda x, *prm: " ".join(str(v) for v in ip.random_sample_batch(x, *prm))  # noqa: E731
    else:
        import torch

        dtypes = {dt: getattr(torch, dt) for dt in ("float16", "bfloat16", "float32", "float64")}
        out = torch.empty((), device="cuda", dtype=torch.int64)
        put = lambda host, dt: torch.from_numpy(host).to("cuda").to(dtypes[dt])  # noqa: E731

        def one(x, r, p, k, t):
            out.fill_(-1)
            ip.random_sample(x, r, p, k, t, out=out)
            return str(int(out.item()))

        def many(x, *prm):
            res = torch.full((x.shape[0],), -1, device="cuda", dtype=torch.int64)
            ip.random_sample_batch(x, *prm, out=res)
            return " ".join(str(v) for v in res.cpu().tolist())

    cases = 0
    for dt in dtypes:
        for n in LENGTHS:
            for kind in KINDS:
                if dt in ("float32", "float64") and n not in (4099, 151937) and kind != "randn":
                    continue  # (shorter: the wide types take ties / special rows on two lengths)
                base = put(logits(kind, n, n * 7 + len(kind)), dt)
                for off in (0, 1, 3):  # 0: aligned; 1, 3: the head path
                    x = base[off:off + n]
                    for pi, (r, p, k, t) in enumerate(PARAMS):
                        try:
                            got = one(x, r, p, k, t)
                        except Exception as e:  # noqa: BLE001 (the same in both builds, or a difference)
                            got = type(e).__name__
                        print(f"{dt} n={n} {kind} off={off} p{pi} {got}")
                        cases += 1
    # Batches: rows of mixed parameters, misaligned rows (row stride n + 3).
    for dt in [d for d in ("float16", "bfloat16") if d in dtypes]:
        for rows, n in ((8, 151936), (64, 151936), (5, 32000), (300, 4099)):
            full = put(np.stack([logits(KINDS[b % 3], n + 3, 31 * b + n)[:n + 3] for b in range(rows)]), dt)
            for start in (0, 1):
                prm = [PARAMS[b % len(PARAMS)] for b in range(rows)]
                try:
                    got = many(full[:, start:start + n], *([q[j] for q in prm] for j in range(4)))
                except Exception as e:  # noqa: BLE001
                    got = type(e).__name__
                print(f"batch {dt} {rows}x{n} start={start} {got}")
                cases += 1
    print(f"cases {cases}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
