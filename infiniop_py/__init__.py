"""infiniop-py: InfiniCore's operator C ABI (libinfiniop) from Python.

Objects mirror the ABI (Handle, TensorDescriptor, Workspace, one descriptor
class per operator); functional calls (rearrange, mul, lp_norm,
random_sample) take NumPy arrays on the CPU and DeviceArray / torch / cupy
tensors on NVIDIA GPUs, caching descriptors by layout.
"""
from . import errors
from . import _ffi
from ._ffi import LibraryNotFoundError
from .device_array import DeviceArray
from .dtypes import Dtype, bfloat16
from .errors import (BadParam, BadTensorDtype, BadTensorShape, BadTensorStrides, DeviceArchitectureNotSupported,
                     DeviceNotFound, DeviceNotInitialized, DeviceTypeNotSupported, InfiniopError,
                     InsufficientWorkspace, InternalError, NotImplementedStatus, NullPointer)
from .handle import Handle
from . import ops
from .ops import *  # noqa: F401,F403  (every operator module's names: a new module needs no line here)
from .ops import (LPNorm, Mul, RandomSample, RandomSampleBatch, Rearrange, lp_norm, mul, random_sample,
                  random_sample_batch, rearrange)
from .runtime import device_count, get_device, set_device, synchronize
from .tensor import TensorDescriptor
from .workspace import Workspace

__version__ = "0.1.0"


def __getattr__(name):
    # library_path / found_by load the library on first use.
    if name in ("library_path", "found_by"):
        return getattr(_ffi, name)
    raise AttributeError(f"module 'infiniop_py' has no attribute {name!r}")


__all__ = [
    "Handle", "TensorDescriptor", "Workspace", "DeviceArray", "Dtype", "bfloat16",
    "Rearrange", "Mul", "LPNorm", "RandomSample", "RandomSampleBatch",
    "rearrange", "mul", "lp_norm", "random_sample", "random_sample_batch",
    "device_count", "get_device", "set_device", "synchronize",
    "InfiniopError", "InternalError", "NotImplementedStatus", "BadParam", "NullPointer",
    "DeviceTypeNotSupported", "DeviceNotFound", "DeviceNotInitialized", "DeviceArchitectureNotSupported",
    "BadTensorDtype", "BadTensorShape", "BadTensorStrides", "InsufficientWorkspace",
    "LibraryNotFoundError", "library_path", "found_by", "errors",
]
__all__ += [name for name in ops.__all__ if name not in __all__]
