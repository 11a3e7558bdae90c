/*
 * counters.cc
 *	CUPTI hardware counters (Range Profiler + Profiler Host API) behind the
 *	plain C interface of counters.h, host half.  With counters-session.cc (the
 *	device session: open / measure / close) the only translation units that
 *	see the profiler headers (cupti_profiler_host.h is C++ only); what they
 *	share is in counters-cupti.h.
 *
 *	Layout: library loader, metric tables, error texts, host-side metric
 *	resolution (no GPU), accessors, CSV rows.
 *
 *	libcupti is dlopen'ed rather than linked, so that a binary built here
 *	runs (timing only) where CUPTI is missing, and so that libnvperf_host.so,
 *	which libcupti dlopens by bare name, can be preloaded from libcupti's own
 *	directory (an rpath does not reach a library's own dlopen calls).
 */
#include <dlfcn.h>
#include <link.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_version.h>

#include "harness/measure/counters-cupti.h"

using namespace tcp_cupti;

/* The libcupti of the toolkit we were built with (its major version). */
#if CUDA_VERSION >= 13000
#define TCP_CUPTI_SONAME "libcupti.so.13"
#else
#define TCP_CUPTI_SONAME "libcupti.so.12"
#endif
#if defined(__aarch64__)
#define TCP_CUDA_TARGET_DIR "sbsa-linux"
#else
#define TCP_CUDA_TARGET_DIR "x86_64-linux"
#endif

/* CUPTI 13.0 named error 46; a libcupti 13 loaded under CUDA 12.8/12.9
 * headers (CUPTI_API_VERSION 26/28) still returns it. */
#if CUPTI_API_VERSION >= 130000
#define TCP_CUPTI_ERROR_INVALID_CHIP_NAME CUPTI_ERROR_INVALID_CHIP_NAME
#else
#define TCP_CUPTI_ERROR_INVALID_CHIP_NAME ((CUptiResult)46)
#endif

/* ------------------------------------------------------------------ */
/* Library loader                                                      */
/* ------------------------------------------------------------------ */

tcp_cupti::lib tcp_cupti::C;

#define LOADER_REMEDY \
	"install CUDA 13 CUPTI, or export LD_LIBRARY_PATH=$CUDA_HOME/lib64 or " \
	"TCPROBE_CUPTI_LIB=/path/libcupti.so.13"

