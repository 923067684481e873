#!/bin/bash
# The whole test suite on the GPU machine in parallel shards (GPU tests required),
# from the repository root after `source .gpu/setup.sh` and a build:
#   bash tools/gpu_suite.sh [seconds per shard, default 330]
# Writes $OUT/gpu_suite.txt (every shard's output) and prints each shard's summary.
# The shards balance the wall time seen on the H100 (session 4: ~5 min in all;
# LPNorm's large reference cases are CPU-bound float64 work, hence three shards).
TL=${1:-330}
OUT=${OUT:-/tmp}
LOGS=$(mktemp -d)
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
shard() {
    local name=$1
    shift
    INFINIOP_REQUIRE_GPU=1 timeout "$TL" python3 -m pytest -q -p no:cacheprovider -rfEs "$@" >"$LOGS/$name.txt" 2>&1
    echo "shard $name rc $?: $(tail -1 "$LOGS/$name.txt")"
}
shard rs tests/test_random_sample.py tests/test_random_sample_argmax.py &
shard mul tests/test_mul.py tests/test_bad_inputs.py tests/test_core.py tests/test_device.py \
    tests/test_loader.py tests/test_cli.py tests/test_reliability.py &
shard rearrange tests/test_rearrange.py tests/test_properties.py tests/test_fuzz.py &
shard lp_norm tests/test_lp_norm.py -k "not reference_cases_large" tests/test_lp_norm_errors.py \
    tests/test_overhead.py tests/test_cpu_dispatch.py tests/test_readme.py &
shard lp_large_f16 tests/test_lp_norm.py -k "reference_cases_large and -f16" &
shard lp_large_bf16 tests/test_lp_norm.py -k "reference_cases_large and bf16" &
shard lp_large_f32 tests/test_lp_norm.py -k "reference_cases_large and f32" &
# Every other test file (new ones included), so that nothing is left out.
NAMED="test_random_sample test_random_sample_argmax test_mul test_bad_inputs test_core test_device test_loader
       test_cli test_reliability test_rearrange test_properties test_fuzz test_lp_norm test_lp_norm_errors
       test_overhead test_cpu_dispatch test_readme"
REST=()
for f in tests/test_*.py; do
    base=$(basename "$f" .py)
    [[ " $(echo $NAMED) " == *" $base "* ]] || REST+=("$f")
done
[ ${#REST[@]} -gt 0 ] && shard others "${REST[@]}" &
wait
cat "$LOGS"/*.txt >"$OUT/gpu_suite.txt"
