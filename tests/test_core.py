"""The foundation: statuses and exceptions, tensor descriptors, handles, the
runtime, object lifetimes, and the exported C ABI."""
import gc
import os
import shutil
import subprocess

import numpy as np
import pytest

import infiniop_py as ip
from infiniop_py import errors
from infiniop_py._ffi import ffi, lib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

STATUSES = {
    0: "SUCCESS", 1: "INTERNAL_ERROR", 2: "NOT_IMPLEMENTED", 3: "BAD_PARAM", 4: "NULL_POINTER",
    5: "DEVICE_TYPE_NOT_SUPPORTED", 6: "DEVICE_NOT_FOUND", 7: "DEVICE_NOT_INITIALIZED",
    8: "DEVICE_ARCHITECTURE_NOT_SUPPORTED", 10: "BAD_TENSOR_DTYPE", 11: "BAD_TENSOR_SHAPE",
    12: "BAD_TENSOR_STRIDES", 13: "INSUFFICIENT_WORKSPACE",
}


@pytest.mark.parametrize("status,name", sorted(STATUSES.items()))
def test_status_string_from_the_library(status, name):
    assert ffi.string(lib.infiniGetStatusString(status)).decode() == name


def test_unknown_status_string_is_not_null():
    assert ffi.string(lib.infiniGetStatusString(9)).decode() == "UNKNOWN_STATUS"


@pytest.mark.parametrize("status", sorted(s for s in STATUSES if s))
def test_each_status_raises_its_own_class(status):
    with pytest.raises(ip.InfiniopError) as info:
        errors.check(status, "infiniopSomething", "a=(2, 3) F32")
    exc = info.value
    assert exc.status == status and type(exc).status == status
    assert exc.status_name == STATUSES[status]
    assert "infiniopSomething" in str(exc) and STATUSES[status] in str(exc) and "a=(2, 3) F32" in str(exc)


def test_builtin_bases():
    assert issubclass(ip.BadTensorShape, ValueError)
    assert issubclass(ip.BadTensorStrides, ValueError)
    assert issubclass(ip.BadParam, ValueError)
    assert issubclass(ip.BadTensorDtype, TypeError)
    assert issubclass(ip.DeviceNotFound, LookupError)
    assert issubclass(ip.InfiniopError, RuntimeError)


def test_success_does_not_raise():
    errors.check(0, "f")


# ---- tensor descriptors ----

def _create(ndim, shape, strides, dtype):
    out = ffi.new("infiniopTensorDescriptor_t *")
    status = lib.infiniopCreateTensorDescriptor(out, ndim, shape, strides, dtype)
    if status == 0:
        assert lib.infiniopDestroyTensorDescriptor(out[0]) == 0
    return status


def test_tensor_descriptor_validation_through_the_abi():
    shape = ffi.new("size_t[]", [2, 3])
    assert _create(2, shape, ffi.NULL, 13) == 0
    assert _create(0, ffi.NULL, ffi.NULL, 13) == 0  # a scalar
    assert _create(2, ffi.NULL, ffi.NULL, 13) == 4  # NULL shape with ndim > 0
    assert _create(2, shape, ffi.NULL, 0) == 10  # INVALID dtype
    assert _create(2, shape, ffi.NULL, 20) == 10  # out of range
    assert _create(2, shape, ffi.NULL, 0xFFFFFFFF) == 10  # -1 as C sees it
    huge = ffi.new("size_t[]", [1 << 40, 1 << 30])
    assert _create(2, huge, ffi.NULL, 13) == 11  # 2^70 elements
    neg = ffi.new("size_t[]", [2, (1 << 64) - 3])  # a "negative" dim from C
    assert _create(2, neg, ffi.NULL, 13) == 11
    strides = ffi.new("ptrdiff_t[]", [1 << 62, 1])
    assert _create(2, shape, strides, 13) == 12  # the strided span overflows
    assert lib.infiniopCreateTensorDescriptor(ffi.NULL, 2, shape, ffi.NULL, 13) == 4
    assert lib.infiniopDestroyTensorDescriptor(ffi.NULL) == 4
    zero = ffi.new("size_t[]", [0, 5])
    assert _create(2, zero, ffi.NULL, 13) == 0  # empty is fine
    # ...but its other dims must still make a valid layout (found by the ABI fuzzer under UBSan)
    empty_huge = ffi.new("size_t[]", [0, 1 << 62, 5])
    assert _create(3, empty_huge, ffi.NULL, 13) == 11
    assert _create(2, zero, ffi.new("ptrdiff_t[]", [1, 1 << 62]), 13) == 12


