#!/usr/bin/env bash
# Session 28: the cut axis's Factor kernel rebuilt (a thread an element column, batched record loads),
# against the previous main's library (build/base_lib, carried): tools/cols_trace.py (each kernel's
# share of a call) on the library and on one with 16-byte 2-byte packs (-DINFINI_LP_NORM_COLS_VEC_2B=8,
# a measuring knob); tools/cols_probe.py on the library and build/base_lib, two rounds; the LPNorm tests
# of other axes on the GPU; memcheck on tools/sanitize_lpn.py's Cols cases. Files under $OUT:
# s28d_log.txt, trace.txt, probe.txt, cols_tests.txt, memcheck.txt. (The knob was removed after this call:
# main no longer has it.)
NAME=${NAME:-s28d}
END=${END:-520}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
L=native/src/ops/lp_norm
VARIANT_CXXFLAGS=-DINFINI_LP_NORM_COLS_VEC_2B=8 build_variant_pair build/v8 "-DINFINI_LP_NORM_COLS_VEC_2B=8" \
    $L/cols.cu $L/nvidia.cc
for lib in build/lib build/v8/lib; do
    step "tools/cols_trace.py on $lib"
    echo "== $lib" >>"$OUT/trace.txt"
    INFINIOP_LIBRARY=$PWD/$lib/libinfiniop.so PYTHONPATH="$PWD/tools:$PYTHONPATH" timeout -k 3 "$(cap 60)" \
        $PY tools/cols_trace.py >>"$OUT/trace.txt" 2>&1
    echo "rc=$?" | tee -a "$LOG" "$OUT/trace.txt"
done
probe_rounds "$OUT/probe.txt" tools/cols_probe.py build/lib build/base_lib
cols_gpu_tests "$OUT/cols_tests.txt" 200
lpn_sanitize memcheck "$OUT/memcheck.txt" cols
step "done"
