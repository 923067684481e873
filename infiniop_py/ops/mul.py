"""Mul: c = a * b, elementwise, with broadcasting.

Dtypes: F16, BF16, F32, F64 and the integers I8..I64, U8..U64 (wrap-around);
all three arrays share one dtype. `a` and `b` broadcast to `c` by NumPy's
rules (zero strides included). In-place works: `c` may be `a` or `b` with the
same layout. F16/BF16 products are rounded once from the exact product.
"""
from __future__ import annotations

import numpy as np

from .._arrays import as_view, empty_like, is_torch
from ..handle import Handle
from ..tensor import TensorDescriptor
from ._base import OperatorDescriptor, call_slow, functional
from ._calculate import register

__all__ = ["Mul", "mul"]

register("Mul", "infiniopMul", (("workspace", "workspace"), ("c", "out"), ("a", "in"), ("b", "in")), cdef="""
typedef struct InfiniopDescriptor *infiniopMulDescriptor_t;
infiniStatus_t infiniopCreateMulDescriptor(infiniopHandle_t handle, infiniopMulDescriptor_t *desc_ptr,
                                           infiniopTensorDescriptor_t c, infiniopTensorDescriptor_t a,
                                           infiniopTensorDescriptor_t b);
infiniStatus_t infiniopGetMulWorkspaceSize(infiniopMulDescriptor_t desc, size_t *size);
infiniStatus_t infiniopMul(infiniopMulDescriptor_t desc, void *workspace, size_t workspace_size,
                           void *c, const void *a, const void *b, void *stream);
infiniStatus_t infiniopDestroyMulDescriptor(infiniopMulDescriptor_t desc);
""")


class Mul(OperatorDescriptor):
    """An infiniopMulDescriptor_t: Mul(handle, c, a, b) with TensorDescriptors
    (they may be closed right after), then `op(c, a, b, stream=None)` with
    arrays or raw device addresses (ints) laid out as described; `c` may be `a`
    or `b` (same layout). Mul needs no workspace.

    Create raises BadTensorDtype (dtypes differ or unsupported), BadTensorShape (a or b
    not broadcastable to c), BadTensorStrides (c has a zero stride or overlaps).
    """

    _create_name = "infiniopCreateMulDescriptor"
    _destroy_name = "infiniopDestroyMulDescriptor"
    _workspace_name = "infiniopGetMulWorkspaceSize"

    _call_doc = """desc(c, a, b, *, workspace=None, stream=None): c = a * b on `stream`. Arrays or raw
        addresses (ints) laid out as at Create; `c` may be `a` or `b` (same layout). Raises NullPointer
        for a missing pointer."""

    def __init__(self, handle: Handle, c: TensorDescriptor, a: TensorDescriptor, b: TensorDescriptor):
        super().__init__(handle, {"c": c, "a": a, "b": b})


Mul.calculate = Mul.__call__


def _new_output(a, b, stream):
    if type(a) is np.ndarray and type(b) is np.ndarray:  # the CPU's common case, without views
        shape = a.shape if a.shape == b.shape else np.broadcast_shapes(a.shape, b.shape)
        return np.empty(shape, a.dtype)
    if type(a) is type(b) and is_torch(a) and a.is_cuda:  # as empty_like would: a.new_empty, without views
        shape = a.shape if a.shape == b.shape else np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
        return a.new_empty(shape)
    va, vb = as_view(a), as_view(b)
    shape = va.shape if va.shape == vb.shape else np.broadcast_shapes(va.shape, vb.shape)
    return empty_like(va, shape, stream=stream)


_run = functional("Mul", "mul")


def mul(a, b, out=None, *, stream=None):
    """`a * b` with NumPy broadcasting, into `out` (allocated like `a` when None:
    a NumPy array on the CPU, the same kind as `a` on a GPU). `a`, `b` and `out`
    are NumPy arrays (CPU) or DeviceArray / torch / cupy tensors (NVIDIA), all
    on one device and of one dtype. Returns `out`.
    """
    if out is None:
        out = _new_output(a, b, stream)
    key = _run(stream, (), out, a, b)
    if key is not None:
        call_slow(_run, key, "mul", Mul, {"a": a, "b": b, "out": out}, ("out", "a", "b"), stream, (), out, a, b)
    return out
