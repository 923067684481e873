"""The command line: `info` and `demo` work on any machine (CPU at least)."""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _pythonpath() -> str:
    """The source tree first, keeping what the environment already adds (cffi on the GPU machine)."""
    return os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p)


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=_pythonpath())
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
    env = dict(os.environ, PYTHONPATH=_pythonpath(), INFINIOP_LIBRARY="/nonexistent/libinfiniop.so")
    r = subprocess.run([sys.executable, "-m", "infiniop_py", "info"], capture_output=True, text=True, env=env,
                       cwd=ROOT)
    assert r.returncode != 0
    assert "Traceback" not in r.stderr
    assert "INFINIOP_LIBRARY" in r.stderr
