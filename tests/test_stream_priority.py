"""LPNorm's Hold plan must not wait forever when work that needs many SMs at once comes on a stream of
higher priority while its grid is only partly resident (session 32: a plain launch did, behind another Hold
grid, the cooperative Grid plan and Pipe's clusters; Hold's launches are cooperative since). Each scenario
(tests/priority_cases.py) runs in a child process with a time limit, so a hang fails the test instead of
the run.
"""
import os
import subprocess
import sys

import pytest

from priority_cases import SCENARIOS

pytestmark = pytest.mark.gpu

HERE = os.path.dirname(os.path.abspath(__file__))
LIMIT_S = 60  # the hog holds its SM for 0.3 s; a first call loads the kernels lazily; a hang is far longer


@pytest.mark.parametrize("scenario", ["alone", "prio", "grid", "pipe", "team"])
def test_hold_beside_higher_priority_work(scenario):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (os.path.dirname(HERE), env.get("PYTHONPATH")) if p)
    try:
        r = subprocess.run([sys.executable, os.path.join(HERE, "priority_cases.py"), scenario],
                           capture_output=True, text=True, timeout=LIMIT_S, env=env)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{scenario} ({SCENARIOS[scenario]}) gave no answer within {LIMIT_S} s: the grids wait "
                    "for each other")
    out = (r.stdout + r.stderr).strip()
    assert r.returncode == 0, f"{scenario} failed:\n{out[-3000:]}"
    assert f"{scenario}: ok" in r.stdout, out[-3000:]
