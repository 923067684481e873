#!/usr/bin/env bash
# Session 33, call 2 (H200): the odd tensor-copy tiles in their window of 1-24 MiB (the both-sides and
# ring forms dropped: call 1 found them slower here, the first not exact), rearr4_bench --oddtma on the
# window's ends (769², 1025², 4097x2561, 4097x3073 added), the Rearrange GPU tests; what the H200 asks of
# the other goal cases: rearr4_bench --tma (tensor-copy against word tiles on the aligned transposes)
# and --pdl (4096²'s tile shapes beside copy kernels of the same bytes: the ceiling at this size);
# LPNorm's Hold with 8 tiles ahead a worker instead of 4 (bytes in flight: the H200 wants ~1.4x the
# H100's) on long_rows_probe's HoldC shapes, two rounds; the RandomSample bench again (call 1 read argmax
# 64x151936 F16 27.8 µs against PyTorch's 26.1, F32 12.6).
# Files under $OUT: s33b_log.txt, oddtma.txt, rearrange_tests.txt, tma.txt, pdl.txt, hold_ahead.txt,
# bench_rs.txt/.json.
NAME=${NAME:-s33b}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_pair build_ahead "-DINFINI_LP_NORM_HOLD_AHEAD=8" native/src/ops/lp_norm/hold.cu
rearr4_build
for mode in oddtma tma pdl; do
    step "rearr4_bench --$mode"
    LD_LIBRARY_PATH=build/lib timeout -k 3 "$(cap 70)" build/rearr4_bench --$mode >"$OUT/$mode.txt" 2>&1
    echo "rc=$?" | tee -a "$LOG" "$OUT/$mode.txt"
    if [ $mode = oddtma ]; then
        step "test_rearrange.py GPU tests"
        timeout -k 3 "$(cap 60)" $PY -m pytest -q -x -p no:cacheprovider tests/test_rearrange.py -k "nvidia or gpu" \
            >"$OUT/rearrange_tests.txt" 2>&1
        echo "tests rc=$?" | tee -a "$LOG"
        tail -n 3 "$OUT/rearrange_tests.txt" >>"$LOG"
    fi
done
probe_rounds "$OUT/hold_ahead.txt" "tools/long_rows_probe.py HoldC" build/lib build_ahead/lib
end_to_end_bench "$OUT/bench_rs" 60 30 --op random_sample
step "done"
