"""The benchmark harness shared by every operator's benchmark.

Method (see METHOD.md in the team's notes): correctness is checked by the
caller before timing; each case is timed with CUDA events around many
repetitions after a warm-up, on the current torch stream, and the median is
reported; bandwidth is bytes moved (each input read once, each output written
once) over time, compared with the measured device-to-device copy bandwidth
(bytes read + written) of the same GPU in the same run.
"""
from __future__ import annotations

import dataclasses
import statistics
import time
from typing import Callable, List, Optional, Sequence, Union


def torch():
    """torch, imported on first use (the benchmarks need it; the library does not)."""
    import torch as _torch

    return _torch


def device_name() -> str:
    return torch().cuda.get_device_name()


def time_cuda(fn: Callable[[], object], *, warmup: int = 10, reps: Optional[int] = None,
              rotate: Optional[Sequence[Callable[[], object]]] = None, batch: Optional[int] = None) -> float:
    """Median time of one call in microseconds, timed with CUDA events around
    batches of calls queued back to back, as eager calls run in a decode step
    (each call's launch overlaps the one before it; where the host is slower
    than the device, the batch shows the host's rate). One event pair a call
    put the events' own host cost into every sample: 3-7 µs on the H100 host
    (BENCHMARKS.md, session 19). The events between batches are stream work
    that no programmatic dependent launch crosses: batches of 8 put ~0.2 µs a
    call more than batches of 200 into a 25 µs transpose (session 20), so a
    batch is at least 32 calls.

    `rotate`: several equivalent calls over different buffers, used in turn so
    that a case smaller than L2 is not timed out of the cache. `batch`: calls
    a sample (default: whole rotations, at least 32); `reps` samples (default:
    at least 25, about 800 calls in all).
    """
    t = torch()
    calls = list(rotate) if rotate else [fn]
    per = batch or len(calls) * -(-32 // len(calls))
    reps = reps or max(25, 800 // per)
    for i in range(warmup):
        calls[i % len(calls)]()
    t.cuda.synchronize()
    starts = [t.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [t.cuda.Event(enable_timing=True) for _ in range(reps)]
    k = 0
    for i in range(reps):
        starts[i].record()
        for _ in range(per):
            calls[k % len(calls)]()
            k += 1
        ends[i].record()
    t.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in zip(starts, ends)) * 1e3 / per


# Calls a graph holds by default: a replay's own start (~1 µs on an H100)
# is spread over this many calls, as in the Rearrange and RandomSample rows.
GRAPH_CALLS = 16


def time_cuda_graph(calls: Sequence[Callable[[object], object]], per_graph: Optional[int] = None) -> float:
    """Median µs per call with host and launch overhead out: the calls (each
    takes the capture stream, a torch stream) are run once outside capture
    (caches, per-stream workspaces), captured into CUDA graphs of `per_graph`
    calls each (default: whole rounds of `calls`, at least GRAPH_CALLS),
    cycling over `calls`, and replayed."""
    t = torch()
    per_graph = per_graph or len(calls) * -(-GRAPH_CALLS // len(calls))
    s = t.cuda.Stream()
    s.wait_stream(t.cuda.current_stream())
    with t.cuda.stream(s):
        for f in calls:
            f(s)
    t.cuda.current_stream().wait_stream(s)
    t.cuda.synchronize()
    graphs = []
    for first in range(0, max(per_graph, len(calls)), per_graph):
        g = t.cuda.CUDAGraph()
        with t.cuda.graph(g, stream=s):
            for j in range(per_graph):
                calls[(first + j) % len(calls)](s)
        graphs.append(g)
    # (A replay is a batch of per_graph calls already: one replay a sample.)
    return time_cuda(graphs[0].replay, rotate=[g.replay for g in graphs], warmup=5, reps=50, batch=1) / per_graph


def arguments(description: str):
    """The command line every operator's benchmark module shares: --device and --json."""
    import argparse

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--device", default="nvidia", choices=["nvidia", "cpu"])
    parser.add_argument("--json", help="also write the rows as JSON here")
    return parser


def report(rows: List["Row"], title: str, args) -> List["Row"]:
    """Print the table and, with --json, write the rows; returns them."""
    print_table(rows, title, device=args.device)
    if args.json:
        write_json(args.json, rows, args.device)
    return rows


def write_json(path: str, rows: List["Row"], device: str) -> None:
    """The rows of one benchmark run, with the device they ran on."""
    import json

    name = device_name() if device == "nvidia" else "CPU"
    with open(path, "w") as f:
        json.dump({"device": name, "rows": [r.as_dict() for r in rows]}, f, indent=1)


def time_host(fn: Callable[[], object], *, warmup: int = 3, reps: int = 30) -> float:
    """Median wall time of one call in microseconds (CPU cases)."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e6


_roofline_cache: dict = {}


def copy_roofline_gbps(nbytes: int = 1 << 30) -> float:
    """Measured device-to-device copy bandwidth in GB/s (bytes read + written)."""
    if nbytes not in _roofline_cache:
        t = torch()
        src = t.empty(nbytes, dtype=t.uint8, device="cuda").random_(0, 255)
        dst = t.empty_like(src)
        us = time_cuda(lambda: dst.copy_(src), warmup=5, reps=30, batch=8)  # (each copy ~0.7 ms)
        _roofline_cache[nbytes] = 2 * nbytes / (us * 1e-6) / 1e9
    return _roofline_cache[nbytes]


def same_bytes_copy_us(bytes_moved: int, buffers: int = 1) -> float:
    """µs of one device-to-device copy (torch's copy_, as the roofline) that
    moves a case's bytes (half read, half written), timed as the case is: eager
    batches, over `buffers` buffer pairs in turn where the case rotates its
    buffers. The 1 GiB roofline is out of reach at smaller sizes (a launch's
    ramp and tail): on the H200 eager copies of 32 MiB run at ~83% of it
    (BENCHMARKS.md, session 33); this is each size's own ceiling."""
    key = ("same", bytes_moved, buffers)
    if key not in _roofline_cache:
        t = torch()
        n = max(bytes_moved // 2, 1)
        pairs = [(t.empty(n, dtype=t.uint8, device="cuda").random_(0, 255), t.empty(n, dtype=t.uint8, device="cuda"))
                 for _ in range(buffers)]
        calls = [lambda s=s, d=d: d.copy_(s) for s, d in pairs]
        _roofline_cache[key] = time_cuda(calls[0], rotate=calls if buffers > 1 else None)
    return _roofline_cache[key]


@dataclasses.dataclass
class Row:
    """One benchmark case: our time, PyTorch's, and the bytes that must move."""

    op: str
    case: str
    ours_us: float
    torch_us: Optional[float]
    bytes_moved: int
    roofline_gbps: float
    ok: bool = True  # correctness was checked and passed before timing
    note: str = ""
    copy_us: Optional[float] = None  # a device copy of the same bytes (same_bytes_copy_us), where measured

    @property
    def gbps(self) -> float:
        return self.bytes_moved / (self.ours_us * 1e-6) / 1e9

    @property
    def pct_roofline(self) -> float:
        return 100.0 * self.gbps / self.roofline_gbps

    @property
    def speedup(self) -> Optional[float]:
        return None if self.torch_us is None else self.torch_us / self.ours_us

    @property
    def pct_same_bytes_copy(self) -> Optional[float]:
        """Our speed as a share of a copy of the same bytes' (100: as fast as that copy)."""
        return None if self.copy_us is None else 100.0 * self.copy_us / self.ours_us

    def as_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d.update(gbps=self.gbps, pct_roofline=self.pct_roofline, speedup=self.speedup,
                 pct_same_bytes_copy=self.pct_same_bytes_copy)
        return d


@dataclasses.dataclass
class Case:
    """One benchmark case, prepared (inputs allocated) and ready to run.

    `ours` runs our operator once (on the GPU: on torch's current stream, so
    the events bracket it); `baseline` runs the reference library's
    equivalent (PyTorch on the GPU, NumPy on the CPU) on the same inputs, or
    is None; `check` runs after one `ours()` and returns True, or a string
    saying what is wrong (a wrong case is reported, never timed).
    `bytes_moved`: each input read once plus each output written once.
    `rotate`: optional equivalent calls over other buffers, for cases smaller
    than L2.
    """

    op: str
    name: str
    device: str  # "nvidia" or "cpu"
    ours: Callable[[], object]
    baseline: Optional[Callable[[], object]]
    check: Callable[[], Union[bool, str]]
    bytes_moved: int
    rotate: Optional[Sequence[Callable[[], object]]] = None
    baseline_rotate: Optional[Sequence[Callable[[], object]]] = None


def host_copy_roofline_gbps(nbytes: int = 1 << 28) -> float:
    """Measured host copy bandwidth in GB/s (bytes read + written) with every thread, for CPU cases."""
    from .cpu_roofline import copy_roofline_gbps as all_threads

    if ("host", nbytes) not in _roofline_cache:
        _roofline_cache[("host", nbytes)] = all_threads(nbytes)
    return _roofline_cache[("host", nbytes)]


def run_case(case: Case) -> Row:
    """Check, then time ours and the baseline; a wrong result is reported untimed."""
    case.ours()
    if case.device == "nvidia":
        torch().cuda.synchronize()
    verdict = case.check()
    roofline = copy_roofline_gbps() if case.device == "nvidia" else host_copy_roofline_gbps()
    if verdict is not True:
        return Row(case.op, case.name, float("nan"), None, case.bytes_moved, roofline, ok=False,
                   note=str(verdict or "check failed"))
    copy = None
    if case.device == "nvidia":
        ours = time_cuda(case.ours, rotate=case.rotate)
        base = None if case.baseline is None else time_cuda(case.baseline, rotate=case.baseline_rotate)
        copy = same_bytes_copy_us(case.bytes_moved, len(case.rotate) if case.rotate else 1)
    else:
        ours = time_host(case.ours)
        base = None if case.baseline is None else time_host(case.baseline)
    return Row(case.op, case.name, ours, base, case.bytes_moved, roofline, copy_us=copy)


def run_cases(cases: Sequence[Case], title: str = "") -> List[Row]:
    """Run every case and print the Markdown table; returns the rows."""
    rows = [run_case(c) for c in cases]
    print_table(rows, title, device=cases[0].device if cases else "nvidia")
    return rows


def markdown_table(rows: List[Row], baseline_name: str = "PyTorch") -> str:
    lines = [f"| op | case | ours (µs) | {baseline_name} (µs) | ours GB/s | % of copy roofline | "
             f"same-bytes copy (µs) | % of that copy | {baseline_name} / ours | note |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        torch_us = "—" if r.torch_us is None else f"{r.torch_us:.1f}"
        speedup = "—" if r.speedup is None else f"{r.speedup:.2f}×"
        copy_us = "—" if r.copy_us is None else f"{r.copy_us:.1f}"
        pct_copy = "—" if r.pct_same_bytes_copy is None else f"{r.pct_same_bytes_copy:.1f}%"
        status = r.note if r.ok else ("WRONG RESULT " + r.note).strip()
        lines.append(f"| {r.op} | {r.case} | {r.ours_us:.1f} | {torch_us} | {r.gbps:.0f} | "
                     f"{r.pct_roofline:.1f}% | {copy_us} | {pct_copy} | {speedup} | {status} |")
    return "\n".join(lines)


def print_table(rows: List[Row], title: str = "", device: str = "nvidia") -> None:
    print()
    if title:
        print(f"### {title}")
    if device == "nvidia":
        print(f"device: {device_name()}; measured copy roofline {copy_roofline_gbps():.0f} GB/s (read + write)")
    else:
        print(f"device: CPU; measured memcpy roofline {host_copy_roofline_gbps():.0f} GB/s (read + write)")
    print()
    print(markdown_table(rows, "PyTorch" if device == "nvidia" else "NumPy"))
