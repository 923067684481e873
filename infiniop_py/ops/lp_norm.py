"""LPNorm (stub: the operator lands with its issue)."""
__all__ = ["LPNorm", "lp_norm"]


class LPNorm:  # pragma: no cover - replaced by the operator's implementation
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("LPNorm is not implemented yet")


def lp_norm(x, axis=-1, p=2, eps=1e-12, out=None, *, stream=None):  # pragma: no cover
    raise NotImplementedError("lp_norm is not implemented yet")
