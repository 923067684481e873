"""LPNorm: y = x / max(||x||_p, eps) along an axis, on CPU and NVIDIA, against a
float64 NumPy reference (scaled by the row's max so that it never overflows)."""

import numpy as np
import pytest

import infiniop_py as ip
from infiniop_py._ffi import lib
from conftest import DEVICES, poisoned, queue_dependent_chains, to_device, to_host

BF16 = ip.bfloat16
DTYPES = {"f32": np.dtype(np.float32), "f64": np.dtype(np.float64), "f16": np.dtype(np.float16), "bf16": BF16}
CODES = {np.dtype(np.float16): 12, np.dtype(np.float32): 13, np.dtype(np.float64): 14, BF16: 19}
# Relative to the row's largest output, plus the dtype's smallest step near 0
# (outputs of long p = 1 rows are F16 subnormals).
TOL = {np.dtype(np.float32): 1e-5, np.dtype(np.float64): 1e-12, np.dtype(np.float16): 2e-3, BF16: 1e-2}
TINY = {np.dtype(np.float32): 1e-44, np.dtype(np.float64): 0.0, np.dtype(np.float16): 6e-8, BF16: 1e-40}

# BAD_PARAM etc. as the C library returns them.
SUCCESS, BAD_PARAM, NULL_POINTER = 0, 3, 4
BAD_DTYPE, BAD_SHAPE, BAD_STRIDES, INSUFFICIENT = 10, 11, 12, 13


def reference(x, axis, p, eps):
    """torch.nn.functional.normalize's definition in float64: y = x / max(||x||_p, eps),
    the norm scaled by the row's max so that it never overflows. Non-finite
    inputs as torch: a NaN makes its row's norm NaN (the row all NaN); else an
    inf makes the norm inf (y = x / inf: 0, NaN at the infs). All-zero rows give
    zeros, also for eps = 0 (torch: NaN), as the README says."""
    eps = float(np.float32(eps))  # the C ABI takes eps as a float
    x = x.astype(np.float64)
    finite = np.isfinite(x)
    a = np.where(finite, np.abs(x), 0.0)
    m = a.max(axis=axis, keepdims=True) if a.size else a
    safe = np.where(m > 0, m, 1.0)
    norm = m * ((a / safe) ** p).sum(axis=axis, keepdims=True) ** (1.0 / p)
    d = np.maximum(norm, eps)
    y = np.where(d > 0, x / np.where(d > 0, d, 1.0), 0.0)
    if not finite.all():
        with np.errstate(invalid="ignore"):
            has_nan = np.isnan(x).any(axis=axis, keepdims=True)
            has_inf = np.isinf(x).any(axis=axis, keepdims=True)
            y = np.where(has_inf, x / np.inf, y)
            y = np.where(has_nan, np.nan, y)
    return y


def assert_close(got, ref, axis, dtype):
    got = np.asarray(got).astype(np.float64)
    assert not np.isnan(got).any(), "NaN in the output (unwritten element or bad arithmetic)"
    scale = np.abs(ref).max(axis=axis, keepdims=True) if ref.size else 0
    bound = TOL[dtype] * (np.abs(ref) + scale) + TINY[dtype]
    bad = np.abs(got - ref) > bound
    assert not bad.any(), (f"{bad.sum()} of {bad.size} elements off; worst {np.abs(got - ref).max():.3g}, "
                           f"first at {np.argwhere(bad)[0]}: got {got[bad][0]!r}, want {ref[bad][0]!r}")


def random_input(rng, shape, dtype):
    """Fresh random values (never zeros) in the dtype."""
    x = rng.standard_normal(shape) * rng.uniform(0.5, 4)
    x = np.where(x == 0, 0.5, x)
    return x.astype(dtype)


def extreme_input(rng, shape, dtype, scale):
    """|x| in [0.25, 1] x scale with random signs (sums of |x|^p that over- or underflow)."""
    signs = np.where(rng.random(shape) < 0.5, -1.0, 1.0)
    return (signs * rng.uniform(0.25, 1.0, shape) * scale).astype(dtype)


def layout_strides(shape, layout):
    n = len(shape)
    if layout in ("contig", "negative"):
        dims = list(shape)
    elif layout == "padded":
        dims = list(shape[:-1]) + [shape[-1] + 3] if n else []
    elif layout == "transposed":
        strides, step = [0] * n, 1
        for i in range(n):
            strides[i] = step
            step *= max(shape[i], 1)
        return tuple(strides)
    else:
        raise ValueError(layout)
    strides, step = [0] * n, 1
    for i in reversed(range(n)):
        strides[i] = step
        step *= max(dims[i], 1)
    if layout == "negative":
        for i in range(n):  # flip the first dim longer than 1
            if shape[i] > 1:
                strides[i] = -strides[i]
                break
    return tuple(strides)


def _span_offset(shape, strides):
    span = 1 + sum((n - 1) * abs(s) for n, s in zip(shape, strides) if n > 0)
    offset = sum((n - 1) * -s for n, s in zip(shape, strides) if s < 0 and n > 0)
    return span, offset


def positions(shape, strides):
    """Indices into the backing buffer of each element of a strided view."""
    span, offset = _span_offset(shape, strides)
    idx = np.arange(span, dtype=np.int64)
    return np.lib.stride_tricks.as_strided(idx[offset:], shape, [s * 8 for s in strides]).ravel()


def placed(x, device, strides, rng):
    """`x`'s values in a strided view of a larger buffer of random garbage.
    Returns (array for the call, backing buffer)."""
    span, offset = _span_offset(x.shape, strides)
    backing = (rng.standard_normal(span) * 5 + 3).astype(x.dtype)
    view = np.lib.stride_tricks.as_strided(backing[offset:], x.shape, [s * x.itemsize for s in strides])
    view[...] = x
    if device == "cpu":
        return view, backing
    dev = ip.DeviceArray.from_numpy(backing)
    return dev.view(x.shape, strides, offset), dev


def run_case(device, rng, x, axis, p, eps=1e-12, layout="contig", y_layout="contig", inplace=True):
    """Out of place (x in `layout`, y in `y_layout`, y poisoned) and, with
    `inplace`, in place (y is x in `layout`); elements outside the views stay as they were."""
    ref = reference(x, axis, p, eps)
    xs = layout_strides(x.shape, layout)
    xa, xb = placed(x, device, xs, rng)
    x_before = to_host(xb).copy()
    ys = layout_strides(x.shape, y_layout)
    ya, yb = poisoned(x.shape, x.dtype, device, ys)
    out = ip.lp_norm(xa, axis=axis, p=p, eps=eps, out=ya)
    assert out is ya
    assert_close(to_host(ya), ref, axis, x.dtype)
    assert np.array_equal(to_host(xb).view(np.uint8), x_before.view(np.uint8)), "x was written"
    ybh = to_host(yb).astype(np.float64)
    outside = np.ones(ybh.size, bool)
    outside[positions(x.shape, ys)] = False
    assert np.isnan(ybh[outside]).all(), "y written outside its view"
    if inplace:
        xa, xb = placed(x, device, xs, rng)
        before = to_host(xb).copy()
        ip.lp_norm(xa, axis=axis, p=p, eps=eps, out=xa)
        assert_close(to_host(xa), ref, axis, x.dtype)
        inside = np.zeros(before.size, bool)
        inside[positions(x.shape, xs)] = True
        after = to_host(xb)
        assert np.array_equal(after[~inside].view(np.uint8), before[~inside].view(np.uint8))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["f32", "f16"])
@pytest.mark.parametrize("shape,y_strides", [((3, 2), (2, 3)), ((30, 20), (20, 31)), ((2, 2, 2), (2, 3, 4))],
                         ids=str)
def test_interleaved_y(device, rng, dtype, shape, y_strides):
    """A y whose strides interleave without two elements at one address (SPEC: a valid
    output), every axis; the elements between stay untouched."""
    x = random_input(rng, shape, DTYPES[dtype])
    for axis in range(len(shape)):
        ref = reference(x, axis, 2, 1e-12)
        xa, _ = placed(x, device, layout_strides(shape, "contig"), rng)
        ya, yb = poisoned(shape, x.dtype, device, y_strides)
        ip.lp_norm(xa, axis=axis, p=2, out=ya)
        assert_close(to_host(ya), ref, axis, x.dtype)
        ybh = to_host(yb).astype(np.float64)
        outside = np.ones(ybh.size, bool)
        outside[positions(shape, y_strides)] = False
        assert np.isnan(ybh[outside]).all(), "y written outside its view"


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("shape", [(64, 33), (3, 70001)], ids=str)
@pytest.mark.parametrize("p", [1 << 30, 1_800_000_000, (1 << 31) - 1])
def test_huge_p(device, rng, dtype, shape, p):
    """p up to INT_MAX: the norm tends to max |x| (times count^(1/p)). The max's own
    scaled term is 1; in F32 m * (1 / m) can round to 1 - ulp, whose p-th power
    underflows for p above ~1.7e9, and the row must not come out as x / eps."""
    x = random_input(rng, shape, DTYPES[dtype])
    run_case(device, rng, x, axis=1, p=p, layout="contig", y_layout="contig")


