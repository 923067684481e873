"""Rearrange: dst = src for any two layouts, compared bit for bit with a NumPy
copy on the same random bytes, on the CPU and on NVIDIA (the same cases)."""
import math

import numpy as np
import pytest

import infiniop_py as ip
from infiniop_py._arrays import as_view
from infiniop_py._ffi import ffi, lib
from infiniop_py.ops import _base
from conftest import DEVICES, poisoned, queue_dependent_chains, to_host
from infiniop_py._layout import contiguous_strides, permuted_strides

BF16 = ip.bfloat16
F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
# One dtype per element size (Rearrange copies by size), and a few more. The
# 16-byte size (C128) goes through explicit descriptors: see c128_call.
BY_SIZE = {1: np.dtype(np.uint8), 2: F16, 4: F32, 8: np.dtype(np.float64), 16: np.dtype(np.complex128)}
EXTRA = [np.dtype(np.int8), BF16, np.dtype(np.int32), np.dtype(np.int64)]


def reverse(shape):
    return permuted_strides(shape, tuple(range(len(shape)))[::-1])


def _extent(shape, strides):
    """(offset of element 0, elements spanned), as conftest.poisoned lays them out."""
    if not all(shape):
        return 0, 1
    span = 1 + sum((n - 1) * abs(s) for n, s in zip(shape, strides))
    offset = sum((n - 1) * -s for n, s in zip(shape, strides) if s < 0)
    return offset, span


def _bits(a):
    """The same memory as raw bytes per element, so that NaN payloads compare exactly."""
    return a.view(np.dtype((np.void, a.dtype.itemsize)))


def strided_source(rng, shape, strides, dtype, device, shift=0):
    """Random bytes (never zeros) laid out with `strides`: (array for the op, host view)."""
    dtype = np.dtype(dtype)
    offset, span = _extent(shape, strides)
    raw = rng.integers(1, 256, size=(span + shift) * dtype.itemsize, dtype=np.uint8)
    backing = raw.view(dtype)
    host = np.lib.stride_tricks.as_strided(backing[offset + shift:], shape, [s * dtype.itemsize for s in strides])
    if device == "cpu":
        return host, host
    dev = ip.DeviceArray.from_numpy(backing)
    return dev.view(shape, strides, offset + shift), host


def check_copy(device, rng, shape, dst_strides, src_strides, dtype, *, src_shift=0, dst_shift=0, call=None):
    shape = tuple(shape)
    src, src_host = strided_source(rng, shape, src_strides, dtype, device, src_shift)
    dst, backing = poisoned(shape, dtype, device, strides=tuple(dst_strides), pad=dst_shift)
    if dst_shift:  # the same poisoned buffer, the view moved by dst_shift elements
        offset, _ = _extent(shape, dst_strides)
        if device == "cpu":
            dst = np.lib.stride_tricks.as_strided(backing[offset + dst_shift:], shape,
                                                  [s * backing.itemsize for s in dst_strides])
        else:
            dst = backing.view(shape, dst_strides, offset + dst_shift)
    expected = np.array(to_host(backing))
    offset, _ = _extent(shape, dst_strides)
    if math.prod(shape):
        view = np.lib.stride_tricks.as_strided(expected[offset + dst_shift:], shape,
                                               [s * expected.itemsize for s in dst_strides])
        _bits(view)[...] = _bits(src_host)
    if call is None and np.dtype(dtype).kind == "c":
        call = c128_call(device, np.dtype(dtype))
    (call or (lambda d, s: ip.rearrange(s, out=d)))(dst, src)
    if device == "nvidia":
        ip.synchronize("nvidia")
    got = to_host(backing)
    assert got.tobytes() == expected.tobytes(), f"{shape} dst {dst_strides} src {src_strides} {np.dtype(dtype)}"


def check_permutation(device, rng, shape, order, dtype):
    """A contiguous dst from src laid out in `order` (outermost first), then the same with both pointers
    one element off their buffers' starts."""
    src_strides = permuted_strides(shape, order)
    check_copy(device, rng, shape, contiguous_strides(shape), src_strides, dtype)
    check_copy(device, rng, shape, contiguous_strides(shape), src_strides, dtype, src_shift=1, dst_shift=1)


def c128_call(device, dtype):
    """Copy through a descriptor made with the ABI's dtype of that size (C64 = 8
    bytes, C128 = 16 bytes) and raw addresses."""
    abi = {8: ip.Dtype.C64, 16: ip.Dtype.C128}[dtype.itemsize]

    def call(dst, src):
        d, s = as_view(dst), as_view(src)
        with ip.Rearrange(_base.default_handle(device, 0), ip.TensorDescriptor(d.shape, d.strides, abi),
                          ip.TensorDescriptor(s.shape, s.strides, abi)) as desc:
            desc(d.ptr, s.ptr)
            if device == "nvidia":
                ip.synchronize("nvidia")
    return call


# ---- the cases ----

