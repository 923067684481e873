"""The C ABI fuzzer (tests/fuzz/abi_fuzz.c): random and hostile arguments to every
entry point on the CPU device; at least 10,000 calls, no crash, every status as
documented. Under `make sanitize` the library it drives is the ASan build."""
import os
import re
import shutil
import subprocess

import pytest

import infiniop_py as ip

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


@pytest.fixture(scope="module")
def fuzzer(tmp_path_factory):
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed")
    exe = tmp_path_factory.mktemp("fuzz") / "abi_fuzz"
    libdir = str(ip.library_path.parent)
    subprocess.run(["gcc", "-std=c99", "-O1", "-g", "-Wall", "-Werror", "-I", os.path.join(ROOT, "native", "include"),
                    os.path.join(HERE, "fuzz", "abi_fuzz.c"), "-o", str(exe), "-L", libdir, "-linfiniop",
                    "-linfinirt", f"-Wl,-rpath,{libdir}"], check=True)
    return exe


@pytest.mark.parametrize("seed", [1, 2, int.from_bytes(os.urandom(3), "little")])
def test_abi_fuzzer_no_crash_and_documented_statuses(fuzzer, seed):
    calls = int(os.environ.get("INFINIOP_FUZZ_CALLS", "12000"))
    r = subprocess.run([str(fuzzer), str(seed), str(calls), "60"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"seed {seed}: exit {r.returncode}\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}"
    m = re.search(r"calls=(\d+) crashes=0 unexpected=0", r.stdout)
    assert m, r.stdout[-2000:]
    assert int(m.group(1)) >= min(calls, 10000), r.stdout
    # Both outcomes were exercised: calls that succeeded and calls that were refused.
    assert "SUCCESS=" in r.stdout and "BAD_TENSOR" in r.stdout, r.stdout
