#!/usr/bin/env bash
# Written in session 42 (its device time spent) for session 43's first call (H200).
# - build_rml64 / build_rml1k: INFINI_LP_NORM_RAGGED_MIN_LEN=64 / 1024 (lp_norm/nvidia.cc, host; default 0):
#   ragged rows shorter than that keep the scalar plan. The seed-42 sweep's one LPNorm row case behind,
#   (137,255,58,21) BF16 axis 3, runs 2M rows of 21 elements on the ragged Rows plan at 0.44 TB/s.
# - build_tail2: INFINI_LP_NORM_STREAM_ASYNC_TAIL=2 (stream.cu), only for ncu: session 42 found an
#   asynchronous last pack 1.4-2.3x slower on 16-bit ragged block groups (both its forms), F64 0.96x.
# Runs: LPNorm's ragged / short row GPU tests on build_rml1k and memcheck on a part; 100 random short
# ragged row cases (tools/shaped_cases.py lpshort 43 100) and the seed-42 sweep's LPNorm row cases on the
# three libraries; ncu on (1460, 18847) F16 p 1 (block groups, ragged) on the default and build_tail2.
# Files under $OUT: s43a_log.txt, tests.txt, ab.txt, ncu_behind.txt.
NAME=${NAME:-s43a}
END=${END:-420}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
for n in 64 1024; do
    F="-DINFINI_LP_NORM_RAGGED_MIN_LEN=$n"
    VARIANT_CXXFLAGS="$F" build_variant_pair build_rml$n "$F" native/src/ops/lp_norm/nvidia.cc
done
build_variant_pair build_tail2 "-DINFINI_LP_NORM_STREAM_ASYNC_TAIL=2" native/src/ops/lp_norm/stream.cu
variant_tests build_rml1024 90 40 tests/test_lp_norm.py "ragged_rows or (nvidia and (last or rows))" \
    "ragged_rows_gpu and (19 or 333 or 1035)"
$PY tools/shaped_cases.py lpshort 43 100 >/tmp/short.txt
grep "^lp_norm" notes/sweeps/session42_behind.txt >/tmp/rows42.txt
ab_repro 40 short=default=build short=rml64=build_rml64 short=rml1k=build_rml1024 \
    rows42=default=build rows42=rml64=build_rml64 rows42=rml1k=build_rml1024
for lib in build build_tail2; do
    if [ $((END - SECONDS)) -ge 40 ]; then
        step "ncu: (1460, 18847) F16 p 1 on $lib"
        echo "##### library $lib" >>"$OUT/ncu_behind.txt"
        INFINIOP_LIBRARY=$PWD/$lib/lib/libinfiniop.so LINES="lp_norm (1460, 18847) axis 1 p 1 float16" OUT="$OUT" \
            timeout -k 3 "$(cap 60)" bash tools/ncu_behind.sh
        echo "ncu rc=$?" | tee -a "$LOG"
    fi
done
step "done"