def test_tensor_descriptor_python():
    t = ip.TensorDescriptor((4, 5), (1, 4), np.float16)
    assert (t.shape, t.strides, t.dtype) == ((4, 5), (1, 4), ip.Dtype.F16)
    assert "(4, 5)" in repr(t) and "F16" in t.describe()
    with pytest.raises(ip.BadTensorShape, match="BAD_TENSOR_SHAPE"):
        ip.TensorDescriptor((1 << 62, 8), None, np.float64)
    with pytest.raises(TypeError):
        ip.TensorDescriptor((2,), None, np.dtype("U3"))
    with pytest.raises(ValueError):
        ip.TensorDescriptor((2, 2), (1,), np.float32)
    with pytest.raises(ValueError):
        ip.TensorDescriptor((-1, 2), None, np.float32)
    bf = ip.TensorDescriptor.from_array(np.zeros((3, 2), ip.bfloat16).T)
    assert (bf.shape, bf.strides, bf.dtype) == ((2, 3), (1, 2), ip.Dtype.BF16)


# ---- lifetimes ----

def test_close_is_idempotent_and_context_manager_closes():
    t = ip.TensorDescriptor((2,), None, np.float32)
    t.close()
    t.close()
    assert t.closed
    with pytest.raises(ValueError, match="closed"):
        _ = t.ptr
    with ip.Handle("cpu") as h:
        assert not h.closed
    assert h.closed


def test_garbage_collection_releases_without_error():
    for _ in range(200):
        ip.TensorDescriptor((3, 3), None, np.float32)
        ip.Handle("cpu")
    gc.collect()


# ---- handles and devices ----

def test_cpu_handle_and_current_device_is_per_thread():
    import threading

    assert ip.get_device() == ("cpu", 0)
    seen = []
    t = threading.Thread(target=lambda: seen.append(ip.get_device()))
    t.start()
    t.join()
    assert seen == [("cpu", 0)]
    h = ip.Handle("cpu")
    assert (h.device, h.device_id) == ("cpu", 0)


def test_unsupported_device_types():
    count = ffi.new("int *")
    for dev in (2, 3, 10):
        assert lib.infinirtGetDeviceCount(dev, count) == 5
        assert lib.infinirtSetDevice(dev, 0) == 5
    assert lib.infinirtSetDevice(0, 1) == 6  # there is one CPU
    assert lib.infinirtGetDeviceCount(0, ffi.NULL) == 4
    with pytest.raises(ValueError):
        ip.Handle("tpu")


def test_nvidia_without_gpu_is_device_not_found():
    if ip.device_count("nvidia") > 0:
        pytest.skip("a GPU is present: this checks the no-GPU behaviour")
    assert lib.infinirtSetDevice(1, 0) == 6
    with pytest.raises(ip.DeviceNotFound, match="DEVICE_NOT_FOUND"):
        ip.Handle("nvidia")
    assert ip.get_device() == ("cpu", 0)  # a failed switch leaves the thread where it was


def test_cpu_runtime_memcpy_round_trip(rng):
    src = rng.standard_normal(1000)
    p = ffi.new("void **")
    assert lib.infinirtMalloc(p, src.nbytes) == 0
    buf = p[0]
    assert lib.infinirtMemcpy(buf, ffi.cast("void *", src.ctypes.data), src.nbytes, 1) == 0
    back = np.full_like(src, np.nan)
    assert lib.infinirtMemcpy(ffi.cast("void *", back.ctypes.data), buf, src.nbytes, 2) == 0
    assert np.array_equal(back, src)
    assert lib.infinirtMemset(buf, 0, src.nbytes) == 0
    assert lib.infinirtMemcpy(ffi.cast("void *", back.ctypes.data), buf, src.nbytes, 2) == 0
    assert not back.any()
    assert lib.infinirtMemcpy(buf, ffi.NULL, 8, 0) == 4
    assert lib.infinirtMemcpy(buf, buf, 8, 7) == 3  # bad kind
    assert lib.infinirtFree(buf) == 0


