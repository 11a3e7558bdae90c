# tcprobe: one binary (build/tcprobe), its tests, its plots.
#
#   make            build build/tcprobe, the fat binary: every GPU target (needs the
#                   CUDA toolkit, no GPU; ./sweep builds for the GPUs it finds instead)
#   make -j2 check  the host unit tests (cmocka) and the CuTe cross-check: no probe compiled
#   make test       check, then the tests that need probes, probe builds for every
#                   GPU target, SASS checks, old-toolkit checks
#   make ARCHS="sm_90a sm_100a"   only those GPU targets (default: all the toolkit knows)
#   make plots RUN=results/<dir>   render every plot of one run
#
# Sources are found by wildcard: a new file in harness/<layer>/, model/ or probes/ needs
# no edit here (a probe's host-only C file, e.g. probes/sm100/tc-check.c, joins the
# host library).  probes/sm90/*.cu build for sm_90a, probes/sm100/*.cu for the tcgen05
# targets (sm_100a, sm_103a, sm_110a), probes/warp/*.cu for the warp-level targets
# (sm_80 .. sm_121a, WARP_ARCHS), probes/all/*.cu for all of them.

CUDA_HOME ?= /usr/local/cuda
NVCC      ?= $(CUDA_HOME)/bin/nvcc
CC        ?= gcc
CXX       ?= g++
# SANITIZE=1 (ASan+UBSan host code) builds in its own tree: never mixed objects.
ifeq ($(SANITIZE),1)
BUILD     ?= build-san
endif
# DEBUG=1 (-G, a cuda-gdb build) and TMEMCHECK=1 (ptxas run-time TMEM bounds
# checks) build the sm_100a probe objects in their own trees (`make DEBUG=1
# sm100-objs`; make test does both): never linked into a timing binary, never
# read by the SASS rules (check-sass.sh is given $(BUILD) of the release build).
ifeq ($(DEBUG),1)
BUILD     ?= build-debug
endif
ifeq ($(TMEMCHECK),1)
BUILD     ?= build-tmemcheck
endif
# EMULATE=1: the emulation build (below, "Emulation build"), its own tree.
ifeq ($(EMULATE),1)
BUILD     ?= build-emu
endif
BUILD     ?= build
# The tree of the nvcc objects (probes, harness .cu).  SANITIZE=1 sanitizes only the
# host C code (nvcc objects get no sanitizer flags), so it links the release tree's
# nvcc objects instead of compiling every probe a second time.
ifeq ($(SANITIZE),1)
CU_BUILD  ?= build
endif
CU_BUILD  ?= $(BUILD)

