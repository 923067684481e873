"""Mul: c = a * b on CPU and NVIDIA against a float64 NumPy reference.

The reference's layouts out of place and in place on a and on b, F64 and the
integers (wrap-around, exact), NumPy broadcasting, transposed and reversed
operands, odd sizes, misaligned starts, empty tensors, scalars, many dims, and
every error status through the C ABI and through Python.
"""
import numpy as np
import pytest

import infiniop_py as ip
from infiniop_py._ffi import ffi, lib
from conftest import DEVICES, poisoned, queue_dependent_chains, to_host
from infiniop_py._layout import contiguous_strides, permuted_strides

BF16 = ip.bfloat16
FLOATS = [np.float16, np.float32, BF16]
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
TOL = {np.dtype(np.float16): 2e-3, np.dtype(np.float32): 1e-5, BF16: 1e-2, np.dtype(np.float64): 1e-12}


def _random(rng, n, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)
    return rng.uniform(-2.0, 2.0, size=n).astype(dtype)


def operand(rng, shape, strides, dtype, device, lead=0):
    """A random array of `shape` with element `strides` (None: contiguous),
    starting `lead` elements into its buffer. Returns (array, logical values)."""
    dtype = np.dtype(dtype)
    shape = tuple(shape)
    strides = contiguous_strides(shape) if strides is None else tuple(strides)
    if all(shape):
        span = 1 + sum((n - 1) * abs(s) for n, s in zip(shape, strides))
    else:
        span = 1
    offset = lead + sum((n - 1) * -s for n, s in zip(shape, strides) if s < 0 and n > 0)
    backing = _random(rng, span + lead, dtype)
    view = np.lib.stride_tricks.as_strided(backing[offset:], shape, [s * dtype.itemsize for s in strides])
    values = np.array(view)
    if device == "cpu":
        return view, values
    return ip.DeviceArray.from_numpy(backing).view(shape, strides, offset), values


def check(out, a_vals, b_vals, dtype):
    got = to_host(out)
    # Extra leading input dims of size 1 (allowed) do not reach the output.
    a_vals = a_vals.reshape(a_vals.shape[max(0, a_vals.ndim - got.ndim):])
    b_vals = b_vals.reshape(b_vals.shape[max(0, b_vals.ndim - got.ndim):])
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        with np.errstate(over="ignore"):
            ref = np.broadcast_to(a_vals * b_vals, got.shape)
        np.testing.assert_array_equal(got, ref)
        return
    ref = np.broadcast_to(a_vals.astype(np.float64) * b_vals.astype(np.float64), got.shape)
    assert not np.isnan(got.astype(np.float64)).any(), "unwritten (poisoned) elements"
    tol = TOL[dtype]
    np.testing.assert_allclose(got.astype(np.float64), ref, rtol=tol, atol=tol)


def run_case(rng, device, dtype, c_shape, a_spec, b_spec, c_strides=None, inplace=None):
    """a_spec/b_spec: (shape, strides) or (shape, strides, lead)."""
    a, av = operand(rng, *a_spec[:2], dtype, device, *a_spec[2:])
    b, bv = operand(rng, *b_spec[:2], dtype, device, *b_spec[2:])
    if inplace == "a":
        c = a
    elif inplace == "b":
        c = b
    else:
        c, _ = poisoned(c_shape, dtype, device, c_strides)
    result = ip.mul(a, b, out=c)
    assert result is c
    check(c, av, bv, dtype)


# ---- the reference's layouts: shape, a strides, b strides, c strides ----

REF_CASES = [
    ((13, 4), None, None, None),
    ((13, 4), (10, 1), (10, 1), (10, 1)),
    ((13, 4), (0, 1), None, None),
    ((13, 4, 4), None, None, None),
    ((13, 4, 4), (20, 4, 1), (20, 4, 1), (20, 4, 1)),
    ((13, 4, 4), (4, 0, 1), (0, 4, 1), None),
    ((16, 5632), None, None, None),
    ((16, 5632), (13312, 1), (13312, 1), (13312, 1)),
    ((4, 4, 5632), None, None, None),
    ((4, 4, 5632), (45056, 5632, 1), (45056, 5632, 1), (45056, 5632, 1)),
]


def _has_zero_stride(shape, strides):
    return strides is not None and any(s == 0 and n > 1 for n, s in zip(shape, strides))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("inplace", [None, "a", "b"], ids=["out", "inplace_a", "inplace_b"])
@pytest.mark.parametrize("shape,sa,sb,sc", REF_CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}-{c[3]}" for c in REF_CASES])
def test_reference_layouts(rng, device, dtype, inplace, shape, sa, sb, sc):
    target = {"a": sa, "b": sb}.get(inplace)
    if inplace and _has_zero_stride(shape, target):
        # A broadcast operand cannot be the output.
        a, _ = operand(rng, shape, sa, dtype, device)
        b, _ = operand(rng, shape, sb, dtype, device)
        with pytest.raises(ip.BadTensorStrides):
            ip.mul(a, b, out=a if inplace == "a" else b)
        return
    run_case(rng, device, dtype, shape, (shape, sa), (shape, sb), sc, inplace)


# ---- more dtypes ----

@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float64] + INTS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape,sa,sb,sc", [REF_CASES[0], REF_CASES[4], REF_CASES[5], REF_CASES[7]],
                         ids=["contiguous", "padded", "broadcast", "row_stride"])
def test_f64_and_integers(rng, device, dtype, shape, sa, sb, sc):
    run_case(rng, device, dtype, shape, (shape, sa), (shape, sb), sc)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", INTS, ids=lambda d: np.dtype(d).name)
