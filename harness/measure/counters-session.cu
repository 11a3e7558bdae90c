/*
 * counters-session.cu
 *	The device half of counters.h: a CUPTI range-profiler session on the
 *	worker's context (open), one counter pass per point (measure), close.
 *
 *	What a point pays (issue 21).  Before, every point paid the whole
 *	session: Enable, the counter-data image (size, buffer, initialise),
 *	SetConfig, Start / run() under kernel replay / Stop, DecodeData,
 *	evaluate, Disable: 0.45 s a point on an H200, ten times the point
 *	without counters.  Enable, the image buffer and SetConfig depend on the
 *	context and the metric set, not on the point: open() pays them once per
 *	worker.  Per point remain: re-initialising the image (drops the last
 *	point's ranges), Start, run() with its replay passes, Stop, Decode,
 *	evaluate.
 *
 *	Session kinds, TCPROBE_COUNTERS_SESSION=keep|worker|point (default keep):
 *	  keep    Enable and SetConfig once in open(); per point the image is
 *	          re-initialised in place (the buffer SetConfig was given)
 *	  worker  Enable once; per point image initialise + SetConfig
 *	  point   everything per point, as before issue 21 (to compare against)
 *	CUPTI does not document that a configured session may run again, so
 *	open() proves it: a self-test kernel measured twice (1 launch, then 2)
 *	must give 1 then 2 ranges, every metric finite, no time or cycle count
 *	that counted in the first pass zero in the second.  keep falls back to worker, worker to
 *	point, with the reason in tcp_counters_session_note().  A measure() that
 *	fails in a long-lived session discards it (Disable); the next point
 *	enables afresh.
 *
 *	Every step is timed (CLOCK_MONOTONIC) into t->ph / t->open_ph; the worker
 *	writes them out under TCPROBE_PHASES (harness/sweep/worker.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "harness/measure/counters-cupti.h"

using namespace tcp_cupti;

static const char *const session_names[] = { "keep", "worker", "point" };

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Add ms to step `name` (a step may repeat: Start and Stop once per round). */
static void phase_add(tcp_counters_phase_t *ph, int *n, const char *name, double ms)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(ph[i].name, name)) {
			ph[i].ms += ms;
			return;
		}
	if (*n < TCP_COUNTERS_MAX_PHASES) {
		ph[*n].name = name;
		ph[*n].ms = ms;
		++*n;
	}
}

/* f() timed as step `name` of open() (of_open) or of the last measure(); returns what f returns. */
template <typename F>
static auto timed_step(tcp_counters_t *t, int of_open, const char *name, F f) -> decltype(f())
{
	double t0 = now_ms();
	auto r = f();
	if (of_open)
		phase_add(t->open_ph, &t->nopen_ph, name, now_ms() - t0);
	else
		phase_add(t->ph, &t->nph, name, now_ms() - t0);
	return r;
}

/* CUcontext and CUdevice through the runtime's driver entry points (we link
 * cudart statically and never libcuda). */
int tcp_cupti::current_ctx(int device, CUcontext *ctx, char *reason, size_t len)
{
	typedef CUresult (*get_ctx_fn)(CUcontext *);
	void *fp = NULL;
	cudaDriverEntryPointQueryResult q;
	cudaError_t e = cudaSetDevice(device);
	if (e == cudaSuccess)
		e = cudaFree(0);	/* makes the primary context current */
	if (e == cudaSuccess)
		e = cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fp, 12000, cudaEnableDefault, &q);
	if (e != cudaSuccess || !fp || q != cudaDriverEntryPointSuccess) {
		snprintf(reason, len, "no CUDA context on device %d (%s)", device,
			 e != cudaSuccess ? cudaGetErrorString(e) : "cuCtxGetCurrent not found");
		return -1;
	}
	if (((get_ctx_fn)fp)(ctx) != CUDA_SUCCESS || !*ctx) {
		snprintf(reason, len, "no current CUDA context on device %d", device);
		return -1;
	}
	return 0;
}

