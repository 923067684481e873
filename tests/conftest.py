"""Shared test fixtures: devices, host<->device helpers, poisoning.

GPU tests carry the `gpu` mark (or run under the `device` fixture's "nvidia"
parameter) and skip only when no NVIDIA GPU is present, saying so. Set
INFINIOP_REQUIRE_GPU=1 (as the GPU machine's runs do) to turn that skip into a
failure, so that a broken CUDA set-up can never pass as "skipped".
"""
import os
import subprocess
import sys

import numpy as np
import pytest

import infiniop_py as ip
from infiniop_py._layout import contiguous_strides


def _gpu_count() -> int:
    try:
        return ip.device_count("nvidia")
    except Exception:  # pragma: no cover - a broken runtime counts as none, and says so below
        return 0


GPU_COUNT = _gpu_count()
NO_GPU_REASON = "no NVIDIA GPU on this machine (infinirtGetDeviceCount(NVIDIA) == 0)"

# Parametrize a test over both devices with `@pytest.mark.parametrize("device", DEVICES)`
# or use the `device` fixture.
DEVICES = ["cpu", pytest.param("nvidia", marks=pytest.mark.gpu)]

# The source tree, for tests that start a Python subprocess.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def subprocess_pythonpath() -> str:
    """PYTHONPATH for a subprocess: the source tree first, keeping what the environment already adds
    (the GPU machine's cffi lives there)."""
    return os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p)


def run_case_child(script: str, name: str, *args: str, limit: float, what: str) -> str:
    """tests/SCRIPT NAME ARGS in a child Python with a time limit, for cases that could wait forever
    (test_green_context.py, test_stream_priority.py): the test fails on no answer within `limit` seconds,
    a non-zero exit or no "NAME: ok" line. `what` says what the case is, in those messages. Returns the
    child's stdout."""
    try:
        r = subprocess.run([sys.executable, os.path.join(ROOT, "tests", script), name, *args], capture_output=True,
                           text=True, timeout=limit, env=dict(os.environ, PYTHONPATH=subprocess_pythonpath()))
    except subprocess.TimeoutExpired:
        pytest.fail(f"{name} ({what}) gave no answer within {limit} s")
    out = (r.stdout + r.stderr).strip()
    assert r.returncode == 0, f"{name} ({what}) failed:\n{out[-3000:]}"
    assert f"{name}: ok" in r.stdout, out[-3000:]
    return r.stdout


def pytest_unconfigure(config):
    """INFINIOP_EXIT_WATCHDOG_S=N (tools/gpu_suite.sh sets it): a run still alive N seconds after pytest is
    done (a finalizer, a library's exit path or a leftover thread that never returns) prints every thread's
    stack and exits 1, instead of sitting silent until an outer timeout kills it with its summary unflushed
    (session 48: the GPU machine's lp_norm shard printed all 999 results, then nothing, twice)."""
    seconds = int(os.environ.get("INFINIOP_EXIT_WATCHDOG_S", "0") or 0)
    if seconds > 0:
        import faulthandler
        import signal

        sys.stdout.flush()
        faulthandler.dump_traceback_later(seconds, exit=True, file=sys.__stderr__)
        # Past Python's own finalization (faulthandler is off by then: C++ static destructors, the CUDA
        # driver's exit) the watchdog is gone; SIGALRM's default action ends the process there (rc 142).
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.alarm(seconds + 30)


def pytest_collection_modifyitems(config, items):
    if GPU_COUNT > 0:
        return
    if os.environ.get("INFINIOP_REQUIRE_GPU") == "1":
        raise pytest.UsageError("INFINIOP_REQUIRE_GPU=1 but " + NO_GPU_REASON)
    skip = pytest.mark.skip(reason=NO_GPU_REASON)
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(params=DEVICES)
def device(request):
    """"cpu", then "nvidia" (skipped without a GPU)."""
    return request.param