@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [F16, F32], ids=["F16", "F32"])
@pytest.mark.parametrize("n", [100, 2000, 2001])
def test_transpose_2d(device, rng, n, dtype):
    check_copy(device, rng, (n, n), (n, 1), (1, n), dtype)
    check_copy(device, rng, (n, n), (1, n), (n, 1), dtype)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", [
    ((3000, 3072), (3072, 1), (1, 3000)),    # 9 MB, dst rows of whole lines: streamed on the CPU
    ((3001, 2999), (2999, 1), (1, 3001)),    # odd edges: the blocks' borders element by element
    ((5, 100, 37), (3700, 37, 1), (3700, 1, 100)),  # batched
    ((40, 24), (1, 40), (24, 1)),            # dst the transposed side
], ids=str)
@pytest.mark.parametrize("shifts", [(0, 0), (1, 0), (0, 3)], ids=str)
def test_byte_transposes(device, rng, case, shifts):
    """1-byte transposes (since session 35 through registers on the CPU, 16 x 16
    blocks of byte unpacks): sizes past the streaming threshold, odd edges,
    batches, and pointers shifted off every alignment."""
    check_copy(device, rng, *case, np.uint8, src_shift=shifts[0], dst_shift=shifts[1])


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [F16, F32, np.dtype(np.float64)], ids=str)
@pytest.mark.parametrize("case", [
    ((157, 11, 150), (1650, 150, 1), (1650, 1, 11)),  # 11-unit tiles, shorter than a register block
    ((9, 13, 70), (910, 70, 1), (910, 1, 13)),
    ((37, 45), (45, 1), (1, 37)),                       # borders of both kinds
], ids=str)
def test_short_tile_transposes(device, rng, dtype, case):
    """Transposes whose tiles are shorter than the CPU's register blocks (since
    session 35 through halved blocks, down to 16 bytes, before the element
    loop; also the borders the full blocks leave), pointers shifted too."""
    check_copy(device, rng, *case, dtype)
    check_copy(device, rng, *case, dtype, src_shift=1, dst_shift=1)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.dtype(np.uint8), F16, F32, np.dtype(np.float64)], ids=str)
@pytest.mark.parametrize("shape,order", [
    ((52, 2, 53, 6, 43), (4, 2, 0, 3, 1)),   # src's unit-stride dim of 2
    ((3, 5, 49, 42, 19), (2, 4, 0, 3, 1)),   # of 5, dst rows of 19
    ((5, 94, 47, 37), (3, 2, 1, 0)),         # every dim reversed, 5 outermost
    ((24, 45, 43, 91, 2), (4, 3, 2, 0, 1)),  # dst rows of 2
    ((21, 42, 10, 29, 3), (0, 4, 1, 2, 3)),  # 3 x 29 tiles
    ((58, 14, 54, 3, 5), (0, 4, 2, 1, 3)),   # 3 x 5 planes (the CPU's SmallTile: whole planes, no tasks)
    ((9, 2, 31, 7, 3), (3, 1, 4, 2, 0)),     # 7 x 3 planes, src's unit dim outermost in dst
], ids=str)
def test_small_dim_permutations(device, rng, dtype, shape, order):
    """4-5-D permutations whose transposed dims are 2-7 units long (since session
    36 the CPU's tile path from 2 units, before: the element loop, up to 7x
    NumPy's time), pointers shifted too."""
    check_permutation(device, rng, shape, order, dtype)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.dtype(np.uint8), F16, F32], ids=str)
@pytest.mark.parametrize("shape,order", [
    ((37, 87, 179), (0, 2, 1)),          # a of 87 against b of 179: two 64-unit tiles along a, 68% full
    ((5, 70, 6, 90), (0, 3, 1, 2)),      # a of 70 x 6 in src, b of 90
    ((3, 21, 43, 4, 92), (2, 4, 0, 3, 1)),  # a of 21 x 4 x 3, b of 92 (F16: 32 x 32 small tiles)
    ((74, 3, 5, 10, 34), (2, 1, 4, 3, 0)),  # a of 74, b of 34 x 10: src neighbours 5100 units apart in dst
    ((74, 33, 4, 34), (2, 1, 3, 0)),        # a of 74, b of 34 x 4 x 33 (these two F16: 32 x 64)
], ids=str)
def test_short_src_runs(device, rng, dtype, shape, order):
    """Transposes whose src run (a) spans one and a bit 64-unit tiles, pointers shifted too: 1- and 2-byte
    units there take the generic kernel, or (2-byte units whose src neighbours lie far apart in dst: the
    last three shapes) 32-unit tiles under INFINI_REARRANGE_SMALL_TILES."""
    check_permutation(device, rng, shape, order, dtype)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.dtype(np.uint8), F16, F32, np.dtype(np.float64)], ids=str)
@pytest.mark.parametrize("shape,order", [
    ((13, 12, 38, 60), (3, 1, 2, 0)),        # 38 continues both src's run of 13 and dst's of 60
    ((10, 26, 20, 58), (1, 3, 2, 0)),        # 20 continues src's run of 10 and dst's of 58
    ((18, 6, 30, 120), (0, 3, 2, 1)),        # 30 continues src's run of 6 and dst's of 120
    ((10, 23, 5, 38, 38), (1, 0, 4, 3, 2)),  # two dims of 38, 5 between
    ((7, 9, 3, 37, 54), (1, 4, 3, 0, 2)),    # a run of 9 x 3 x 7 in src, 37 x 54 in dst
], ids=str)
def test_dims_continuing_both_runs(device, rng, dtype, shape, order):
    """Transposes where a dim continues both the src run and the dst run, so that either tile group may
    take it (on the GPU the shorter group under INFINI_REARRANGE_GROW_SHORTER), pointers shifted too."""
    check_permutation(device, rng, shape, order, dtype)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.dtype(np.uint8), F16, F32, np.dtype(np.float64)], ids=str)