GIT_COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
GIT_DIRTY  := $(shell test -n "$$(git status --porcelain --untracked-files=no 2>/dev/null)" && echo 1 || echo 0)
comma := ,
NVCC_VERSION := $(shell $(NVCC) --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p')
PTXAS_VERSION := $(shell $(CUDA_HOME)/bin/ptxas --version 2>/dev/null | sed -n 's/.*, V\([0-9.]*\).*/\1/p')

# ---- GPU targets ------------------------------------------------------------
# One 'a' cubin per chip (an 'a' cubin runs on exactly its compute capability):
# probes/sm90 -> SM90_TARGETS, probes/sm100 -> TCGEN05_TARGETS, probes/all -> both.
# Default: every target this nvcc knows (nvcc --list-gpu-code): CUDA 12.8 builds
# sm_90a + sm_100a, 12.9 adds sm_103a (B300), 13.0 adds sm_110a (Thor); the build
# says what it left out and why.  ARCHS="sm_90a sm_100a" builds a subset (a family
# left with no target keeps its first one: its host side needs a device pass).
# No family cubin (sm_100f): it would run on a future 10.x chip, but with forms
# whose existence there nobody has checked, and it lacks kind::i8 and the
# .scale_vec spellings; such a chip gets exit 4 naming the targets held and the
# rebuild instead (README "Targets").  The table of what each target can
# assemble is model/arch.c; the minimum toolkits below are its min_cuda.
SM90_TARGETS     := sm_90a
TCGEN05_TARGETS  := sm_100a sm_103a sm_110a
WARP_FAMILY      := sm_80 sm_86 sm_89 sm_90a sm_100a sm_120a sm_121a
KNOWN_TARGETS    := $(sort $(SM90_TARGETS) $(TCGEN05_TARGETS) $(WARP_FAMILY))
MIN_CUDA_sm_80   := 11.0
MIN_CUDA_sm_86   := 11.1
MIN_CUDA_sm_89   := 11.8
MIN_CUDA_sm_90a  := 12.0
MIN_CUDA_sm_100a := 12.8
MIN_CUDA_sm_103a := 12.9
MIN_CUDA_sm_110a := 13.0
MIN_CUDA_sm_120a := 12.8
MIN_CUDA_sm_121a := 12.9
NVCC_GPU_CODES   := $(shell $(NVCC) --list-gpu-code 2>/dev/null)
TOOLKIT_TARGETS  := $(foreach t,$(KNOWN_TARGETS),$(if $(filter $(t:%a=%),$(NVCC_GPU_CODES)),$t))
ARCHS            ?= $(TOOLKIT_TARGETS)
# "sm_90a", "90a" and comma lists all spell the same selection
override ARCHS   := $(patsubst sm_sm_%,sm_%,$(addprefix sm_,$(strip $(subst $(comma), ,$(ARCHS)))))
ifneq ($(filter-out $(KNOWN_TARGETS),$(ARCHS)),)
$(error ARCHS: unknown target: got '$(filter-out $(KNOWN_TARGETS),$(ARCHS))', expected some of $(KNOWN_TARGETS))
endif
ifneq ($(filter-out $(TOOLKIT_TARGETS),$(ARCHS)),)
$(error ARCHS: nvcc $(NVCC_VERSION) cannot build '$(filter-out $(TOOLKIT_TARGETS),$(ARCHS))': $(foreach t,$(filter-out $(TOOLKIT_TARGETS),$(ARCHS)),$t needs CUDA $(MIN_CUDA_$t)), expected some of $(strip $(TOOLKIT_TARGETS)))
endif
keep_one = $(or $(filter $1,$(ARCHS)),$(firstword $(filter $1,$(TOOLKIT_TARGETS))))
SM90_BUILT       := $(call keep_one,$(SM90_TARGETS))
TCGEN05_BUILT    := $(call keep_one,$(TCGEN05_TARGETS))
WARP_BUILT       := $(call keep_one,$(WARP_FAMILY))
BUILT_TARGETS    := $(sort $(SM90_BUILT) $(TCGEN05_BUILT) $(WARP_BUILT))
LEFT_OUT         := $(strip $(foreach t,$(filter-out $(TOOLKIT_TARGETS),$(KNOWN_TARGETS)),$t: nvcc $(NVCC_VERSION) does not know it (needs CUDA $(MIN_CUDA_$t));) \
                      $(foreach t,$(filter-out $(BUILT_TARGETS) $(filter-out $(TOOLKIT_TARGETS),$(KNOWN_TARGETS)),$(KNOWN_TARGETS)),$t: not in ARCHS;))
LEFT_OUT_TEXT    := $(if $(LEFT_OUT),$(subst ;~,,$(LEFT_OUT)~))
ifneq ($(LEFT_OUT),)
$(info tcprobe: GPU targets $(BUILT_TARGETS) (nvcc $(NVCC_VERSION)); left out: $(LEFT_OUT_TEXT))
endif
gencode = $(foreach t,$1,-gencode=arch=compute_$(t:sm_%=%),code=$t)
SM90  := $(call gencode,$(SM90_BUILT))
SM100 := $(call gencode,$(TCGEN05_BUILT))
# the harness's launch-rtt kernel: every sm_90a and tcgen05 target
ALL_GENCODE := $(SM90) $(SM100)
# the scripts (SASS and old-toolkit checks) read the same lists
export TCP_SM90_TARGETS := $(SM90_BUILT)
export TCP_TCGEN05_TARGETS := $(TCGEN05_BUILT)

# Warp-level MMA family (probes/warp/*.cu): one cubin per warp target in ARCHS
# (above: every one this nvcc knows by default), plus PTX (below).  ARCHS=80
# narrows it: `make ARCHS=80 BUILD=build-arch80` = sm_80 SASS + compute_80 PTX
# (the other families then keep their first target, as the build says).
empty :=
space := $(empty) $(empty)
WARP_ARCHS ?= $(patsubst sm_%,%,$(WARP_BUILT))
# PTX kept in the fatbin: compute_80 (any newer GPU JITs it) and compute_90a (what
# CUDA_FORCE_PTX_JIT=1 compiles on an H200, so that run exercises the fp8 forms too);
# a build for one warp target (./sweep's, for the GPU it finds) keeps that target's
# PTX, so that a forced-JIT run there finds every form the cubin has.
WARP_PTX   := $(if $(filter 1,$(words $(WARP_ARCHS))),$(WARP_ARCHS),$(filter 80 90a,$(WARP_ARCHS)))
WARP_GENCODE := $(foreach a,$(WARP_ARCHS),-gencode=arch=compute_$(a),code=sm_$(a)) \
                $(foreach a,$(WARP_PTX),-gencode=arch=compute_$(a),code=compute_$(a))

ifeq ($(SANITIZE),1)
# UB aborts (a report alone would let the test pass); tests/san/deepbind-shim.c lets
# libcupti load libnvperf_host.so (RTLD_DEEPBIND, which ASan refuses) in these builds only.
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_SHIM := $(BUILD)/tests/san/deepbind-shim.o
endif

CPPFLAGS  := -I. -I$(CUDA_HOME)/include
# The commit / toolkit macros go only to the objects that read them (below):
# on every other command line they would change with each commit, and ccache
# would recompile every probe object for every target after each commit.
VERSION_DEFS := -DTCP_GIT_COMMIT='"$(GIT_COMMIT)"' -DTCP_GIT_DIRTY=$(GIT_DIRTY) \
                -DTCP_CUDA_TOOLKIT='"$(NVCC_VERSION)"' -DTCP_PTXAS_VERSION='"$(PTXAS_VERSION)"'
CFLAGS    ?= -O2 -g
CFLAGS    += -MMD -MP -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow $(SANFLAGS)
CXXFLAGS  ?= -O2 -g
CXXFLAGS  += -std=c++17 -Wall -Wextra $(SANFLAGS)
# C7510 (wgmma serialised) and spills are errors, not warnings.
NVCCFLAGS ?= -O3 -std=c++17 -lineinfo -Xptxas=-warn-spills,-warn-lmem-usage -Werror all-warnings \
             -Xcompiler=-Wall -MMD -MP
# The check builds drop -lineinfo (it conflicts with -G), -Werror and the
# spill / local-memory warnings (a -G build keeps locals in local memory by design),
# and the commit / toolkit macros no probe object reads (so ccache keeps their
# objects from one commit to the next).
# TCP_CHECK_BUILD: the few places where a check build trades the release
# build's unrolled issue loops for run-time loops (compile time; tc-mma.cuh).
ifneq ($(filter 1,$(DEBUG) $(TMEMCHECK)),)
CPPFLAGS  := -I. -I$(CUDA_HOME)/include -DTCP_CHECK_BUILD=1
endif
ifeq ($(DEBUG),1)
NVCCFLAGS := -G -std=c++17 -Xcompiler=-Wall -MMD -MP
endif
ifeq ($(TMEMCHECK),1)
NVCCFLAGS := -O3 -std=c++17 -Xptxas=--g-tensor-memory-access-check -Xcompiler=-Wall -MMD -MP
endif
# libcupti is dlopen'ed by harness/measure/counters.cu (runs without it; finds libnvperf_host.so)
# zlib (static, like libcsv): archived runs keep measurements.csv.gz (docs/results.md)
LDLIBS    := -L$(CUDA_HOME)/lib64 -lcudart_static -l:libcsv.a -l:libz.a -lm -ldl -lpthread -lrt \
             -Wl,-rpath,$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/extras/CUPTI/lib64

# ---- Layers of the build ------------------------------------------------------
# The host library (libtcprobe-host.a): model/, harness/ without the probe
# registry, and the probes' host references (tc-check.c, tc-aux.c,
# warp-check.c); C11, and C++ only where CUPTI's profiler headers are
# (harness/measure/*.cc).  gcc/g++ build it, never nvcc: `make check` (its unit
# tests) compiles no probe.  The harness's own kernels (harness/*/*.cu: device
# code only, launched from the host library through measure-kernels.h) are
# libtcprobe-kernels.a, a few seconds of nvcc.  The probes (probes/*/*.cu, their
# host descriptors beside their kernels) and the registry that names every one
# (REGISTRY_C) are linked only into tcprobe and the tests that need probes.
# The registry and what needs every probe: the table, the commands that hand it
# to the engine (run) or print it (list), and the host-only probe.
REGISTRY_C := harness/sweep/registry.c harness/cmd/cmd-list.c harness/cmd/cmd-run.c $(wildcard probes/host/*.c)
HARNESS_C  := $(filter-out harness/cmd/main.c $(REGISTRY_C),$(wildcard harness/*/*.c))
HARNESS_CC := $(wildcard harness/*/*.cc)
HARNESS_CU := $(wildcard harness/*/*.cu)
MODEL_C    := $(wildcard model/*.c)
COMMON_C   := $(wildcard probes/common/*.c)
TC_C       := $(wildcard probes/sm100/*.c)
PROBES_90  := $(wildcard probes/sm90/*.cu)
PROBES_100 := $(wildcard probes/sm100/*.cu)
PROBES_ALL := $(wildcard probes/all/*.cu)
PROBES_WARP := $(wildcard probes/warp/*.cu)
WARP_C     := $(wildcard probes/warp/*.c)
HEADERS    := $(wildcard harness/*/*.h model/*.h probes/*.h probes/common/*.h probes/common/*.cuh)

# ---- Emulation build ---------------------------------------------------------
# make EMULATE=1 (build-emu/tcprobe): the tcgen05 probes compiled for sm_90a with
# every tcgen05 instruction emulated in software and a protocol checker
# (probes/emu/, docs/emulation.md), so that they run end to end on a Hopper GPU.
# Every host object sees TCP_EMULATE_BUILD=1; the probe objects TCP_TC_EMU=1.
# The sm90 (wgmma) probes and the warp family are not in it.  The emulator's
# single-thread executors use local memory: no spill/lmem warnings as errors.
# The release build's objects, SASS rules and targets are untouched: nothing
# here reads build/, and check-sass never reads this tree.
ifeq ($(EMULATE),1)
SM90_BUILT    := sm_90a
TCGEN05_BUILT :=
WARP_BUILT    :=
WARP_PTX      :=
BUILT_TARGETS := sm_90a
SM90          := $(call gencode,sm_90a)
SM100         := $(SM90)
ALL_GENCODE   := $(SM90)
PROBES_90     :=
PROBES_WARP   :=
WARP_C        :=
EMU_C         := $(wildcard probes/emu/*.c)
REGISTRY_C    := harness/sweep/registry.c harness/cmd/cmd-list.c harness/cmd/cmd-run.c
CPPFLAGS      += -DTCP_EMULATE_BUILD=1
NVCCFLAGS     := $(filter-out -Xptxas=-warn-spills$(comma)-warn-lmem-usage,$(NVCCFLAGS))
endif

# calib and trap_check (probes/all): every target the build holds, the warp
# family's included, with the warp family's PTX, so that every GPU a probe runs on
# gets a clock calibration (an A100, an RTX 5090) and a forced-JIT run finds them.
ALL_PROBE_GENCODE := $(call gencode,$(sort $(SM90_BUILT) $(TCGEN05_BUILT) $(WARP_BUILT))) \
                     $(foreach a,$(WARP_PTX),-gencode=arch=compute_$(a),code=compute_$(a))

HOST_OBJS   := $(HARNESS_C:%.c=$(BUILD)/%.o) $(HARNESS_CC:%.cc=$(BUILD)/%.o) $(EMU_C:%.c=$(BUILD)/%.o) \
               $(MODEL_C:%.c=$(BUILD)/%.o) $(COMMON_C:%.c=$(BUILD)/%.o) $(TC_C:%.c=$(BUILD)/%.o) $(WARP_C:%.c=$(BUILD)/%.o)
KERNEL_OBJS := $(HARNESS_CU:%.cu=$(CU_BUILD)/%.o)
PROBE_OBJS  := $(PROBES_90:%.cu=$(CU_BUILD)/%.o) $(PROBES_100:%.cu=$(CU_BUILD)/%.o) \
               $(PROBES_ALL:%.cu=$(CU_BUILD)/%.o) $(PROBES_WARP:%.cu=$(CU_BUILD)/%.o)
REG_OBJS    := $(REGISTRY_C:%.c=$(BUILD)/%.o)
HOST_LIBS   := $(BUILD)/libtcprobe-host.a $(BUILD)/libtcprobe-kernels.a
# libtcprobe.a: everything tcprobe links but main.o (registry and probes
# included), a thin archive (it names the objects, copies none): the fuzz
# targets, the tests that need probes and tests/identity-check.sh link it.
LIB_OBJS    := $(REG_OBJS) $(PROBE_OBJS) $(HOST_OBJS) $(KERNEL_OBJS)

# The unit tests (tests/test-*.c, cmocka).  PROBE_TESTS need the probes: the
# registry's descriptors, a probe's kernels, or the tcprobe binary they run;
# every other one is a host test, linked with the host library alone: the
# readers of runs (analyze/: compare, fleet, gate, report, report-timers) ask
# no probe.  columns needs the registry: it checks every registered probe's
# axes against the fixed columns.
PROBE_TESTS := badenv block cli emulate inputs roles tc-aux tc-legal tmem-footprint \
               columns
TESTS       := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test-*.c))
PROBE_TEST_BINS := $(PROBE_TESTS:%=$(BUILD)/tests/test-%)
HOST_TESTS  := $(filter-out $(PROBE_TEST_BINS),$(TESTS))

# Header dependencies, generated by -MMD (gcc) / -MMD -MP (nvcc) at compile time.
# (The included rules must not become the default goal: `make` builds `all`.)
.DEFAULT_GOAL := all
-include $(shell find $(sort $(BUILD) $(CU_BUILD)) -name '*.d' 2>/dev/null)

# The objects that bake in -DTCP_GIT_COMMIT/-DTCP_GIT_DIRTY/-DTCP_CUDA_TOOLKIT rebuild
# when those change (a stamp rewritten only when its content differs), so that
# provenance.csv never records a stale commit.
GIT_STAMP := $(BUILD)/git-stamp.txt
GIT_STAMP_TEXT := $(GIT_COMMIT) $(GIT_DIRTY) $(NVCC_VERSION)
$(shell mkdir -p $(BUILD) && echo '$(GIT_STAMP_TEXT)' | cmp -s - $(GIT_STAMP) 2>/dev/null || echo '$(GIT_STAMP_TEXT)' > $(GIT_STAMP))
VERSION_OBJS := $(BUILD)/harness/store/provenance.o $(BUILD)/harness/measure/provenance-live.o $(BUILD)/harness/cmd/main.o
$(VERSION_OBJS): $(GIT_STAMP)
$(VERSION_OBJS) $(BUILD)/probes/common/probe-util.o: CPPFLAGS += $(VERSION_DEFS)
# Likewise the target selection: every probe object and the table of what the
# binary holds (probe-util.o) rebuild when ARCHS or the toolkit changes.
ARCH_STAMP := $(BUILD)/arch-stamp.txt
ARCH_STAMP_TEXT := $(NVCC_VERSION) $(BUILT_TARGETS)
CU_ARCH_STAMP := $(CU_BUILD)/arch-stamp.txt
$(foreach f,$(sort $(ARCH_STAMP) $(CU_ARCH_STAMP)),$(shell mkdir -p $(dir $f) && echo '$(ARCH_STAMP_TEXT)' | cmp -s - $f 2>/dev/null || echo '$(ARCH_STAMP_TEXT)' > $f))
$(PROBES_90:%.cu=$(CU_BUILD)/%.o) $(PROBES_100:%.cu=$(CU_BUILD)/%.o) $(PROBES_ALL:%.cu=$(CU_BUILD)/%.o): $(CU_ARCH_STAMP)
$(BUILD)/probes/common/probe-util.o: $(ARCH_STAMP)
$(BUILD)/probes/common/probe-util.o: CPPFLAGS += -DTCP_BUILD_TARGETS='"$(BUILT_TARGETS)"' \
	-DTCP_BUILD_LEFT_OUT='"$(LEFT_OUT_TEXT)"'

.PHONY: all test unit-tests sass-check cuda128-check plots plots-check clean
all: $(BUILD)/tcprobe

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# Host C++ (harness/measure/counters*.cc: CUPTI's profiler headers are C++ only).
# CUPTI's parameter structs are initialised { ..._STRUCT_SIZE }, the rest zero.
$(BUILD)/%.o: %.cc
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -MMD -MP -Wno-missing-field-initializers -c $< -o $@

$(CU_BUILD)/harness/%.o: harness/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(CPPFLAGS) $(NVCCFLAGS) -c $< -o $@
# its empty kernel: SASS for the probe targets, PTX for any other GPU (contention witness)
$(CU_BUILD)/harness/measure/launch-rtt-kernel.o: NVCCFLAGS += $(ALL_GENCODE) -gencode=arch=compute_80,code=compute_80

# The PTX of each probe and target is kept (ptx/FOLDER/NAME/NAME.compute_100a.ptx; nvcc's
# other intermediates deleted): cuda128-check assembles it with the older toolkits' ptxas
# instead of running the front end (cicc) again for every probe and target.
KEEP_PTX = -keep -keep-dir $(CU_BUILD)/ptx/$(notdir $(patsubst %/,%,$(dir $<)))/$*

$(CU_BUILD)/probes/sm90/%.o: probes/sm90/%.cu
	@rm -rf $(CU_BUILD)/ptx/sm90/$* && mkdir -p $(dir $@) $(CU_BUILD)/ptx/sm90/$*
	$(NVCC) $(CPPFLAGS) $(NVCCFLAGS) $(SM90) -Xptxas=-v $(KEEP_PTX) -c $< -o $@ 2> $(CU_BUILD)/probes/sm90/$*.ptxas.txt || { cat $(CU_BUILD)/probes/sm90/$*.ptxas.txt; exit 1; }
	@find $(CU_BUILD)/ptx/sm90/$* -type f ! -name '*.ptx' -delete

$(CU_BUILD)/probes/sm100/%.o: probes/sm100/%.cu
	@rm -rf $(CU_BUILD)/ptx/sm100/$* && mkdir -p $(dir $@) $(CU_BUILD)/ptx/sm100/$*
	$(NVCC) $(CPPFLAGS) $(NVCCFLAGS) $(SM100) -Xptxas=-v $(KEEP_PTX) -c $< -o $@ 2> $(CU_BUILD)/probes/sm100/$*.ptxas.txt || { cat $(CU_BUILD)/probes/sm100/$*.ptxas.txt; exit 1; }
	@find $(CU_BUILD)/ptx/sm100/$* -type f ! -name '*.ptx' -delete

$(CU_BUILD)/probes/all/%.o: probes/all/%.cu
	@rm -rf $(CU_BUILD)/ptx/all/$* && mkdir -p $(dir $@) $(CU_BUILD)/ptx/all/$*
	$(NVCC) $(CPPFLAGS) $(NVCCFLAGS) $(ALL_PROBE_GENCODE) -Xptxas=-v $(KEEP_PTX) -c $< -o $@ 2> $(CU_BUILD)/probes/all/$*.ptxas.txt || { cat $(CU_BUILD)/probes/all/$*.ptxas.txt; exit 1; }
	@find $(CU_BUILD)/ptx/all/$* -type f ! -name '*.ptx' -delete

$(CU_BUILD)/probes/warp/%.o: probes/warp/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(CPPFLAGS) $(filter-out -lineinfo,$(NVCCFLAGS)) $(WARP_GENCODE) -Xptxas=-v -c $< -o $@ 2> $(CU_BUILD)/probes/warp/$*.ptxas.txt || { cat $(CU_BUILD)/probes/warp/$*.ptxas.txt; exit 1; }

# The warp target set is baked into the objects: rebuild them when it changes.
WARP_STAMP := $(BUILD)/warp-archs.txt
CU_WARP_STAMP := $(CU_BUILD)/warp-archs.txt
$(foreach f,$(sort $(WARP_STAMP) $(CU_WARP_STAMP)),$(shell mkdir -p $(dir $f) && echo '$(WARP_GENCODE)' | cmp -s - $f 2>/dev/null || echo '$(WARP_GENCODE)' > $f))
$(PROBES_WARP:%.cu=$(CU_BUILD)/%.o): $(CU_WARP_STAMP)
CU_ALL_STAMP := $(CU_BUILD)/all-gencode.txt
$(shell mkdir -p $(CU_BUILD) && echo '$(ALL_PROBE_GENCODE)' | cmp -s - $(CU_ALL_STAMP) 2>/dev/null || echo '$(ALL_PROBE_GENCODE)' > $(CU_ALL_STAMP))
$(PROBES_ALL:%.cu=$(CU_BUILD)/%.o): $(CU_ALL_STAMP)
$(BUILD)/probes/common/probe-util.o: $(WARP_STAMP)
$(BUILD)/probes/common/probe-util.o: CPPFLAGS += -DTCP_BUILD_PTX80=$(if $(filter 80,$(WARP_PTX)),1,0)

ifeq ($(EMULATE),1)
$(PROBES_100:%.cu=$(CU_BUILD)/%.o) $(TC_C:%.c=$(BUILD)/%.o): CPPFLAGS += -DTCP_TC_EMU=1
# No tcgen05 mnemonic may reach the emulation build's PTX: every instruction
# the probes issue must have gone through the emulation.
$(BUILD)/emu-ptx-check.txt: $(PROBES_100:%.cu=$(CU_BUILD)/%.o)
	@hits=$$(grep -n -E '^[[:space:]]*(@[!%a-z0-9_]+[[:space:]]+)?tcgen05\.' $(CU_BUILD)/ptx/sm100/*/*.ptx); \
	if [ -n "$$hits" ]; then echo "$$hits" | head; \
	echo "emu-ptx-check: tcgen05 instructions in the emulation build's PTX ($$(echo "$$hits" | cut -d: -f1 | sort -u | wc -l) files)"; exit 1; fi; \
	echo "emu-ptx-check: OK: $$(ls $(CU_BUILD)/ptx/sm100/*/*.ptx | wc -l) PTX files, no tcgen05 instruction" | tee $@
