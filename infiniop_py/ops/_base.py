"""What the four operators share: the descriptor base class, and the caches
behind the functional API (handles, descriptors by layout, workspaces)."""
from __future__ import annotations

import threading
from typing import Any, Callable, Dict, Hashable, Optional, Tuple

from .._arrays import ArrayView
from .._ffi import ffi, lib
from .._owned import CObject
from ..errors import check
from ..handle import Handle
from ..tensor import TensorDescriptor
from ..workspace import Workspace
from ._calculate import CALCULATE, describe_params, int_function, make_call, make_run, note_gpu_count


class OperatorDescriptor(CObject):
    """Base of every operator descriptor: creates the C descriptor (checked),
    knows its workspace size, keeps its Handle alive, releases exactly once.

    Subclasses set `_create_name`, `_destroy_name`, optionally
    `_workspace_name`, and call `super().__init__(handle, tensors, params)`
    with the tensor descriptors in the C call's order.
    """

    _create_name: str = ""
    _workspace_name: Optional[str] = None
    _c_function = None  # the Calculate, bound at __init__ (the library loads on first use)

    def __init_subclass__(cls, **kwargs):
        """A class with a row in ops/_calculate.py's table (registered by its module)
        gets its Calculate call written from the row."""
        super().__init_subclass__(**kwargs)
        row = CALCULATE.get(cls.__name__)
        if row is not None and "__call__" not in cls.__dict__:
            cls._calculate_row = row
            cls.__call__ = make_call(cls.__name__, "_pointer" in cls.__dict__)
            cls.__call__.__doc__ = cls.__dict__.get("_call_doc")

    def __init__(self, handle: Handle, tensors: Dict[str, TensorDescriptor], params: Tuple = (),
                 param_names: Tuple[str, ...] = ()):
        self.handle = handle
        self._on_gpu = handle.device == "nvidia"  # (the generated calls' torch branch asks)
        self._described = ", ".join([f"{name}={t.describe()}" for name, t in tensors.items()] +
                                    [f"{n}={v!r}" for n, v in zip(param_names, params)])
        raw = ffi.new("struct InfiniopDescriptor **")
        status = getattr(lib, self._create_name)(handle.ptr, raw, *(t.ptr for t in tensors.values()), *params)
        check(status, self._create_name, self._context)
        self._own(raw[0])
        self.workspace_size = 0
        if self._workspace_name:
            size = ffi.new("size_t *")
            check(getattr(lib, self._workspace_name)(self.ptr, size), self._workspace_name, self._context)
            self.workspace_size = size[0]
        row = getattr(self, "_calculate_row", None)
        if row is not None:
            self._c_function = getattr(lib, row[0])
            self._c_int = int_function(row[0])

    @property
    def device(self) -> str:
        return self.handle.device

    @property
    def device_id(self) -> int:
        return self.handle.device_id

    def _context(self) -> str:
        return f"{type(self).__name__} on {self.handle.device}:{self.handle.device_id} with {self._described}"

    def _workspace_args(self, workspace: Optional[Workspace], stream_ptr: int):
        """(pointer, size) of the given workspace, or of a cached one of the right size."""
        if workspace is None:
            if self.workspace_size == 0:
                return ffi.NULL, 0
            workspace = workspace_for(self.device, self.device_id, self.workspace_size, stream_ptr)
        return workspace.cdata, workspace.size

    _workspace_memo = (None, -1, None, 0, None)  # (stream, WORKSPACES_MADE[0], cdata, size, the Workspace)

    def _remember_workspace(self, stream_ptr: int):
        """(pointer, size) of this thread's workspace for the stream, remembered by the
        descriptor until the stream changes or any new workspace is made (the functional
        API's descriptors belong to one thread)."""
        ws = workspace_for(self.device, self.device_id, self.workspace_size, stream_ptr)
        self._workspace_memo = (stream_ptr, WORKSPACES_MADE[0], ws.cdata, ws.size, ws)
        return ws.cdata, ws.size

    def _failed(self, status: int, values: Optional[dict]) -> None:
        """Raise for a failed Calculate: the descriptor's context, and the call's
        scalar values when it has some (built only now)."""
        function, args = self._calculate_row

        def context() -> str:
            if not values:
                return self._context()
            names = [n for n, _ in args if n in values]
            kinds = [k for n, k in args if n in values]
            return self._context() + "; called with " + describe_params(names, kinds, values)

        check(status, function, context)

    def __repr__(self) -> str:
        state = "closed" if self.closed else self._context()
        return f"<{type(self).__name__} {state}>"


# ---- caches behind the functional API (per thread: no locks on the hot path,
# and no workspace shared between threads) ----

_local = threading.local()
_MAX_CACHED_DESCRIPTORS = 256


def _cache(name: str) -> Any:
    value = getattr(_local, name, None)
    if value is None:
        value = {}
        setattr(_local, name, value)
    return value


