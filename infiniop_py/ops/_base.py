"""What the four operators share: the descriptor base class, and the caches
behind the functional API (handles, descriptors by layout, workspaces)."""
from __future__ import annotations

import collections
import threading
from typing import Any, Callable, Dict, Hashable, Optional, Tuple

from .._arrays import ArrayView
from .._ffi import ffi, lib
from .._owned import CObject
from ..errors import check
from ..handle import Handle
from ..tensor import TensorDescriptor
from ..workspace import Workspace


def void_p(address: int):
    """An int address as the `void *` a C call wants."""
    return ffi.cast("void *", address)


class OperatorDescriptor(CObject):
    """Base of every operator descriptor: creates the C descriptor (checked),
    knows its workspace size, keeps its Handle alive, releases exactly once.

    Subclasses set `_create_name`, `_destroy_name`, optionally
    `_workspace_name`, and call `super().__init__(handle, tensors, params)`
    with the tensor descriptors in the C call's order.
    """

    _create_name: str = ""
    _workspace_name: Optional[str] = None

    def __init__(self, handle: Handle, tensors: Dict[str, TensorDescriptor], params: Tuple = (),
                 param_names: Tuple[str, ...] = ()):
        self.handle = handle
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

    @property
    def device(self) -> str:
        return self.handle.device

    @property
    def device_id(self) -> int:
        return self.handle.device_id

    def _context(self) -> str:
        return f"{type(self).__name__} on {self.handle.device}:{self.handle.device_id} with {self._described}"

    def _run(self, function: str, *args, call_params: str = "") -> None:
        """Call a C function on this descriptor and raise on a bad status;
        `call_params` names the values passed to this call (in the message)."""
        status = getattr(lib, function)(self.ptr, *args)
        if status:
            check(status, function, lambda: self._context() + (f"; called with {call_params}" if call_params else ""))

    def _workspace_args(self, workspace: Optional[Workspace], stream_ptr: int):
        """(pointer, size) of the given workspace, or of a cached one of the right size."""
        if workspace is None:
            if self.workspace_size == 0:
                return ffi.NULL, 0
            workspace = workspace_for(self.device, self.device_id, self.workspace_size, stream_ptr)
        return void_p(workspace.ptr), workspace.size

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
        value = collections.OrderedDict() if name == "descriptors" else {}
        setattr(_local, name, value)
    return value


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
    `factory` on a miss; least recently used ones are dropped past 256."""
    descriptors = _cache("descriptors")
    desc = descriptors.get(key)
    if desc is None:
        desc = descriptors[key] = factory()
        if len(descriptors) > _MAX_CACHED_DESCRIPTORS:
            descriptors.popitem(last=False)[1].close()
    else:
        descriptors.move_to_end(key)
    return desc


def workspace_for(device: str, device_id: int, size: int, stream_ptr: int) -> Workspace:
    """A workspace of at least `size` bytes, reused by calls on the same stream."""
    workspaces = _cache("workspaces")
    key = (device, device_id, stream_ptr)
    ws = workspaces.get(key)
    if ws is None or ws.size < size:
        ws = workspaces[key] = Workspace(device, size, device_id, stream_ptr or None)
    return ws


def common_device(op: str, **views: ArrayView) -> Tuple[str, int]:
    """The one device that all arrays live on; ValueError naming them otherwise."""
    places = {(v.device, v.device_id) for v in views.values()}
    if len(places) != 1:
        where = ", ".join(f"{n} on {v.device}:{v.device_id}" for n, v in views.items())
        raise ValueError(f"{op}: arrays on different devices ({where})")
    return places.pop()


def descriptor_key(op: str, device: Tuple[str, int], *parts) -> Tuple:
    """A cache key: operator, device, then layouts (views) and parameters."""
    return (op, device) + tuple(p.layout if isinstance(p, ArrayView) else p for p in parts)
