"""Where the library plans Hold since session 27 (nvidia.cc's holdPays, INFINI_LP_NORM_HOLD_WIDER):
F32 and F64 rows and the 2-byte shapes added to its region, and controls the rule leaves to the
other plans, eager and in CUDA graphs, against PyTorch in the same process (bench_lp_norm's cases,
each checked before it is timed). The library: INFINIOP_LIBRARY, or the default build;
tools/verify_s27b.sh runs it on the library and on one built with -DINFINI_LP_NORM_HOLD_WIDER=0."""
from split_eager import report  # (tools/, this script's directory)

M = 1 << 20
SPECS = [
    ("4x1M F32 p 2 (control: Split)", (4, M), "float32", 1, 2),
    ("8x1M F32 p 2", (8, M), "float32", 1, 2),
    ("16x1M F32 p 2", (16, M), "float32", 1, 2),
    ("16x1M F32 p 1", (16, M), "float32", 1, 1),
    ("1x8M F32 p 2", (1, 8 * M), "float32", 1, 2),
    ("32x256K F32 p 2", (32, M // 4), "float32", 1, 2),
    ("2x1M F64 p 2", (2, M), "float64", 1, 2),
    ("8x1M F64 p 2", (8, M), "float64", 1, 2),
    ("2x4M BF16 p 2", (2, 4 * M), "bfloat16", 1, 2),
    ("128x256K BF16 p 2", (128, M // 4), "bfloat16", 1, 2),
    ("2x2M BF16 p 2 (control: Sweep)", (2, 2 * M), "bfloat16", 1, 2),
    ("24x1M F32 p 2 (control: Cluster, beyond Hold's room)", (24, M), "float32", 1, 2),
]

report(SPECS)
