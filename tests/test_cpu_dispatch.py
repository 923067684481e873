"""The CPU backend's vector paths (issue 14): every path gives the same bits.

The library picks its vector path once per process (AVX-512, AVX2 + F16C, or
the portable baseline); INFINIOP_CPU_VECTOR=avx512|avx2|baseline lowers it,
read at the first call. Each path runs here in its own subprocess on the same
adversarial inputs (odd lengths, tails, NaN, ±inf, ties, subnormal products,
a copy large enough to stream), and the results must agree bit for bit, and
with float64 references where the rule is exact.
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import infiniop_py as ip
from infiniop_py import _ffi

from conftest import ROOT, subprocess_pythonpath


PATHS = ["baseline", "avx2", "avx512"]

# Runs in a subprocess: computes every case and saves the results.
SCRIPT = r"""
import sys
import numpy as np
import infiniop_py as ip
from infiniop_py import _ffi

out = {"path": _ffi.ffi.string(_ffi.lib.infiniopGetCpuVectorPath()).decode()}
rng = np.random.default_rng(7)

def bits(a):
    a = np.ascontiguousarray(a)
    return a.view(f"u{a.dtype.itemsize}")

# Mul: F16 / BF16 / F32 with tails, and BF16 products below F32's normal range.
for name, dt in (("f16", np.float16), ("bf16", ip.bfloat16), ("f32", np.float32)):
    a = (rng.standard_normal(1000 + 13) * 4).astype(dt)
    b = (rng.standard_normal(1000 + 13) * 4).astype(dt)
    a[:4] = [np.inf, -np.inf, np.nan, 0]
    out[f"mul_{name}"] = bits(ip.mul(a, b))
# Products around 2^-134 (half BF16's smallest subnormal), where F32 rounds.
tiny = (rng.uniform(1, 2, 4099) * 2.0 ** rng.integers(-80, -60, 4099)).astype(ip.bfloat16)
e = np.floor(np.log2(np.abs(tiny.astype(np.float64))))
tiny2 = (rng.uniform(1, 2, 4099) * rng.choice([-1, 1], 4099) * 2.0 ** (-134 - e - rng.integers(0, 4, 4099)))
tiny2 = tiny2.astype(ip.bfloat16)
out["mul_bf16_tiny_a"] = bits(tiny)
out["mul_bf16_tiny_b"] = bits(tiny2)
out["mul_bf16_tiny"] = bits(ip.mul(tiny, tiny2))

# LPNorm: rows and columns, p = 1 and 2, with NaN / inf rows and odd widths.
for name, dt in (("f16", np.float16), ("bf16", ip.bfloat16), ("f32", np.float32)):
    x = (rng.standard_normal((37, 203)) * 3).astype(dt)
    x[3, 7] = np.nan
    x[5, 11] = np.inf
    x[9, :] = 0
    for p in (1, 2):
        for axis in (1, 0):
            out[f"lp_{name}_p{p}_ax{axis}"] = bits(ip.lp_norm(x, axis=axis, p=p))

# Argmax: ties (first index wins), NaN, -inf, -0 / +0, long and short rows.
for name, dt in (("f16", np.float16), ("bf16", ip.bfloat16), ("f32", np.float32)):
    for n in (5, 64, 1000, 151936):
        x = rng.standard_normal(n).astype(dt)
        picks = rng.choice(n, size=min(n, 3), replace=False)
        x[picks] = np.float32(7)
        if n > 100:
            x[rng.choice(n, 20, replace=False)] = np.nan
        out[f"argmax_{name}_{n}"] = ip.random_sample(x, 0.0, 0.9, 1, 1.0)
        out[f"argmax_{name}_{n}_want"] = int(picks.min())  # the first of the tied maxima
    # The maximum in the tail past the last whole block of lanes, at a block's
    # first / last element, and a row of NaN only (index 0).
    for n, where in ((64 * 7 + 5, [64 * 7 + 3]), (64 * 9, [64 * 4, 64 * 8 - 1]), (64 * 9, [64 * 9 - 1])):
        x = rng.standard_normal(n).astype(dt)
        x[where] = np.float32(9)
        out[f"argmax_{name}_at_{n}_{where[0]}"] = [ip.random_sample(x, 0.0, 0.9, 1, 1.0), min(where)]
    out[f"argmax_{name}_all_nan"] = ip.random_sample(np.full(1000, np.nan, dt), 0.0, 0.9, 1, 1.0)
    x = np.full(300, np.nan, dt)
    x[250] = -np.inf
    x[260] = -np.inf
    out[f"argmax_{name}_nan_neginf"] = ip.random_sample(x, 0.0, 0.9, 1, 1.0)
    x = np.zeros(300, dt)
    x[:150] = -0.0
    out[f"argmax_{name}_zeros"] = ip.random_sample(x, 0.0, 0.9, 1, 1.0)

