#!/usr/bin/env bash
# Session 24, first call on main: where the warps of the two cases below their goals wait (ncu's
# warp-state sampling: LPNorm 32x1M BF16's Hold kernel, transpose 4097² F16's odd word tiles, 4096²
# for comparison), Hold's per-instruction samples (is instruction fetch, "no instruction", a
# cost?), then the end-to-end bench of LPNorm and Rearrange with PyTorch in the same run.
# Files under $OUT: s24a_log.txt, ncu_stalls.txt, hold_source.txt, hold_source.csv.gz,
# s24a_lp.txt, s24a_rearr.txt.
NAME=${NAME:-s24a}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
git log --oneline -1 >>"$LOG" 2>&1
library_build
step "ncu warp states (tools/ncu_stalls.sh)"
OUT="$OUT" timeout -k 3 "$(cap 150)" bash tools/ncu_stalls.sh lpnorm_32x1M_bf16 transpose_4097_f16 transpose_4096_f16 >>"$LOG" 2>&1
echo "ncu_stalls rc=$?" | tee -a "$LOG"
step "ncu source-level samples of Hold"
timeout -k 3 "$(cap 90)" ncu --clock-control none -k regex:holdKernel --launch-skip 3 --launch-count 1 \
    --section WarpStateStats --section SourceCounters -f -o build/hold_src python3 tools/ncu_cases.py lpnorm_32x1M_bf16 >>"$LOG" 2>&1
echo "ncu source rc=$?" | tee -a "$LOG"
ncu -i build/hold_src.ncu-rep --page source --csv --print-source sass >build/hold_source.csv 2>>"$LOG"
gzip -c build/hold_source.csv >"$OUT/hold_source.csv.gz"
$PY tools/ncu_source_top.py build/hold_source.csv 60 >"$OUT/hold_source.txt" 2>&1
echo "source summary rc=$?" | tee -a "$LOG"
end_to_end_bench "$OUT/${NAME}_lp" 120 60 --op lp_norm
end_to_end_bench "$OUT/${NAME}_rearr" 120 60 --op rearrange
rm -f "$OUT"/*.json
step "done"