@pytest.mark.parametrize("shape,order", [
    ((13, 11, 8, 15, 8), (2, 0, 1, 4, 3)),    # a 15 x 8 block dense in both, dst's next dim after it
    ((117, 5, 6, 75, 25), (1, 0, 2, 4, 3)),   # a 6 x 75 x 25 block
    ((10, 9, 13, 17, 27), (1, 0, 4, 3, 2)),   # 13 x 17 x 27 reversed inside, src's next dim after it
    ((5, 22, 82, 27, 26), (1, 0, 2, 4, 3)),   # 27 x 26, a dim next in both after it
    ((128, 37, 10, 51), (0, 1, 3, 2)),        # 10 x 51 blocks
], ids=str)
def test_dense_block_permutations(device, rng, dtype, shape, order):
    """Permutations inside a block of innermost dims dense in both tensors, pointers shifted too: on the GPU
    tiles or the generic kernel (sessions 37-45 ran such blocks of 1- and 2-byte units from 10 MB as box
    transposes, test_dense_block_permutations_large_gpu's sizes)."""
    check_permutation(device, rng, shape, order, dtype)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.dtype(np.uint8), F16, F32], ids=str)
@pytest.mark.parametrize("shape,order", [
    ((6, 8, 9, 7, 35), (3, 1, 0, 2, 4)),        # rows of 35 kept whole under 4 permuted dims
    ((5, 4, 3, 6, 7, 21), (4, 2, 0, 3, 1, 5)),  # 6 dims, rows of 21
    ((3, 7, 4, 9, 5, 11), (5, 3, 1, 4, 2, 0)),  # 6 dims, every one moved
], ids=str)
def test_many_dim_permutations(device, rng, dtype, shape, order):
    """5- and 6-D permutations that no dims merge away: on the GPU the generic kernel's 5- and 6-dim forms
    where they are built in (INFINI_REARRANGE_GENERIC_UNROLLED_DIMS=6), else its kMaxDims loop."""
    check_permutation(device, rng, shape, order, dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.dtype(np.uint8), F16], ids=str)
@pytest.mark.parametrize("shape,order", [
    ((120, 9, 6, 75, 25), (1, 0, 2, 4, 3)),   # a 6 x 75 x 25 block
    ((9, 22, 82, 27, 26), (1, 0, 2, 4, 3)),   # 27 x 26, a dim next in both after it
    ((600, 37, 10, 51), (0, 1, 3, 2)),        # 10 x 51 blocks
    ((19, 110, 7, 28, 61), (1, 0, 2, 4, 3)),  # 28 x 61
], ids=str)
def test_dense_block_permutations_large_gpu(rng, dtype, shape, order):
    """The same permutations at 10 MB and more, where 1- and 2-byte units took box transposes until
    session 46 and now take the generic kernel."""
    check_permutation("nvidia", rng, shape, order, dtype)


ND_SHAPES = [(3, 4, 5, 6), (2, 3, 4, 5, 6), (7, 5, 3, 2, 4, 3), (9, 40, 3, 17), (2, 3, 2, 5, 33, 4)]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("shape", ND_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_row_major_column_major(device, rng, shape):
    check_copy(device, rng, shape, contiguous_strides(shape), reverse(shape), F32)
    check_copy(device, rng, shape, reverse(shape), contiguous_strides(shape), F16)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dst_strides", [contiguous_strides((8, 4, 20, 64)), (1048576, 262144, 64, 1)],
                         ids=["contiguous", "padded"])
def test_head_layout(device, rng, dst_strides):
    check_copy(device, rng, (8, 4, 20, 64), dst_strides, (5120, 64, 256, 1), F16)


@pytest.mark.parametrize("device", DEVICES)
def test_broadcast_source(device, rng):
    check_copy(device, rng, (15, 10752), (10752, 1), (0, 1), F32)
    check_copy(device, rng, (15, 37, 4), contiguous_strides((15, 37, 4)), (0, 1, 0), F16)


