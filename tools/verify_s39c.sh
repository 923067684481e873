#!/usr/bin/env bash
# Session 39, call 3 (H200), closing: the default library with what calls 1-2 measured winning (Mul's
# narrow tiles and the gather form's reuse rule now on, sparse tiles kept on the gather form). The whole
# suite (GPU tests required), memcheck on the LPNorm column cases and the Mul transposed planes, Mul's
# A/B against build_mulold (both Mul knobs off: session 38's plans) on session 38's Mul behind cases and
# the random permuted ones, the end-to-end bench (the fresh sweep: call 4).
# Files under $OUT: s39c_log.txt, gpu_suite.txt, tests.txt, ab.txt, bench.txt, bench.json.
NAME=${NAME:-s39c}
END=${END:-570}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
m=native/src/ops/mul
OLD="-DINFINI_ELEMENTWISE_NARROW_TILES=0 -DINFINI_ELEMENTWISE_GATHER_REUSE_BYTES=0"
VARIANT_CXXFLAGS="$OLD" build_variant_pair build_mulold "$OLD" $m/kernels_f16.cu $m/kernels_f32.cu \
    $m/kernels_int_small.cu $m/kernels_int_large.cu native/src/ops/elementwise/plan_nvidia.cc
whole_suite 200
SANITIZE_CAP=25 lpn_sanitize memcheck "$OUT/tests.txt" cols
step "memcheck: Mul's transposed planes"
timeout -k 3 "$(cap 30)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 $PY -m pytest \
    -q -x -p no:cacheprovider tests/test_mul.py -k "nvidia and (narrow or transposed)" >>"$OUT/tests.txt" 2>&1
echo "memcheck rc=$? (99: errors reported)" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
grep "^mul" notes/sweeps/session38_behind.txt >/tmp/mul.txt
$PY tools/shaped_cases.py mulperm 39 120 >/tmp/perm.txt
ab_repro 30 mul=old=build_mulold mul=default=build perm=old=build_mulold perm=default=build
end_to_end_bench "$OUT/bench" 80 60
step "done"
