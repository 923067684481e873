#!/usr/bin/env bash
# Session 31, call 1: (a) the library on a green context's stream with fewer SMs than the device
# (tools/green_ctx_probe.py, each case in a child with a time limit: does Hold's plain launch wait
# forever there, and does Grid's cooperative launch get refused?), on main and on a build whose Hold
# launches carry the cooperative attribute (INFINI_LP_NORM_HOLD_COOPERATIVE=1); (b) that attribute's
# cost on Hold's shapes against PyTorch (long_rows_probe "(HoldC)", two rounds interleaved); (c)
# session 30's draft: the shapes its rules left on Split / Cluster against PyTorch ("(Edge)"
# "(Cluster)"). Files under $OUT: s31b_log.txt, green_main.txt, green_coop.txt, holdc.txt, probes.txt.
NAME=${NAME:-s31b}
END=${END:-570}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv >>"$LOG" 2>&1
build_variant_pair build_coop "-DINFINI_LP_NORM_HOLD_COOPERATIVE=1" native/src/ops/lp_norm/hold.cu
green_probe "$OUT/green_main.txt" build/lib 20 --primary-only
green_probe "$OUT/green_main.txt" build/lib 20 --green-only lp_hold_bf16_32x1M lp_grid_f32_32x1M sample_f32_128K
green_probe "$OUT/green_coop.txt" build_coop/lib 20 --primary-only lp_hold_bf16_32x1M lp_hold_f32_16x1M
PYTHONPATH="$PWD/tools:$PYTHONPATH" probe_rounds "$OUT/holdc.txt" "tools/long_rows_probe.py (HoldC)" build/lib build_coop/lib
step "long_rows_probe (Edge) (Cluster)"
PYTHONPATH="$PWD/tools:$PYTHONPATH" timeout -k 3 "$(cap 90)" $PY tools/long_rows_probe.py "(Edge)" "(Cluster)" \
    >"$OUT/probes.txt" 2>&1
echo "rc=$?" | tee -a "$LOG" "$OUT/probes.txt"
step "done"
