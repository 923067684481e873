"""Loads libinfiniop (and libinfinirt beside it) through cffi in ABI mode.

Search order:
  1. $INFINIOP_LIBRARY: the path of a libinfiniop.so (any InfiniCore-compatible
     build); when set, it is the only place looked at, so a typo is an error
     rather than a silent fallback;
  2. $INFINI_ROOT/lib/libinfiniop.so (the reference's install layout);
  3. the copy built inside this package (infiniop_py/_lib/).
`lib` is the library, loaded on first use (so that `import infiniop_py` and the
CLI can report a missing library as an error instead of failing to import);
`library_path` and `found_by` say where and how.
"""
from __future__ import annotations

import os
import pathlib

import cffi

from . import _cdef

ffi = cffi.FFI()
ffi.cdef(_cdef.CDEF)

_PACKAGE_LIB_DIR = pathlib.Path(__file__).resolve().parent / "_lib"


class LibraryNotFoundError(OSError):
    """No libinfiniop.so could be loaded; the message lists every place tried."""


def _candidates() -> list[tuple[str, pathlib.Path]]:
    found = []
    explicit = os.environ.get("INFINIOP_LIBRARY")
    if explicit:
        return [("INFINIOP_LIBRARY", pathlib.Path(explicit))]
    root = os.environ.get("INFINI_ROOT")
    if root:
        found.append(("INFINI_ROOT", pathlib.Path(root) / "lib" / "libinfiniop.so"))
    found.append(("package", _PACKAGE_LIB_DIR / "libinfiniop.so"))
    return found


def _load():
    tried = []
    for how, path in _candidates():
        if not path.is_file():
            tried.append(f"  {path} ({how}): no such file")
            continue
        try:
            # libinfinirt first, from the same folder, so that the operator
            # library's dependency resolves to the matching runtime.
            runtime = path.with_name("libinfinirt.so")
            rt = ffi.dlopen(str(runtime)) if runtime.is_file() else None
            return ffi.dlopen(str(path)), rt, path, how
        except OSError as exc:
            tried.append(f"  {path} ({how}): {exc}")
    raise LibraryNotFoundError(
        "could not load libinfiniop.so; tried, in order:\n" + "\n".join(tried) +
        "\nSet INFINIOP_LIBRARY to the path of a libinfiniop.so, or INFINI_ROOT to a folder whose lib/ holds "
        "one, or build the package's own copy with `make` in the source tree.")


_loaded = None


def loaded():
    """(lib, runtime lib, path, how), loading on the first call."""
    global _loaded
    if _loaded is None:
        _loaded = _load()
    return _loaded


class _LazyLibrary:
    """Stands for the cffi library object; each symbol is looked up once and
    then cached on the instance, so later calls cost a plain attribute read."""

    def __getattr__(self, name):
        value = getattr(loaded()[0], name)
        setattr(self, name, value)
        return value


lib = _LazyLibrary()


def __getattr__(name):
    if name == "library_path":
        return loaded()[2]
    if name == "found_by":
        return loaded()[3]
    raise AttributeError(name)


def has_symbol(name: str) -> bool:
    """Whether the loaded library exports `name` (another build may lack our extensions)."""
    try:
        getattr(loaded()[0], name)
        return True
    except AttributeError:
        return False
