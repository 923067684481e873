"""TensorDescriptor: shape, strides (in elements) and dtype of a tensor."""
from __future__ import annotations

from typing import Optional, Sequence

from . import dtypes
from ._ffi import ffi, lib
from ._owned import CObject
from .errors import check


class TensorDescriptor(CObject):
    """An infiniopTensorDescriptor_t.

    TensorDescriptor(shape, strides=None, dtype=np.float32): strides are in
    elements and may be negative or zero; None means row-major contiguous.
    TensorDescriptor.from_array(x) takes all three from an array (NumPy,
    DeviceArray, torch, cupy...). Raises BadTensorShape (also ValueError) when
    the byte extent overflows, BadTensorDtype (also TypeError) for a dtype the
    ABI does not know.
    """

    _destroy_name = "infiniopDestroyTensorDescriptor"

    def __init__(self, shape: Sequence[int], strides: Optional[Sequence[int]] = None, dtype="float32"):
        self.shape = tuple(int(s) for s in shape)
        self.strides = None if strides is None else tuple(int(s) for s in strides)
        self.dtype = dtypes.to_infini(dtype)
        if self.strides is not None and len(self.strides) != len(self.shape):
            raise ValueError(f"strides {self.strides} do not match shape {self.shape}")
        if any(s < 0 for s in self.shape):
            raise ValueError(f"negative dimension in shape {self.shape}")
        ndim = len(self.shape)
        raw = ffi.new("infiniopTensorDescriptor_t *")
        shape_c = ffi.new("size_t[]", self.shape) if ndim else ffi.NULL
        strides_c = ffi.new("ptrdiff_t[]", self.strides) if (self.strides is not None and ndim) else ffi.NULL
        try:
            status = lib.infiniopCreateTensorDescriptor(raw, ndim, shape_c, strides_c, int(self.dtype))
        except OverflowError:
            raise ValueError(f"shape {self.shape} or strides {self.strides} do not fit in 64 bits") from None
        check(status, "infiniopCreateTensorDescriptor", self.describe)
        self._own(raw[0])

    @classmethod
    def from_array(cls, array) -> "TensorDescriptor":
        from ._arrays import as_view

        view = as_view(array)
        return cls(view.shape, view.strides, view.dtype)

    def describe(self) -> str:
        """'(2, 3) strides (3, 1) F32': the layout as error messages show it."""
        strides = "contiguous" if self.strides is None else f"strides {self.strides}"
        return f"{self.shape} {strides} {self.dtype.name}"

    def __repr__(self) -> str:
        return f"TensorDescriptor(shape={self.shape}, strides={self.strides}, dtype={self.dtype.name})"
