#!/usr/bin/env bash
# Session 27, call 8: the cut axis holding at most 8 rows a thread where it holds them (planCols; call 7
# measured it as -DINFINI_LP_NORM_COLS_SPLIT_ROWS=8), through verify_s27e.sh's steps: the library,
# tools/cols_probe.py, memcheck on tools/sanitize_lpn.py's Cols cases, the LPNorm tests of the cut axis and
# of every layout and axis on the GPU. Files under $OUT: s27g_log.txt, probe.txt, memcheck.txt, cols_tests.txt.
NAME=${NAME:-s27g} END=${END:-300} exec bash "$(dirname "$0")/verify_s27e.sh"
