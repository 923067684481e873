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
