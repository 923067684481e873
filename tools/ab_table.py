"""Summarise a verify script's ab.txt: sections `=== SET LIB` of behind_sweep.py --repro lines. For
each set, per library: cases behind PyTorch, the median ratio to PyTorch, the geometric mean of its
time over the first library's, and the largest gains and losses against the first library (cases of
at least MIN_US there, default 15: smaller ones move by +-25% between runs), and per dtype the geomean
against the first library (against both of its runs where the last library repeats it, e.g. default2).
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
            # Against both runs of the first library where the last one is its repeat (default / default2),
            # per dtype (a case description's last word): what a rule per type would take.
            again = libs[order[-1]] if len(order) > 2 and order[-1].startswith(order[0]) else None
            ref = {c: math.sqrt(base[c][0] * again[c][0]) if again and c in again else base[c][0] for c in common}
            by_dtype = defaultdict(list)
            for c in common:
                by_dtype[c.split()[-1]].append(c)
            if lib != order[-1] or again is None:
                for dt, cs in sorted(by_dtype.items()):
                    g = math.exp(sum(math.log(cases[c][0] / ref[c]) for c in cs) / len(cs))
                    print(f"    {dt:9s} {len(cs):4d} cases, time over {order[0]}{' (both runs)' if again else ''} "
                          f"{g:.3f}, behind {sum(base[c][0] > base[c][1] for c in cs)} -> "
                          f"{sum(cases[c][0] > cases[c][1] for c in cs)}")
            big = sorted((cases[c][0] / base[c][0], c) for c in common if base[c][0] >= min_us)
            for r, c in big[:4] + big[-4:]:
                print(f"    {r:5.2f}x  {c}: {base[c][0]:.1f} -> {cases[c][0]:.1f} (torch {cases[c][1]:.1f})")


if __name__ == "__main__":
    main()