NEGATIVE = [
    ((15, 37), (37, 1), (-37, -1)),
    ((15, 37), (-37, -1), (1, 15)),
    ((1000,), (1,), (-1,)),
    ((3, 1, 5), (5, 5, 1), (-1, 7, 3)),
    ((200, 300), (600, 2), (-1, 200)),
    ((4, 6, 8), (-48, 8, -1), (1, -4, 24)),
    ((64, 64), (64, 1), (-1, -64)),
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", NEGATIVE, ids=str)
def test_negative_strides(device, rng, case):
    shape, dst_strides, src_strides = case
    check_copy(device, rng, shape, dst_strides, src_strides, F32)
    check_copy(device, rng, shape, dst_strides, src_strides, np.uint8)


ODD = [
    ((1,), (1,), (1,)),
    ((1, 1, 1), (1, 1, 1), (5, 3, 1)),
    ((1, 7, 1, 99), contiguous_strides((1, 7, 1, 99)), permuted_strides((1, 7, 1, 99), (3, 1, 2, 0))),
    ((4097,), (1,), (3,)),
    ((7, 7), (7, 1), (1, 7)),
    ((33, 65), (65, 1), (1, 33)),
    ((99, 3), (1, 99), (3, 1)),
    ((5, 4099), (4099, 1), (1, 5)),
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", ODD, ids=str)
def test_sizes_one_and_odd(device, rng, case):
    check_copy(device, rng, *case, F16)


LAYOUTS = [
    ((33, 65), (65, 1), (1, 33)),  # transpose
    ((40, 40, 3), (1, 120, 40), (120, 3, 1)),  # NHWC-like, small inner dim
    ((4, 64, 16, 8), contiguous_strides((4, 64, 16, 8)), permuted_strides((4, 64, 16, 8), (0, 2, 1, 3))),  # head split
    ((6, 50), (50, 1), (0, 1)),  # broadcast
    ((17, 9), (-9, 1), (1, -17)),  # negative
    ((3, 5, 7), (35, 7, 1), (35, 7, 1)),  # contiguous
    ((3, 5, 8), (80, 16, 2), (1, 3, 15)),  # padded dst
    ((3, 64, 66), (4224, 66, 1), (4226, 1, 64)),  # batched transpose, even outer stride
    ((3, 64, 66), (4224, 66, 1), (4227, 1, 64)),  # batched transpose, odd outer stride
    ((2, 130, 64), (-8320, 64, 1), (8320, 1, 130)),  # batched transpose, dst backwards
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", list(BY_SIZE.values()) + EXTRA, ids=str)
@pytest.mark.parametrize("case", LAYOUTS, ids=str)
def test_every_element_size(device, rng, dtype, case):
    check_copy(device, rng, *case, dtype)


# NVIDIA: contiguous copies up to 1 MiB run as a kernel, larger ones as cudaMemcpyAsync;
# units of 16, 2 and 1 bytes (shifted pointers), either side of the limit.
@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype,n", [(np.float32, 1 << 18), (np.float32, (1 << 18) + 4), (F16, (1 << 19) - 1),
                                     (np.uint8, (1 << 20) + 1), (np.uint8, 3)], ids=str)
@pytest.mark.parametrize("shifts", [(0, 0), (1, 0), (0, 1)], ids=str)
def test_contiguous_copies_either_side_of_the_kernel_limit(device, rng, dtype, n, shifts):
    check_copy(device, rng, (n,), (1,), (1,), dtype, src_shift=shifts[0], dst_shift=shifts[1])
    rows = n // 4
    if rows:  # 2-D, merged into one run by the planner
        check_copy(device, rng, (rows, 4), (4, 1), (4, 1), dtype, src_shift=shifts[0], dst_shift=shifts[1])


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", list(BY_SIZE.values()), ids=str)
def test_scalar(device, rng, dtype):
    check_copy(device, rng, (), (), (), dtype)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("shape,dst_strides,src_strides", [
    ((0,), (1,), (1,)), ((0, 5), (5, 1), (1, 0)), ((3, 0, 2), (1, 3, 9), (-1, 4, 0))])
def test_empty(device, rng, shape, dst_strides, src_strides):
    check_copy(device, rng, shape, dst_strides, src_strides, F32)


@pytest.mark.parametrize("device", DEVICES)
def test_deep_layouts(device, rng):
    """More dims than a kernel parameter carries (no 5+5 limit)."""
    shape = (2,) * 16
    check_copy(device, rng, shape, contiguous_strides(shape), permuted_strides(shape, (1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10,
                                                                       13, 12, 15, 14)), F32)
    shape = (3,) * 13
    check_copy(device, rng, shape, contiguous_strides(shape), reverse(shape), F16)
    shape = (2, 3) * 7
    check_copy(device, rng, shape, contiguous_strides(shape), tuple(s * 2 for s in contiguous_strides(shape)), np.uint8)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.uint8, F16, F32], ids=str)
def test_misaligned_pointers(device, rng, dtype):
    """Views one element off: the copy unit falls back to what the pointers allow."""
    for shape, dst_strides, src_strides in [((64, 48), (48, 1), (48, 1)), ((256,), (1,), (1,)),
                                            ((64, 64), (64, 1), (1, 64)), ((16, 40), (40, 1), (80, 1))]:
        check_copy(device, rng, shape, dst_strides, src_strides, dtype, src_shift=1)
        check_copy(device, rng, shape, dst_strides, src_strides, dtype, dst_shift=1)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [F16, BF16], ids=str)
