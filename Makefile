# tcprobe: one binary (build/tcprobe), its tests, its plots.
#
#   make            build build/tcprobe (needs the CUDA toolkit, no GPU)
#   make test       unit tests (cmocka), probe builds for sm_90a and sm_100a, SASS checks
#   make plots RUN=results/<dir>   render every plot of one run
#
# Sources are found by wildcard: a new file in harness/, model/ or probes/ needs
# no edit here.  probes/sm90/*.cu build for sm_90a only, probes/sm100/*.cu for
# sm_100a only, probes/all/*.cu for both.

CUDA_HOME ?= /usr/local/cuda
NVCC      ?= $(CUDA_HOME)/bin/nvcc
CC        ?= gcc
CXX       ?= g++
BUILD     ?= build

GIT_COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
GIT_DIRTY  := $(shell test -n "$$(git status --porcelain --untracked-files=no 2>/dev/null)" && echo 1 || echo 0)
NVCC_VERSION := $(shell $(NVCC) --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p')

SM90  := -gencode=arch=compute_90a,code=sm_90a
SM100 := -gencode=arch=compute_100a,code=sm_100a

ifeq ($(SANITIZE),1)
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer
endif

CPPFLAGS  := -I. -I$(CUDA_HOME)/include \
             -DTCP_GIT_COMMIT='"$(GIT_COMMIT)"' -DTCP_GIT_DIRTY=$(GIT_DIRTY) \
             -DTCP_CUDA_TOOLKIT='"$(NVCC_VERSION)"'
CFLAGS    ?= -O2 -g
CFLAGS    += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow $(SANFLAGS)
CXXFLAGS  ?= -O2 -g
CXXFLAGS  += -std=c++17 -Wall -Wextra $(SANFLAGS)
# C7510 (wgmma serialised) and spills are errors, not warnings.
NVCCFLAGS ?= -O3 -std=c++17 -lineinfo -Xptxas=-warn-spills,-warn-lmem-usage -Werror all-warnings \
             -Xcompiler=-Wall
LDLIBS    := -L$(CUDA_HOME)/lib64 -lcupti -lcudart_static -l:libcsv.a -lm -ldl -lpthread -lrt \
             -Wl,-rpath,$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/extras/CUPTI/lib64

HARNESS_C  := $(filter-out harness/main.c,$(wildcard harness/*.c))
HARNESS_CU := $(wildcard harness/*.cu)
MODEL_C    := $(wildcard model/*.c)
COMMON_C   := $(wildcard probes/common/*.c)
PROBES_HOST := $(wildcard probes/host/*.c)
PROBES_90  := $(wildcard probes/sm90/*.cu)
PROBES_100 := $(wildcard probes/sm100/*.cu)
PROBES_ALL := $(wildcard probes/all/*.cu)
HEADERS    := $(wildcard harness/*.h model/*.h probes/*.h probes/common/*.h probes/common/*.cuh)

LIB_OBJS := $(HARNESS_C:%.c=$(BUILD)/%.o) $(MODEL_C:%.c=$(BUILD)/%.o) $(COMMON_C:%.c=$(BUILD)/%.o) $(PROBES_HOST:%.c=$(BUILD)/%.o) \
            $(HARNESS_CU:%.cu=$(BUILD)/%.o) $(PROBES_90:%.cu=$(BUILD)/%.o) \
            $(PROBES_100:%.cu=$(BUILD)/%.o) $(PROBES_ALL:%.cu=$(BUILD)/%.o)

TESTS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test-*.c))

.PHONY: all test unit-tests sass-check cuda128-check plots clean
all: $(BUILD)/tcprobe

$(BUILD)/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/harness/%.o: harness/%.cu $(HEADERS)
	@mkdir -p $(dir $@)
	$(NVCC) $(CPPFLAGS) $(NVCCFLAGS) -c $< -o $@

$(BUILD)/probes/sm90/%.o: probes/sm90/%.cu $(HEADERS)
	@mkdir -p $(dir $@)
	$(NVCC) $(CPPFLAGS) $(NVCCFLAGS) $(SM90) -Xptxas=-v -c $< -o $@ 2> $(BUILD)/probes/sm90/$*.ptxas.txt || { cat $(BUILD)/probes/sm90/$*.ptxas.txt; exit 1; }

$(BUILD)/probes/sm100/%.o: probes/sm100/%.cu $(HEADERS)
	@mkdir -p $(dir $@)
	$(NVCC) $(CPPFLAGS) $(NVCCFLAGS) $(SM100) -Xptxas=-v -c $< -o $@ 2> $(BUILD)/probes/sm100/$*.ptxas.txt || { cat $(BUILD)/probes/sm100/$*.ptxas.txt; exit 1; }

$(BUILD)/probes/all/%.o: probes/all/%.cu $(HEADERS)
	@mkdir -p $(dir $@)
	$(NVCC) $(CPPFLAGS) $(NVCCFLAGS) $(SM90) $(SM100) -Xptxas=-v -c $< -o $@ 2> $(BUILD)/probes/all/$*.ptxas.txt || { cat $(BUILD)/probes/all/$*.ptxas.txt; exit 1; }

$(BUILD)/libtcprobe.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/tcprobe: $(BUILD)/harness/main.o $(BUILD)/libtcprobe.a
	$(CXX) $(SANFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: tests/%.c $(BUILD)/libtcprobe.a $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Itests -c $< -o $@.o
	$(CXX) $(SANFLAGS) -o $@ $@.o $(BUILD)/libtcprobe.a -lcmocka $(LDLIBS)

unit-tests: $(TESTS) $(BUILD)/tcprobe
	@set -e; for t in $(TESTS); do echo "== $$t"; $$t; done

sass-check: $(BUILD)/libtcprobe.a
	scripts/check-sass.sh $(BUILD)

# Every probe's PTX must also assemble with CUDA 12.8's ptxas (pip wheel
# nvidia-cuda-nvcc-cu12==12.8.*): see the script's header.
cuda128-check:
	scripts/check-cuda128.sh $(BUILD)

test: unit-tests sass-check cuda128-check
	@echo "make test: all green"

plots:
	scripts/plots.sh $(RUN)

clean:
	rm -rf $(BUILD)
