# Builds libinfinirt.so and libinfiniop.so (CPU + NVIDIA when nvcc is found,
# else CPU only), copies them into the Python package, and runs the tests.
#
#   make                 build both libraries (parallel by default)
#   make CUDA=0          CPU-only build with g++
#   make CUDA_ARCHS="80 90"   GPU architectures (default: the local GPU's, else 80 90 + PTX)
#   make install PREFIX=~/.infini   lib/ and include/ laid out for INFINI_ROOT consumers
#   make test            set up Python, build, run the tests
#   make run             set up Python, build, run the demo of all four operators
#   make sanitize        CPU build with AddressSanitizer + UBSan (build/asan), CPU tests against it
#   make clean

PREFIX     ?= $(HOME)/.infini
BUILD      ?= build
PYTHON     ?= python3
CXX        ?= g++
NVCC       ?= $(shell command -v nvcc 2>/dev/null)
# The toolkit root: the first candidate that has the runtime's headers (nvcc may be a wrapper script).
CUDA_HOME  ?= $(patsubst %/include/cuda_runtime.h,%,$(firstword $(wildcard \
                $(addsuffix /include/cuda_runtime.h,$(CUDA_PATH) $(patsubst %/bin/nvcc,%,$(realpath $(NVCC))) /usr/local/cuda))))
CUDA       ?= $(if $(NVCC),1,0)
OPT        ?= -O3
# Host debug info is off in the shipped library (it was 4 MB of it); `make DEBUG=-g` turns it on.
DEBUG      ?=
ifeq ($(MAKELEVEL),0)
  MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2) --no-print-directory
endif

ifeq ($(CUDA),1)
  # The local GPU's architecture when one answers, else A100 + H100.
  LOCAL_ARCH := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d '. ')
  CUDA_ARCHS ?= $(if $(LOCAL_ARCH),$(LOCAL_ARCH),80 90)
  PTX_ARCH   := $(lastword $(sort $(CUDA_ARCHS)))
  GENCODE    := $(foreach a,$(CUDA_ARCHS),-gencode arch=compute_$(a),code=sm_$(a)) \
                -gencode arch=compute_$(PTX_ARCH),code=compute_$(PTX_ARCH)
  # Device code (line info included) compressed for size: about 5x smaller, decompressed once at
  # module load. Toolkits older than 12.8 lack the flag and keep their default compression.
  COMPRESS   := $(if $(shell $(NVCC) --help 2>/dev/null | grep -e '--compress-mode'),--compress-mode=size)
endif

INCLUDES  := -Inative/include -Inative/src
DEFINES   := $(if $(filter 1,$(CUDA)),-DINFINI_WITH_NVIDIA)
# -fno-math-errno: nothing here reads errno, and sqrt calls that may set it keep GCC from vectorising the
# CPU kernels' loops around them (LPNorm's per-column factors: F64 columns of 3 rows 2x faster, session 45).
CXXFLAGS  := $(OPT) $(DEBUG) -std=c++17 -fPIC -fvisibility=hidden -fvisibility-inlines-hidden -fopenmp -fno-math-errno \
             -Wall -Wextra -Wno-unused-parameter -MMD -MP $(INCLUDES) $(DEFINES) \
             $(if $(filter 1,$(CUDA)),-isystem $(CUDA_HOME)/include) $(EXTRA_CXXFLAGS)
NVCCFLAGS := $(OPT) -std=c++17 $(GENCODE) $(COMPRESS) -lineinfo --expt-relaxed-constexpr -Xcudafe --diag_suppress=177 \
             -Xcompiler -fPIC,-fvisibility=hidden,-fopenmp,-Wall -MMD -MP $(INCLUDES) $(DEFINES) $(EXTRA_NVCCFLAGS)
LDFLAGS   := -shared -fopenmp -Wl,--exclude-libs,ALL -Wl,-z,defs -Wl,--version-script=native/exports.map $(EXTRA_LDFLAGS)
# The CUDA runtime is linked statically: users need only the driver.
CUDA_LIBS := $(if $(filter 1,$(CUDA)),$(CUDA_HOME)/lib64/libcudart_static.a -ldl -lrt -lpthread)

# NVIDIA-only sources: every .cu, and .cc files named *nvidia.cc.
all_cc      = $(shell find $(1) -name '*.cc' 2>/dev/null)
all_cu      = $(shell find $(1) -name '*.cu' 2>/dev/null)
pick_cc     = $(if $(filter 1,$(CUDA)),$(call all_cc,$(1)),$(filter-out %nvidia.cc,$(call all_cc,$(1))))
pick_cu     = $(if $(filter 1,$(CUDA)),$(call all_cu,$(1)))

RT_SRC  := $(call pick_cc,native/src/runtime)
OP_SRC  := $(call pick_cc,native/src/common native/src/infiniop native/src/ops) \
           $(call pick_cu,native/src/common native/src/infiniop native/src/ops)
