"""The README's C example compiles against an installed tree and prints what it says."""
import json
import os
import re
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _c_example() -> str:
    text = open(os.path.join(ROOT, "README.md")).read()
    m = re.search(r"<!-- c-example:[^>]*-->\s*```c\n(.*?)```", text, re.S)
    assert m, "README has no marked C example"
    return m.group(1)


def test_readme_c_example_with_make_install(tmp_path):
    if shutil.which("gcc") is None or shutil.which("make") is None:
        pytest.skip("gcc and make are needed")
    if not os.path.isfile(os.path.join(ROOT, "build", "lib", "libinfiniop.so")):
        pytest.skip("no build in this source tree (make it first): the example links the installed libraries")
    prefix = tmp_path / "infini"
    # Install the build that is there: a CPU-only build (CUDA=0) on a machine that has nvcc must not
    # turn into a CUDA link of objects that were never compiled.
    with open(os.path.join(ROOT, "build", "lib", "build_info.json")) as f:
        cuda = "1" if json.load(f).get("nvidia") else "0"
    subprocess.run(["make", "-s", "-C", ROOT, "install", f"PREFIX={prefix}", f"CUDA={cuda}"], check=True,
                   capture_output=True)
    assert (prefix / "lib" / "libinfiniop.so").is_file() and (prefix / "include" / "infiniop.h").is_file()
    src = tmp_path / "mul_example.c"
    src.write_text(_c_example())
    exe = tmp_path / "mul_example"
    subprocess.run(["gcc", "-std=c99", "-Wall", "-Werror", str(src), f"-I{prefix}/include", f"-L{prefix}/lib",
                    "-linfiniop", "-linfinirt", f"-Wl,-rpath,{prefix}/lib", "-o", str(exe)], check=True)
    r = subprocess.run([str(exe)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["10", "40", "90", "40", "100", "180"]
