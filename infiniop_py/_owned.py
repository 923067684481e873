"""Ties one C object to one Python object: released exactly once, by close(),
by `with`, or by the garbage collector as a safety net."""
from __future__ import annotations

from ._ffi import ffi, lib
from .errors import check


class CObject:
    """Base of every wrapper that owns a C pointer (handles, tensor and operator descriptors)."""

    _destroy_name: str = ""  # the C function that releases the object
    _ptr = None

    def _own(self, raw) -> None:
        destroy = getattr(lib, self._destroy_name)
        self._ptr = ffi.gc(raw, destroy)

    @property
    def closed(self) -> bool:
        return self._ptr is None

    @property
    def ptr(self):
        """The C pointer (cdata); ValueError once closed."""
        if self._ptr is None:
            raise ValueError(f"{type(self).__name__} is closed")
        return self._ptr

    def close(self) -> None:
        """Release the C object now; calling it again does nothing."""
        ptr, self._ptr = self._ptr, None
        if ptr is not None:
            ffi.gc(ptr, None)  # detach the safety net first, so nothing releases it twice
            check(getattr(lib, self._destroy_name)(ptr), self._destroy_name, repr(self))

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()