# ---- the reference implementation's cases ----

REFERENCE_CASES = [
    # (shape, x strides, axis, p)
    ((2, 1, 512), (17408, 1024, 1), -1, 2),
    ((2, 1, 1024), (17408, 1024, 1), -1, 2),
    ((2, 1, 2048), (17408, 1024, 1), -1, 2),
    ((2048, 2050), None, 0, 1),
    ((2048, 2050), None, 1, 1),
] + [((1, 16, 512, 512), None, a, p) for a in range(4) for p in (1, 2)]
BIG_CASES = [((12, 16, 512, 512), None, a, p) for a in range(4) for p in (1, 2)]


def _reference_case(device, rng, dtype, shape, strides, axis, p):
    dtype = DTYPES[dtype]
    x = random_input(rng, shape, dtype)
    ref = reference(x, axis, p, 1e-12)
    strides = strides or layout_strides(shape, "contig")
    xa, _ = placed(x, device, strides, rng)
    ya, _ = poisoned(shape, dtype, device)
    ip.lp_norm(xa, axis=axis, p=p, out=ya)
    assert_close(to_host(ya), ref, axis, dtype)
    ip.lp_norm(xa, axis=axis, p=p, out=xa)  # in place
    assert_close(to_host(xa), ref, axis, dtype)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["bf16", "f16", "f32"])
@pytest.mark.parametrize("shape,strides,axis,p", REFERENCE_CASES)
def test_reference_cases(device, rng, dtype, shape, strides, axis, p):
    _reference_case(device, rng, dtype, shape, strides, axis, p)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["bf16", "f16", "f32"])
@pytest.mark.parametrize("shape,strides,axis,p", BIG_CASES)
def test_reference_cases_large(rng, dtype, shape, strides, axis, p):
    # 50M elements: on the GPU only (the CPU test file must stay fast; the
    # (1, 16, 512, 512) cases cover the same CPU code paths).
    _reference_case("nvidia", rng, dtype, shape, strides, axis, p)


# ---- layouts, row lengths, dtypes, p ----

SHAPES = [(1,), (31,), (7, 1), (5, 33), (3, 31, 2), (2, 1025), (4, 1, 6, 3)]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("layout", ["contig", "transposed", "padded", "negative"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_layouts_every_axis(device, rng, dtype, layout, shape):
    x = random_input(rng, shape, DTYPES[dtype])
    for axis in range(-len(shape), len(shape)):
        for p in (1, 2, 3):
            run_case(device, rng, x, axis, p, layout=layout, inplace=(p == 2))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["f32", "f16"])
@pytest.mark.parametrize("x_layout,y_layout", [("contig", "transposed"), ("transposed", "padded"),
                                               ("padded", "negative")])
def test_x_and_y_layouts_differ(device, rng, dtype, x_layout, y_layout):
    x = random_input(rng, (6, 40, 9), DTYPES[dtype])
    for axis in range(3):
        run_case(device, rng, x, axis, 2, layout=x_layout, y_layout=y_layout, inplace=False)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("axis", [0, 5, -1])
def test_many_unmergeable_dims(device, rng, axis):
    # 11 dims whose strides cannot merge: more outer dims than the GPU kernels
    # decompose by hand (they read a table of offsets instead).
    shape = (2, 3, 2, 2, 3, 2, 2, 2, 3, 2, 2)
    x = random_input(rng, shape, np.float32)
    perm = rng.permutation(len(shape))
    strides = [0] * len(shape)
    step = 1
    for d in perm:
        strides[d] = step
        step *= shape[d] + 1  # padding between dims: nothing merges
    ref = reference(x, axis, 2, 1e-12)
    xa, _ = placed(x, device, tuple(strides), rng)
    ya, _ = poisoned(shape, np.float32, device, tuple(strides))
    ip.lp_norm(xa, axis=axis, out=ya)
    assert_close(to_host(ya), ref, axis, np.dtype(np.float32))
    ip.lp_norm(xa, axis=axis, out=xa)
    assert_close(to_host(xa), ref, axis, np.dtype(np.float32))


@pytest.mark.parametrize("device", DEVICES)
def test_broadcast_input(device, rng):
    # x read through zero strides (along the axis and along another dim); y dense.
    row = random_input(rng, (1, 1, 7), np.float32)
    for shape, strides, axis in (((5, 6, 7), (0, 0, 1), 2), ((5, 6, 7), (0, 0, 1), 0), ((5, 6, 7), (0, 0, 1), 1)):
        x = np.broadcast_to(row, shape)
        ref = reference(x, axis, 2, 1e-12)
        xa = np.lib.stride_tricks.as_strided(row.copy(), shape, [s * 4 for s in strides]) if device == "cpu" else \
            ip.DeviceArray.from_numpy(row.reshape(7)).view(shape, strides)
        ya, _ = poisoned(shape, np.float32, device)
        ip.lp_norm(xa, axis=axis, out=ya)
        assert_close(to_host(ya), ref, axis, np.dtype(np.float32))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["f32", "bf16", "f64"])
@pytest.mark.parametrize("shape,axis", [((3, 70000), 1), ((2, 1 << 20), 1), ((3, 70001), 1), ((70000, 3), 0),
                                        ((2, 5000, 8), 1), ((4096, 33), 0)], ids=str)
def test_long_rows_and_columns(device, rng, dtype, shape, axis):
    x = random_input(rng, shape, DTYPES[dtype])
    for p in (1, 2):
        run_case(device, rng, x, axis, p, inplace=(p == 2))


@pytest.mark.parametrize("dtype,shape", [("f16", (4, 300001)), ("bf16", (2, 1 << 19)), ("f32", (1, (1 << 22) + 5))],
                         ids=str)
def test_long_rows_over_threads_cpu(rng, dtype, shape):
    # Contiguous rows of 256K+ elements, since session 35 each cut into pieces
    # of 64K elements over the threads (normRowVec's three phases, the same
    # bits): p 1 / 2 / 3 against the float64 reference, uneven last pieces,
    # non-finite rows by torch's rule, extreme magnitudes (the scaled sums),
    # and an output past 16 MB (streamed stores).
    dt = DTYPES[dtype]
    x = random_input(rng, shape, dt)
    for p in (1, 2, 3):
        run_case("cpu", rng, x, 1, p, inplace=(p == 2))
    xn = nonfinite_input(rng, shape, 1, dt)
    for p, eps in ((2, 1e-12), (1, 0.0)):
        assert_nonfinite(ip.lp_norm(xn, axis=1, p=p, eps=eps), reference(xn, 1, p, eps), 1, dt)
    scale = {"f16": 1e-6, "bf16": 1e30, "f32": 1e-30}[dtype]
    run_case("cpu", rng, extreme_input(rng, shape, dt, scale), 1, 3, eps=0.0, inplace=False)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype,scale", [("f32", 1e30), ("f32", 1e-30), ("f32", 1e-40), ("f32", 3e38),
                                         ("f16", 60000.0), ("f16", 1e-6), ("bf16", 1e30), ("bf16", 1e-30),
                                         ("f64", 1e300), ("f64", 1e-300), ("f64", 1e-310)])
@pytest.mark.parametrize("shape,axis", [((6, 300), 1), ((300, 6), 0), ((3, 40000), 1)], ids=str)
def test_extreme_magnitudes(device, rng, dtype, scale, shape, axis):
    dtype = DTYPES[dtype]
    x = extreme_input(rng, shape, dtype, scale)
    assert np.isfinite(x.astype(np.float64)).all() and (x != 0).all()
    for p in (1, 2, 3):
        run_case(device, rng, x, axis, p, eps=0.0, inplace=False)
        run_case(device, rng, x, axis, p, eps=1e-12, inplace=False)


# Reductions over a non-innermost axis (the Cols plans): inner extents odd (one element a thread) and
# multiples of a pack, columns short enough to be held in registers and long enough to stream; p 3 has
# a case of its own in the GPU kernels' statistics loop, p 4 takes the general one. The last two, and
# the first, are slabs (axis x inner contiguous, enough of them): slab.cu's plan where it is built in.
COLUMN_SHAPES = [((43, 16, 108, 19), 2), ((70, 13, 75), 0), ((8, 64, 512), 1), ((3, 300, 24), 1), ((9, 7, 33), 1),
                 ((300, 9, 129), 1), ((330, 41, 23), 1)]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("shape,axis", COLUMN_SHAPES, ids=str)