def test_integers_in_place_and_transposed(rng, device, dtype):
    run_case(rng, device, dtype, (37, 41), ((37, 41), None), ((37, 41), None), inplace="a")
    run_case(rng, device, dtype, (37, 41), ((37, 41), (1, 37)), ((41,), None))


def _scaled(x, scale, device):
    if device == "cpu":
        x *= x.dtype.type(scale)
        return x
    host = (x.to_numpy().astype(np.float32) * np.float32(scale)).astype(x.dtype)
    return ip.DeviceArray.from_numpy(host)


def _rounded_once(p, dtype):
    """The float64 values `p` rounded once to F16/BF16 (nearest even): on the
    dtype's subnormal grid directly where F32 would be subnormal, else through
    F32, which holds every 16-bit-float product there exactly."""
    if np.dtype(dtype) == BF16:
        tiny = np.abs(p) < 2.0 ** -126
        p = np.where(tiny, np.round(p * 2.0 ** 133) * 2.0 ** -133, p)  # BF16's subnormal step is 2^-133
    return p.astype(np.float32).astype(dtype)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype,scale", [(np.float16, 1.0), (np.float16, 1e-3), (BF16, 1.0), (BF16, 1e-19)],
                         ids=["float16", "float16-subnormal", "bfloat16", "bfloat16-subnormal"])
def test_half_rounded_once(rng, device, dtype, scale):
    """The product of two 16-bit floats rounded once from the exact (float64)
    product, subnormal results too."""
    a, _ = operand(rng, (4099,), None, dtype, device)
    b, _ = operand(rng, (4099,), None, dtype, device)
    a, b = _scaled(a, scale, device), _scaled(b, scale, device)
    av, bv = to_host(a), to_host(b)
    out = ip.mul(a, b)
    ref = _rounded_once(av.astype(np.float64) * bv.astype(np.float64), dtype)
    np.testing.assert_array_equal(to_host(out).view(np.uint16), ref.view(np.uint16))


@pytest.mark.parametrize("device", DEVICES)
def test_bf16_products_below_f32_normals(rng, device):
    """Every pair of BF16 significands (1..255, random signs) at product
    exponents from 2^-175 to 2^-121 (F32-subnormal products and their
    neighbours, some inputs BF16-subnormal): rounded once from the exact
    product, bit for bit."""
    m = np.arange(1, 256, dtype=np.float64)
    ma, mb = (x.ravel() for x in np.meshgrid(m, m))
    a_parts, b_parts = [], []
    for e in range(-175, -120, 3):
        ea = -60 if e % 2 else -133  # -133: a is BF16-subnormal below 128
        a_parts.append(ma * 2.0 ** ea)
        b_parts.append(mb * 2.0 ** (e - ea))
    n = sum(len(x) for x in a_parts)
    signs = rng.choice([-1.0, 1.0], size=(2, n))
    a = (np.concatenate(a_parts) * signs[0]).astype(BF16)
    b = (np.concatenate(b_parts) * signs[1]).astype(BF16)
    assert np.array_equal(a.astype(np.float64), np.concatenate(a_parts) * signs[0])  # inputs exact
    ref = _rounded_once(a.astype(np.float64) * b.astype(np.float64), BF16)
    if device == "cpu":
        out = ip.mul(a, b)
    else:
        out = ip.mul(ip.DeviceArray.from_numpy(a), ip.DeviceArray.from_numpy(b))
    np.testing.assert_array_equal(to_host(out).view(np.uint16), ref.view(np.uint16))


# ---- an output that partly overlaps an input: computed through a copy ----

OVERLAPS = [
    # backing length, c (shape, strides, offset), overlapped input (shape, strides, offset), other input shape
    (1001, ((1000,), (1,), 1), ((1000,), (1,), 0), (1000,)),             # shifted forwards by one
    (1001, ((1000,), (1,), 0), ((1000,), (1,), 1), (1000,)),             # shifted backwards by one
    (1000, ((1000,), (-1,), 999), ((1000,), (1,), 0), (1000,)),          # c is the input reversed
    (96 * 96, ((96, 96), (1, 96), 0), ((96, 96), (96, 1), 0), (96, 96)),  # c is the input transposed
    (33 * 40, ((33, 40), (40, 1), 0), ((40,), (1,), 0), (33, 40)),       # the input broadcasts c's first row
    (2000, ((1000,), (2,), 0), ((1000,), (2,), 1), (1000,)),             # interleaved: no shared element
    (4 * 4100, ((4099, 4), (4, 1), 0), ((4099, 4), (4, 1), 4), (4,)),    # rows shifted by one, y broadcast
]


def _view(backing, shape, strides, offset, device):
    if device == "cpu":
        item = backing.dtype.itemsize
        return np.lib.stride_tricks.as_strided(backing[offset:], shape, [s * item for s in strides])
    return backing.view(shape, strides, offset)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float32, np.float16], ids=["f32", "f16"])
@pytest.mark.parametrize("which", ["a", "b"])
@pytest.mark.parametrize("n,c_spec,x_spec,y_shape", OVERLAPS, ids=[str(i) for i in range(len(OVERLAPS))])
def test_partial_overlap_reads_a_copy(rng, device, dtype, which, n, c_spec, x_spec, y_shape):
    """c overlaps an input in another layout (or at another address): the
    result is the product of the inputs as they were, as in NumPy."""
    host = _random(rng, n, dtype)
    backing = host.copy() if device == "cpu" else ip.DeviceArray.from_numpy(host)
    c = _view(backing, *c_spec, device)
    x = _view(backing, *x_spec, device)
    x_vals = np.array(_view(host, *x_spec, "cpu"))
    y, y_vals = operand(rng, y_shape, None, dtype, device)
    a, b, av, bv = (x, y, x_vals, y_vals) if which == "a" else (y, x, y_vals, x_vals)
    assert ip.mul(a, b, out=c) is c
    check(c, av, bv, dtype)


