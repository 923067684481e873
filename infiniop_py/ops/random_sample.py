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
from typing import Union

import numpy as np

from .. import _cuda
from .._arrays import CPU, as_view, empty_like, probe
from .._ffi import ffi
from ..handle import Handle
from ..tensor import TensorDescriptor
from ._base import OperatorDescriptor, descriptor_cache, new_descriptor
from ._calculate import batch_size, floats, ints, param_array, stream_int

__all__ = ["RandomSample", "RandomSampleBatch", "random_sample", "random_sample_batch"]

_F32, _I32, _I64 = np.dtype(np.float32), np.dtype(np.int32), np.dtype(np.int64)


def _descriptor(x) -> TensorDescriptor:
    return x if isinstance(x, TensorDescriptor) else TensorDescriptor.from_array(x)


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
    _call_doc = """Write the sampled index (SPEC §4: argmax when random_val == 0, topp <= 0, topk == 1 or
        temperature <= 0; else the first position of the descending order whose cumulative
        weight reaches random_val * min(topp * total, top-K mass)) into `result` on `stream`.
        Raises BadParam for random_val outside [0, 1) or NaN parameters, InsufficientWorkspace."""

    def __init__(self, handle: Handle, result, probs):
        super().__init__(handle, {"result": _descriptor(result), "probs": _descriptor(probs)})


class RandomSampleBatch(RandomSample):
    """(ours) The batch form: result [B] (integer dtype), probs [B, n] (row
    stride >= n, column stride 1). desc(result, probs, random_val, topp, topk,
    temperature, ...) takes sequences (or NumPy arrays) of B parameters, or
    scalars used for every row."""

    _create_name = "infiniopCreateRandomSampleBatchDescriptor"
    _call_doc = """Sample row b with (random_val[b], topp[b], topk[b], temperature[b]) into result[b];
        each parameter is a sequence of B values (float32 / int32 NumPy arrays pass without a copy)
        or one value for every row. Raises BadParam when the sequences' length is not B."""

    def __init__(self, handle: Handle, result, probs):
        probs = _descriptor(probs)
        self.rows = probs.shape[0] if len(probs.shape) == 2 else 0
        super().__init__(handle, result, probs)


_local = threading.local()


class _PinnedScalar:
    """8 bytes of page-locked host memory (portable across devices) that a
    result is copied into: one small copy on the stream, then a read."""

    def __init__(self, device_id: int):
        _cuda.device(device_id)  # a context must be current (DeviceArray.empty does the same)
        drv = _cuda.driver()
        self.address = _cuda.check_cu(drv.cuMemHostAlloc(8, 1), "cuMemHostAlloc")  # 1: CU_MEMHOSTALLOC_PORTABLE
        self.value = ffi.cast("int64_t *", self.address)

    def __del__(self):
        try:
            _cuda.driver().cuMemFreeHost(self.address)
        except Exception:  # interpreter shutdown: the process releases it
            pass


def _device_scalar(device_id: int, stream_ptr: int):
    """This thread's 0-d device buffer for a result that goes back to the host (a pointer, layout, place)."""
    cache = getattr(_local, "scalars", None)
    if cache is None:
        cache = _local.scalars = {}
    probed = cache.get(device_id)
    if probed is None:
        from ..device_array import DeviceArray

        buf = DeviceArray.empty((), _I64, device_id, stream_ptr or None)
        probed = cache[device_id] = (buf,) + probe(buf)
    return probed


def _to_host_int(device_id: int, device_ptr: int, stream_ptr: int) -> int:
    """The int64 at a device address, read after the work queued on the stream."""
    pinned = getattr(_local, "pinned", None)
    if pinned is None:
        pinned = _local.pinned = _PinnedScalar(device_id)
    drv = _cuda.driver()
    _cuda.check_cu(drv.cuMemcpyDtoHAsync(pinned.address, device_ptr, 8, stream_ptr), "cuMemcpyDtoHAsync")
    _cuda.check_cu(drv.cuStreamSynchronize(stream_ptr), "cuStreamSynchronize")
    return int(pinned.value[0])


