"""Devices through libinfinirt: counts, the thread's current device, synchronisation."""
from __future__ import annotations

import contextlib
from typing import Iterator, Tuple

from ._ffi import ffi, lib
from .errors import check

DEVICES = {"cpu": 0, "nvidia": 1}
_NAMES = {v: k for k, v in DEVICES.items()}


def device_type(device) -> int:
    """The infiniDevice_t of "cpu" / "nvidia" (or of an int, passed through)."""
    if isinstance(device, int):
        return device
    try:
        return DEVICES[str(device).lower()]
    except KeyError:
        raise ValueError(f"unknown device {device!r}: use 'cpu' or 'nvidia'") from None


def device_name(device_type_value: int) -> str:
    return _NAMES.get(device_type_value, f"device-type-{device_type_value}")


def device_count(device="nvidia") -> int:
    """How many devices of a type the runtime sees (0 NVIDIA devices without a driver or GPU)."""
    count = ffi.new("int *")
    check(lib.infinirtGetDeviceCount(device_type(device), count), "infinirtGetDeviceCount",
          lambda: f"device={device!r}")
    return count[0]


def get_device() -> Tuple[str, int]:
    """The calling thread's current (device, device_id)."""
    dev = ffi.new("infiniDevice_t *")
    dev_id = ffi.new("int *")
    check(lib.infinirtGetDevice(dev, dev_id), "infinirtGetDevice")
    return device_name(dev[0]), dev_id[0]


def set_device(device, device_id: int = 0) -> None:
    """Make (device, device_id) the calling thread's current device."""
    check(lib.infinirtSetDevice(device_type(device), device_id), "infinirtSetDevice",
          lambda: f"device={device!r}, device_id={device_id} ({device_count(device)} such devices present)")


@contextlib.contextmanager
def using_device(device, device_id: int = 0) -> Iterator[None]:
    """Temporarily make (device, device_id) current on this thread."""
    previous = get_device()
    set_device(device, device_id)
    try:
        yield
    finally:
        set_device(*previous)


def synchronize(device="nvidia", device_id: int = 0) -> None:
    """Wait for all work on a device."""
    with using_device(device, device_id):
        check(lib.infinirtDeviceSynchronize(), "infinirtDeviceSynchronize")