@pytest.mark.parametrize("device", DEVICES)
def test_exactly_in_place_is_not_copied(rng, device):
    """c is a with a's layout (here reversed): in place, element by element."""
    host = _random(rng, 3001, np.float32)
    backing = host.copy() if device == "cpu" else ip.DeviceArray.from_numpy(host)
    a = _view(backing, (1500,), (-2,), 3000, device)
    b, bv = operand(rng, (1500,), None, np.float32, device)
    ip.mul(a, b, out=a)
    check(a, np.array(_view(host, (1500,), (-2,), 3000, "cpu")), bv, np.float32)
    np.testing.assert_array_equal(to_host(backing)[1::2], host[1::2])  # the gaps untouched


# ---- broadcasting, transposes, odd sizes, alignment ----

BROADCASTS = [
    ((8, 7, 5), ((8, 1, 5), None), ((1, 7, 1), None)),
    ((8, 7, 5), ((5,), None), ((8, 7, 5), None)),
    ((8, 7, 5), ((7, 1), None), ((8, 1, 1), None)),
    ((3, 4), ((), None), ((3, 4), None)),
    ((64, 300), ((64, 300), None), ((64, 1), None)),
    ((2, 3, 4), ((1, 1, 2, 3, 4), None), ((4,), None)),  # extra leading dims of size 1
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float32, np.float16], ids=["float32", "float16"])
@pytest.mark.parametrize("c_shape,a_spec,b_spec", BROADCASTS, ids=[str(b[1][0]) + "x" + str(b[2][0])
                                                                    for b in BROADCASTS])
def test_numpy_broadcasting(rng, device, dtype, c_shape, a_spec, b_spec):
    run_case(rng, device, dtype, c_shape, a_spec, b_spec)


@pytest.mark.parametrize("device", DEVICES)
def test_functional_allocates_broadcast_shape(rng, device):
    a, av = operand(rng, (8, 1, 5), None, np.float32, device)
    b, bv = operand(rng, (1, 7, 1), None, np.float32, device)
    out = ip.mul(a, b)
    assert tuple(out.shape) == (8, 7, 5)
    check(out, av, bv, np.float32)


# A contiguous output with broadcast or permuted inputs whose innermost extent is no multiple of a
# 16-byte vector: on the GPU the strided path's gather form (elementwise/nvidia.cuh, gatherKernel):
# vectors inside one row, rows ending inside a vector (a carry over one or more dims), splatted and
# unit-stride gathered rows on and off 16 bytes, a partial last vector; `lead` puts a flat input off
# 16 bytes (the scalar strided kernel then) or on 16 bytes but off 32 (the gather form, whose vectors
# for 8-byte types may be of 32 bytes, INFINI_ELEMENTWISE_GATHER_WIDE_8B).
GATHERS = [
    ((109, 18, 23, 28), ((109, 18, 23, 28), None), ((109, 1, 1, 28), None)),
    ((95, 305, 53), ((95, 305, 53), None), ((1, 305, 1), None)),
    ((41, 124, 23, 10), ((41, 124, 23, 10), None), ((41, 124, 23, 1), None)),
    ((1000, 3), ((1000, 3), None), ((1000, 1), None)),
    ((7, 5, 3, 3), ((7, 5, 3, 3), (9, 63, 3, 1)), ((1, 5, 1, 3), None)),      # a's outer dims swapped
    ((33, 17, 5), ((33, 17, 5), (-85, 5, 1)), ((5,), None)),                  # a's rows reversed
    ((2, 3, 4, 5, 6, 7), ((2, 3, 4, 5, 6, 7), None), ((2, 1, 4, 1, 6, 1), None)),
    ((64, 50, 37), ((64, 1, 37), None), ((1, 50, 37), None)),                 # both broadcast
    ((19, 301), ((19, 301), None, 1), ((19, 1), None)),                       # a off 16 bytes
    ((19, 301), ((19, 301), None, 4), ((19, 1), None)),                       # 4-byte a 16 bytes off 32
    ((19, 301), ((19, 301), None, 2), ((19, 1), None)),                       # 8-byte a 16 bytes off 32
    ((5, 9, 13), ((5, 9, 13), (1, 5, 45)), ((9, 1), None)),                   # a fully permuted
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float16, BF16, np.float32, np.float64, np.int8, np.int64],
                         ids=["f16", "bf16", "f32", "f64", "i8", "i64"])
@pytest.mark.parametrize("c_shape,a_spec,b_spec", GATHERS, ids=[str(i) for i in range(len(GATHERS))])
def test_gathered_inputs(rng, device, dtype, c_shape, a_spec, b_spec):
    run_case(rng, device, dtype, c_shape, a_spec, b_spec)


