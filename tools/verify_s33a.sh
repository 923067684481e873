#!/usr/bin/env bash
# Session 33, first call, and the first on an H200 (the device kind changed from H100): the end-to-end
# bench of every case (where each goal stands on this chip), then dev/odd-tma's odd tensor-copy tiles:
# the default library (one-tile form in 4-16 MiB) and build_full (both sides through the copy engine,
# window widened to 64 MiB so 4097² takes it), the Rearrange bench on build_full, rearr4_bench --oddtma
# (one round: every form on the odd cases), test_rearrange.py's GPU tests on both builds.
# Files under $OUT: s33a_log.txt, bench.txt/.json, bench_full.txt/.json, oddtma.txt, rearrange_tests.txt,
# rearrange_tests_full.txt.
NAME=${NAME:-s33a}
END=${END:-570}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
VARIANT_CXXFLAGS="-DINFINI_REARRANGE_ODD_TMA=2 -DINFINI_REARRANGE_ODD_TMA_MAX_MB=64" build_variant_pair build_full "-DINFINI_REARRANGE_ODD_TMA=2 -DINFINI_REARRANGE_ODD_TMA_MAX_MB=64" \
    native/src/ops/rearrange/kernels_u2.cu native/src/ops/rearrange/rearrange_nvidia.cc
end_to_end_bench "$OUT/bench" 100 60
INFINIOP_LIBRARY=$PWD/build_full/lib/libinfiniop.so end_to_end_bench "$OUT/bench_full" 40 30 --op rearrange
rearr4_build
step "rearr4_bench --oddtma, one round"
LD_LIBRARY_PATH=build/lib timeout -k 3 "$(cap 100)" build/rearr4_bench --oddtma >"$OUT/oddtma.txt" 2>&1
echo "rc=$?" | tee -a "$LOG" "$OUT/oddtma.txt"
for v in build build_full; do
    step "test_rearrange.py GPU tests on $v"
    INFINIOP_LIBRARY=$PWD/$v/lib/libinfiniop.so timeout -k 3 "$(cap 90)" $PY -m pytest -q -x -p no:cacheprovider \
        tests/test_rearrange.py -k "nvidia or gpu" >"$OUT/rearrange_tests_${v#build}.txt" 2>&1
    echo "tests rc=$?" | tee -a "$LOG"
    tail -n 3 "$OUT/rearrange_tests_${v#build}.txt" >>"$LOG"
done
step "done"
