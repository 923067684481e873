"""Every bad input refused with its documented status (SPEC §3), through the C
ABI and, for the same input, through Python as the matching exception whose
message names the arguments. One table, CPU and NVIDIA."""
import math

import numpy as np
import pytest

import infiniop_py as ip
from infiniop_py import errors
from infiniop_py._ffi import ffi, lib
from conftest import DEVICES

F16, F32, F64, I8, I32, I64 = (np.float16, np.float32, np.float64, np.int8, np.int32, np.int64)
BAD_PARAM, NULL_POINTER, BAD_DTYPE, BAD_SHAPE, BAD_STRIDES = 3, 4, 10, 11, 12

# (operator, what is wrong, tensors as (shape, strides, dtype) in the Create call's order, parameters, status)
CREATE_CASES = [
    ("Rearrange", "dtype mismatch", [((2, 3), None, F32), ((2, 3), None, F16)], (), BAD_DTYPE),
    ("Rearrange", "shape mismatch", [((2, 3), None, F32), ((3, 2), None, F32)], (), BAD_SHAPE),
    ("Rearrange", "ndim mismatch", [((2, 3), None, F32), ((2, 3, 1), None, F32)], (), BAD_SHAPE),
    ("Rearrange", "dst broadcast", [((2, 3), (0, 1), F32), ((2, 3), None, F32)], (), BAD_STRIDES),
    ("Rearrange", "dst overlaps itself", [((3, 3), (1, 1), F32), ((3, 3), None, F32)], (), BAD_STRIDES),
    ("Mul", "dtype mismatch", [((4,), None, F32), ((4,), None, F32), ((4,), None, F64)], (), BAD_DTYPE),
    ("Mul", "unsupported dtype", [((4,), None, np.bool_), ((4,), None, np.bool_), ((4,), None, np.bool_)], (),
     BAD_DTYPE),
    ("Mul", "not broadcastable", [((4, 3), None, F32), ((4, 3), None, F32), ((2, 3), None, F32)], (), BAD_SHAPE),
    ("Mul", "c broadcast", [((4, 3), (0, 1), F32), ((4, 3), None, F32), ((4, 3), None, F32)], (), BAD_STRIDES),
    ("Mul", "c overlaps itself", [((4, 3), (1, 1), F32), ((4, 3), None, F32), ((4, 3), None, F32)], (),
     BAD_STRIDES),
    ("LPNorm", "axis too large", [((2, 5), None, F32), ((2, 5), None, F32)], (2, 2, 1e-12), BAD_PARAM),
    ("LPNorm", "axis too small", [((2, 5), None, F32), ((2, 5), None, F32)], (-3, 2, 1e-12), BAD_PARAM),
    ("LPNorm", "p below 1", [((2, 5), None, F32), ((2, 5), None, F32)], (-1, 0, 1e-12), BAD_PARAM),
    ("LPNorm", "negative eps", [((2, 5), None, F32), ((2, 5), None, F32)], (-1, 2, -1.0), BAD_PARAM),
    ("LPNorm", "NaN eps", [((2, 5), None, F32), ((2, 5), None, F32)], (-1, 2, math.nan), BAD_PARAM),
    ("LPNorm", "integer dtype", [((2, 5), None, I32), ((2, 5), None, I32)], (-1, 2, 1e-12), BAD_DTYPE),
    ("LPNorm", "dtype mismatch", [((2, 5), None, F32), ((2, 5), None, F16)], (-1, 2, 1e-12), BAD_DTYPE),
    ("LPNorm", "shape mismatch", [((2, 5), None, F32), ((5, 2), None, F32)], (-1, 2, 1e-12), BAD_SHAPE),
    ("LPNorm", "y overlaps itself", [((2, 5), (0, 1), F32), ((2, 5), None, F32)], (-1, 2, 1e-12), BAD_STRIDES),
    ("RandomSample", "float result", [((), None, F32), ((100,), None, F32)], (), BAD_DTYPE),
    ("RandomSample", "index dtype too small", [((), None, I8), ((1000,), None, F32)], (), BAD_DTYPE),
    ("RandomSample", "integer logits", [((), None, I32), ((100,), None, I32)], (), BAD_DTYPE),
    ("RandomSample", "2-d logits", [((), None, I32), ((2, 100), None, F32)], (), BAD_SHAPE),
    ("RandomSample", "result not 0-d", [((1,), None, I32), ((100,), None, F32)], (), BAD_SHAPE),
    ("RandomSample", "logits stride 2", [((), None, I32), ((100,), (2,), F32)], (), BAD_STRIDES),
    ("RandomSampleBatch", "B mismatch", [((3,), None, I32), ((4, 100), None, F32)], (), BAD_SHAPE),
    ("RandomSampleBatch", "row stride below n", [((4,), None, I32), ((4, 100), (50, 1), F32)], (), BAD_STRIDES),
    ("RandomSampleBatch", "1-d logits", [((4,), None, I32), ((100,), None, F32)], (), BAD_SHAPE),
]