TRANSPOSES = [
    # c shape, (a shape, a strides), (b shape, b strides), c strides
    ((67, 45), ((67, 45), (1, 67)), ((67, 45), None), None),            # a transposed
    ((67, 45), ((67, 45), (1, 67)), ((67, 45), (1, 67)), None),         # both transposed
    ((67, 45), ((67, 45), None), ((67, 45), None), (1, 67)),            # output transposed
    ((3, 40, 50), ((3, 40, 50), (2000, 1, 40)), ((50,), None), None),   # batched, b broadcast
    ((130, 257), ((130, 257), (1, 130)), ((130, 1), None), None),       # partial tiles, broadcast b
    ((5, 33, 6), ((5, 33, 6), (1, 30, 5)), ((5, 33, 6), None), None),   # a's unit dim outermost
    ((40, 50), ((40, 50), (-1, 40)), ((40, 50), None), None),           # transposed and reversed
    ((40, 50), ((40, 50), (50, -1)), ((40, 50), (-50, 1)), None),       # reversed rows / columns
    ((40, 50), ((40, 50), None), ((40, 50), None), (-50, -1)),          # output reversed
    # Tiles each over all of the output's rows of 31, contiguous along j (a 31 x 5217 plane past the
    # gather form's 256 KB, a's two outer dims merged; a last tile of one row, a run of 31)
    ((141, 37, 31), ((141, 37, 31), permuted_strides((141, 37, 31), (2, 0, 1))), ((1, 1, 31), None), None),
    # The same past 256 KB for 1-byte elements too (int8 on tiles, not the gather form)
    ((300, 37, 31), ((300, 37, 31), permuted_strides((300, 37, 31), (2, 0, 1))), ((1, 1, 31), None), None),
    # 190 rows along j: 32 x 32 tiles, the last of 30 rows along j and 8 along i
    ((190, 1000), ((190, 1000), (1, 190)), ((190, 1000), None), None),
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64, np.int16, np.int8],
                         ids=["float32", "float16", "float64", "int16", "int8"])
@pytest.mark.parametrize("c_shape,a_spec,b_spec,c_strides", TRANSPOSES, ids=[str(i) for i in range(len(TRANSPOSES))])
def test_transposed_and_reversed(rng, device, dtype, c_shape, a_spec, b_spec, c_strides):
    run_case(rng, device, dtype, c_shape, a_spec, b_spec, c_strides)


# Planes whose 32 x 32 tiles would be too sparse, on a million elements or more, with the staged input's
# j neighbours far apart in the output: on the GPU, 1- and 2-byte elements take wide tiles
# (INFINI_ELEMENTWISE_WIDE_TILES_2B; tools/mul_plan_probe.cc), the others the lane gather.
WIDE_PLANES = [
    # c shape, (a shape, a strides), (b shape, b strides), c strides
    # 38 rows in tiles of 8 (the last of 6), 200 along j in tiles of 128 (the last of 72)
    ((200, 140, 38), ((200, 140, 38), permuted_strides((200, 140, 38), (2, 1, 0))), ((1, 140, 1), None), None),
    # 72 rows in tiles of 16 (the last of 8), 53 along j in tiles of 64 (one, of 53)
    ((53, 16, 19, 72), ((53, 16, 19, 72), permuted_strides((53, 16, 19, 72), (1, 3, 2, 0))), ((1, 16, 1, 72), None),
     None),
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float16, BF16, np.int8, np.int16, np.float32],
                         ids=["f16", "bf16", "i8", "i16", "f32"])
@pytest.mark.parametrize("c_shape,a_spec,b_spec,c_strides", WIDE_PLANES, ids=[str(i) for i in range(len(WIDE_PLANES))])
def test_wide_tile_planes(rng, device, dtype, c_shape, a_spec, b_spec, c_strides):
    run_case(rng, device, dtype, c_shape, a_spec, b_spec, c_strides)


# Output rows shorter than a 16-byte vector, the input gathered (its unit-stride dim is the output's
# innermost, its others permuted): on the GPU the gather form, where a vector spans two or three rows
# (INFINI_ELEMENTWISE_GATHER_SHORT_RUNS: two runs where every vector's second fits in its row, rows of 7,
# 6, 3 and, for int8, 12 and 15; element by element for 5 and 13); a partial last vector (50*33*19*5
# elements); b broadcast or gathered too.
GATHER_SHORT_ROWS = [
    # c shape, (a shape, a strides), (b shape, b strides)
    ((40, 30, 20, 7), ((40, 30, 20, 7), permuted_strides((40, 30, 20, 7), (2, 1, 0, 3))), ((40, 30, 20, 7), None)),
    ((40, 30, 20, 6), ((40, 30, 20, 6), permuted_strides((40, 30, 20, 6), (2, 1, 0, 3))), ((1, 30, 1, 6), None)),
    ((40, 30, 20, 3), ((40, 30, 20, 3), permuted_strides((40, 30, 20, 3), (2, 1, 0, 3))), ((40, 30, 20, 3), None)),
    ((50, 33, 19, 5), ((50, 33, 19, 5), permuted_strides((50, 33, 19, 5), (1, 2, 0, 3))),
     ((50, 33, 19, 5), permuted_strides((50, 33, 19, 5), (2, 0, 1, 3)))),
    ((30, 20, 40, 13), ((30, 20, 40, 13), permuted_strides((30, 20, 40, 13), (2, 1, 0, 3))), ((13,), None)),
    ((30, 20, 40, 12), ((30, 20, 40, 12), permuted_strides((30, 20, 40, 12), (1, 2, 0, 3))), ((30, 1, 40, 12), None)),
    ((29, 21, 40, 15), ((29, 21, 40, 15), permuted_strides((29, 21, 40, 15), (2, 1, 0, 3))), ((29, 21, 40, 15), None)),
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float16, BF16, np.float32, np.int8, np.int16],
                         ids=["f16", "bf16", "f32", "i8", "i16"])
@pytest.mark.parametrize("c_shape,a_spec,b_spec", GATHER_SHORT_ROWS, ids=[str(i) for i in range(len(GATHER_SHORT_ROWS))])
def test_gather_short_rows(rng, device, dtype, c_shape, a_spec, b_spec):
    run_case(rng, device, dtype, c_shape, a_spec, b_spec)


