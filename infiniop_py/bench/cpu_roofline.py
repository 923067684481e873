"""The CPU's memory-bandwidth roofline, measured with every thread the process may use.

Two copies of one large buffer, the faster one counts (bytes read + written
over wall time, median of several runs):
- one `np.copyto` per thread over its own slice (NumPy releases the GIL while
  it copies), all started together;
- the library's contiguous Rearrange (every thread, non-temporal stores:
  no read-for-ownership of the destination, which NumPy's copy pays).
A single-threaded `np.copyto` underestimates what a multi-threaded kernel can
move, so the benchmark tables' percentages would exceed 100%.

    python -m infiniop_py.bench.cpu_roofline [--mib 256] [--threads N]
"""
from __future__ import annotations

import argparse
import os
import statistics
import threading
import time
from typing import Optional


def usable_threads() -> int:
    """Cores this process may run on (its affinity mask), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def copy_roofline_gbps(nbytes: int = 1 << 28, threads: Optional[int] = None, reps: int = 10) -> float:
    """The CPU's copy roofline in GB/s (bytes read + written): the faster of the two copies above."""
    return max(numpy_copy_gbps(nbytes, threads, reps), library_copy_gbps(nbytes, reps))


def library_copy_gbps(nbytes: int = 1 << 28, reps: int = 10) -> float:
    """The library's contiguous CPU Rearrange of `nbytes` bytes, in GB/s (read + write)."""
    import numpy as np

    import infiniop_py as ip

    src = np.random.default_rng(0).integers(0, 255, nbytes, dtype=np.uint8)
    dst = np.empty_like(src)
    desc = ip.Rearrange(ip.ops._base.default_handle("cpu", 0), dst, src)
    ptrs = (dst.ctypes.data, src.ctypes.data)
    samples = []
    for i in range(reps + 2):  # two warm-ups
        t0 = time.perf_counter()
        desc(*ptrs)
        if i >= 2:
            samples.append(time.perf_counter() - t0)
    return 2 * nbytes / statistics.median(samples) / 1e9


def numpy_copy_gbps(nbytes: int = 1 << 28, threads: Optional[int] = None, reps: int = 10) -> float:
    """`np.copyto` on `threads` threads (default: all) over slices of `nbytes` bytes, in GB/s (read + write)."""
    import numpy as np

    threads = threads or usable_threads()
    src = np.random.default_rng(0).integers(0, 255, nbytes, dtype=np.uint8)
    dst = np.empty_like(src)
    bounds = [nbytes * k // threads for k in range(threads + 1)]
    slices = [(dst[a:b], src[a:b]) for a, b in zip(bounds, bounds[1:])]

    start = threading.Barrier(threads + 1)
    done = threading.Barrier(threads + 1)
    stop = False

    def worker(d, s):
        while True:
            start.wait()
            if stop:
                return
            np.copyto(d, s)
            done.wait()

    pool = [threading.Thread(target=worker, args=pair, daemon=True) for pair in slices]
    for t in pool:
        t.start()
    samples = []
    try:
        for i in range(reps + 2):  # two warm-ups (page faults, caches)
            t0 = time.perf_counter()
            start.wait()
            done.wait()
            if i >= 2:
                samples.append(time.perf_counter() - t0)
    finally:
        stop = True
        start.wait()
        for t in pool:
            t.join()
    return 2 * nbytes / statistics.median(samples) / 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=256, help="buffer size in MiB (default 256)")
    parser.add_argument("--threads", type=int, default=None, help="default: every usable core")
    args = parser.parse_args()
    n = args.threads or usable_threads()
    one = numpy_copy_gbps(args.mib << 20, threads=1)
    every = numpy_copy_gbps(args.mib << 20, threads=n)
    lib = library_copy_gbps(args.mib << 20)
    print(f"copy (read + write): np.copyto 1 thread {one:.1f} GB/s, {n} threads {every:.1f} GB/s; "
          f"library Rearrange {lib:.1f} GB/s; roofline {max(every, lib):.1f} GB/s")


if __name__ == "__main__":
    main()