C_CREATE = {"Rearrange": "infiniopCreateRearrangeDescriptor", "Mul": "infiniopCreateMulDescriptor",
            "LPNorm": "infiniopCreateLPNormDescriptor", "RandomSample": "infiniopCreateRandomSampleDescriptor",
            "RandomSampleBatch": "infiniopCreateRandomSampleBatchDescriptor"}


@pytest.fixture(params=DEVICES)
def handle(request):
    return ip.Handle(request.param, 0)


@pytest.mark.parametrize("op,what,tensors,params,status", CREATE_CASES, ids=[f"{c[0]}: {c[1]}" for c in CREATE_CASES])
def test_create_refuses(handle, op, what, tensors, params, status):
    descs = [ip.TensorDescriptor(shape, strides, dtype) for shape, strides, dtype in tensors]
    out = ffi.new("struct InfiniopDescriptor **")
    got = getattr(lib, C_CREATE[op])(handle.ptr, out, *(d.ptr for d in descs), *params)
    assert got == status, f"{op} ({what}): status {got}, want {status}"
    with pytest.raises(errors.error_for(status, "").__class__) as info:
        getattr(ip, op)(handle, *descs, *params)
    message = str(info.value)
    assert C_CREATE[op] in message and errors.status_name(status) in message
    for d in descs:  # every tensor named with its layout
        assert str(d.shape) in message
    for p in params:
        assert repr(p) in message or (isinstance(p, float) and math.isnan(p) and "nan" in message)


def _offsets_distinct(shape, strides):
    offsets = [sum(i * s for i, s in zip(idx, strides)) for idx in np.ndindex(*shape)]
    return len(set(offsets)) == len(offsets)


# Outputs whose strides interleave: refused exactly when two elements share an address.
INTERLEAVED = [((3, 2), (2, 3)), ((4, 3), (3, 4)), ((2, 3), (3, 2)), ((5, 2), (2, 5)), ((2, 2, 2), (2, 3, 5)),
               ((3, 3), (2, 3)), ((4, 3), (2, 3)), ((2, 5), (3, 2)), ((3, 2, 2), (4, 3, 6)), ((2, 2), (-2, 3))]


