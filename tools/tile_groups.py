"""Session 42: planTile's grouping (native/src/ops/rearrange/rearrange_nvidia.cc) in Python, for choosing
Rearrange cases by their tiles' fill without a GPU: for each behind_sweep.py `rearrange` line, group a (src's
unit-stride dim and the dims continuing its run), group b (dst's innermost dim and the dims continuing its
run, stopping at a's), the tiles' fill and b's fill of its span (64-unit tiles). It skips the layout
simplification that runs first (merging dims contiguous in both tensors, dropping size-1 dims), so a case
whose dims merge may be grouped otherwise by the library.
    python3 tools/tile_groups.py [--units 2,1,4,8] [--min-fill F] [--max-b-fill B] < FILE
prints the lines that pass (tiles at least F% full, b under B% of its span), each after its numbers."""
import argparse
import re
import sys

SIZES = {"int8": 1, "float16": 2, "bfloat16": 2, "float32": 4, "float64": 8}
LINE = re.compile(r"rearrange \(([\d, ]+)\) src order \(([\d, ]+)\) dst \(([\d, ]+)\) (\w+)")
EDGE, MAX_GROUP = 64, 4


def strides_of_order(shape, order):
    """Strides of `shape` laid out with order[-1] fastest."""
    strides, s = [0] * len(shape), 1
    for d in reversed(order):
        strides[d] = s
        s *= shape[d]
    return strides


def groups(shape, ss, ds):
    """(fill %, len_a, len_b) of planTile's tiles, or None where it plans no tiles."""
    nd, b = len(shape), len(shape) - 1
    a = None
    for d in range(b):
        if abs(ss[d]) == 1:
            a = d
    if a is None or abs(ss[b]) == 1:
        return None
    used = [False] * nd
    used[a] = used[b] = True
    gb, len_b = [b], shape[b]
    for d in range(b - 1, -1, -1):
        if len_b >= 4 * EDGE or len(gb) >= MAX_GROUP or used[d] or ds[d] != ds[gb[-1]] * shape[gb[-1]]:
            break
        gb.append(d)
        used[d] = True
        len_b *= shape[d]
    ga, len_a = [a], shape[a]
    while len_a < 4 * EDGE and len(ga) < MAX_GROUP:
        nxt = next((d for d in range(nd) if not used[d] and ss[d] == ss[ga[-1]] * shape[ga[-1]]), None)
        if nxt is None:
            break
        ga.append(nxt)
        used[nxt] = True
        len_a *= shape[nxt]
    span = lambda n: -(-n // EDGE) * EDGE
    return 100 * len_a * len_b / (span(len_a) * span(len_b)), len_a, len_b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--units", default="1,2,4,8")
    ap.add_argument("--min-fill", type=float, default=0)
    ap.add_argument("--max-b-fill", type=float, default=101)
    args = ap.parse_args()
    units = {int(u) for u in args.units.split(",")}
    for line in sys.stdin:
        m = LINE.match(line)
        if not m or SIZES[m[4]] not in units:
            continue
        shape, order, ds = ([int(x) for x in m[i].split(",")] for i in (1, 2, 3))
        g = groups(shape, strides_of_order(shape, order), ds)
        if g is None:
            continue
        fill, len_a, len_b = g
        b_fill = 100 * len_b / (-(-len_b // EDGE) * EDGE)
        if fill >= args.min_fill and b_fill < args.max_b_fill:
            print(f"# fill {fill:.0f}% a {len_a} b {len_b} ({b_fill:.0f}% of its span)")
            print(line.rstrip("\n"))


if __name__ == "__main__":
    main()
