#!/usr/bin/env bash
# Session 28: the Cols kernels' SASS from the built object: each colsKernel's instruction count, and the
# whole SASS of the 2-byte cut-axis kernels (VEC 4, ITEMS 8: 4096x4096 axis 0) into $OUT/sass_cols.txt.
# From the repository root on the GPU machine after a build.
set -u
OUT=${OUT:-/tmp}
OBJ=build/obj/native/src/ops/lp_norm/cols.cu.o
CUOBJDUMP=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
"$CUOBJDUMP" -sass "$OBJ" >/tmp/cols_sass.txt 2>&1
echo "cuobjdump rc=$?" >"$OUT/sass_cols.txt"
awk '/Function :/ { if (name) print n, name; name = $3; n = 0; next } /^ +\/\*[0-9a-f]+\*\// { n++ }
     END { if (name) print n, name }' /tmp/cols_sass.txt | grep colsKernel | c++filt >>"$OUT/sass_cols.txt"
awk '/Function :/ { keep = ($3 ~ /colsKernelI(13__nv_bfloat16|6__half)Li4ELi8E/) } keep' /tmp/cols_sass.txt \
    | sed -E 's@ +/\* 0x[0-9a-f]+ \*/@@' >>"$OUT/sass_cols.txt"
