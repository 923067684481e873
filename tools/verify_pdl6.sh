#!/usr/bin/env bash
# Issue 13, LPNorm Stream plan with programmatic dependent launch, second
# attempt (branch dev/pdl6): one device call on the H100, cold machine. From the
# repository root, after `source .gpu/setup.sh`:
#     bash tools/verify_pdl6.sh
# Writes under $OUT (4 files): pdl6_harness.txt (every PDL variant against off
# in one build: dependent chains bitwise, float64 checks, graph/eager µs per
# call, the capture query's host cost, the suggested kStreamPdl line),
# pdl6_tests.txt (GPU tests, INFINIOP_REQUIRE_GPU=1), pdl6_bench.txt (the
# LPNorm benchmark, if time is left), pdl6_log.txt (build and step log). The
# harness runs first and alone (its eager timings need an idle host); each step
# has a cap and the whole script stops before 200 s.
NAME=pdl6
END=190
source "$(dirname "$0")/verify_common.sh"

harness_build tools/pdl6_bench.cu build/pdl6_bench 50

harness_run build/pdl6_bench "$OUT/pdl6_harness.txt" 60 "off / entry / lastload / lastrow (each with and without 2 blocks/SM) / library"

library_build

step "GPU tests: dependent chains, the Stream plan, graph capture"
timeout -k 3 "$(cap 45)" $PY -m pytest tests/test_lp_norm.py -q -p no:cacheprovider \
    -k "dependent or streamed or graph" >"$OUT/pdl6_tests.txt" 2>&1
echo "tests rc=$? (124: stopped at its cap, see the count above)" | tee -a "$LOG" "$OUT/pdl6_tests.txt"

bench_if_time infiniop_py.bench.bench_lp_norm "$OUT/pdl6_bench.txt" 60
step "done"
