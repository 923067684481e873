"""Mul (stub: the operator lands with its issue)."""
__all__ = ["Mul", "mul"]


class Mul:  # pragma: no cover - replaced by the operator's implementation
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("Mul is not implemented yet")


def mul(a, b, out=None, *, stream=None):  # pragma: no cover
    raise NotImplementedError("mul is not implemented yet")
