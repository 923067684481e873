#!/usr/bin/env bash
# Session 23: tools/tma_probe.cu over tensor-map shapes and box starts, one process each (a fault
# ends the context). Run from the repository root on the GPU machine after `source .gpu/setup.sh`.
# Arguments: INNER OUTER STRIDE_BYTES BOX0 BOX1 C0 C1 [SWIZZLE [STORE]] (2-byte elements).
set -u
mkdir -p build
nvcc -O2 -std=c++17 -arch=sm_90 tools/tma_probe.cu -o build/tma_probe -lcuda -L/usr/local/cuda/lib64/stubs 2>&1 | tail -3
while read -r line; do timeout 20 build/tma_probe $line; done <<'CFG'
4096 4096 8192 64 128 512 0
4096 4096 8192 64 16 512 0
4096 4096 8192 64 8 512 0
32776 512 65552 64 16 512 0
32776 512 65552 64 16 29191 0
32776 512 65552 64 16 512 0 0
32768 512 65536 64 16 512 0
32776 512 65552 64 128 512 0
32776 4096 65552 64 16 512 0
16384 1024 32768 64 16 512 0
16392 1024 32784 64 16 512 0
8200 2048 16400 64 16 512 0
4104 4096 8208 64 16 512 0
4104 4096 8208 64 128 512 0
32776 512 65552 64 16 29191 0 0
32776 512 65552 64 16 513 0 1
32776 512 65552 64 16 520 0 1
32776 512 65552 64 16 516 0 1
32776 512 65552 64 16 514 0 0
32776 512 65552 64 16 29191 0 0 1
32776 512 65552 64 8 29191 3 0 1
32776 512 65552 64 16 519 0 1 1
4096 4096 8192 64 128 513 0 0 1
CFG