@pytest.mark.parametrize("case", [
    ((130, 66), (66, 1), (1, 130)),          # even pitches
    ((129, 67), (67, 1), (1, 129)),          # odd pitches: every other row and column 4-byte aligned
    ((3, 65, 97), (6305, 97, 1), (6306, 1, 65)),  # batched, odd inner lengths, even outer stride
    ((2, 4, 33, 70), (9240, 2310, 70, 1), (9240, 1, 280, 4)),  # grouped dims on both sides
])
@pytest.mark.parametrize("shifts", [(0, 0), (1, 0), (0, 1), (1, 1)], ids=str)
def test_two_byte_transposes_odd_pitches_and_shifts(device, rng, dtype, case, shifts):
    """2-byte transposes with even and odd pitches and lengths and shifted
    pointers: word tiles where every row of every tile starts on a word,
    skewed tiles elsewhere (a and b run forwards with unit stride here)."""
    check_copy(device, rng, *case, dtype, src_shift=shifts[0], dst_shift=shifts[1])


# (257, 515), (300, 301): whole blocks of two 64-tiles along b and rows ending
# just past a 128-unit span (the skewed word tiles).
SKEW_SHAPES = [(130, 67), (67, 130), (1, 4097), (4097, 1), (65, 65), (33, 97), (200, 302), (128, 128),
               (257, 515), (300, 301)]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [F16, BF16], ids=str)
@pytest.mark.parametrize("shape", SKEW_SHAPES, ids=str)
@pytest.mark.parametrize("shifts", [(0, 0), (1, 0), (0, 1), (1, 1)], ids=str)
def test_skewed_tile_transposes(device, rng, dtype, shape, shifts):
    """dst contiguous, src the transposed view, pointers shifted by a unit: the
    skewed tiles (dst row segments moved back to 32-byte sectors) wherever
    word tiles do not apply, with partial first and last segments of rows."""
    rows, cols = shape
    check_copy(device, rng, shape, (cols, 1), (1, rows), dtype, src_shift=shifts[0], dst_shift=shifts[1])


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("shifts", [(0, 0), (1, 0), (0, 1), (1, 1)], ids=str)
def test_skewed_tile_batched(device, rng, shifts):
    """Batched 3x67x130 (an outer dim; a gap between src batches), and grouped
    dims on both sides: a = (22, 3) runs on in src, b = (5, 30) in dst, and
    neither merges (src gaps), so the planner groups two dims each."""
    check_copy(device, rng, (3, 67, 130), (67 * 130, 130, 1), (67 * 130 + 5, 1, 67), F16,
               src_shift=shifts[0], dst_shift=shifts[1])
    check_copy(device, rng, (5, 30, 3, 22), (30, 1, 150, 450), (1987, 66, 22, 1), F16,
               src_shift=shifts[0], dst_shift=shifts[1])


# Skewed transposes with rows running backwards: dst rows reversed (group a's
# dst stride negative: the whole-row stores step back by 16 strides), src rows
# reversed (group b's src stride negative), both; odd and even pitches, whole
# tiles included.
FLIPPED = [
    ((300, 301), (-301, 1), (1, 300)),
    ((257, 516), (-516, 1), (1, 257)),
    ((300, 302), (302, 1), (1, -300)),
    ((259, 515), (515, 1), (1, -259)),
    ((301, 300), (-300, 1), (1, -301)),
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [F16, BF16], ids=str)
@pytest.mark.parametrize("case", FLIPPED, ids=str)
@pytest.mark.parametrize("shifts", [(0, 0), (1, 0), (0, 1)], ids=str)
def test_skewed_tile_flipped_rows(device, rng, dtype, case, shifts):
    check_copy(device, rng, *case, dtype, src_shift=shifts[0], dst_shift=shifts[1])


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("n", [4097, 4098], ids=str)
@pytest.mark.parametrize("shifts", [(0, 0), (1, 0), (0, 1)], ids=str)
def test_skewed_tile_4097(device, rng, n, shifts):
    """The issue's odd-size transpose, 4097 x 4097 F16 (odd src pitch: the
    skewed tiles), and 4098 x 4098 (even src pitch: the skewed word tiles
    unless src is shifted), whole tiles included."""
    check_copy(device, rng, (n, n), (n, 1), (1, n), F16, src_shift=shifts[0], dst_shift=shifts[1])


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [F16, BF16], ids=str)
@pytest.mark.parametrize("case", [
    ((4096, 4096), (4096, 1), (1, 4096)),                    # whole 128-unit tiles
    ((3000, 3008), (3008, 1), (1, 3000)),                    # partial tiles along both, dst on sectors
    ((9, 1030, 1536), (1030 * 1536, 1536, 1), (1030 * 1536 + 4, 1, 1030)),  # batched, a gap in src
    # NCHW -> NHWC: group a = (H, W)
    ((16, 512, 32, 36), (32 * 36 * 512, 1, 36 * 512, 512), (512 * 32 * 36, 32 * 36, 36, 1)),
], ids=["4096sq", "3000x3008", "batched", "nchw_nhwc"])
def test_wide_word_tiles(device, rng, dtype, case):
    """2-byte transposes large enough for the wide word tiles (128 x 128 units
    a block where their grid gives every SM 4 blocks: 132-SM H100s and smaller)
    with whole and partial tiles, an outer dim and a grouped dim."""
    check_copy(device, rng, *case, dtype)