def test_columns_every_p(device, rng, dtype, shape, axis):
    x = random_input(rng, shape, DTYPES[dtype])
    for p in (1, 2, 3, 4):
        run_case(device, rng, x, axis, p, inplace=(p == 3))
    # Magnitudes whose cubes leave the plain sum's range (math.h PlainLimits: F32 2^64, F64 1e200): the
    # scaled two-step sum. (F16's largest cube, in F32, stays inside it.)
    if dtype != "f16":
        big = 1e70 if dtype == "f64" else 1e14
        run_case(device, rng, (x.astype(np.float64) * big).astype(DTYPES[dtype]), axis, 3, inplace=False)


# Slabs in groups (slab.cu, where the Slab plan is built in): neighbouring slabs of the fastest outer dim
# share a block, the last group of that dim shorter ((1001, 45, 7): groups of 3, 2 left; (2000, 13, 5):
# groups of 7, 5 left), under another outer dim ((3, 700, 20, 6)), that dim reversed ("negative"); slabs
# wider than a block's threads ((40, 11, 278), (9, 6, 700): a thread several columns on the GPU); slabs
# past 32 KB, one a block in dynamic shared memory where the plan would be Cols (nvidia_plan.h
# slabBigBytes): F32 (270, 70, 131) 37 KB and (300, 90, 190) 68 KB, F64 (270, 30, 150) 36 KB, 16-bit
# (300, 90, 190) 34 KB; past the rule's bytes, Cols or column chunks ((270, 20, 419) F64 67 KB: chunks);
# columns of 17-64 rows a thread each in groups of >= 80 (nvidia.cc INFINI_LP_NORM_SLAB_ONE_PART_MAX_LEN:
# (6000, 40, 5) 16-bit, (4000, 20, 8) 2- and 4-byte; F64 and F32's (6000, 40, 5) in parts of thread rows).
@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("shape,axis", [((1001, 45, 7), 1), ((2000, 13, 5), 1), ((3, 700, 20, 6), 2),
                                        ((40, 11, 278), 1), ((9, 6, 700), 1), ((270, 20, 419), 1),
                                        ((270, 70, 131), 1), ((300, 90, 190), 1), ((270, 30, 150), 1),
                                        ((6000, 40, 5), 1), ((4000, 20, 8), 1)], ids=str)
@pytest.mark.parametrize("layout", ["contig", "negative"])
def test_slab_groups(device, rng, dtype, shape, axis, layout):
    x = random_input(rng, shape, DTYPES[dtype])
    for p in (1, 2, 3):
        run_case(device, rng, x, axis, p, layout=layout, y_layout="contig", inplace=(p == 2))
    slabs = x.reshape((-1,) + x.shape[axis:])  # (a view: x is contiguous)
    slabs[1, 5] = np.inf  # non-finite slabs beside finite ones in their group
    slabs[2, 3] = np.nan
    slabs[4] = 0
    for p in (1, 2):
        ya, _ = poisoned(x.shape, x.dtype, device)
        ip.lp_norm(to_device(x, device), axis=axis, p=p, out=ya)
        assert_nonfinite(to_host(ya), reference(x, axis, p, 1e-12), axis, x.dtype)


# Inner extents past a block's threads with short columns: on the GPU the Slab plan in column chunks
# where Cols would load units (INFINI_LP_NORM_SLAB_CHUNKS 1: odd inner extents), each row's segment on
# its own 16-byte grid; Cols otherwise: padded rows (a reduced stride past the inner extent), a reversed
# outer dim, an even inner extent ((300, 12, 300): packed Cols), F64 columns too long for a chunk
# ((280, 40, 301)), columns past the chunks' 100 rows ((3, 120, 301)).
@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("shape,axis", [((280, 9, 301), 1), ((150, 9, 7, 83), 1), ((300, 12, 300), 1),
                                        ((2, 150, 5, 517), 2), ((280, 40, 301), 1), ((3, 120, 301), 1)],
                         ids=str)
@pytest.mark.parametrize("layout", ["contig", "negative", "padded"])
def test_column_chunks(device, rng, dtype, shape, axis, layout):
    x = random_input(rng, shape, DTYPES[dtype])
    for p in (2, 3):
        run_case(device, rng, x, axis, p, layout=layout, y_layout="contig", inplace=(p == 2))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["f32", "f16", "bf16", "f64"])
def test_columns_of_mixed_magnitudes(device, rng, dtype):
    """Reductions over axis 0 where neighbouring columns need the scaled two-step
    sum (tiny, huge, zero, inf, NaN) and the rest do not: whole tiles of columns
    (F64: sums past math.h's plain range of 1e-200..1e200, so that the one-pass
    kernels fall back for those columns only)."""
    dtype = DTYPES[dtype]
    big = {np.float16: 6e4, np.float64: 1e150}.get(dtype.type, 1e30)
    tiny = {np.float16: 1e-6, np.float64: 1e-150}.get(dtype.type, 1e-30)
    x = rng.uniform(0.25, 1.0, (67, 300)) * np.where(rng.random((67, 300)) < 0.5, -1.0, 1.0)
    x[:, 5] *= tiny
    x[:, 140] *= big
    x[:, 200] = 0
    x = x.astype(dtype)
    for p in (1, 2):
        run_case(device, rng, x, 0, p, inplace=False)
    x[3, 7] = np.inf
    x[9, 150] = np.nan
    for p in (1, 2):
        ya, _ = poisoned(x.shape, dtype, device)
        ip.lp_norm(to_device(x, device), axis=0, p=p, out=ya)
        assert_nonfinite(to_host(ya), reference(x, 0, p, 1e-12), 0, dtype)
    x[:, 5:] = np.asarray(rng.uniform(0.25, 1.0, (67, 295)), dtype)  # only the first tile needs the two steps
    x[:, 0] *= dtype.type(tiny)
    run_case(device, rng, x, 0, 2, inplace=False)