# A transposed input whose unit-stride dim j is short (5-31) and lies outside other dims of the
# output: on the GPU tiles of 8 or 16 along j and 128 or 64 along the output's rows where
# INFINI_ELEMENTWISE_NARROW_TILES is on (elementwise/nvidia.cuh, tiledKernel), the gather form or
# 32x32 tiles otherwise, the lane gather for some planes of 5-8 rows (below). Partial tiles along
# both dims, both inputs staged, padded output rows (the output not contiguous: tiles however sparse).
NARROW_PLANES = [
    # c shape, (a shape, a strides), (b shape, b strides), c strides
    ((6, 13, 8, 71), ((6, 13, 8, 71), permuted_strides((6, 13, 8, 71), (0, 2, 3, 1))), ((1, 13, 8, 1), None), None),
    ((3, 8, 5, 94), ((3, 8, 5, 94), permuted_strides((3, 8, 5, 94), (2, 1, 3, 0))), ((3, 8, 1, 1), None), None),
    ((5, 4, 130), ((5, 4, 130), permuted_strides((5, 4, 130), (1, 2, 0))), ((5, 4, 1), None), None),
    ((17, 3, 200), ((17, 3, 200), permuted_strides((17, 3, 200), (1, 2, 0))), ((17, 3, 200), None), None),
    ((31, 2, 16), ((31, 2, 16), permuted_strides((31, 2, 16), (1, 2, 0))), ((16,), None), None),
    ((9, 7, 150), ((9, 7, 150), permuted_strides((9, 7, 150), (1, 2, 0))),
     ((9, 7, 150), permuted_strides((9, 7, 150), (1, 2, 0))), None),                      # both staged
    ((11, 6, 77), ((11, 6, 77), permuted_strides((11, 6, 77), (1, 2, 0))), ((6, 1), None), (6 * 80, 80, 1)),
    # Planes of 6 rows whose staged input steps nj elements along the output's rows, j neighbours over 2 KB
    # and under 1 MB apart: the lane gather (INFINI_ELEMENTWISE_LANE_TILE_ROWS); a row a lane stays tiled.
    ((4, 6, 2100), ((4, 6, 2100), permuted_strides((4, 6, 2100), (0, 2, 1))), ((4, 6, 2100), None), None),
    ((6, 30, 90), ((6, 30, 90), permuted_strides((6, 30, 90), (1, 2, 0))), ((1, 30, 90), None), None),
    ((7, 40, 60), ((7, 40, 60), permuted_strides((7, 40, 60), (2, 1, 0))), ((7, 1, 60), None), None),
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float16, BF16, np.float32, np.float64, np.int8, np.int64],
                         ids=["f16", "bf16", "f32", "f64", "i8", "i64"])
@pytest.mark.parametrize("c_shape,a_spec,b_spec,c_strides", NARROW_PLANES,
                         ids=[str(i) for i in range(len(NARROW_PLANES))])
def test_narrow_transposed_planes(rng, device, dtype, c_shape, a_spec, b_spec, c_strides):
    run_case(rng, device, dtype, c_shape, a_spec, b_spec, c_strides)


# c's strides interleave without two elements at one address (SPEC: a valid output).
INTERLEAVED_C = [
    ((3, 2), ((3, 2), None), ((3, 2), None), (2, 3)),
    ((30, 20), ((30, 20), None), ((20,), None), (20, 31)),
    ((2, 2, 2), ((2, 2, 2), (1, 2, 4)), ((2, 1, 2), None), (2, 3, 4)),
    ((5, 2), ((5, 2), (2, 1)), ((5, 2), (1, 5)), (2, -5)),
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int8], ids=["float32", "float16", "int8"])
@pytest.mark.parametrize("c_shape,a_spec,b_spec,c_strides", INTERLEAVED_C,
                         ids=[str(i) for i in range(len(INTERLEAVED_C))])
def test_interleaved_output(rng, device, dtype, c_shape, a_spec, b_spec, c_strides):
    run_case(rng, device, dtype, c_shape, a_spec, b_spec, c_strides)


ROWS = [
    # rows contiguous inside, strided or broadcast across (the GPU's vector form of the strided path)
    ((64, 48), ((64, 48), (64, 1)), ((64, 1), None), None),
    ((64, 48), ((64, 48), (64, 1), 1), ((64, 1), None), None),        # a misaligned: scalar form
    ((5, 7, 32), ((7, 32), None), ((5, 1, 32), None), (512, 64, 1)),  # padded output rows
    ((1000,), ((1000,), None), ((), None), None),                      # scalar times a vector
    ((3, 160), ((3, 160), (-160, 1)), ((3, 160), (320, 1)), None),     # reversed rows
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.uint8, np.int16],
                         ids=["f16", "f32", "f64", "u8", "i16"])
@pytest.mark.parametrize("c_shape,a_spec,b_spec,c_strides", ROWS, ids=[str(i) for i in range(len(ROWS))])
def test_row_layouts(rng, device, dtype, c_shape, a_spec, b_spec, c_strides):
    run_case(rng, device, dtype, c_shape, a_spec, b_spec, c_strides)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8], ids=["f16", "f32", "f64", "i8"])
@pytest.mark.parametrize("n", [1, 7, 99, 4097, 100003])
def test_odd_sizes(rng, device, dtype, n):
    run_case(rng, device, dtype, (n,), ((n,), None), ((n,), None))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float16, BF16, np.float32, np.float64, np.int8],
                         ids=["f16", "bf16", "f32", "f64", "i8"])
