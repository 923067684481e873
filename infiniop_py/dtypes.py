"""infiniDtype_t <-> NumPy dtypes (BF16 through ml_dtypes)."""
from __future__ import annotations

import enum

import ml_dtypes
import numpy as np


class Dtype(enum.IntEnum):
    """infiniDtype_t, value for value."""

    INVALID = 0
    BYTE = 1
    BOOL = 2
    I8 = 3
    I16 = 4
    I32 = 5
    I64 = 6
    U8 = 7
    U16 = 8
    U32 = 9
    U64 = 10
    F8 = 11
    F16 = 12
    F32 = 13
    F64 = 14
    C16 = 15
    C32 = 16
    C64 = 17
    C128 = 18
    BF16 = 19


bfloat16 = np.dtype(ml_dtypes.bfloat16)

_TO_NUMPY = {
    Dtype.BOOL: np.dtype(np.bool_),
    Dtype.I8: np.dtype(np.int8), Dtype.I16: np.dtype(np.int16),
    Dtype.I32: np.dtype(np.int32), Dtype.I64: np.dtype(np.int64),
    Dtype.U8: np.dtype(np.uint8), Dtype.U16: np.dtype(np.uint16),
    Dtype.U32: np.dtype(np.uint32), Dtype.U64: np.dtype(np.uint64),
    Dtype.F8: np.dtype(ml_dtypes.float8_e4m3fn),
    Dtype.F16: np.dtype(np.float16), Dtype.F32: np.dtype(np.float32), Dtype.F64: np.dtype(np.float64),
    # The ABI counts a complex dtype's whole size: C64 is two F32, C128 two F64.
    Dtype.C64: np.dtype(np.complex64), Dtype.C128: np.dtype(np.complex128),
    Dtype.BF16: bfloat16,
}
_FROM_NUMPY = {v: k for k, v in _TO_NUMPY.items()}
_ITEMSIZE = {Dtype.BYTE: 1, Dtype.C16: 2, Dtype.C32: 4}


def to_infini(dtype) -> Dtype:
    """The infiniDtype_t of a NumPy dtype (or anything np.dtype accepts, or a Dtype)."""
    if isinstance(dtype, Dtype):
        return dtype
    if isinstance(dtype, str) and dtype.upper() in Dtype.__members__:
        return Dtype[dtype.upper()]
    try:
        return _FROM_NUMPY[np.dtype(dtype)]
    except (KeyError, TypeError):
        raise TypeError(f"dtype {dtype!r} has no infiniDtype_t") from None


def to_numpy(dtype) -> np.dtype:
    """The NumPy dtype of an infiniDtype_t."""
    try:
        return _TO_NUMPY[Dtype(dtype)]
    except (KeyError, ValueError):
        raise TypeError(f"infiniDtype_t {dtype!r} has no NumPy dtype") from None


def itemsize(dtype) -> int:
    dt = Dtype(dtype)
    return _ITEMSIZE[dt] if dt in _ITEMSIZE else _TO_NUMPY[dt].itemsize
