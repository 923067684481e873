#!/usr/bin/env bash
# The final tree, from the repository root after `source .gpu/setup.sh`, in two device calls:
#   bash tools/verify_final.sh suite      (timeout_s 600) the library, the whole suite with GPU tests
#                                         required (tools/gpu_suite.sh), then the end-to-end benchmark
#                                         with PyTorch in the same run;
#   bash tools/verify_final.sh sanitize   (timeout_s 450) the library, then compute-sanitizer memcheck
#                                         and racecheck on tools/sanitize_lpn.py and tools/sanitize_rs.py.
# Writes under $OUT: final_log.txt, and gpu_suite.txt, bench.txt, bench.json (suite) or
# sanitize.txt (sanitize).
# Options: BENCHES="rearrange lp_norm ..." runs those per-operator benchmarks
# (python -m infiniop_py.bench.bench_NAME, their CUDA-graph rows included; bench_NAME.txt)
# instead of the end-to-end one; SCRIPTS="sanitize_lpn" picks the sanitizer scripts, and
# REARRANGE_MEMCHECK=1 adds memcheck on the wide word tile tests of test_rearrange.py (another
# selection: REARRANGE_MEMCHECK_K="pytest -k expression").
MODE=${1:?suite or sanitize}
NAME=final
if [ "$MODE" = suite ]; then END=${END:-570}; else END=${END:-430}; fi
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
git log --oneline -1 >>"$LOG" 2>&1
library_build
if [ "$MODE" = suite ]; then
    step "whole suite (GPU tests required)"
    OUT="$OUT" bash tools/gpu_suite.sh "$(cap 260)" >>"$LOG" 2>&1
    echo "gpu_suite rc=$?" | tee -a "$LOG"
    if [ -n "${BENCHES:-}" ]; then
        for b in $BENCHES; do
            step "benchmark bench_$b"
            timeout -k 3 "$(cap 150)" $PY -m "infiniop_py.bench.bench_$b" >"$OUT/bench_$b.txt" 2>&1
            echo "bench_$b rc=$? (124: stopped at its cap)" | tee -a "$LOG" "$OUT/bench_$b.txt"
        done
    else
        end_to_end_bench "$OUT/bench" 240 0
    fi
else
    if [ "${REARRANGE_MEMCHECK:-0}" = 1 ]; then
        sel=${REARRANGE_MEMCHECK_K:-wide_word and nvidia}
        step "compute-sanitizer memcheck, test_rearrange.py -k '$sel'"
        echo "== memcheck test_rearrange.py -k '$sel'" >>"$OUT/sanitize.txt"
        timeout -k 3 "$(cap 120)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
            $PY -m pytest tests/test_rearrange.py -q -p no:cacheprovider -k "$sel" >>"$OUT/sanitize.txt" 2>&1
        echo "memcheck rearrange rc=$? (99: errors reported; 124: stopped at its cap)" | tee -a "$LOG" "$OUT/sanitize.txt"
    fi
    for script in ${SCRIPTS:-sanitize_lpn sanitize_rs}; do
        for tool in memcheck racecheck; do
            step "compute-sanitizer $tool, tools/$script.py"
            echo "== $tool $script" >>"$OUT/sanitize.txt"
            timeout -k 3 "$(cap 100)" compute-sanitizer --tool "$tool" --report-api-errors no --error-exitcode 99 \
                $PY "tools/$script.py" >>"$OUT/sanitize.txt" 2>&1
            echo "$tool $script rc=$? (99: errors reported; 124: stopped at its cap)" | tee -a "$LOG" "$OUT/sanitize.txt"
        done
    done
fi
step "done"