def test_self_overlap_decided_exactly(handle):
    """SPEC: Rearrange's dst, Mul's c and LPNorm's y must not have two elements at one
    address (BAD_TENSOR_STRIDES) - and every layout without that is accepted, strides
    that interleave included (shape (3, 2), strides (2, 3): offsets 0 3 2 5 4 7)."""
    rng = np.random.default_rng(16)
    layouts = list(INTERLEAVED)
    while len(layouts) < 400:
        nd = int(rng.integers(1, 5))
        shape = tuple(int(v) for v in rng.integers(1, 6, nd))
        layouts.append((shape, tuple(int(v) for v in rng.integers(-9, 10, nd))))
    seen = {True: 0, False: 0}
    for shape, strides in layouts:
        distinct = _offsets_distinct(shape, strides)
        seen[distinct] += 1
        want = 0 if distinct else BAD_STRIDES
        out_desc = ip.TensorDescriptor(shape, strides, F32)
        dense = ip.TensorDescriptor(shape, None, F32)
        for op, args in (("Rearrange", (out_desc, dense)), ("Mul", (out_desc, dense, dense)),
                         ("LPNorm", (out_desc, dense, -1, 2, 1e-12))):
            out = ffi.new("struct InfiniopDescriptor **")
            got = getattr(lib, C_CREATE[op])(handle.ptr, out, *(a.ptr if hasattr(a, "ptr") else a for a in args))
            assert got == want, f"{op}: output shape {shape} strides {strides}: status {got}, want {want}"
            if got == 0:
                destroy = f"infiniopDestroy{op}Descriptor"
                assert getattr(lib, destroy)(out[0]) == 0
    assert seen[True] > 50 and seen[False] > 50, seen  # both answers exercised


@pytest.mark.parametrize("op", list(C_CREATE))
def test_create_refuses_null_pointers(handle, op):
    good = {"Rearrange": [((4,), None, F32)] * 2, "Mul": [((4,), None, F32)] * 3,
            "LPNorm": [((4,), None, F32)] * 2, "RandomSample": [((), None, I32), ((4,), None, F32)],
            "RandomSampleBatch": [((2,), None, I32), ((2, 4), None, F32)]}[op]
    params = (-1, 2, 1e-12) if op == "LPNorm" else ()
    descs = [ip.TensorDescriptor(*t) for t in good]
    create = getattr(lib, C_CREATE[op])
    out = ffi.new("struct InfiniopDescriptor **")
    assert create(ffi.NULL, out, *(d.ptr for d in descs), *params) == NULL_POINTER
    assert create(handle.ptr, ffi.NULL, *(d.ptr for d in descs), *params) == NULL_POINTER
    for i in range(len(descs)):
        args = [d.ptr for d in descs]
        args[i] = ffi.NULL
        assert create(handle.ptr, out, *args, *params) == NULL_POINTER, f"tensor {i} NULL"
    assert create(handle.ptr, out, *(d.ptr for d in descs), *params) == 0  # and the good call works
    destroy = "infiniopDestroyRandomSampleDescriptor" if op.startswith("Random") else f"infiniopDestroy{op}Descriptor"
    assert getattr(lib, destroy)(out[0]) == 0


def _buffer(device, nbytes):
    if device == "cpu":
        arr = np.zeros(max(nbytes, 1), np.uint8)
        return arr, arr.ctypes.data
    arr = ip.DeviceArray.empty((max(nbytes, 1),), np.uint8)
    return arr, arr.ptr


