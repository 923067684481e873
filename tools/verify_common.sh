# The shared preamble of the tools/verify_*.sh scripts (one device call each, from the repository
# root after `source .gpu/setup.sh`). Source it after setting NAME (the files' prefix) and END (the
# second at which the script must be done). It gives OUT, LOG, PY, NVCC, GPU tests required,
# step (a timestamped log line), cap (a step's time limit within END) and harness_build.
set -u
OUT=${OUT:-/tmp/verify_$NAME}
mkdir -p "$OUT"
LOG="$OUT/${NAME}_log.txt"
export PYTHONPATH="$PWD:${PYTHONPATH:-}" INFINIOP_REQUIRE_GPU=1
PY=${PYTHON:-python3}
NVCC=$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")
# What a Mul variant rebuilds (build_variant_pair): its kernels and the elementwise planner.
MUL_VARIANT_SRCS="native/src/ops/mul/kernels_f16.cu native/src/ops/mul/kernels_f32.cu native/src/ops/mul/kernels_int_small.cu
    native/src/ops/mul/kernels_int_large.cu native/src/ops/elementwise/plan_nvidia.cc"
step() { echo "== $(date -u +%T) (${SECONDS}s) $*" | tee -a "$LOG"; }
# min(cap, what is left of $END s), at least 1
cap() { local left=$((END - SECONDS)); [ "$1" -lt "$left" ] && left=$1; [ "$left" -lt 1 ] && left=1; echo "$left"; }
# harness_run BINARY FILE CAP WHAT: the built harness, writing its report to FILE.
harness_run() {
    step "harness: $4"
    timeout -k 3 "$(cap "$3")" "$1" "$2" >>"$LOG" 2>&1
    echo "harness rc=$?" | tee -a "$LOG"
}
# library_build: the library for sm_90 (make -j16), its status in the log.
library_build() {
    step "library build (make -j16 CUDA_ARCHS=90)"
    timeout -k 3 "$(cap 240)" make -j16 CUDA_ARCHS=90 >>"$LOG" 2>&1
    echo "make rc=$?" | tee -a "$LOG"
}
# bench_if_time MODULE FILE CAP: `python -m MODULE` into FILE when 20 s are left.
bench_if_time() {
    if [ $((END - SECONDS)) -ge 20 ]; then
        step "benchmark ($1)"
        timeout -k 3 "$(cap "$3")" $PY -m "$1" >"$2" 2>&1
        echo "bench rc=$? (124: stopped at its cap)" | tee -a "$LOG" "$2"
    else
        step "benchmark skipped: $((END - SECONDS)) s left"
    fi
}
# end_to_end_bench PREFIX CAP [MIN_LEFT [BENCH ARGS...]]: `python -m infiniop_py bench` on the GPU (with
# the further arguments, e.g. --op lp_norm) into PREFIX.txt and PREFIX.json, when at least MIN_LEFT
# (default 20) of END's seconds are left.
end_to_end_bench() {
    local prefix=$1 limit=$2 min_left=${3:-20}
    shift $(($# < 3 ? $# : 3))
    if [ $((END - SECONDS)) -lt "$min_left" ]; then
        step "end-to-end benchmark skipped: $((END - SECONDS)) s left"
        return
    fi
    step "end-to-end benchmark${*:+ $*}"
    timeout -k 3 "$(cap "$limit")" $PY -m infiniop_py bench --device nvidia --json "$prefix.json" "$@" >"$prefix.txt" 2>&1
    echo "bench rc=$? (124: stopped at its cap)" | tee -a "$LOG" "$prefix.txt"
}
# lp_tests FILE CAP WHAT SELECTION: tests/test_lp_norm.py's tests matching -k SELECTION into FILE (the
# slowest five listed), the summary line in the log.
lp_tests() {
    step "$3"
    timeout -k 3 "$(cap "$2")" $PY -m pytest -q -p no:cacheprovider -rfEs --durations=5 tests/test_lp_norm.py \
        -k "$4" >"$1" 2>&1
    echo "tests rc=$?" | tee -a "$LOG"
    tail -n 2 "$1" >>"$LOG"
}
# lpnorm_gpu_tests FILE CAP: LPNorm's GPU tests (tools/gpu_suite.sh's lp_gpu shards).
lpnorm_gpu_tests() { lp_tests "$1" "$2" "LPNorm GPU tests" "_gpu and not reference_cases_large"; }
# cols_gpu_tests FILE CAP: the Cols plan's cut axis and every layout and axis on the GPU device.
cols_gpu_tests() { lp_tests "$1" "$2" "LPNorm tests on the GPU: cut axis, layouts, axes" "nvidia or cols_cut or split_over"; }
# hold_gpu_tests FILE CAP: LPNorm's GPU tests of the Hold plan.
hold_gpu_tests() {
    lp_tests "$1" "$2" "Hold GPU tests" "held_on_chip or dependent_long_rows or long_rows_chained or two_held"
}
# harness_build SOURCE BINARY CAP: a standalone sm_90 harness against the library's headers.
harness_build() {
    step "harness build (nvcc, sm_90)"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
    mkdir -p build
    timeout -k 3 "$(cap "$3")" "$NVCC" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/include \
        -Inative/src -DINFINI_WITH_NVIDIA "$1" -o "$2" >>"$LOG" 2>&1
    echo "harness build rc=$?" | tee -a "$LOG"
}
# harness_build_bg SOURCE BINARY [NVCC FLAGS...]: harness_build's compile in the background (its log
# in $BUILD_LOGS/BINARY's name_build.txt, BUILD_LOGS defaulting to $OUT: a script with many builds
# points it elsewhere, as only 8 files come back from $OUT); `wait` for it.
harness_build_bg() {
    local src=$1 bin=$2
    shift 2
    mkdir -p build
    step "harness build in the background: $bin ($src $*)"
    timeout -k 3 "$(cap 150)" "$NVCC" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Inative/include \
        -Inative/src -DINFINI_WITH_NVIDIA "$@" "$src" -o "$bin" >"${BUILD_LOGS:-$OUT}/$(basename "$bin")_build.txt" 2>&1 &
}
# build_variant_pair DIR FLAGS SOURCE...: the default library (build/) and, beside it, DIR: the same
# tree with EXTRA_NVCCFLAGS=FLAGS (and EXTRA_CXXFLAGS=$VARIANT_CXXFLAGS, for host sources) in the
# objects of the given sources (compiled alongside the default build), every other object copied from
# build/ (the A/B builds of the verify scripts).
build_variant_pair() {
    local dir=$1 flags=$2 src objs="" pid
    shift 2
    for src in "$@"; do objs="$objs $dir/obj/$src.o"; done
    step "build: default library and, at the same time, the objects of $dir ($flags)"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
    git log --oneline -1 >>"$LOG" 2>&1
    rm -rf "$dir"; mkdir -p build "$dir"
    timeout -k 3 "$(cap 110)" make -j5 CUDA_ARCHS=90 BUILD="$dir" EXTRA_NVCCFLAGS="$flags" \
        EXTRA_CXXFLAGS="${VARIANT_CXXFLAGS:-}" $objs \
        >"${dir}_make.log" 2>&1 &
    pid=$!
    timeout -k 3 "$(cap 240)" make -j16 CUDA_ARCHS=90 >>"$LOG" 2>&1
    echo "make (default) rc=$?" | tee -a "$LOG"
    wait "$pid"
    echo "make ($dir objects) rc=$?" | tee -a "$LOG"
    tail -n 3 "${dir}_make.log" >>"$LOG"
    step "build: $dir library (every other object copied from build/, not overwriting $dir's)"
    mkdir -p "$dir/obj" && cp -a -n build/obj/. "$dir/obj/"
    timeout -k 3 "$(cap 60)" make -j16 CUDA_ARCHS=90 BUILD="$dir" EXTRA_NVCCFLAGS="$flags" \
        EXTRA_CXXFLAGS="${VARIANT_CXXFLAGS:-}" "$dir/lib/libinfiniop.so" "$dir/lib/libinfinirt.so" "$dir/lib/build_info.json" >>"$LOG" 2>&1
    echo "make ($dir library) rc=$?" | tee -a "$LOG"
}
# build_variants_parallel SOURCE "DIR:FLAGS"...: the default library (build/), then each DIR's object of
# the one device SOURCE with EXTRA_NVCCFLAGS=FLAGS, all at once (a heavy .cu file such as lp_norm/cols.cu
# compiles for ~100 s on one core: session 43 spent that per variant, one after the other), then each
# DIR's library with every other object copied from build/.
build_variants_parallel() {
    local src=$1 v dir pids=""
    shift
    step "build: $src for $* (in parallel, beside the default library)"
    for v in "$@"; do
        dir=${v%%:*}
        rm -rf "$dir"; mkdir -p "$dir"
        timeout -k 3 "$(cap 200)" make CUDA_ARCHS=90 BUILD="$dir" EXTRA_NVCCFLAGS="${v#*:}" "$dir/obj/$src.o" \
            >"${dir}_make.log" 2>&1 &
        pids="$pids $!"
    done
    library_build
    for v in $pids; do wait "$v"; echo "make (variant object) rc=$?" | tee -a "$LOG"; done
    for v in "$@"; do
        dir=${v%%:*}
        tail -n 2 "${dir}_make.log" >>"$LOG"
        mkdir -p "$dir/obj" && cp -a -n build/obj/. "$dir/obj/"
        timeout -k 3 "$(cap 60)" make -j16 CUDA_ARCHS=90 BUILD="$dir" EXTRA_NVCCFLAGS="${v#*:}" \
            "$dir/lib/libinfiniop.so" "$dir/lib/libinfinirt.so" "$dir/lib/build_info.json" >>"$LOG" 2>&1
        echo "make ($dir library) rc=$?" | tee -a "$LOG"
    done
}
# build_variant_sets "DIR|FLAGS|SOURCE SOURCE..."...: each DIR's objects of its SOURCEs (.cu and .cc alike)
# with FLAGS, all variants at once beside the default library (build/), then each DIR's library with every
# other object copied from build/ (session 45: three variants of different sources in one build's time).
build_variant_sets() {
    local v dir flags src objs pids=""
    step "build: the default library and, at the same time, the objects of $(for v in "$@"; do printf '%s ' "${v%%|*}"; done)"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$LOG" 2>&1
    git log --oneline -1 >>"$LOG" 2>&1
    for v in "$@"; do
        IFS='|' read -r dir flags src <<<"$v"
        objs=""; for s in $src; do objs="$objs $dir/obj/$s.o"; done
        rm -rf "$dir"; mkdir -p "$dir"
        timeout -k 3 "$(cap 200)" make -j4 CUDA_ARCHS=90 BUILD="$dir" EXTRA_NVCCFLAGS="$flags" EXTRA_CXXFLAGS="$flags" \
            $objs >"${dir}_make.log" 2>&1 &
        pids="$pids $!"
    done
    library_build
    for v in $pids; do wait "$v"; echo "make (variant objects) rc=$?" | tee -a "$LOG"; done
    for v in "$@"; do
        IFS='|' read -r dir flags src <<<"$v"
        tail -n 2 "${dir}_make.log" >>"$LOG"
        mkdir -p "$dir/obj" && cp -a -n build/obj/. "$dir/obj/"
        timeout -k 3 "$(cap 60)" make -j16 CUDA_ARCHS=90 BUILD="$dir" EXTRA_NVCCFLAGS="$flags" EXTRA_CXXFLAGS="$flags" \
            "$dir/lib/libinfiniop.so" "$dir/lib/libinfinirt.so" "$dir/lib/build_info.json" >>"$LOG" 2>&1
        echo "make ($dir library) rc=$?" | tee -a "$LOG"
    done
}
# build_rs_pair DIR FLAGS: build_variant_pair for the RandomSample objects.
build_rs_pair() {
    local rs=native/src/ops/random_sample
    build_variant_pair "$1" "$2" $rs/kernel_f16.cu $rs/kernel_bf16.cu $rs/kernel_f32.cu $rs/kernel_f64.cu $rs/nvidia.cu
}
# rearr4_build: tools/rearr4_bench.cu linked against the library in build/lib (after library_build).
rearr4_build() {
    step "rearr4_bench build"
    timeout -k 3 "$(cap 120)" "$NVCC" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -DINFINI_WITH_NVIDIA \
        -Inative/src -Inative/include -Itools tools/rearr4_bench.cu -Lbuild/lib -linfiniop -linfinirt \
        -o build/rearr4_bench >>"$LOG" 2>&1
    echo "rearr4_bench build rc=$?" | tee -a "$LOG"
}
# late_trigger_variant DIR: build_variant_pair for a library whose tile kernels and Mul's contiguous
# kernel let the next launch in only at their blocks' exit (session 23's measuring knobs).
late_trigger_variant() {
    local r=native/src/ops/rearrange m=native/src/ops/mul
    build_variant_pair "$1" "-DINFINI_REARRANGE_TRIGGER_AT_EXIT=1 -DINFINI_ELEMENTWISE_TRIGGER_AT_EXIT=1" \
        $r/kernels_u1.cu $r/kernels_u2.cu $r/kernels_u4.cu $r/kernels_u8.cu $r/kernels_u16.cu \
        $m/kernels_f16.cu $m/kernels_f32.cu $m/kernels_int_large.cu $m/kernels_int_small.cu
}
# probe_rounds FILE "SCRIPT [ARGS]" LIBDIR...: a Python probe on each library (INFINIOP_LIBRARY=
# LIBDIR/libinfiniop.so), two rounds interleaved, appended to FILE.
probe_rounds() {
    local file=$1 probe=$2 round lib
    shift 2
    for round in 1 2; do
        for lib in "$@"; do
            step "$probe, $lib, round $round"
            echo "== $lib, round $round" >>"$file"
            INFINIOP_LIBRARY=$PWD/$lib/libinfiniop.so timeout -k 3 "$(cap 60)" $PY $probe >>"$file" 2>&1
            echo "rc=$?" | tee -a "$LOG" "$file"
        done
    done
}
# eager_probe_rounds FILE LIBDIR...: probe_rounds with tools/eager_probe.py --batches (Rearrange's
# transposes, eager batches against a graph).
eager_probe_rounds() {
    local file=$1
    shift
    probe_rounds "$file" "tools/eager_probe.py --batches" "$@"
}
# rearrange_library_ab BASE FILE: rearr4_bench --library on BASE/lib and build/lib, two rounds
# interleaved, appended to FILE (after rearr4_build).
rearrange_library_ab() {
    local round lib
    for round in 1 2; do
        for lib in "$1/lib" build/lib; do
            step "rearr4_bench --library, $lib, round $round"
            echo "== $lib, round $round" >>"$2"
            LD_LIBRARY_PATH=$lib timeout -k 3 "$(cap 40)" build/rearr4_bench --library >>"$2" 2>&1
            echo "rc=$?" | tee -a "$LOG" "$2"
        done
    done
}
# rearrange_gpu_checks FILE: test_rearrange.py + test_properties.py + test_fuzz.py on build/ (GPU
# required), then compute-sanitizer memcheck on the odd-pitch / skewed Rearrange tests, into FILE.
rearrange_gpu_checks() {
    step "Rearrange GPU tests"
    timeout -k 3 "$(cap 150)" $PY -m pytest -q -x -p no:cacheprovider tests/test_rearrange.py tests/test_properties.py \
        tests/test_fuzz.py >"$1" 2>&1
    echo "tests rc=$?" | tee -a "$LOG"
    tail -n 3 "$1" >>"$LOG"
    rearrange_memcheck "$1"
}
# rearrange_memcheck FILE: compute-sanitizer memcheck on the odd-pitch, skewed and dependent-chain
# Rearrange GPU tests, appended to FILE.
rearrange_memcheck() {
    step "memcheck, odd pitches, skewed tiles, dependent chains"
    timeout -k 3 "$(cap 120)" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
        $PY -m pytest -q -x -p no:cacheprovider tests/test_rearrange.py \
        -k "((odd or skew or 4097 or 4098 or misaligned) and nvidia) or dependent" >>"$1" 2>&1
    echo "memcheck rc=$? (99: errors reported; 124: stopped at its cap)" | tee -a "$LOG"
    tail -n 3 "$1" >>"$LOG"
}
# bench_libraries MODULE PREFIX NAME=LIBDIR...: `python -m MODULE` on each library (INFINIOP_LIBRARY=
# LIBDIR/libinfiniop.so), in the order given, into PREFIX_NAME.txt.
bench_libraries() {
    local module=$1 prefix=$2 pair
    shift 2
    for pair in "$@"; do
        step "${module##*.}, ${pair%%=*}"
        INFINIOP_LIBRARY=$PWD/${pair#*=}/libinfiniop.so timeout -k 3 "$(cap 90)" $PY -m "$module" \
            >"${prefix}_${pair%%=*}.txt" 2>&1
        echo "bench ${pair%%=*} rc=$?" | tee -a "$LOG"
    done
}
# rs_ab_rounds NAME DIR: tools/rs_ab.sh's A/B after build_rs_pair DIR: the picks of both libraries
# compared, tools/rs5_ab.py A B (then B A when time is left) and the RandomSample GPU tests between.
rs_ab_rounds() {
    local name=$1 vb=$2 AB
    AB="$OUT/${name}_ab.txt"
    ab() { # label, library
        RS_AB_ARGMAX=1 INFINIOP_LIBRARY="$2" timeout -k 3 "$(cap 45)" $PY tools/rs5_ab.py "$1" >>"$AB" 2>&1
        echo "$1 rc=$?" | tee -a "$LOG" "$AB"
    }
    step "picks: tools/rs7_picks.py on both libraries (expected identical)"
    INFINIOP_LIBRARY="$PWD/build/lib/libinfiniop.so" timeout -k 3 "$(cap 30)" $PY tools/rs7_picks.py >"build/${name}_picks_default.txt" 2>>"$LOG"
    INFINIOP_LIBRARY="$PWD/$vb/lib/libinfiniop.so" timeout -k 3 "$(cap 30)" $PY tools/rs7_picks.py >"build/${name}_picks_$name.txt" 2>>"$LOG"
    $PY tools/rs7_picks.py --compare "build/${name}_picks_default.txt" "build/${name}_picks_$name.txt" >"$OUT/${name}_picks.txt" 2>&1
    echo "picks compared rc=$? (1: some differ, see ${name}_picks.txt)" | tee -a "$LOG"
    head -n 2 "$OUT/${name}_picks.txt" | tee -a "$LOG"
    step "A/B round 1"
    ab default "$PWD/build/lib/libinfiniop.so"; ab "$name" "$PWD/$vb/lib/libinfiniop.so"
    step "GPU tests (default library): test_random_sample.py, test_random_sample_argmax.py"
    timeout -k 3 "$(cap 90)" $PY -m pytest tests/test_random_sample.py tests/test_random_sample_argmax.py -q \
        -p no:cacheprovider >"$OUT/${name}_tests.txt" 2>&1
    echo "tests rc=$? (124: stopped at its cap, see the count above)" | tee -a "$LOG" "$OUT/${name}_tests.txt"
    if [ $((END - SECONDS)) -ge 50 ]; then
        step "A/B round 2"
        ab "$name" "$PWD/$vb/lib/libinfiniop.so"; ab default "$PWD/build/lib/libinfiniop.so"
    else
        step "A/B round 2 skipped: $((END - SECONDS)) s left"
    fi
    $PY tools/rs_ab_summary.py "$AB" default "$name" >>"$AB" 2>&1
}
# whole_suite CAP: tools/gpu_suite.sh (every test, GPU tests required, its shards' summaries in the log).
whole_suite() {
    step "whole suite (GPU tests required)"
    OUT="$OUT" bash tools/gpu_suite.sh "$(cap "$1")" >>"$LOG" 2>&1
    echo "gpu_suite rc=$?" | tee -a "$LOG"
}
# variant_tests DIR CAP MEMCHECK_CAP TESTFILE SELECTION [MEMCHECK_SELECTION]: TESTFILE's tests matching
# -k SELECTION on DIR's library into $OUT/tests.txt, then compute-sanitizer memcheck on those matching
# MEMCHECK_SELECTION (default: the same), their rcs and summaries in the log.
variant_tests() {
    local lib=$PWD/$1/lib/libinfiniop.so
    step "$4 -k \"$5\" on $1"
    INFINIOP_LIBRARY=$lib timeout -k 3 "$(cap "$2")" $PY -m pytest -q -p no:cacheprovider -rfEs "$4" -k "$5" \
        >>"$OUT/tests.txt" 2>&1
    echo "tests rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
    INFINIOP_LIBRARY=$lib timeout -k 3 "$(cap "$3")" compute-sanitizer --tool memcheck --report-api-errors no \
        --error-exitcode 99 $PY -m pytest -q -x -p no:cacheprovider "$4" -k "${6:-$5}" >>"$OUT/tests.txt" 2>&1
    echo "memcheck rc=$? (99: errors reported)" | tee -a "$LOG"; tail -n 1 "$OUT/tests.txt" >>"$LOG"
}
# ab_repro CAP RUN...: each RUN "SET=LIB=DIR" reruns /tmp/SET.txt's cases (behind_sweep.py lines) on DIR's
# library (behind_sweep.py --repro, no profiler), appended to $OUT/ab.txt under "=== SET LIB" (the
# layout tools/ab_table.py reads); each at most CAP seconds.
# ncu_line LIB LINE [LIMIT]: tools/ncu_behind.sh on one behind_sweep.py case line, ours and PyTorch's
# kernels, with LIB's library, when 40 s are left (SECTIONS passes through to ncu_behind.sh).
ncu_line() {
    if [ $((END - SECONDS)) -ge 40 ]; then
        step "ncu: $2 on $1"
        echo "##### library $1" >>"$OUT/ncu_behind.txt"
        INFINIOP_LIBRARY=$PWD/$1/lib/libinfiniop.so LINES="$2" OUT="$OUT" \
            timeout -k 3 "$(cap "${3:-70}")" bash tools/ncu_behind.sh
        echo "ncu rc=$?" | tee -a "$LOG"
    fi
}
# graph_lines FILE CAP: tools/eager_graph_lines.py on FILE's behind_sweep.py lines (eager and graph µs,
# ours and PyTorch's, our kernels) into $OUT/lines.txt, at most CAP seconds.
graph_lines() {
    step "eager and graph µs of $1's lines"
    PYTHONPATH="$PWD:$PWD/tools:${PYTHONPATH:-}" timeout -k 3 "$(cap "$2")" $PY tools/eager_graph_lines.py "$1" \
        >>"$OUT/lines.txt" 2>&1
    echo "lines rc=$?" | tee -a "$LOG"
}
ab_repro() {
    local limit=$1 run set_ rest lib
    shift
    for run in "$@"; do
        set_=${run%%=*}; rest=${run#*=}; lib=${rest%%=*}
        step "$set_ cases, $lib"
        echo "=== $set_ $lib" >>"$OUT/ab.txt"
        INFINIOP_LIBRARY=$PWD/${rest#*=}/lib/libinfiniop.so timeout -k 3 "$(cap "$limit")" $PY tools/behind_sweep.py \
            --repro "/tmp/$set_.txt" 200 --no-kernels >>"$OUT/ab.txt" 2>&1
        echo "rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/ab.txt" | tee -a "$LOG"
    done
}
# sweep_if_time SEED [RESERVE]: tools/behind_sweep.py SEED for what is left of END less RESERVE (default
# 15) seconds, into $OUT/sweepSEED.txt, when at least 30 s of it are left (a closing call's last step).
sweep_if_time() {
    local left=$((END - SECONDS - ${2:-15}))
    if [ "$left" -ge 30 ]; then
        step "random sweep, seed $1, $left s"
        timeout -k 3 "$((left + 10))" $PY tools/behind_sweep.py "$1" "$left" >"$OUT/sweep$1.txt" 2>&1
        echo "sweep rc=$?" | tee -a "$LOG"; tail -n 1 "$OUT/sweep$1.txt" >>"$LOG"
    else
        step "random sweep skipped: $left s left"
    fi
}
# closing_checks: a session's closing run: the library, the whole suite (300 s), the end-to-end bench into
# $OUT/bench.txt / .json (90 s, when 60 s of END are left).
closing_checks() {
    library_build
    whole_suite 300
    end_to_end_bench "$OUT/bench" 90 60
}
# probe_scripts FILE CAP "SCRIPT [ARG]"...: tools/SCRIPT.py [ARG] (tools/ on the import path) for each,
# appended to FILE under a header, their return codes in the log.
probe_scripts() {
    local file=$1 limit=$2 probe
    shift 2
    for probe in "$@"; do
        step "tools/$probe"
        echo "== $probe" >>"$file"
        set -- $probe
        PYTHONPATH="$PWD/tools:$PYTHONPATH" timeout -k 3 "$(cap "$limit")" $PY "tools/$1.py" ${2:+"$2"} >>"$file" 2>&1
        echo "rc=$?" | tee -a "$LOG" "$file"
    done
}
# green_probe FILE LIBDIR LIMIT ARGS...: tools/green_ctx_probe.py --limit LIMIT ARGS on LIBDIR's library
# (each case in a child with LIMIT seconds), appended to FILE (session 31).
green_probe() {
    local file=$1 lib=$2 limit=$3
    shift 3
    step "green_ctx_probe.py $* ($lib)"
    INFINIOP_LIBRARY=$PWD/$lib/libinfiniop.so timeout -k 3 "$(cap 200)" $PY tools/green_ctx_probe.py --limit "$limit" \
        "$@" >>"$file" 2>&1
    echo "rc=$?" | tee -a "$LOG" "$file"
}
# starve_probe LIBDIR ARGS...: tools/hold_starve_probe.py --limit 20 ARGS on LIBDIR's library (each
# scenario in a child with 20 s), appended to $OUT/starve.txt under a header (session 32).
starve_probe() {
    local lib=$1
    shift
    step "hold_starve_probe.py $* ($lib)"
    echo "==== $lib: $*" >>"$OUT/starve.txt"
    INFINIOP_LIBRARY=$PWD/$lib/libinfiniop.so timeout -k 3 "$(cap 130)" $PY tools/hold_starve_probe.py --limit 20 "$@" \
        >>"$OUT/starve.txt" 2>&1
    echo "rc=$?" | tee -a "$LOG" "$OUT/starve.txt"
}
# lpn_sanitize TOOL FILE [SELECTION]: compute-sanitizer TOOL (memcheck, racecheck) on
# tools/sanitize_lpn.py [SELECTION] (every LPNorm plan without one), appended to FILE (capped at
# SANITIZE_CAP seconds, 70 by default).
lpn_sanitize() {
    step "compute-sanitizer $1, tools/sanitize_lpn.py ${3:-(every plan)}"
    timeout -k 3 "$(cap "${SANITIZE_CAP:-70}")" compute-sanitizer --tool "$1" --report-api-errors no --error-exitcode 99 \
        $PY tools/sanitize_lpn.py ${3:-} >>"$2" 2>&1
    echo "$1 rc=$? (99: errors reported; 124: stopped at its cap)" | tee -a "$LOG" "$2"
}
# rearr4_rounds MODE FILE CAP: `rearr4_bench MODE` (e.g. --pdl, --skew) against build/lib twice,
# each round under a header in FILE (after rearr4_build).
rearr4_rounds() {
    local round
    for round in 1 2; do
        step "rearr4_bench $1, round $round"
        echo "== round $round" >>"$2"
        LD_LIBRARY_PATH=build/lib timeout -k 3 "$(cap "$3")" build/rearr4_bench "$1" >>"$2" 2>&1
        echo "rc=$?" | tee -a "$LOG" "$2"
    done
}