# Plain 2-D 2-byte transposes of 12-32 MiB a side: the tensor-copy tiles on
# NVIDIA sm_90 where both row pitches are multiples of 8 units and both
# pointers sit on 16 bytes (nvidia.h), the word tiles otherwise.
TENSOR_COPY_CASES = {
    "padded-pitches": ((3000, 3000), (3008, 1), (1, 3016), (0, 0)),
    "partial-both": ((2600, 2504), (2504, 1), (1, 2600), (0, 0)),
    "shift-16-bytes": ((3000, 3008), (3008, 1), (1, 3000), (8, 8)),
    "src-off-16-bytes": ((3000, 3008), (3008, 1), (1, 3000), (2, 0)),
    "dst-off-16-bytes": ((3000, 3008), (3008, 1), (1, 3000), (0, 2)),
    "pitch-not-16-bytes": ((3000, 3004), (3004, 1), (1, 3002), (0, 0)),
    "src-rows-reversed": ((3000, 3008), (3008, 1), (1, -3000), (0, 0)),
    "dst-rows-reversed": ((3000, 3008), (-3008, 1), (1, 3000), (0, 0)),
}

# Large 2-byte transposes with pitches off 16 bytes (none goes to the
# tensor-copy tiles: a box must start on 16 bytes, notes/rearrange.md session
# 23): padded odd pitches on both sides, on one side, and pointers shifted by
# 16 and 4 bytes; run by test_tensor_copy_tiles beside its own cases.
ODD_PITCH_CASES = {
    "odd-both-padded": ((3001, 3137), (3139, 1), (1, 3003), (0, 0)),
    "odd-both-padded-shift-16-bytes": ((3001, 3137), (3139, 1), (1, 3003), (8, 8)),
    "odd-both-padded-shift-4-bytes": ((3001, 3137), (3139, 1), (1, 3003), (2, 2)),
    "odd-src-only": ((3000, 3008), (3008, 1), (1, 3001), (0, 0)),
    "odd-dst-only": ((3000, 3072), (3073, 1), (1, 3000), (0, 0)),
}
# Plain 2-D 2-byte transposes of an odd src pitch, 1-24 MiB a side: the odd
# tensor-copy tiles on NVIDIA sm_90 (odd_tma_tile.cuh, session 32: the copy
# engine loads the src rows of each residue mod 8 through a map of its own),
# with pointers off 16 bytes, partial tiles, an even dst pitch; src rows
# running backwards go to the odd word tiles.
ODD_TMA_CASES = {
    "odd-tma-square": ((2049, 2049), (2049, 1), (1, 2049), (0, 0)),
    "odd-tma-padded-shifted": ((1999, 3001), (3003, 1), (1, 2001), (1, 3)),
    "odd-tma-dst-even": ((2500, 2048), (2048, 1), (1, 2501), (0, 0)),
    "odd-tma-partial-dst-shifted": ((1025, 4097), (4100, 1), (1, 1025), (0, 5)),
    "odd-tma-src-rows-reversed": ((2049, 2049), (2049, 1), (1, -2049), (0, 0)),
    "odd-tma-small": ((769, 769), (769, 1), (1, 769), (0, 0)),
    "odd-tma-large": ((3001, 4001), (4001, 1), (1, 3001), (0, 0)),
}
LARGE_2BYTE_CASES = {**TENSOR_COPY_CASES, **ODD_PITCH_CASES, **ODD_TMA_CASES}


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [F16, BF16], ids=str)
@pytest.mark.parametrize("case", list(LARGE_2BYTE_CASES), ids=str)
def test_tensor_copy_tiles(device, rng, dtype, case):
    """Padded pitches, partial tiles along both dims, pointers 16 bytes off
    (taken) and 4 bytes off (the word tiles instead), pitches off 16 bytes
    (odd ones too: the odd word tiles), rows running backwards; the poisoned
    padding must stay untouched."""
    shape, dst_strides, src_strides, (src_shift, dst_shift) = LARGE_2BYTE_CASES[case]
    check_copy(device, rng, shape, dst_strides, src_strides, dtype, src_shift=src_shift, dst_shift=dst_shift)


@pytest.mark.gpu
@pytest.mark.parametrize("n, dtype", [(3072, F16), (1031, F16), (257, F16), (2049, F16), (1024, F32)],
                         ids=["wide-f16", "odd-f16", "odd-one-wave-f16", "odd-tma-f16", "f32"])
