"""Rearrange (stub: the operator lands with its issue)."""
__all__ = ["Rearrange", "rearrange"]


class Rearrange:  # pragma: no cover - replaced by the operator's implementation
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("Rearrange is not implemented yet")


def rearrange(src, out=None, *, stream=None):  # pragma: no cover
    raise NotImplementedError("rearrange is not implemented yet")
