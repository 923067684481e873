"""A minimal DLPack producer and consumer (legacy, unversioned capsules).

cuda.core's view refuses BF16 through DLPack and torch refuses BF16 through
__cuda_array_interface__, so BF16 tensors need this path both ways.
"""
from __future__ import annotations

import ctypes
from typing import Any, NamedTuple, Tuple

import numpy as np

from . import dtypes
from ._layout import contiguous_strides

KDL_CPU, KDL_CUDA = 1, 2
_INT, _UINT, _FLOAT, _BFLOAT, _COMPLEX, _BOOL = 0, 1, 2, 4, 5, 6


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    pass


_Deleter = ctypes.CFUNCTYPE(None, ctypes.POINTER(_DLManagedTensor))
_DLManagedTensor._fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", _Deleter)]

_api = ctypes.pythonapi
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]

_CODES = {"i": _INT, "u": _UINT, "f": _FLOAT, "c": _COMPLEX, "b": _BOOL}

# Exported tensors stay alive here until their consumer calls the deleter.
_live: dict = {}


@_Deleter
def _delete(managed):
    _live.pop(ctypes.addressof(managed.contents), None)


# The destructor runs while the capsule is being deallocated (reference count
# 0): it must see it only as a raw pointer, never as a Python object.
_CapsuleDestructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_raw_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_IsValid", _api))
_raw_get_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_GetPointer", _api))


@_CapsuleDestructor
def _capsule_destructor(capsule):
    # An unconsumed capsule still named "dltensor" owns its tensor.
    if _raw_is_valid(capsule, b"dltensor"):
        _live.pop(_raw_get_pointer(capsule, b"dltensor"), None)


def _dl_dtype(dtype: np.dtype) -> _DLDataType:
    if dtype == dtypes.bfloat16:
        return _DLDataType(_BFLOAT, 16, 1)
    if dtype.kind not in _CODES:
        raise BufferError(f"dtype {dtype} cannot be exported through DLPack")
    return _DLDataType(_CODES[dtype.kind], dtype.itemsize * 8, 1)


def _np_dtype(dl: _DLDataType) -> np.dtype:
    if dl.lanes != 1:
        raise BufferError("vector dtypes (lanes > 1) are not supported")
    if dl.code == _BFLOAT and dl.bits == 16:
        return dtypes.bfloat16
    kind = {v: k for k, v in _CODES.items()}.get(dl.code)
    if kind is None:
        raise BufferError(f"unsupported DLPack dtype code {dl.code}")
    return np.dtype(f"{'?' if kind == 'b' else kind + str(dl.bits // 8)}")


def export(ptr: int, shape: Tuple[int, ...], strides: Tuple[int, ...], dtype: np.dtype,
           device: Tuple[int, int], owner: Any):
    """A "dltensor" capsule over memory kept alive by `owner` (strides in elements)."""
    ndim = len(shape)
    managed = _DLManagedTensor()
    shape_arr = (ctypes.c_int64 * max(ndim, 1))(*shape)
    strides_arr = (ctypes.c_int64 * max(ndim, 1))(*strides)
    t = managed.dl_tensor
    t.data = ptr
    t.device = _DLDevice(*device)
    t.ndim = ndim
    t.dtype = _dl_dtype(np.dtype(dtype))
    t.shape = shape_arr
    t.strides = strides_arr
    t.byte_offset = 0
    managed.deleter = _delete
    address = ctypes.addressof(managed)
    _live[address] = (managed, shape_arr, strides_arr, owner)
    return _api.PyCapsule_New(address, b"dltensor", ctypes.cast(_capsule_destructor, ctypes.c_void_p))


class Imported(NamedTuple):
    ptr: int
    shape: Tuple[int, ...]
    strides: Tuple[int, ...]  # in elements
    dtype: np.dtype
    device_type: int
    device_id: int


def read(obj) -> Imported:
    """Read the layout of any object with __dlpack__. The memory stays valid
    as long as `obj` lives (the caller keeps it); the capsule is consumed."""
    device = obj.__dlpack_device__()[0] if hasattr(obj, "__dlpack_device__") else KDL_CUDA
    if device == KDL_CPU:
        capsule = obj.__dlpack__()
    else:
        try:
            capsule = obj.__dlpack__(stream=-1)  # no synchronisation: the caller orders its streams
        except TypeError:
            capsule = obj.__dlpack__()
    if not _api.PyCapsule_IsValid(capsule, b"dltensor"):
        raise BufferError(f"{type(obj).__name__}.__dlpack__ did not return a 'dltensor' capsule")
    address = _api.PyCapsule_GetPointer(capsule, b"dltensor")
    managed = _DLManagedTensor.from_address(address)
    t = managed.dl_tensor
    shape = tuple(t.shape[i] for i in range(t.ndim))
    strides = tuple(t.strides[i] for i in range(t.ndim)) if t.strides else contiguous_strides(shape)
    info = Imported((t.data or 0) + t.byte_offset, shape, strides, _np_dtype(t.dtype),
                    t.device.device_type, t.device.device_id)
    # Consume: mark it used, then release the producer's hold (obj keeps the memory).
    _api.PyCapsule_SetName(capsule, b"used_dltensor")
    if managed.deleter:
        managed.deleter(ctypes.pointer(managed))
    return info