$(BUILD)/tcprobe: | $(BUILD)/emu-ptx-check.txt
endif

$(BUILD)/libtcprobe-host.a: $(HOST_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libtcprobe-kernels.a: $(KERNEL_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libtcprobe.a: $(LIB_OBJS)
	@rm -f $@
	ar rcsT $@ $^

# The archives reference each other (the probes call the host library, the host
# library the harness's kernels): one group.
$(BUILD)/tcprobe: $(BUILD)/harness/cmd/main.o $(REG_OBJS) $(BUILD)/libtcprobe.a $(SAN_SHIM)
	$(CXX) $(SANFLAGS) -o $@ $(BUILD)/harness/cmd/main.o $(REG_OBJS) $(SAN_SHIM) \
		-Wl,--start-group $(BUILD)/libtcprobe.a -Wl,--end-group $(LDLIBS)

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(VERSION_DEFS) $(CFLAGS) -Itests -c $< -o $@
# (the one test that reads the commit / toolkit macros compares them with provenance's)
$(BUILD)/tests/test-provenance.o: $(GIT_STAMP)
# Kept: make would delete them as intermediates, and the next change to a library
# would recompile every test instead of relinking it.
.SECONDARY: $(patsubst tests/%.c,$(BUILD)/tests/%.o,$(wildcard tests/*.c))

# A host test (and any other test program: h200-trust-check): the host libraries alone.
$(BUILD)/tests/%: $(BUILD)/tests/%.o $(HOST_LIBS) $(SAN_SHIM)
	$(CXX) $(SANFLAGS) -o $@ $< $(HOST_LIBS) $(SAN_SHIM) -lcmocka $(LDLIBS)

$(PROBE_TEST_BINS): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(BUILD)/libtcprobe.a $(SAN_SHIM)
	$(CXX) $(SANFLAGS) -o $@ $< $(SAN_SHIM) -Wl,--start-group $(BUILD)/libtcprobe.a -Wl,--end-group -lcmocka $(LDLIBS)

# make check: every host unit test, h200-trust-check (the committed H200 runs'
# trust checks) and the model's CuTe cross-check (emu-cute-check), no probe
# compiled (cmocka and the CuTe headers: scripts/setup.sh --tests).  `make -j2
# check` runs two at a time (slowest first), each one's output kept in
# build/tests/NAME.log and shown when it fails.  Its cost (gcc 12, 2 cores, beside
# a low-priority build): 36 s wall, 56 s of CPU (user + sys) after a one-line change
# to one harness .c file in a tree where it ran (one object, the host archive, the
# relinks, the runs: test-emu-mma 15 s, test-tc-check 10 s, test-arch 6 s); 91 s
# wall, 161 s of CPU from a clean clone (about 60 s of it emu-cute-check's CuTe
# compile, below).
SLOW_TESTS      := $(addprefix $(BUILD)/tests/,test-emu-mma test-tc-check test-arch test-supervisor test-model-interp)
CHECK_PROGS     := $(HOST_TESTS) $(BUILD)/tests/h200-trust-check
HOST_TEST_RUNS  := $(patsubst $(BUILD)/tests/%,check-%,$(filter $(CHECK_PROGS),$(SLOW_TESTS)) $(filter-out $(SLOW_TESTS),$(CHECK_PROGS)))
.PHONY: check $(HOST_TEST_RUNS) sweep-calls-check function-length-check
check: $(HOST_TEST_RUNS) emu-cute-check sweep-calls-check function-length-check
	@echo "make check: all green ($(words $(CHECK_PROGS)) host test programs, emu-cute-check)"
$(HOST_TEST_RUNS): check-%: $(BUILD)/tests/%
	@$< > $(BUILD)/tests/$*.log 2>&1 || { cat $(BUILD)/tests/$*.log; echo "make check: $* FAILED (log: $(BUILD)/tests/$*.log)"; exit 1; }
	@echo "== $*: $$(grep -c '^\[       OK \]' $(BUILD)/tests/$*.log) OK"

# No function in harness/ over 80 lines (docs/architecture.md, Code size).
function-length-check:
	@tests/function-length-check.sh

# The files of harness/sweep/ call each other without a cycle, from their objects
# (supervisor-int.h and worker-int.h list each above the files it calls).
sweep-calls-check: $(patsubst %.c,$(BUILD)/%.o,$(wildcard harness/sweep/*.c))
	@tests/sweep-calls-check.sh $(BUILD)/harness/sweep

unit-tests: check $(PROBE_TEST_BINS) $(BUILD)/tcprobe
	@set -e; for t in $(PROBE_TEST_BINS); do echo "== $$t"; TCPROBE=$(BUILD)/tcprobe $$t; done

sass-check: $(PROBE_OBJS)
	scripts/ci/check-sass.sh $(BUILD)

# Every sm_100a probe object of this build (DEBUG=1 / TMEMCHECK=1: their own trees).
.PHONY: sm100-objs debug-build tmemcheck-build
sm100-objs: $(PROBES_100:%.cu=$(BUILD)/%.o)

# The cuda-gdb (-G) and TMEM-bounds-check builds of every tcgen05 probe: they
# must compile (a kernel holding both cta_group forms fails ptxas under -G).
# sm_100a only: the protocol code is the same source for every tcgen05 target
# (tc-arch.cuh only drops forms), and each more target multiplies the slowest
# compile of make test (docs/tests.md, "Compile time per target").
CHECK_ARCHS := $(filter sm_100a,$(TCGEN05_BUILT))
debug-build:
	$(MAKE) --no-print-directory DEBUG=1 BUILD=$(BUILD)-debug ARCHS="$(CHECK_ARCHS)" sm100-objs
tmemcheck-build:
	$(MAKE) --no-print-directory TMEMCHECK=1 BUILD=$(BUILD)-tmemcheck ARCHS="$(CHECK_ARCHS)" sm100-objs
# Both are compile checks of build variants, 18 minutes on 2 cores together (the
# TMEM-check ptxas alone ~10): .ci/run runs them after make test, not make test itself.
.PHONY: check-builds emu-build emu-mutants
# The emulation build (EMULATE=1, its own tree) compiles here and runs only on a GPU.
emu-build:
	$(MAKE) --no-print-directory EMULATE=1 BUILD=$(BUILD)-emu $(BUILD)-emu/tcprobe
# Every planted defect of probes/emu/tc-emu-mutants.h, run on the Hopper GPU found
# (the table says what each must show; exit 1 when one is not caught).
emu-mutants: emu-build
	TCPROBE_EMU=$(BUILD)-emu/tcprobe scripts/ci/emu-mutants.sh $(or $(OUT),results/h200-emulation/mutants)
check-builds: debug-build tmemcheck-build emu-build

# Every probe's PTX must also assemble with the oldest ptxas of each target:
# CUDA 12.8's for sm_90a/sm_100a, 12.9's for sm_103a (pip wheels
# nvidia-cuda-nvcc-cu12==12.8.* / 12.9.*): see the script's header.
cuda128-check: $(PROBES_90:%.cu=$(CU_BUILD)/%.o) $(PROBES_100:%.cu=$(CU_BUILD)/%.o) $(PROBES_ALL:%.cu=$(CU_BUILD)/%.o)
	scripts/ci/check-cuda128.sh $(CU_BUILD)

# The host code against the CUDA 12.8 and 12.9 headers (pip wheels in .whl/,
# scripts/setup.sh), besides the toolkit that builds it: see the script's header.
.PHONY: cuda-headers-check
cuda-headers-check:
	scripts/ci/check-cuda-headers.sh 12.8 12.9
# ... and cross-compiled for aarch64 (GB200/GB300 Grace, Thor, DGX Spark hosts)
# with Debian's aarch64 cross compiler and the aarch64 (sbsa) 12.8 wheels.
	CC=aarch64-linux-gnu-gcc CXX=aarch64-linux-gnu-g++ WHL_ARCH=aarch64 scripts/ci/check-cuda-headers.sh 12.8

# make test: what every change must pass, within 15 minutes on 2 cores (README "Tests").
# SANITIZE=1 runs the tests that execute host code again under ASan+UBSan; it leaves
# out what reads only the nvcc objects, scripts or committed files (identical in both
# passes: it links the release tree's nvcc objects) and fuzz-smoke (the fuzz targets
# are ASan+UBSan builds already).
BUILD_CHECKS := fuzz-smoke sass-rules-test sass-check cuda128-check cuda-headers-check racecheck-classify results-budget
test: unit-tests plots-check badenv-check slurm-test h200-trust-check aa-check summary-schema-check reports-check links-check $(if $(filter 1,$(SANITIZE)),,$(BUILD_CHECKS))
	@echo "make test: all green"

plots: $(BUILD)/tcprobe
	scripts/plots.sh $(RUN)

# The tracked results/ within 12 MB, big run files archived (docs/results.md, Size budget).
.PHONY: results-budget
results-budget:
	tests/results-budget.sh

# Every relative link and image of README.md and docs/*.md resolves to a tracked file;
# README.md at most 150 lines.
.PHONY: links-check
links-check:
	tests/links-check.sh

# Comments in harness/, probes/ and model/ say what is and why: no issue numbers, commit
# hashes or timeline phrases (the check proves itself on planted comments first).
.PHONY: history-comments-check
history-comments-check:
	tests/history-comments-check.sh
test: history-comments-check

# sanitize-gpu.sh's racecheck triage on the committed H200 racecheck logs.
.PHONY: racecheck-classify
racecheck-classify:
	tests/racecheck-classify-test.sh

# The SASS rules themselves, on hand-written kernels (no objects needed).
.PHONY: sass-rules-test
sass-rules-test:
	tests/sass-rules-test.sh

# Every plot rendered from a committed results directory, PNG and SVG checked.
# The contention and energy-order cases asserted on the committed H200 runs of scripts/device/trust-h200.sh
# (results/h200-contention, results/h200-energy-order); the checks first prove themselves
# on synthetic runs, right and wrong.
.PHONY: h200-trust-check
h200-trust-check: $(BUILD)/tests/h200-trust-check
	$(BUILD)/tests/h200-trust-check

# A/A: `tcprobe compare` exits 0 on every committed pair of runs of one binary with the
# same flags on one GPU, and on the pairs that exited 1 before metric roles
# (tests/aa-pairs.txt; the runs of scripts/device/aa.sh); prints the false-positive rate.
.PHONY: aa-check
aa-check: $(BUILD)/tcprobe
	TCPROBE=$(BUILD)/tcprobe tests/aa-check.sh

# summary.json's contract: the production code's summary.json of committed runs (against
# their baselines) validated against results/summary.schema.json (tests/summary-schema.py).
.PHONY: summary-schema-check
summary-schema-check: $(BUILD)/tcprobe
	TCPROBE=$(BUILD)/tcprobe tests/summary-schema-check.sh

# The readers and the writer of runs behave byte for byte as at BASE (a commit; default
# the one before this branch's first, HEAD~1): every committed run's extract and report,
# the committed comparisons, the fleet report, a host-only sweep and the dry-run plans,
# and every run the README, docs/, the tests and results/reports.txt cite is present.
# BASE_TREE=DIR reuses a built checkout of BASE (else one is built: slow).  Not in make
# test: a change that alters an output on purpose lists each diff with it.
.PHONY: identity-check
identity-check: $(BUILD)/tcprobe $(BUILD)/libtcprobe.a
	tests/identity-check.sh $(or $(BASE),HEAD~1)

# Every report results/ keeps (results/reports.txt) is what this tree writes: report.md,
# summary.json, the README run's plot data and the fleet report, byte for byte.
# `make reports` regenerates them all, PDF and PNGs included (Chromium, poppler-utils).
.PHONY: reports reports-check
reports: $(BUILD)/tcprobe
	TCPROBE=$(BUILD)/tcprobe scripts/reports.sh
reports-check: $(BUILD)/tcprobe
	TCPROBE=$(BUILD)/tcprobe scripts/reports.sh --check

# The Slurm path (scripts/tcprobe-slurm) against a real single-node Slurm on localhost.
.PHONY: slurm-test
slurm-test: $(BUILD)/tcprobe
	tests/slurm-test.sh

# Every plot from committed H200 runs: the default sweep, and the energy run with its trace.
plots-check: $(BUILD)/tcprobe
	TCPROBE=$(BUILD)/tcprobe tests/plots-check.sh
	TCPROBE=$(BUILD)/tcprobe PLOTS_CHECK_RUN=results/h200-energy-sustain tests/plots-check.sh
	TCPROBE=$(BUILD)/tcprobe PLOTS_CHECK_RUN=results/h200-energy tests/plots-check.sh
	TCPROBE=$(BUILD)/tcprobe tests/fleet-plot-check.sh

# libFuzzer targets (tests/fuzz/fuzz-*.c, see their header comments): the parsers
# under test built by clang with fuzzer+ASan+UBSan instrumentation, the rest of the
# binary (probe registry, CUDA runtime) taken from libtcprobe.a.  `make fuzz` runs
# each target FUZZ_SECONDS; `make fuzz-smoke` (part of `make test`) FUZZ_SMOKE_SECONDS (5 s a
# target: a smoke run of the seeds and their first mutations, within make test's budget).
# Needs clang and libclang-rt-14-dev (Debian).
FUZZ_CC      ?= clang
FUZZ_CXX     ?= clang++
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 5
FUZZ_FLAGS   := -std=c11 -D_GNU_SOURCE -O1 -g -fno-omit-frame-pointer \
                -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_SRCS    := harness/sweep/spec.c harness/sweep/plan.c harness/store/csvio.c harness/store/run.c harness/store/metrics.c harness/analyze/compare.c harness/store/provenance.c
FUZZ_OBJS    := $(FUZZ_SRCS:%.c=$(BUILD)/fuzz/obj/%.o)
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz-%.c,$(BUILD)/fuzz/fuzz-%,$(wildcard tests/fuzz/fuzz-*.c))
.SECONDARY: $(FUZZ_OBJS)

$(BUILD)/fuzz/obj/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(BUILD)/fuzz/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz-util.h $(FUZZ_OBJS) $(BUILD)/libtcprobe.a
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer -c $< -o $@.o
	$(FUZZ_CXX) $(filter-out -std=c11,$(FUZZ_FLAGS)) -fsanitize=fuzzer -o $@ $@.o $(FUZZ_OBJS) $(BUILD)/libtcprobe.a $(LDLIBS)

# Bad environments (no GPU, old driver, read-only/full results, no gnuplot/libcupti):
# one-line diagnosis and its exit status each (docs/exit-codes.md).
.PHONY: badenv-check
badenv-check: $(BUILD)/tcprobe
	tests/badenv-test.sh $(BUILD)/tcprobe

.PHONY: fuzz fuzz-smoke fuzz-build
fuzz-build: $(FUZZ_TARGETS)

fuzz: $(FUZZ_TARGETS)
	tests/fuzz/run-fuzz.sh $(BUILD)/fuzz $(FUZZ_SECONDS)

fuzz-smoke: $(FUZZ_TARGETS)
	tests/fuzz/run-fuzz.sh $(BUILD)/fuzz $(FUZZ_SMOKE_SECONDS)

clean:
	rm -rf $(BUILD)
# ---- emu-cute-check (begin)
# The emulation's descriptor decoders (probes/emu/emu-decode.h) and model/'s
# encoders against CUTLASS CuTe on the host (tests/emu-cute-check.cc).  CuTe's
# headers come from the pinned nvidia-cutlass wheel (scripts/setup.sh); a
# missing include folder fails the check.  Compile and run: about 60 s on 2
# cores (the run itself well under a second).
CUTLASS_INCLUDE ?= .whl/cutlass/cutlass_library/source/include
EMU_CUTE_DEPS := probes/emu/emu-decode.h probes/emu/emu-view.h model/hd.h model/idesc.h model/kinds.h \
                 model/sdesc.h model/smem-layout.h
.PHONY: emu-cute-check
emu-cute-check: $(BUILD)/tests/emu-cute-check
	$(BUILD)/tests/emu-cute-check
$(BUILD)/tests/emu-cute-check: tests/emu-cute-check.cc $(EMU_CUTE_DEPS)
	@test -d $(CUTLASS_INCLUDE)/cute || { echo "emu-cute-check: no CuTe headers in $(CUTLASS_INCLUDE) (scripts/setup.sh installs them)"; exit 1; }
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -O1 -Wall -Wextra -I. -isystem $(CUDA_HOME)/include -isystem $(CUDA_HOME)/include/cccl \
		-isystem $(CUTLASS_INCLUDE) $< -o $@
BUILD_CHECKS += emu-cute-check
# test's prerequisites were expanded where test is defined (above): name it there too
ifneq ($(SANITIZE),1)
test: emu-cute-check
endif
# ---- emu-cute-check (end)
