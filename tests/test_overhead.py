"""Issue 11: the host-cost suite runs (CI, on the CPU) and checks every call's
result; its times are printed, never asserted. Also the package's version."""
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import infiniop_py as ip
from infiniop_py.ops._calculate import CALCULATE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_overhead_suite_runs_and_checks_every_call(tmp_path):
    out = tmp_path / "overhead.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p))
    r = subprocess.run([sys.executable, "-m", "infiniop_py", "bench", "--suite", "overhead", "--device", "cpu",
                        "--quick", "--json", str(out)], capture_output=True, text=True, env=env, cwd=ROOT,
                       timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "raw C call" in r.stdout and "NumPy" in r.stdout
    rows = json.loads(out.read_text())["rows"]
    assert {row["op"] for row in rows} == {"mul", "rearrange", "lp_norm", "random_sample"}
    for row in rows:
        assert row["ok"] is True, row
        assert row["ours_us"] > 0 and row["raw_us"] > 0 and row["base_us"] > 0


def test_version_matches_pyproject():
    text = open(os.path.join(ROOT, "pyproject.toml")).read()
    assert re.search(r'^version = "([^"]+)"', text, re.M).group(1) == ip.__version__


def test_every_descriptor_call_comes_from_the_table():
    for name in CALCULATE:
        cls = getattr(ip, name)
        assert cls._calculate_row is CALCULATE[name]
        assert cls.__call__.__doc__  # each keeps its own docstring


def test_batch_parameters_as_arrays_are_passed_without_a_copy():
    from infiniop_py.ops._calculate import param_array

    rv = np.array([0.1, 0.2], np.float32)
    assert param_array(rv, np.dtype(np.float32), 2) is rv
    filled = param_array(0.5, np.dtype(np.float32), 3)
    assert filled.tolist() == [0.5] * 3 and param_array(0.5, np.dtype(np.float32), 3) is filled
    assert param_array([1, 2], np.dtype(np.int32), 2).dtype == np.int32


def test_failed_batch_call_names_its_values_as_before():
    h = ip.Handle("cpu")
    rsb = ip.RandomSampleBatch(h, ip.TensorDescriptor((2,), None, np.int64), ip.TensorDescriptor((2, 8), None,
                                                                                               np.float32))
    out, x = np.empty(2, np.int64), np.random.default_rng(0).standard_normal((2, 8)).astype(np.float32)
    with pytest.raises(ip.BadParam, match=re.escape("random_val=[1.5, 0.5], topp=[0.8999999761581421, "
                                                    "0.8999999761581421], topk=[5, 5], temperature=[1.0, 1.0], "
                                                    "batch_size=2")):
        rsb(out, x, [1.5, 0.5], 0.9, 5, 1.0)
    with pytest.raises(ip.BadParam, match=r"; called with random_val=1\.5, topp=0\.9, topk=5, temperature=1\.0$"):
        ip.RandomSample(h, ip.TensorDescriptor((), None, np.int64),
                        ip.TensorDescriptor((8,), None, np.float32))(np.empty((), np.int64), x[0], 1.5, 0.9, 5, 1.0)


def test_functional_calls_take_fortran_and_strided_numpy_arrays():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((6, 4)).astype(np.float32)
    for view in (a.T, a[::2], a[:, ::-1]):
        out = np.full(view.shape, np.nan, np.float32)
        ip.mul(view, view, out=out)
        assert np.array_equal(out, view * view)
        got = ip.rearrange(view)
        assert np.array_equal(got, view)


def test_the_cache_follows_a_layout_changed_in_place():
    a = np.arange(16, dtype=np.float32).reshape(4, 4)
    out = np.empty((4, 4), np.float32)
    ip.mul(a, a, out=out)
    a.shape, out.shape = (16,), (16,)  # same objects, new layouts: a new descriptor
    ip.mul(a, a, out=out)
    assert np.array_equal(out, np.arange(16, dtype=np.float32) ** 2)


def test_functional_output_must_be_writable():
    a = np.ones(4, np.float32)
    ro = np.empty(4, np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        ip.mul(a, a, out=ro)
    with pytest.raises(ValueError, match="read-only"):
        ip.Mul(ip.Handle("cpu"), *[ip.TensorDescriptor((4,), None, np.float32)] * 3)(ro, a, a)


def test_rearrange_descriptor_checks_every_new_layout():
    src = np.arange(12, dtype=np.float32).reshape(3, 4)
    dst = np.empty((3, 4), np.float32)
    op = ip.Rearrange(ip.Handle("cpu"), dst, src)
    op(dst, src)
    op(dst, src)  # an accepted layout: no second check
    with pytest.raises(ValueError, match="descriptor was made for"):
        op(dst, src.reshape(4, 3))
    with pytest.raises(ValueError, match="descriptor was made for"):
        op(dst, src.astype(np.float64))
    assert np.array_equal(dst, src)


def test_functional_calls_from_threads_agree():
    import concurrent.futures

    rng = np.random.default_rng(2)
    arrays = [rng.standard_normal((8, 8)).astype(np.float32) for _ in range(8)]

    def work(x):
        for _ in range(50):
            out = ip.mul(x, x)
            y = ip.lp_norm(x)
        return np.array_equal(out, x * x) and np.allclose(y, x / np.linalg.norm(x, axis=-1, keepdims=True),
                                                          rtol=1e-5, atol=1e-6)

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        assert all(pool.map(work, arrays))
