"""LPNorm's errors and edge calls: every status through the C ABI (Create and Calculate),
in-place layout rules, the Python exceptions and messages, the descriptor class, empty and
scalar-like inputs."""

import math

import numpy as np
import pytest

import infiniop_py as ip
from infiniop_py._ffi import ffi, lib
from conftest import DEVICES, poisoned, to_host
from test_lp_norm import (BAD_DTYPE, BAD_PARAM, BAD_SHAPE, BAD_STRIDES, INSUFFICIENT, NULL_POINTER, SUCCESS,
                          assert_close, random_input, reference)


class CTensor:
    def __init__(self, shape, strides=None, dtype=13):
        raw = ffi.new("infiniopTensorDescriptor_t *")
        shape_c = ffi.new("size_t[]", list(shape)) if shape else ffi.NULL
        strides_c = ffi.new("ptrdiff_t[]", list(strides)) if strides is not None and shape else ffi.NULL
        assert lib.infiniopCreateTensorDescriptor(raw, len(shape), shape_c, strides_c, dtype) == SUCCESS
        self.ptr = raw[0]

    def __del__(self):
        lib.infiniopDestroyTensorDescriptor(self.ptr)


@pytest.fixture
def c_handle(device):
    handle = ip.Handle(device)
    return handle


def _create(handle, y, x, axis=-1, p=2, eps=1e-12):
    desc = ffi.new("infiniopLPNormDescriptor_t *")
    status = lib.infiniopCreateLPNormDescriptor(handle.ptr if handle is not None else ffi.NULL, desc,
                                                y.ptr if y is not None else ffi.NULL,
                                                x.ptr if x is not None else ffi.NULL, axis, p, eps)
    if status == SUCCESS:
        lib.infiniopDestroyLPNormDescriptor(desc[0])
    return status


@pytest.mark.parametrize("device", DEVICES)
def test_create_statuses(c_handle):
    t = CTensor((4, 8))
    assert _create(c_handle, t, t) == SUCCESS
    assert _create(c_handle, t, t, axis=-2) == SUCCESS
    assert _create(c_handle, t, t, p=7, eps=0.0) == SUCCESS
    assert _create(None, t, t) == NULL_POINTER
    assert _create(c_handle, None, t) == NULL_POINTER
    assert _create(c_handle, t, None) == NULL_POINTER
    assert lib.infiniopCreateLPNormDescriptor(c_handle.ptr, ffi.NULL, t.ptr, t.ptr, -1, 2, 1e-12) == NULL_POINTER
    # dtypes: integer, invalid combination, mismatch
    assert _create(c_handle, CTensor((4, 8), dtype=5), CTensor((4, 8), dtype=5)) == BAD_DTYPE
    assert _create(c_handle, CTensor((4, 8), dtype=12), t) == BAD_DTYPE
    assert _create(c_handle, t, CTensor((4, 8), dtype=19)) == BAD_DTYPE
    # shapes
    assert _create(c_handle, CTensor((4, 9)), t) == BAD_SHAPE
    assert _create(c_handle, CTensor((4, 8, 1)), t) == BAD_SHAPE
    # parameters
    for axis in (2, -3, 100, -(1 << 31)):
        assert _create(c_handle, t, t, axis=axis) == BAD_PARAM
    assert _create(c_handle, CTensor(()), CTensor(()), axis=0) == BAD_PARAM  # a scalar has no axis
    for p in (0, -1, -(1 << 31)):
        assert _create(c_handle, t, t, p=p) == BAD_PARAM
    for eps in (-1e-12, -math.inf, math.nan):
        assert _create(c_handle, t, t, eps=eps) == BAD_PARAM
    # y overlapping itself (zero stride, interleaved strides); x may (broadcast)
    assert _create(c_handle, CTensor((4, 8), (0, 1)), t) == BAD_STRIDES
    assert _create(c_handle, CTensor((4, 8), (4, 1)), t) == BAD_STRIDES
    assert _create(c_handle, t, CTensor((4, 8), (0, 1))) == SUCCESS


