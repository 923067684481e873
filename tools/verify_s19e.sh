#!/usr/bin/env bash
# Session 19, main's final tree: one device call. The library and tools/copy_probe.cu (built side by
# side); the whole suite with GPU tests required (tools/gpu_suite.sh; it now holds
# test_one_workspace_for_two_held_shapes_gpu); memcheck on every LPNorm plan; the copy probe; the
# ABI audit's NVIDIA leak group (never run on a GPU since session 18 merged its CPU / NVIDIA twins);
# bench_lp_norm and bench_rearrange when time is left. Writes under $OUT: s19e_log.txt,
# gpu_suite.txt, s19e_sanitize.txt, s19e_copy.txt, s19e_audit.txt, s19e_bench_*.txt.
NAME=s19e
END=${END:-585}
source "$(dirname "$0")/verify_common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
harness_build_bg tools/copy_probe.cu build/copy_probe
library_build
wait
whole_suite 300
lpn_sanitize memcheck "$OUT/s19e_sanitize.txt"
step "copy probe"
timeout -k 3 "$(cap 40)" build/copy_probe "$OUT/s19e_copy.txt" >>"$LOG" 2>&1
echo "copy probe rc=$?" | tee -a "$LOG"
step "ABI audit, NVIDIA, group leaks"
AUDIT_DEVICE=nvidia timeout -k 3 "$(cap 60)" $PY tools/abi_audit.py --group leaks >"$OUT/s19e_audit.txt" 2>&1
echo "audit rc=$?" | tee -a "$LOG"
tail -n 3 "$OUT/s19e_audit.txt" >>"$LOG"
bench_if_time infiniop_py.bench.bench_lp_norm "$OUT/s19e_bench_lp_norm.txt" 90
bench_if_time infiniop_py.bench.bench_rearrange "$OUT/s19e_bench_rearrange.txt" 90
step "done"