def random_sample(logits, random_val: float, topp: float, topk: int, temperature: float, out=None, *,
                  stream=None) -> Union[int, object]:
    """Sample one index from a 1-d row of logits (NumPy on the CPU; DeviceArray,
    torch or cupy on NVIDIA) and return it as a Python int.

    With `out` (a 0-d integer array on the logits' device) the index is written
    there and `out` is returned; on NVIDIA that call stays asynchronous on
    `stream`. Descriptors are cached by layout.
    """
    px, lx, dx = probe(logits)
    if out is not None:
        pr, lr, dr = probe(out, True)
    elif dx is CPU:
        target = np.empty((), np.int64)
        pr, lr, dr = probe(target, True)
    else:
        _, pr, lr, dr = _device_scalar(dx[1], stream_int(stream))
    if dr != dx:
        raise ValueError(f"random_sample: out is on {dr[0]}:{dr[1]}, logits on {dx[0]}:{dx[1]}")
    key = ("random_sample", dx, lr, lx)
    desc = descriptor_cache().get(key)
    if desc is None:
        result = out if out is not None else (target if dx is CPU else _device_scalar(dx[1], 0)[0])
        desc = new_descriptor(key, "random_sample", RandomSample, {"result": result, "logits": logits},
                              ("result", "logits"))
    rv = random_val if type(random_val) is float else float(random_val)
    tp = topp if type(topp) is float else float(topp)
    tk = topk if type(topk) is int else int(topk)
    tt = temperature if type(temperature) is float else float(temperature)
    status = desc._raw(stream, pr, px, rv, tp, tk, tt)
    if status:
        desc._failed(status, {"random_val": random_val, "topp": topp, "topk": topk, "temperature": temperature})
    if out is not None:
        return out
    if dx is CPU:
        return int(target)
    return _to_host_int(dx[1], int(ffi.cast("uintptr_t", pr)), stream_int(stream))


def random_sample_batch(logits, random_val, topp, topk, temperature, out=None, *, stream=None):
    """(ours) Sample one index per row of 2-d logits [B, n] with per-row
    parameters (sequences or arrays of B values, or scalars for every row;
    float32 / int32 NumPy arrays are passed without a copy).

    Without `out`, returns a NumPy int64 array of B indices (on NVIDIA the call
    waits for the result). With `out` (a [B] integer array on the logits'
    device) the indices are written there and `out` is returned, asynchronously
    on NVIDIA.
    """
    px, lx, dx = probe(logits)
    if len(lx[0]) != 2:
        raise ValueError(f"random_sample_batch: logits must be 2-d [B, n], got shape {as_view(logits).shape}")
    target = out if out is not None else empty_like(as_view(logits), (lx[0][0],), np.int64,
                                                    stream=stream_int(stream) or None)
    pr, lr, dr = probe(target, True)
    if dr != dx:
        raise ValueError(f"random_sample_batch: out is on {dr[0]}:{dr[1]}, logits on {dx[0]}:{dx[1]}")
    key = ("random_sample_batch", dx, lr, lx)
    desc = descriptor_cache().get(key)
    if desc is None:
        desc = new_descriptor(key, "random_sample_batch", RandomSampleBatch, {"result": target, "logits": logits},
                              ("result", "logits"))
    batch = batch_size(desc.rows, random_val, topp, topk, temperature)
    rv, tp = param_array(random_val, _F32, batch), param_array(topp, _F32, batch)
    tk, tt = param_array(topk, _I32, batch), param_array(temperature, _F32, batch)
    status = desc._raw(stream, pr, px, floats(rv), floats(tp), ints(tk), floats(tt), batch)
    if status:
        desc._failed(status, {"random_val": random_val, "topp": topp, "topk": topk, "temperature": temperature,
                              "batch_size": batch})
    if out is not None:
        return out
    if dx is CPU:
        return target
    host = np.empty(batch, np.int64)
    if batch:
        _cuda.memcpy(host.ctypes.data, int(ffi.cast("uintptr_t", pr)), host.nbytes, stream_int(stream))
    return host
