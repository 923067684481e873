"""LPNorm shapes that the library gives the Split plan (too few long rows for a
cluster plan), eager and in CUDA graphs, against PyTorch in the same process
(bench_lp_norm's cases and timing). The library: INFINIOP_LIBRARY, or the
default build. tools/verify_s15e.sh runs it on two builds."""
from infiniop_py.bench import bench_lp_norm as b, harness

SPECS = [
    ("2x1M BF16 axis 1 p 2", (2, 1 << 20), "bfloat16", 1, 2),
    ("4x1M BF16 axis 1 p 2", (4, 1 << 20), "bfloat16", 1, 2),
    ("1x16M BF16 axis 1 p 2", (1, 16 << 20), "bfloat16", 1, 2),
    ("2x2M F32 axis 1 p 2", (2, 2 << 20), "float32", 1, 2),
]


def kernels(case) -> str:
    """The names of the kernels one of our calls launched (CUPTI through torch.profiler): which plan ran."""
    from torch.profiler import ProfilerActivity, profile

    t = harness.torch()
    t.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        case.ours()
        t.cuda.synchronize()
    names = [e.name for e in prof.events() if e.device_type.name == "CUDA"]
    short = [n.replace("(anonymous namespace)::", "").split("<")[0].split("(")[0].split("::")[-1] for n in names]
    return ", ".join(short) or "none seen"


def report(specs):
    """Each (name, shape, dtype name, axis, p): checked, then eager and graph µs beside PyTorch's and the
    kernels our call launched, a line each."""
    for spec in specs:
        case = b._gpu_case(*spec)
        r, g = harness.run_case(case), b.graph_row(case)
        print(f"{spec[0]}: eager {r.ours_us:.2f} us (torch {r.torch_us:.2f}), graph {g.ours_us:.2f} us "
              f"(torch {g.torch_us:.2f}), ok {r.ok} {g.ok} {r.note} [{kernels(case)}]", flush=True)


def selected(specs, words):
    """The specs whose name contains any of `words` (every spec when there are none): the probes' filters."""
    return [s for s in specs if not words or any(w in s[0] for w in words)]


if __name__ == "__main__":
    report(SPECS)
