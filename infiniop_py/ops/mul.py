"""Mul: c = a * b, elementwise, with broadcasting.

Dtypes: F16, BF16, F32, F64 and the integers I8..I64, U8..U64 (wrap-around);
all three arrays share one dtype. `a` and `b` broadcast to `c` by NumPy's
rules (zero strides included). In-place works: `c` may be `a` or `b` with the
same layout. F16/BF16 products are rounded once from the exact product.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from .._arrays import as_view, empty_like
from .._ffi import ffi, lib
from .._streams import stream_pointer
from ..errors import check
from ..handle import Handle
from ..tensor import TensorDescriptor
from ..workspace import Workspace
from ._base import OperatorDescriptor, cached_descriptor, common_device, default_handle, descriptor_key

__all__ = ["Mul", "mul"]

_VOID_P = ffi.typeof("void *")


def _address(x) -> int:
    """A raw address (int) as is, else the data pointer of an array."""
    return x if isinstance(x, int) else as_view(x).ptr


class Mul(OperatorDescriptor):
    """An infiniopMulDescriptor_t: Mul(handle, c, a, b) with TensorDescriptors
    (they may be closed right after), then `op(c, a, b, stream=None)` with
    arrays or raw device addresses (ints) laid out as described.

    Raises BadTensorDtype (dtypes differ or unsupported), BadTensorShape (a or b
    not broadcastable to c), BadTensorStrides (c has a zero stride or overlaps).
    """

    _create_name = "infiniopCreateMulDescriptor"
    _destroy_name = "infiniopDestroyMulDescriptor"
    _workspace_name = "infiniopGetMulWorkspaceSize"

    def __init__(self, handle: Handle, c: TensorDescriptor, a: TensorDescriptor, b: TensorDescriptor):
        super().__init__(handle, {"c": c, "a": a, "b": b})

    def __call__(self, c, a, b, *, workspace: Optional[Workspace] = None, stream=None) -> None:
        """c = a * b on `stream`. Arrays or raw addresses (ints) laid out as at Create; `c` may be
        `a` or `b` (same layout). Mul needs no workspace. Raises NullPointer for a missing pointer."""
        s = 0 if stream is None else stream_pointer(stream)
        if workspace is None and self.workspace_size == 0:  # the usual case: one C call, nothing else
            ws, ws_size = ffi.NULL, 0
        else:
            ws, ws_size = self._workspace_args(workspace, s)
        cast = ffi.cast
        status = lib.infiniopMul(self.ptr, ws, ws_size,
                                 cast(_VOID_P, c if type(c) is int else _address(c)),
                                 cast(_VOID_P, a if type(a) is int else _address(a)),
                                 cast(_VOID_P, b if type(b) is int else _address(b)), cast(_VOID_P, s))
        if status:
            check(status, "infiniopMul", self._context)

    calculate = __call__


def _descriptor(device, vc, va, vb) -> Mul:
    key = descriptor_key("mul", device, vc, va, vb)

    def make() -> Mul:
        handle = default_handle(*device)
        with TensorDescriptor(vc.shape, vc.strides, vc.dtype) as c, \
                TensorDescriptor(va.shape, va.strides, va.dtype) as a, \
                TensorDescriptor(vb.shape, vb.strides, vb.dtype) as b:
            return Mul(handle, c, a, b)

    return cached_descriptor(key, make)


def mul(a, b, out=None, *, stream=None):
    """`a * b` with NumPy broadcasting, into `out` (allocated like `a` when None:
    a NumPy array on the CPU, the same kind as `a` on a GPU). `a`, `b` and `out`
    are NumPy arrays (CPU) or DeviceArray / torch / cupy tensors (NVIDIA), all
    on one device and of one dtype. Returns `out`.
    """
    va, vb = as_view(a), as_view(b)
    if out is None:
        shape = np.broadcast_shapes(va.shape, vb.shape)
        out = empty_like(va, shape, stream=stream)
    vc = as_view(out, writable=True)
    device = common_device("mul", a=va, b=vb, out=vc)
    op = _descriptor(device, vc, va, vb)
    op(vc.ptr, va.ptr, vb.ptr, stream=stream)
    return out
