"""The operators: one module each, sharing ops/_base.py."""
from .lp_norm import LPNorm, lp_norm
from .mul import Mul, mul
from .random_sample import RandomSample, RandomSampleBatch, random_sample, random_sample_batch
from .rearrange import Rearrange, rearrange

__all__ = ["LPNorm", "Mul", "RandomSample", "RandomSampleBatch", "Rearrange",
           "lp_norm", "mul", "random_sample", "random_sample_batch", "rearrange"]
