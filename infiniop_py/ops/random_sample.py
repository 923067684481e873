"""RandomSample: one token id from a row of logits (SPEC §4), and (ours) a batch of rows.

Deterministic given `random_val` in [0, 1): the argmax (lowest index among
equals) when random_val == 0, topp <= 0, topk == 1 or temperature <= 0;
otherwise the logits in descending order (ties: lower index first), weights
w_i = exp((v_i - v_0) / temperature), cumulative sums c_i, K = min(topk, n)
(topk <= 0: no limit), topp above 1 counts as 1, threshold
t = random_val * min(topp * c_{n-1}, c_{K-1}), and the original index of the
first position with c_i >= t.

Non-finite logits (ours): -inf is never sampled; NaN sorts below -inf and is
never sampled either; a row whose largest logit is +inf, or that has no finite
logit, gives its argmax (the first +inf; the first -inf of an all--inf/NaN row;
0 when every logit is NaN).
"""
from __future__ import annotations

import threading
from typing import Optional, Union

import numpy as np

from .. import _cuda
from .._arrays import as_view, empty_like
from .._ffi import ffi
from .._streams import stream_pointer
from ..device_array import DeviceArray
from ..handle import Handle
from ..tensor import TensorDescriptor
from ..workspace import Workspace
from ._base import OperatorDescriptor, cached_descriptor, default_handle, descriptor_key, void_p

__all__ = ["RandomSample", "RandomSampleBatch", "random_sample", "random_sample_batch"]

def _descriptor(x) -> TensorDescriptor:
    return x if isinstance(x, TensorDescriptor) else TensorDescriptor.from_array(x)


def _address(array, writable: bool = False) -> int:
    if isinstance(array, int):
        return array
    return as_view(array, writable=writable).ptr


class RandomSample(OperatorDescriptor):
    """An infiniopRandomSampleDescriptor_t for a result (0-d, integer dtype)
    and a probs layout (1-d logits, stride 1, F16/BF16/F32/F64).

    RandomSample(handle, result, probs) takes TensorDescriptors or arrays
    (their layouts are used). desc(result, probs, random_val, topp, topk,
    temperature, workspace=None, stream=None) writes the sampled index into
    `result` (an array or raw address); on NVIDIA the call is asynchronous on
    `stream`.
    """

    _create_name = "infiniopCreateRandomSampleDescriptor"
    _destroy_name = "infiniopDestroyRandomSampleDescriptor"
    _workspace_name = "infiniopGetRandomSampleWorkspaceSize"

    def __init__(self, handle: Handle, result, probs):
        super().__init__(handle, {"result": _descriptor(result), "probs": _descriptor(probs)})

    def __call__(self, result, probs, random_val: float, topp: float, topk: int, temperature: float, *,
                 workspace: Optional[Workspace] = None, stream=None) -> None:
        """Write the sampled index (SPEC §4: argmax when random_val == 0, topp <= 0, topk == 1 or
        temperature <= 0; else the first position of the descending order whose cumulative
        weight reaches random_val * min(topp * total, top-K mass)) into `result` on `stream`.
        Raises BadParam for random_val outside [0, 1) or NaN parameters, InsufficientWorkspace."""
        sp = stream_pointer(stream)
        ws_ptr, ws_size = self._workspace_args(workspace, sp)
        self._run("infiniopRandomSample", ws_ptr, ws_size, void_p(_address(result, True)), void_p(_address(probs)),
                  float(random_val), float(topp), int(topk), float(temperature), void_p(sp),
                  call_params=f"random_val={random_val!r}, topp={topp!r}, topk={topk!r}, temperature={temperature!r}")


class RandomSampleBatch(RandomSample):
    """(ours) The batch form: result [B] (integer dtype), probs [B, n] (row
    stride >= n, column stride 1). desc(result, probs, random_val, topp, topk,
    temperature, ...) takes sequences (or NumPy arrays) of B parameters, or
    scalars used for every row."""

    _create_name = "infiniopCreateRandomSampleBatchDescriptor"

    def __init__(self, handle: Handle, result, probs):
        probs = _descriptor(probs)
        self.rows = probs.shape[0] if len(probs.shape) == 2 else 0
        super().__init__(handle, result, probs)

    def __call__(self, result, probs, random_val, topp, topk, temperature, *,
                 workspace: Optional[Workspace] = None, stream=None) -> None:
        """Sample row b with (random_val[b], topp[b], topk[b], temperature[b]) into result[b];
        each parameter is a sequence of B values or one value for every row. Raises BadParam when
        the sequences' length is not B."""
        sp = stream_pointer(stream)
        ws_ptr, ws_size = self._workspace_args(workspace, sp)
        batch = self._batch_size(self.rows, random_val, topp, topk, temperature)
        rv, tp, tk, tt = (_param_array(random_val, np.float32, batch), _param_array(topp, np.float32, batch),
                          _param_array(topk, np.int32, batch), _param_array(temperature, np.float32, batch))
        self._run("infiniopRandomSampleBatch", ws_ptr, ws_size, void_p(_address(result, True)),
                  void_p(_address(probs)), ffi.cast("const float *", rv.ctypes.data),
                  ffi.cast("const float *", tp.ctypes.data), ffi.cast("const int *", tk.ctypes.data),
                  ffi.cast("const float *", tt.ctypes.data), batch, void_p(sp),
                  call_params=f"random_val={rv.tolist()}, topp={tp.tolist()}, topk={tk.tolist()}, "
                              f"temperature={tt.tolist()}, batch_size={batch}")

    @staticmethod
    def _batch_size(rows: int, *params) -> int:
        """The sequences' common length (the C call checks it against B), or B for scalars."""
        sizes = {len(p) for p in params if np.ndim(p) > 0}
        if len(sizes) > 1:
            raise ValueError(f"RandomSampleBatch: parameter sequences of different lengths {sorted(sizes)}")
        return sizes.pop() if sizes else rows