# Sampling (vector weights, candidate groups, chunks past the first candidates).
for name, dt in (("f16", np.float16), ("bf16", ip.bfloat16), ("f32", np.float32), ("f64", np.float64)):
    for n in (5000, 151936):
        x = (rng.standard_normal(n) * 3).astype(dt)
        x[rng.choice(n, 30, replace=False)] = np.nan
        out[f"sample_{name}_{n}"] = [ip.random_sample(x, r, p, k, t) for r, p, k, t in
                                     ((0.5, 0.9, 50, 0.8), (0.7, 0.95, 0, 1.0), (0.3, 1.0, 3000, 40.0),
                                      (0.99, 0.999, 0, 100.0))]

# Rearrange: transposes of 2 / 4 / 8-byte elements with ragged edges, a
# non-contiguous destination, and a contiguous copy above the streaming size.
for dt in (np.uint16, np.uint32, np.uint64):
    for shape in ((67, 45), (256, 128), (3, 129, 70)):
        src = rng.integers(0, 2**16, shape).astype(dt)
        dst = np.empty(src.shape[::-1], dt).T
        ip.rearrange(src, out=dst)
        out[f"tr_{np.dtype(dt).name}_{'x'.join(map(str, shape))}"] = bits(dst)
big = rng.integers(0, 255, (17 << 20) + 3, dtype=np.uint8)
dst = np.empty_like(big)
ip.rearrange(big[:-1], out=dst[1:])
out["copy_big_ok"] = bool(np.array_equal(dst[1:], big[:-1]))
# Transposes above the streaming size into a destination one element off a cache line.
# (dst rows whole cache lines; the lengths otherwise odd, for the borders)
for dt, shape in ((np.uint16, (2912, 3001)), (np.uint32, (2064, 2061)), (np.uint64, (1448, 1451))):
    src = rng.integers(0, 2**16, shape).astype(dt)
    dst = np.empty(src.size + 1, dt)[1:].reshape(shape[::-1])
    ip.rearrange(src.T, out=dst)
    out[f"tr_big_ok_{np.dtype(dt).name}"] = bool(np.array_equal(dst, src.T))
np.savez(sys.argv[1], **{k: np.asarray(v) for k, v in out.items()})
"""


def _run_path(path: str, tmp_path) -> dict:
    env = dict(os.environ, INFINIOP_CPU_VECTOR=path, PYTHONPATH=subprocess_pythonpath())
    target = tmp_path / f"{path}.npz"
    subprocess.run([sys.executable, "-c", SCRIPT, str(target)], env=env, check=True, cwd=ROOT, timeout=300)
    with np.load(target) as z:
        return {k: z[k] for k in z.files}


def _best_path() -> str:
    return _ffi.ffi.string(_ffi.lib.infiniopGetCpuVectorPath()).decode()


def _order(path: str) -> int:
    return PATHS.index(path)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cpu_paths")
    return {p: _run_path(p, tmp) for p in PATHS}


def test_path_reported_and_clamped(results):
    best = _best_path()
    assert best in PATHS
    if "INFINIOP_CPU_VECTOR" not in os.environ:
        for asked in PATHS:  # lowered on request, never raised above what the CPU has
            want = asked if _order(asked) <= _order(best) else best
            assert str(results[asked]["path"]) == want


def test_unknown_request_keeps_best():
    env = dict(os.environ, INFINIOP_CPU_VECTOR="sse9", PYTHONPATH=subprocess_pythonpath())
    env.pop("INFINIOP_CPU_VECTOR_UNUSED", None)
    code = ("from infiniop_py import _ffi; "
            "print(_ffi.ffi.string(_ffi.lib.infiniopGetCpuVectorPath()).decode())")
    got = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True,
                         cwd=ROOT).stdout.strip()
    clean = dict(os.environ, PYTHONPATH=subprocess_pythonpath())
    clean.pop("INFINIOP_CPU_VECTOR", None)
    best = subprocess.run([sys.executable, "-c", code], env=clean, check=True, capture_output=True, text=True,
                          cwd=ROOT).stdout.strip()
    assert got == best


def test_info_names_the_path():
    out = subprocess.run([sys.executable, "-m", "infiniop_py", "info"], env=dict(os.environ, PYTHONPATH=subprocess_pythonpath()),
                         check=True, capture_output=True, text=True, cwd=ROOT).stdout
    assert "vector path: " in out
    assert any(f"vector path: {p}" in out for p in PATHS)


def _as_float(key: str, raw: np.ndarray) -> np.ndarray:
    dt = {"f16": np.float16, "bf16": ip.bfloat16, "f32": np.float32}[key.split("_")[1]]
    return raw.view(dt).astype(np.float64)


def test_paths_agree_bitwise(results):
    """Bit for bit, except LPNorm: its sums run over as many lanes as the path has
    (and contract into FMA where it has one), so the last bit may differ."""
    base = results["baseline"]
    for path in ("avx2", "avx512"):
        for key, value in base.items():
            if key == "path":
                continue
            if key.startswith("lp_"):
                rtol = 1e-2 if "f16" in key else 1e-5  # BF16 keeps 8 bits, F16 11, F32 24: <= 1 ulp apart
                np.testing.assert_allclose(_as_float(key, results[path][key]), _as_float(key, value), rtol=rtol,
                                           atol=0, equal_nan=True, err_msg=f"{key}: {path} vs baseline")
                continue
            np.testing.assert_array_equal(results[path][key], value, err_msg=f"{key}: {path} vs baseline")


def test_streamed_copy_is_exact(results):
    for path in PATHS:
        assert bool(results[path]["copy_big_ok"]), path
        for dt in ("uint16", "uint32", "uint64"):
            assert bool(results[path][f"tr_big_ok_{dt}"]), (path, dt)


def _bf16_round_once(v: np.ndarray) -> np.ndarray:
    """float64 -> nearest-even BF16 value (as float64), rounded once, with BF16's subnormals."""
    out = np.zeros_like(v)
    nz = v != 0
    e = np.floor(np.log2(np.abs(v[nz])))
    q = np.exp2(np.maximum(e, -126) - 7)
    out[nz] = np.round(v[nz] / q) * q  # np.round: half to even; v / q is exact
    return out


