"""Views of whatever arrays users pass: NumPy (CPU), DeviceArray, and any object
with __cuda_array_interface__ or __dlpack__ (torch, cupy) on NVIDIA."""
from __future__ import annotations

import sys
from typing import Any, NamedTuple, Sequence, Tuple

import numpy as np

from . import _cuda, _dlpack, dtypes
from .device_array import DeviceArray
from ._layout import contiguous_strides


class ArrayView(NamedTuple):
    ptr: int
    shape: Tuple[int, ...]
    strides: Tuple[int, ...]  # in elements
    dtype: np.dtype
    device: str  # "cpu" or "nvidia"
    device_id: int
    obj: Any  # the array itself, kept alive while the view is used

    @property
    def layout(self):
        """What a descriptor depends on: shape, strides, dtype."""
        return self.shape, self.strides, self.dtype


def _element_strides(byte_strides, itemsize: int, what: str) -> Tuple[int, ...]:
    out = []
    for s in byte_strides:
        if s % itemsize:
            raise ValueError(f"{what}: stride of {s} bytes is not a multiple of the item size {itemsize}")
        out.append(s // itemsize)
    return tuple(out)


_TORCH_DTYPES = {
    "torch.float16": np.dtype(np.float16), "torch.bfloat16": dtypes.bfloat16,
    "torch.float32": np.dtype(np.float32), "torch.float64": np.dtype(np.float64),
    "torch.int8": np.dtype(np.int8), "torch.int16": np.dtype(np.int16), "torch.int32": np.dtype(np.int32),
    "torch.int64": np.dtype(np.int64), "torch.uint8": np.dtype(np.uint8), "torch.uint16": np.dtype(np.uint16),
    "torch.uint32": np.dtype(np.uint32), "torch.uint64": np.dtype(np.uint64), "torch.bool": np.dtype(np.bool_),
    "torch.complex64": np.dtype(np.complex64), "torch.complex128": np.dtype(np.complex128),
}


def _torch_view(obj):
    """A torch tensor read through its own accessors: much cheaper than building
    __cuda_array_interface__ or a DLPack capsule on every call (torch is not
    imported: the tensor's methods are enough). None when it does not apply."""
    dtype = _TORCH_DTYPES.get(str(obj.dtype))
    device = obj.device
    if dtype is None or device.type not in ("cuda", "cpu"):
        return None
    where = "nvidia" if device.type == "cuda" else "cpu"
    index = device.index if device.index is not None else 0
    return ArrayView(obj.data_ptr(), tuple(obj.shape), tuple(obj.stride()), dtype, where, index, obj)


def _device_of(obj, ptr: int) -> int:
    """The device that owns a CAI array: from the array when it says (cupy's
    `.device.id`), else asked of the driver."""
    dev_id = getattr(getattr(obj, "device", None), "id", None)
    if isinstance(dev_id, int):
        return dev_id
    return _cuda.pointer_device(ptr) if ptr else 0


def as_view(obj, *, writable: bool = False) -> ArrayView:
    """The pointer, layout and device of an array, without copying it.

    NumPy arrays (and anything np.asarray takes) are CPU arrays; DeviceArray
    and objects speaking __cuda_array_interface__ or __dlpack__ with a CUDA
    device are NVIDIA arrays. Raises TypeError for objects that are neither.
    """
    if isinstance(obj, DeviceArray):
        return ArrayView(obj.ptr, obj.shape, obj.strides, obj.dtype, "nvidia", obj.device_id, obj)
    if type(obj).__module__.startswith("torch") and hasattr(obj, "data_ptr"):
        view = _torch_view(obj)
        if view is not None:
            return view
    if isinstance(obj, np.ndarray) or not (hasattr(obj, "__cuda_array_interface__") or hasattr(obj, "__dlpack__")):
        arr = obj if isinstance(obj, np.ndarray) else np.asarray(obj)
        if writable and not arr.flags.writeable:
            raise ValueError("the output array is read-only")
        strides = _element_strides(arr.strides, arr.itemsize, "NumPy array")
        return ArrayView(arr.__array_interface__["data"][0], arr.shape, strides, arr.dtype, "cpu", 0, arr)
    cai = None
    try:
        cai = obj.__cuda_array_interface__
    except (AttributeError, TypeError, BufferError, RuntimeError):
        cai = None  # torch refuses BF16 here: DLPack below takes it
    if cai is not None and np.dtype(cai["typestr"]).kind == "V" and hasattr(obj, "__dlpack__"):
        cai = None  # an anonymous "<V2" (torch's BF16): only DLPack says what it is
    if cai is not None:
        dtype = np.dtype(cai["typestr"])
        shape = tuple(cai["shape"])
        strides = (contiguous_strides(shape) if cai.get("strides") is None
                   else _element_strides(cai["strides"], dtype.itemsize, type(obj).__name__))
        ptr = int(cai["data"][0])
        device_id = _device_of(obj, ptr)
        return ArrayView(ptr, shape, strides, dtype, "nvidia", device_id, obj)
    info = _dlpack.read(obj)
    device = {_dlpack.KDL_CPU: "cpu", _dlpack.KDL_CUDA: "nvidia"}.get(info.device_type)
    if device is None:
        raise TypeError(f"{type(obj).__name__} lives on DLPack device type {info.device_type}; "
                        "only CPU and CUDA memory are supported")
    return ArrayView(info.ptr, info.shape, info.strides, info.dtype, device, info.device_id, obj)


def empty_like(view: ArrayView, shape: Sequence[int], dtype=None, stream=None):
    """A new contiguous array of the same kind as `view.obj` (NumPy, torch,
    cupy or DeviceArray) on the same device."""
    dtype = view.dtype if dtype is None else np.dtype(dtype)
    shape = tuple(shape)
    if view.device == "cpu":
        return np.empty(shape, dtype)
    module = type(view.obj).__module__.split(".")[0]
    if module == "torch" and dtype == view.dtype:
        return view.obj.new_empty(shape)
    if module == "cupy" and "cupy" in sys.modules and dtype != dtypes.bfloat16:
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(view.device_id):
            return cupy.empty(shape, dtype)
    return DeviceArray.empty(shape, dtype, view.device_id, stream)


# ---- the hot path: what a cached call needs of an array, as cheaply as each library allows ----
#
# probe(obj) -> (pointer, layout, place): the address (an int, or for NumPy arrays a
# cdata: their buffer's, cheaper to get than an int), a hashable layout in the
# array's own terms (NumPy: byte strides and np.dtype; torch: element strides and
# torch.dtype), and the place: an int, CPU (-1) or the NVIDIA device's id (what torch's
# get_device() says). Nothing is validated here: a layout seen for the first time
# misses the descriptor cache, and the slow path (as_view, TensorDescriptor) checks it.

from ._ffi import ffi as _ffi_mod  # noqa: E402

_from_buffer = _ffi_mod.from_buffer
_cast = _ffi_mod.cast
_VOID_P = _ffi_mod.typeof("void *")
NDARRAY = np.ndarray
CPU = -1


class _NotSeenYet:
    """Stands for torch's Tensor class until a tensor is seen (torch is never imported here)."""


_torch_type = _NotSeenYet
_torch_listeners = []


def torch_type():
    """torch.Tensor once a tensor has been seen, else a class nothing is an instance of."""
    return _torch_type


def _register_torch(kind) -> None:
    global _torch_type
    _torch_type = kind
    for callback in _torch_listeners:
        callback(kind)


def on_torch(callback) -> None:
    """Call `callback(torch.Tensor)` when the first torch tensor is seen (now, when
    torch was imported first)."""
    _torch_listeners.append(callback)
    if _torch_type is _NotSeenYet and isinstance(getattr(sys.modules.get("torch"), "Tensor", None), type):
        _probe_for(sys.modules["torch"].Tensor)
    if _torch_type is not _NotSeenYet:
        callback(_torch_type)


def _numpy_pointer(arr, writable: bool = False):
    flags = arr.flags
    if writable and not flags.writeable:
        raise ValueError("the output array is read-only")
    if flags.c_contiguous:  # the buffer protocol hands over the data pointer itself
        return _from_buffer(arr)
    if flags.f_contiguous:  # its transpose starts at the same address and is C-contiguous
        return _from_buffer(arr.T)
    return _cast(_VOID_P, arr.__array_interface__["data"][0])


def numpy_pointer(arr, writable: bool = False):
    """The `void *` of a NumPy array's first element (ValueError for a read-only output)."""
    return _numpy_pointer(arr, writable)


def _probe_numpy(arr, writable: bool):
    return _numpy_pointer(arr, writable), (arr.shape, arr.strides, arr.dtype), CPU


def _probe_torch(t, writable: bool):
    if t.is_cuda:
        place = t.get_device()
    elif t.device.type == "cpu":
        place = CPU
    else:
        return _probe_any(t, writable)
    return t.data_ptr(), (t.shape, t.stride(), t.dtype), place


def _probe_device_array(d, writable: bool):
    return d._ptr, (d.shape, d.strides, d.dtype), d.device_id


def _probe_any(obj, writable: bool):
    view = as_view(obj, writable=writable)
    if view.device == "cpu" and isinstance(view.obj, NDARRAY):
        # (np.asarray may have made a new array: the cdata keeps it alive through the call)
        return _numpy_pointer(view.obj), view.layout, CPU
    return view.ptr, view.layout, (CPU if view.device == "cpu" else view.device_id)


_PROBES = {NDARRAY: _probe_numpy, DeviceArray: _probe_device_array}


def _probe_for(kind):
    """The probe for a type not seen before (torch's Tensor is recognised by name:
    torch is never imported here)."""
    if kind.__module__.startswith("torch") and hasattr(kind, "data_ptr"):
        probe_fn = _probe_torch
        if kind.__module__ == "torch" and kind.__name__ == "Tensor" and _torch_type is _NotSeenYet:
            _register_torch(kind)
    elif issubclass(kind, NDARRAY):
        probe_fn = _probe_numpy
    else:
        return _probe_any  # not cached: anything np.asarray takes lands here
    _PROBES[kind] = probe_fn
    return probe_fn


def probe(obj, writable: bool = False):
    """(pointer, layout key, place) of an array; see above."""
    if type(obj) is NDARRAY:  # the CPU's common case, inline: a call less
        flags = obj.flags
        if flags.c_contiguous and (flags.writeable or not writable):
            return _from_buffer(obj), (obj.shape, obj.strides, obj.dtype), CPU
        return _numpy_pointer(obj, writable), (obj.shape, obj.strides, obj.dtype), CPU
    fn = _PROBES.get(type(obj))
    if fn is None:
        fn = _probe_for(type(obj))
    return fn(obj, writable)


def _address_torch(t, writable: bool):
    return t.data_ptr()


def _address_device_array(d, writable: bool):
    return d._ptr


_ADDRESSES = {DeviceArray: _address_device_array}


def pointer(obj, writable: bool = False):
    """An int address as is, or an array's first element (an int, or a cdata for
    NumPy): what a descriptor call needs (no layout, no device)."""
    kind = type(obj)
    if kind is int:
        return obj
    if kind is NDARRAY:
        return _numpy_pointer(obj, writable)
    fn = _ADDRESSES.get(kind)
    if fn is not None:
        return fn(obj, writable)
    if _PROBES.get(kind) is _probe_torch or (kind not in _PROBES and _probe_for(kind) is _probe_torch):
        _ADDRESSES[kind] = _address_torch
        return _address_torch(obj, writable)
    return probe(obj, writable)[0]


def is_torch(obj) -> bool:
    """Whether `obj` is a torch tensor (recognised as probe does, without importing torch)."""
    kind = type(obj)
    fn = _PROBES.get(kind)
    if fn is None and kind is not int:
        fn = _probe_for(kind)
    return fn is _probe_torch
