"""DeviceArray: a small strided array in NVIDIA device memory, owned through cuda.core."""
from __future__ import annotations

import math
from typing import Optional, Sequence, Tuple

import numpy as np

from . import _cuda, _dlpack, dtypes
from ._streams import stream_pointer
from ._layout import contiguous_strides


class DeviceArray:
    """An array in device memory: shape, strides (in elements), dtype, device_id.

    Create with DeviceArray.empty(shape, dtype, device_id=0) or
    DeviceArray.from_numpy(array, device_id=0); read back with to_numpy().
    It speaks __cuda_array_interface__ (v3) and DLPack (BF16 included), so
    torch.from_dlpack / cupy.asarray take it without a copy. Indexing is not
    supported; use view(shape, strides, offset) for strided sub-views.
    """

    def __init__(self, buffer, shape: Sequence[int], dtype, strides: Optional[Sequence[int]] = None,
                 offset: int = 0, device_id: int = 0):
        self._buffer = buffer  # cuda.core Buffer (or another DeviceArray's) kept alive here
        self.shape = tuple(int(s) for s in shape)
        self.dtype = np.dtype(dtypes.to_numpy(dtypes.to_infini(dtype)))
        self.strides = contiguous_strides(self.shape) if strides is None else tuple(int(s) for s in strides)
        self.offset = int(offset)  # in elements from the buffer's start
        self.device_id = int(device_id)
        # Read once: the binding's hot path takes this on every call.
        self._ptr = int(self._buffer.handle) + self.offset * self.dtype.itemsize

    @classmethod
    def empty(cls, shape: Sequence[int], dtype="float32", device_id: int = 0, stream=None) -> "DeviceArray":
        shape = tuple(int(s) for s in shape)
        nbytes = math.prod(shape) * np.dtype(dtypes.to_numpy(dtypes.to_infini(dtype))).itemsize
        dev = _cuda.device(device_id)
        s = stream_pointer(stream)
        # Stream-ordered allocation on the stream the memory will first be used
        # on (the default stream when none is given, as for our calls): no
        # synchronisation, later work on that stream sees it ready.
        from cuda.core import LEGACY_DEFAULT_STREAM, Stream

        buffer = dev.allocate(max(nbytes, 1), stream=Stream.from_handle(s) if s else LEGACY_DEFAULT_STREAM)
        return cls(buffer, shape, dtype, device_id=device_id)

    @classmethod
    def from_numpy(cls, array, device_id: int = 0, stream=None) -> "DeviceArray":
        host = np.asarray(array)
        if not host.flags.c_contiguous:  # (np.ascontiguousarray would make a 0-d array 1-d)
            host = host.copy(order="C")
        out = cls.empty(host.shape, host.dtype, device_id, stream)
        _cuda.memcpy(out.ptr, host.__array_interface__["data"][0], host.nbytes, stream_pointer(stream))
        return out

    @property
    def ptr(self) -> int:
        """Device address of element 0 (int)."""
        return self._ptr

    @property
    def itemsize(self) -> int:
        """Bytes per element."""
        return self.dtype.itemsize

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """Number of elements."""
        return math.prod(self.shape)

    @property
    def nbytes(self) -> int:
        """size * itemsize (the bytes the elements need, not the buffer's span)."""
        return self.size * self.itemsize

    def view(self, shape: Sequence[int], strides: Sequence[int], offset: int = 0) -> "DeviceArray":
        """A view of the same memory with another layout (offset/strides in elements)."""
        shape, strides = tuple(shape), tuple(strides)
        lo = hi = self.offset + offset
        for n, s in zip(shape, strides):
            if n > 0:
                lo, hi = (lo + s * (n - 1), hi) if s < 0 else (lo, hi + s * (n - 1))
        if math.prod(shape) and (lo < 0 or (hi + 1) * self.itemsize > self._buffer.size):
            raise ValueError(f"view {shape} strides {strides} offset {offset} leaves the buffer")
        return DeviceArray(self._buffer, shape, self.dtype, strides, self.offset + offset, self.device_id)

    def _span(self) -> Tuple[int, int]:
        """(lowest, highest + 1) element offsets reached, relative to ptr."""
        lo = hi = 0
        for n, s in zip(self.shape, self.strides):
            if n > 1:
                if s < 0:
                    lo += s * (n - 1)
                else:
                    hi += s * (n - 1)
        return lo, hi + 1

    def to_numpy(self, stream=None) -> np.ndarray:
        """Copy to a new NumPy array of the same shape (waits for `stream` first)."""
        if self.size == 0:
            return np.empty(self.shape, self.dtype)
        lo, hi = self._span()
        host = np.empty(hi - lo, self.dtype)
        _cuda.memcpy(host.__array_interface__["data"][0], self.ptr + lo * self.itemsize,
                     host.nbytes, stream_pointer(stream))
        view = np.lib.stride_tricks.as_strided(host[-lo:], self.shape, [s * self.itemsize for s in self.strides])
        return np.array(view)

    def copy_from_numpy(self, array, stream=None) -> None:
        """Fill from a host array of the same shape (this array must be contiguous)."""
        host = np.asarray(array, dtype=self.dtype)
        if not host.flags.c_contiguous:
            host = host.copy(order="C")
        if host.shape != self.shape or self.strides != contiguous_strides(self.shape):
            raise ValueError("copy_from_numpy needs a contiguous DeviceArray of the same shape")
        _cuda.memcpy(self.ptr, host.__array_interface__["data"][0], host.nbytes, stream_pointer(stream))

    @property
    def __cuda_array_interface__(self) -> dict:
        return {
            "shape": self.shape,
            "typestr": self.dtype.str,
            "data": (self.ptr, False),
            "version": 3,
            "strides": tuple(s * self.itemsize for s in self.strides),
            "stream": None,
        }

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if copy:
            raise BufferError("DeviceArray.__dlpack__ does not copy")
        return _dlpack.export(self.ptr, self.shape, self.strides, self.dtype, (_dlpack.KDL_CUDA, self.device_id),
                              owner=self)

    def __dlpack_device__(self) -> Tuple[int, int]:
        return (_dlpack.KDL_CUDA, self.device_id)

    def __repr__(self) -> str:
        return f"DeviceArray(shape={self.shape}, strides={self.strides}, dtype={self.dtype}, device_id={self.device_id})"