@pytest.mark.parametrize("n", [3_000_017, 9_000_011])
def test_large_contiguous(rng, device, dtype, n):
    """Many blocks of the contiguous kernel, an odd tail after the last vector;
    on the GPU, grids of 256-thread blocks and (from about 540K vectors on an
    H100, elementwise/nvidia.h: contiguousVecBlock) of 1024-thread blocks."""
    run_case(rng, device, dtype, (n,), ((n,), None), ((n,), None))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int8], ids=["f16", "f32", "i8"])
@pytest.mark.parametrize("leads", [(1, 0), (0, 3), (1, 1), (5, 2)], ids=str)
def test_misaligned_starts(rng, device, dtype, leads):
    n = 4133
    a, av = operand(rng, (n,), None, dtype, device, lead=leads[0])
    b, bv = operand(rng, (n,), None, dtype, device, lead=leads[1])
    c, _ = poisoned((n,), dtype, device)
    if device != "cpu":
        c = c.view((n - 1,), (1,), 1)  # the output misaligned too
        a = a.view((n - 1,), (1,), 1)
        b = b.view((n - 1,), (1,), 1)
        av, bv = av[1:], bv[1:]
    else:
        c, a, b, av, bv = c[1:], a[1:], b[1:], av[1:], bv[1:]
    ip.mul(a, b, out=c)
    check(c, av, bv, dtype)


@pytest.mark.parametrize("device", DEVICES)
def test_many_dims_unmergeable(rng, device):
    """More dims than a GPU kernel indexes at once: split into launches."""
    shape = (2, 3, 2, 3, 2, 3, 2, 3)
    perm = np.arange(8)[::-1]
    strides = tuple(int(s) for s in np.array(contiguous_strides(tuple(np.array(shape)[perm])))[np.argsort(perm)])
    run_case(rng, device, np.float32, shape, (shape, strides), (shape, None))
    run_case(rng, device, np.float32, shape, (shape, None), (shape, None), strides)  # permuted output


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("shape", [(0,), (3, 0, 4), (0, 5)])
def test_empty(rng, device, shape):
    a, _ = operand(rng, shape, None, np.float32, device)
    b, _ = operand(rng, shape, None, np.float32, device)
    out = ip.mul(a, b)
    assert tuple(out.shape) == shape


def test_empty_accepts_null_pointers():
    with Descs(((0, 4), None), ((0, 4), None), ((0, 4), None)) as d:
        op = _create_op(d)
        assert lib.infiniopMul(op, ffi.NULL, 0, ffi.NULL, ffi.NULL, ffi.NULL, ffi.NULL) == 0
        assert lib.infiniopDestroyMulDescriptor(op) == 0


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float32, BF16, np.int64], ids=["f32", "bf16", "i64"])
def test_scalars(rng, device, dtype):
    run_case(rng, device, dtype, (), ((), None), ((), None))
    run_case(rng, device, dtype, (1, 1), ((), None), ((1,), None))


@pytest.mark.gpu
def test_torch_tensors():
    torch = pytest.importorskip("torch")
    for dtype in (torch.float16, torch.bfloat16, torch.float32, torch.int32):
        a = (torch.rand(33, 65, device="cuda") * 100).to(dtype)
        b = (torch.rand(65, device="cuda") * 100).to(dtype)
        out = ip.mul(a, b)
        torch.cuda.synchronize()
        assert isinstance(out, torch.Tensor)
        assert torch.equal(out, a * b), dtype
        c = torch.empty(65, 33, device="cuda", dtype=dtype).t()
        ip.mul(a.t().contiguous().t(), b, out=c)  # transposed a and c
        torch.cuda.synchronize()
        assert torch.equal(c, a * b)


@pytest.mark.gpu
def test_stream_argument(rng):
    from cuda.core import Device
    dev = Device(0)
    dev.set_current()
    stream = dev.create_stream()
    a, av = operand(rng, (1000,), None, np.float32, "nvidia")
    b, bv = operand(rng, (1000,), None, np.float32, "nvidia")
    out = ip.DeviceArray.empty((1000,), np.float32, 0, stream)
    ip.mul(a, b, out=out, stream=stream)
    stream.sync()
    check(out, av, bv, np.float32)


# c = a*b; a = c*b (overwrites what the first call read); c = c*a in place;
# b = a*c (overwrites what the first two read): (out, x, y) as indices of a, b, c.
_CHAIN = ((2, 0, 1), (0, 2, 1), (2, 2, 0), (1, 0, 2))