static const char *support_text(const CUpti_Profiler_DeviceSupported_Params *s)
{
	if (s->architecture != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
		return "the GPU architecture has no range profiler (compute capability < 7.0)";
	if (s->vGpu == CUPTI_PROFILER_CONFIGURATION_DISABLED)
		return "vGPU profiling is disabled: ask the hypervisor administrator to enable it";
	if (s->vGpu != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
		return "counters are not available on this virtualised GPU: run on bare metal or passthrough";
	if (s->confidentialCompute != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
		return "confidential computing mode forbids profiling: turn CC mode off";
	if (s->cmp != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
		return "NVIDIA CMP GPUs have no profiling support";
	if (s->wsl != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
		return "profiling is not supported under this WSL setup";
	if (s->sli != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
		return "profiling is not supported with SLI";
	return "the device is not supported by the CUPTI range profiler";
}

int tcp_counters_session_env(int *kind, char *err, size_t len)
{
	const char *v = getenv("TCPROBE_COUNTERS_SESSION");
	if (!v || !*v) {
		*kind = SESSION_KEEP;
		return 0;
	}
	for (int i = 0; i < NELEM(session_names); i++)
		if (!strcmp(v, session_names[i])) {
			*kind = i;
			return 0;
		}
	snprintf(err, len, "TCPROBE_COUNTERS_SESSION: got '%.60s', expected keep, worker or point", v);
	return -1;
}

/* Errors after which another point cannot do better. */
static int permanent(CUptiResult r)
{
	return r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || r == CUPTI_ERROR_HARDWARE_BUSY ||
	       r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED ||
	       r == CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED ||
	       r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES ||
	       r == CUPTI_ERROR_NOT_SUPPORTED || r == CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED;
}

#define MEASURE_TRY(call, where)                                                  \
	do {                                                                      \
		CUptiResult r_ = (call);                                          \
		if (r_ != CUPTI_SUCCESS) {                                        \
			tcp_counters_error_text(r_, where, reason, len);          \
			if (permanent(r_)) {                                      \
				t->broken = 1;                                    \
				snprintf(t->why, sizeof(t->why), "%s", reason);   \
			}                                                         \
			goto out;                                                 \
		}                                                                 \
	} while (0)

/* The session's building blocks: each one CUPTI step, timed as a measure() step. */

static CUptiResult enable(tcp_counters_t *t)
{
	CUpti_RangeProfiler_Enable_Params e = { CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE };
	e.ctx = t->ctx;
	CUptiResult r = C.cuptiRangeProfilerEnable(&e);
	t->obj = r == CUPTI_SUCCESS ? e.pRangeProfilerObject : NULL;
	t->configured = 0;
	return r;
}

static void disable(tcp_counters_t *t)
{
	if (!t->obj)
		return;
	CUpti_RangeProfiler_Disable_Params d = { CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE };
	d.pRangeProfilerObject = t->obj;
	C.cuptiRangeProfilerDisable(&d);
	t->obj = NULL;
	t->configured = 0;
}

/* Size and allocate the counter data image for the metric set (needs t->obj). */
static CUptiResult image_alloc(tcp_counters_t *t)
{
	CUpti_RangeProfiler_GetCounterDataSize_Params s = {
		CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE };
	s.pRangeProfilerObject = t->obj;
	s.pMetricNames = t->cnames;
	s.numMetrics = (size_t)t->n;
	s.maxNumOfRanges = TCP_COUNTERS_MAX_RANGES;
	s.maxNumRangeTreeNodes = TCP_COUNTERS_MAX_RANGES;
	CUptiResult r = C.cuptiRangeProfilerGetCounterDataSize(&s);
	if (r != CUPTI_SUCCESS)
		return r;
	free(t->data);
	t->data = (uint8_t *)malloc(s.counterDataSize);
	t->data_size = t->data ? s.counterDataSize : 0;
	return t->data ? CUPTI_SUCCESS : CUPTI_ERROR_OUT_OF_MEMORY;
}

static CUptiResult image_init(tcp_counters_t *t)
{
	CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci = {
		CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE };
	ci.pRangeProfilerObject = t->obj;
	ci.counterDataSize = t->data_size;
	ci.pCounterData = t->data;
	return C.cuptiRangeProfilerCounterDataImageInitialize(&ci);
}

/* Auto range + kernel replay: every kernel of run() is a range, replayed once
 * per pass with CUPTI saving and restoring the memory it may write. */
static CUptiResult set_config(tcp_counters_t *t)
{
	CUpti_RangeProfiler_SetConfig_Params sc = { CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE };
	sc.pRangeProfilerObject = t->obj;
	sc.configSize = t->config_size;
	sc.pConfig = t->config;
	sc.counterDataImageSize = t->data_size;
	sc.pCounterDataImage = t->data;
	sc.range = CUPTI_AutoRange;
	sc.replayMode = CUPTI_KernelReplay;
	sc.maxRangesPerPass = TCP_COUNTERS_MAX_RANGES;
	sc.numNestingLevels = 1;
	sc.minNestingLevel = 1;
	sc.passIndex = 0;
	sc.targetNestingLevel = 1;
	CUptiResult r = C.cuptiRangeProfilerSetConfig(&sc);
	t->configured = r == CUPTI_SUCCESS;
	return r;
}

/*
 * measure_once()
 *	One counter pass of fn(arg) in the session kind t->session; values as
 *	tcp_counters_measure(), *nranges = kernels counted.  0, or -1 with a
 *	reason.  Leaves the long-lived state (t->obj, t->data) as it found it,
 *	except that a kind-keep/worker session with no profiler enables one.
 */
static int measure_once(tcp_counters_t *t, int (*fn)(void *arg), void *arg, double *values,
			int *nranges, char *reason, size_t len)
{
	int rc = -1, started = 0, per_point = t->session == SESSION_POINT;
	double kv[TCP_COUNTERS_MAX_METRICS];

	*nranges = 0;
	for (int i = 0; i < t->n; i++)
		values[i] = NAN;
	if (!t->obj)
		MEASURE_TRY(timed_step(t, 0, "enable", [&] { return enable(t); }), "cuptiRangeProfilerEnable");
	if (per_point || !t->data)
		MEASURE_TRY(timed_step(t, 0, "image", [&] { return image_alloc(t); }),
			    "cuptiRangeProfilerGetCounterDataSize");
	MEASURE_TRY(timed_step(t, 0, "image_init", [&] { return image_init(t); }),
		    "cuptiRangeProfilerCounterDataImageInitialize");
	if (t->session != SESSION_KEEP || !t->configured)
		MEASURE_TRY(timed_step(t, 0, "set_config", [&] { return set_config(t); }), "cuptiRangeProfilerSetConfig");
	/* Kernel replay submits every pass within one Start/Stop; the loop (as
	 * in NVIDIA's range profiling sample) only guards against a CUPTI that
	 * wants the workload again. */
	for (int round = 0, done = 0; !done; round++) {
		if (round > t->passes) {
			snprintf(reason, len, "counter pass: CUPTI still wants passes after %d rounds", round);
			goto out;
		}
		CUpti_RangeProfiler_Start_Params s = { CUpti_RangeProfiler_Start_Params_STRUCT_SIZE };
		s.pRangeProfilerObject = t->obj;
		MEASURE_TRY(timed_step(t, 0, "start", [&] { return C.cuptiRangeProfilerStart(&s); }),
			    "cuptiRangeProfilerStart");
		started = 1;
		/* run() and its replay passes (memory save/restore included) */
		cudaError_t e = cudaSuccess;
		int frc = timed_step(t, 0, "run", [&] {
			int r = fn(arg);
			e = cudaDeviceSynchronize();
			return r;
		});
		if (frc != 0) {
			snprintf(reason, len, "the probe's run() failed under the counter pass");
			goto out;
		}
		if (e != cudaSuccess) {
			snprintf(reason, len, "counter pass: %s", cudaGetErrorString(e));
			goto out;
		}
		CUpti_RangeProfiler_Stop_Params sp = { CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE };
		sp.pRangeProfilerObject = t->obj;
		started = 0;
		MEASURE_TRY(timed_step(t, 0, "stop", [&] { return C.cuptiRangeProfilerStop(&sp); }),
			    "cuptiRangeProfilerStop");
		done = sp.isAllPassSubmitted;
	}
	{
		CUpti_RangeProfiler_DecodeData_Params d = { CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE };
		d.pRangeProfilerObject = t->obj;
		MEASURE_TRY(timed_step(t, 0, "decode", [&] { return C.cuptiRangeProfilerDecodeData(&d); }),
			    "cuptiRangeProfilerDecodeData");
		if (d.numOfRangeDropped) {
			snprintf(reason, len, "counter pass: %zu kernels beyond the limit of %d per run() "
				 "were not counted", d.numOfRangeDropped, TCP_COUNTERS_MAX_RANGES);
			goto out;
		}
	}
	{
		double t0 = now_ms();
		CUpti_RangeProfiler_GetCounterDataInfo_Params info = {
			CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE };
		info.pCounterDataImage = t->data;
		info.counterDataImageSize = t->data_size;
		MEASURE_TRY(C.cuptiRangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo");
		if (info.numTotalRanges == 0) {
			snprintf(reason, len, "counter pass: run() launched no kernel");
			goto out;
		}
		*nranges = (int)info.numTotalRanges;
		double wsum = 0;
		for (int i = 0; i < t->n; i++)
			values[i] = 0;
		for (size_t r = 0; r < info.numTotalRanges; r++) {
			CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = {
				CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE };
			ev.pHostObject = t->host;
			ev.pCounterDataImage = t->data;
			ev.counterDataImageSize = t->data_size;
			ev.rangeIndex = r;
			ev.ppMetricNames = t->cnames;
			ev.numMetrics = (size_t)t->n;
			ev.pMetricValues = kv;
			MEASURE_TRY(C.cuptiProfilerHostEvaluateToGpuValues(&ev),
				    "cuptiProfilerHostEvaluateToGpuValues");
			/* rates: weighted by kernel duration when the set has one */
			double w = t->duration >= 0 ? kv[t->duration] : 1.0;
			wsum += w;
			for (int i = 0; i < t->n; i++)
				values[i] += t->m[i].rollup == TCP_ROLLUP_SUM ? kv[i] : kv[i] * w;
		}
		for (int i = 0; i < t->n; i++) {
			if (t->m[i].rollup == TCP_ROLLUP_AVG)
				values[i] = wsum > 0 ? values[i] / wsum : NAN;
			values[i] *= t->m[i].scale;
		}
		phase_add(t->ph, &t->nph, "evaluate", now_ms() - t0);
	}
	rc = 0;
out:
	if (rc)
		for (int i = 0; i < t->n; i++)
			values[i] = NAN;
	if (started) {
		CUpti_RangeProfiler_Stop_Params s = { CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE };
		s.pRangeProfilerObject = t->obj;
		C.cuptiRangeProfilerStop(&s);
	}
	if (per_point) {
		timed_step(t, 0, "disable", [&] {
			disable(t);
			return 0;
		});
		free(t->data);
		t->data = NULL;
		t->data_size = 0;
	}
	return rc;
}

/* ------------------------------------------------------------------ */
/* Self-test of a long-lived session                                   */
/* ------------------------------------------------------------------ */

/* About 20k SM cycles on one warp: long enough to count, short enough not to matter. */
__global__ void tcp_counters_selftest_kernel(long long cycles, long long *sink)
{
	long long t0 = clock64(), dt = 0;
	while ((dt = clock64() - t0) < cycles) {
	}
	if (threadIdx.x == 0)
		sink[blockIdx.x] = dt;
}

struct selftest_arg {
	int launches;
	long long *sink;
};

static int selftest_run(void *p)
{
	selftest_arg *a = (selftest_arg *)p;
	for (int i = 0; i < a->launches; i++)
		tcp_counters_selftest_kernel<<<1, 32>>>(20000, a->sink);
	return cudaGetLastError() == cudaSuccess ? 0 : -1;
}

/*
 * selftest()
 *	Two counter passes in the current session kind, the second after the
 *	first was decoded: 1 launch must give 1 range, then 2 launches 2 ranges
 *	(no range left over, nothing accumulated), every metric finite, and a
 *	time, cycle count or clock that counted in the first pass non-zero in the
 *	second (no replay pass lost).  0, or -1 with why.
 */
static int selftest(tcp_counters_t *t, char *why, size_t len)
{
	long long *sink = NULL;
	selftest_arg one = { 1, NULL }, two = { 2, NULL };
	double a[TCP_COUNTERS_MAX_METRICS], b[TCP_COUNTERS_MAX_METRICS];
	int ra = 0, rb = 0, rc = -1;

	if (cudaMalloc(&sink, sizeof(long long)) != cudaSuccess) {
		(void)cudaGetLastError();
		snprintf(why, len, "self-test: cudaMalloc failed");
		return -1;
	}
	one.sink = two.sink = sink;
	/* load the module (JIT) outside the profiled passes */
	if (selftest_run(&one) != 0 || cudaDeviceSynchronize() != cudaSuccess) {
		cudaError_t e = cudaGetLastError();	/* (and clear it) */
		snprintf(why, len, "self-test kernel does not run: %s", cudaGetErrorString(e));
		goto out;
	}
	if (measure_once(t, selftest_run, &one, a, &ra, why, len) ||
	    measure_once(t, selftest_run, &two, b, &rb, why, len))
		goto out;
	if (ra != 1 || rb != 2) {
		snprintf(why, len, "self-test: %d then %d ranges for 1 then 2 launches", ra, rb);
		goto out;
	}
	for (int i = 0; i < t->n; i++) {
		if (!isfinite(a[i]) || !isfinite(b[i])) {
			snprintf(why, len, "self-test: %s not finite (%g, %g)", t->m[i].name, a[i], b[i]);
			goto out;
		}
		/* times, cycles and clocks of a kernel that ran are never 0 (bytes may be) */
		int timing = !strcmp(t->m[i].unit, "ns") || !strcmp(t->m[i].unit, "cycles") ||
			     !strcmp(t->m[i].unit, "MHz");
		if (timing && a[i] > 0 && !(b[i] > 0)) {
			snprintf(why, len, "self-test: %s %g, then %g", t->m[i].name, a[i], b[i]);
			goto out;
		}
	}
	if (t->duration >= 0 && !(a[t->duration] > 0)) {
		snprintf(why, len, "self-test: %s is 0", t->m[t->duration].name);
		goto out;
	}
	rc = 0;
out:
	cudaFree(sink);
	return rc;
}

/*
 * prove_session()
 *	Settle t->session, starting from the kind asked for: keep and worker
 *	run the self-test on an enabled profiler (keep configured first); a
 *	failure falls back one kind and says why in t->session_note.  point
 *	leaves nothing enabled between points.
 */
static void prove_session(tcp_counters_t *t)
{
	char why[TCP_REASON_LEN];
	for (;;) {
		if (t->session == SESSION_POINT) {
			disable(t);
			free(t->data);
			t->data = NULL;
			t->data_size = 0;
			return;
		}
		if (selftest(t, why, sizeof(why)) == 0)
			return;
		/* not this kind; a "permanent" error here is the kind's, not the device's */
		t->broken = 0;
		t->why[0] = '\0';
		size_t o = strlen(t->session_note);
		snprintf(t->session_note + o, sizeof(t->session_note) - o, "%s%s: %s", o ? "; " : "",
			 session_names[t->session], why);
		disable(t);
		t->session = (session_kind)(t->session + 1);
	}
}

tcp_counters_t *tcp_counters_open(int device, const char *spec, char *reason, size_t len)
{
	tcp_counters_t *t = NULL;
	int kind;
	if (spec && !strcmp(spec, "none")) {
		snprintf(reason, len, "off");
		return NULL;
	}
	if (tcp_counters_session_env(&kind, reason, len))
		return NULL;
	double t0 = now_ms();
	if (load()) {
		snprintf(reason, len, "%s", C.err);
		return NULL;
	}
	double t_load = now_ms() - t0;
	CUcontext ctx;
	if (current_ctx(device, &ctx, reason, len))
		return NULL;
	t = alloc_handle("", device);
	if (!t) {
		snprintf(reason, len, "out of host memory");
		return NULL;
	}
	t->ctx = ctx;
	t->session = (session_kind)kind;
	phase_add(t->open_ph, &t->nopen_ph, "load", t_load);
	t0 = now_ms();
	{
		CUpti_Profiler_Initialize_Params p = { CUpti_Profiler_Initialize_Params_STRUCT_SIZE };
		CUPTI_TRY(C.cuptiProfilerInitialize(&p), "cuptiProfilerInitialize");
		t->profiler_init = 1;
	}
	{
		CUpti_Profiler_DeviceSupported_Params s = { CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE };
		s.cuDevice = (CUdevice)device;
		s.api = CUPTI_PROFILER_RANGE_PROFILING;
		CUPTI_TRY(C.cuptiProfilerDeviceSupported(&s), "cuptiProfilerDeviceSupported");
		if (s.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
			snprintf(reason, len, "counters unsupported on device %d: %s", device, support_text(&s));
			goto fail;
		}
	}
	{
		CUpti_Device_GetChipName_Params c = { CUpti_Device_GetChipName_Params_STRUCT_SIZE };
		c.deviceIndex = (size_t)device;
		CUPTI_TRY(C.cuptiDeviceGetChipName(&c), "cuptiDeviceGetChipName");
		snprintf(t->chip, sizeof(t->chip), "%s", c.pChipName);
	}
	{
		CUpti_Profiler_GetCounterAvailability_Params a = {
			CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE };
		a.ctx = ctx;
		CUPTI_TRY(C.cuptiProfilerGetCounterAvailability(&a), "cuptiProfilerGetCounterAvailability");
		t->avail = (uint8_t *)malloc(a.counterAvailabilityImageSize);
		if (!t->avail) {
			snprintf(reason, len, "out of host memory");
			goto fail;
		}
		a.pCounterAvailabilityImage = t->avail;
		CUPTI_TRY(C.cuptiProfilerGetCounterAvailability(&a), "cuptiProfilerGetCounterAvailability");
	}
	phase_add(t->open_ph, &t->nopen_ph, "init", now_ms() - t0);
	/* the metric set: host object, config image, passes */
	if (timed_step(t, 1, "config", [&] {
		    return host_init(t->chip, t->avail, &t->host, reason, len) || resolve(t, spec, reason, len);
	    }))
		goto fail;
	/* Enable now: the usual failures (privileges, another profiler) show
	 * here, once per worker, rather than at the first point. */
	CUPTI_TRY(timed_step(t, 1, "enable", [&] { return enable(t); }), "cuptiRangeProfilerEnable");
	CUPTI_TRY(timed_step(t, 1, "image", [&] { return image_alloc(t); }), "cuptiRangeProfilerGetCounterDataSize");
	if (t->session == SESSION_KEEP) {
		CUPTI_TRY(timed_step(t, 1, "image_init", [&] { return image_init(t); }),
			  "cuptiRangeProfilerCounterDataImageInitialize");
		CUPTI_TRY(timed_step(t, 1, "set_config", [&] { return set_config(t); }), "cuptiRangeProfilerSetConfig");
	}
	timed_step(t, 1, "selftest", [&] {
		prove_session(t);
		return 0;
	});
	t->nph = 0;
	return t;
fail:
	tcp_counters_close(t);
	return NULL;
}

/*
 * tcp_counters_measure()
 *	One counter pass around fn(arg) (measure_once); the steps it took are in
 *	t->ph.  After a failure a long-lived session is discarded (Disable): its
 *	state is unknown, and the next point enables afresh.
 */
int tcp_counters_measure(tcp_counters_t *t, int (*fn)(void *arg), void *arg,
			 double *values, char *reason, size_t len)
{
	int nranges;

	if (!t || t->device < 0) {
		snprintf(reason, len, "counters: no device session");
		return -1;
	}
	t->nph = 0;
	if (t->broken) {
		for (int i = 0; i < t->n; i++)
			values[i] = NAN;
		snprintf(reason, len, "%s", t->why);
		return -1;
	}
	int rc = measure_once(t, fn, arg, values, &nranges, reason, len);
	if (rc && t->obj)
		timed_step(t, 0, "disable", [&] {
			disable(t);
			return 0;
		});
	return rc;
}

int tcp_counters_phases(const tcp_counters_t *t, int of_open, const tcp_counters_phase_t **ph)
{
	if (!t) {
		*ph = NULL;
		return 0;
	}
	*ph = of_open ? t->open_ph : t->ph;
	return of_open ? t->nopen_ph : t->nph;
}

const char *tcp_counters_session(const tcp_counters_t *t)
{
	return t && t->device >= 0 ? session_names[t->session] : "";
}

const char *tcp_counters_session_note(const tcp_counters_t *t)
{
	return t ? t->session_note : "";
}

void tcp_counters_close(tcp_counters_t *t)
{
	if (!t)
		return;
	disable(t);
	free(t->data);
	host_deinit(t->host);
	if (t->profiler_init) {
		CUpti_Profiler_DeInitialize_Params p = { CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE };
		C.cuptiProfilerDeInitialize(&p);
	}
	free(t->avail);
	free(t->config);
	free(t);
}
