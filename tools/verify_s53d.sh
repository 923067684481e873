#!/usr/bin/env bash
# Session 53, call 4 (H200, the ~300 s of device time left): the Mul gather form with 32-bit offsets
# (build_o32: INFINI_ELEMENTWISE_GATHER_OFF32=1 on plan_nvidia.cc and the Mul kernel files), its gather GPU
# tests and memcheck first, then against two default runs on 60 gathers
# (notes/sweeps/session54_off32_cases.txt). tools/verify_s54a.sh repeats it with the LPNorm knobs.
# Files under $OUT: s53d_log.txt, tests.txt, ab.txt (runs: default, o32, default2).
NAME=${NAME:-s53d}
END=${END:-245}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
build_variant_sets "build_o32|-DINFINI_ELEMENTWISE_GATHER_OFF32=1|native/src/ops/elementwise/plan_nvidia.cc $(ls native/src/ops/mul/*.cu)"
variant_tests build_o32 45 35 tests/test_mul.py "nvidia and (gather or short or odd or broadcast)" "nvidia and gather"
cp notes/sweeps/session54_off32_cases.txt /tmp/off32.txt
ab_repro 20 off32=default=build off32=o32=build_o32 off32=default2=build
step "done"
