#!/usr/bin/env bash
# A/B of a RandomSample build variant against the default build, in one device call on a cold
# H100 (issue 12), from the repository root after `source .gpu/setup.sh`:
#     bash tools/rs_ab.sh NAME "VARIANT_NVCCFLAGS" [END seconds, default 190]
# e.g. `bash tools/rs_ab.sh nopdl -DINFINI_RS_PDL=0` (eager PDL off). build_rs_pair
# (verify_common.sh) builds both; then tools/rs5_ab.py default / NAME, A B A B (graph and ABI eager
# µs per case, every row checked against the float64 rule; with the argmax rows), and the
# RandomSample GPU tests on the default library between the rounds; before them the picks of
# tools/rs7_picks.py on both libraries, compared line by line. Writes under $OUT (4 files):
# NAME_ab.txt (read first: the summary at its end), NAME_picks.txt, NAME_tests.txt, NAME_log.txt.
NAME=$1
VFLAGS=$2
END=${3:-190}
source "$(dirname "$0")/verify_common.sh"
VB=build/$NAME
build_rs_pair "$VB" "$VFLAGS"
rs_ab_rounds "$NAME" "$VB"
step "done"
