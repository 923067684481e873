"""Handle: the device that operator descriptors are created for."""
from __future__ import annotations

from ._ffi import ffi, lib
from ._owned import CObject
from .errors import check
from .runtime import device_name, device_type, using_device


class Handle(CObject):
    """An infiniopHandle_t bound to one device.

    Handle("cpu") or Handle("nvidia", device_id=0). Raises DeviceNotFound when
    the device does not exist (for example NVIDIA on a machine without a GPU).
    """

    _destroy_name = "infiniopDestroyHandle"

    def __init__(self, device: str = "cpu", device_id: int = 0):
        self.device = device_name(device_type(device))
        self.device_id = int(device_id)
        raw = ffi.new("infiniopHandle_t *")
        # The C API binds the thread's current device: make ours current for the call.
        with using_device(self.device, self.device_id):
            check(lib.infiniopCreateHandle(raw), "infiniopCreateHandle", repr(self))
        self._own(raw[0])

    def __repr__(self) -> str:
        return f"Handle(device={self.device!r}, device_id={self.device_id})"
