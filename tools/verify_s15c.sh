#!/usr/bin/env bash
# Session 15, issue 13 (LPNorm 32x1M BF16): the Sweep plan (sweep.cu: chunk statistics over the whole
# GPU, then merge and scale in a second kernel, x kept in L2 between them) against Pipe, TwoPass and
# main's plans, in one device call from the repository root after `source .gpu/setup.sh`: the harness
# (tools/lpn7_bench.cu, LPN7_ONLY=sweep): float64 checks of every plan and Sweep variant on every case
# Sweep takes (non-finite rows, extreme sums, every dtype, uneven chunks, garbage workspace, bitwise
# repeat, in place), then graph µs per call in interleaved rounds.
# Writes under $OUT: s15c_harness.txt, s15c_log.txt.
NAME=s15c
END=${END:-250}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
harness_build tools/lpn7_bench.cu build/s15c_bench 120
step "harness (LPN7_ONLY=sweep): checks, then graph timing"
LPN7_ONLY=sweep timeout -k 3 "$(cap 180)" build/s15c_bench "$OUT/s15c_harness.txt" >>"$LOG" 2>&1
echo "harness rc=$? (1: a check failed, see FAILED; 124: stopped at its cap)" | tee -a "$LOG"
step "done"
