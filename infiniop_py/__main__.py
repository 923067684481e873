"""python -m infiniop_py {info,demo}: what the library is and what it can do here."""
from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np


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
    report = {
        "library": str(ip.library_path),
        "found_by": ip.found_by,
        "build": build or "unknown (not built by this package's Makefile)",
        "devices": {"cpu": 1, "nvidia": _nvidia_devices(count)},
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
    print("devices     cpu:0")
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
