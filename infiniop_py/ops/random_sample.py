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

import sys
import threading
from typing import Union

import numpy as np

from .. import _cuda
from .._arrays import CPU, NDARRAY, as_view, empty_like, pointer, probe, torch_type
from .._ffi import ffi
from ..handle import Handle
from ..tensor import TensorDescriptor
from ._base import OperatorDescriptor, call_slow, functional
from ._calculate import register, stream_int

__all__ = ["RandomSample", "RandomSampleBatch", "random_sample", "random_sample_batch"]

register("RandomSample", "infiniopRandomSample", (
    ("workspace", "workspace"), ("result", "out"), ("probs", "in"), ("random_val", "float"), ("topp", "float"),
    ("topk", "int"), ("temperature", "float")), cdef="""
typedef struct InfiniopDescriptor *infiniopRandomSampleDescriptor_t;
infiniStatus_t infiniopCreateRandomSampleDescriptor(infiniopHandle_t handle,
                                                    infiniopRandomSampleDescriptor_t *desc_ptr,
                                                    infiniopTensorDescriptor_t result,
                                                    infiniopTensorDescriptor_t probs);
infiniStatus_t infiniopGetRandomSampleWorkspaceSize(infiniopRandomSampleDescriptor_t desc, size_t *size);
infiniStatus_t infiniopRandomSample(infiniopRandomSampleDescriptor_t desc, void *workspace, size_t workspace_size,
                                    void *result, const void *probs, float random_val, float topp, int topk,
                                    float temperature, void *stream);
infiniStatus_t infiniopDestroyRandomSampleDescriptor(infiniopRandomSampleDescriptor_t desc);
""")

# (ours) The batch form: bound only when the library has it.
register("RandomSampleBatch", "infiniopRandomSampleBatch", (
    ("workspace", "workspace"), ("result", "out"), ("probs", "in"), ("random_val", "float[]"), ("topp", "float[]"),
    ("topk", "int[]"), ("temperature", "float[]"), ("batch_size", "batch")), cdef="""
infiniStatus_t infiniopCreateRandomSampleBatchDescriptor(infiniopHandle_t handle,
                                                         infiniopRandomSampleDescriptor_t *desc_ptr,
                                                         infiniopTensorDescriptor_t result,
                                                         infiniopTensorDescriptor_t probs);
infiniStatus_t infiniopRandomSampleBatch(infiniopRandomSampleDescriptor_t desc, void *workspace,
                                         size_t workspace_size, void *result, const void *probs,
                                         const float *random_val, const float *topp, const int *topk,
                                         const float *temperature, int batch_size, void *stream);
""")

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


def _device_scalar(logits, device_id: int, stream_ptr: int):
    """This thread's 0-d int64 array on a device, for a result that goes back to the
    host: a torch tensor beside torch logits (so that the call takes the torch path),
    else a DeviceArray."""
    cache = getattr(_local, "scalars", None)
    if cache is None:
        cache = _local.scalars = {}
    torch_logits = type(logits) is torch_type()
    buf = cache.get((torch_logits, device_id))
    if buf is None:
        if torch_logits:
            buf = logits.new_empty((), dtype=sys.modules["torch"].int64)
        else:
            from ..device_array import DeviceArray

            buf = DeviceArray.empty((), _I64, device_id, stream_ptr or None)
        cache[(torch_logits, device_id)] = buf
    return buf


def _to_host_int(device_id: int, device_ptr: int, stream_ptr: int) -> int:
    """The int64 at a device address, read after the work queued on the stream."""
    pinned = getattr(_local, "pinned", None)
    if pinned is None:
        pinned = _local.pinned = _PinnedScalar(device_id)
    drv = _cuda.driver()
    _cuda.check_cu(drv.cuMemcpyDtoHAsync(pinned.address, device_ptr, 8, stream_ptr), "cuMemcpyDtoHAsync")
    _cuda.check_cu(drv.cuStreamSynchronize(stream_ptr), "cuStreamSynchronize")
    return int(pinned.value[0])


def _check_places(op: str, result, logits) -> None:
    """ValueError when the result and the logits live on different devices (the slow path's check)."""
    vx = as_view(logits)
    vr = as_view(result, writable=True)
    if (vr.device, vr.device_id) != (vx.device, vx.device_id):
        raise ValueError(f"{op}: out is on {vr.device}:{vr.device_id}, logits on {vx.device}:{vx.device_id}")


_run = functional("RandomSample", "random_sample")
_run_batch = functional("RandomSampleBatch", "random_sample_batch")


def random_sample(logits, random_val: float, topp: float, topk: int, temperature: float, out=None, *,
                  stream=None) -> Union[int, object]:
    """Sample one index from a 1-d row of logits (NumPy on the CPU; DeviceArray,
    torch or cupy on NVIDIA) and return it as a Python int.

    With `out` (a 0-d integer array on the logits' device) the index is written
    there and `out` is returned; on NVIDIA that call stays asynchronous on
    `stream`. Descriptors are cached by layout.
    """
    if out is not None:
        target = out
    elif type(logits) is NDARRAY:
        target = np.empty((), np.int64)
    else:
        place = probe(logits)[2]
        target = np.empty((), np.int64) if place == CPU else _device_scalar(logits, place, stream_int(stream))
    key = _run(stream, (), target, logits, random_val, topp, topk, temperature)
    if key is not None:
        _check_places("random_sample", target, logits)
        call_slow(_run, key, "random_sample", RandomSample, {"result": target, "logits": logits},
                  ("result", "logits"), stream, (), target, logits, random_val, topp, topk, temperature)
    if out is not None:
        return out
    if type(target) is NDARRAY:
        return int(target)
    return _to_host_int(place, pointer(target), stream_int(stream))


def random_sample_batch(logits, random_val, topp, topk, temperature, out=None, *, stream=None):
    """(ours) Sample one index per row of 2-d logits [B, n] with per-row
    parameters (sequences or arrays of B values, or scalars for every row;
    float32 / int32 NumPy arrays are passed without a copy).

    Without `out`, returns a NumPy int64 array of B indices (on NVIDIA the call
    waits for the result). With `out` (a [B] integer array on the logits'
    device) the indices are written there and `out` is returned, asynchronously
    on NVIDIA.
    """
    target = out
    if target is None:
        view = _batch_view(logits)
        rows = view.shape[0]
        target = empty_like(view, (rows,), np.int64, stream=stream_int(stream) or None)
    key = _run_batch(stream, (), target, logits, random_val, topp, topk, temperature)
    if key is not None:
        _batch_view(logits)
        _check_places("random_sample_batch", target, logits)
        call_slow(_run_batch, key, "random_sample_batch", RandomSampleBatch, {"result": target, "logits": logits},
                  ("result", "logits"), stream, (), target, logits, random_val, topp, topk, temperature)
    if out is not None or type(target) is NDARRAY:
        return target
    host = np.empty(rows, np.int64)  # target is a device array here (no len())
    if rows:
        _cuda.memcpy(host.ctypes.data, pointer(target), host.nbytes, stream_int(stream))
    return host


def _batch_view(logits):
    view = as_view(logits)
    if len(view.shape) != 2:
        raise ValueError(f"random_sample_batch: logits must be 2-d [B, n], got shape {view.shape}")
    return view
