"""The demo behind `python -m infiniop_py demo` (and `make run`): each operator
once on the chosen device, checked against NumPy in float64, with timings."""
from __future__ import annotations

import time

import numpy as np

import infiniop_py as ip


def _on(device: str, array: np.ndarray):
    return array if device == "cpu" else ip.DeviceArray.from_numpy(array)


def _host(array) -> np.ndarray:
    return array.to_numpy() if isinstance(array, ip.DeviceArray) else np.asarray(array)


def _timed(fn, device: str):
    fn()  # first call creates and caches the descriptor
    if device == "nvidia":
        ip.synchronize("nvidia")
    start = time.perf_counter()
    reps = 20
    for _ in range(reps):
        out = fn()
    if device == "nvidia":
        ip.synchronize("nvidia")
    return out, (time.perf_counter() - start) / reps * 1e6


def _case_rearrange(device, rng):
    x = rng.standard_normal((512, 384)).astype(np.float32)
    src = _on(device, x)
    src_t = src.T if device == "cpu" else src.view((384, 512), (1, 384))
    out, us = _timed(lambda: ip.rearrange(src_t), device)
    err = float(np.max(np.abs(_host(out) - x.T)))
    return "rearrange", "transpose 512x384 F32", us, err, err == 0.0


def _case_mul(device, rng):
    a = rng.standard_normal((1024, 1024)).astype(np.float16)
    b = rng.standard_normal((1, 1024)).astype(np.float16)
    _a, _b = _on(device, a), _on(device, b)
    out, us = _timed(lambda: ip.mul(_a, _b), device)
    ref = a.astype(np.float64) * b.astype(np.float64)
    err = float(np.max(np.abs(_host(out).astype(np.float64) - ref) / (np.abs(ref) + 1e-3)))
    return "mul", "1024x1024 * 1x1024 F16 (broadcast)", us, err, err < 2e-3


def _case_lp_norm(device, rng):
    x = rng.standard_normal((256, 4096)).astype(np.float32)
    dx = _on(device, x)
    out, us = _timed(lambda: ip.lp_norm(dx, axis=-1, p=2), device)
    ref = x / np.maximum(np.linalg.norm(x.astype(np.float64), axis=-1, keepdims=True), 1e-12)
    err = float(np.max(np.abs(_host(out) - ref)))
    return "lp_norm", "256x4096 F32, axis -1, p 2", us, err, err < 1e-5


def _case_random_sample(device, rng):
    logits = rng.standard_normal(32000).astype(np.float32)
    d = _on(device, logits)
    out, us = _timed(lambda: ip.random_sample(d, 0.0, 0.9, 50, 0.8), device)
    expected = int(np.argmax(logits))
    return "random_sample", "argmax of 32000 logits F32", us, float(out != expected), out == expected


def run(device: str) -> int:
    rng = np.random.default_rng()
    name = device
    if device == "nvidia":
        from cuda.core import Device

        name = f"nvidia:0 ({Device(0).name})"
    print(f"infiniop-py demo on {name}; library {ip.library_path}")
    print()
    print(f"{'operator':<15}{'case':<40}{'time/call':>12}{'max error':>12}  check")
    failures = 0
    for case in (_case_rearrange, _case_mul, _case_lp_norm, _case_random_sample):
        try:
            op, what, us, err, ok = case(device, rng)
        except NotImplementedError as exc:
            print(f"{case.__name__[6:]:<15}{'-':<40}{'-':>12}{'-':>12}  not implemented ({exc})")
            failures += 1
            continue
        failures += not ok
        print(f"{op:<15}{what:<40}{us:>10.1f}µs{err:>12.2e}  {'ok' if ok else 'WRONG'}")
    print()
    print("all results match NumPy" if failures == 0 else f"{failures} operator(s) failed")
    return 0 if failures == 0 else 1
