"""python -m infiniop_py {info,demo,bench}: what the library is, what it can do here, and how fast."""
from __future__ import annotations

import argparse
import json
import sys


def _versions() -> dict:
    from importlib import metadata

    out = {"python": sys.version.split()[0]}
    for dist in ("numpy", "cffi", "cuda-core", "cuda-bindings", "ml-dtypes"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "not installed"
    return out


def _nvidia_devices(count: int) -> list:
    devices = []
    for i in range(count):
        entry = {"id": i}
        try:
            from . import _cuda
            from cuda.core import Device

            dev = Device(i)
            drv = _cuda.driver()
            entry["name"] = dev.name
            entry["compute_capability"] = "%d.%d" % tuple(dev.compute_capability)
            entry["memory_gib"] = round(_cuda.check_cu(drv.cuDeviceTotalMem(i), "cuDeviceTotalMem") / 2**30, 1)
        except Exception as exc:  # report what could not be read, keep going
            entry["error"] = str(exc)
        devices.append(entry)
    return devices


def info(args) -> int:
    import infiniop_py as ip

    build = {}
    build_file = ip.library_path.with_name("build_info.json")
    if build_file.is_file():
        build = json.loads(build_file.read_text())
    count = ip.device_count("nvidia")
    from . import _ffi  # the CPU kernels' vector path, when the library reports it
    vec = _ffi.ffi.string(_ffi.lib.infiniopGetCpuVectorPath()).decode() \
        if _ffi.has_symbol("infiniopGetCpuVectorPath") else "unknown"
    report = {
        "library": str(ip.library_path),
        "found_by": ip.found_by,
        "build": build or "unknown (not built by this package's Makefile)",
        "devices": {"cpu": 1, "nvidia": _nvidia_devices(count)},
        "cpu_vector_path": vec,
        "versions": _versions(),
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"library     {report['library']} (found by {ip.found_by})")
    if build:
        archs = build.get("cuda_archs") or "-"
        print(f"build       NVIDIA backend: {'yes' if build.get('nvidia') else 'no'}; GPU architectures: {archs}; "
              f"nvcc {build.get('nvcc') or '-'}")
    print(f"devices     cpu:0  (vector path: {vec})")
    for d in report["devices"]["nvidia"]:
        if "error" in d:
            print(f"            nvidia:{d['id']}  (could not query: {d['error']})")
        else:
            print(f"            nvidia:{d['id']}  {d['name']}, {d['memory_gib']} GiB, compute capability "
                  f"{d['compute_capability']}")
    if not count:
        print("            (no NVIDIA GPU usable here)")
    print("versions    " + ", ".join(f"{k} {v}" for k, v in report["versions"].items()))
    return 0


def _best_device() -> str:
    import infiniop_py as ip

    try:
        return "nvidia" if ip.device_count("nvidia") > 0 else "cpu"
    except Exception:
        return "cpu"


def demo(args) -> int:
    from . import _demo

    device = args.device or _best_device()
    return _demo.run(device)


OPERATORS = ("rearrange", "mul", "lp_norm", "random_sample")


def _progress(done: int, total: int, label: str) -> None:
    """A one-line progress bar on stderr (stdout stays a clean table)."""
    if not sys.stderr.isatty() and done < total:
        print(f"[{done + 1}/{total}] {label}", file=sys.stderr, flush=True)
        return
    width = 30
    filled = width * done // max(total, 1)
    end = "\n" if done == total else ""
    print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label[:50]:<50}", end=end, file=sys.stderr,
          flush=True)


