"""Property tests (hypothesis): random layouts (0-8 dims, sizes 0-70, padded,
transposed, broadcast and negative strides), random dtypes and parameters, for
all four operators, compared with NumPy references. CPU always; NVIDIA when a
GPU is present (the same properties)."""
import math
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import infiniop_py as ip
from conftest import DEVICES
from test_lp_norm import assert_close, reference as lp_reference
from test_random_sample import assert_sample

EXAMPLES = int(os.environ.get("INFINIOP_PROPERTY_EXAMPLES", "60"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])
MAX_ELEMENTS = 6000
FLOATS = [np.dtype(np.float16), ip.bfloat16, np.dtype(np.float32), np.dtype(np.float64)]
INTS = [np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)]


@st.composite
def shapes(draw, min_dims=0, max_dims=8):
    ndim = draw(st.integers(min_dims, max_dims))
    shape = draw(st.lists(st.integers(0, 70), min_size=ndim, max_size=ndim))
    while math.prod(shape) > MAX_ELEMENTS:  # keep the biggest dims, shrink until it fits
        i = int(np.argmax(shape))
        shape[i] = max(1, shape[i] // 3)
    return tuple(shape)


@st.composite
def layouts(draw, shape, broadcast=False, negative=True):
    """(strides, span, offset): a permutation of the dims, padding, zero strides
    (inputs only), reversed dims. `offset` is where element 0 sits in a buffer of
    `span` elements."""
    ndim = len(shape)
    order = draw(st.permutations(range(ndim)))
    strides = [0] * ndim
    step = 1
    for d in reversed(order):
        strides[d] = step
        step *= max(shape[d], 1) + draw(st.integers(0, 2))
    for d in range(ndim):
        if broadcast and draw(st.integers(0, 4)) == 0:
            strides[d] = 0
        elif negative and draw(st.integers(0, 4)) == 0:
            strides[d] = -strides[d]
    if 0 in shape:
        return tuple(strides), 1, 0
    lo = sum(s * (n - 1) for s, n in zip(strides, shape) if s < 0)
    hi = sum(s * (n - 1) for s, n in zip(strides, shape) if s > 0)
    return tuple(strides), hi - lo + 1, -lo


def place(values: np.ndarray, layout, device, fill=None):
    """`values` laid out with `layout` in a fresh buffer (poisoned with `fill`
    where no element lands); returns (array on the device, host backing)."""
    strides, span, offset = layout
    dtype = values.dtype
    backing = np.empty(span, dtype)
    if fill is not None:
        backing[...] = fill
    else:
        backing.view(np.uint8)[...] = 0x5A
    view = np.lib.stride_tricks.as_strided(backing[offset:], values.shape, [s * dtype.itemsize for s in strides])
    if values.size:
        view[...] = values  # a broadcast layout keeps the last write; values are broadcast-consistent below
    if device == "cpu":
        return view, backing
    dev = ip.DeviceArray.from_numpy(backing)
    return dev.view(values.shape, strides, offset), dev


def host(array) -> np.ndarray:
    return array.to_numpy() if isinstance(array, ip.DeviceArray) else np.array(array)


def random_values(rng, shape, dtype):
    if dtype in INTS:
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    return (rng.standard_normal(shape) * 3).astype(dtype)


def broadcast_consistent(values, strides):
    """Elements that share an address under zero strides must be equal: copy
    index 0 of every zero-stride dim across it."""
    for d, s in enumerate(strides):
        if s == 0 and values.shape[d] > 0:
            values = np.broadcast_to(np.take(values, [0], axis=d), values.shape).copy()
    return values


@pytest.mark.parametrize("device", DEVICES)
@SETTINGS
@given(data=st.data(), dtype=st.sampled_from(FLOATS + INTS + [np.dtype(np.complex128)]))
def test_rearrange_any_layouts(device, data, dtype):
    shape = data.draw(shapes())
    src_layout = data.draw(layouts(shape, broadcast=True))
    dst_layout = data.draw(layouts(shape))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    values = broadcast_consistent(random_values(rng, shape, dtype) if dtype.kind != "c" else
                                  (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)), src_layout[0])
    src, _ = place(values, src_layout, device)
    dst, _ = place(np.zeros(shape, dtype), dst_layout, device)
    ip.rearrange(src, out=dst)
    got = host(dst)
    assert got.tobytes() == values.tobytes()  # bit for bit


