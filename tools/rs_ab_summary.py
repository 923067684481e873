"""The summary of an A/B file of tools/rs5_ab.py lines ("LABEL | case | graph X | eager Y | ok"),
several rounds appended to one file: per case, the median graph / eager µs of each label and the
graph difference.

    python3 tools/rs_ab_summary.py FILE LABEL_A LABEL_B
"""
from __future__ import annotations

import collections
import statistics
import sys


def main() -> int:
    path, a_label, b_label = sys.argv[1:4]
    times = collections.defaultdict(list)
    for line in open(path, encoding="utf-8"):
        f = [x.strip() for x in line.split("|")]
        if len(f) == 5 and f[2].startswith("graph"):
            times[(f[1], f[0])].append((float(f[2].split()[1]), float(f[3].split()[1])))
    print(f"\nsummary (median of rounds), graph / eager µs: {a_label} | {b_label} | {a_label} - {b_label} (graph, eager)")
    for case in dict.fromkeys(k[0] for k in times):
        a, b = times.get((case, a_label), []), times.get((case, b_label), [])
        if a and b:
            med = lambda v, i: statistics.median(x[i] for x in v)  # noqa: E731
            print(f"{case}: {med(a, 0):.2f} / {med(a, 1):.2f} | {med(b, 0):.2f} / {med(b, 1):.2f} | "
                  f"{med(a, 0) - med(b, 0):+.2f}, {med(a, 1) - med(b, 1):+.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
