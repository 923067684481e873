#!/usr/bin/env bash
# Session 37, call 4 (H200, ~360 s of device time left). The default library: box transposes on 1-byte
# units only (INFINI_REARRANGE_BOX_MAX_UNIT 1; call 3's sweep had 2-byte cases of a box's shape up to
# 2.6x behind PyTorch), and the two knobs call 3 measured flipped on (Mul's small transposed planes on
# the gather form, LPNorm Rows / Cluster with their own p = 3 case: the same code as call 3's variant,
# whose GPU tests passed). Two variants: box on every unit (build_all, call 3's default) and off
# (build_nobox). Runs: Rearrange tests on the default, quick Mul / LPNorm GPU tests on it, and the cases
# of notes/sweeps/session37_box_cases.txt on all three libraries.
# Files under $OUT: s37d_log.txt, tests.txt, box_{default,all,nobox}.txt.
NAME=${NAME:-s37d}
END=${END:-290}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
r=native/src/ops/rearrange/rearrange_nvidia.cc
VARIANT_CXXFLAGS="-DINFINI_REARRANGE_BOX_MAX_UNIT=16" build_variant_pair build_all "" $r
VARIANT_CXXFLAGS="-DINFINI_REARRANGE_BOX=0" build_variant_pair build_nobox "" $r
for pair in default=build/lib all=build_all/lib nobox=build_nobox/lib; do
    step "box-shaped cases, ${pair%%=*}"
    INFINIOP_LIBRARY=$PWD/${pair#*=}/libinfiniop.so timeout -k 3 "$(cap 25)" $PY tools/behind_sweep.py --repro \
        notes/sweeps/session37_box_cases.txt 100 --no-kernels >"$OUT/box_${pair%%=*}.txt" 2>&1
    echo "rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/box_${pair%%=*}.txt" | tee -a "$LOG"
done
step "Rearrange tests, default library"
timeout -k 3 "$(cap 60)" $PY -m pytest -q -p no:cacheprovider -rfEs tests/test_rearrange.py >>"$OUT/tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
step "Mul and LPNorm GPU tests (transposed, every layout and axis, columns), default library"
timeout -k 3 "$(cap 50)" $PY -m pytest -q -p no:cacheprovider -rfEs tests/test_mul.py tests/test_lp_norm.py \
    -k "nvidia and (transposed or gathered or layouts or reference_cases or columns)" >>"$OUT/tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
step "done"