RT_OBJ  := $(patsubst %,$(BUILD)/obj/%.o,$(RT_SRC))
OP_OBJ  := $(patsubst %,$(BUILD)/obj/%.o,$(OP_SRC))
LIBDIR  := $(BUILD)/lib
RT_LIB  := $(LIBDIR)/libinfinirt.so
OP_LIB  := $(LIBDIR)/libinfiniop.so
PKG_LIB := infiniop_py/_lib

.PHONY: all install test run setup sanitize clean
all: $(PKG_LIB)/libinfiniop.so $(PKG_LIB)/libinfinirt.so $(PKG_LIB)/build_info.json

$(BUILD)/obj/%.cc.o: %.cc
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -c $< -o $@

$(BUILD)/obj/%.cu.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -c $< -o $@

$(RT_LIB): $(RT_OBJ) native/exports.map
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) -Wl,-soname,libinfinirt.so -o $@ $(RT_OBJ) $(CUDA_LIBS)

$(OP_LIB): $(OP_OBJ) $(RT_LIB) native/exports.map
	$(CXX) $(LDFLAGS) -Wl,-soname,libinfiniop.so -Wl,-rpath,'$$ORIGIN' -o $@ $(OP_OBJ) \
	    -L$(LIBDIR) -linfinirt $(CUDA_LIBS)

# Copies replace the file by a rename, never rewrite it in place: a process that
# has the old library mapped (a Python session, a test run calling `make install`)
# keeps its copy instead of crashing.
$(PKG_LIB)/%: $(LIBDIR)/%
	@mkdir -p $(dir $@)
	cp $< $@.tmp && mv -f $@.tmp $@

# What `python -m infiniop_py info` reports about the build (kept beside the library).
$(LIBDIR)/build_info.json: $(OP_LIB) Makefile
	@mkdir -p $(dir $@)
	@printf '{"nvidia": %s, "cuda_archs": "%s", "cuda_home": "%s", "nvcc": "%s"}\n' \
	    $(if $(filter 1,$(CUDA)),true,false) "$(CUDA_ARCHS)" "$(if $(filter 1,$(CUDA)),$(CUDA_HOME))" \
	    "$(if $(filter 1,$(CUDA)),$(shell $(NVCC) --version 2>/dev/null | grep -o 'release [0-9.]*'))" > $@

install: all
	mkdir -p $(PREFIX)/lib $(PREFIX)/include
	for f in $(RT_LIB) $(OP_LIB); do cp $$f $(PREFIX)/lib/.$$(basename $$f).tmp && \
	    mv -f $(PREFIX)/lib/.$$(basename $$f).tmp $(PREFIX)/lib/$$(basename $$f) || exit 1; done
	cp -r native/include/. $(PREFIX)/include/

# Python: the given interpreter when it already has what we need (the GPU
# machine, an activated venv), else a local .venv made from pyproject.toml.
PY_HAS_DEPS := $(shell $(PYTHON) tools/python_deps.py --check >/dev/null 2>&1 && echo yes)
PY          := $(if $(PY_HAS_DEPS),$(PYTHON),.venv/bin/python)

setup: $(if $(PY_HAS_DEPS),,.venv/.installed)

.venv/.installed: pyproject.toml tools/python_deps.py
	$(PYTHON) -m venv .venv
	.venv/bin/python -m pip install -q --upgrade pip
	.venv/bin/python -m pip install -q $$($(PYTHON) tools/python_deps.py --list)
	touch $@

test: all setup
	PYTHONPATH=$(CURDIR) $(PY) -m pytest tests $(PYTEST_ARGS)

run: all setup
	PYTHONPATH=$(CURDIR) $(PY) -m infiniop_py demo

# The CPU backend under AddressSanitizer and UndefinedBehaviorSanitizer; Python
# is not instrumented, so the ASan runtime is preloaded.
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
sanitize: setup
	$(MAKE) BUILD=build/asan CUDA=0 OPT="-O1 -g" EXTRA_CXXFLAGS="$(SAN_FLAGS)" EXTRA_LDFLAGS="$(SAN_FLAGS)" \
	    build/asan/lib/libinfiniop.so build/asan/lib/build_info.json
	LD_PRELOAD="$$($(CXX) -print-file-name=libasan.so)" ASAN_OPTIONS=detect_leaks=0 \
	    UBSAN_OPTIONS=print_stacktrace=1 INFINIOP_LIBRARY=$(CURDIR)/build/asan/lib/libinfiniop.so \
	    PYTHONPATH=$(CURDIR) $(PY) -m pytest tests -m "not gpu" -p no:cacheprovider $(PYTEST_ARGS)

clean:
	rm -rf $(BUILD) $(PKG_LIB)

-include $(RT_OBJ:.o=.d) $(OP_OBJ:.o=.d)
