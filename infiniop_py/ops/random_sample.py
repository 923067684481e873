"""RandomSample (stub: the operator lands with its issue)."""
__all__ = ["RandomSample", "RandomSampleBatch", "random_sample", "random_sample_batch"]


class RandomSample:  # pragma: no cover - replaced by the operator's implementation
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("RandomSample is not implemented yet")


class RandomSampleBatch(RandomSample):  # pragma: no cover
    pass


def random_sample(logits, random_val, topp, topk, temperature, out=None, *, stream=None):  # pragma: no cover
    raise NotImplementedError("random_sample is not implemented yet")


def random_sample_batch(logits, random_val, topp, topk, temperature, out=None, *, stream=None):  # pragma: no cover
    raise NotImplementedError("random_sample_batch is not implemented yet")
