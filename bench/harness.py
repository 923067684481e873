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
from typing import Callable, List, Optional, Sequence


def torch():
    """torch, imported on first use (the benchmarks need it; the library does not)."""
    import torch as _torch

    return _torch


def device_name() -> str:
    return torch().cuda.get_device_name()


def time_cuda(fn: Callable[[], object], *, warmup: int = 10, reps: int = 100,
              rotate: Optional[Sequence[Callable[[], object]]] = None) -> float:
    """Median time of one call in microseconds, timed with CUDA events.

    `rotate`: several equivalent calls over different buffers, used in turn so
    that a case smaller than L2 is not timed out of the cache.
    """
    t = torch()
    calls = list(rotate) if rotate else [fn]
    for i in range(warmup):
        calls[i % len(calls)]()
    t.cuda.synchronize()
    starts = [t.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [t.cuda.Event(enable_timing=True) for _ in range(reps)]
    for i in range(reps):
        starts[i].record()
        calls[i % len(calls)]()
        ends[i].record()
    t.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in zip(starts, ends)) * 1e3


_roofline_cache: dict = {}


def copy_roofline_gbps(nbytes: int = 1 << 30) -> float:
    """Measured device-to-device copy bandwidth in GB/s (bytes read + written)."""
    if nbytes not in _roofline_cache:
        t = torch()
        src = t.empty(nbytes, dtype=t.uint8, device="cuda").random_(0, 255)
        dst = t.empty_like(src)
        us = time_cuda(lambda: dst.copy_(src), warmup=5, reps=30)
        _roofline_cache[nbytes] = 2 * nbytes / (us * 1e-6) / 1e9
    return _roofline_cache[nbytes]


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

    @property
    def gbps(self) -> float:
        return self.bytes_moved / (self.ours_us * 1e-6) / 1e9

    @property
    def pct_roofline(self) -> float:
        return 100.0 * self.gbps / self.roofline_gbps

    @property
    def speedup(self) -> Optional[float]:
        return None if self.torch_us is None else self.torch_us / self.ours_us

    def as_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d.update(gbps=self.gbps, pct_roofline=self.pct_roofline, speedup=self.speedup)
        return d


def markdown_table(rows: List[Row]) -> str:
    lines = ["| op | case | ours (µs) | PyTorch (µs) | ours GB/s | % of copy roofline | PyTorch / ours | note |",
             "|---|---|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        torch_us = "—" if r.torch_us is None else f"{r.torch_us:.1f}"
        speedup = "—" if r.speedup is None else f"{r.speedup:.2f}×"
        status = r.note if r.ok else ("WRONG RESULT " + r.note).strip()
        lines.append(f"| {r.op} | {r.case} | {r.ours_us:.1f} | {torch_us} | {r.gbps:.0f} | "
                     f"{r.pct_roofline:.0f}% | {speedup} | {status} |")
    return "\n".join(lines)


def print_table(rows: List[Row], title: str = "") -> None:
    print()
    if title:
        print(f"### {title}")
    print(f"device: {device_name()}; measured copy roofline {copy_roofline_gbps():.0f} GB/s (read + write)")
    print()
    print(markdown_table(rows))
