#!/usr/bin/env bash
# Session 48, the last call (H200): the session's tree timed, and the short calls behind PyTorch probed.
# - the whole suite's lp_norm shard alone (it ran past its cap in call 3);
# - LPNorm row tests on the default (call 3's rows rule, merged for F64), memcheck on the 6-pack rows;
# - tools/eager_graph_lines.py on the seed-47 sweep's worst Mul, Rearrange and LPNorm lines
#   (notes/sweeps/session48_probe_lines.txt; call 2 lost it to a PYTHONPATH without the staged wheels):
#   eager and graph µs, ours and PyTorch's, and our kernels;
# - the end-to-end bench; the seed-48 sweep for what is left.
# Files under $OUT: s48d_log.txt, lp_shard.txt, tests.txt, lines.txt, bench.txt / bench.json, sweep48.txt.
NAME=${NAME:-s48d}
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
# (call 3's whole suite: every shard rc 0 but lp_norm, stopped at its 230 s cap at ~95% with no failure
# printed; session 47's ran in 139 s. Here alone, with its slowest tests listed.)
step "the whole suite's lp_norm shard alone"
INFINIOP_REQUIRE_GPU=1 timeout -k 3 "$(cap 220)" $PY -m pytest -q -p no:cacheprovider -rfEs --durations=20 \
    tests/test_lp_norm.py -k "not reference_cases_large and not _gpu" tests/test_lp_norm_errors.py \
    tests/test_overhead.py tests/test_cpu_dispatch.py tests/test_readme.py >>"$OUT/lp_shard.txt" 2>&1
echo "lp_norm shard rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/lp_shard.txt" >>"$LOG"
variant_tests build 50 30 tests/test_lp_norm.py "nvidia and (rows_of_mid_length or ragged or long_rows)" \
    "nvidia and rows_of_mid_length"
graph_lines notes/sweeps/session48_probe_lines.txt 100
end_to_end_bench "$OUT/bench" 90 60
sweep_if_time 48
step "done"
