"""LPNorm over an axis that is not innermost with few columns (the Cols plan's cut axis, session 27)
and controls whose columns fill the GPU uncut, eager and in CUDA graphs, against PyTorch in the same
process (bench_lp_norm's cases, each checked before it is timed). The library: INFINIOP_LIBRARY, or the
default build; tools/verify_s27d.sh runs it on the library and on one built with
-DINFINI_LP_NORM_COLS_SPLIT=0 (the axis never cut)."""
import sys

from split_eager import report, selected  # (tools/, this script's directory)

SPECS = [
    ("4096x4096 BF16 axis 0 p 2", (4096, 4096), "bfloat16", 0, 2),
    ("4096x4096 BF16 axis 0 p 1", (4096, 4096), "bfloat16", 0, 1),
    ("4096x4096 F16 axis 0 p 1", (4096, 4096), "float16", 0, 1),
    ("4096x4096 F16 axis 0 p 2", (4096, 4096), "float16", 0, 2),
    ("4096x4096 F32 axis 0 p 2", (4096, 4096), "float32", 0, 2),
    ("4096x4096 F64 axis 0 p 2", (4096, 4096), "float64", 0, 2),
    ("8192x1024 F32 axis 0 p 2", (8192, 1024), "float32", 0, 2),
    ("(32,4096,512) BF16 axis 1 p 2", (32, 4096, 512), "bfloat16", 1, 2),
    ("100000x64 F32 axis 0 p 2", (100000, 64), "float32", 0, 2),
    ("(12,16,512,512) F64 axis 1 p 2", (12, 16, 512, 512), "float64", 1, 2),
    ("(12,16,512,512) F64 axis 0 p 1", (12, 16, 512, 512), "float64", 0, 1),
    ("(12,16,512,512) F32 axis 0 p 1 (control: uncut)", (12, 16, 512, 512), "float32", 0, 1),
    ("(12,16,512,512) F32 axis 1 p 2 (control: uncut)", (12, 16, 512, 512), "float32", 1, 2),
]

if __name__ == "__main__":
    # Arguments: keep the cases whose name contains any of them.
    report(selected(SPECS, sys.argv[1:]))
