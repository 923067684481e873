#!/usr/bin/env bash
# Session 25: Grid's probe (no waits for factors) without the merger's polling, and without the
# records too, against the probe as it was (tools/verify_s24i.sh's variants nowait, nomerge, nopub).
# tools/move_probe.cu (call 3) moved the same bytes in Grid's order through a ring in 49-50 µs, where
# the probe takes 61. Files under $OUT: s25d_log.txt, grid_<variant>.txt. Call 4: the default
# VARIANTS; call 5: VARIANTS="nopub nosum noscale" (the compute warps' work taken away in turn);
# call 6: VARIANTS="nowait real" with the compute warps' sums in VEC chains; call 7: the same with
# Hold's packed sums for 2-byte elements.
NAME=s25d VARIANTS=${VARIANTS:-"nowait nomerge nopub"} END=${END:-560} exec bash "$(dirname "$0")/verify_s24i.sh"
