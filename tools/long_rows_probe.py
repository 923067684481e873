"""Session 29: long rows beyond what Hold holds within its L2 budget (F64 rows went to Split in session
28's library, behind PyTorch there; F32 / BF16 ones to Split, Cluster, Pipe) and shorter F64 rows,
through the library against PyTorch in the same process: each case checked, then eager and graph µs.
The library: INFINIOP_LIBRARY, or the default build. Arguments: keep the cases whose name contains any
of them."""
import sys

from split_eager import report, selected  # (tools/, this script's directory)

M = 1 << 20
SPECS = [
    ("16x1M F64 p 2", (16, M), "float64", 1, 2),
    ("32x1M F64 p 2", (32, M), "float64", 1, 2),
    ("16x256K F64 p 2", (16, M // 4), "float64", 1, 2),
    ("8x512K F64 p 2", (8, M // 2), "float64", 1, 2),
    ("32x256K F64 p 2", (32, M // 4), "float64", 1, 2),
    ("64x256K F64 p 2", (64, M // 4), "float64", 1, 2),
    ("12x1M F64 p 2", (12, M), "float64", 1, 2),
    ("4x4M F64 p 2", (4, 4 * M), "float64", 1, 2),
    ("16x1M F64 p 1", (16, M), "float64", 1, 1),
    ("16x1M F64 p 3", (16, M), "float64", 1, 3),
    ("32x128K F64 p 2", (32, M // 8), "float64", 1, 2),
    ("64x128K F64 p 2", (64, M // 8), "float64", 1, 2),
    ("128x64K F64 p 2", (128, M // 16), "float64", 1, 2),
    ("8x256K F64 p 2", (8, M // 4), "float64", 1, 2),
    ("4x512K F64 p 2", (4, M // 2), "float64", 1, 2),
    ("4x8M F32 p 2", (4, 8 * M), "float32", 1, 2),
    ("8x4M F32 p 2", (8, 4 * M), "float32", 1, 2),
    ("32x2M F32 p 2", (32, 2 * M), "float32", 1, 2),
    ("64x1M F32 p 2", (64, M), "float32", 1, 2),
    ("64x1M BF16 p 2", (64, M), "bfloat16", 1, 2),
    ("128x1M BF16 p 2", (128, M), "bfloat16", 1, 2),
    # session 30: rows of 2.8-4.4 MB beyond Hold's budget, the Grid plan
    ("24x1M F32 p 2 (Grid)", (24, M), "float32", 1, 2),
    ("32x1M F32 p 2 (Grid)", (32, M), "float32", 1, 2),
    ("64x1M F32 p 3 (Grid)", (64, M), "float32", 1, 3),
    ("64x768K F32 p 2 (Grid)", (64, 3 * M // 4), "float32", 1, 2),
    ("32x2M BF16 p 2 (Grid)", (32, 2 * M), "bfloat16", 1, 2),
    ("64x2M F16 p 1 (Grid)", (64, 2 * M), "float16", 1, 1),
    ("32x512K F64 p 2 (Grid)", (32, M // 2), "float64", 1, 2),
    ("64x512K F64 p 2 (Grid)", (64, M // 2), "float64", 1, 2),
    ("64x1.5M BF16 p 2 (Pipe)", (64, 3 * M // 2), "bfloat16", 1, 2),
    ("16x1M F32 p 2 (Hold)", (16, M), "float32", 1, 2),
    # session 30: Pipe for 8-byte rows of 32K+ and 4-byte rows beyond 2 MB (more than L2 in all)
    ("64x256K F64 p 2 (PipeW)", (64, M // 4), "float64", 1, 2),
    ("128x128K F64 p 2 (PipeW)", (128, M // 8), "float64", 1, 2),
    ("256x64K F64 p 2 (PipeW)", (256, M // 16), "float64", 1, 2),
    ("512x32K F64 p 2 (PipeW)", (512, M // 32), "float64", 1, 2),
    ("48x320K F64 p 2 (PipeW)", (48, 5 * M // 16), "float64", 1, 2),
    ("64x256K F64 p 3 (PipeW)", (64, M // 4), "float64", 1, 3),
    ("64x576K F32 p 2 (PipeW)", (64, 9 * M // 16), "float32", 1, 2),
    ("96x640K F32 p 2 (PipeW)", (96, 5 * M // 8), "float32", 1, 2),
    ("200x32K F64 p 2 (PipeE)", (200, M // 32), "float64", 1, 2),
    ("160x48K F64 p 2 (PipeE)", (160, 3 * M // 64), "float64", 1, 2),
    ("1000x32K F64 p 2 (PipeE)", (1000, M // 32), "float64", 1, 2),
    # 8-byte rows of 32K-64K within L2 (Split or Cluster before session 30's call 7, Pipe since)
    ("132x32K F64 p 2 (PipeL2)", (132, M // 32), "float64", 1, 2),
    ("160x32K F64 p 2 (PipeL2)", (160, M // 32), "float64", 1, 2),
    ("80x40K F64 p 2 (PipeL2)", (80, 5 * M // 128), "float64", 1, 2),
    ("100x48K F64 p 2 (PipeL2)", (100, 3 * M // 64), "float64", 1, 2),
    ("64x56K F64 p 2 (PipeL2)", (64, 7 * M // 128), "float64", 1, 2),
    ("150x32K F64 p 3 (PipeL2)", (150, M // 32), "float64", 1, 3),
    # drafted for session 31: what session 30's rules left as they were (Split / Cluster), against PyTorch
    ("64x32K F64 p 2 (Edge)", (64, M // 32), "float64", 1, 2),
    ("100x32K F64 p 2 (Edge)", (100, M // 32), "float64", 1, 2),
    ("40x48K F64 p 2 (Edge)", (40, 3 * M // 64), "float64", 1, 2),
    ("32x56K F64 p 2 (Edge)", (32, 7 * M // 128), "float64", 1, 2),
    ("128x128K F32 p 2 (Edge)", (128, M // 8), "float32", 1, 2),
    ("512x128K F32 p 2 (Edge)", (512, M // 8), "float32", 1, 2),
    ("200x256K F32 p 2 (Edge)", (200, M // 4), "float32", 1, 2),
    ("256x384K F32 p 2 (Edge)", (256, 3 * M // 8), "float32", 1, 2),
    ("128x512K F32 p 2 (Cluster)", (128, M // 2), "float32", 1, 2),
    ("128x384K F32 p 2 (Cluster)", (128, 3 * M // 8), "float32", 1, 2),
    # session 31: Hold's shapes, for its launch with the cooperative attribute against a plain one
    ("32x1M BF16 p 2 (HoldC)", (32, M), "bfloat16", 1, 2),
    ("8x1M BF16 p 2 (HoldC)", (8, M), "bfloat16", 1, 2),
    ("32x256K BF16 p 2 (HoldC)", (32, M // 4), "bfloat16", 1, 2),
    ("16x1M F32 p 2 (HoldC)", (16, M), "float32", 1, 2),
    ("16x256K F64 p 2 (HoldC)", (16, M // 4), "float64", 1, 2),
    ("16x1M F64 p 2 (HoldC)", (16, M), "float64", 1, 2),
    # session 31: F64 rows of 32K-48K of 2M+ elements below Pipe's rows rule (Split: 100x32K behind PyTorch)
    ("64x32K F64 p 2 (E32)", (64, M // 32), "float64", 1, 2),
    ("80x32K F64 p 2 (E32)", (80, M // 32), "float64", 1, 2),
    ("100x32K F64 p 2 (E32)", (100, M // 32), "float64", 1, 2),
    ("120x32K F64 p 2 (E32)", (120, M // 32), "float64", 1, 2),
    ("100x32K F64 p 3 (E32)", (100, M // 32), "float64", 1, 3),
    ("56x40K F64 p 2 (E32)", (56, 5 * M // 128), "float64", 1, 2),
    ("64x48K F64 p 2 (E32)", (64, 3 * M // 64), "float64", 1, 2),
    # where the library still plans Split (too small for Hold, too few rows for a cluster plan)
    ("1x1M F64 p 2 (Split)", (1, M), "float64", 1, 2),
    ("16x64K F64 p 2 (Split)", (16, M // 16), "float64", 1, 2),
    ("4x1M F32 p 2 (Split)", (4, M), "float32", 1, 2),
    ("2x2M F32 p 2 (Split)", (2, 2 * M), "float32", 1, 2),
    ("1x4M F32 p 2 (Split)", (1, 4 * M), "float32", 1, 2),
]

if __name__ == "__main__":
    words = sys.argv[1:]
    if "--high-priority" in words:  # session 32: eager calls on a stream of the highest priority
        import torch

        words.remove("--high-priority")
        with torch.cuda.stream(torch.cuda.Stream(priority=torch.cuda.Stream.priority_range()[1])):
            report(selected(SPECS, words))
    else:
        report(selected(SPECS, words))
