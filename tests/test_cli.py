"""The command line: `info` and `demo` work on any machine (CPU at least)."""
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, subprocess_pythonpath


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=subprocess_pythonpath())
    return subprocess.run([sys.executable, "-m", "infiniop_py", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=300)


def test_info_reports_library_build_devices_versions():
    r = _cli("info", "--json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["library"].endswith("libinfiniop.so")
    assert isinstance(report["build"]["nvidia"], bool)
    assert report["devices"]["cpu"] == 1
    assert set(report["versions"]) >= {"numpy", "cffi", "cuda-core", "cuda-bindings", "ml-dtypes"}
    text = _cli("info")
    assert text.returncode == 0 and "library" in text.stdout and "devices" in text.stdout


def test_errors_are_one_line_without_debug():
    r = _cli("info", "--bogus")
    assert r.returncode != 0
    env = dict(os.environ, PYTHONPATH=subprocess_pythonpath(), INFINIOP_LIBRARY="/nonexistent/libinfiniop.so")
    r = subprocess.run([sys.executable, "-m", "infiniop_py", "info"], capture_output=True, text=True, env=env,
                       cwd=ROOT)
    assert r.returncode != 0
    assert "Traceback" not in r.stderr
    assert "INFINIOP_LIBRARY" in r.stderr


def test_demo_runs_all_four_operators_on_the_cpu():
    r = _cli("demo", "--device", "cpu")
    assert r.returncode == 0, r.stdout + r.stderr
    for op in ("rearrange", "mul", "lp_norm", "random_sample"):
        assert op in r.stdout
    assert "all results match NumPy" in r.stdout
    assert "WRONG" not in r.stdout and "not implemented" not in r.stdout


def test_bench_on_the_cpu_writes_json(tmp_path):
    out = tmp_path / "bench.json"
    r = _cli("bench", "--device", "cpu", "--op", "mul", "--op", "random_sample", "--json", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "| mul |" in r.stdout and "NumPy" in r.stdout
    report = json.loads(out.read_text())
    assert report["device_kind"] == "cpu" and report["roofline_gbps"] > 0
    ops = {row["op"] for row in report["rows"]}
    assert ops == {"mul", "random_sample"}
    for row in report["rows"]:
        assert row["ok"] is True
        assert row["ours_us"] > 0 and row["torch_us"] > 0 and row["bytes_moved"] > 0
        assert set(row) >= {"case", "gbps", "pct_roofline", "speedup", "note", "copy_us", "pct_same_bytes_copy"}
        assert row["copy_us"] is None and row["pct_same_bytes_copy"] is None  # measured on the GPU only


def test_bench_row_against_a_copy_of_its_bytes():
    """The GPU rows' same-bytes copy column: our time as a share of that copy's, '—' where not measured."""
    from infiniop_py.bench import harness

    row = harness.Row("mul", "case", 20.0, 30.0, 1 << 20, 1000.0, copy_us=15.0)
    assert row.pct_same_bytes_copy == pytest.approx(75.0)
    assert row.as_dict()["pct_same_bytes_copy"] == pytest.approx(75.0)
    bare = harness.Row("mul", "case", 20.0, None, 1 << 20, 1000.0)
    table = harness.markdown_table([row, bare])
    lines = table.splitlines()
    assert "same-bytes copy (µs)" in lines[0] and "% of that copy" in lines[0]
    assert "| 15.0 | 75.0% |" in lines[2]
    assert "| — | — |" in lines[3]
