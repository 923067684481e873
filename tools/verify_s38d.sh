#!/usr/bin/env bash
# Session 38, call 4 (H200), closing. The default library: call 3's candidate (whole suite passed there)
# with the Slab plan kept off slabs over 8 KB whose columns pass 128 rows (planSlab: Cols won those in
# call 3). Rearrange and LPNorm GPU tests, memcheck on the slab cases, the random slab-shaped cases again,
# the end-to-end bench, then a fresh sweep (seed 38) with what time is left.
# Files under $OUT: s38d_log.txt, tests.txt, slab.txt, bench.txt, bench.json, sweep38.txt.
NAME=${NAME:-s38d}
END=${END:-480}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
library_build
step "Rearrange and LPNorm GPU tests"
timeout -k 3 "$(cap 90)" $PY -m pytest -q -p no:cacheprovider -rfEs tests/test_rearrange.py tests/test_lp_norm.py \
    -k "nvidia and (not lp_norm or layouts or columns or slab or reference_cases or nonfinite or zero or extreme)" \
    >>"$OUT/tests.txt" 2>&1
echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
SANITIZE_CAP=30 lpn_sanitize memcheck "$OUT/tests.txt" cols
$PY tools/shaped_cases.py slab 38 80 >/tmp/slab_cases.txt
step "slab-shaped cases"
timeout -k 3 "$(cap 40)" $PY tools/behind_sweep.py --repro /tmp/slab_cases.txt 150 --no-kernels >"$OUT/slab.txt" 2>&1
echo "rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/slab.txt" | tee -a "$LOG"
end_to_end_bench "$OUT/bench" 80 60
left=$((END - SECONDS - 20))
if [ "$left" -ge 30 ]; then
    step "random sweep, seed 38, $left s"
    timeout -k 3 "$((left + 15))" $PY tools/behind_sweep.py 38 "$left" >"$OUT/sweep38.txt" 2>&1
    echo "sweep rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/sweep38.txt" >>"$LOG"
fi
step "done"