# Columns whose thread rows' parts differ in kind: whole chunks and thread rows of zeros beside plain ones,
# and packs whose first column is zero where the second is not (cols.cu's plain merge, where a part that
# took no max meets one that did). On the GPU: (4000, 66) axis 0 a cut axis of F64 pairs at 4 rows a
# thread, (3, 40, 3000) axis 1 uncut at 8 rows, (500, 6000) axis 0 a cut axis at 8 rows.
@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["f64", "f32", "bf16"])
@pytest.mark.parametrize("shape,axis", [((4000, 66), 0), ((3, 40, 3000), 1), ((500, 6000), 0)], ids=str)
def test_columns_with_zero_parts(device, rng, dtype, shape, axis):
    dtype = DTYPES[dtype]
    x = rng.uniform(0.25, 1.0, shape) * np.where(rng.random(shape) < 0.5, -1.0, 1.0)
    lead = (slice(None),) * axis
    n = shape[axis]
    x[lead + (slice(0, n // 2),)] = 0  # the first half of every column: zero chunks and thread rows
    x[lead + (slice(n // 2, n - 3), slice(0, None, 2))] = 0  # even columns: nonzero in their last 3 rows only
    x = x.astype(dtype)
    for p in (1, 2, 3):
        run_case(device, rng, x, axis, p, inplace=False)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("eps", [0.0, 1e-12])
def test_all_zero_rows_give_zeros(device, rng, dtype, eps):
    dtype = DTYPES[dtype]
    for shape, axis in (((5, 70), 1), ((70, 5), 0), ((3, 70000), 1)):
        x = random_input(rng, shape, dtype)
        if axis == 1:
            x[1] = 0
        else:
            x[:, 1] = 0
        run_case(device, rng, x, axis, 2, eps=eps)
        y = ip.lp_norm(x if device == "cpu" else ip.DeviceArray.from_numpy(x), axis=axis, eps=eps)
        zero = to_host(y)[1] if axis == 1 else to_host(y)[:, 1]
        assert (zero == 0).all()


# Rows of each kind of non-finite content; the rest random.
NONFINITE_ROWS = [
    ("+inf", [np.inf]), ("-inf and +inf", [-np.inf, np.inf]), ("NaN", [np.nan]), ("NaN and inf", [np.nan, np.inf]),
    ("zeros and NaN", "zeros+nan"), ("zeros and -inf", "zeros+inf"), ("all inf", "all inf"), ("finite", []),
]


def nonfinite_input(rng, shape, axis, dtype):
    """Row r (along `axis`) gets NONFINITE_ROWS[r % 8]'s content at random places."""
    x = np.moveaxis(random_input(rng, shape, dtype).astype(np.float64), axis, -1).copy()
    rows = x.reshape(-1, x.shape[-1])
    for r in range(rows.shape[0]):
        kind = NONFINITE_ROWS[r % len(NONFINITE_ROWS)][1]
        if kind == "zeros+nan":
            rows[r] = 0.0
            kind = [np.nan]
        elif kind == "zeros+inf":
            rows[r] = 0.0
            kind = [-np.inf]
        elif kind == "all inf":
            rows[r] = np.where(rng.random(rows.shape[1]) < 0.5, -np.inf, np.inf)
            kind = []
        at = rng.choice(rows.shape[1], size=min(len(kind), rows.shape[1]), replace=False)
        rows[r, at] = kind[: len(at)]
    return np.moveaxis(x, -1, axis).astype(dtype)


def assert_nonfinite(got, ref, axis, dtype):
    """NaN exactly where the reference has NaN; elsewhere close, zeros with the reference's sign."""
    got = np.asarray(got).astype(np.float64)
    assert np.array_equal(np.isnan(got), np.isnan(ref)), (
        f"NaN at {np.argwhere(np.isnan(got) != np.isnan(ref))[:3].tolist()}: got "
        f"{got[np.isnan(got) != np.isnan(ref)][:3]}, want {ref[np.isnan(got) != np.isnan(ref)][:3]}")
    num = ~np.isnan(ref)
    zero = num & (ref == 0)
    assert (got[zero] == 0).all() and np.array_equal(np.signbit(got[zero]), np.signbit(ref[zero]))
    assert_close(np.where(num, got, 0.0), np.where(num, ref, 0.0), axis, dtype)


NONFINITE_SHAPES = [((8, 40), 1), ((16, 5000), 1), ((8, 70000), 1), ((40, 8), 0), ((70000, 8), 0),
                    ((3, 8, 5), 1)]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("shape,axis", NONFINITE_SHAPES, ids=str)
def test_nonfinite_inputs_as_torch(device, rng, dtype, shape, axis):
    # Short rows, a block per row, split rows, columns held and streamed.
    dtype = DTYPES[dtype]
    x = nonfinite_input(rng, shape, axis, dtype)
    for p, eps in ((2, 1e-12), (1, 0.0), (3, 1e-12)):
        ref = reference(x, axis, p, eps)
        xa, _ = placed(x, device, layout_strides(shape, "contig"), rng)
        ya, _ = poisoned(shape, dtype, device)
        ip.lp_norm(xa, axis=axis, p=p, eps=eps, out=ya)
        assert_nonfinite(to_host(ya), ref, axis, dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["bf16", "f32"])
def test_nonfinite_inputs_long_rows_gpu(rng, dtype):
    # Rows held by a cluster of blocks (sm_90: 8 for BF16, 16 for F32) or split (earlier GPUs).
    dtype = DTYPES[dtype]
    shape = (24, 1 << 20)
    x = nonfinite_input(rng, shape, 1, dtype)
    ref = reference(x, 1, 2, 1e-12)
    ya, _ = poisoned(shape, dtype, "nvidia")
    ip.lp_norm(ip.DeviceArray.from_numpy(x), axis=1, out=ya)
    assert_nonfinite(to_host(ya), ref, 1, dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["bf16", "f16", "f32", "f64"])
@pytest.mark.parametrize("shape", [(70, 1 << 17), (140, 8 * (2 * 8192 + 1)), (20, 1 << 20), (4, 1 << 20)], ids=str)
def test_long_rows_many_gpu(rng, dtype, shape):
    # Enough long rows to fill the GPU: one cluster of blocks per row on sm_90
    # (2 to 16 blocks of 16384 packs, the last chunk partly filled in the
    # second shape); a split row otherwise (the last shape, shorter rows, F64).
    x = random_input(rng, shape, DTYPES[dtype])
    for p in (2, 1):
        run_case("nvidia", rng, x, 1, p, inplace=(p == 2))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,scale,shape", [("f32", 1e30, (5, 1 << 20)), ("f32", 1e-30, (5, 1 << 20)),
                                               ("bf16", 1e30, (5, 1 << 20)), ("f16", 1e-6, (5, 1 << 20)),
                                               ("f64", 1e300, (8, 1 << 19)), ("f64", 1e-300, (8, 1 << 19)),
                                               ("bf16", 1e-30, (8, 1 << 19)), ("f32", 3e38, (8, 1 << 19))], ids=str)
def test_extreme_magnitudes_long_rows_gpu(rng, dtype, scale, shape):
    # A few long rows (sm_90: TwoPass, clusters of 16, or for 2-byte elements
    # since session 26 Hold, whose out-of-range part sums are read again for
    # their max; split elsewhere) whose one-pass sum over- or
    # underflows, so that the scaled statistics decide (in every block).
    x = extreme_input(rng, shape, DTYPES[dtype], scale)
    for p, eps in ((2, 0.0), (1, 1e-12), (3, 0.0)):
        run_case("nvidia", rng, x, 1, p, eps=eps, inplace=False)


# ---- long rows on sm_90: the TwoPass plan (two_pass.cu; split or cluster elsewhere) ----

@pytest.mark.gpu
@pytest.mark.parametrize("dtype,shape", [("bf16", (32, 1 << 20)), ("bf16", (37, (1 << 20) - 296)),
                                         ("f16", (300, 65544)), ("f32", (9, 3 * (1 << 19) + 8)),
                                         ("f64", (12, 1 << 19))], ids=str)
def test_two_pass_long_rows_gpu(rng, dtype, shape):
    # The case; rows not a multiple of the clusters, with uneven
    # chunks; many long rows (clusters of 1-2). The library takes TwoPass for
    # 2-byte elements only: the F64 rows check the Cluster plan beside it, the
    # F32 rows (14M elements) since session 27 the Hold plan.
    x = random_input(rng, shape, DTYPES[dtype])
    for p in (2,) if shape[0] * shape[1] > 1 << 24 else (2, 1, 3):  # p = 1, 3 on the smaller ones
        run_case("nvidia", rng, x, 1, p, inplace=(p == 2))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,shape", [("f16", (16, 1 << 19)), ("f16", (300, 65544)), ("f64", (16, 1 << 18)),
                                         ("bf16", (13, 1 << 20))], ids=str)
def test_two_pass_nonfinite_gpu(rng, dtype, shape):
    # NaN / inf / zero rows by torch's rule: the merged one-pass sum is not
    # usable, so the cluster's scaled statistics (two more reads) decide
    # (TwoPass: 300 rows of 65544 F16; since session 26, 16x512K F16 is
    # Hold's, whose parts are read again for their max, then their scaled sums).
    dtype = DTYPES[dtype]
    x = nonfinite_input(rng, shape, 1, dtype)
    dx = ip.DeviceArray.from_numpy(x)
    for p, eps in ((2, 1e-12), (1, 0.0), (3, 1e-12)):
        ref = reference(x, 1, p, eps)
        ya, _ = poisoned(shape, dtype, "nvidia")
        ip.lp_norm(dx, axis=1, p=p, eps=eps, out=ya)
        assert_nonfinite(to_host(ya), ref, 1, dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["bf16", "f32"])
def test_two_pass_repeatable_gpu(rng, dtype):
    # The cluster merges its chunks' sums in a fixed order: every call, in place
    # or not, gives the same bits.
    dtype = DTYPES[dtype]
    shape = (20, 1 << 20)
    x = random_input(rng, shape, dtype)
    dx = ip.DeviceArray.from_numpy(x)
    outs = []
    for _ in range(3):
        ya, _ = poisoned(shape, dtype, "nvidia")
        ip.lp_norm(dx, axis=1, out=ya)
        outs.append(to_host(ya).view(np.uint8))
    assert_close(outs[0].view(dtype), reference(x, 1, 2, 1e-12), 1, dtype)
    ip.lp_norm(dx, axis=1, out=dx)
    outs.append(to_host(dx).view(np.uint8))
    assert all(np.array_equal(outs[0], o) for o in outs[1:])


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,shape", [("bf16", (32, 1 << 20)), ("f32", (9, 3 * (1 << 19) + 8)),
                                         ("f16", (3, 1 << 20)), ("f64", (40, 1 << 17))], ids=str)
def test_long_rows_chained_gpu(rng, dtype, shape):
    # Long rows (Hold, TwoPass or Cluster on sm_90, a split elsewhere): three
    # calls queued without a sync, each reading the previous one's output.
    dtype = DTYPES[dtype]
    check_chained_calls(random_input(rng, shape, dtype))