def test_dependent_transposes_back_to_back_gpu(rng, n, dtype):
    """Transposes that depend on each other through every buffer (B = A.T; A =
    B.T overwrites what the first read; C = A.T; B = C.T overwrites what the
    second read), after a plain copy that restores A, queued without a sync:
    the tile kernels may be launched with programmatic dependent launch on
    sm_90 (tileKernelEntry waits for the previous kernel before any access),
    eagerly and in CUDA graphs. The tensor-copy tiles (3072² F16: a persistent
    block an SM whose copies into dst are asynchronous), the odd word tiles
    (odd pitch; they let the next launch in once a block has its tile, and
    257² is one wave of blocks) and the 4-byte tile kernel; every result bit
    for bit."""
    a0 = rng.standard_normal((n, n)).astype(dtype)
    src = ip.DeviceArray.from_numpy(a0)
    bufs = [ip.DeviceArray.from_numpy(np.full((n, n), np.nan, dtype)) for _ in range(3)]  # A, B, C
    nan = np.full((n, n), np.nan, dtype)

    def t(buf):  # the transposed view of a contiguous n x n buffer
        return buf.view((n, n), (1, n), 0)

    def queue(s):
        ip.rearrange(src, out=bufs[0], stream=s)  # A restored by a contiguous copy
        ip.rearrange(t(bufs[0]), out=bufs[1], stream=s)  # B = A.T
        ip.rearrange(t(bufs[1]), out=bufs[0], stream=s)  # A = B.T
        ip.rearrange(t(bufs[0]), out=bufs[2], stream=s)  # C = A.T
        ip.rearrange(t(bufs[2]), out=bufs[1], stream=s)  # B = C.T

    def poison(s):
        for buf in bufs:
            buf.copy_from_numpy(nan, stream=s)

    want = [a0, a0, np.ascontiguousarray(a0.T)]

    def check(what, s):
        for k in range(3):
            got = bufs[k].to_numpy(stream=s)
            assert np.array_equal(got.view(np.uint8), want[k].view(np.uint8)), f"{what}: {'ABC'[k]} differs"

    queue_dependent_chains(queue, poison, check)


# ---- errors through the C ABI ----

def _tensor(shape, strides=None, dtype=ip.Dtype.F32):
    return ip.TensorDescriptor(shape, strides, dtype)


@pytest.fixture
def cpu_handle():
    with ip.Handle("cpu") as h:
        yield h


def _create_status(handle, dst, src):
    out = ffi.new("infiniopRearrangeDescriptor_t *")
    status = lib.infiniopCreateRearrangeDescriptor(handle.ptr, out, dst.ptr, src.ptr)
    if status == 0:
        assert lib.infiniopDestroyRearrangeDescriptor(out[0]) == 0
    return status


def test_abi_statuses(cpu_handle):
    a = _tensor((3, 4))
    assert _create_status(cpu_handle, a, _tensor((4, 3), (1, 4))) == 11  # shape
    assert _create_status(cpu_handle, a, _tensor((3, 4, 1))) == 11  # ndim
    assert _create_status(cpu_handle, a, _tensor((3, 4), None, ip.Dtype.F16)) == 10  # dtype
    assert _create_status(cpu_handle, a, _tensor((3, 4), None, ip.Dtype.I32)) == 10  # same size, other dtype
    assert _create_status(cpu_handle, _tensor((3, 4), (0, 1)), a) == 12  # dst broadcasts
    assert _create_status(cpu_handle, _tensor((3, 4), (2, 1)), a) == 12  # dst rows overlap
    assert _create_status(cpu_handle, _tensor((3, 4), (4, 1)), _tensor((3, 4), (0, 0))) == 0  # src may
    out = ffi.new("infiniopRearrangeDescriptor_t *")
    assert lib.infiniopCreateRearrangeDescriptor(ffi.NULL, out, a.ptr, a.ptr) == 4
    assert lib.infiniopCreateRearrangeDescriptor(cpu_handle.ptr, ffi.NULL, a.ptr, a.ptr) == 4
    assert lib.infiniopCreateRearrangeDescriptor(cpu_handle.ptr, out, ffi.NULL, a.ptr) == 4
    assert lib.infiniopCreateRearrangeDescriptor(cpu_handle.ptr, out, a.ptr, ffi.NULL) == 4
    assert lib.infiniopRearrange(ffi.NULL, ffi.NULL, ffi.NULL, ffi.NULL) == 4
    assert lib.infiniopDestroyRearrangeDescriptor(ffi.NULL) == 4


def test_abi_calculate_pointers(cpu_handle):
    a = _tensor((3, 4))
    out = ffi.new("infiniopRearrangeDescriptor_t *")
    assert lib.infiniopCreateRearrangeDescriptor(cpu_handle.ptr, out, a.ptr, a.ptr) == 0
    buf = ffi.new("float[12]")
    assert lib.infiniopRearrange(out[0], ffi.NULL, buf, ffi.NULL) == 4
    assert lib.infiniopRearrange(out[0], buf, ffi.NULL, ffi.NULL) == 4
    assert lib.infiniopRearrange(out[0], buf, buf, ffi.NULL) == 0
    assert lib.infiniopDestroyRearrangeDescriptor(out[0]) == 0
    # Empty: nothing is touched, so null pointers are fine.
    e = _tensor((0, 4))
    assert lib.infiniopCreateRearrangeDescriptor(cpu_handle.ptr, out, e.ptr, e.ptr) == 0
    assert lib.infiniopRearrange(out[0], ffi.NULL, ffi.NULL, ffi.NULL) == 0
    assert lib.infiniopDestroyRearrangeDescriptor(out[0]) == 0


def test_descriptor_survives_its_tensor_descriptors(cpu_handle, rng):
    dst, src = _tensor((5, 6)), _tensor((5, 6), (1, 5))
    desc = ip.Rearrange(cpu_handle, dst, src)
    dst.close()
    src.close()
    x = rng.standard_normal((6, 5)).astype(np.float32)
    y = np.full((5, 6), np.nan, np.float32)
    desc(y, x.T)
    assert np.array_equal(y, x.T)
    desc.close()
    desc.close()  # idempotent


# ---- the Python API ----

