"""Layout arithmetic shared by the binding, its benchmarks and its tests."""
from __future__ import annotations

from typing import Sequence, Tuple


def contiguous_strides(shape: Sequence[int]) -> Tuple[int, ...]:
    """Row-major strides in elements (empty dims count as 1, as in NumPy)."""
    strides, step = [], 1
    for s in reversed(tuple(shape)):
        strides.insert(0, step)
        step *= max(int(s), 1)
    return tuple(strides)


def permuted_strides(shape: Sequence[int], order: Sequence[int]) -> Tuple[int, ...]:
    """Strides over `shape` of a contiguous tensor of shape [shape[i] for i in order],
    seen through the inverse permutation (order[0] is the outermost dim in memory)."""
    inner = contiguous_strides([shape[i] for i in order])
    strides = [0] * len(shape)
    for j, i in enumerate(order):
        strides[i] = inner[j]
    return tuple(strides)