def check_long_rows_gpu(rng, x, axis=1):
    """x reduced over `axis` (its rows by default) on the GPU: p 2 (also in
    place) / 1 / 3 against the float64 reference, an input of the same shape
    with NaN / inf / zeros by torch's rule (p 2 and 1), and three calls queued
    back to back (check_chained_calls)."""
    shape, dtype = x.shape, x.dtype
    for p in (2, 1, 3):
        run_case("nvidia", rng, x, axis, p, inplace=(p == 2))
    xn = nonfinite_input(rng, shape, axis, dtype)
    for p, eps in ((2, 1e-12), (1, 0.0)):
        ya, _ = poisoned(shape, dtype, "nvidia")
        ip.lp_norm(ip.DeviceArray.from_numpy(xn), axis=axis, p=p, eps=eps, out=ya)
        assert_nonfinite(to_host(ya), reference(xn, axis, p, eps), axis, dtype)
    check_chained_calls(x, axis)


def check_long_rows_extreme_gpu(rng, name, shape, scales, p):
    """check_long_rows_gpu on random rows of dtype `name`, after rows of
    magnitude scales[name] (extreme_input) with `p` and eps 0: sums of |x|^p
    that over- or underflow, the plans' scaled sums."""
    dtype = DTYPES[name]
    run_case("nvidia", rng, extreme_input(rng, shape, dtype, scales[name]), 1, p, eps=0.0, inplace=False)
    check_long_rows_gpu(rng, random_input(rng, shape, dtype))


def check_chained_calls(x, axis=1):
    """Three calls on `x` (reduced over `axis`) queued without a sync, each
    reading the previous one's output (the last in place), give what they
    give alone."""
    shape, dtype = x.shape, x.dtype
    dx = ip.DeviceArray.from_numpy(x)
    y1, _ = poisoned(shape, dtype, "nvidia")
    y2, _ = poisoned(shape, dtype, "nvidia")
    ip.lp_norm(dx, axis=axis, out=y1)
    ip.lp_norm(y1, axis=axis, out=y2)
    ip.lp_norm(y2, axis=axis, out=y2)
    h1 = to_host(y1)
    assert_close(h1, reference(x, axis, 2, 1e-12), axis, dtype)
    assert_close(to_host(y2), reference(h1, axis, 2, 1e-12), axis, dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,shape", [("bf16", (1, 16 << 20)), ("bf16", (2, (1 << 20) + 8)),
                                         ("f16", (3, 3 << 19)), ("f32", (2, 2 << 20)), ("f32", (1, 40000)),
                                         ("f64", (4, (1 << 19) - 2)), ("bf16", (5, 66000)),
                                         ("f16", (1, (3 << 20) + 1)), ("f32", (2, (1 << 20) + 3))], ids=str)
def test_few_long_rows_gpu(rng, dtype, shape):
    # Too few long rows for a cluster plan (sm_90: the Sweep plan, each row
    # cut into chunks over every SM, statistics merged by a second kernel;
    # since session 26 the Hold plan on 1x16M and 3x1.5M 2-byte rows; Split
    # elsewhere): uneven last chunks, p 1 / 2 / 3, in place,
    # non-finite rows, and three calls queued back to back each reading the
    # previous output (the workspace is written by every call before it is read).
    # Lengths that are no multiple of a pack take the Split plan in ragged packs
    # (test_ragged_rows_gpu), in ~200-400 chunks a row (its Factor kernel:
    # INFINI_LP_NORM_SPLIT_FACTOR_CHUNKS).
    check_long_rows_gpu(rng, random_input(rng, shape, DTYPES[dtype]))


RAGGED_ROWS = [("f16", (1, 100003), "contig"), ("bf16", (1, (1 << 20) + 7), "contig"), ("f32", (1, 500001), "contig"),
               ("f64", (1, 300001), "contig"), ("f16", (3, 100005), "padded"), ("f32", (2, 400001), "padded"),
               ("bf16", (2, 70001), "negative"), ("f16", (300, 2857), "contig"), ("bf16", (257, 1127), "contig"),
               ("f32", (100, 1035), "contig"), ("f64", (64, 333), "contig"), ("f16", (3000, 19), "contig"),
               ("bf16", (40, 22823), "contig"), ("f32", (33, 5001), "padded"), ("f16", (9, 70001), "contig"),
               ("f32", (4, 32767), "contig"),  # rows on the grid span 8192 packs, the others 8193: an empty chunk
               ("f16", (2400, 2857), "contig"), ("bf16", (4000, 1127), "contig"),  # enough rows for Stream
               ("bf16", (600, 8858), "negative"), ("f16", (560, 9001), "padded")]  # Stream of block groups


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,shape,layout", RAGGED_ROWS, ids=str)
def test_ragged_rows_gpu(rng, dtype, shape, layout):
    # Rows whose length is no multiple of a 16-byte pack, x and y in one layout (nvidia.cc's ragged plans,
    # rows.cu's RAGGED kernels): each row in packs on the 16-byte grid of its own address, partial at its
    # ends. One row and a few long ones take Split (partial last packs only where the starts are aligned:
    # one row, padded rows), many rows Rows (every row starting elsewhere on the grid); negative row
    # strides the same rows backwards (still ragged: x and y share their strides); thousands of rows of a
    # few KB: Stream with INFINI_LP_NORM_RAGGED_STREAM (stream.cu's RAGGED kernel), else Rows; hundreds of
    # 16-bit rows of 16+ KB: a Stream of block groups (INFINI_LP_NORM_BLOCK_STREAM). p 2 / 1 / 3, in place,
    # elements outside the views untouched, non-finite rows. (F64 rows long enough for Split take the
    # scalar plan: ragged Split was slower there.)
    x = random_input(rng, shape, DTYPES[dtype])
    for p in (2, 1, 3):
        run_case("nvidia", rng, x, 1, p, layout=layout, y_layout=layout, inplace=(p == 2))
    xn = nonfinite_input(rng, shape, 1, x.dtype)
    ya, _ = poisoned(shape, x.dtype, "nvidia")
    ip.lp_norm(ip.DeviceArray.from_numpy(xn), axis=1, p=2, eps=1e-12, out=ya)
    assert_nonfinite(to_host(ya), reference(xn, 1, 2, 1e-12), 1, x.dtype)


# Rows of 130-4096 packs whose threads' 4-pack slots would be at most 3/4 full (whole packs and ragged;
# padded rows: the scalar plans): on the GPU, INFINI_LP_NORM_ROWS_ITEMS6 gives the vector plans of all but
# 16-bit ragged rows half the threads, 6 packs each. Rows of 4097-6144 packs, 264+ of them (F64 9000 and
# 9001, F32 18000, F16 36000): F64 ones on a block of 1024 threads x 6 packs a row (INFINI_LP_NORM_ROWS6_BEYOND).
MID_ROWS = [("f64", (300, 1190)), ("f64", (300, 1191)), ("f32", (300, 2383)), ("f32", (300, 1300)),
            ("f16", (300, 4768)), ("bf16", (300, 4767)), ("f16", (300, 22000)), ("f64", (270, 9000)),
            ("f64", (270, 9001)), ("f32", (270, 18000)), ("f16", (270, 36000))]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype,shape", MID_ROWS, ids=str)
@pytest.mark.parametrize("layout", ["contig", "padded"])
def test_rows_of_mid_length(device, rng, dtype, shape, layout):
    x = random_input(rng, shape, DTYPES[dtype])
    for p in (2, 1, 3):
        run_case(device, rng, x, 1, p, layout=layout, y_layout=layout, inplace=(p == 2))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,shape", [("f16", (300, 2857)), ("f32", (2, 400001)), ("bf16", (1, 100003))], ids=str)
@pytest.mark.parametrize("y_lead", [1, 8], ids=["y_off_grid", "y_on_grid"])
def test_ragged_rows_y_elsewhere_gpu(rng, dtype, shape, y_lead):
    # Ragged rows with y starting 1 element (off x's 16-byte grid: the scalar plans) or 8 elements (a
    # whole pack for 16-bit types, on it) into its buffer; the elements before and after stay untouched.
    x = random_input(rng, shape, DTYPES[dtype])
    n = x.size
    backing = ip.DeviceArray.from_numpy(np.full(n + 16, np.nan, x.dtype))
    y = backing.view(shape, layout_strides(shape, "contig"), y_lead)
    ip.lp_norm(ip.DeviceArray.from_numpy(x), axis=1, p=2, out=y)
    assert_close(to_host(y), reference(x, 1, 2, 1e-12), 1, x.dtype)
    rest = to_host(backing).astype(np.float64)
    assert np.isnan(rest[:y_lead]).all() and np.isnan(rest[y_lead + n:]).all(), "y written outside its view"


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,shape", [("bf16", (16, 2 << 20)), ("f16", (8, (2 << 20) + 8)),
                                         ("bf16", (10, 5 << 19)), ("f32", (8, (1 << 20) + 4)),
                                         ("f64", (4, 1 << 20)), ("f64", (100, (1 << 15) + 2))], ids=str)