def descriptor_cache() -> dict:
    """This thread's descriptors by key (see cached_descriptor)."""
    try:
        return _local.descriptors
    except AttributeError:  # the thread's first call
        cache = _local.descriptors = {}
        return cache


def default_handle(device: str, device_id: int) -> Handle:
    """This thread's handle for a device, created on first use."""
    handles = _cache("handles")
    key = (device, device_id)
    handle = handles.get(key)
    if handle is None:
        handle = handles[key] = Handle(device, device_id)
    return handle


def cached_descriptor(key: Hashable, factory: Callable[[], OperatorDescriptor]) -> OperatorDescriptor:
    """The descriptor for `key` (operator, device, layouts, parameters), made by
    `factory` on a miss; past 256, the oldest made is dropped (a hit costs one
    dict lookup, nothing to reorder)."""
    descriptors = descriptor_cache()
    desc = descriptors.get(key)
    if desc is None:
        desc = descriptors[key] = factory()
        if len(descriptors) > _MAX_CACHED_DESCRIPTORS:
            oldest = next(iter(descriptors))
            descriptors.pop(oldest).close()
    return desc


WORKSPACES_MADE = [0]  # how many workspace_for has made (all threads): a remembered one is current while it stands
_made_lock = threading.Lock()  # (so that the count only ever grows)


def workspace_for(device: str, device_id: int, size: int, stream_ptr: int) -> Workspace:
    """A workspace of at least `size` bytes, reused by calls on the same stream.

    Made on that stream (ready in its order, no synchronisation). The cache may
    outlive the stream (the caller may destroy it), so the memory goes back on
    the legacy default stream when the cache lets it go at exit; one replaced
    by a larger workspace goes back on the stream, after the calls queued there."""
    workspaces = _cache("workspaces")
    key = (device, device_id, stream_ptr)
    ws = workspaces.get(key)
    if ws is None or ws.size < size:
        if ws is not None:
            ws.release_on(stream_ptr)
        ws = workspaces[key] = Workspace(device, size, device_id, stream_ptr or None)
        ws.release_on(0)
        with _made_lock:
            WORKSPACES_MADE[0] += 1
    return ws


def common_device(op: str, **views: ArrayView) -> Tuple[str, int]:
    """The one device that all arrays live on; ValueError naming them otherwise."""
    places = {(v.device, v.device_id) for v in views.values()}
    if len(places) != 1:
        where = ", ".join(f"{n} on {v.device}:{v.device_id}" for n, v in views.items())
        raise ValueError(f"{op}: arrays on different devices ({where})")
    return places.pop()


# ---- the functional API ----

def functional(cls_name: str, op: str):
    """The cached call `run(stream, extra, *arrays, *values)` of the class named
    `cls_name` (see ops/_calculate.py): None when it ran, else the key of the missing
    descriptor (then `call_slow`)."""
    return make_run(cls_name, op, _local, WORKSPACES_MADE)


def call_slow(run, key: Hashable, op: str, cls, arrays: Dict[str, Any], order: Tuple[str, ...], stream, extra: Tuple,
              *args) -> None:
    """A functional call whose descriptor is not cached yet: make it (`new_descriptor`,
    with `extra` as Create's parameters), then run the call, now cached."""
    for _ in range(2):  # (twice: the first torch tensor ever seen switches `run` to its torch branch, other keys)
        new_descriptor(key, op, cls, arrays, order, *extra)
        key = run(stream, extra, *args)
        if key is None:
            return
    raise RuntimeError(f"{op}: the descriptor made for this call was not found in the cache")


_gpu_count_noted = False


def _note_gpu_count() -> None:
    """Tell the generated calls how many CUDA devices there are (once: the number is fixed)."""
    global _gpu_count_noted
    from ..runtime import device_count

    try:
        count = device_count("nvidia")
    except Exception:  # noqa: BLE001 (unknown: the keys stay the per-device ones, always exact)
        return
    note_gpu_count(count)
    _gpu_count_noted = True


def new_descriptor(key: Hashable, op: str, cls, arrays: Dict[str, Any], order: Tuple[str, ...], *params):
    """The functional API's slow path (a cache miss, or arrays on different devices):
    views of `arrays` (name -> array, "out" writable; named in this order when they
    are on different devices), then `cls(handle, *tensors in `order`, *params)` made
    and cached under `key`."""
    from .._arrays import as_view

    views = {name: as_view(a, writable=(name == "out")) for name, a in arrays.items()}
    device = common_device(op, **views)

    def make():
        tensors = [TensorDescriptor(views[n].shape, views[n].strides, views[n].dtype) for n in order]
        try:
            return cls(default_handle(*device), *tensors, *params)
        finally:  # Create copied what it needs
            for t in tensors:
                t.close()

    desc = cached_descriptor(key, make)
    if device[0] == "nvidia" and not _gpu_count_noted:  # (after Create: its errors come first, as before)
        _note_gpu_count()
    return desc
