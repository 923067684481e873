"""LPNorm's Hold plan must not wait forever when work that needs many SMs at once comes on a stream of
higher priority while its grid is only partly resident (session 32: a plain launch did, behind another Hold
grid, the cooperative Grid plan and Pipe's clusters; Hold's launches are cooperative since). Each scenario
(tests/priority_cases.py) runs in a child process with a time limit, so a hang fails the test instead of
the run.
"""
import pytest

from conftest import run_case_child
from priority_cases import SCENARIOS

pytestmark = pytest.mark.gpu

LIMIT_S = 60  # the hog holds its SM for 0.3 s; a first call loads the kernels lazily; a hang is far longer


@pytest.mark.parametrize("scenario", ["alone", "prio", "grid", "pipe", "team"])
def test_hold_beside_higher_priority_work(scenario):
    run_case_child("priority_cases.py", scenario, limit=LIMIT_S,
                   what=f"{SCENARIOS[scenario]}; no answer: the grids wait for each other")
