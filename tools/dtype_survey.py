"""LPNorm shapes of every float dtype beyond the bench's list, against PyTorch in the same process
(bench_lp_norm's cases, checked, then eager and graph µs): issue 13 asks never to be behind PyTorch,
and the bench times no F64 and few F32 shapes. Session 27: F32 / F64 long rows beyond what Hold holds,
square matrices, many short rows, and the bench's 4-D shape in F64. The library: INFINIOP_LIBRARY,
or the default build. Arguments: keep the cases whose name contains any of them."""
import sys

from split_eager import report, selected  # (tools/, this script's directory)

M = 1 << 20
SPECS = [
    ("16x1M F64 p 2 (beyond Hold's room)", (16, M), "float64", 1, 2),
    ("32x1M F64 p 2", (32, M), "float64", 1, 2),
    ("32x1M F32 p 2", (32, M), "float32", 1, 2),
    ("16x256K F64 p 2", (16, M // 4), "float64", 1, 2),
    ("4096x4096 F64 axis 1 p 2", (4096, 4096), "float64", 1, 2),
    ("4096x4096 F32 axis 1 p 2", (4096, 4096), "float32", 1, 2),
    ("4096x4096 BF16 axis 0 p 2", (4096, 4096), "bfloat16", 0, 2),
    ("1Mx64 F64 axis 1 p 2", (M, 64), "float64", 1, 2),
    ("(12,16,512,512) F64 axis 3 p 2", (12, 16, 512, 512), "float64", 3, 2),
    ("(12,16,512,512) F64 axis 1 p 2", (12, 16, 512, 512), "float64", 1, 2),
    ("(12,16,512,512) F64 axis 0 p 1", (12, 16, 512, 512), "float64", 0, 1),
    ("(12,16,512,512) BF16 axis 3 p 2", (12, 16, 512, 512), "bfloat16", 3, 2),
    # Session 34: Cols columns of 9-16 rows (a thread holds 16 rows: 172-176 registers a thread)
    ("[cols16] (12,16,512,512) F32 axis 1 p 2", (12, 16, 512, 512), "float32", 1, 2),
    ("[cols16] (12,16,512,512) F32 axis 0 p 1", (12, 16, 512, 512), "float32", 0, 1),
    ("[cols16] (12,16,512,512) BF16 axis 1 p 2", (12, 16, 512, 512), "bfloat16", 1, 2),
    ("[cols16] (12,16,512,512) F16 axis 0 p 1", (12, 16, 512, 512), "float16", 0, 1),
    ("[cols16] (256,10,8192) F32 axis 1 p 2", (256, 10, 8192), "float32", 1, 2),
    ("[cols16] (64,16,1,4096) BF16 axis 1 p 3", (64, 16, 1, 4096), "bfloat16", 1, 3),
    # Still 9-16 rows a thread after session 34's cap of 8: columns of 65-128 rows, the thread rows
    # a column capped at 8 (warps at least 32 packs wide); not yet measured
    ("[cols16] (8,128,4096) F32 axis 1 p 2", (8, 128, 4096), "float32", 1, 2),
    ("[cols16] (4,96,8192) BF16 axis 1 p 2", (4, 96, 8192), "bfloat16", 1, 2),
    ("[cols16] (16,80,2048) F16 axis 1 p 1", (16, 80, 2048), "float16", 1, 1),
    ("[cols16] (32,128,1024) F64 axis 1 p 2", (32, 128, 1024), "float64", 1, 2),
    # Session 35: 2-byte Cols cases (8-byte packs today), and the narrowing's p and dtype dependence
    ("[pack] (12,16,512,512) F16 axis 1 p 1", (12, 16, 512, 512), "float16", 1, 1),
    ("[pack] 4096x4096 BF16 axis 0 p 2", (4096, 4096), "bfloat16", 0, 2),
    ("[pack] (1024,8,4096) BF16 axis 1 p 2", (1024, 8, 4096), "bfloat16", 1, 2),
    ("[pack] (64,64,4096) F16 axis 1 p 2", (64, 64, 4096), "float16", 1, 2),
    ("[pack] (16,80,2048) F16 axis 1 p 2", (16, 80, 2048), "float16", 1, 2),
    ("[pack] (16,80,2048) BF16 axis 1 p 1", (16, 80, 2048), "bfloat16", 1, 1),
    ("[pack] (64,80,2048) F16 axis 1 p 1", (64, 80, 2048), "float16", 1, 1),
    ("[pack] (16,80,2048) F32 axis 1 p 1", (16, 80, 2048), "float32", 1, 1),
    # Session 35: columns of 129-512 rows, streamed (read twice) unless blocks narrow below 32 packs
    ("[cols32] (128,192,1024) F32 axis 1 p 2", (128, 192, 1024), "float32", 1, 2),
    ("[cols32] (256,256,1024) BF16 axis 1 p 2", (256, 256, 1024), "bfloat16", 1, 2),
    ("[cols32] (160,130,512) F32 axis 1 p 2", (160, 130, 512), "float32", 1, 2),
    ("[cols64] (80,384,1024) F32 axis 1 p 2", (80, 384, 1024), "float32", 1, 2),
    ("[cols64] (160,300,1024) BF16 axis 1 p 2", (160, 300, 1024), "bfloat16", 1, 2),
]

report(selected(SPECS, sys.argv[1:]))
