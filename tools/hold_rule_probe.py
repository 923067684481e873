"""Where the library plans Hold since session 26 (nvidia.cc's holdPays): LPNorm
shapes of the new region and two controls (shapes it leaves to Sweep and Pipe), eager and in CUDA graphs, against
PyTorch in the same process (bench_lp_norm's cases, each checked before it is
timed). The library: INFINIOP_LIBRARY, or the default build;
tools/verify_s26g.sh runs it on the library and on one built with
-DINFINI_LP_NORM_HOLD_WIDE=0 (8+ rows of 1M only).
(Call 9 ran a first form: p 1 and 2 only, no 128K-512K rows; call 11 a second, 64x512K
left to Pipe; call 12 this one.)"""
from split_eager import report  # (tools/, this script's directory)

M = 1 << 20
SPECS = [
    ("2x1M BF16 p 2 (control: Sweep)", (2, M), "bfloat16", 1, 2),
    ("3x1M BF16 p 2", (3, M), "bfloat16", 1, 2),
    ("4x1M BF16 p 2", (4, M), "bfloat16", 1, 2),
    ("6x1M BF16 p 2", (6, M), "bfloat16", 1, 2),
    ("4x1M F16 p 1", (4, M), "float16", 1, 1),
    ("4x1M BF16 p 3", (4, M), "bfloat16", 1, 3),
    ("1x4M BF16 p 2", (1, 4 * M), "bfloat16", 1, 2),
    ("1x16M BF16 p 2", (1, 16 * M), "bfloat16", 1, 2),
    ("8x512K BF16 p 2", (8, M // 2), "bfloat16", 1, 2),
    ("16x512K F16 p 2", (16, M // 2), "float16", 1, 2),
    ("16x512K BF16 p 3", (16, M // 2), "bfloat16", 1, 3),
    ("32x512K BF16 p 2", (32, M // 2), "bfloat16", 1, 2),
    ("64x256K BF16 p 2", (64, M // 4), "bfloat16", 1, 2),
    ("64x512K BF16 p 2", (64, M // 2), "bfloat16", 1, 2),
    ("48x1M BF16 p 2 (control: Pipe, beyond Hold's room)", (48, M), "bfloat16", 1, 2),
]

report(SPECS)
