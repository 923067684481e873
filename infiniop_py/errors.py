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


# (class, status, also a subclass of, docstring): one exception class per infiniStatus_t.
_STATUS_CLASSES = (
    ("InternalError", 1, (), "INTERNAL_ERROR (1): the library failed inside (a CUDA error, an allocation at Create)."),
    ("NotImplementedStatus", 2, (NotImplementedError,),
     "NOT_IMPLEMENTED (2): the library does not implement this call (also NotImplementedError)."),
    ("BadParam", 3, (ValueError,), "BAD_PARAM (3): a scalar parameter is out of range (axis, p, eps, random_val...), "
     "or a descriptor of another operator was passed."),
    ("NullPointer", 4, (ValueError,), "NULL_POINTER (4): a required pointer was NULL."),
    ("DeviceTypeNotSupported", 5, (),
     "DEVICE_TYPE_NOT_SUPPORTED (5): no backend for this device type in the loaded library."),
    ("DeviceNotFound", 6, (LookupError,), "DEVICE_NOT_FOUND (6): no such device (NVIDIA on a machine without a GPU, "
     "a bad id); also LookupError."),
    ("DeviceNotInitialized", 7, (), "DEVICE_NOT_INITIALIZED (7): the driver could not be initialised."),
    ("DeviceArchitectureNotSupported", 8, (),
     "DEVICE_ARCHITECTURE_NOT_SUPPORTED (8): the build has no code for this GPU."),
    ("BadTensorDtype", 10, (TypeError,), "BAD_TENSOR_DTYPE (10): a dtype is unsupported or the tensors' dtypes "
     "disagree; also TypeError."),
    ("BadTensorShape", 11, (ValueError,), "BAD_TENSOR_SHAPE (11): shapes disagree, or a byte extent overflows 64 "
     "bits; also ValueError."),
    ("BadTensorStrides", 12, (ValueError,), "BAD_TENSOR_STRIDES (12): an output overlaps itself or broadcasts, or a "
     "stride is not allowed; also ValueError."),
    ("InsufficientWorkspace", 13, (ValueError,), "INSUFFICIENT_WORKSPACE (13): the workspace is smaller than the "
     "descriptor's workspace_size."),
)
for _name, _status, _bases, _doc in _STATUS_CLASSES:
    globals()[_name] = type(_name, (InfiniopError, *_bases), {"status": _status, "__doc__": _doc,
                                                              "__module__": __name__})
del _name, _status, _bases, _doc
# (the names, for readers and linters: each class is made by the loop above)
InternalError: type
NotImplementedStatus: type
BadParam: type
NullPointer: type
DeviceTypeNotSupported: type
DeviceNotFound: type
DeviceNotInitialized: type
DeviceArchitectureNotSupported: type
BadTensorDtype: type
BadTensorShape: type
BadTensorStrides: type
InsufficientWorkspace: type

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