@pytest.mark.parametrize("device", DEVICES)
def test_calculate_statuses(c_handle, device, rng):
    # A long row on the GPU takes the split form, which needs a workspace.
    shape = (2, 1 << 18)
    t = CTensor(shape)
    desc = ffi.new("infiniopLPNormDescriptor_t *")
    assert lib.infiniopCreateLPNormDescriptor(c_handle.ptr, desc, t.ptr, t.ptr, -1, 2, 1e-12) == SUCCESS
    size = ffi.new("size_t *")
    assert lib.infiniopGetLPNormWorkspaceSize(desc[0], size) == SUCCESS
    assert lib.infiniopGetLPNormWorkspaceSize(desc[0], ffi.NULL) == NULL_POINTER
    assert lib.infiniopGetLPNormWorkspaceSize(ffi.NULL, size) == NULL_POINTER
    if device == "nvidia":
        assert size[0] > 0
    x = random_input(rng, shape, np.float32)
    xa = x if device == "cpu" else ip.DeviceArray.from_numpy(x)
    ya, _ = poisoned(shape, np.float32, device)
    ws = ip.Workspace(device, size[0])
    xp, yp = ffi.cast("void *", ip._arrays.as_view(xa).ptr), ffi.cast("void *", ip._arrays.as_view(ya).ptr)
    wp = ffi.cast("void *", ws.ptr)
    if size[0] > 0:
        assert lib.infiniopLPNorm(desc[0], wp, size[0] - 1, yp, xp, ffi.NULL) == INSUFFICIENT
        assert lib.infiniopLPNorm(desc[0], ffi.NULL, size[0], yp, xp, ffi.NULL) == NULL_POINTER
    assert lib.infiniopLPNorm(ffi.NULL, wp, size[0], yp, xp, ffi.NULL) == NULL_POINTER
    assert lib.infiniopLPNorm(desc[0], wp, size[0], ffi.NULL, xp, ffi.NULL) == NULL_POINTER
    assert lib.infiniopLPNorm(desc[0], wp, size[0], yp, ffi.NULL, ffi.NULL) == NULL_POINTER
    assert lib.infiniopLPNorm(desc[0], wp, size[0], yp, xp, ffi.NULL) == SUCCESS
    if device == "nvidia":
        ip.runtime.synchronize("nvidia")
    assert_close(to_host(ya), reference(x, -1, 2, 1e-12), -1, np.dtype(np.float32))
    assert lib.infiniopDestroyLPNormDescriptor(desc[0]) == SUCCESS
    assert lib.infiniopDestroyLPNormDescriptor(ffi.NULL) == NULL_POINTER


@pytest.mark.parametrize("device", DEVICES)
def test_in_place_needs_the_same_layout(c_handle, device, rng):
    # y == x with different layouts would overwrite rows before they are read.
    x = random_input(rng, (4, 8), np.float32)
    xa = x if device == "cpu" else ip.DeviceArray.from_numpy(x)
    desc = ffi.new("infiniopLPNormDescriptor_t *")
    yt, xt = CTensor((4, 8), (1, 4)), CTensor((4, 8))
    assert lib.infiniopCreateLPNormDescriptor(c_handle.ptr, desc, yt.ptr, xt.ptr, -1, 2, 1e-12) == SUCCESS
    ptr = ffi.cast("void *", ip._arrays.as_view(xa).ptr)
    assert lib.infiniopLPNorm(desc[0], ffi.NULL, 0, ptr, ptr, ffi.NULL) == BAD_STRIDES
    lib.infiniopDestroyLPNormDescriptor(desc[0])


@pytest.mark.parametrize("device", DEVICES)
def test_python_errors(device, rng):
    x = random_input(rng, (4, 8), np.float32)
    xa = x if device == "cpu" else ip.DeviceArray.from_numpy(x)
    with pytest.raises(ip.BadParam) as info:
        ip.lp_norm(xa, axis=2)
    assert isinstance(info.value, ValueError) and "axis=2" in str(info.value) and "(4, 8)" in str(info.value)
    with pytest.raises(ip.BadParam):
        ip.lp_norm(xa, p=0)
    with pytest.raises(ip.BadParam):
        ip.lp_norm(xa, eps=-1.0)
    with pytest.raises(ip.BadParam):
        ip.lp_norm(xa, eps=float("nan"))
    with pytest.raises(ip.BadParam):
        ip.lp_norm(xa, p=1 << 40)
    with pytest.raises(ip.BadTensorShape):
        ip.lp_norm(xa, out=poisoned((4, 9), np.float32, device)[0])
    with pytest.raises(ip.BadTensorDtype) as info:
        ip.lp_norm(xa, out=poisoned((4, 8), np.float64, device)[0])
    assert isinstance(info.value, TypeError)
    xi = np.ones((4, 8), np.int32)
    with pytest.raises(ip.BadTensorDtype):
        ip.lp_norm(xi if device == "cpu" else ip.DeviceArray.from_numpy(xi))
    if device == "cpu":
        with pytest.raises(ip.BadTensorStrides):
            ip.lp_norm(x, out=np.lib.stride_tricks.as_strided(np.empty(8, np.float32), (4, 8), (0, 4)))


@pytest.mark.parametrize("device", DEVICES)
def test_descriptor_class(device, rng):
    x = random_input(rng, (3, 70000), np.float32)
    xa = x if device == "cpu" else ip.DeviceArray.from_numpy(x)
    ya, _ = poisoned(x.shape, np.float32, device)
    handle = ip.Handle(device)
    with ip.LPNorm(handle, ya, xa, axis=-1, p=2, eps=1e-12) as op:
        assert op.workspace_size >= 0
        ws = ip.Workspace(device, op.workspace_size)
        op(ya, xa, workspace=ws)
        assert_close(to_host(ya), reference(x, -1, 2, 1e-12), -1, np.dtype(np.float32))
    assert op.closed
    op.close()  # idempotent


@pytest.mark.parametrize("device", DEVICES)
def test_empty_and_scalar_like(device, rng):
    for shape, axis in (((0, 5), 1), ((5, 0), 1), ((5, 0), 0)):
        x = np.empty(shape, np.float32)
        xa = x if device == "cpu" else ip.DeviceArray.from_numpy(x)
        y = ip.lp_norm(xa, axis=axis)
        assert to_host(y).shape == shape
    x = np.array([-3.0], np.float32)
    y = ip.lp_norm(x if device == "cpu" else ip.DeviceArray.from_numpy(x))
    assert to_host(y)[0] == -1.0
