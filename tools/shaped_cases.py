"""Session 38: seeded random cases of two shapes, as behind_sweep.py lines (ratio 1.000) that
`behind_sweep.py --repro FILE N --no-kernels` runs on any library, to compare planner variants on
the cases they can change, not only on those a sweep found behind:
  box   Rearrange of int8 / F16 tensors of 10-60 MB whose innermost 2-3 dims (at most 16 KB) are
        permuted among themselves, outer dims sometimes too (the box transposes' shapes, removed in
        session 46);
  slab  LPNorm of contiguous tensors over the axis just outside an inner extent of 2-256 elements,
        axis x inner at most 32 KB (lp_norm/nvidia.cc planSlab);
  mulperm  Mul of 2-96 MB (3-4 dims, as behind_sweep.py's) with a permuted so that its unit-stride
        dim is not the output's innermost, b broadcast over random dims (elementwise/plan_nvidia.cc
        planTiled: tiles or the gather form);
  mulodd  Mul of 2-96 MB (2-4 dims) of any float type whose innermost extent is odd and at most 4096, a
        sometimes permuted, b broadcast over random dims (session 40: elementwise/plan_nvidia.cc's gather
        form, vector or lane mapping, INFINI_ELEMENTWISE_LANE_ODD_ROWS);
  lprows  LPNorm over the innermost axis of 300-4000 rows of 2K-30K elements of any float type, 10-150
        MB, half of them ragged (session 41: Rows against a Stream of block groups, stream.cu's
        INFINI_LP_NORM_BLOCK_STREAM);
  colsmid  LPNorm over a middle axis of 65-128 elements (Cols: a thread then holds 9-16 rows of its
        column, the 16-row Whole kernel at one block an SM), inner extents of 16-2048 past the Slab
        plan's 32 KB, any float type, 10-100 MB (session 41: nvidia.cc's planCols, cols.cu's
        INFINI_LP_NORM_COLS_WHOLE16_MIN_BLOCKS);
  reperm  Rearrange of 4-5-dim tensors of 10-80 MB of any element type, every dim 3-120 before scaling,
        src permuted so that its unit-stride dim is not dst's (contiguous) innermost (session 40: the
        cases rearrange_nvidia.cc planTile's fill gate moves between tiles and the generic kernel);
  lpshort  LPNorm over the innermost axis of contiguous rows of 9-600 elements (not a whole number of
        16-byte packs) of any float type, 10-150 MB, 2-4 dims (session 42: the ragged Rows plan against
        the scalar one, lp_norm/nvidia.cc's INFINI_LP_NORM_RAGGED_MIN_LEN).
  mulshort  Mul of 2-96 MB (3-4 dims) whose innermost extent is shorter than a 16-byte vector (2-15
        elements), a permuted, b broadcast over random dims (session 45: the gather form's short rows,
        elementwise/nvidia.cuh's INFINI_ELEMENTWISE_GATHER_SHORT_RUNS);
  lpmid  LPNorm over the innermost axis of contiguous rows of 130-4096 packs (the Rows plan's 4-pack
        threads) of any float type, 10-150 MB, half of them ragged (session 45: INFINI_LP_NORM_ROWS_ITEMS6).
  mulnarrow  Mul of 2-96 MB (3-4 dims) with a permuted so that its unit-stride dim has 5-8 elements and is
        not the output's innermost, b broadcast over random dims (session 52: narrow tiles against the
        lane gather, elementwise/nvidia.h's INFINI_ELEMENTWISE_LANE_TILE_ROWS).
    python3 tools/shaped_cases.py box|slab|mulperm|mulodd|mulnarrow|mulshort|lprows|lpmid|colsmid|reperm|lpshort SEED COUNT > FILE"""
import math
import random
import sys

from infiniop_py._layout import contiguous_strides

SIZES = {"int8": 1, "float16": 2, "bfloat16": 2, "float32": 4, "float64": 8}