def test_rows_held_on_chip_gpu(rng, dtype, shape):
    # 8 or more rows of 2-byte elements, 1M or longer (sm_90: the Hold plan,
    # which nvidia.cc's holdPays also gives fewer rows and shorter ones, and
    # since session 27 F32 rows of 8M+ elements and F64 rows of 2M+ (of 32K+
    # elements since session 31, below Pipe's rows rule); one
    # resident grid of one piece an SM, each piece in registers, the
    # shared-memory ring and, for 16 rows of 2M, L2; pieces spanning two rows,
    # the rows' statistics exchanged through the workspace's records): p 1 / 2
    # / 3, in place, extreme magnitudes (the scaled sums), non-finite rows, and
    # calls queued back to back (the records are cleared by the call that
    # reads them).
    check_long_rows_extreme_gpu(rng, dtype, shape, {"bf16": 1e30, "f16": 1e-6, "f32": 1e30, "f64": 1e300}, 2)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,shape", [("f64", (6, (1 << 21) + 6)), ("f32", (3, (8 << 20) + 4)),
                                         ("bf16", (1, 48 << 20))], ids=str)
def test_rows_beyond_hold_budget_gpu(rng, dtype, shape):
    # Long rows too large for what Hold keeps on chip and in its share of L2
    # (~100 MB; ~80 MB fit on the H100), that no cluster plan takes: since session 29 the Hold plan
    # anyway (sm_90), what neither registers nor the ring hold read again
    # from DRAM, the first of it kept in L2 (the rest read evict-first);
    # before, Sweep or Split. p 1 / 2 / 3, in place, extreme magnitudes (the
    # scaled sums), non-finite rows, calls queued back to back.
    check_long_rows_extreme_gpu(rng, dtype, shape, {"bf16": 1e30, "f32": 1e30, "f64": 1e-300}, 3)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,shape", [("f32", (24, (1 << 20) + 4)), ("bf16", (26, (2 << 20) - 64)),
                                         ("f16", (28, (2 << 20) + 8)), ("f64", (25, (1 << 19) + 6))], ids=str)
def test_rows_across_grid_gpu(rng, dtype, shape):
    # Rows of 3-4.4 MB beyond what Hold keeps on chip (~100 MB in all): since
    # session 30 the Grid plan (sm_90, 132+ SMs: every block owns a 24-33 KB
    # chunk of every row, in a ring of bulk copies; each row's statistics
    # exchanged as flagged records through the workspace, merged in block
    # order, then the row scaled): uneven last chunks, p 1 / 2 / 3, in place,
    # extreme magnitudes with p 3 (the scaled sums), non-finite rows, calls
    # queued back to back (the records' flag taken from the workspace's epoch).
    check_long_rows_extreme_gpu(rng, dtype, shape, {"bf16": 1e30, "f16": 1e-6, "f32": 1e-30, "f64": 1e300}, 3)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,shape", [("f64", (136, (128 << 10) + 6)), ("f64", (520, (32 << 10) + 2)),
                                         ("f64", (150, (32 << 10) + 2)), ("f32", (64, (576 << 10) + 4))], ids=str)
def test_rows_pipe_wide_gpu(rng, dtype, shape):
    # 8-byte rows of 32K+ (~40-140 MB) and 4-byte rows of 2-2.8 MB, more than
    # L2 in all (~150 MB): since session 30 the Pipe plan (sm_90: clusters of 2-16
    # blocks, each row's chunks bulk-copied into a ring of shared-memory
    # slots, the row's statistics merged through distributed shared memory,
    # rows pipelined through the clusters), before only for 2-byte rows:
    # uneven last tiles, p 1 / 2 / 3, in place, extreme magnitudes with p 3,
    # non-finite rows, calls queued back to back.
    check_long_rows_extreme_gpu(rng, dtype, shape, {"f32": 1e30, "f64": 1e-300}, 3)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,shape,axis", [("bf16", (4096, 4096), 0), ("f32", (6000, 300), 0),
                                              ("f16", (3, 20000, 48), 1), ("f64", (10007, 7), 0),
                                              ("bf16", (2, 9000, 33), 1), ("bf16", (147, 25, 25, 80), 0),
                                              ("f16", (200, 7, 301), 0), ("f32", (150, 3001), 0),
                                              ("f64", (160, 6001), 0)], ids=str)
def test_cols_cut_axis_gpu(rng, dtype, shape, axis):
    # Few columns along a long reduced axis that is not innermost: the Cols
    # plan cuts the axis into chunks (since session 27; before, 4096x4096
    # axis 0 ran on 4 blocks for 4.6 ms): each chunk's per-column statistics
    # into the workspace, then a second kernel merges a column's chunks and
    # scales its own. Vector packs and single elements (7 and 33 columns),
    # chunks cut unevenly, 3-7 chunks (the Factor kernel a thread a column
    # up to 6 since session 50, 8 thread rows a column past that), p 2 (also
    # in place) / 1 / 3, a padded layout,
    # non-finite columns by torch's rule, extreme magnitudes, and three calls
    # queued back to back, each reading the previous output.
    name, dt = dtype, DTYPES[dtype]
    x = random_input(rng, shape, dt)
    with ip.TensorDescriptor.from_array(x) as tx, \
            ip.LPNorm(ip.ops._base.default_handle("nvidia", 0), tx, tx, axis=axis, p=2, eps=1e-12) as op:
        assert op.workspace_size > 0, "the axis was not cut (no workspace for the chunk records)"
    check_long_rows_gpu(rng, x, axis)
    run_case("nvidia", rng, x, axis, 2, layout="padded", y_layout="padded", inplace=False)
    scale = {"bf16": 1e30, "f16": 1e-6, "f32": 1e30, "f64": 1e300}[name]
    run_case("nvidia", rng, extreme_input(rng, shape, dt, scale), axis, 2, eps=0.0, inplace=False)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,shape,axis", [("f64", (67, 279, 72), 1), ("f64", (5818, 322), 0),
                                              ("f64", (24, 140, 26), 1), ("f64", (30, 70, 9, 33), 1),
                                              ("f32", (300, 150, 40), 1)], ids=str)
def test_columns_streamed_not_held_gpu(rng, dtype, shape, axis):
    # Session 53's plans for aligned pointers (tools/lp_plan_probe.cc shows each shape's so): F64 pairs
    # that a cut axis's chunks would hold 5-8 rows a thread of, streamed instead (the first two), F64
    # columns kept whole that the 16-row kernel would hold (9 rows of 13 pairs; 9 rows of single
    # elements), streamed instead, as F32 4-packs there are (10 rows of 10 packs). p 2 / 1 / 3, in place,
    # non-finite columns by torch's rule, chained calls, extreme magnitudes, huge and tiny columns side by
    # side.
    name, dt = dtype, DTYPES[dtype]
    x = random_input(rng, shape, dt)
    check_long_rows_gpu(rng, x, axis)
    scale = {"f32": 1e30, "f64": 1e300}[name]
    run_case("nvidia", rng, extreme_input(rng, shape, dt, scale), axis, 3, eps=0.0, inplace=False)
    big, tiny = {"f32": (1e30, 1e-30), "f64": (1e300, 1e-300)}[name]
    xm = x.astype(np.float64)
    xm[..., 0::3] *= big
    xm[..., 1::3] *= tiny
    for p in (1, 2):
        run_case("nvidia", rng, xm.astype(dt), axis, p, eps=0.0, inplace=False)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,shape,axis", [("f64", (6, 16, 96, 256), 1), ("f64", (12, 3, 64, 256), 0),
                                              ("f32", (40, 8192), 0), ("bf16", (3, 24, 20000), 1),
                                              ("f32", (8, 100, 1028), 1), ("f16", (24, 72, 520), 1),
                                              ("f64", (20, 100, 130), 1), ("f32", (160, 130, 512), 1),
                                              ("f32", (1, 260, 16897), 1)], ids=str)
