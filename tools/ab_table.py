"""Summarise a verify script's ab.txt: sections `=== SET LIB` of behind_sweep.py --repro lines. For
each set, per library: cases behind PyTorch, the median ratio to PyTorch, the geometric mean of its
time over the first library's, and the largest gains and losses against the first library (cases of
at least MIN_US there, default 15: smaller ones move by +-25% between runs).
    python3 tools/ab_table.py ab.txt [MIN_US]"""
import math
import re
import sys
from collections import defaultdict

LINE = re.compile(r"^(\S.*?): ours ([\d.]+) us, torch ([\d.]+) us")


def load(path):
    sets = defaultdict(dict)  # set -> lib -> case -> (ours, torch)
    cur = None
    for line in open(path):
        if line.startswith("=== "):
            name, lib = line.split()[1:3]
            cur = sets[name].setdefault(lib, {})
            continue
        m = LINE.match(line)
        if m and cur is not None and float(m[3]) > 0:
            cur[m[1]] = (float(m[2]), float(m[3]))
    return sets


def main():
    min_us = float(sys.argv[2]) if len(sys.argv) > 2 else 15.0
    for name, libs in load(sys.argv[1]).items():
        order = list(libs)
        base = libs[order[0]]
        print(f"## {name} (against {order[0]})")
        for lib in order:
            cases = libs[lib]
            common = [c for c in cases if c in base]
            ratios = sorted(o / t for o, t in cases.values())
            behind = sum(r > 1 for r in ratios)
            rel = [cases[c][0] / base[c][0] for c in common]
            gm = math.exp(sum(map(math.log, rel)) / len(rel)) if rel else float("nan")
            med = ratios[len(ratios) // 2] if ratios else float("nan")
            print(f"{lib:10s} {len(cases):4d} cases, {behind:4d} behind, median ours/torch {med:.3f}, "
                  f"worst {ratios[-1] if ratios else 0:.2f}, time over {order[0]} (geomean) {gm:.3f}")
            if lib == order[0]:
                continue
            big = sorted((cases[c][0] / base[c][0], c) for c in common if base[c][0] >= min_us)
            for r, c in big[:4] + big[-4:]:
                print(f"    {r:5.2f}x  {c}: {base[c][0]:.1f} -> {cases[c][0]:.1f} (torch {cases[c][1]:.1f})")


if __name__ == "__main__":
    main()
