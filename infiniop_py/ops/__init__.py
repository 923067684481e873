"""The operators: one module each, sharing ops/_base.py and ops/_calculate.py.

A module carries everything of its operator: its C declarations and its row of
the Calculate table (`_calculate.register`), its descriptor class and its
functional form, named in its `__all__`. Every public module of this folder is
imported here and its names exported (the package's top level re-exports them),
so a new operator is one new module.
"""
import importlib as _importlib
import pkgutil as _pkgutil

__all__ = []
for _info in sorted(_pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if not _info.name.startswith("_"):
        _module = _importlib.import_module(f"{__name__}.{_info.name}")
        globals().update({name: getattr(_module, name) for name in _module.__all__})
        __all__ += _module.__all__
