#!/usr/bin/env bash
# Session 28's closing run: the library, the whole test suite on the GPU (tools/gpu_suite.sh, GPU tests
# required), the end-to-end bench of every operator with PyTorch in the same run, tools/dtype_survey.py
# and tools/cols_probe.py, and tools/cols_trace.py on 4096x4096 F16 and BF16 axis 0 in two processes
# (F16 first: does BF16's slower Apply follow the dtype or the allocation order?). Files under $OUT:
# s28e_log.txt, gpu_suite.txt, bench.txt / .json, probes.txt.
NAME=${NAME:-s28e}
END=${END:-500}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
closing_checks
for probe in dtype_survey cols_probe "cols_trace x4096-F16" "cols_trace BF16"; do
    step "tools/$probe"
    echo "== $probe" >>"$OUT/probes.txt"
    set -- $probe
    PYTHONPATH="$PWD/tools:$PYTHONPATH" timeout -k 3 "$(cap 45)" $PY "tools/$1.py" ${2:+"${2/-/ }"} \
        >>"$OUT/probes.txt" 2>&1
    echo "rc=$?" | tee -a "$LOG" "$OUT/probes.txt"
done
step "done"