def test_columns_split_over_thread_rows_gpu(rng, dtype, shape, axis):
    # Whole columns whose rows a block's thread rows share and merge in
    # shared memory (session 28: F64 threads hold at most 8 rows, and blocks
    # may narrow to a warp of columns for it; each thread's statistics in
    # one pass, redone scaled where its plain sum leaves the range): p 1 / 2
    # / 3, in place, non-finite columns by torch's rule, chained calls,
    # columns of extreme magnitudes beside ordinary ones. Columns of 72-260
    # rows, uneven inner extents and single elements: the blocks that narrow
    # below 32 packs (INFINI_LP_NORM_COLS_MIN_ROW_BYTES) or, where they do
    # not, the 16-row kernel and the streamed columns.
    name, dt = dtype, DTYPES[dtype]
    x = random_input(rng, shape, dt)
    check_long_rows_gpu(rng, x, axis)
    big, tiny = {"bf16": (1e30, 1e-30), "f16": (1e3, 1e-3), "f32": (1e30, 1e-30), "f64": (1e300, 1e-300)}[name]
    xm = x.astype(np.float64)
    xm[..., 0::3] *= big  # every third column (the innermost positions) huge, the next tiny
    xm[..., 1::3] *= tiny
    for p in (2, 3):
        run_case("nvidia", rng, xm.astype(dt), axis, p, eps=0.0, inplace=False)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,shape", [("f32", (210, 8, 1230)), ("f16", (173, 8, 2595)), ("bf16", (227, 2, 8500)),
                                         ("f64", (151, 8, 1232)), ("f64", (150, 17000))], ids=str)
def test_cols_uncut_narrow_rows_gpu(rng, dtype, shape):
    # Columns of 129-256 rows that warps 32 packs wide would cut (3 kernels, x read twice) and that blocks
    # of 32 thread rows, 8 packs wide keep whole (INFINI_LP_NORM_COLS_UNCUT_MIN_ROW_BYTES, session 44;
    # tools/lp_plan_probe.cc shows each of these shapes' packed plan so), p 2 / 1 / 3, non-finite columns
    # by torch's rule, chained calls, extreme magnitudes. The workspace is the largest of the packed and
    # the scalar plans' (Calculate picks by the pointers), and only (150, 17000) F64's scalar plan is
    # whole too (columns enough to fill the GPU): there no workspace says the packed plan kept the axis.
    name, dt = dtype, DTYPES[dtype]
    x = random_input(rng, shape, dt)
    if shape == (150, 17000):
        with ip.TensorDescriptor.from_array(x) as tx, \
                ip.LPNorm(ip.ops._base.default_handle("nvidia", 0), tx, tx, axis=0, p=2, eps=1e-12) as op:
            assert op.workspace_size == 0, "the axis was cut (chunk records in a workspace)"
    check_long_rows_gpu(rng, x, 0)
    scale = {"bf16": 1e30, "f16": 1e-6, "f32": 1e30, "f64": 1e300}[name]
    for p in (1, 3):
        run_case("nvidia", rng, extreme_input(rng, shape, dt, scale), 0, p, eps=0.0, inplace=False)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["bf16", "f16", "f32"])
def test_cols_pointer_alignment_gpu(rng, dtype):
    # Cols plans move packs that want pointers aligned to them: 16 bytes, or
    # for 16-bit types where the axis stays whole, a fallback plan in 8-byte
    # packs (INFINI_LP_NORM_COLS_PACK_16BIT 8), then single elements. x and y
    # start 0-8 elements past a 256-byte boundary, each alone and together;
    # the buffers' other elements stay untouched.
    shape, axis = (6, 12, 256), 1
    dt = DTYPES[dtype]
    x = random_input(rng, shape, dt)
    n, strides = x.size, layout_strides(shape, "contig")
    ref = reference(x, axis, 2, 1e-12)
    for xo, yo in ((0, 0), (4, 4), (2, 2), (1, 3), (4, 0), (0, 4), (8, 8)):
        backing = (rng.standard_normal(n + 16) * 5 + 3).astype(dt)
        backing[xo:xo + n] = x.ravel()
        xd = ip.DeviceArray.from_numpy(backing)
        _, yd = poisoned((n + 16,), dt, "nvidia")
        ya = yd.view(shape, strides, yo)
        ip.lp_norm(xd.view(shape, strides, xo), axis=axis, p=2, out=ya)
        assert_close(to_host(ya), ref, axis, dt)
        y_all = to_host(yd).astype(np.float64)
        assert np.isnan(np.delete(y_all, np.arange(yo, yo + n))).all(), f"y written outside its view ({xo}, {yo})"
        assert np.array_equal(to_host(xd).view(np.uint8), backing.view(np.uint8)), "x was written"


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", list(DTYPES))
def test_many_rows_streamed_gpu(rng, dtype):
    # Many rows of 4-14 KB (sm_90: each warp streams its rows through shared
    # memory), with non-finite rows and extreme magnitudes among them.
    dtype = DTYPES[dtype]
    shape = (2500, 2056)
    x = nonfinite_input(rng, shape, 1, dtype)
    for p, eps in ((2, 1e-12), (1, 0.0), (3, 1e-12)):
        ref = reference(x, 1, p, eps)
        ya, _ = poisoned(shape, dtype, "nvidia")
        ip.lp_norm(ip.DeviceArray.from_numpy(x), axis=1, p=p, eps=eps, out=ya)
        assert_nonfinite(to_host(ya), ref, 1, dtype)
    big = 1e30 if dtype in (np.float32, np.float64) else 100.0
    x = (random_input(rng, shape, dtype).astype(np.float64) * big).astype(dtype)
    for p in (2, 1):
        run_case("nvidia", rng, x, 1, p, inplace=(p == 2))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,shape", [("f16", (700, 16384)), ("bf16", (600, 8858)), ("f32", (560, 4100)),
                                         ("f64", (530, 2051)), ("bf16", (1100, 14703)), ("f32", (600, 4099))],
                         ids=str)
def test_block_streamed_rows_gpu(rng, dtype, shape):
    # Hundreds of rows of 16-56 KB, aligned and ragged: on sm_90 (INFINI_LP_NORM_BLOCK_STREAM) streamed
    # through a ring of row slots by a persistent grid whose groups are whole blocks (their sums meet in
    # shared memory, by the row's parity), a partial last pack at the end of x's allocation; else Rows, a
    # block a row (the ragged F32 row on Rows either way). Non-finite rows and extreme magnitudes among
    # them, p 2 / 1 / 3, in place, row counts that leave some groups a row fewer.
    dtype = DTYPES[dtype]
    x = nonfinite_input(rng, shape, 1, dtype)
    for p, eps in ((2, 1e-12), (1, 0.0), (3, 1e-12)):
        ya, _ = poisoned(shape, dtype, "nvidia")
        ip.lp_norm(ip.DeviceArray.from_numpy(x), axis=1, p=p, eps=eps, out=ya)
        assert_nonfinite(to_host(ya), reference(x, 1, p, eps), 1, dtype)
    big = 1e30 if dtype in (np.float32, np.float64) else 100.0
    x = (random_input(rng, shape, dtype).astype(np.float64) * big).astype(dtype)
    for p in (2, 1):
        run_case("nvidia", rng, x, 1, p, inplace=(p == 2))


@pytest.mark.parametrize("shape,axis", [((2100, 1030), 1), ((1030, 2100), 0)], ids=str)
def test_large_f64_streamed_cpu(rng, shape, axis):
    # F64 outputs of 16 MB or more on the CPU are stored past the caches
    # (non-temporal stores from each row's first 16-byte boundary; since
    # session 27): rows (axis 1) and column tiles (axis 0), y rows on 8-byte
    # offsets (padded: every other row starts off 16 bytes), p 2 (also in
    # place) / 1 / 3, and non-finite rows by torch's rule.
    dt = DTYPES["f64"]
    x = random_input(rng, shape, dt)
    for p in (2, 1, 3):
        run_case("cpu", rng, x, axis, p, inplace=(p == 2))
    run_case("cpu", rng, x, axis, 2, y_layout="padded", inplace=False)
    xn = nonfinite_input(rng, shape, axis, dt)
    got = ip.lp_norm(xn, axis=axis, p=2, eps=1e-12)
    assert_nonfinite(got, reference(xn, axis, 2, 1e-12), axis, dt)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["f32", "f16", "f64"])
def test_eps_larger_than_the_norm(device, rng, dtype):
    x = (random_input(rng, (4, 50), DTYPES[dtype]) * 1e-3).astype(DTYPES[dtype])
    run_case(device, rng, x, 1, 2, eps=10.0)
    run_case(device, rng, x, 0, 1, eps=1e3)


