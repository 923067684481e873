"""Summarise ncu's per-instruction warp-state samples of one kernel (a CSV of the source page,
`ncu -i REPORT --page source --csv --print-source sass`): the instructions with the most samples,
with every per-reason column that has samples, and the totals per reason over the kernel, so that
a stall (e.g. "no instruction": instruction fetch) can be placed in the code.

    python3 tools/ncu_source_top.py FILE.csv [TOP]
"""
from __future__ import annotations

import csv
import sys


def number(text: str) -> float:
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return 0.0


def main() -> None:
    path, top = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40
    with open(path, newline="") as f:
        lines = [l for l in f if l.count(",") > 2]  # skip ncu's banner lines
    rows = list(csv.reader(lines))
    start = next((i for i, r in enumerate(rows) if r and r[0] == "Address"), None)  # after "Kernel Name"
    if start is None:
        print("no 'Address' header row in", path)
        return
    head, body = rows[start], rows[start + 1 :]
    print("columns:", " | ".join(head))
    total_col = next((i for i, h in enumerate(head) if h.startswith("Warp Stall Sampling (All")), None)
    if total_col is None:
        print("no 'Warp Stall Sampling (All Samples)' column")
        return
    src_col = next((i for i, h in enumerate(head) if h.strip() == "Source"), 1)
    addr_col = next((i for i, h in enumerate(head) if "Address" in h), 0)
    numeric = [i for i, h in enumerate(head) if i not in (src_col, addr_col)]
    totals = {head[i]: sum(number(r[i]) for r in body if len(r) > i) for i in numeric}
    all_samples = totals[head[total_col]] or 1.0
    print(f"\ninstructions: {len(body)}, samples: {all_samples:.0f}")
    print("totals per column (share of all samples):")
    for name, v in sorted(totals.items(), key=lambda kv: -kv[1]):
        if v > 0:
            print(f"  {name}: {v:.0f} ({100 * v / all_samples:.1f}%)")
    print(f"\ntop {top} instructions by samples:")
    ranked = sorted(body, key=lambda r: -number(r[total_col]) if len(r) > total_col else 0)
    for r in ranked[:top]:
        extra = ", ".join(f"{head[i]}={r[i]}" for i in numeric if i != total_col and len(r) > i and number(r[i]) > 0)
        print(f"  {r[addr_col]:>8} {number(r[total_col]):7.0f}  {r[src_col][:70]:<70} {extra[:200]}")


if __name__ == "__main__":
    main()
