"""Session 35: a seeded random sweep of Rearrange, Mul and LPNorm cases that no bench lists, each
checked, then timed eager beside PyTorch on the same tensors (harness.run_case: events around batches,
medians, buffers rotated past L2), to find the shapes where we are behind it. A line a case; the
slowest ratios again at the end.
    python3 tools/behind_sweep.py [SEED [SECONDS [OPS]]]     (OPS: e.g. rearrange,mul,lp_norm)
    python3 tools/behind_sweep.py --repro FILE [N]
The second form runs again the N cases (default 30) with the highest ratios among FILE's lines (this
script's output, e.g. notes/sweeps/session35_behind.txt), each with the kernels our call launched."""
import math
import random
import re
import sys
import time

from infiniop_py._layout import contiguous_strides, permuted_strides
from infiniop_py.bench import bench_lp_norm, bench_mul, bench_rearrange, harness

FLOATS = ["float16", "bfloat16", "float32", "float64"]


def random_shape(rng, ndim, numel):
    """ndim dims whose product is about numel, some of them odd."""
    dims = []
    left = numel
    for i in range(ndim - 1):
        share = left ** (1 / (ndim - i))
        d = max(1, int(share * rng.uniform(0.25, 4)))
        if rng.random() < 0.3:
            d = d | 1
        dims.append(d)
        left = max(1, left // d)
    dims.append(max(1, left))
    rng.shuffle(dims)
    return tuple(dims)


def random_numel(rng, itemsize):
    """Elements of a tensor of 2-96 MB, log-uniform."""
    return int(math.exp(rng.uniform(math.log(2 << 20), math.log(96 << 20)))) // itemsize


def itemsize(dtype):
    return {"int8": 1, "float16": 2, "bfloat16": 2, "float32": 4, "float64": 8, "int64": 8}[dtype]


def rearrange_case(rng):
    dtype = rng.choice(["int8", "float16", "float32", "float64"])
    ndim = rng.randint(2, 5)
    shape = random_shape(rng, ndim, random_numel(rng, itemsize(dtype)))
    order = list(range(ndim))
    while order == list(range(ndim)):
        rng.shuffle(order)
    dst = contiguous_strides(shape)
    if rng.random() < 0.25:  # both sides permuted
        other = list(range(ndim))
        rng.shuffle(other)
        dst = permuted_strides(shape, other)
    return make_rearrange(shape, tuple(order), tuple(dst), dtype)


def make_rearrange(shape, order, dst, dtype):
    name = f"rearrange {shape} src order {order} dst {dst} {dtype}"
    return bench_rearrange._gpu_case(bench_rearrange.Spec(name, shape, dst, permuted_strides(shape, order), dtype))


def mul_case(rng):
    dtype_name = rng.choice(FLOATS)
    ndim = rng.randint(2, 4)
    shape = random_shape(rng, ndim, random_numel(rng, itemsize(dtype_name)) // 3)
    a_order = list(range(ndim))
    if rng.random() < 0.4:
        rng.shuffle(a_order)
    b_shape = tuple(1 if rng.random() < 0.35 else s for s in shape)
    return make_mul(shape, tuple(a_order), b_shape, dtype_name)


def make_mul(shape, a_order, b_shape, dtype_name):
    t = harness.torch()
    dtype = getattr(t, dtype_name)
    ndim = len(shape)
    nbytes = 3 * math.prod(shape) * itemsize(dtype_name)
    nsets = max(1, min(8, -(-(192 << 20) // nbytes)))
    sets = []
    for _ in range(nsets):
        a_base = (t.rand([shape[i] for i in a_order], device="cuda") * 4 - 2).to(dtype)
        a = a_base.permute([list(a_order).index(i) for i in range(ndim)])
        b = (t.rand(b_shape, device="cuda") * 4 - 2).to(dtype)
        sets.append((t.empty(shape, device="cuda", dtype=dtype), a, b))
    op = bench_mul._descriptor(*sets[0])
    ours = [lambda c=c, a=a, b=b: op(c.data_ptr(), a.data_ptr(), b.data_ptr()) for c, a, b in sets]
    theirs = [lambda c=c, a=a, b=b: t.mul(a, b, out=c) for c, a, b in sets]

    def check():
        for (c, a, b), call in zip(sets, ours):
            c.fill_(float("nan"))
            call()
            if not t.equal(c, t.mul(a, b)):
                return "differs from torch.mul"
        return True

    c, a, b = sets[0]
    moved = sum(x.numel() * x.element_size() for x in (c, a, b))
    name = f"mul {shape} a order {a_order} b {b_shape} {dtype_name}"
    return harness.Case("mul", name, "nvidia", ours[0], theirs[0], check, moved,
                        rotate=ours if nsets > 1 else None, baseline_rotate=theirs if nsets > 1 else None)


def lp_norm_case(rng):
    dtype = rng.choice(FLOATS)
    ndim = rng.randint(1, 4)
    shape = random_shape(rng, ndim, random_numel(rng, itemsize(dtype)))
    axis = rng.randrange(ndim)
    p = rng.choice([1, 2, 2, 3])
    return make_lp_norm(shape, axis, p, dtype)


def make_lp_norm(shape, axis, p, dtype):
    return bench_lp_norm._gpu_case(f"lp_norm {shape} axis {axis} p {p} {dtype}", shape, dtype, axis, p)


def tup(text):
    return tuple(int(v) for v in text.split(",") if v.strip())


# A sweep line's case description -> the case (the inverse of the names above).
PARSERS = [
    (re.compile(r"rearrange \(([\d, ]+)\) src order \(([\d, ]+)\) dst \(([\d, ]+)\) (\w+)"),
     lambda m: make_rearrange(tup(m[1]), tup(m[2]), tup(m[3]), m[4])),
    (re.compile(r"mul \(([\d, ]+)\) a order \(([\d, ]+)\) b \(([\d, ]+)\) (\w+)"),
     lambda m: make_mul(tup(m[1]), tup(m[2]), tup(m[3]), m[4])),
    (re.compile(r"lp_norm \(([\d, ]+)\) axis (\d+) p (\d+) (\w+)"),
     lambda m: make_lp_norm(tup(m[1]), int(m[2]), int(m[3]), m[4])),
]


def repro(path, count):
    """The `count` cases of the highest ratio in a sweep's output, again, with our kernels."""
    from split_eager import kernels  # (tools/, this script's directory)

    lines = []
    for line in open(path):
        m = re.search(r"ratio ([\d.]+)", line)
        if m and ": ours " in line:
            lines.append((float(m[1]), line.split(": ours ")[0]))
    for ratio, desc in sorted(lines, reverse=True)[:count]:
        for pattern, make in PARSERS:
            m = pattern.fullmatch(desc)
            if m:
                case = make(m)
                row = harness.run_case(case)
                print(f"{desc}: ours {row.ours_us:.2f} us, torch {row.torch_us or float('nan'):.2f} us "
                      f"(sweep ratio {ratio:.2f}), ok {row.ok} [{kernels(case)}]", flush=True)
                break
        else:
            print(f"{desc}: not understood", flush=True)


MAKERS = {"rearrange": rearrange_case, "mul": mul_case, "lp_norm": lp_norm_case}


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--repro":
        repro(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 30)
        return
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 35
    budget = float(sys.argv[2]) if len(sys.argv) > 2 else 120.0
    ops = sys.argv[3].split(",") if len(sys.argv) > 3 else list(MAKERS)
    rng = random.Random(seed)
    t = harness.torch()
    print(f"device: {harness.device_name()}, seed {seed}, {budget:.0f} s, ops {ops}", flush=True)
    rows = []
    start = time.monotonic()
    k = 0
    while time.monotonic() - start < budget:
        make = MAKERS[ops[k % len(ops)]]
        k += 1
        case = make(rng)
        row = harness.run_case(case)
        ratio = row.ours_us / row.torch_us if row.ok and row.torch_us else float("nan")
        flag = "BEHIND" if ratio > 1.0 else "close" if ratio > 0.9 else ""
        print(f"{case.name}: ours {row.ours_us:.2f} us, torch {row.torch_us or float('nan'):.2f} us, "
              f"ratio {ratio:.3f}, {row.bytes_moved / 1e6:.1f} MB, ok {row.ok} {row.note or ''} {flag}", flush=True)
        rows.append((ratio, case.name, row))
        del case
        t.cuda.empty_cache()
    print("\nslowest against PyTorch:")
    for ratio, name, row in sorted(rows, key=lambda r: -r[0] if r[0] == r[0] else 0)[:12]:
        print(f"  {ratio:.3f}  {name}: ours {row.ours_us:.2f}, torch {row.torch_us or float('nan'):.2f}")
    bad = [name for _, name, row in rows if not row.ok]
    print(f"{len(rows)} cases, {len(bad)} failed checks: {bad}")


if __name__ == "__main__":
    main()
