"""Workspace: scratch memory that an operator's Calculate may need."""
from __future__ import annotations

import numpy as np

from .runtime import device_name, device_type

_ALIGN = 256  # what CUDA allocations guarantee; CPU workspaces get the same


class Workspace:
    """`size` bytes on a device: Workspace("cpu", n), Workspace("nvidia", n, device_id).

    `ptr` is the address to pass to Calculate. A size of 0 gives ptr 0.
    """

    def __init__(self, device="cpu", size: int = 0, device_id: int = 0, stream=None):
        self.device = device_name(device_type(device))
        self.device_id = int(device_id)
        self.size = int(size)
        self._memory = None
        if self.size == 0:
            self.ptr = 0
        elif self.device == "cpu":
            self._memory = np.empty(self.size + _ALIGN, np.uint8)
            base = self._memory.__array_interface__["data"][0]
            self.ptr = base + (-base) % _ALIGN
        else:
            from .device_array import DeviceArray

            self._memory = DeviceArray.empty((self.size,), "uint8", self.device_id, stream)
            self.ptr = self._memory.ptr
        from ._ffi import ffi

        self.cdata = ffi.cast("void *", self.ptr)  # what Calculate takes, cast once

    def release_on(self, stream_ptr: int) -> None:
        """Give the memory back in the order of stream `stream_ptr` (0: the legacy
        default stream) when this workspace is released, rather than on the stream
        it was allocated on (which its owner may destroy first). Nothing for CPU
        workspaces."""
        if self.device == "cpu" or self._memory is None:
            return
        move = getattr(self._memory._buffer, "set_deallocation_stream", None)
        if move is None:  # an older cuda.core without it: freed on the allocation stream, as before
            return
        from cuda.core import LEGACY_DEFAULT_STREAM, Stream

        move(Stream.from_handle(stream_ptr) if stream_ptr else LEGACY_DEFAULT_STREAM)

    def __repr__(self) -> str:
        return f"Workspace(device={self.device!r}, size={self.size}, device_id={self.device_id})"
