#!/usr/bin/env bash
# Stage trace of the sampling kernel on the GPU machine (issue 12), after `source .gpu/setup.sh`
# and a build of the default library in build/ (its objects are reused): builds build/trace (the
# RandomSample objects with -DINFINI_RS_TRACE), runs tools/rs_trace.py on it, prints the summary.
# Writes $OUT/rs_trace.txt. ~70 s on the H100 machine (the build), a few seconds the run.
set -u
OUT=${OUT:-/tmp}
export PYTHONPATH="$PWD:${PYTHONPATH:-}"
RS=native/src/ops/random_sample
TR=build/trace
rm -rf "$TR" && mkdir -p "$TR/obj" && cp -a build/obj/. "$TR/obj/" && rm -f "$TR/obj/$RS/"*.o
make -j16 CUDA_ARCHS=90 BUILD="$TR" EXTRA_NVCCFLAGS=-DINFINI_RS_TRACE "$TR/lib/libinfiniop.so" "$TR/lib/libinfinirt.so" \
    >"$OUT/rs_trace_build.txt" 2>&1 || { tail -20 "$OUT/rs_trace_build.txt"; exit 1; }
INFINIOP_LIBRARY="$PWD/$TR/lib/libinfiniop.so" timeout 120 python3 tools/rs_trace.py >"$OUT/rs_trace.txt" 2>&1
echo "trace rc $?"
python3 tools/rs_trace.py --summary "$OUT/rs_trace.txt"
