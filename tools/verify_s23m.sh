#!/usr/bin/env bash
# Session 23: tools/repro_odd_graph.py over sizes (one process each), then memcheck on the first
# that fails. Files: s23m_log.txt, s23m_repro.txt, s23m_memcheck.txt.
NAME=${NAME:-s23m}
END=${END:-280}
source "$(dirname "$0")/verify_common.sh"
library_build
first=""
for args in "257" "257 1" "129" "65" "193" "321" "1031" "2049" "255" "258"; do
    step "repro $args"
    timeout -k 3 "$(cap 40)" $PY tools/repro_odd_graph.py $args >>"$OUT/${NAME}_repro.txt" 2>&1
    rc=$?
    echo "$args rc=$rc" | tee -a "$LOG" "$OUT/${NAME}_repro.txt"
    [ $rc -ne 0 ] && [ -z "$first" ] && first=$args
done
if [ -n "$first" ]; then
    step "memcheck repro $first"
    timeout -k 3 "$(cap 120)" compute-sanitizer --tool memcheck --report-api-errors no $PY tools/repro_odd_graph.py $first \
        >"$OUT/${NAME}_memcheck.txt" 2>&1
    echo "memcheck rc=$?" | tee -a "$LOG"
fi
step "done"