@pytest.mark.gpu
@pytest.mark.parametrize("lead", [0, 1], ids=["vector", "scalar"])
@pytest.mark.parametrize("dtype", [np.float16, BF16, np.float32])
def test_dependent_calls_back_to_back_gpu(rng, dtype, lead):
    # Contiguous calls, whose kernel may be launched with programmatic dependent
    # launch on sm_90 (elementwise/nvidia.cuh: eager and captured calls may
    # start while the previous kernel drains and must wait for it before
    # touching their operands), that depend on each other through every operand, queued
    # without a sync after kernels that know nothing of PDL (broadcast muls,
    # the strided path, restoring a and b), eagerly and as a CUDA graph. Each
    # step run alone (its output poisoned before) must be the float64 product
    # rounded once (exact products, so bit for bit), and the queued chains must
    # give the same bits. lead=1: every pointer one element past 16-byte
    # alignment (the scalar kernel).
    dtype = np.dtype(dtype)
    shape = (2500, 2056)
    n = shape[0] * shape[1]
    strides = contiguous_strides(shape)

    def values():  # +-[0.5, 2): no zeros, nothing overflows or underflows along the chain
        u = rng.uniform(-1.0, 1.0, size=shape)
        return (np.sign(u) * (0.5 + 1.5 * np.abs(u))).astype(dtype)

    def buffer(init):
        backing = ip.DeviceArray.from_numpy(np.full(n + lead, np.nan, dtype))
        view = backing.view(shape, strides, lead)
        view.copy_from_numpy(init)
        return view

    ha, hb = values(), values()
    src_a, src_b, ones_row = buffer(ha), buffer(hb), ip.DeviceArray.from_numpy(np.ones(shape[1], dtype))
    bufs = [buffer(ha), buffer(hb), buffer(np.full(shape, np.nan, dtype))]  # a, b, c
    nan = np.full(shape, np.nan, dtype)

    # The steps one at a time, each finished before the next.
    want = [ha, hb, None]
    for out, x, y in _CHAIN:
        if out not in (x, y):
            bufs[out].copy_from_numpy(nan)
        ip.mul(bufs[x], bufs[y], out=bufs[out])
        got = bufs[out].to_numpy()
        ref = (want[x].astype(np.float64) * want[y].astype(np.float64)).astype(dtype)
        assert np.array_equal(got.view(np.uint8), ref.view(np.uint8)), f"step {'abc'[out]} = {'abc'[x]}*{'abc'[y]}"
        want[out] = got

    def poison(s):
        for buf in bufs:
            buf.copy_from_numpy(nan, stream=s)

    def queue(s):
        ip.mul(src_a, ones_row, out=bufs[0], stream=s)  # a and b restored by plain (strided) kernels
        ip.mul(src_b, ones_row, out=bufs[1], stream=s)
        for out, x, y in _CHAIN:
            ip.mul(bufs[x], bufs[y], out=bufs[out], stream=s)

    def check(what, s):
        for k in range(3):
            got = bufs[k].to_numpy(stream=s)
            assert np.array_equal(got.view(np.uint8), want[k].view(np.uint8)), f"{what}: {'abc'[k]} differs"

    queue_dependent_chains(queue, poison, check)


def test_descriptor_cached_by_layout(rng):
    from infiniop_py.ops import _base
    a, _ = operand(rng, (5, 6), None, np.float32, "cpu")
    ip.mul(a, a)
    n = len(_base._cache("descriptors"))
    ip.mul(a, a)
    ip.mul(a + 1, a)
    assert len(_base._cache("descriptors")) == n


def test_descriptor_object(rng):
    a, av = operand(rng, (4, 5), None, np.float32, "cpu")
    b, bv = operand(rng, (5,), None, np.float32, "cpu")
    c = np.full((4, 5), np.nan, np.float32)
    with ip.Handle("cpu") as h, ip.TensorDescriptor((4, 5), None, np.float32) as tc, \
            ip.TensorDescriptor((4, 5), None, np.float32) as ta, ip.TensorDescriptor((5,), None, np.float32) as tb:
        op = ip.Mul(h, tc, ta, tb)
    assert op.workspace_size == 0
    op(c, a, b)
    check(c, av, bv, np.float32)
    op.close()
    op.close()


# ---- errors through the C ABI ----

class Descs:
    """Tensor descriptors for (c, a, b) from (shape, strides[, dtype]) specs."""

    def __init__(self, *specs, dtype=13):
        self.ptrs = []
        for spec in specs:
            shape, strides = spec[0], spec[1]
            dt = spec[2] if len(spec) > 2 else dtype
            raw = ffi.new("infiniopTensorDescriptor_t *")
            shape_c = ffi.new("size_t[]", list(shape)) if shape else ffi.NULL
            strides_c = ffi.new("ptrdiff_t[]", list(strides)) if strides is not None and shape else ffi.NULL
            assert lib.infiniopCreateTensorDescriptor(raw, len(shape), shape_c, strides_c, dt) == 0
            self.ptrs.append(raw[0])
        self.handle_p = ffi.new("infiniopHandle_t *")
        assert lib.infiniopCreateHandle(self.handle_p) == 0  # the thread's current device: CPU
        self.handle = self.handle_p[0]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for p in self.ptrs:
            lib.infiniopDestroyTensorDescriptor(p)
        lib.infiniopDestroyHandle(self.handle)


def _create_status(d):
    raw = ffi.new("infiniopMulDescriptor_t *")
    status = lib.infiniopCreateMulDescriptor(d.handle, raw, *d.ptrs)
    if status == 0:
        lib.infiniopDestroyMulDescriptor(raw[0])
    return status


def _create_op(d):
    raw = ffi.new("infiniopMulDescriptor_t *")
    assert lib.infiniopCreateMulDescriptor(d.handle, raw, *d.ptrs) == 0
    return raw[0]


S_OK, S_BAD_PARAM, S_NULL, S_DTYPE, S_SHAPE, S_STRIDES = 0, 3, 4, 10, 11, 12


