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
