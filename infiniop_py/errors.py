"""Exceptions: one class per infiniStatus_t, all under InfiniopError.

Shape, stride and parameter errors are also ValueError, dtype errors also
TypeError, so that `except ValueError` in user code keeps working.
"""
from __future__ import annotations

from typing import Any


class InfiniopError(RuntimeError):
    """A call into libinfiniop/libinfinirt returned a status other than SUCCESS.

    Attributes: ``status`` (int), ``status_name`` (str), ``function`` (the C
    function), ``context`` (what was passed: shapes, strides, dtypes...).
    """

    status: int = -1

    def __init__(self, status: int, function: str, context: str = ""):
        self.status = status
        self.status_name = status_name(status)
        self.function = function
        self.context = context
        msg = f"{function} returned {self.status_name} ({status})"
        if context:
            msg += f": {context}"
        super().__init__(msg)


def _status_class(name: str, status: int, doc: str, *bases: type) -> type:
    """One InfiniopError subclass per status (also a builtin exception where one fits)."""
    return type(name, (InfiniopError, *bases), {"status": status, "__doc__": doc, "__module__": __name__})


InternalError = _status_class(
    "InternalError", 1, "INTERNAL_ERROR (1): the library failed inside (a CUDA error, an allocation at Create).")
NotImplementedStatus = _status_class(
    "NotImplementedStatus", 2,
    "NOT_IMPLEMENTED (2): the library does not implement this call (also NotImplementedError).", NotImplementedError)
BadParam = _status_class(
    "BadParam", 3, "BAD_PARAM (3): a scalar parameter is out of range (axis, p, eps, random_val...), or a "
    "descriptor of another operator was passed.", ValueError)
NullPointer = _status_class("NullPointer", 4, "NULL_POINTER (4): a required pointer was NULL.", ValueError)
DeviceTypeNotSupported = _status_class(
    "DeviceTypeNotSupported", 5,
    "DEVICE_TYPE_NOT_SUPPORTED (5): no backend for this device type in the loaded library.")
DeviceNotFound = _status_class(
    "DeviceNotFound", 6, "DEVICE_NOT_FOUND (6): no such device (NVIDIA on a machine without a GPU, a bad id); "
    "also LookupError.", LookupError)
DeviceNotInitialized = _status_class(
    "DeviceNotInitialized", 7, "DEVICE_NOT_INITIALIZED (7): the driver could not be initialised.")
DeviceArchitectureNotSupported = _status_class(
    "DeviceArchitectureNotSupported", 8, "DEVICE_ARCHITECTURE_NOT_SUPPORTED (8): the build has no code for this GPU.")
BadTensorDtype = _status_class(
    "BadTensorDtype", 10, "BAD_TENSOR_DTYPE (10): a dtype is unsupported or the tensors' dtypes disagree; "
    "also TypeError.", TypeError)
BadTensorShape = _status_class(
    "BadTensorShape", 11, "BAD_TENSOR_SHAPE (11): shapes disagree, or a byte extent overflows 64 bits; "
    "also ValueError.", ValueError)
BadTensorStrides = _status_class(
    "BadTensorStrides", 12, "BAD_TENSOR_STRIDES (12): an output overlaps itself or broadcasts, or a stride is "
    "not allowed; also ValueError.", ValueError)
InsufficientWorkspace = _status_class(
    "InsufficientWorkspace", 13, "INSUFFICIENT_WORKSPACE (13): the workspace is smaller than the descriptor's "
    "workspace_size.", ValueError)


_BY_STATUS = {cls.status: cls for cls in InfiniopError.__subclasses__()}

_NAMES = {
    0: "SUCCESS", 1: "INTERNAL_ERROR", 2: "NOT_IMPLEMENTED", 3: "BAD_PARAM", 4: "NULL_POINTER",
    5: "DEVICE_TYPE_NOT_SUPPORTED", 6: "DEVICE_NOT_FOUND", 7: "DEVICE_NOT_INITIALIZED",
    8: "DEVICE_ARCHITECTURE_NOT_SUPPORTED", 10: "BAD_TENSOR_DTYPE", 11: "BAD_TENSOR_SHAPE",
    12: "BAD_TENSOR_STRIDES", 13: "INSUFFICIENT_WORKSPACE",
}


def status_name(status: int) -> str:
    """The status's name: from the library when it has infiniGetStatusString, else our table."""
    from . import _ffi

    if _ffi.has_symbol("infiniGetStatusString"):
        return _ffi.ffi.string(_ffi.lib.infiniGetStatusString(status)).decode()
    return _NAMES.get(status, "UNKNOWN_STATUS")


def error_for(status: int, function: str, context: str = "") -> InfiniopError:
    """The exception for a non-SUCCESS status."""
    return _BY_STATUS.get(status, InfiniopError)(status, function, context)


def check(status: int, function: str, context: Any = "") -> None:
    """Raise the matching InfiniopError subclass unless `status` is SUCCESS.

    `context` is a string or a callable returning one (so that building the
    message costs nothing on success).
    """
    if status != 0:
        raise error_for(status, function, context() if callable(context) else str(context))