@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [F32, np.int16, np.int8], ids=["f32", "i16", "i8"])
@pytest.mark.parametrize("shape,dst_strides", [((3, 2), (2, 3)), ((4, 3), (3, 4)), ((2, 2, 2), (2, 3, 4)),
                                               ((5, 2), (2, -5)), ((30, 20), (20, 31))], ids=str)
def test_interleaved_dst(device, rng, dtype, shape, dst_strides):
    """A dst whose strides interleave without two elements at one address is a valid
    output (SPEC): every element lands at its own offset, the gaps stay untouched."""
    check_copy(device, rng, shape, dst_strides, contiguous_strides(shape), dtype)
    check_copy(device, rng, shape, dst_strides, permuted_strides(shape, tuple(range(len(shape)))[::-1]), dtype)


@pytest.mark.parametrize("device", DEVICES)
def test_python_errors(device, rng):
    src, _ = strided_source(rng, (4, 6), (6, 1), F32, device)
    wrong_dtype, _ = poisoned((4, 6), np.float64, device)
    with pytest.raises(ip.BadTensorDtype, match="Rearrange"):
        ip.rearrange(src, out=wrong_dtype)
    wrong_shape, _ = poisoned((6, 4), F32, device)
    with pytest.raises(ip.BadTensorShape):
        ip.rearrange(src, out=wrong_shape)
    overlapping, _ = poisoned((4, 6), F32, device, strides=(1, 1))
    with pytest.raises(ip.BadTensorStrides):
        ip.rearrange(src, out=overlapping)
    with pytest.raises(ValueError):  # BadTensorStrides is a ValueError too
        ip.rearrange(src, out=overlapping)


@pytest.mark.parametrize("device", DEVICES)
def test_out_allocated_and_descriptor_cached(device, rng):
    src, host = strided_source(rng, (6, 10), (1, 6), F32, device)
    out = ip.rearrange(src)
    assert to_host(out).tobytes() == np.ascontiguousarray(host).tobytes()
    cache = _base._cache("descriptors")
    before = len(cache)
    for _ in range(3):
        ip.rearrange(src, out=out)
    assert len(cache) == before


def test_descriptor_checks_layouts(cpu_handle, rng):
    x = rng.standard_normal((4, 5)).astype(np.float32)
    y = np.empty((5, 4), np.float32)
    with ip.Rearrange(cpu_handle, y, x.T) as desc:
        desc(y, x.T)
        assert np.array_equal(y, x.T)
        with pytest.raises(ValueError, match="descriptor was made for"):
            desc(y, x.T.copy())
        desc(y.__array_interface__["data"][0], x.__array_interface__["data"][0])  # raw addresses
        assert np.array_equal(y, x.T)


# ---- NVIDIA: other array kinds and streams ----

@pytest.mark.gpu
def test_torch_and_streams():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA here")
    x = torch.randn(300, 200, device="cuda", dtype=torch.float16)
    stream = torch.cuda.Stream()
    out = torch.empty(200, 300, device="cuda", dtype=torch.float16)
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        ip.rearrange(x.t(), out=out, stream=stream)
    stream.synchronize()
    assert torch.equal(out, x.t())
    y = ip.rearrange(x.flip(0))  # negative strides, output allocated as a torch tensor
    torch.cuda.synchronize()
    assert isinstance(y, torch.Tensor) and torch.equal(y, x.flip(0))


@pytest.mark.gpu
def test_more_than_2_to_the_32_units():
    """The generic kernel's 64-bit index path: 2^32 + 3 one-byte units that
    cannot be widened (src reads every other byte)."""
    torch = pytest.importorskip("torch")
    n = (1 << 32) + 3
    free, _ = torch.cuda.mem_get_info()
    if free < 3 * n + (1 << 30):
        pytest.skip(f"needs {3 * n >> 30} GiB of free GPU memory, {free >> 30} GiB free")
    src = torch.randint(0, 256, (2 * n,), dtype=torch.uint8, device="cuda")
    dst = torch.empty(n, dtype=torch.uint8, device="cuda")
    ip.rearrange(src[::2], out=dst)
    torch.cuda.synchronize()
    assert torch.equal(dst, src[::2])
    del src, dst
    torch.cuda.empty_cache()


@pytest.mark.gpu
def test_cupy():
    cupy = pytest.importorskip("cupy")
    x = cupy.arange(12 * 7, dtype=cupy.float64).reshape(12, 7)
    y = ip.rearrange(x[::-1, ::2].T)
    cupy.cuda.runtime.deviceSynchronize()
    assert cupy.array_equal(y, x[::-1, ::2].T)


@pytest.mark.gpu
def test_graph_capture():
    """Calculate is capturable: no allocation, no synchronisation, no host copy."""
    torch = pytest.importorskip("torch")
    x = torch.randn(512, 384, device="cuda")
    out = torch.empty(384, 512, device="cuda")
    ip.rearrange(x.t(), out=out)  # descriptor made outside the capture
    torch.cuda.synchronize()
    out.zero_()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        ip.rearrange(x.t(), out=out, stream=torch.cuda.current_stream())
    graph.replay()
    torch.cuda.synchronize()
    assert torch.equal(out, x.t())
