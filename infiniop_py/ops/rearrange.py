"""Rearrange: dst = src for any two layouts of one shape and dtype.

The dtype may be any (it is copied by element size); src may broadcast (zero
strides) or run backwards (negative strides); dst must not reach one address
from two indices (BadTensorStrides). Scalars and empty tensors work.
"""
from __future__ import annotations

from .._arrays import ArrayView, as_view, empty_like, probe
from .._layout import contiguous_strides
from ..handle import Handle
from ..tensor import TensorDescriptor
from ._base import OperatorDescriptor, call_slow, functional
from ._calculate import register

__all__ = ["Rearrange", "rearrange"]

register("Rearrange", "infiniopRearrange", (("dst", "out"), ("src", "in")), cdef="""
typedef struct InfiniopDescriptor *infiniopRearrangeDescriptor_t;
infiniStatus_t infiniopCreateRearrangeDescriptor(infiniopHandle_t handle, infiniopRearrangeDescriptor_t *desc_ptr,
                                                 infiniopTensorDescriptor_t dst, infiniopTensorDescriptor_t src);
infiniStatus_t infiniopRearrange(infiniopRearrangeDescriptor_t desc, void *dst, const void *src, void *stream);
infiniStatus_t infiniopDestroyRearrangeDescriptor(infiniopRearrangeDescriptor_t desc);
""")

_MAX_ACCEPTED = 64


class Rearrange(OperatorDescriptor):
    """An infiniopRearrangeDescriptor_t for one (dst, src) layout pair.

    Rearrange(handle, dst, src) takes TensorDescriptors (or arrays, whose
    layouts are used); desc(dst, src, stream=None) copies, where dst and src
    are arrays of exactly those layouts or raw integer addresses. On NVIDIA
    the call is asynchronous on `stream` (None: the default stream).
    """

    _create_name = "infiniopCreateRearrangeDescriptor"
    _destroy_name = "infiniopDestroyRearrangeDescriptor"
    _call_doc = """desc(dst, src, *, stream=None): dst = src on `stream`. Arrays (checked against the layouts
        given at Create) or raw addresses (ints). Raises ValueError for an array of another layout,
        NullPointer."""

    def __init__(self, handle: Handle, dst, src):
        dst = dst if isinstance(dst, TensorDescriptor) else TensorDescriptor.from_array(dst)
        src = src if isinstance(src, TensorDescriptor) else TensorDescriptor.from_array(src)
        self._layouts = {"dst": _layout_of(dst), "src": _layout_of(src)}
        # Layouts already checked against the descriptor's: (name, layout key, place) of one
        # array, or both arrays' layouts in one tuple (NumPy and torch pairs, see ops/_calculate.py).
        self._accepted = set()
        super().__init__(handle, {"dst": dst, "src": src})

    def _pointer(self, name: str, array, writable: bool):
        ptr, layout, place = probe(array, writable)
        seen = (name, layout, place)
        if seen not in self._accepted:
            self._accept(seen, {name: array})
        return ptr

    def _accept(self, seen, arrays) -> None:
        """Check each array (name -> array) against the descriptor's layouts, then remember `seen`."""
        for name, array in arrays.items():
            self._check(name, array)
        if len(self._accepted) >= _MAX_ACCEPTED:
            self._accepted.clear()
        self._accepted.add(seen)

    def _check(self, name: str, array) -> None:
        view = as_view(array, writable=(name == "dst"))
        shape, strides, dtype = self._layouts[name]
        if view.device != self.device or (view.shape, view.strides) != (shape, strides) or int(_infini(view)) != dtype:
            raise ValueError(f"Rearrange: {name} is {view.shape} strides {view.strides} {view.dtype} on "
                             f"{view.device}, the descriptor was made for {shape} strides {strides} on {self.device}")


def _infini(view: ArrayView):
    from .. import dtypes

    return dtypes.to_infini(view.dtype)


def _layout_of(desc: TensorDescriptor):
    strides = contiguous_strides(desc.shape) if desc.strides is None else desc.strides
    return desc.shape, strides, int(desc.dtype)


_run = functional("Rearrange", "rearrange")


def rearrange(src, out=None, *, stream=None):
    """Copy `src` into `out` (any layout, same shape and dtype) and return `out`.

    Without `out`, a new contiguous array of the same kind as `src` (NumPy,
    torch, cupy or DeviceArray) on the same device is returned. Descriptors are
    cached by layout, so a repeated call costs one C call.
    """
    if out is None:
        out = empty_like(as_view(src), as_view(src).shape, stream=stream)
    key = _run(stream, (), out, src)
    if key is not None:
        call_slow(_run, key, "rearrange", Rearrange, {"out": out, "src": src}, ("out", "src"), stream, (), out, src)
    return out
