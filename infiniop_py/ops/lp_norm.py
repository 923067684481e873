"""LPNorm: y = x / max(||x||_p, eps) along one axis (torch.nn.functional.normalize)."""
from __future__ import annotations

from .._arrays import as_view, empty_like
from ..errors import error_for
from ..handle import Handle
from ..tensor import TensorDescriptor
from ._base import OperatorDescriptor, call_slow, functional
from ._calculate import register

__all__ = ["LPNorm", "lp_norm"]

register("LPNorm", "infiniopLPNorm", (("workspace", "workspace"), ("y", "out"), ("x", "in")), cdef="""
typedef struct InfiniopDescriptor *infiniopLPNormDescriptor_t;
infiniStatus_t infiniopCreateLPNormDescriptor(infiniopHandle_t handle, infiniopLPNormDescriptor_t *desc_ptr,
                                              infiniopTensorDescriptor_t y, infiniopTensorDescriptor_t x,
                                              int axis, int p, float eps);
infiniStatus_t infiniopGetLPNormWorkspaceSize(infiniopLPNormDescriptor_t desc, size_t *size);
infiniStatus_t infiniopLPNorm(infiniopLPNormDescriptor_t desc, void *workspace, size_t workspace_size,
                              void *y, const void *x, void *stream);
infiniStatus_t infiniopDestroyLPNormDescriptor(infiniopLPNormDescriptor_t desc);
""")

_INT_MIN, _INT_MAX = -(1 << 31), (1 << 31) - 1
_CREATE = "infiniopCreateLPNormDescriptor"


def _as_descriptor(t) -> TensorDescriptor:
    return t if isinstance(t, TensorDescriptor) else TensorDescriptor.from_array(t)


class LPNorm(OperatorDescriptor):
    """The LPNorm operator for one layout: LPNorm(handle, y, x, axis=-1, p=2, eps=1e-12).

    `y` and `x` are TensorDescriptors or arrays (only their layouts are used).
    dtypes F16, BF16, F32, F64 (both the same); axis in [-ndim, ndim); integer
    p >= 1; eps >= 0. Any strides; y must not overlap itself; y may be x (same
    layout) for an in-place call. Call it with `op(y, x, workspace=None,
    stream=None)`, arrays or int addresses; a workspace of `workspace_size`
    bytes is taken from a per-stream cache when none is given.
    """

    _create_name = _CREATE
    _destroy_name = "infiniopDestroyLPNormDescriptor"
    _workspace_name = "infiniopGetLPNormWorkspaceSize"

    def __init__(self, handle: Handle, y, x, axis: int = -1, p: int = 2, eps: float = 1e-12):
        y_desc, x_desc = _as_descriptor(y), _as_descriptor(x)
        self.axis, self.p, self.eps = int(axis), int(p), float(eps)
        for name, value in (("axis", self.axis), ("p", self.p)):
            if not _INT_MIN <= value <= _INT_MAX:  # the C int would wrap: refuse as the library would
                raise error_for(3, _CREATE, f"LPNorm: {name}={value} does not fit in a C int")
        super().__init__(handle, {"y": y_desc, "x": x_desc}, (self.axis, self.p, self.eps), ("axis", "p", "eps"))

    _call_doc = """desc(y, x, *, workspace=None, stream=None): y = x / max(||x||_p, eps) along the axis, on
        `stream`. `y` and `x` are arrays or raw addresses (ints) laid out as at Create (`y` may be `x`);
        `workspace` of at least `workspace_size` bytes, or None for a cached one. Raises
        InsufficientWorkspace, NullPointer."""


_run = functional("LPNorm", "lp_norm")


def lp_norm(x, axis: int = -1, p: int = 2, eps: float = 1e-12, out=None, *, stream=None):
    """x / max(||x||_p, eps) along `axis`, into `out` (a new array of x's kind
    when None; `out=x` works in place). NumPy arrays run on the CPU;
    DeviceArray, torch and cupy tensors on their GPU, on `stream`."""
    if out is None:
        out = empty_like(as_view(x), as_view(x).shape, stream=stream)
    extra = (axis, p, eps)
    key = _run(stream, extra, out, x)
    if key is not None:
        call_slow(_run, key, "lp_norm", LPNorm, {"x": x, "out": out}, ("out", "x"), stream, extra, out, x)
    return out