def _git_commit() -> str:
    """The source tree's commit; INFINIOP_COMMIT names it where there is no .git (a copied tree)."""
    import os
    import subprocess
    from pathlib import Path

    if os.environ.get("INFINIOP_COMMIT"):
        return os.environ["INFINIOP_COMMIT"]

    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).resolve().parent, timeout=5)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def _plot(rows, path: str, device_label: str, roofline: float) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("note: matplotlib is not installed; no plot written", file=sys.stderr)
        return False
    timed = [r for r in rows if r.ok]
    labels = [f"{r.op}\n{r.case}" for r in timed]
    ours = [r.gbps for r in timed]
    base = [r.bytes_moved / (r.torch_us * 1e-6) / 1e9 if r.torch_us else 0.0 for r in timed]
    fig, ax = plt.subplots(figsize=(max(8, 0.9 * len(timed)), 5))
    xs = range(len(timed))
    ax.bar([x - 0.2 for x in xs], ours, 0.4, label="infiniop-py")
    ax.bar([x + 0.2 for x in xs], base, 0.4, label="PyTorch" if "nvidia" in device_label.lower() else "NumPy")
    ax.axhline(roofline, color="k", linestyle="--", linewidth=1, label=f"copy roofline {roofline:.0f} GB/s")
    ax.set_xticks(list(xs))
    ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("achieved GB/s (bytes read + written)")
    ax.set_title(f"infiniop-py on {device_label}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return True


def bench(args) -> int:
    import datetime
    import importlib

    device = args.device or _best_device()
    if device == "nvidia":
        import importlib.util

        if importlib.util.find_spec("torch") is None:  # timing uses CUDA events through torch
            raise RuntimeError("the GPU benchmark times with torch's CUDA events: install torch")
    from .bench import harness

    if args.suite == "overhead":
        return _bench_overhead(args, device)
    import inspect

    ops = args.op or list(OPERATORS)
    cases = []
    for op in ops:
        module = importlib.import_module(f"infiniop_py.bench.bench_{op}")
        kwargs = {"device": device}
        if "quick" in inspect.signature(module.cases).parameters:
            kwargs["quick"] = args.quick
        cases.extend(module.cases(**kwargs))
    rows = []
    for i in range(len(cases)):
        _progress(i, len(cases), f"{cases[i].op}: {cases[i].name}")
        rows.append(harness.run_case(cases[i]))
        cases[i] = None  # free its buffers before the next case
    _progress(len(rows), len(rows), "done")
    roofline = harness.copy_roofline_gbps() if device == "nvidia" else harness.host_copy_roofline_gbps()
    label = harness.device_name() if device == "nvidia" else "CPU"
    print(f"device: {label}; copy roofline {roofline:.0f} GB/s (read + write); commit {_git_commit()}; "
          f"{datetime.date.today().isoformat()}")
    print()
    print(harness.markdown_table(rows, "PyTorch" if device == "nvidia" else "NumPy"))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": label, "device_kind": device, "date": datetime.datetime.now().isoformat(),
                       "commit": _git_commit(), "roofline_gbps": roofline,
                       "rows": [r.as_dict() for r in rows]}, f, indent=2, allow_nan=True)
    if args.plot:
        _plot(rows, args.plot, label, roofline)
    wrong = [r for r in rows if not r.ok]
    if wrong:
        print(f"\n{len(wrong)} case(s) gave a wrong result and were not timed", file=sys.stderr)
    return 1 if wrong else 0


def _bench_overhead(args, device: str) -> int:
    """Host cost per call on tiny inputs: ours, the raw C call, and PyTorch / NumPy (bench_overhead.py)."""
    import datetime

    from .bench import bench_overhead

    rows = bench_overhead.run(device, quick=args.quick)
    label = bench_overhead.device_label(device)
    print(f"device: {label}; host cost per call; commit {_git_commit()}; {datetime.date.today().isoformat()}")
    print()
    print(bench_overhead.markdown_table(rows, device))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": label, "device_kind": device, "suite": "overhead", "commit": _git_commit(),
                       "date": datetime.datetime.now().isoformat(), "rows": [r.as_dict() for r in rows]}, f,
                      indent=2, allow_nan=True)
    wrong = [r for r in rows if not r.ok]
    if wrong:
        print(f"\n{len(wrong)} call(s) gave a wrong result and were not timed", file=sys.stderr)
    return 1 if wrong else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m infiniop_py", description=__doc__)
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    sub = parser.add_subparsers(dest="command", required=True)
    p_info = sub.add_parser("info", help="library, build, devices and versions")
    p_info.add_argument("--json", action="store_true", help="machine-readable output")
    p_info.set_defaults(func=info)
    p_demo = sub.add_parser("demo", help="run all four operators on the best device, checked against NumPy")
    p_demo.add_argument("--device", choices=("cpu", "nvidia"), help="default: NVIDIA if usable, else CPU")
    p_demo.set_defaults(func=demo)
    p_bench = sub.add_parser("bench", help="benchmark the operators (against PyTorch on the GPU, NumPy on the CPU)")
    p_bench.add_argument("--suite", choices=("ops", "overhead"), default="ops",
                         help="ops: each operator's speed (default); overhead: host cost per call on tiny inputs")
    p_bench.add_argument("--op", action="append", choices=OPERATORS, help="operator(s) to run (default: all)")
    p_bench.add_argument("--device", choices=("cpu", "nvidia"), help="default: NVIDIA if usable, else CPU")
    p_bench.add_argument("--quick", action="store_true", help="tiny sizes: checks that everything runs")
    p_bench.add_argument("--json", metavar="FILE", help="write the results as JSON")
    p_bench.add_argument("--plot", metavar="FILE", help="write a PNG bar chart (needs matplotlib)")
    p_bench.set_defaults(func=bench)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except Exception as exc:
        if args.debug:
            raise
        print(f"error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
