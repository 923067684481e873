#!/usr/bin/env bash
# Session 13, second device call (timeout_s 560), from the repository root after `source .gpu/setup.sh`:
#   1. the library (make -j16; the word-family transposes' loads with an L2 prefetch of 256 bytes,
#      INFINI_REARRANGE_L2_PREFETCH's default) and build/pf0: the same with plain loads (the Rearrange
#      objects rebuilt with -DINFINI_REARRANGE_L2_PREFETCH=0, every other object copied);
#      tools/rearr4_bench.cu against build/lib;
#   2. rearr4_bench --library and --shapes on both libraries, interleaved, two rounds;
#   3. bench_rearrange on both libraries;
#   4. tests: test_rearrange.py + test_properties.py + test_fuzz.py on the default library.
# Writes under $OUT: s13b_log.txt, s13b_rearr4_{pf,plain}.txt (both rounds), s13b_bench_{pf,plain}.txt.
NAME=s13b
END=${END:-540}
source "$(dirname "$0")/verify_common.sh"
R=native/src/ops/rearrange
build_variant_pair build/pf0 -DINFINI_REARRANGE_L2_PREFETCH=0 \
    $R/kernels_u1.cu $R/kernels_u2.cu $R/kernels_u4.cu $R/kernels_u8.cu $R/kernels_u16.cu
rearr4_build
for round in 1 2; do
    for v in pf plain; do
        lib=build/lib
        [ "$v" = plain ] && lib=build/pf0/lib
        step "rearr4_bench --library / --shapes, $v, round $round"
        LD_LIBRARY_PATH=$lib timeout -k 3 "$(cap 40)" build/rearr4_bench --library >>"$OUT/s13b_rearr4_$v.txt" 2>&1
        echo "library $v rc=$?" | tee -a "$LOG"
        LD_LIBRARY_PATH=$lib timeout -k 3 "$(cap 40)" build/rearr4_bench --shapes >>"$OUT/s13b_rearr4_$v.txt" 2>&1
        echo "shapes $v rc=$?" | tee -a "$LOG"
    done
done
bench_libraries infiniop_py.bench.bench_rearrange "$OUT/s13b_bench" pf=build/lib plain=build/pf0/lib
step "tests (default library)"
timeout -k 3 "$(cap 200)" $PY -m pytest tests/test_rearrange.py tests/test_properties.py tests/test_fuzz.py -q \
    -p no:cacheprovider -x >build/s13b_tests.txt 2>&1
echo "tests rc=$?" | tee -a "$LOG"
tail -n 2 build/s13b_tests.txt | tee -a "$LOG"
step "done"
