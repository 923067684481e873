#!/usr/bin/env bash
# Session 23: short Rearrange and Mul calls with every tile kernel and Mul's contiguous kernel
# triggering the next launch at exit (-DINFINI_REARRANGE_TRIGGER_AT_EXIT=1
# -DINFINI_ELEMENTWISE_TRIGGER_AT_EXIT=1) against the library (at entry), eager and as graph replays
# (tools/small_calls_probe.py), two rounds interleaved. Files: s23k_log.txt, s23k_probe.txt.
NAME=${NAME:-s23k}
END=${END:-400}
source "$(dirname "$0")/verify_common.sh"
late_trigger_variant build/late
probe_rounds "$OUT/${NAME}_probe.txt" "tools/small_calls_probe.py" build/lib build/late/lib
step "done"
