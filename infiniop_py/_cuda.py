"""The few CUDA driver calls the binding needs, through cuda-python, imported lazily
so that a machine without a GPU (or without cuda-python) still loads the package."""
from __future__ import annotations

import functools


@functools.lru_cache(maxsize=None)
def driver():
    from cuda.bindings import driver as drv

    return drv


def check_cu(result, what: str):
    """Unpack a cuda.bindings result tuple; raise RuntimeError on an error code."""
    err, *rest = result if isinstance(result, tuple) else (result,)
    if int(err) != 0:
        name = driver().cuGetErrorName(err)[1]
        raise RuntimeError(f"{what} failed: {name.decode() if isinstance(name, bytes) else name}")
    return rest[0] if len(rest) == 1 else tuple(rest)


def device(device_id: int):
    """The cuda.core Device, made current on this thread."""
    from cuda.core import Device

    dev = Device(device_id)
    dev.set_current()
    return dev


def memcpy(dst: int, src: int, nbytes: int, stream: int = 0) -> None:
    """A copy between any two pointers (unified addressing), finished on return."""
    if nbytes == 0:
        return
    drv = driver()
    check_cu(drv.cuMemcpyAsync(dst, src, nbytes, stream), "cuMemcpyAsync")
    check_cu(drv.cuStreamSynchronize(stream), "cuStreamSynchronize")


def pointer_device(ptr: int) -> int:
    """The ordinal of the device that owns a device pointer."""
    drv = driver()
    return int(check_cu(drv.cuPointerGetAttribute(
        drv.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, ptr), "cuPointerGetAttribute"))
