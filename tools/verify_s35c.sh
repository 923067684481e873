#!/usr/bin/env bash
# Session 35, call 3 (H200): the Cols kernels round 16-bit pairs together (mapPack, as the other plans'
# scalePack; BF16's 16-byte-pack Whole kernel 152 -> 28 bytes spilled) in every library here. build (the
# default: 8-byte packs for 16-bit types), build_p8 (16-byte packs where the axis stays whole,
# -DINFINI_LP_NORM_COLS_PACK_16BIT=8; a cut axis keeps 8-byte packs, and pointers aligned to 8 bytes only
# take an 8-byte-pack plan), build_p8w (that, and blocks narrowing to rows of 256 bytes where that lets a
# thread hold 8 rows: -DINFINI_LP_NORM_COLS_MIN_ROW_BYTES=256). dtype_survey [cols16] and [pack], two
# rounds on the three; the Cols GPU tests (with the pointer-alignment test) on build_p8w, the thread-row,
# alignment and cut-axis tests on the default. Files under $OUT: s35c_log.txt, survey.txt, tests_p8w.txt,
# tests_default.txt.
NAME=${NAME:-s35c}
END=${END:-560}
source "$(dirname "$0")/verify_common.sh"
echo "tree: ${INFINIOP_COMMIT:-unknown}" >>"$LOG"
lp=native/src/ops/lp_norm
P8="-DINFINI_LP_NORM_COLS_PACK_16BIT=8"
VARIANT_CXXFLAGS="$P8" build_variant_pair build_p8 "$P8" $lp/nvidia.cc $lp/cols.cu
step "build: build_p8w (build_p8's objects, nvidia.cc again with -DINFINI_LP_NORM_COLS_MIN_ROW_BYTES=256)"
rm -rf build_p8w && mkdir -p build_p8w/obj && cp -a build_p8/obj/. build_p8w/obj/ && rm -f build_p8w/obj/$lp/nvidia.cc.o
timeout -k 3 "$(cap 60)" make -j16 CUDA_ARCHS=90 BUILD=build_p8w EXTRA_NVCCFLAGS="$P8" \
    EXTRA_CXXFLAGS="$P8 -DINFINI_LP_NORM_COLS_MIN_ROW_BYTES=256" build_p8w/lib/libinfiniop.so \
    build_p8w/lib/libinfinirt.so build_p8w/lib/build_info.json >>"$LOG" 2>&1
echo "make (build_p8w) rc=$?" | tee -a "$LOG"
probe_rounds "$OUT/survey.txt" "tools/dtype_survey.py [cols16] [pack]" build/lib build_p8/lib build_p8w/lib
INFINIOP_LIBRARY=$PWD/build_p8w/lib/libinfiniop.so lp_tests "$OUT/tests_p8w.txt" 120 \
    "Cols GPU tests, build_p8w" "nvidia or cols_cut or split_over or alignment"
lp_tests "$OUT/tests_default.txt" 60 "thread-row, alignment and cut-axis tests, default" \
    "split_over or alignment or cols_cut"
step "done"