def log_uniform(rng, lo, hi):
    return int(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def box_case(rng):
    dtype = rng.choice(["int8", "float16"])
    while True:
        block = [log_uniform(rng, 3, 200) for _ in range(rng.choice([2, 2, 3]))]
        if math.prod(block) * SIZES[dtype] <= 16 << 10 and math.prod(block) >= 16:
            break
    total = log_uniform(rng, 10 << 20, 60 << 20) // SIZES[dtype]
    outer_n = max(1, total // math.prod(block))
    outer = [outer_n] if rng.random() < 0.5 else [max(1, int(outer_n ** 0.5 * rng.uniform(0.3, 3)))]
    if len(outer) == 1 and outer[0] != outer_n:
        outer.append(max(1, outer_n // outer[0]))
    inner = list(range(len(outer), len(outer) + len(block)))
    while inner[-1] == len(outer) + len(block) - 1:  # src's fastest dim is not dst's
        rng.shuffle(inner)
    head = list(range(len(outer)))
    if rng.random() < 0.3:
        rng.shuffle(head)
    shape = tuple(outer + block)
    return f"rearrange {shape} src order {tuple(head + inner)} dst {contiguous_strides(shape)} {dtype}"


def slab_case(rng):
    dtype = rng.choice(["float16", "bfloat16", "float32", "float64"])
    while True:
        inner = [log_uniform(rng, 2, 256)]
        if rng.random() < 0.25:
            inner = [log_uniform(rng, 2, 16), log_uniform(rng, 2, 16)]
        length = log_uniform(rng, 2, 400)
        if math.prod(inner) <= 256 and length * math.prod(inner) * SIZES[dtype] <= 32 << 10:
            break
    total = log_uniform(rng, 2 << 20, 96 << 20) // SIZES[dtype]
    rows = max(300, total // (length * math.prod(inner)))
    outer = [rows] if rng.random() < 0.6 else [max(1, rows // 7), 7]
    shape = tuple(outer + [length] + inner)
    return f"lp_norm {shape} axis {len(outer)} p {rng.choice([1, 2, 2, 3])} {dtype}"


def permuted_shape(rng, ndim, numel, longest):
    """(shape, order): ndim dims drawn log-uniform in [3, longest], scaled to about numel elements, and an
    order whose last (fastest) dim is not the shape's last."""
    while True:
        shape = [max(2, log_uniform(rng, 3, longest)) for _ in range(ndim)]
        scale = (numel / math.prod(shape)) ** (1 / ndim)
        shape = [max(2, round(d * scale)) for d in shape]
        order = list(range(ndim))
        rng.shuffle(order)
        if order[-1] != ndim - 1:
            return tuple(shape), tuple(order)


def mulperm_case(rng):
    dtype = rng.choice(["float16", "bfloat16", "float32", "float64"])
    ndim = rng.choice([3, 4, 4])
    numel = log_uniform(rng, 2 << 20, 96 << 20) // SIZES[dtype] // 3
    shape, order = permuted_shape(rng, ndim, numel, 600)  # a's fastest dim is not c's
    b_shape = tuple(1 if rng.random() < 0.4 else d for d in shape)
    return f"mul {shape} a order {order} b {b_shape} {dtype}"


def mulnarrow_case(rng):
    dtype = rng.choice(["float16", "bfloat16", "float32", "float64"])
    ndim = rng.choice([3, 4, 4])
    numel = log_uniform(rng, 2 << 20, 96 << 20) // SIZES[dtype] // 3
    shape, order = permuted_shape(rng, ndim, numel, 600)
    shape = list(shape)
    rows = rng.randint(5, 8)
    shape[order[-1]] = rows  # a's unit-stride dim: a plane of 5-8 rows
    scale = (numel / math.prod(shape)) ** (1 / (ndim - 1))
    shape = tuple(d if i == order[-1] else max(2, round(d * scale)) for i, d in enumerate(shape))
    b_shape = tuple(1 if rng.random() < 0.4 else d for d in shape)
    return f"mul {shape} a order {order} b {b_shape} {dtype}"


def mulodd_case(rng):
    dtype = rng.choice(["float16", "bfloat16", "float32", "float64"])
    ndim = rng.choice([2, 3, 4])
    numel = log_uniform(rng, 2 << 20, 96 << 20) // SIZES[dtype] // 3
    inner = log_uniform(rng, 5, 4096) | 1
    outer = [max(2, log_uniform(rng, 3, 600)) for _ in range(ndim - 1)]
    scale = (numel / inner / math.prod(outer)) ** (1 / (ndim - 1))
    shape = tuple([max(2, round(d * scale)) for d in outer] + [inner])
    order = list(range(ndim))
    if rng.random() < 0.3:
        rng.shuffle(order)
    b_shape = tuple(1 if rng.random() < 0.4 else d for d in shape)
    return f"mul {shape} a order {tuple(order)} b {b_shape} {dtype}"


def reperm_case(rng):
    dtype = rng.choice(["int8", "float16", "float32", "float64"])
    ndim = rng.choice([4, 5, 5])
    numel = log_uniform(rng, 10 << 20, 80 << 20) // SIZES[dtype]
    shape, order = permuted_shape(rng, ndim, numel, 120)  # src's fastest dim is not dst's
    return f"rearrange {shape} src order {order} dst {contiguous_strides(shape)} {dtype}"


def lprows_case(rng):
    dtype = rng.choice(["float16", "bfloat16", "float32", "float64"])
    vec = 16 // SIZES[dtype]
    while True:
        length = log_uniform(rng, 2048, 30000)
        length = length | 1 if rng.random() < 0.5 else length // vec * vec  # ragged or whole packs
        rows = log_uniform(rng, 300, 4000)
        if 10 << 20 <= 2 * rows * length * SIZES[dtype] <= 150 << 20:
            break
    return f"lp_norm ({rows}, {length}) axis 1 p {rng.choice([1, 2, 2, 3])} {dtype}"


def mulshort_case(rng):
    dtype = rng.choice(["float16", "bfloat16", "float32", "float64"])
    ndim = rng.choice([3, 4, 4])
    numel = log_uniform(rng, 2 << 20, 96 << 20) // SIZES[dtype] // 3
    inner = rng.randint(2, 16 // SIZES[dtype] - 1) if SIZES[dtype] < 8 else 1
    outer = [max(2, log_uniform(rng, 3, 600)) for _ in range(ndim - 1)]
    scale = (numel / inner / math.prod(outer)) ** (1 / (ndim - 1))
    shape = tuple([max(2, round(d * scale)) for d in outer] + [inner])
    order = list(range(ndim))
    rng.shuffle(order)
    b_shape = tuple(1 if rng.random() < 0.4 else d for d in shape)
    return f"mul {shape} a order {tuple(order)} b {b_shape} {dtype}"


def lpmid_case(rng):
    dtype = rng.choice(["float16", "bfloat16", "float32", "float64"])
    vec = 16 // SIZES[dtype]
    while True:
        length = log_uniform(rng, 130, 4096) * vec
        length = length | 1 if rng.random() < 0.5 else length  # ragged or whole packs
        rows = log_uniform(rng, 1000, 60000)
        if 10 << 20 <= 2 * rows * length * SIZES[dtype] <= 150 << 20:
            break
    return f"lp_norm ({rows}, {length}) axis 1 p {rng.choice([1, 2, 2, 3])} {dtype}"


def colsmid_case(rng):
    dtype = rng.choice(["float16", "bfloat16", "float32", "float64"])
    axis_len = rng.randint(65, 128)
    while True:  # past the Slab plan's 32 KB (axis x inner), which would take it instead
        inner = log_uniform(rng, 16, 2048)
        if axis_len * inner * SIZES[dtype] > 32 << 10:
            break
    total = log_uniform(rng, 10 << 20, 100 << 20) // SIZES[dtype]
    outer = max(1, total // (axis_len * inner))
    shape = [outer, axis_len, inner]
    if rng.random() < 0.3 and outer >= 4:  # a second outer dim
        split = rng.choice([2, 3, 4, 5, 7])
        shape = [max(1, outer // split), split, axis_len, inner]
    return f"lp_norm {tuple(shape)} axis {len(shape) - 2} p {rng.choice([1, 2, 2, 3])} {dtype}"


def lpshort_case(rng):
    dtype = rng.choice(["float16", "bfloat16", "float32", "float64"])
    vec = 16 // SIZES[dtype]
    length = log_uniform(rng, 9, 600)
    if length % vec == 0:
        length += 1
    total = log_uniform(rng, 5 << 20, 75 << 20) // SIZES[dtype]  # x's bytes: half of what moves
    rows = max(1, total // length)
    outer = [rows]
    if rng.random() < 0.5 and rows >= 64:  # two or three outer dims
        a = rng.choice([3, 7, 16, 55, 130])
        outer = [max(1, rows // a), a]
    shape = tuple(outer + [length])
    return f"lp_norm {shape} axis {len(shape) - 1} p {rng.choice([1, 2, 2, 3])} {dtype}"


def colscut_case(rng):
    """Long columns over few of them (the Cols plan's cut axis: Stats, Factor, Apply), any inner extent."""
    dtype = rng.choice(["float16", "bfloat16", "float32", "float64"])
    inner = log_uniform(rng, 200, 20000)
    if rng.random() < 0.5:
        inner += 1  # often no multiple of a pack: scalar columns
    total = log_uniform(rng, 10 << 20, 150 << 20) // SIZES[dtype]
    axis_len = max(300, total // inner)
    shape = [axis_len, inner]
    if rng.random() < 0.3 and axis_len >= 1200:  # a few outer indices
        outer = rng.choice([2, 3, 4])
        shape = [outer, axis_len // outer, inner]
    return f"lp_norm {tuple(shape)} axis {len(shape) - 2} p {rng.choice([1, 2, 2, 3])} {dtype}"


def colsband_case(rng):
    """Columns of 129-256 rows over 1100-16000 columns of 16-byte packs: planCols cuts these (8 thread rows
    of warps 32 packs wide leave 17-32 rows a thread) where INFINI_LP_NORM_COLS_UNCUT_MIN_ROW_BYTES=128
    keeps them whole (32 thread rows 8 packs wide)."""
    dtype = rng.choice(["float16", "bfloat16", "float32", "float64"])
    axis_len = rng.randint(129, 256)
    packs = log_uniform(rng, 1100, 16000)  # at least a block of 8 packs an SM (UNCUT asks that)
    inner = packs * (16 // SIZES[dtype])
    shape = [axis_len, inner]
    if rng.random() < 0.4:  # the inner extent as two dims
        split = rng.choice([2, 4, 8])
        shape = [axis_len, split, inner // split]
    return f"lp_norm {tuple(shape)} axis 0 p {rng.choice([1, 2, 2, 3])} {dtype}"


def lpshort16_case(rng):
    """16-bit ragged rows of 17-40 elements (3-5 packs): the band of INFINI_LP_NORM_RAGGED_SCALAR_FROM_2B / TO_2B (nvidia.cc)."""
    dtype = rng.choice(["float16", "bfloat16"])
    length = rng.randint(17, 40)
    if length % 8 == 0:
        length += 1
    total = log_uniform(rng, 5 << 20, 75 << 20) // 2
    rows = max(1, total // length)
    outer = [rows]
    if rng.random() < 0.5 and rows >= 64:
        a = rng.choice([3, 7, 16, 55, 130, 255])
        outer = [max(1, rows // a), a]
    shape = tuple(outer + [length])
    return f"lp_norm {shape} axis {len(shape) - 1} p {rng.choice([1, 2, 2, 3])} {dtype}"


def main():
    kind, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    make = {"box": box_case, "slab": slab_case, "mulperm": mulperm_case, "mulodd": mulodd_case, "mulnarrow": mulnarrow_case, "lprows": lprows_case, "lpmid": lpmid_case, "mulshort": mulshort_case, "colsmid": colsmid_case,
            "reperm": reperm_case, "lpshort": lpshort_case, "lpshort16": lpshort16_case, "colscut": colscut_case, "colsband": colsband_case}[kind]
    for _ in range(count):
        print(f"{make(rng)}: ours 0.00 us, torch 0.00 us, ratio 1.000")


if __name__ == "__main__":
    main()