static void *try_open(const char *path)
{
	return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

/* dlopen libcupti: TCPROBE_CUPTI_LIB, else the bare soname (LD_LIBRARY_PATH,
 * the binary's rpath, ld.so.cache), then the toolkit's folders.  The
 * handle, or NULL with C.err set. */
static void *open_cupti(void)
{
	const char *env = getenv("TCPROBE_CUPTI_LIB");
	if (env && *env) {
		void *l = try_open(env);
		if (!l)
			snprintf(C.err, sizeof(C.err), "TCPROBE_CUPTI_LIB: %.100s; remedy: " LOADER_REMEDY, dlerror());
		return l;
	}
	void *l = try_open(TCP_CUPTI_SONAME);
	/* lib64 (a link in every toolkit), then the layout's own folder:
	 * targets/x86_64-linux or, on Grace / Thor / DGX Spark, targets/sbsa-linux */
	const char *const dirs[] = { "lib64", "extras/CUPTI/lib64", "targets/" TCP_CUDA_TARGET_DIR "/lib" };
	const char *home = getenv("CUDA_HOME");
	char cand[512];
	for (int d = 0; !l && d < 3; d++) {
		if (home && *home) {
			snprintf(cand, sizeof(cand), "%s/%s/" TCP_CUPTI_SONAME, home, dirs[d]);
			l = try_open(cand);
		}
		if (!l) {
			snprintf(cand, sizeof(cand), "/usr/local/cuda/%s/" TCP_CUPTI_SONAME, dirs[d]);
			l = try_open(cand);
		}
	}
	if (!l)
		snprintf(C.err, sizeof(C.err), TCP_CUPTI_SONAME " not found; remedy: " LOADER_REMEDY);
	return l;
}

/* Every function of CUPTI_FUNCS from C.lib: 0, or -1 with C.err set. */
static int resolve_functions(void)
{
#define CUPTI_SYM(f)                                                                        \
	C.f = (decltype(C.f))dlsym(C.lib, #f);                                              \
	if (!C.f) {                                                                         \
		snprintf(C.err, sizeof(C.err), "libcupti lacks %s (older than 13.0?); "     \
			 "remedy: " LOADER_REMEDY, #f);                                     \
		return -1;                                                                  \
	}
	CUPTI_FUNCS(CUPTI_SYM)
#undef CUPTI_SYM
	return 0;
}

/* dlopen dir/name with RTLD_GLOBAL, else the bare name. */
static void preload(const char *dir, const char *name)
{
	char p[600];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	if (!dlopen(p, RTLD_NOW | RTLD_GLOBAL))
		dlopen(name, RTLD_NOW | RTLD_GLOBAL);
}

/*
 * tcp_cupti::load()
 *	Find libcupti.so.13, resolve every function we use, and preload the
 *	nvperf libraries from its directory.  0, or -1 with C.err set.
 *	Called from the worker's one thread (not thread-safe by design).
 */
int tcp_cupti::load(void)
{
	if (C.state)
		return C.state > 0 ? 0 : -1;
	C.state = -1;
	C.lib = open_cupti();
	if (!C.lib)
		return -1;
	struct link_map *lm = NULL;
	if (dlinfo(C.lib, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name)
		snprintf(C.path, sizeof(C.path), "%s", lm->l_name);
	if (resolve_functions())
		return -1;
	/*
	 * libcupti dlopens "libnvperf_host.so" by soname; once a library with
	 * that soname is loaded, the dynamic loader reuses it.  Load it (and
	 * the target half) from libcupti's directory, where the toolkit puts it.
	 * Not fatal here: the host API then reports its own error.
	 */
	char dir[512];
	snprintf(dir, sizeof(dir), "%s", C.path);
	char *slash = strrchr(dir, '/');
	if (slash) {
		*slash = 0;
		preload(dir, "libnvperf_host.so");
		preload(dir, "libnvperf_target.so");
	}
	C.state = 1;
	return 0;
}

void *tcp_cupti_sym(const char *name, char *reason, size_t len)
{
	if (load()) {
		snprintf(reason, len, "%s", C.err);
		return NULL;
	}
	void *p = dlsym(C.lib, name);
	if (!p)
		snprintf(reason, len, "libcupti lacks %s; remedy: " LOADER_REMEDY, name);
	return p;
}

/* ------------------------------------------------------------------ */
/* Metric tables                                                       */
/* ------------------------------------------------------------------ */

/* Shared head of every set: time, cycles, clock (ncu's names for them). */
#define SET_COMMON \
	{ "gpu__time_duration.sum", "ns", TCP_ROLLUP_SUM, 1, TCP_CTR_DURATION, \
	  "kernel duration, summed over the kernels of one run()" }, \
	{ "gpc__cycles_elapsed.max", "cycles", TCP_ROLLUP_SUM, 1, TCP_CTR_PLAIN, \
	  "elapsed cycles (busiest GPC), as ncu's Elapsed Cycles" }, \
	{ "sm__cycles_active.avg", "cycles", TCP_ROLLUP_SUM, 1, TCP_CTR_PLAIN, \
	  "cycles with a warp resident, mean over SMs" }, \
	{ "gpc__cycles_elapsed.avg.per_second", "MHz", TCP_ROLLUP_AVG, 1e-6, TCP_CTR_CLOCK, \
	  "SM (GPC) clock during the kernels" }

#define SET_DRAM \
	{ "dram__bytes_read.sum", "B", TCP_ROLLUP_SUM, 1, TCP_CTR_PLAIN, "bytes read from DRAM" }, \
	{ "dram__bytes_write.sum", "B", TCP_ROLLUP_SUM, 1, TCP_CTR_PLAIN, "bytes written to DRAM" }

/* Every set has it; the sets differ in what else counts the tensor core. */
#define TENSOR_ACTIVE_MAX \
	{ "sm__pipe_tensor_cycles_active.max", "cycles", TCP_ROLLUP_SUM, 1, TCP_CTR_PLAIN, \
	  "tensor pipe active cycles, busiest SM" }

/*
 * GH100: the set needs 2 replay passes under these names (CUDA 13.0 host
 * API): the tensor-pipe instruction counters (gmma: 1 raw counter; all
 * tensor instructions: 3, the hmma + imma + dmma ones) and the tensor-pipe
 * active cycles (1) are 5 raw counters that do not fit one pass together
 * (without any one of the 3 metrics they do).  The TPC triage group's
 * per-SM counter (`TPC.TriageCompute.sm__pipe_tensor_cycles_active_realtime`)
 * counts the same active cycles exactly and fits one pass beside the other
 * 4, but that one-pass set costs more per point on an H200 than the two
 * passes (CUPTI's Start for it alone outweighs them: docs/findings.md,
 * "What the harness costs"), so the set keeps these names and 2 passes.
 * (Found with cuptiProfilerHostGetNumOfPasses on subsets and
 * NVPW_MetricsEvaluator_GetMetricRawDependencies.)
 */
static const tcp_counter_metric_t set_hopper[] = {
	SET_COMMON,
	TENSOR_ACTIVE_MAX,
	{ "sm__pipe_tensor_cycles_active.avg", "cycles", TCP_ROLLUP_SUM, 1, TCP_CTR_PLAIN,
	  "tensor pipe active cycles, mean over SMs" },
	{ "sm__inst_executed_pipe_tensor_op_gmma.sum", "insts", TCP_ROLLUP_SUM, 1, TCP_CTR_TENSOR_INSTS,
	  "HGMMA/QGMMA/IGMMA/BGMMA warp instructions (checked against the issued count)" },
	{ "sm__inst_executed_pipe_tensor.sum", "insts", TCP_ROLLUP_SUM, 1, TCP_CTR_PLAIN,
	  "every tensor pipe warp instruction (gmma, hmma, imma, dmma)" },
	SET_DRAM,
};

static const tcp_counter_metric_t set_blackwell_dc[] = {
	SET_COMMON,
	TENSOR_ACTIVE_MAX,
	{ "sm__pipe_tc_cycles_active.max", "cycles", TCP_ROLLUP_SUM, 1, TCP_CTR_PLAIN,
	  "TC (tcgen05 issue) pipe active cycles, busiest SM" },
	{ "sm__sass_inst_executed_op_utcmma.sum", "insts", TCP_ROLLUP_SUM, 1, TCP_CTR_TENSOR_INSTS,
	  "UTC*MMA warp instructions = tcgen05.mma (checked against the issued count)" },
	{ "sm__inst_executed_pipe_tc.sum", "insts", TCP_ROLLUP_SUM, 1, TCP_CTR_PLAIN,
	  "TC pipe warp instructions: UTCMMA, UTCCP, UTCBAR (commit), UTCSHIFT" },
	{ "sm__inst_executed_pipe_tmem.sum", "insts", TCP_ROLLUP_SUM, 1, TCP_CTR_PLAIN,
	  "TMEM pipe warp instructions (tcgen05.ld/st/alloc)" },
	{ "sm__mem_tensor_reads.sum", "accesses", TCP_ROLLUP_SUM, 1, TCP_CTR_PLAIN,
	  "TMEM reads: LDT/LDTM, UTCMMA (accumulator), UTCSHIFT" },
	{ "sm__mem_tensor_writes.sum", "accesses", TCP_ROLLUP_SUM, 1, TCP_CTR_PLAIN,
	  "TMEM writes: STT/STTM, UTCMMA, UTCCP, UTCSHIFT" },
	{ "sm__mem_tensor_cycles_active.max", "cycles", TCP_ROLLUP_SUM, 1, TCP_CTR_PLAIN,
	  "TMEM active cycles, busiest SM" },
	SET_DRAM,
};

/* Unknown chips: what most CUPTI chips have; open() drops the rest. */
static const tcp_counter_metric_t set_generic[] = {
	SET_COMMON,
	TENSOR_ACTIVE_MAX,
	{ "sm__inst_executed_pipe_tensor.sum", "insts", TCP_ROLLUP_SUM, 1, TCP_CTR_PLAIN,
	  "tensor pipe warp instructions (not checked: what it counts varies by chip)" },
	SET_DRAM,
};


static const struct {
	const char *set_name;
	const char *const chips[4];	/* NULL-terminated */
	const int ccs[3];		/* 0-terminated */
	const tcp_counter_metric_t *set;
	int n;
} sets[] = {
	{ "hopper", { "GH100", NULL }, { 90, 0 }, set_hopper, NELEM(set_hopper) },
	/* GB102 and GB110 accept every name of the set (CUDA 13.0 host API) */
	{ "blackwell-dc", { "GB100", "GB102", "GB110", NULL }, { 100, 103, 0 },
	  set_blackwell_dc, NELEM(set_blackwell_dc) },
};

const tcp_counter_metric_t *tcp_counters_default_set(const char *chip, int *n, const char **set_name)
{
	for (int s = 0; chip && s < NELEM(sets); s++)
		for (int c = 0; sets[s].chips[c]; c++)
			if (!strcmp(chip, sets[s].chips[c])) {
				*n = sets[s].n;
				if (set_name)
					*set_name = sets[s].set_name;
				return sets[s].set;
			}
	*n = NELEM(set_generic);
	if (set_name)
		*set_name = "generic";
	return set_generic;
}

const char *tcp_counters_chip_for_cc(int cc)
{
	for (int s = 0; s < NELEM(sets); s++)
		for (int c = 0; sets[s].ccs[c]; c++)
			if (sets[s].ccs[c] == cc)
				return sets[s].chips[0];
	return NULL;
}

/* The table row for a name in a set, for LIST specs to inherit unit/role. */
static const tcp_counter_metric_t *find_in(const tcp_counter_metric_t *set, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(set[i].name, name))
			return &set[i];
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Error texts                                                         */
/* ------------------------------------------------------------------ */

/* What the user can do about a CUPTI error; a remedy is short enough that
 * "<CUPTI_ERROR_...> in <call>; remedy: <this>" fits a TCP_REASON_LEN reason
 * (tests/test-counters.c checks).  Some errors share one. */
#define REMEDY_LEGACY "the legacy CUPTI event API is active in this process: do not mix profilers"
#define REMEDY_NO_PROFILER \
	"no range profiler on this GPU/driver (needs cc >= 7.0, a CUDA 13 driver): --counters none"
#define REMEDY_MISMATCH "libcupti and driver do not match: use a toolkit not newer than the driver"

static const struct {
	int code;		/* CUptiResult */
	const char *remedy;
} remedies[] = {
	{ CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, "counters are admin-only: load nvidia with "
	  "NVreg_RestrictProfilingToAdminUsers=0 or run with CAP_SYS_ADMIN (or CAP_PERFMON)" },
	{ CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES,
	  "the hypervisor forbids profiling on this vGPU: ask to enable vGPU profiling, or use bare metal" },
	{ CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED,
	  "no counters on this virtualised GPU: use bare metal or GPU passthrough" },
	{ CUPTI_ERROR_HARDWARE_BUSY, "another process holds the counters (ncu, nsys, DCGM profiling, "
	  "another tcprobe): stop it or dcgmi profile --pause" },
	{ CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED,
	  "another profiler is attached to this process (under ncu/nsys?): run without it, or --counters none" },
	{ CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED, REMEDY_LEGACY },
	{ CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED, REMEDY_LEGACY },
	{ CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED,
	  "confidential computing mode forbids profiling: turn CC mode off" },
	{ CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED, "NVIDIA CMP GPUs cannot be profiled: --counters none" },
	{ CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED, "no counters on this MIG instance: turn MIG off or --counters none" },
	{ CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED, "profiling does not work with SLI: disable SLI" },
	{ CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED, "profiling does not work under this WSL setup: use native Linux" },
	{ CUPTI_ERROR_INVALID_METRIC_NAME,
	  "metric unknown for this chip: tcprobe counters --list --all --chip <chip>" },
	{ TCP_CUPTI_ERROR_INVALID_CHIP_NAME, "this CUPTI does not know the chip: use a newer CUDA toolkit" },
	{ CUPTI_ERROR_NOT_SUPPORTED, REMEDY_NO_PROFILER },
	{ CUPTI_ERROR_API_NOT_IMPLEMENTED, REMEDY_NO_PROFILER },
	{ CUPTI_ERROR_NOT_COMPATIBLE, REMEDY_MISMATCH },
	{ CUPTI_ERROR_NOT_INITIALIZED, REMEDY_MISMATCH },
	{ CUPTI_ERROR_INVALID_CONTEXT, "no current CUDA context (tcprobe bug: open counters after the context)" },
	{ CUPTI_ERROR_OUT_OF_MEMORY, "out of memory for the counter images: fewer metrics" },
};

const char *tcp_counters_remedy(int r)
{
	for (int i = 0; i < NELEM(remedies); i++)
		if (remedies[i].code == r)
			return remedies[i].remedy;
	return "see the CUPTI docs for this code; --counters none skips counters";
}

char *tcp_counters_error_text(int r, const char *where, char *buf, size_t len)
{
	const char *name = NULL;
	if (load() == 0)
		C.cuptiGetResultString((CUptiResult)r, &name);
	char num[32];
	if (!name) {
		snprintf(num, sizeof(num), "CUPTI error %d", r);
		name = num;
	}
	snprintf(buf, len, "%s in %s; remedy: %s", name, where, tcp_counters_remedy(r));
	return buf;
}


/* ------------------------------------------------------------------ */
/* Host side: resolve a spec for a chip (no GPU)                        */
/* ------------------------------------------------------------------ */

int tcp_cupti::host_init(const char *chip, const uint8_t *avail, CUpti_Profiler_Host_Object **host,
			 char *reason, size_t len)
{
	CUpti_Profiler_Host_Initialize_Params p = { CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE };
	p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
	p.pChipName = chip;
	p.pCounterAvailabilityImage = avail;
	CUPTI_TRY(C.cuptiProfilerHostInitialize(&p), "cuptiProfilerHostInitialize");
	*host = p.pHostObject;
	return 0;
fail:
	return -1;
}

void tcp_cupti::host_deinit(CUpti_Profiler_Host_Object *host)
{
	if (!host)
		return;
	CUpti_Profiler_Host_Deinitialize_Params p = { CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE };
	p.pHostObject = host;
	C.cuptiProfilerHostDeinitialize(&p);
}

const char *const *tcp_counters_chips(char *reason, size_t len)
{
	if (load()) {
		snprintf(reason, len, "%s", C.err);
		return NULL;
	}
	static const char *list[64];
	CUpti_Profiler_Host_GetSupportedChips_Params p = {
		CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE };
	CUPTI_TRY(C.cuptiProfilerHostGetSupportedChips(&p), "cuptiProfilerHostGetSupportedChips");
	{
		size_t n = p.numChips < 63 ? p.numChips : 63;
		for (size_t i = 0; i < n; i++)
			list[i] = p.ppChipNames[i];
		list[n] = NULL;
	}
	return list;
fail:
	return NULL;
}

static int chip_known(const char *chip, char *reason, size_t len)
{
	const char *const *chips = tcp_counters_chips(reason, len);
	if (!chips)
		return -1;
	for (int i = 0; chips[i]; i++)
		if (!strcmp(chips[i], chip))
			return 0;
	size_t o = (size_t)snprintf(reason, len, "unknown chip '%s' (CUPTI knows:", chip);
	for (int i = 0; chips[i] && o < len; i++)
		o += (size_t)snprintf(reason + o, len - o, "%s%s", i ? ", " : " ", chips[i]);
	if (o < len)
		snprintf(reason + o, len - o, ")");
	return -1;
}

static const char *csv_unit(const char *dim, char *buf, size_t len)
{
	static const struct { const char *dim, *unit; } map[] = {
		{ "nanosecond", "ns" }, { "gpc_cycle", "cycles" }, { "cycle", "cycles" },
		{ "instruction", "insts" }, { "byte", "B" }, { "tmem_access", "accesses" },
		{ "gpc_cycle/second", "Hz" }, { "byte/second", "B/s" }, { "percent", "%" },
	};
	for (int i = 0; i < NELEM(map); i++)
		if (dim && !strcmp(dim, map[i].dim))
			return map[i].unit;
	snprintf(buf, len, "%s", dim && *dim ? dim : "1");
	return buf;
}

/* Ratios and rates average over kernels; everything else adds up. */
static tcp_rollup_t rollup_of(const char *name)
{
	static const char *const rates[] = { "per_second", ".pct", ".ratio", "per_cycle", "peak_" };
	for (int i = 0; i < NELEM(rates); i++)
		if (strstr(name, rates[i]))
			return TCP_ROLLUP_AVG;
	return TCP_ROLLUP_SUM;
}

/* Append metric `name` to t (from `row` when known, else described by CUPTI). */
static int add_metric(tcp_counters_t *t, const char *name, const tcp_counter_metric_t *row,
		      char *reason, size_t len)
{
	if (t->n == TCP_COUNTERS_MAX_METRICS) {
		snprintf(reason, len, "too many counter metrics (at most %d)", TCP_COUNTERS_MAX_METRICS);
		return -1;
	}
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->m[i].name, name))
			return 0;	/* listed twice: once is enough */
	int i = t->n;
	if (strlen(name) >= sizeof(t->names[i])) {
		snprintf(reason, len, "counter metric name too long: '%.40s...'", name);
		return -1;
	}
	CUpti_Profiler_Host_GetMetricProperties_Params p = {
		CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE };
	p.pHostObject = t->host;
	p.pMetricName = name;
	CUptiResult r = C.cuptiProfilerHostGetMetricProperties(&p);
	if (r != CUPTI_SUCCESS) {
		if (r == CUPTI_ERROR_INVALID_METRIC_NAME)
			snprintf(reason, len, "unknown counter metric '%s' for %s (legal: tcprobe counters "
				 "--list --all --chip %s)", name, t->chip, t->chip);
		else
			tcp_counters_error_text(r, "cuptiProfilerHostGetMetricProperties", reason, len);
		return -1;
	}
	snprintf(t->names[i], sizeof(t->names[i]), "%s", name);
	if (row) {
		t->m[i] = *row;
	} else {
		char ub[32];
		snprintf(t->units[i], sizeof(t->units[i]), "%s", csv_unit(p.pDimUnit, ub, sizeof(ub)));
		t->m[i].unit = t->units[i];
		t->m[i].rollup = rollup_of(name);
		t->m[i].scale = 1;
		t->m[i].role = TCP_CTR_PLAIN;
		t->m[i].purpose = "user-chosen metric";
	}
	t->m[i].name = t->names[i];
	t->cnames[i] = t->names[i];
	t->n++;
	return 0;
}

/* Config image of names[n] on host object `host` (the metrics are added to
 * it), and its replay passes.  0, or -1 with a
 * reason. */
static int build_config(CUpti_Profiler_Host_Object *host, const char *const *names, int n, uint8_t **img,
			size_t *size, int *passes, char *reason, size_t len)
{
	CUpti_Profiler_Host_ConfigAddMetrics_Params a = { CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE };
	a.pHostObject = host;
	a.ppMetricNames = (const char **)names;
	a.numMetrics = (size_t)n;
	CUPTI_TRY(C.cuptiProfilerHostConfigAddMetrics(&a), "cuptiProfilerHostConfigAddMetrics");
	{
		CUpti_Profiler_Host_GetConfigImageSize_Params s = {
			CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE };
		s.pHostObject = host;
		CUPTI_TRY(C.cuptiProfilerHostGetConfigImageSize(&s), "cuptiProfilerHostGetConfigImageSize");
		*size = s.configImageSize;
		*img = (uint8_t *)malloc(*size);
		if (!*img) {
			snprintf(reason, len, "out of host memory for the counter config image");
			return -1;
		}
		CUpti_Profiler_Host_GetConfigImage_Params g = { CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE };
		g.pHostObject = host;
		g.configImageSize = *size;
		g.pConfigImage = *img;
		CUPTI_TRY(C.cuptiProfilerHostGetConfigImage(&g), "cuptiProfilerHostGetConfigImage");
		CUpti_Profiler_Host_GetNumOfPasses_Params np = { CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE };
		np.configImageSize = *size;
		np.pConfigImage = *img;
		CUPTI_TRY(C.cuptiProfilerHostGetNumOfPasses(&np), "cuptiProfilerHostGetNumOfPasses");
		*passes = (int)np.numOfPasses;
	}
	return 0;
fail:
	return -1;
}

/* Append every row of the default set def[nd]; the generic set is a guess,
 * so from it what the chip lacks is dropped.  0, or -1 with a reason. */
static int add_default(tcp_counters_t *t, const tcp_counter_metric_t *def, int nd, int generic,
		       char *reason, size_t len)
{
	for (int i = 0; i < nd; i++) {
		char why[TCP_REASON_LEN];
		if (add_metric(t, def[i].name, &def[i], why, sizeof(why)) == 0)
			continue;
		if (generic && strstr(why, "unknown counter metric"))
			continue;
		snprintf(reason, len, "%s", why);
		return -1;
	}
	return 0;
}

/* The tensor-instruction and duration metrics of t->m[] (the first of each). */
static void find_roles(tcp_counters_t *t)
{
	t->tensor = t->duration = -1;
	for (int i = 0; i < t->n; i++) {
		if (t->m[i].role == TCP_CTR_TENSOR_INSTS && t->tensor < 0)
			t->tensor = i;
		if (t->m[i].role == TCP_CTR_DURATION && t->duration < 0)
			t->duration = i;
	}
}

/*
 * resolve()
 *	Fill t->m[] from spec ("default", or names, "default" allowed among
 *	them), check every name against the chip, then build the config image
 *	and count the replay passes.  0, or -1 with a reason.
 */
int tcp_cupti::resolve(tcp_counters_t *t, const char *spec, char *reason, size_t len)
{
	int nd;
	const char *set_name;
	const tcp_counter_metric_t *def = tcp_counters_default_set(t->chip, &nd, &set_name);
	int generic = !strcmp(set_name, "generic");
	char buf[2048];
	snprintf(buf, sizeof(buf), "%s", spec && *spec ? spec : "default");
	char *save = NULL;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		for (char *e = tok + strlen(tok); e > tok && e[-1] == ' ';)
			*--e = 0;
		if (!*tok)
			continue;
		if (!strcmp(tok, "default") ? add_default(t, def, nd, generic, reason, len)
					    : add_metric(t, tok, find_in(def, nd, tok), reason, len))
			return -1;
	}
	if (t->n == 0) {
		snprintf(reason, len, "no counter metric left for %s", t->chip);
		return -1;
	}
	find_roles(t);
	return build_config(t->host, t->cnames, t->n, &t->config, &t->config_size, &t->passes, reason, len);
}

tcp_counters_t *tcp_cupti::alloc_handle(const char *chip, int device)
{
	tcp_counters_t *t = (tcp_counters_t *)calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	snprintf(t->chip, sizeof(t->chip), "%s", chip);
	t->device = device;
	t->tensor = t->duration = -1;
	return t;
}

tcp_counters_t *tcp_counters_open_chip(const char *chip, const char *spec, int *passes,
				       char *reason, size_t len)
{
	if (spec && !strcmp(spec, "none")) {
		snprintf(reason, len, "off");
		return NULL;
	}
	if (load()) {
		snprintf(reason, len, "%s", C.err);
		return NULL;
	}
	if (!chip || chip_known(chip, reason, len))
		return NULL;
	tcp_counters_t *t = alloc_handle(chip, -1);
	if (!t) {
		snprintf(reason, len, "out of host memory");
		return NULL;
	}
	if (host_init(chip, NULL, &t->host, reason, len) || resolve(t, spec, reason, len)) {
		tcp_counters_close(t);
		return NULL;
	}
	if (passes)
		*passes = t->passes;
	return t;
}

int tcp_counters_device_chip(int device, char *chip, size_t chiplen, char *reason, size_t len)
{
	if (load()) {
		snprintf(reason, len, "%s", C.err);
		return -1;
	}
	CUcontext ctx;
	if (current_ctx(device, &ctx, reason, len))
		return -1;
	CUpti_Profiler_Initialize_Params ip = { CUpti_Profiler_Initialize_Params_STRUCT_SIZE };
	CUpti_Device_GetChipName_Params c = { CUpti_Device_GetChipName_Params_STRUCT_SIZE };
	c.deviceIndex = (size_t)device;
	CUPTI_TRY(C.cuptiProfilerInitialize(&ip), "cuptiProfilerInitialize");
	{
		CUptiResult r = C.cuptiDeviceGetChipName(&c);
		if (r == CUPTI_SUCCESS)
			snprintf(chip, chiplen, "%s", c.pChipName);
		CUpti_Profiler_DeInitialize_Params dp = { CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE };
		C.cuptiProfilerDeInitialize(&dp);
		CUPTI_TRY(r, "cuptiDeviceGetChipName");
	}
	return 0;
fail:
	return -1;
}

static const char *type_name(int type)
{
	return type == CUPTI_METRIC_TYPE_COUNTER ? "counter"
	     : type == CUPTI_METRIC_TYPE_RATIO	 ? "ratio"
						 : "throughput";
}

int tcp_counters_base_metrics(const char *chip,
			      void (*fn)(const char *type, const char *name, const char *unit,
					 const char *desc, void *arg),
			      void *arg, char *reason, size_t len)
{
	if (load()) {
		snprintf(reason, len, "%s", C.err);
		return -1;
	}
	if (!chip || chip_known(chip, reason, len))
		return -1;
	CUpti_Profiler_Host_Object *host = NULL;
	if (host_init(chip, NULL, &host, reason, len))
		return -1;
	int count = 0;
	for (int type = 0; type < CUPTI_METRIC_TYPE__COUNT; type++) {
		CUpti_Profiler_Host_GetBaseMetrics_Params b = { CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE };
		b.pHostObject = host;
		b.metricType = (CUpti_MetricType)type;
		CUPTI_TRY(C.cuptiProfilerHostGetBaseMetrics(&b), "cuptiProfilerHostGetBaseMetrics");
		for (size_t i = 0; i < b.numMetrics; i++) {
			CUpti_Profiler_Host_GetMetricProperties_Params p = {
				CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE };
			p.pHostObject = host;
			p.pMetricName = b.ppMetricNames[i];
			const char *unit = "", *desc = "";
			if (C.cuptiProfilerHostGetMetricProperties(&p) == CUPTI_SUCCESS) {
				unit = p.pDimUnit ? p.pDimUnit : "";
				desc = p.pDescription ? p.pDescription : "";
			}
			if (fn)
				fn(type_name(type), b.ppMetricNames[i], unit, desc, arg);
			count++;
		}
	}
	host_deinit(host);
	return count;
fail:
	host_deinit(host);
	return -1;
}

/* ------------------------------------------------------------------ */
/* Accessors                                                           */
/* ------------------------------------------------------------------ */

int tcp_counters_nmetrics(const tcp_counters_t *t)
{
	return t ? t->n : 0;
}

const char *tcp_counters_metric(const tcp_counters_t *t, int i)
{
	return t && i >= 0 && i < t->n ? t->m[i].name : NULL;
}

const char *tcp_counters_unit(const tcp_counters_t *t, int i)
{
	return t && i >= 0 && i < t->n ? t->m[i].unit : NULL;
}

const tcp_counter_metric_t *tcp_counters_info(const tcp_counters_t *t, int i)
{
	return t && i >= 0 && i < t->n ? &t->m[i] : NULL;
}

const char *tcp_counters_chip(const tcp_counters_t *t)
{
	return t ? t->chip : NULL;
}

int tcp_counters_tensor_inst_metric(const tcp_counters_t *t)
{
	return t ? t->tensor : -1;
}

/* ------------------------------------------------------------------ */
/* CSV rows                                                            */
/* ------------------------------------------------------------------ */

static void row_set(tcp_counter_row_t *r, const char *metric, const char *unit, double v,
		    tcp_status_t st, const char *why)
{
	snprintf(r->metric, sizeof(r->metric), "cupti/%s", metric);
	snprintf(r->unit, sizeof(r->unit), "%s", unit);
	r->value = v;
	r->status = st;
	snprintf(r->reason, sizeof(r->reason), "%s", why ? why : "");
}

/* The names, units and roles of a point's counter rows. */
struct row_names {
	const char *name[TCP_COUNTERS_MAX_METRICS];
	const char *unit[TCP_COUNTERS_MAX_METRICS];
	int role[TCP_COUNTERS_MAX_METRICS];
	int n;
	char buf[2048];		/* storage behind the names of a LIST spec */
};

/* What open() would have chosen for compute capability cc: the default set,
 * or spec's list (a listed name of the set with its unit and role). */
static void names_of_spec(int cc, const char *spec, row_names *rn)
{
	int nd;
	const tcp_counter_metric_t *def = tcp_counters_default_set(tcp_counters_chip_for_cc(cc), &nd, NULL);
	snprintf(rn->buf, sizeof(rn->buf), "%s", spec && *spec && strcmp(spec, "none") ? spec : "default");
	char *save = NULL;
	for (char *tok = strtok_r(rn->buf, ", ", &save); tok && rn->n < TCP_COUNTERS_MAX_METRICS;
	     tok = strtok_r(NULL, ", ", &save)) {
		if (!strcmp(tok, "default")) {
			for (int i = 0; i < nd && rn->n < TCP_COUNTERS_MAX_METRICS; i++) {
				rn->name[rn->n] = def[i].name;
				rn->unit[rn->n] = def[i].unit;
				rn->role[rn->n++] = def[i].role;
			}
		} else {
			const tcp_counter_metric_t *m = find_in(def, nd, tok);
			rn->name[rn->n] = tok;
			rn->unit[rn->n] = m ? m->unit : "";
			rn->role[rn->n++] = m ? m->role : TCP_CTR_PLAIN;
		}
	}
}

/* The session's names, else what open() would have chosen. */
static void names_of(const tcp_counters_t *t, int cc, const char *spec, row_names *rn)
{
	rn->n = 0;
	if (!t) {
		names_of_spec(cc, spec, rn);
		return;
	}
	for (int i = 0; i < t->n; i++) {
		rn->name[i] = t->m[i].name;
		rn->unit[i] = t->m[i].unit;
		rn->role[i] = t->m[i].role;
	}
	rn->n = t->n;
}

/* cupti/check/tensor_insts_delta: metric `name` counted v (NAN: none) against
 * `issued`, exactly; v_na = why there is no value. */
static void tensor_check_row(tcp_counter_row_t *r, const char *name, double v, double issued,
			     const char *v_na)
{
	if (isnan(v)) {
		row_set(r, "check/tensor_insts_delta", "insts", NAN, TCP_UNSUPPORTED, v_na);
		return;
	}
	double d = v - issued;
	char why[TCP_REASON_LEN] = "";
	if (d != 0)
		snprintf(why, sizeof(why), "%s counted %.0f tensor instructions, the probe "
			 "issued %.0f (ratio %.4g): probe bug", name, v, issued, issued > 0 ? v / issued : NAN);
	row_set(r, "check/tensor_insts_delta", "insts", d, d == 0 ? TCP_OK : TCP_INVALID, why);
}

/* cupti/check/sm_clock_ratio: counter clock v (NAN: none) over the timing
 * pass's tc (recorded, not judged: the counter pass replays kernels and the
 * clock may move between passes). */
static void clock_check_row(tcp_counter_row_t *r, double v, double tc, const char *v_na)
{
	if (isnan(v))
		row_set(r, "check/sm_clock_ratio", "ratio", NAN, TCP_UNSUPPORTED, v_na);
	else if (isnan(tc) || tc <= 0)
		row_set(r, "check/sm_clock_ratio", "ratio", NAN, TCP_UNSUPPORTED, "no timing-pass clock");
	else
		row_set(r, "check/sm_clock_ratio", "ratio", v / tc, TCP_OK, NULL);
}

/* The first row of role `role`, -1 when none. */
static int first_role(const row_names *rn, int role)
{
	for (int i = 0; i < rn->n; i++)
		if (rn->role[i] == role)
			return i;
	return -1;
}

/* Value i of the point's values, NAN when it has none. */
static double value_of(const double *v, int i)
{
	return v ? v[i] : NAN;
}

/* Why a metric of the point has no value. */
static const char *why_no_value(const tcp_counters_input_t *in)
{
	if (in && in->values)
		return "no value";
	return in && in->reason && *in->reason ? in->reason : "counters not measured";
}

int tcp_counters_rows(const tcp_counters_t *t, int cc, const char *spec,
		      const tcp_counters_input_t *in, tcp_counter_row_t *rows)
{
	row_names rn;
	names_of(t, cc, spec, &rn);

	const double *v = in ? in->values : NULL;
	const char *v_na = why_no_value(in);
	int nr = 0, tensor = first_role(&rn, TCP_CTR_TENSOR_INSTS), clock = first_role(&rn, TCP_CTR_CLOCK);
	for (int i = 0; i < rn.n; i++) {
		double x = value_of(v, i);
		if (isnan(x))
			row_set(&rows[nr++], rn.name[i], rn.unit[i], NAN, TCP_UNSUPPORTED, v_na);
		else
			row_set(&rows[nr++], rn.name[i], rn.unit[i], x, TCP_OK, NULL);
	}
	/* no tensor check for probes that issue none (issued < 0) */
	if (tensor >= 0 && in && in->issued_tensor_insts >= 0)
		tensor_check_row(&rows[nr++], rn.name[tensor], value_of(v, tensor), in->issued_tensor_insts, v_na);
	if (clock >= 0)
		clock_check_row(&rows[nr++], value_of(v, clock), in ? in->timing_clock_mhz : NAN, v_na);
	return nr;
}
