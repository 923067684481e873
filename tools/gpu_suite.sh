#!/bin/bash
# The whole test suite on the GPU machine in parallel shards (GPU tests required),
# from the repository root after `source .gpu/setup.sh` and a build:
#   bash tools/gpu_suite.sh [seconds per shard, default 330]
# Writes $OUT/gpu_suite.txt (every shard's output), prints each shard's summary,
# and exits non-zero when a shard failed or ran out of time.
# The shards balance the wall time seen on the H100 (session 4: ~5 min in all;
# LPNorm's large reference cases are CPU-bound float64 work, hence three shards), then
# test_reliability.py alone.
TL=${1:-330}
OUT=${OUT:-/tmp}
LOGS=$(mktemp -d)
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}

shard() {
    local name=$1
    shift
    # (session 48: the lp_norm shard printed all 999 results, then nothing, until its cap, twice. Now a
    # test past 150 s dumps every thread's stack, a run alive 60 s after pytest is done dumps them and
    # exits 1 (conftest.py's exit watchdog), and the cap interrupts first (pytest then prints its summary).)
    INFINIOP_REQUIRE_GPU=1 INFINIOP_EXIT_WATCHDOG_S=60 timeout -s INT -k 15 "$TL" python3 -m pytest -q \
        -p no:cacheprovider -rfEs -o faulthandler_timeout=150 "$@" >"$LOGS/$name.txt" 2>&1
    local rc=$?
    echo "$rc" >"$LOGS/$name.rc"
    echo "shard $name rc $rc: $(tail -1 "$LOGS/$name.txt")"
}

# Starts a shard in the background and remembers its files: every other
# tests/test_*.py (new ones included) goes to the shard "others".
named=" "
start() {
    local a
    for a in "${@:2}"; do [[ $a == tests/* ]] && named+="$a "; done
    shard "$@" &
}
start rs tests/test_random_sample.py tests/test_random_sample_argmax.py
start mul tests/test_mul.py tests/test_bad_inputs.py tests/test_core.py tests/test_device.py \
    tests/test_loader.py tests/test_cli.py
named+="tests/test_reliability.py "
start rearrange tests/test_rearrange.py tests/test_properties.py tests/test_fuzz.py
# (session 48: in four shards, the CPU LPNorm tests, the device-parametrized ones of 16-bit types and of
# the others, and the shard's other files, to see which part ran past the cap in calls 3 and 4; its new
# slab and mid-length row shapes cost 1-2 s a test in CPU references, ~100 s in all)
start lp_norm tests/test_lp_norm.py -k "not reference_cases_large and not _gpu and not nvidia"
start lp_norm_nv16 tests/test_lp_norm.py -k "not reference_cases_large and not _gpu and nvidia and f16"
start lp_norm_nv tests/test_lp_norm.py -k "not reference_cases_large and not _gpu and nvidia and not f16"
start lp_misc tests/test_lp_norm_errors.py tests/test_overhead.py tests/test_cpu_dispatch.py tests/test_readme.py
# (LPNorm's GPU tests in two shards since session 27: 265 s in one, against the 330 s cap, before the
# F32 / F64 Hold cases and the cut-axis Cols cases were added)
held="held_on_chip or cols_cut or two_held or dependent"
start lp_gpu tests/test_lp_norm.py -k "_gpu and not reference_cases_large and ($held)"
# (session 29: ~100 MB rows beyond Hold's L2 budget, in a shard of their own)
start lp_gpu_beyond tests/test_lp_norm.py -k "beyond_hold"
# (session 30: ~100-140 MB of rows for the Grid plan and the wider Pipe plan, in a shard of their own)
# (session 44: 207 s of the 215 s cap in one shard, so the two kinds in two shards)
start lp_gpu_grid tests/test_lp_norm.py -k "across_grid"
start lp_gpu_pipe tests/test_lp_norm.py -k "pipe_wide"
# (session 44: lp_gpu_rest ran past the 215 s cap with 7 of its 105 tests left; the Cols tests of whole
# columns split over thread rows, UNCUT's and the pointer-alignment ones in a shard of their own)
cols="columns_split or cols_uncut or cols_pointer"
start lp_gpu_cols tests/test_lp_norm.py -k "_gpu and not reference_cases_large and ($cols)"
# (session 49: lp_gpu_rest took 183 s of its cap, 89 tests; its long-row tests, 44 of them, in a shard of
# their own)
rest_k="_gpu and not reference_cases_large and not ($held) and not ($cols) and not beyond_hold and not across_grid and not pipe_wide"
start lp_gpu_long tests/test_lp_norm.py -k "$rest_k and long_rows"
start lp_gpu_rest tests/test_lp_norm.py -k "$rest_k and not long_rows"
start lp_large_f16 tests/test_lp_norm.py -k "reference_cases_large and -f16"
start lp_large_bf16 tests/test_lp_norm.py -k "reference_cases_large and bf16"
start lp_large_rest tests/test_lp_norm.py -k "reference_cases_large and not f16"  # (f16 matches bf16 too)
rest=()
for f in tests/test_*.py; do
    [[ $named == *" $f "* ]] || rest+=("$f")
done
[ ${#rest[@]} -gt 0 ] && shard others "${rest[@]}" &
wait
# Alone: its leak test reads the device's free memory, which the other shards move.
shard reliability tests/test_reliability.py

cat "$LOGS"/*.txt >"$OUT/gpu_suite.txt"
! grep -qv '^0$' "$LOGS"/*.rc