def test_calculate_refuses(handle):
    dev = handle.device
    keep = []

    def ptr(nbytes=4096):
        arr, p = _buffer(dev, nbytes)
        keep.append(arr)
        return ffi.cast("void *", p)

    t4 = ip.TensorDescriptor((4,), None, F32)
    mul = ip.Mul(handle, t4, t4, t4)
    lp = ip.LPNorm(handle, t4, t4, -1, 2, 1e-12)
    rs = ip.RandomSample(handle, ip.TensorDescriptor((), None, I64), ip.TensorDescriptor((100,), None, F32))
    rsb = ip.RandomSampleBatch(handle, ip.TensorDescriptor((2,), None, I64),
                               ip.TensorDescriptor((2, 100), None, F32))
    re = ip.Rearrange(handle, t4, t4)
    s = ffi.NULL
    # NULL data pointers for non-empty tensors
    assert lib.infiniopMul(mul.ptr, ffi.NULL, 0, ffi.NULL, ptr(), ptr(), s) == NULL_POINTER
    assert lib.infiniopLPNorm(lp.ptr, ptr(), lp.workspace_size, ptr(), ffi.NULL, s) == NULL_POINTER
    assert lib.infiniopRearrange(re.ptr, ptr(), ffi.NULL, s) == NULL_POINTER
    # workspace: too small, or NULL with a size
    ws = rs.workspace_size
    if ws:
        assert lib.infiniopRandomSample(rs.ptr, ptr(ws), ws - 1, ptr(), ptr(), 0.5, 0.9, 5, 1.0, s) == 13
        assert lib.infiniopRandomSample(rs.ptr, ffi.NULL, ws, ptr(), ptr(), 0.5, 0.9, 5, 1.0, s) in (NULL_POINTER, 13)
    # parameters out of range
    for rv, tp, tk, tt in ((1.5, 0.9, 5, 1.0), (-0.1, 0.9, 5, 1.0), (0.5, math.nan, 5, 1.0), (0.5, 0.9, 5, math.nan),
                           (math.nan, 0.9, 5, 1.0)):
        got = lib.infiniopRandomSample(rs.ptr, ptr(ws), ws, ptr(), ptr(), rv, tp, tk, tt, s)
        assert got == BAD_PARAM, (rv, tp, tk, tt, got)
    fv = np.array([0.5, 0.5], np.float32)
    tkv = np.array([5, 5], np.int32)
    fp, ip_ = ffi.cast("const float *", fv.ctypes.data), ffi.cast("const int *", tkv.ctypes.data)
    wsb = rsb.workspace_size
    assert lib.infiniopRandomSampleBatch(rsb.ptr, ptr(wsb), wsb, ptr(), ptr(), fp, fp, ip_, fp, 3, s) == BAD_PARAM
    assert lib.infiniopRandomSampleBatch(rsb.ptr, ptr(wsb), wsb, ptr(), ptr(), ffi.NULL, fp, ip_, fp, 2, s) == \
        NULL_POINTER
    # a descriptor of another operator, or of the other RandomSample form
    assert lib.infiniopMul(lp.ptr, ffi.NULL, 0, ptr(), ptr(), ptr(), s) == BAD_PARAM
    assert lib.infiniopLPNorm(mul.ptr, ptr(), 0, ptr(), ptr(), s) == BAD_PARAM
    assert lib.infiniopRearrange(mul.ptr, ptr(), ptr(), s) == BAD_PARAM
    assert lib.infiniopRandomSample(rsb.ptr, ptr(wsb), wsb, ptr(), ptr(), 0.5, 0.9, 5, 1.0, s) == BAD_PARAM
    assert lib.infiniopRandomSampleBatch(rs.ptr, ptr(ws), ws, ptr(), ptr(), fp, fp, ip_, fp, 1, s) == BAD_PARAM
    assert lib.infiniopDestroyMulDescriptor(lp.ptr) == BAD_PARAM
    assert lib.infiniopGetMulWorkspaceSize(lp.ptr, ffi.new("size_t *")) == BAD_PARAM
    assert lib.infiniopGetMulWorkspaceSize(mul.ptr, ffi.NULL) == NULL_POINTER
    # through Python: the exception names the call's values
    logits = np.zeros(100, np.float32) if dev == "cpu" else ip.DeviceArray.from_numpy(np.zeros(100, np.float32))
    with pytest.raises(ip.BadParam, match=r"random_val=1\.5"):
        ip.random_sample(logits, 1.5, 0.9, 5, 1.0)
    with pytest.raises(ip.BadParam, match=r"axis=7"):
        x = np.ones((2, 3), np.float32) if dev == "cpu" else ip.DeviceArray.from_numpy(np.ones((2, 3), np.float32))
        ip.lp_norm(x, axis=7)


