"""Session 35: a seeded random sweep of Rearrange, Mul and LPNorm cases that no bench lists, each
checked, then timed eager beside PyTorch on the same tensors (harness.run_case: events around batches,
medians, buffers rotated past L2), to find the shapes where we are behind it. A line a case; the
slowest ratios again at the end.
    python3 tools/behind_sweep.py [--cpu] [SEED [SECONDS [OPS]]]     (OPS: e.g. rearrange,mul,lp_norm)
    python3 tools/behind_sweep.py --repro FILE [N [--no-kernels]]
The second form runs again the N cases (default 30) with the highest ratios among FILE's lines (this
script's output, e.g. notes/sweeps/session35_behind.txt), each with the kernels our call launched (a
profiler run a case: --no-kernels skips it, to rerun hundreds), then how many are still behind."""
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


def random_permute(rng, numel):
    """(dtype, shape, order): a Rearrange case's element type, shape and a src order other than identity;
    numel(rng, itemsize) picks the element count."""
    dtype = rng.choice(["int8", "float16", "float32", "float64"])
    ndim = rng.randint(2, 5)
    shape = random_shape(rng, ndim, numel(rng, itemsize(dtype)))
    order = list(range(ndim))
    while order == list(range(ndim)):
        rng.shuffle(order)
    return dtype, shape, order


def rearrange_case(rng):
    dtype, shape, order = random_permute(rng, random_numel)
    ndim = len(shape)
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
    nbytes = 3 * math.prod(shape) * itemsize(dtype_name)
    nsets = max(1, min(8, -(-(192 << 20) // nbytes)))
    name = f"mul {shape} a order {a_order} b {b_shape} {dtype_name}"
    return bench_mul._gpu_case(name, shape, (shape, tuple(a_order)), b_shape, dtype_name, nsets)


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


def run_case(case):
    """harness.run_case, a Python exception in it (a check that could not compare, as session 39's byte
    view of a one-element last dim) reported as a failed case instead of ending the sweep."""
    try:
        return harness.run_case(case)
    except Exception as e:  # (a CUDA fault stays sticky: the cases after it fail too, and say so)
        return harness.Row(case.op, case.name, float("nan"), None, case.bytes_moved, 0.0, ok=False,
                           note=f"{type(e).__name__}: {e}")


def case_of(desc):
    """The case a sweep line's description (the part before ": ours") names, or None."""
    for pattern, make in PARSERS:
        m = pattern.fullmatch(desc)
        if m:
            return make(m)
    return None


def repro(path, count, with_kernels=True):
    """The `count` cases of the highest ratio in a sweep's output, again, with our kernels."""
    from split_eager import kernels  # (tools/, this script's directory)

    behind = total = 0

    lines = []
    for line in open(path):
        m = re.search(r"ratio ([\d.]+)", line)
        if m and ": ours " in line:
            lines.append((float(m[1]), line.split(": ours ")[0]))
    for ratio, desc in sorted(lines, reverse=True)[:count]:
        case = case_of(desc)
        if case is None:
            print(f"{desc}: not understood", flush=True)
            continue
        row = run_case(case)
        now = row.ours_us / row.torch_us if row.ok and row.torch_us else float("nan")
        total += 1
        behind += not now <= 1.0
        print(f"{desc}: ours {row.ours_us:.2f} us, torch {row.torch_us or float('nan'):.2f} us, ratio "
              f"{now:.3f} (sweep ratio {ratio:.2f}), ok {row.ok}"
              f"{f' [{kernels(case)}]' if with_kernels else ''}", flush=True)
        del case
        harness.torch().cuda.empty_cache()
    print(f"{behind} of {total} still behind (or failed)")


MAKERS = {"rearrange": rearrange_case, "mul": mul_case, "lp_norm": lp_norm_case}


# --cpu: the same kinds of cases on the CPU backend against NumPy (np.copyto, np.multiply, the bench's
# NumPy normalisation), tensors of 1-24 MB; Mul's a stays contiguous there (the bench's CPU case).
def cpu_numel(rng, size):
    return int(math.exp(rng.uniform(math.log(1 << 20), math.log(24 << 20)))) // size


def rearrange_cpu(rng):
    dtype, shape, order = random_permute(rng, cpu_numel)
    name = f"rearrange {shape} src order {tuple(order)} dst {contiguous_strides(shape)} {dtype}"
    spec = bench_rearrange.Spec(name, shape, contiguous_strides(shape), permuted_strides(shape, order), dtype)
    return bench_rearrange._cpu_case(spec)


def mul_cpu(rng):
    dtype = rng.choice(["float16", "float32", "float64"])
    shape = random_shape(rng, rng.randint(2, 4), cpu_numel(rng, itemsize(dtype)) // 3)
    b_shape = tuple(1 if rng.random() < 0.35 else v for v in shape)
    return bench_mul._cpu_case(f"mul {shape} a order {tuple(range(len(shape)))} b {b_shape} {dtype}", shape, b_shape,
                               dtype)


def lp_norm_cpu(rng):
    dtype = rng.choice(["float16", "float32", "float64"])
    ndim = rng.randint(1, 4)
    shape = random_shape(rng, ndim, cpu_numel(rng, itemsize(dtype)))
    axis, p = rng.randrange(ndim), rng.choice([1, 2, 2, 3])
    return bench_lp_norm._cpu_case(f"lp_norm {shape} axis {axis} p {p} {dtype}", shape, dtype, axis, p)


CPU_MAKERS = {"rearrange": rearrange_cpu, "mul": mul_cpu, "lp_norm": lp_norm_cpu}


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--repro":
        repro(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 30, "--no-kernels" not in sys.argv)
        return
    cpu = "--cpu" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--cpu"]
    seed = int(args[0]) if len(args) > 0 else 35
    budget = float(args[1]) if len(args) > 1 else 120.0
    ops = args[2].split(",") if len(args) > 2 else list(MAKERS)
    makers = CPU_MAKERS if cpu else MAKERS
    base = "numpy" if cpu else "torch"
    rng = random.Random(seed)
    t = None if cpu else harness.torch()
    print(f"device: {'cpu' if cpu else harness.device_name()}, seed {seed}, {budget:.0f} s, ops {ops}", flush=True)
    rows = []
    start = time.monotonic()
    k = 0
    while time.monotonic() - start < budget:
        make = makers[ops[k % len(ops)]]
        k += 1
        case = make(rng)
        row = run_case(case)
        ratio = row.ours_us / row.torch_us if row.ok and row.torch_us else float("nan")
        flag = "BEHIND" if ratio > 1.0 else "close" if ratio > 0.9 else ""
        print(f"{case.name}: ours {row.ours_us:.2f} us, {base} {row.torch_us or float('nan'):.2f} us, "
              f"ratio {ratio:.3f}, {row.bytes_moved / 1e6:.1f} MB, ok {row.ok} {row.note or ''} {flag}", flush=True)
        rows.append((ratio, case.name, row))
        del case
        if t is not None:
            t.cuda.empty_cache()
    print(f"\nslowest against {base}:")
    for ratio, name, row in sorted(rows, key=lambda r: -r[0] if r[0] == r[0] else 0)[:12]:
        print(f"  {ratio:.3f}  {name}: ours {row.ours_us:.2f}, {base} {row.torch_us or float('nan'):.2f}")
    bad = [name for _, name, row in rows if not row.ok]
    print(f"{len(rows)} cases, {len(bad)} failed checks: {bad}")


if __name__ == "__main__":
    main()