@pytest.mark.gpu
def test_torch_stream_and_graph_capture(rng):
    torch = pytest.importorskip("torch")
    x = torch.randn(64, 3000, device="cuda") * 3
    ref = torch.nn.functional.normalize(x.double(), p=2.0, dim=1)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())  # x is written on the current stream
    with torch.cuda.stream(s):
        y = ip.lp_norm(x, axis=1, stream=s)
    s.synchronize()
    assert torch.allclose(y.double(), ref, rtol=1e-5, atol=1e-7)
    # Calculate is capturable: no allocation or synchronisation inside.
    for shape, dim in (((64, 3000), 1), ((8, 1 << 20), 1), ((300, 7, 64), 0), ((70, 1 << 17), 1)):
        x = torch.randn(*shape, device="cuda")
        y = torch.empty_like(x)
        op = ip.LPNorm(ip.Handle("nvidia"), y, x, axis=dim, p=2)
        ws = ip.Workspace("nvidia", op.workspace_size)
        g = torch.cuda.CUDAGraph()
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            op(y, x, workspace=ws, stream=side)  # warm-up outside the capture
            torch.cuda.synchronize()
            with torch.cuda.graph(g, stream=side):
                op(y, x, workspace=ws, stream=side)
        x.copy_(torch.randn(*shape, device="cuda"))
        y.fill_(float("nan"))
        g.replay()
        torch.cuda.synchronize()
        ref = torch.nn.functional.normalize(x.double(), p=2.0, dim=dim)
        assert torch.allclose(y.double(), ref, rtol=1e-5, atol=1e-7)


@pytest.mark.gpu
def test_bf16_torch_tensors(rng):
    torch = pytest.importorskip("torch")
    x = torch.randn(33, 1025, device="cuda").to(torch.bfloat16)
    y = ip.lp_norm(x, axis=0, p=1)
    assert y.dtype == torch.bfloat16 and y.device == x.device
    ref = torch.nn.functional.normalize(x.double(), p=1.0, dim=0)
    assert torch.allclose(y.double(), ref, rtol=1e-2, atol=1e-4)


# ---- back-to-back dependent calls (programmatic dependent launch on sm_90) ----

def _dependent_chain(dx, dx2, y1, y2, stream):
    """y1 = N(x); y2 = N(y1) (reads the previous output); y2 = N(y2) in place;
    y1 = N(x2) (overwrites what the second call reads)."""
    for src, dst in ((dx, y1), (y1, y2), (y2, y2), (dx2, y1)):
        ip.lp_norm(src, axis=1, out=dst, stream=stream)


def _check_dependent_chains(rng, dtype, shape):
    """The chain of _dependent_chain after a Mul kernel that writes x, queued
    without a sync (eagerly and as a CUDA graph; outputs poisoned before):
    each step is checked against float64 when run alone, and the queued chains
    must give the same bits."""
    x = random_input(rng, shape, dtype)
    x2 = (random_input(rng, shape, dtype).astype(np.float64) * 1e-2).astype(dtype)
    # A row of ones: x = src * ones broadcast takes Mul's strided path, a plain launch.
    dsrc, dones = ip.DeviceArray.from_numpy(x), ip.DeviceArray.from_numpy(np.ones(shape[1], dtype))
    dx, dx2 = ip.DeviceArray.from_numpy(x), ip.DeviceArray.from_numpy(x2)
    y1, _ = poisoned(shape, dtype, "nvidia")
    y2, _ = poisoned(shape, dtype, "nvidia")
    steps = []  # one call at a time, each finished before the next
    for src, dst, src_host in ((dx, y1, x), (y1, y2, None), (y2, y2, None), (dx2, y1, x2)):
        src_host = to_host(src) if src_host is None else src_host
        ip.lp_norm(src, axis=1, out=dst)
        steps.append(to_host(dst))
        assert_close(steps[-1], reference(src_host, 1, 2, 1e-12), 1, dtype)
    want_y2, want_y1 = steps[2].view(np.uint8), steps[3].view(np.uint8)

    nan = np.full(shape, np.nan, dtype)

    def poison(s):
        for a in (dx, y1, y2):
            a.copy_from_numpy(nan, stream=s)

    def queue(s):
        ip.mul(dsrc, dones, out=dx, stream=s)  # x written by a kernel that knows nothing of PDL
        _dependent_chain(dx, dx2, y1, y2, s)

    def check(what, s):
        got_y2, got_y1 = y2.to_numpy(stream=s), y1.to_numpy(stream=s)
        assert np.array_equal(got_y2.view(np.uint8), want_y2), f"{what}: y2 = N(N(N(x))) differs"
        assert np.array_equal(got_y1.view(np.uint8), want_y1), f"{what}: y1 = N(x2) differs"

    queue_dependent_chains(queue, poison, check)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["f16", "bf16", "f32"])
def test_dependent_calls_back_to_back_gpu(rng, dtype):
    # Rows that the Stream plan takes on sm_90, whose kernel may start while the
    # previous one drains and must wait for it before touching x or y. The
    # library's policy (stream.cu's kStreamPdl) decides which of these calls
    # use PDL (by default the eager ones, not the captured ones); the chains
    # cover both and their mix.
    _check_dependent_chains(rng, DTYPES[dtype], (2500, 2056))


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(16, 1 << 20), (48, 1 << 20)], ids=str)
@pytest.mark.parametrize("dtype", ["f16", "bf16"])
def test_dependent_long_rows_back_to_back_gpu(rng, dtype, shape):
    # Long 2-byte rows on sm_90, launched with PDL in graphs too: 16 rows of
    # 1M take the Hold plan (one resident grid; the next call's blocks take
    # the SMs ours leave and wait there), 48 of 1M (96 MB, more than Hold
    # holds) the Pipe plan (clusters holding their rows on chip; the next
    # call's clusters wait on GPCs the last round leaves).
    _check_dependent_chains(rng, DTYPES[dtype], shape)


@pytest.mark.gpu
def test_one_workspace_for_two_held_shapes_gpu(rng):
    """Two shapes the Hold plan takes (pieces of different sizes, rows spanning
    a different count of blocks, so the records sit at other places) share one
    workspace, called A B A B queued on one stream: whatever one call leaves in
    the workspace must not be taken for the other's records."""
    from infiniop_py._ffi import ffi

    h = ip.Handle("nvidia", 0)
    cases = []
    for shape in ((16, 2 << 20), (10, 5 << 19)):
        x = random_input(rng, shape, DTYPES["bf16"])
        xd = ip.DeviceArray.from_numpy(x)
        td = ip.TensorDescriptor.from_array(xd)
        cases.append((x, xd, ip.LPNorm(h, td, td, 1, 2, 1e-12), reference(x, 1, 2, 1e-12)))
    sizes = [op.workspace_size for _, _, op, _ in cases]
    # Hold's records: a workspace for each, laid out differently (rows span other counts of blocks).
    assert 0 < sizes[0] != sizes[1] > 0, f"not two Hold plans with different records: workspaces {sizes}"
    size = max(sizes)
    ws = ip.DeviceArray.empty((size,), np.uint8)
    outs = [poisoned(x.shape, x.dtype, "nvidia") for x, _, _, _ in cases]
    for _ in range(2):
        for (x, xd, op, ref), (yd, _) in zip(cases, outs):
            assert lib.infiniopLPNorm(op.ptr, ffi.cast("void *", ws.ptr), size, ffi.cast("void *", yd.ptr),
                                      ffi.cast("void *", xd.ptr), ffi.NULL) == 0
    for (x, _, _, ref), (yd, _) in zip(cases, outs):
        assert_close(to_host(yd), ref, 1, x.dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,shape", [("bf16", (2, 1 << 20)), ("f64", (2, 1 << 19)), ("f32", (2, 2 << 20))],
                         ids=str)
def test_workspace_at_any_address_gpu(rng, dtype, shape):
    """Plans that keep statistics records in the workspace (Sweep, Split) take a
    workspace at any address: the size asked for has the slack to align it
    inside (a caller sub-allocating at 4- or 8-byte steps)."""
    from infiniop_py._ffi import ffi

    x = random_input(rng, shape, DTYPES[dtype])
    ref = reference(x, 1, 2, 1e-12)
    xd = ip.DeviceArray.from_numpy(x)
    h = ip.Handle("nvidia", 0)
    td = ip.TensorDescriptor.from_array(xd)
    op = ip.LPNorm(h, td, td, 1, 2, 1e-12)
    assert op.workspace_size > 0, "expected a plan with a workspace"
    for shift in (0, 4, 8, 12):
        ws = ip.DeviceArray.empty((op.workspace_size + 16,), np.uint8)
        yd = ip.DeviceArray.from_numpy(np.full(shape, np.nan, x.dtype))
        assert lib.infiniopLPNorm(op.ptr, ffi.cast("void *", ws.ptr + shift), op.workspace_size,
                                  ffi.cast("void *", yd.ptr), ffi.cast("void *", xd.ptr), ffi.NULL) == 0
        assert_close(yd.to_numpy(), ref, 1, x.dtype)
