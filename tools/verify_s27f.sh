#!/usr/bin/env bash
# Session 27's closing run: the library, the whole test suite on the GPU (tools/gpu_suite.sh, GPU tests
# required), the end-to-end bench of every operator with PyTorch in the same run, then
# tools/dtype_survey.py, tools/cols_probe.py and tools/hold_wider_probe.py on the library, and
# tools/cols_probe.py on one built with -DINFINI_LP_NORM_COLS_SPLIT_ROWS=8 (a measuring knob).
# Files under $OUT: s27f_log.txt, gpu_suite.txt, bench.txt / .json, probes.txt.
NAME=${NAME:-s27f}
END=${END:-480}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
VARIANT_CXXFLAGS=-DINFINI_LP_NORM_COLS_SPLIT_ROWS=8 build_variant_pair build/rows8 "" native/src/ops/lp_norm/nvidia.cc
whole_suite 300
end_to_end_bench "$OUT/bench" 90 60
for probe in dtype_survey cols_probe hold_wider_probe; do
    step "tools/$probe.py"
    echo "== $probe" >>"$OUT/probes.txt"
    timeout -k 3 "$(cap 45)" $PY "tools/$probe.py" >>"$OUT/probes.txt" 2>&1
    echo "rc=$?" | tee -a "$LOG" "$OUT/probes.txt"
done
step "tools/cols_probe.py on build/rows8 (-DINFINI_LP_NORM_COLS_SPLIT_ROWS=8: at most 8 rows a thread)"
echo "== cols_probe, build/rows8" >>"$OUT/probes.txt"
INFINIOP_LIBRARY=$PWD/build/rows8/lib/libinfiniop.so timeout -k 3 "$(cap 45)" $PY tools/cols_probe.py >>"$OUT/probes.txt" 2>&1
echo "rc=$?" | tee -a "$LOG" "$OUT/probes.txt"
step "done"
