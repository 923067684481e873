"""Every operator on a stream of a CUDA green context with fewer SMs than the device (16 of the H100's
132), where the plans sized for the whole device (LPNorm's Hold, Grid and cluster plans, RandomSample's
teams) must give way to portable ones: before session 31 Grid, Pipe and RandomSample's teams failed there
with INTERNAL_ERROR, and Hold could wait forever on blocks that never got an SM. Each case runs in a
child process (tests/green_context_cases.py) with a time limit, so a hang fails the test instead of the run.
"""
import pytest

from conftest import run_case_child
from green_context_cases import CASES

pytestmark = pytest.mark.gpu

LIMIT_S = 120  # a first call loads the kernels lazily; a hang is far longer


def _green_contexts_or_skip():
    from cuda.bindings import driver as cu

    err, version = cu.cuDriverGetVersion()
    if err != cu.CUresult.CUDA_SUCCESS or version < 12040:
        pytest.skip(f"green contexts need a CUDA 12.4+ driver (this one: {version})")


def _run(name: str, *extra: str) -> str:
    _green_contexts_or_skip()
    return run_case_child("green_context_cases.py", name, *extra, limit=LIMIT_S,
                          what=f"{CASES[name][3]}, on a green context's stream")


@pytest.mark.parametrize("name", sorted(CASES))
def test_green_context_stream(name):
    _run(name)


# The green context current during the call (a runtime-API user's setup), on the cases whose plans change.
@pytest.mark.parametrize("name", ["lp_hold_bf16_1x4M", "lp_grid_f32_32x1M", "sample_f32_128K"])
def test_green_context_current(name):
    _run(name, "--green-current")
