"""A/B of the host cost per call on torch tensors (issue 11): two package trees, one run.

    PYTHONPATH=/path/to/torch python3 tools/torch_overhead_ab.py BEFORE_TREE AFTER_TREE
        [--device torch-cpu|nvidia] [--rounds 3] [--json FILE]

Runs this tree's `infiniop_py/bench/bench_overhead.py` (public API and `_ffi` only,
so it measures either package) against each tree in turn, BEFORE, AFTER, BEFORE, ...
(`--rounds` of each, each a fresh process with the tree first on PYTHONPATH), and prints
per call the median over rounds of ours / raw C / torch for both trees, with the ratios.
Each tree needs its built libraries (`infiniop_py/_lib`). `torch-cpu` times the torch
branch on CPU tensors (no GPU needed); `nvidia` the GPU suite. Numbers are printed,
never asserted; a wrong result in either tree is reported and fails the run.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "infiniop_py", "bench", "bench_overhead.py")


def one_run(tree: str, device: str) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.abspath(tree)] + [p for p in env.get("PYTHONPATH", "").split(
        os.pathsep) if p])
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        subprocess.run([sys.executable, BENCH, "--device", device, "--json", f.name], env=env, check=False,
                       stdout=subprocess.DEVNULL)
        with open(f.name) as g:
            return json.load(g)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--device", default="torch-cpu", choices=["torch-cpu", "nvidia", "cpu"])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", help="also write every run's rows here")
    args = parser.parse_args(argv)
    runs = {"before": [], "after": []}
    for _ in range(args.rounds):
        for side in ("before", "after"):
            runs[side].append(one_run(getattr(args, side), args.device))
    label = runs["after"][0]["device"]
    ok = True

    def med(side, i, field):
        values = [r["rows"][i][field] for r in runs[side] if r["rows"][i][field] is not None]
        return statistics.median(values) if values else float("nan")

    print(f"### Host cost per call, {label}: before {args.before}, after {args.after}, "
          f"{args.rounds} interleaved rounds\n")
    print("(µs: medians over the rounds; ratios: medians of each run's own ratio, robust to the host's drift)\n")
    print("| call | before µs | after µs | raw C µs | torch µs | before / raw | after / raw | before / torch | "
          "after / torch |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for i, row in enumerate(runs["after"][0]["rows"]):
        bad = [r["rows"][i]["note"] for side in runs for r in runs[side] if not r["rows"][i]["ok"]]
        ok = ok and not bad
        raw, base = med("after", i, "raw_us"), med("after", i, "base_us")
        print(f"| `{row['call']}` | {med('before', i, 'ours_us'):.2f} | {med('after', i, 'ours_us'):.2f} | "
              f"{raw:.2f} | {base:.2f} | {med('before', i, 'vs_raw'):.2f}× | {med('after', i, 'vs_raw'):.2f}× | "
              f"{med('before', i, 'vs_base'):.2f}× | {med('after', i, 'vs_base'):.2f}× |"
              f"{' WRONG: ' + '; '.join(bad) if bad else ''}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(runs, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
