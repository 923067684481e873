#!/usr/bin/env bash
# Session 22: Rearrange's eager rows against its graph rows with and without programmatic dependent
# launch (INFINI_REARRANGE_PDL, host side: 0 never, 1 eager calls only, 2 always = the library).
# One device call: the default library and the two variants side by side; tools/eager_probe.py
# --batches on each, two rounds interleaved. Files under $OUT: s22g_log.txt, s22g_eager.txt.
NAME=${NAME:-s22g}
END=${END:-400}
source "$(dirname "$0")/verify_common.sh"
RS=native/src/ops/rearrange/rearrange_nvidia.cc
VARIANT_CXXFLAGS=-DINFINI_REARRANGE_PDL=0 build_variant_pair build/pdl0 "" $RS
VARIANT_CXXFLAGS=-DINFINI_REARRANGE_PDL=1 build_variant_pair build/pdl1 "" $RS
eager_probe_rounds "$OUT/${NAME}_eager.txt" build/lib build/pdl0/lib build/pdl1/lib
step "done"