def _param_array(value, dtype, batch: int) -> np.ndarray:
    arr = np.asarray(value, dtype=dtype)  # (np.ascontiguousarray would make a scalar 1-d)
    if arr.ndim == 0:
        arr = np.full(batch, arr, dtype=dtype)
    return np.ascontiguousarray(arr.reshape(-1))


_local = threading.local()


def _device_scalar(device_id: int, dtype: np.dtype, stream_ptr: int) -> DeviceArray:
    """This thread's 0-d device buffer for a result that goes back to the host."""
    cache = getattr(_local, "scalars", None)
    if cache is None:
        cache = _local.scalars = {}
    key = (device_id, dtype.str)
    buf = cache.get(key)
    if buf is None:
        buf = cache[key] = DeviceArray.empty((), dtype, device_id, stream_ptr or None)
    return buf


def random_sample(logits, random_val: float, topp: float, topk: int, temperature: float, out=None, *,
                  stream=None) -> Union[int, object]:
    """Sample one index from a 1-d row of logits (NumPy on the CPU; DeviceArray,
    torch or cupy on NVIDIA) and return it as a Python int.

    With `out` (a 0-d integer array on the logits' device) the index is written
    there and `out` is returned; on NVIDIA that call stays asynchronous on
    `stream`. Descriptors are cached by layout.
    """
    x = as_view(logits)
    dev = (x.device, x.device_id)
    sp = stream_pointer(stream)
    if out is not None:
        target = out
    elif x.device == "cpu":
        target = np.empty((), np.int64)
    else:
        target = _device_scalar(x.device_id, np.dtype(np.int64), sp)
    r = as_view(target, writable=True)
    if (r.device, r.device_id) != dev:
        raise ValueError(f"random_sample: out is on {r.device}:{r.device_id}, logits on {x.device}:{x.device_id}")
    key = descriptor_key("random_sample", dev, r, x)
    desc = cached_descriptor(key, lambda: RandomSample(default_handle(*dev), TensorDescriptor(r.shape, r.strides, r.dtype),
                                                       TensorDescriptor(x.shape, x.strides, x.dtype)))
    desc(r.ptr, x.ptr, random_val, topp, topk, temperature, stream=sp)
    if out is not None:
        return out
    if x.device == "cpu":
        return int(target)
    host = np.empty((), np.int64)
    _cuda.memcpy(host.__array_interface__["data"][0], r.ptr, 8, sp)
    return int(host)


def random_sample_batch(logits, random_val, topp, topk, temperature, out=None, *, stream=None):
    """(ours) Sample one index per row of 2-d logits [B, n] with per-row
    parameters (sequences or arrays of B values, or scalars for every row).

    Without `out`, returns a NumPy int64 array of B indices (on NVIDIA the call
    waits for the result). With `out` (a [B] integer array on the logits'
    device) the indices are written there and `out` is returned, asynchronously
    on NVIDIA.
    """
    x = as_view(logits)
    if len(x.shape) != 2:
        raise ValueError(f"random_sample_batch: logits must be 2-d [B, n], got shape {x.shape}")
    dev = (x.device, x.device_id)
    sp = stream_pointer(stream)
    target = out if out is not None else empty_like(x, (x.shape[0],), np.int64, stream=sp or None)
    r = as_view(target, writable=True)
    if (r.device, r.device_id) != dev:
        raise ValueError(f"random_sample_batch: out is on {r.device}:{r.device_id}, logits on {x.device}:{x.device_id}")
    key = descriptor_key("random_sample_batch", dev, r, x)
    desc = cached_descriptor(key, lambda: RandomSampleBatch(default_handle(*dev),
                                                            TensorDescriptor(r.shape, r.strides, r.dtype),
                                                            TensorDescriptor(x.shape, x.strides, x.dtype)))
    batch = x.shape[0]
    desc(r.ptr, x.ptr, random_val, topp, topk, temperature, stream=sp)
    if out is not None:
        return out
    if x.device == "cpu":
        return target
    host = np.empty(batch, np.int64)
    if batch:
        _cuda.memcpy(host.__array_interface__["data"][0], r.ptr, host.nbytes, sp)
    return host