def test_bf16_subnormal_products_round_once(results):
    """BF16 products rounded once from the exact product, with BF16's subnormals."""
    for path in PATHS:
        r = results[path]
        a = r["mul_bf16_tiny_a"].view(ip.bfloat16).astype(np.float64)
        b = r["mul_bf16_tiny_b"].view(ip.bfloat16).astype(np.float64)
        want = _bf16_round_once(a * b)
        assert np.count_nonzero(want) > 100  # the case is not all zeros
        got = r["mul_bf16_tiny"].view(ip.bfloat16).astype(np.float64)
        np.testing.assert_array_equal(got, want, err_msg=path)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(a * b), err_msg=path)


def test_argmax_rules(results):
    for path in PATHS:
        r = results[path]
        for name in ("f16", "bf16", "f32"):
            assert int(r[f"argmax_{name}_nan_neginf"]) == 250, (path, name)
            assert int(r[f"argmax_{name}_zeros"]) == 0, (path, name)
            assert int(r[f"argmax_{name}_all_nan"]) == 0, (path, name)
            for key, value in r.items():
                if key.startswith(f"argmax_{name}_") and key.endswith("_want"):
                    assert int(r[key[:-len("_want")]]) == value, (path, key)
                elif key.startswith(f"argmax_{name}_at_"):
                    assert int(value[0]) == value[1], (path, key)


def test_large_bench_shapes_match_numpy():
    """The benchmark's shapes in this process's path, against NumPy (tails and tiles at scale)."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((8, 64, 4096)).astype(np.float16)
    got = ip.lp_norm(x, axis=1, p=1).astype(np.float64)
    x64 = x.astype(np.float64)
    ref = x64 / np.maximum(np.abs(x64).sum(axis=1, keepdims=True), 1e-12)
    np.testing.assert_allclose(got, ref, rtol=2e-3, atol=1e-5)
    x = rng.standard_normal((1024, 4096)).astype(np.float32)  # 16 MiB out: stored past the caches
    x64 = x.astype(np.float64)
    for axis in (1, 0):
        ref = x64 / np.sqrt((x64 * x64).sum(axis=axis, keepdims=True))
        np.testing.assert_allclose(ip.lp_norm(x, axis=axis, p=2), ref, rtol=1e-5, atol=1e-7)
    src = rng.integers(0, 2**31, (2048, 2048)).astype(np.uint32)
    dst = np.empty_like(src)
    ip.rearrange(src.T, out=dst)
    np.testing.assert_array_equal(dst, src.T)


FORK_SCRIPT = r"""
import multiprocessing as mp
import numpy as np
import infiniop_py as ip

x = np.random.default_rng(0).standard_normal((512, 4096)).astype(np.float32)
ip.lp_norm(x, axis=1)  # the worker threads exist in the parent before it forks

def child(_):
    y = ip.lp_norm(x, axis=1)
    x64 = x.astype(np.float64)
    return bool(np.allclose(y, x64 / np.sqrt((x64 * x64).sum(1, keepdims=True)), rtol=1e-5))

with mp.get_context("fork").Pool(2) as pool:
    assert all(pool.map(child, range(4)))
print("ok")
"""


def test_forked_child_runs_parallel_calls():
    """A child forked after the pool started has no workers: its calls run on its own thread, no hang."""
    out = subprocess.run([sys.executable, "-c", FORK_SCRIPT], env=dict(os.environ, PYTHONPATH=subprocess_pythonpath()),
                         check=True, capture_output=True, text=True, cwd=ROOT, timeout=120).stdout
    assert out.strip() == "ok"