@pytest.mark.parametrize("specs,status", [
    ((((3, 4), None), ((3, 4), None), ((3, 4), None)), S_OK),
    ((((3, 4), None), ((3, 4), None, 12), ((3, 4), None)), S_DTYPE),     # a F16, c F32
    ((((3, 4), None, 12), ((3, 4), None), ((3, 4), None, 12)), S_DTYPE),  # c, b F16, a F32
    ((((3, 4), None, 2), ((3, 4), None, 2), ((3, 4), None, 2)), S_DTYPE),  # BOOL unsupported
    ((((3, 4), None, 16), ((3, 4), None, 16), ((3, 4), None, 16)), S_DTYPE),  # C32 unsupported
    ((((3, 4), None, 11), ((3, 4), None, 11), ((3, 4), None, 11)), S_DTYPE),  # F8 unsupported
    ((((3, 4), None), ((3, 5), None), ((3, 4), None)), S_SHAPE),
    ((((3, 4), None), ((4, 4), None), ((3, 4), None)), S_SHAPE),
    ((((3, 4), None), ((2, 3, 4), None), ((3, 4), None)), S_SHAPE),      # a has a higher rank
    ((((3, 1), None), ((3, 4), None), ((3, 4), None)), S_SHAPE),         # c smaller than a
    ((((3, 0), None), ((3, 2), None), ((3, 0), None)), S_SHAPE),
    ((((1,), None), ((0,), None), ((1,), None)), S_SHAPE),
    ((((3, 4), (0, 1)), ((3, 4), None), ((3, 4), None)), S_STRIDES),     # c broadcast
    ((((3, 4), (2, 1)), ((3, 4), None), ((3, 4), None)), S_STRIDES),     # c overlaps itself
    ((((3, 4), (1, 1)), ((3, 4), None), ((3, 4), None)), S_STRIDES),
    ((((3, 4), (4, 1)), ((3, 4), (0, 0)), ((3, 4), (-4, -1))), S_OK),    # inputs may do anything
    ((((1, 4), (0, 1)), ((1, 4), None), ((1, 4), None)), S_OK),          # zero stride on a size-1 dim
])
def test_create_statuses(specs, status):
    with Descs(*specs) as d:
        assert _create_status(d) == status


def test_null_pointers():
    with Descs(((3, 4), None), ((3, 4), None), ((3, 4), None)) as d:
        raw = ffi.new("infiniopMulDescriptor_t *")
        c, a, b = d.ptrs
        assert lib.infiniopCreateMulDescriptor(ffi.NULL, raw, c, a, b) == S_NULL
        assert lib.infiniopCreateMulDescriptor(d.handle, ffi.NULL, c, a, b) == S_NULL
        assert lib.infiniopCreateMulDescriptor(d.handle, raw, ffi.NULL, a, b) == S_NULL
        assert lib.infiniopCreateMulDescriptor(d.handle, raw, c, ffi.NULL, b) == S_NULL
        assert lib.infiniopCreateMulDescriptor(d.handle, raw, c, a, ffi.NULL) == S_NULL
        op = _create_op(d)
        size = ffi.new("size_t *")
        assert lib.infiniopGetMulWorkspaceSize(op, size) == 0 and size[0] == 0
        assert lib.infiniopGetMulWorkspaceSize(op, ffi.NULL) == S_NULL
        assert lib.infiniopGetMulWorkspaceSize(ffi.NULL, size) == S_NULL
        buf = np.ones(12, np.float32)
        p = ffi.cast("void *", buf.ctypes.data)
        assert lib.infiniopMul(op, ffi.NULL, 0, p, p, p, ffi.NULL) == 0
        assert lib.infiniopMul(ffi.NULL, ffi.NULL, 0, p, p, p, ffi.NULL) == S_NULL
        assert lib.infiniopMul(op, ffi.NULL, 0, ffi.NULL, p, p, ffi.NULL) == S_NULL
        assert lib.infiniopMul(op, ffi.NULL, 0, p, ffi.NULL, p, ffi.NULL) == S_NULL
        assert lib.infiniopMul(op, ffi.NULL, 0, p, p, ffi.NULL, ffi.NULL) == S_NULL
        assert lib.infiniopDestroyMulDescriptor(op) == 0
        assert lib.infiniopDestroyMulDescriptor(ffi.NULL) == S_NULL


def test_descriptor_of_another_operator_is_refused():
    """BAD_PARAM: a Mul descriptor handed to another operator's Destroy, when that operator exists."""
    name = "infiniopDestroyLPNormDescriptor"
    try:
        destroy_other = getattr(lib, name)
    except (AttributeError, NotImplementedError):
        pytest.skip(f"{name} is not in this build")
    with Descs(((3, 4), None), ((3, 4), None), ((3, 4), None)) as d:
        op = _create_op(d)
        assert destroy_other(op) == S_BAD_PARAM
        assert lib.infiniopDestroyMulDescriptor(op) == 0


def test_descriptors_may_be_destroyed_after_create(rng):
    with Descs(((6, 7), None), ((6, 7), None), ((7,), None)) as d:
        op = _create_op(d)
        for p in d.ptrs:
            lib.infiniopDestroyTensorDescriptor(p)
        d.ptrs = []
        a = _random(rng, 42, np.float32).reshape(6, 7)
        b = _random(rng, 7, np.float32)
        c = np.full((6, 7), np.nan, np.float32)
        cp = lambda x: ffi.cast("void *", x.ctypes.data)  # noqa: E731
        assert lib.infiniopMul(op, ffi.NULL, 0, cp(c), cp(a), cp(b), ffi.NULL) == 0
        assert lib.infiniopDestroyMulDescriptor(op) == 0
        check(c, a, b, np.float32)


# ---- errors through Python ----

def test_python_errors(rng):
    a = _random(rng, 12, np.float32).reshape(3, 4)
    with pytest.raises(ip.BadTensorDtype) as info:
        ip.mul(a, a.astype(np.float64))
    assert "infiniopCreateMulDescriptor" in str(info.value) and "(3, 4)" in str(info.value)
    with pytest.raises(ip.BadTensorDtype):
        ip.mul(a.astype(np.bool_), a.astype(np.bool_))
    with pytest.raises(ip.BadTensorShape):
        ip.mul(a, a, out=np.empty((4, 3), np.float32))
    with pytest.raises(ValueError):  # not broadcastable: NumPy says so before the C call
        ip.mul(a, a[:, :3])
    out = np.lib.stride_tricks.as_strided(np.empty(4, np.float32), (3, 4), (0, 4))
    with pytest.raises(ip.BadTensorStrides):
        ip.mul(a, a, out=out)