def test_cpu_runtime_streams_and_events():
    s = ffi.new("infinirtStream_t *")
    e1, e2 = ffi.new("infinirtEvent_t *"), ffi.new("infinirtEvent_t *")
    assert lib.infinirtStreamCreate(s) == 0
    assert lib.infinirtEventCreate(e1) == 0 and lib.infinirtEventCreate(e2) == 0
    assert lib.infinirtEventRecord(e1[0], s[0]) == 0
    assert lib.infinirtEventRecord(e2[0], s[0]) == 0
    assert lib.infinirtEventSynchronize(e2[0]) == 0
    ms = ffi.new("float *")
    assert lib.infinirtEventElapsedTime(ms, e1[0], e2[0]) == 0 and ms[0] >= 0
    assert lib.infinirtStreamSynchronize(s[0]) == 0
    assert lib.infinirtEventDestroy(e1[0]) == 0 and lib.infinirtEventDestroy(e2[0]) == 0
    assert lib.infinirtStreamDestroy(s[0]) == 0
    assert lib.infinirtDeviceSynchronize() == 0


def test_descriptor_queries_refuse_null():
    dev = ffi.new("infiniDevice_t *")
    assert lib.infiniopGetDescriptorDeviceType(ffi.NULL, dev) == 4
    assert lib.infiniopGetDescriptorDeviceId(ffi.NULL, ffi.new("int *")) == 4
    assert lib.infiniopCreateHandle(ffi.NULL) == 4
    assert lib.infiniopDestroyHandle(ffi.NULL) == 4


# ---- the exported ABI ----

def _exported(path):
    out = subprocess.run(["nm", "-D", "--defined-only", str(path)], capture_output=True, text=True, check=True)
    return [line.split()[-1] for line in out.stdout.splitlines() if line.strip()]


@pytest.mark.skipif(shutil.which("nm") is None, reason="nm (binutils) is not installed")
def test_only_abi_symbols_are_exported():
    for name in ("libinfiniop.so", "libinfinirt.so"):
        symbols = _exported(ip.library_path.with_name(name))
        assert symbols, name
        assert all(s.startswith("infini") for s in symbols), [s for s in symbols if not s.startswith("infini")]
    assert "infinirtMalloc" in _exported(ip.library_path.with_name("libinfinirt.so"))


C_PROGRAM = r"""
#include <infiniop.h>
#include <infinirt.h>
#include <stdio.h>

int main(void) {
    int count = -1;
    infiniopHandle_t handle = NULL;
    infiniopTensorDescriptor_t desc = NULL;
    size_t shape[2] = {2, 3};
    infiniStatus_t st = infinirtGetDeviceCount(INFINI_DEVICE_NVIDIA, &count);
    if (st != INFINI_STATUS_SUCCESS || count < 0) return 1;
    if (infiniopCreateHandle(&handle) != INFINI_STATUS_SUCCESS) return 2;
    if (infiniopCreateTensorDescriptor(&desc, 2, shape, NULL, INFINI_DTYPE_F32) != INFINI_STATUS_SUCCESS) return 3;
    infiniopDestroyTensorDescriptor(desc);
    infiniopDestroyHandle(handle);
    printf("%s %d\n", infiniGetStatusString(INFINI_STATUS_BAD_TENSOR_SHAPE), (int)INFINI_DTYPE_BF16);
    return 0;
}
"""


@pytest.mark.parametrize("compiler,flags", [("gcc", ["-std=c99", "-Wall", "-Werror", "-pedantic"]),
                                            ("g++", ["-Wall", "-Werror"])])
def test_headers_compile_and_link_from_c(tmp_path, compiler, flags):
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} is not installed")
    src = tmp_path / ("prog.c" if compiler == "gcc" else "prog.cpp")
    src.write_text(C_PROGRAM)
    libdir = ip.library_path.parent
    exe = tmp_path / "prog"
    subprocess.run([compiler, *flags, "-I", os.path.join(ROOT, "native", "include"), str(src), "-o", str(exe),
                    "-L", str(libdir), "-linfiniop", "-linfinirt", f"-Wl,-rpath,{libdir}"], check=True)
    out = subprocess.run([str(exe)], capture_output=True, text=True)
    assert out.returncode == 0, out
    assert out.stdout.split() == ["BAD_TENSOR_SHAPE", "19"]
