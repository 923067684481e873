"""Rearrange: dst = src for any two layouts of one shape and dtype.

The dtype may be any (it is copied by element size); src may broadcast (zero
strides) or run backwards (negative strides); dst must not reach one address
from two indices (BadTensorStrides). Scalars and empty tensors work.
"""
from __future__ import annotations

from typing import Optional

from .._arrays import ArrayView, as_view, empty_like
from .._ffi import lib
from .._streams import stream_pointer
from ..errors import check
from ..handle import Handle
from ..tensor import TensorDescriptor
from ._base import OperatorDescriptor, cached_descriptor, common_device, default_handle, descriptor_key, void_p

__all__ = ["Rearrange", "rearrange"]


class Rearrange(OperatorDescriptor):
    """An infiniopRearrangeDescriptor_t for one (dst, src) layout pair.

    Rearrange(handle, dst, src) takes TensorDescriptors (or arrays, whose
    layouts are used); desc(dst, src, stream=None) copies, where dst and src
    are arrays of exactly those layouts or raw integer addresses. On NVIDIA
    the call is asynchronous on `stream` (None: the default stream).
    """

    _create_name = "infiniopCreateRearrangeDescriptor"
    _destroy_name = "infiniopDestroyRearrangeDescriptor"

    def __init__(self, handle: Handle, dst, src):
        dst = dst if isinstance(dst, TensorDescriptor) else TensorDescriptor.from_array(dst)
        src = src if isinstance(src, TensorDescriptor) else TensorDescriptor.from_array(src)
        self._layouts = {"dst": _layout_of(dst), "src": _layout_of(src)}
        super().__init__(handle, {"dst": dst, "src": src})

    def __call__(self, dst, src, *, stream=None) -> None:
        """dst = src on `stream`. Arrays (checked against the layouts given at Create) or raw
        addresses (ints). Raises ValueError for an array of another layout, NullPointer."""
        d = dst if type(dst) is int else self._address("dst", dst)
        s = src if type(src) is int else self._address("src", src)
        status = lib.infiniopRearrange(self.ptr, void_p(d), void_p(s), void_p(stream_pointer(stream)))
        if status:
            check(status, "infiniopRearrange", self._context)

    def _address(self, name: str, array) -> int:
        if isinstance(array, int):
            return array
        view = as_view(array, writable=(name == "dst"))
        shape, strides, dtype = self._layouts[name]
        if view.device != self.device or (view.shape, view.strides) != (shape, strides) or int(_infini(view)) != dtype:
            raise ValueError(f"Rearrange: {name} is {view.shape} strides {view.strides} {view.dtype} on "
                             f"{view.device}, the descriptor was made for {shape} strides {strides} on {self.device}")
        return view.ptr


def _infini(view: ArrayView):
    from .. import dtypes

    return dtypes.to_infini(view.dtype)


def _layout_of(desc: TensorDescriptor):
    shape = desc.shape
    strides = desc.strides
    if strides is None:
        step, out = 1, []
        for s in reversed(shape):
            out.insert(0, step)
            step *= max(s, 1)
        strides = tuple(out)
    return shape, strides, int(desc.dtype)


def rearrange(src, out=None, *, stream=None):
    """Copy `src` into `out` (any layout, same shape and dtype) and return `out`.

    Without `out`, a new contiguous array of the same kind as `src` (NumPy,
    torch, cupy or DeviceArray) on the same device is returned. Descriptors are
    cached by layout, so a repeated call costs one C call.
    """
    s = as_view(src)
    if out is None:
        out = empty_like(s, s.shape, stream=stream)
    o = as_view(out, writable=True)
    device = common_device("rearrange", out=o, src=s)
    key = descriptor_key("rearrange", device, o, s)

    def make() -> Rearrange:
        return Rearrange(default_handle(*device), TensorDescriptor(o.shape, o.strides, o.dtype),
                         TensorDescriptor(s.shape, s.strides, s.dtype))

    desc: Optional[Rearrange] = cached_descriptor(key, make)
    desc._run("infiniopRearrange", void_p(o.ptr), void_p(s.ptr), void_p(stream_pointer(stream)))
    return out
