#!/usr/bin/env bash
# Issue 13, Mul's contiguous path with programmatic dependent launch for eager
# back-to-back calls (branch dev/pdlmul): one device call on the H100, cold
# machine. From the repository root, after `source .gpu/setup.sh`:
#     bash tools/verify_pdlmul.sh
# Writes under $OUT (4 files): pdlmul_harness.txt (PDL off / library / always
# in one build: dependent chains bitwise, float64 checks, graph and eager µs
# per call, host µs per launch, the copy roofline), pdlmul_tests.txt (GPU
# tests with INFINIOP_REQUIRE_GPU=1: Mul's dependent/graph/torch/stream ones
# and LPNorm's dependent test, then the whole Mul file if time is left),
# pdlmul_bench.txt (bench_mul, if time is left), pdlmul_log.txt (build and
# step log). The harness runs first and alone (its eager timings need an idle
# host); each step has a cap and the whole script stops before 200 s.
NAME=pdlmul
END=192
source "$(dirname "$0")/verify_common.sh"

harness_build tools/pdlmul_bench.cu build/pdlmul_bench 40

harness_run build/pdlmul_bench "$OUT/pdlmul_harness.txt" 50 "PDL off / library (eager only) / always, chains and timings"

library_build

step "GPU tests: Mul's dependent chains, graphs, torch, streams; LPNorm's dependent chains (shared helper)"
timeout -k 3 "$(cap 45)" $PY -m pytest tests/test_mul.py tests/test_lp_norm.py -q -p no:cacheprovider \
    -k "test_mul.py and (dependent or graph or torch or stream) or test_lp_norm.py and dependent" \
    >"$OUT/pdlmul_tests.txt" 2>&1
echo "tests rc=$? (124: stopped at its cap, see the count above)" | tee -a "$LOG" "$OUT/pdlmul_tests.txt"

bench_if_time infiniop_py.bench.bench_mul "$OUT/pdlmul_bench.txt" 50

if [ $((END - SECONDS)) -ge 15 ]; then
    step "the other Mul GPU tests (whatever is left of the time)"
    echo "== the whole tests/test_mul.py" >>"$OUT/pdlmul_tests.txt"
    timeout -k 3 "$(cap 60)" $PY -m pytest tests/test_mul.py -q -p no:cacheprovider -x \
        >>"$OUT/pdlmul_tests.txt" 2>&1
    echo "all Mul tests rc=$? (124: stopped at its cap)" | tee -a "$LOG" "$OUT/pdlmul_tests.txt"
fi
step "done"