@pytest.mark.parametrize("device", DEVICES)
@SETTINGS
@given(data=st.data(), dtype=st.sampled_from(FLOATS + INTS))
def test_mul_any_layouts_and_broadcasting(device, data, dtype):
    shape = data.draw(shapes(max_dims=6))
    # a and b: NumPy-broadcastable to c (leading dims dropped, some dims 1)
    def operand_shape():
        keep = data.draw(st.integers(0, len(shape)))
        sub = list(shape[len(shape) - keep:])
        return tuple(1 if data.draw(st.integers(0, 3)) == 0 else n for n in sub)
    a_shape, b_shape = operand_shape(), operand_shape()
    assume(np.broadcast_shapes(a_shape, b_shape, shape) == shape)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    a_layout = data.draw(layouts(a_shape, broadcast=True))
    b_layout = data.draw(layouts(b_shape, broadcast=True))
    c_layout = data.draw(layouts(shape))
    av = broadcast_consistent(random_values(rng, a_shape, dtype), a_layout[0])
    bv = broadcast_consistent(random_values(rng, b_shape, dtype), b_layout[0])
    a, _ = place(av, a_layout, device)
    b, _ = place(bv, b_layout, device)
    c, _ = place(np.zeros(shape, dtype), c_layout, device, fill=np.nan if dtype in FLOATS else None)
    ip.mul(a, b, out=c)
    got = host(c)
    if dtype in INTS:
        with np.errstate(over="ignore"):
            want = av * bv  # NumPy wraps around like we do
        assert np.array_equal(got, np.broadcast_to(want, shape))
    else:
        want = av.astype(np.float64) * bv.astype(np.float64)
        rounded = np.broadcast_to(want.astype(dtype), shape)  # rounded once from the exact product
        assert np.array_equal(got.astype(np.float64), rounded.astype(np.float64)) or dtype == ip.bfloat16, \
            (got, rounded)
        if dtype == ip.bfloat16:  # double rounding below F32's normal range is documented
            assert np.allclose(got.astype(np.float64), want, rtol=1e-2, atol=1e-37)


@pytest.mark.parametrize("device", DEVICES)
@SETTINGS
@given(data=st.data(), dtype=st.sampled_from(FLOATS), p=st.integers(1, 4),
       eps=st.sampled_from([0.0, 1e-12, 1e-3, 10.0]))
def test_lp_norm_any_axis_and_layout(device, data, dtype, p, eps):
    shape = data.draw(shapes(min_dims=1))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    xv = random_values(rng, shape, dtype)
    x, _ = place(xv, data.draw(layouts(shape)), device)
    in_place = data.draw(st.booleans())
    y = x if in_place else place(np.zeros(shape, dtype), data.draw(layouts(shape)), device, fill=np.nan)[0]
    ip.lp_norm(x, axis=axis, p=p, eps=eps, out=y)
    if xv.size == 0:  # nothing to normalise: the call succeeds and the output stays empty
        assert host(y).size == 0
        return
    assert_close(host(y), lp_reference(xv, axis, p, eps), axis, np.dtype(dtype))


@pytest.mark.parametrize("device", DEVICES)
@SETTINGS
@given(data=st.data(), dtype=st.sampled_from(FLOATS), n=st.integers(1, 3000),
       random_val=st.floats(0, 0.999999), topp=st.floats(0, 1.2), topk=st.integers(-2, 80),
       temperature=st.floats(0, 2.5))
def test_random_sample_matches_the_definition(device, data, dtype, n, random_val, topp, topk, temperature):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    logits = (rng.standard_normal(n) * data.draw(st.sampled_from([0.1, 1.0, 5.0]))).astype(dtype)
    x = logits if device == "cpu" else ip.DeviceArray.from_numpy(logits)
    got = ip.random_sample(x, random_val, topp, topk, temperature)
    assert_sample(got, logits, (random_val, topp, topk, temperature), device)