def _staged(device, values: np.ndarray, shift: int):
    """`values`' bytes at byte `shift` of a fresh buffer: (keep-alive, address)."""
    raw = np.zeros(values.nbytes + 64, np.uint8)
    raw[shift:shift + values.nbytes] = values.view(np.uint8).reshape(-1)
    if device == "cpu":
        return raw, raw.ctypes.data + shift
    dev = ip.DeviceArray.from_numpy(raw)
    return dev, dev.ptr + shift


def _fetch(device, keep, address, dtype, count):
    base = keep.ctypes.data if device == "cpu" else keep.ptr
    raw = keep if device == "cpu" else keep.to_numpy()
    start = address - base
    return raw[start:start + count * np.dtype(dtype).itemsize].view(dtype).copy()


def test_data_pointers_off_element_alignment(handle):
    """Data pointers that are not a multiple of their element's size (bytes 1 / 2 off):
    the CPU computes from them; a GPU cannot load such elements, so Calculate refuses them
    with BAD_PARAM instead of faulting (which would leave the CUDA context unusable), and a
    call after that still works."""
    dev = handle.device
    rng = np.random.default_rng(7)
    a = rng.uniform(0.5, 2, 64).astype(F32)
    b = rng.uniform(0.5, 2, 64).astype(F32)
    t = ip.TensorDescriptor((64,), None, F32)
    mul = ip.Mul(handle, t, t, t)
    lp = ip.LPNorm(handle, t, t, -1, 2, 1e-12)
    rs = ip.RandomSample(handle, ip.TensorDescriptor((), None, I64), t)
    for shift in (1, 2):
        ka, pa = _staged(dev, a, shift)
        kb, pb = _staged(dev, b, shift)
        kc, pc = _staged(dev, np.full(64, np.nan, F32), shift)
        kr, pr = _staged(dev, np.zeros(1, I64), shift)
        v = lambda p: ffi.cast("void *", p)  # noqa: E731
        kw, pw = _staged(dev, np.zeros(max(rs.workspace_size, 1), np.uint8), 0)
        calls = {
            "mul": lambda: lib.infiniopMul(mul.ptr, ffi.NULL, 0, v(pc), v(pa), v(pb), ffi.NULL),
            "lp_norm": lambda: lib.infiniopLPNorm(lp.ptr, ffi.NULL, 0, v(pc), v(pa), ffi.NULL),
            "random_sample": lambda: lib.infiniopRandomSample(rs.ptr, v(pw), rs.workspace_size, v(pr), v(pa), 0.0, 0.9,
                                                              5, 1.0, ffi.NULL),
        }
        assert mul.workspace_size == 0 and lp.workspace_size == 0
        for name, call in calls.items():
            got = call()
            if dev == "nvidia":
                assert got == BAD_PARAM, f"{name}, {shift} bytes off: status {got}"
                continue
            assert got == 0, f"{name}, {shift} bytes off: status {got}"
            if name == "mul":
                np.testing.assert_array_equal(_fetch(dev, kc, pc, F32, 64), a * b)
            elif name == "lp_norm":
                np.testing.assert_allclose(_fetch(dev, kc, pc, F32, 64), a / np.linalg.norm(a.astype(F64)), rtol=1e-6)
            else:
                assert int(_fetch(dev, kr, pr, I64, 1)[0]) == int(np.argmax(a))
    # the device is still usable: an aligned call afterwards
    ka, pa = _staged(dev, a, 0)
    kb, pb = _staged(dev, b, 0)
    kc, pc = _staged(dev, np.full(64, np.nan, F32), 0)
    assert lib.infiniopMul(mul.ptr, ffi.NULL, 0, ffi.cast("void *", pc), ffi.cast("void *", pa),
                           ffi.cast("void *", pb), ffi.NULL) == 0
    if dev == "nvidia":
        ip.runtime.synchronize("nvidia", 0)
    np.testing.assert_array_equal(_fetch(dev, kc, pc, F32, 64), a * b)