@pytest.fixture
def rng(request):
    """A fresh generator per test; the seed is printed on failure for replay."""
    seed = int.from_bytes(os.urandom(4), "little")
    request.node.user_properties.append(("seed", seed))
    return np.random.default_rng(seed)


def to_device(array: np.ndarray, device: str):
    """A NumPy array on the CPU, a DeviceArray copy of it on NVIDIA (same strides
    are not kept: use strided_on_device for layouts)."""
    return array if device == "cpu" else ip.DeviceArray.from_numpy(array)


def to_host(array) -> np.ndarray:
    return array.to_numpy() if isinstance(array, ip.DeviceArray) else np.asarray(array)


def poisoned(shape, dtype, device: str, strides=None, pad: int = 0):
    """An output buffer filled with NaN (floats) or 0x5A bytes (integers) so that an
    unwritten element fails; with `strides`, a strided view into a larger poisoned buffer.
    Returns (array, backing) where backing is the whole buffer."""
    dtype = np.dtype(dtype)
    if strides is None:
        span = int(np.prod(shape)) if len(shape) else 1
    else:
        span = 1 + sum((n - 1) * abs(s) for n, s in zip(shape, strides) if n > 0) if all(shape) else 1
    offset = sum((n - 1) * -s for n, s in zip(shape, strides or ()) if s < 0 and n > 0)
    backing = np.empty(span + pad, dtype)
    if dtype.kind == "f" or dtype == ip.bfloat16:
        backing[...] = np.nan
    else:
        backing.view(np.uint8)[...] = 0x5A
    if device == "cpu":
        view = np.lib.stride_tricks.as_strided(
            backing[offset:], shape, [s * dtype.itemsize for s in (strides or contiguous_strides(shape))])
        return view, backing
    dev = ip.DeviceArray.from_numpy(backing)
    return dev.view(shape, strides or contiguous_strides(shape), offset), dev




def queue_dependent_chains(queue, poison, check):
    """Dependent calls queued without a sync on a new non-blocking stream, the
    way programmatic dependent launch can get them wrong: `queue(s)` three times
    eagerly, then captured into a CUDA graph replayed three times, five replays
    back to back (each one's first call after the last one's), and replay,
    eager `queue(s)`, replay. `poison(s)` before each, `check(what, s)` after
    each; s is the stream's handle as an int."""
    from infiniop_py._cuda import check_cu, driver

    drv = driver()
    stream = check_cu(drv.cuStreamCreate(drv.CUstream_flags.CU_STREAM_NON_BLOCKING), "cuStreamCreate")
    s = int(stream)
    try:
        for rep in range(3):
            poison(s)
            queue(s)
            check(f"eager, round {rep}", s)
        check_cu(drv.cuStreamBeginCapture(stream, drv.CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
                 "cuStreamBeginCapture")
        try:
            queue(s)
        finally:
            graph = check_cu(drv.cuStreamEndCapture(stream), "cuStreamEndCapture")
        exe = check_cu(drv.cuGraphInstantiate(graph, 0), "cuGraphInstantiate")
        for rep in range(3):
            poison(s)
            check_cu(drv.cuGraphLaunch(exe, stream), "cuGraphLaunch")
            check(f"graph, replay {rep}", s)
        poison(s)
        for _ in range(5):
            check_cu(drv.cuGraphLaunch(exe, stream), "cuGraphLaunch")
        check("graph, 5 replays queued", s)
        poison(s)  # eager calls right after a replay, and a replay right after eager calls
        check_cu(drv.cuGraphLaunch(exe, stream), "cuGraphLaunch")
        queue(s)
        check_cu(drv.cuGraphLaunch(exe, stream), "cuGraphLaunch")
        check("graph, eager chain, graph, queued", s)
        check_cu(drv.cuGraphExecDestroy(exe), "destroy")
        check_cu(drv.cuGraphDestroy(graph), "destroy")
    finally:
        check_cu(drv.cuStreamSynchronize(stream), "sync")
        check_cu(drv.cuStreamDestroy(stream), "destroy")
