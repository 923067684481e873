"""The library loader: search order, and a failure message that lists every path."""
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

import infiniop_py as ip

from conftest import ROOT, subprocess_pythonpath


def _run(code: str, **env):
    full_env = {k: v for k, v in os.environ.items() if k not in ("INFINIOP_LIBRARY", "INFINI_ROOT")}
    full_env.update(env)
    full_env["PYTHONPATH"] = subprocess_pythonpath()
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          env=full_env, cwd=ROOT)


def test_package_copy_is_found():
    assert ip.library_path.name == "libinfiniop.so"
    assert ip.found_by in ("INFINIOP_LIBRARY", "INFINI_ROOT", "package")


def test_explicit_library_wins(tmp_path):
    r = _run("import infiniop_py as ip; print(ip.found_by, ip.library_path)",
             INFINIOP_LIBRARY=str(ip.library_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[0] == "INFINIOP_LIBRARY"


def test_infini_root_layout(tmp_path):
    lib = tmp_path / "lib"
    lib.mkdir()
    for name in ("libinfiniop.so", "libinfinirt.so"):
        (lib / name).symlink_to(ip.library_path.with_name(name))
    r = _run("import infiniop_py as ip; print(ip.found_by, ip.library_path)", INFINI_ROOT=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["INFINI_ROOT", str(lib / "libinfiniop.so")]


def _load_with_package_copy_at(folder, **env):
    """Run the loader module alone, with the package's own copy pointed at `folder`."""
    return _run(f"""
        import pathlib, sys, types
        pkg = types.ModuleType("infiniop_py"); pkg.__path__ = ["{ROOT}/infiniop_py"]; sys.modules["infiniop_py"] = pkg
        import infiniop_py._cdef
        src = pathlib.Path("{ROOT}/infiniop_py/_ffi.py").read_text().replace(
            'pathlib.Path(__file__).resolve().parent / "_lib"', 'pathlib.Path("{folder}")')
        mod = types.ModuleType("infiniop_py._ffi"); mod.__package__ = "infiniop_py"
        try:
            exec(compile(src, "_ffi.py", "exec"), mod.__dict__)
            print("loaded", mod.library_path)
        except OSError as e:
            print(type(e).__name__); print(e)
        """, **env)


def test_failure_lists_every_path_and_names_the_variables(tmp_path):
    r = _load_with_package_copy_at(tmp_path / "empty", INFINI_ROOT=str(tmp_path / "root"))
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert out.startswith("LibraryNotFoundError"), out
    assert str(tmp_path / "root" / "lib" / "libinfiniop.so") in out
    assert str(tmp_path / "empty" / "libinfiniop.so") in out
    assert "INFINIOP_LIBRARY" in out and "INFINI_ROOT" in out


def test_explicit_library_is_never_silently_replaced(tmp_path):
    missing = tmp_path / "nowhere" / "libinfiniop.so"
    r = _load_with_package_copy_at(ip.library_path.parent, INFINIOP_LIBRARY=str(missing))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("LibraryNotFoundError"), r.stdout
    assert str(missing) in r.stdout and "no such file" in r.stdout


def test_a_file_that_is_not_a_library_is_reported(tmp_path):
    bogus = tmp_path / "libinfiniop.so"
    bogus.write_text("not an ELF file")
    r = _load_with_package_copy_at(tmp_path / "empty", INFINIOP_LIBRARY=str(bogus))
    assert r.stdout.startswith("LibraryNotFoundError"), r.stdout
    assert str(bogus) in r.stdout


def test_make_replaces_package_libraries_without_rewriting_them(tmp_path):
    """`make` copies a rebuilt library into the package by a rename: a process that
    has the old file mapped (a Python session, a test that runs `make install`)
    keeps reading the old bytes instead of crashing on a file rewritten under it."""
    if shutil.which("make") is None:
        pytest.skip("make is needed")
    built, pkg = tmp_path / "build" / "lib", tmp_path / "pkg"
    built.mkdir(parents=True)
    pkg.mkdir()
    old = pkg / "libdummy.so"
    old.write_bytes(b"old library")
    os.utime(old, (1, 1))  # older than the build's copy: make must replace it
    (built / "libdummy.so").write_bytes(b"new library")
    with open(old, "rb") as mapped:  # stands for the loader's mapping of the old file
        r = subprocess.run(["make", "-s", "-C", ROOT, f"BUILD={tmp_path / 'build'}", f"PKG_LIB={pkg}",
                            str(pkg / "libdummy.so")], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        assert old.read_bytes() == b"new library"
        assert mapped.read() == b"old library", "the package's library was rewritten in place"
    assert sorted(p.name for p in pkg.iterdir()) == ["libdummy.so"]  # no temporary left behind
