/*
 * counters-session.cc
 *	The device half of counters.h (host C++; its kernels are in
 *	counters-kernels.cu): a CUPTI range-profiler session on the
 *	worker's context (open), one counter pass per point (measure), close.
 *
 *	What a point pays.  The whole session for every point (Enable, the
 *	counter-data image (size, buffer, initialise), SetConfig, Start / run()
 *	under kernel replay / Stop, DecodeData, evaluate, Disable) costs 0.45 s
 *	a point on an H200, ten times the point without counters.  Enable, the
 *	image buffer and SetConfig depend on the context and the metric set, not
 *	on the point: open() pays them once per worker.  Kernel replay costs
 *	22 ms for a 1.2 ms run() on an H200 -- CUPTI saves and restores device
 *	memory around every replayed kernel -- and re-initialising a 256-range
 *	image 7 ms.  So per point: Start, run(), Stop once per pass of the
 *	metric set (user replay: run() is re-entrant, and what it counts is the
 *	same every time), Decode, evaluate of this point's ranges only; the
 *	image is initialised once for ~256 kernels (appended to, counters-book.h).
 *
 *	The session, and the one fallback of each of its choices (the choices
 *	the H200's measurements made: docs/findings.md, "What the harness
 *	costs"):
 *	  session keep    Enable and SetConfig once in open(); the image is
 *	                  re-initialised in place when needed (the buffer
 *	                  SetConfig was given).  Fallback point: every step per
 *	                  point, Enable to Disable, unbatched.  Not a session
 *	                  that keeps the profiler enabled and configures per
 *	                  point: what the self-test refuses (a second Start/Stop
 *	                  on an enabled profiler giving wrong ranges or counts)
 *	                  is the enabled profiler's, which that would keep.
 *	  replay user     the worker calls run() once per pass between Start and
 *	                  Stop until CUPTI says every pass was submitted ("Kernel
 *	                  Replay ... only supported in Auto Range Mode"; "User
 *	                  Replay ... supports both Auto and User range modes":
 *	                  CUPTI docs, Range Profiling API, Replay Modes).
 *	                  Fallback kernel: CUPTI replays each kernel within one
 *	                  Start/Stop.
 *	  image append    one image for many points (auto-range ranges of
 *	                  successive Start/Stop sessions follow each other).
 *	                  Fallback fresh: initialised before every point, sized
 *	                  for what run() launches.
 *	CUPTI does not document that a configured session may run again, nor
 *	that ranges of successive sessions append, so open() proves it: a
 *	self-test kernel measured twice (1 launch, then 2) must give 1 then 2
 *	ranges of its own (in append mode the first point's range unchanged after
 *	the second), the second's cycle counts about twice the first's (nothing
 *	left over or added up), every metric finite, no time or cycle count that
 *	counted in the first pass zero in the second, and as many Start/Stop
 *	rounds as the replay mode takes.  A failure takes the next fallback and
 *	tests again, in this order: keep, user replay, image append; image
 *	fresh; kernel replay, image append; image fresh; then session point
 *	(kernel replay, image fresh: only what CUPTI documents, so nothing left
 *	to prove).  The reasons are in tcp_counters_session_note().  A measure()
 *	that fails in a keep session discards it (Disable); the next point
 *	enables afresh.
 *
 *	Every step is timed (CLOCK_MONOTONIC) into t->ph / t->open_ph; the worker
 *	writes them out under TCPROBE_PHASES (harness/sweep/worker-phases.c).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "harness/measure/counters-cupti.h"
#include "harness/measure/measure-kernels.h"

using namespace tcp_cupti;

static const char *const session_names[] = { "keep", "point" };	/* session_kind */
static const char *const replay_names[] = { "user", "kernel" };		/* replay_kind */

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

int tcp_counters_batch_env(int *n, char *err, size_t len)
{
	const char *v = getenv("TCPROBE_COUNTERS_BATCH");
	char *end = NULL;
	*n = TCP_COUNTERS_BATCH_DEFAULT;
	if (!v || !*v)
		return 0;
	long x = strtol(v, &end, 10);
	if (*end || end == v || x < 1 || x > TCP_COUNTERS_BATCH_MAX) {
		snprintf(err, len, "TCPROBE_COUNTERS_BATCH: got '%.60s', expected an integer from 1 to %d "
			 "(points per counter pass; 1 = one at a time)", v, TCP_COUNTERS_BATCH_MAX);
		return -1;
	}
	*n = (int)x;
	return 0;
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

/* 0 when r succeeded; else -1 with its error text in reason. */
static int cupti_error(CUptiResult r, const char *where, char *reason, size_t len)
{
	if (r == CUPTI_SUCCESS)
		return 0;
	tcp_counters_error_text(r, where, reason, len);
	return -1;
}

/* cupti_error(), and a permanent error also breaks the session (measure()
 * then repeats `why`). */
static int cupti_failed(tcp_counters_t *t, CUptiResult r, const char *where, char *reason, size_t len)
{
	if (cupti_error(r, where, reason, len) == 0)
		return 0;
	if (permanent(r)) {
		t->broken = 1;
		snprintf(t->why, sizeof(t->why), "%s", reason);
	}
	return -1;
}

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
	t->book.used = -1;	/* a new profiler object starts on a fresh image */
}

/* "keep, user replay, image append, 1 pass" into t->desc. */
static void describe(tcp_counters_t *t)
{
	snprintf(t->desc, sizeof(t->desc), "%s, %s replay, image %s, %d pass%s%s", session_names[t->session],
		 replay_names[t->replay], t->book.append ? "append" : "fresh", t->passes,
		 t->passes == 1 ? "" : "es", t->batch_ok ? ", batches" : "");
}

/* Start the image over in mode `append` (sized for it), buffer freed: the
 * next measure() allocates, initialises and configures. */
static void image_reset(tcp_counters_t *t, int append)
{
	free(t->data);
	t->data = NULL;
	t->data_size = 0;
	t->configured = 0;
	tcp_ctr_book_init(&t->book, append ? TCP_COUNTERS_MAX_RANGES : TCP_COUNTERS_FRESH_RANGES,
			  TCP_COUNTERS_MAX_RANGES, append);
}

/* Size and allocate the counter data image for the metric set and
 * t->book.cap ranges (needs t->obj); SetConfig must follow (a new buffer). */
static CUptiResult image_alloc(tcp_counters_t *t)
{
	CUpti_RangeProfiler_GetCounterDataSize_Params s = {
		CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE };
	s.pRangeProfilerObject = t->obj;
	s.pMetricNames = t->cnames;
	s.numMetrics = (size_t)t->n;
	s.maxNumOfRanges = (size_t)t->book.cap;
	s.maxNumRangeTreeNodes = (uint32_t)t->book.cap;
	CUptiResult r = C.cuptiRangeProfilerGetCounterDataSize(&s);
	if (r != CUPTI_SUCCESS)
		return r;
	free(t->data);
	t->data = (uint8_t *)malloc(s.counterDataSize);
	t->data_size = t->data ? s.counterDataSize : 0;
	t->configured = 0;
	t->book.used = -1;
	return t->data ? CUPTI_SUCCESS : CUPTI_ERROR_OUT_OF_MEMORY;
}

static CUptiResult image_init(tcp_counters_t *t)
{
	CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci = {
		CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE };
	ci.pRangeProfilerObject = t->obj;
	ci.counterDataSize = t->data_size;
	ci.pCounterData = t->data;
	CUptiResult r = C.cuptiRangeProfilerCounterDataImageInitialize(&ci);
	if (r == CUPTI_SUCCESS)
		tcp_ctr_book_did_init(&t->book);
	return r;
}

/* Auto range: every kernel of run() is a range.  User replay: run() once per
 * pass, each pass's kernels the same ranges; kernel replay: each kernel
 * replayed once per pass with CUPTI saving and restoring the memory it may
 * write. */
static CUptiResult set_config(tcp_counters_t *t)
{
	CUpti_RangeProfiler_SetConfig_Params sc = { CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE };
	sc.pRangeProfilerObject = t->obj;
	sc.configSize = t->config_size;
	sc.pConfig = t->config;
	sc.counterDataImageSize = t->data_size;
	sc.pCounterDataImage = t->data;
	sc.range = CUPTI_AutoRange;
	sc.replayMode = t->replay == REPLAY_USER ? CUPTI_UserReplay : CUPTI_KernelReplay;
	sc.maxRangesPerPass = TCP_COUNTERS_MAX_RANGES;
	sc.numNestingLevels = 1;
	sc.minNestingLevel = 1;
	sc.passIndex = 0;
	sc.targetNestingLevel = 1;
	CUptiResult r = C.cuptiRangeProfilerSetConfig(&sc);
	t->configured = r == CUPTI_SUCCESS;
	return r;
}

/* Metric values of ranges [first, first+count) of the image into values[]
 * (rolled up over the ranges, scaled).  CUPTI_SUCCESS or the failing call's
 * code (*where names it). */
static CUptiResult evaluate(tcp_counters_t *t, int first, int count, double *values, const char **where)
{
	double kv[TCP_COUNTERS_MAX_METRICS], wsum = 0;
	for (int i = 0; i < t->n; i++)
		values[i] = 0;
	for (int r = first; r < first + count; r++) {
		CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = {
			CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE };
		ev.pHostObject = t->host;
		ev.pCounterDataImage = t->data;
		ev.counterDataImageSize = t->data_size;
		ev.rangeIndex = (size_t)r;
		ev.ppMetricNames = t->cnames;
		ev.numMetrics = (size_t)t->n;
		ev.pMetricValues = kv;
		CUptiResult res = C.cuptiProfilerHostEvaluateToGpuValues(&ev);
		if (res != CUPTI_SUCCESS) {
			*where = "cuptiProfilerHostEvaluateToGpuValues";
			return res;
		}
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
	return CUPTI_SUCCESS;
}

/* What a pass needs before its Start: a profiler, the image (allocated
 * once, or every point in session point), initialised when the book says,
 * and SetConfig (once in session keep).  0, or -1 with a reason. */
static int pass_ready(tcp_counters_t *t, char *reason, size_t len)
{
	int keep = t->session == SESSION_KEEP;
	if (!t->obj &&
	    cupti_failed(t, timed_step(t, 0, "enable", [&] { return enable(t); }), "cuptiRangeProfilerEnable",
			 reason, len))
		return -1;
	if ((!keep || !t->data) &&
	    cupti_failed(t, timed_step(t, 0, "image", [&] { return image_alloc(t); }),
			 "cuptiRangeProfilerGetCounterDataSize", reason, len))
		return -1;
	if (tcp_ctr_book_need_init(&t->book) &&
	    cupti_failed(t, timed_step(t, 0, "image_init", [&] { return image_init(t); }),
			 "cuptiRangeProfilerCounterDataImageInitialize", reason, len))
		return -1;
	if ((!keep || !t->configured) &&
	    cupti_failed(t, timed_step(t, 0, "set_config", [&] { return set_config(t); }),
			 "cuptiRangeProfilerSetConfig", reason, len))
		return -1;
	return 0;
}

/* Stop without asking how it went: after a failure between Start and Stop. */
static void stop_quietly(tcp_counters_t *t)
{
	CUpti_RangeProfiler_Stop_Params s = { CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE };
	s.pRangeProfilerObject = t->obj;
	C.cuptiRangeProfilerStop(&s);
}

/* One Start / run() / Stop round; *done once CUPTI says every pass was
 * submitted.  0, or -1 with a reason (and the profiler stopped). */
static int one_round(tcp_counters_t *t, int (*fn)(void *arg), void *arg, int *done, char *reason, size_t len)
{
	CUpti_RangeProfiler_Start_Params s = { CUpti_RangeProfiler_Start_Params_STRUCT_SIZE };
	s.pRangeProfilerObject = t->obj;
	if (cupti_failed(t, timed_step(t, 0, "start", [&] { return C.cuptiRangeProfilerStart(&s); }),
			 "cuptiRangeProfilerStart", reason, len))
		return -1;
	/* run() (and under kernel replay its replayed passes, memory save/restore included) */
	cudaError_t e = cudaSuccess;
	int frc = timed_step(t, 0, "run", [&] {
		int r = fn(arg);
		e = cudaDeviceSynchronize();
		return r;
	});
	if (frc != 0 || e != cudaSuccess) {
		if (frc != 0)
			snprintf(reason, len, "the probe's run() failed under the counter pass");
		else
			snprintf(reason, len, "counter pass: %s", cudaGetErrorString(e));
		stop_quietly(t);
		return -1;
	}
	CUpti_RangeProfiler_Stop_Params sp = { CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE };
	sp.pRangeProfilerObject = t->obj;
	if (cupti_failed(t, timed_step(t, 0, "stop", [&] { return C.cuptiRangeProfilerStop(&sp); }),
			 "cuptiRangeProfilerStop", reason, len))
		return -1;
	t->rounds++;
	*done = sp.isAllPassSubmitted;
	return 0;
}

/* Start / run() / Stop until every pass is submitted: once under kernel
 * replay (CUPTI replays inside), once per pass under user replay (CUPTI
 * docs, Range Profiling API usage, Stop).  0, or -1 with a reason. */
static int run_rounds(tcp_counters_t *t, int (*fn)(void *arg), void *arg, char *reason, size_t len)
{
	t->rounds = 0;
	for (int done = 0; !done;) {
		if (t->rounds > t->passes) {
			snprintf(reason, len, "counter pass: CUPTI still wants passes after %d rounds "
				 "(the set has %d)", t->rounds, t->passes);
			return -1;
		}
		if (one_round(t, fn, arg, &done, reason, len))
			return -1;
	}
	return 0;
}

/* Decode the pass into the image; the book says whose ranges they are
 * (*first, *nranges) and what to do next (counters-book.h). */
static tcp_ctr_book_verdict_t decode(tcp_counters_t *t, int *first, int *nranges, char *reason, size_t len)
{
	CUpti_RangeProfiler_DecodeData_Params d = { CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE };
	d.pRangeProfilerObject = t->obj;
	if (cupti_failed(t, timed_step(t, 0, "decode", [&] { return C.cuptiRangeProfilerDecodeData(&d); }),
			 "cuptiRangeProfilerDecodeData", reason, len))
		return TCP_BOOK_FAIL;
	CUpti_RangeProfiler_GetCounterDataInfo_Params info = {
		CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE };
	info.pCounterDataImage = t->data;
	info.counterDataImageSize = t->data_size;
	if (cupti_failed(t, C.cuptiRangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo",
			 reason, len))
		return TCP_BOOK_FAIL;
	return tcp_ctr_book_after(&t->book, info.numTotalRanges, d.numOfRangeDropped, first, nranges, reason, len);
}

/* The pass into the image, in at most 3 tries: a point whose kernels did
 * not fit runs again on a fresh image, or on one grown to what it launched.
 * *first / *nranges = its ranges.  0, or -1 with a reason. */
static int pass_into_image(tcp_counters_t *t, int (*fn)(void *arg), void *arg, int *first, int *nranges,
			   char *reason, size_t len)
{
	for (int attempt = 0; attempt < 3; attempt++) {
		if (pass_ready(t, reason, len) || run_rounds(t, fn, arg, reason, len))
			return -1;
		tcp_ctr_book_verdict_t v = decode(t, first, nranges, reason, len);
		if (v == TCP_BOOK_OK)
			return 0;
		if (v == TCP_BOOK_FAIL)
			return -1;
		if (v == TCP_BOOK_GROW) {
			tcp_ctr_book_resize(&t->book, *nranges);
			if (cupti_failed(t, timed_step(t, 0, "image", [&] { return image_alloc(t); }),
					 "cuptiRangeProfilerGetCounterDataSize", reason, len))
				return -1;
		}
	}
	snprintf(reason, len, "counter pass: the kernels of run() did not fit the image in 3 tries");
	return -1;
}

/* evaluate() of a point's ranges, timed as step "evaluate".  0, or -1 with a reason. */
static int evaluate_point(tcp_counters_t *t, int first, int nranges, double *values, char *reason, size_t len)
{
	double t0 = now_ms();
	const char *where = "";
	CUptiResult r = evaluate(t, first, nranges, values, &where);
	if (cupti_failed(t, r, where, reason, len))
		return -1;
	phase_add(t->ph, &t->nph, "evaluate", now_ms() - t0);
	return 0;
}

/*
 * measure_once()
 *	One counter pass of fn(arg) in the session t describes; values as
 *	tcp_counters_measure(), *first / *nranges = the point's ranges in the
 *	image.  0, or -1 with a reason.  Leaves the long-lived state (t->obj,
 *	t->data) as it found it, except that a keep session with no profiler
 *	enables one, and that the image may be re-initialised or grown
 *	(counters-book.h).  Session point: everything enabled here is disabled
 *	and freed again.  values NULL: not evaluated (a batch splits the ranges
 *	first).
 */
static int measure_once(tcp_counters_t *t, int (*fn)(void *arg), void *arg, double *values,
			int *first, int *nranges, char *reason, size_t len)
{
	*first = *nranges = 0;
	t->rounds = 0;
	for (int i = 0; values && i < t->n; i++)
		values[i] = NAN;
	int rc = pass_into_image(t, fn, arg, first, nranges, reason, len);
	if (rc == 0 && values)
		rc = evaluate_point(t, *first, *nranges, values, reason, len);
	if (rc && values)
		for (int i = 0; i < t->n; i++)
			values[i] = NAN;
	if (t->session == SESSION_POINT) {
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
/* A batch of points in one pass (counters.h)                          */
/* ------------------------------------------------------------------ */

/* Launches counted while a batch's pass runs (t->sub: subscribed only then),
 * in the driver and the runtime domains apart: which of them sees every
 * launch is the one whose count adds up to the ranges CUPTI made (auto
 * range: one range per kernel; a range's name is only its index). */
static int driver_launch(CUpti_CallbackId id)
{
	switch (id) {
	case CUPTI_DRIVER_TRACE_CBID_cuLaunch:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
		return 1;
	default:
		return 0;
	}
}

static int runtime_launch(CUpti_CallbackId id)
{
	switch (id) {
	case CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_v3020:
	case CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_ptsz_v7000:
	case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
	case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
	case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
	case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
	case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
	case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
#if CUPTI_API_VERSION >= 130000
	case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
	case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000:
#endif
		return 1;
	default:
		return 0;
	}
}

static void CUPTIAPI count_launch(void *ud, CUpti_CallbackDomain dom, CUpti_CallbackId id, const void *data)
{
	tcp_counters_t *t = (tcp_counters_t *)ud;
	if (((const CUpti_CallbackData *)data)->callbackSite != CUPTI_API_ENTER)
		return;
	if (dom == CUPTI_CB_DOMAIN_DRIVER_API && driver_launch(id))
		t->launches[0]++;
	else if (dom == CUPTI_CB_DOMAIN_RUNTIME_API && runtime_launch(id))
		t->launches[1]++;
}

static CUptiResult count_launches(tcp_counters_t *t, int on)
{
	CUptiResult r = C.cuptiEnableDomain((uint32_t)on, t->sub, CUPTI_CB_DOMAIN_DRIVER_API);
	CUptiResult r2 = C.cuptiEnableDomain((uint32_t)on, t->sub, CUPTI_CB_DOMAIN_RUNTIME_API);
	return r != CUPTI_SUCCESS ? r : r2;
}

struct batch_arg {
	tcp_counters_t *t;
	int n;
	int (*fn)(void *arg);
	void *const *args;
	int round;		/* Start/Stop rounds run so far */
	int *k;			/* [2 * n]: launches of point i, driver then runtime, first round */
	int failed;		/* the point whose fn() failed; -1 none */
	int differs;		/* a later round launched other counts */
};

static int batch_run(void *p)
{
	batch_arg *b = (batch_arg *)p;
	for (int i = 0; i < b->n; i++) {
		long long d0 = b->t->launches[0], r0 = b->t->launches[1];
		if (b->fn(b->args[i]) != 0) {
			b->failed = i;
			return -1;
		}
		int kd = (int)(b->t->launches[0] - d0), kr = (int)(b->t->launches[1] - r0);
		if (b->round == 0) {
			b->k[i] = kd;
			b->k[b->n + i] = kr;
		} else if (b->k[i] != kd || b->k[b->n + i] != kr) {
			b->differs = 1;
		}
	}
	b->round++;
	return 0;
}

/* Ranges [first, first+count) in the points' order: point i's are
 * [pf[i], pf[i]+pc[i]), pc[i] its launches by the domain that adds up to
 * count.  0, or -1 with why. */
static int split_by_launches(const batch_arg *b, int first, int count, int *pf, int *pc, char *why, size_t len)
{
	int sum[2] = { 0, 0 };
	for (int i = 0; i < b->n; i++) {
		sum[0] += b->k[i];
		sum[1] += b->k[b->n + i];
	}
	int d = sum[0] == count ? 0 : sum[1] == count ? 1 : -1;
	if (b->differs || d < 0) {
		snprintf(why, len, "counter batch: %d ranges, launches counted %d (driver) and %d (runtime)%s",
			 count, sum[0], sum[1], b->differs ? ", not the same in every pass" : "");
		return -1;
	}
	for (int i = 0, r = first; i < b->n; i++) {
		pf[i] = r;
		pc[i] = b->k[d * b->n + i];
		r += pc[i];
	}
	return 0;
}

/*
 * measure_batch()
 *	One counter pass for n points: in every Start/Stop round fn(args[i])
 *	in order, each one's launches counted; then point i's ranges (as many
 *	as it launched kernels, after the earlier points') evaluated alone into
 *	values + i * t->n, nr[i] its kernel count (0: values NaN).  0, or -1
 *	with a reason and *failed = the point whose fn() failed (-1: not one).
 */
static int measure_batch(tcp_counters_t *t, int n, int (*fn)(void *arg), void *const *args,
			 double *values, int *nr, int *failed, char *reason, size_t len)
{
	int first, count, *pf = (int *)calloc((size_t)(4 * n), sizeof(int));
	batch_arg b = { t, n, fn, args, 0, pf + 2 * n, -1, 0 };

	*failed = -1;
	for (int i = 0; i < n * t->n; i++)
		values[i] = NAN;
	for (int i = 0; i < n; i++)
		nr[i] = 0;
	if (!pf) {
		snprintf(reason, len, "out of host memory");
		return -1;
	}
	/* subscribed only for the batch's pass: nothing of CUPTI's callbacks
	 * stays on around the timed runs (calib's launch overhead) */
	const char *where = "cuptiSubscribe";
	CUptiResult cr = timed_step(t, 0, "callbacks", [&] { return C.cuptiSubscribe(&t->sub, count_launch, t); });
	if (cr == CUPTI_SUCCESS) {
		where = "cuptiEnableDomain";
		cr = count_launches(t, 1);
	} else {
		t->sub = NULL;
	}
	int rc = -1;
	if (cr != CUPTI_SUCCESS)
		tcp_counters_error_text(cr, where, reason, len);
	else
		rc = measure_once(t, batch_run, &b, NULL, &first, &count, reason, len);
	if (t->sub) {
		timed_step(t, 0, "callbacks", [&] { return C.cuptiUnsubscribe(t->sub); });
		t->sub = NULL;
	}
	*failed = b.failed;
	if (rc == 0)
		rc = split_by_launches(&b, first, count, pf, pf + n, reason, len);
	double t0 = now_ms();
	for (int i = 0; rc == 0 && i < n; i++) {
		const char *where = "";
		nr[i] = pf[n + i];
		CUptiResult r = nr[i] > 0 ? evaluate(t, pf[i], nr[i], values + (size_t)i * (size_t)t->n, &where)
					  : CUPTI_SUCCESS;
		if (r != CUPTI_SUCCESS) {
			tcp_counters_error_text(r, where, reason, len);
			rc = -1;
		}
	}
	phase_add(t->ph, &t->nph, "evaluate", now_ms() - t0);
	free(pf);
	return rc;
}

/* A unit whose count is never 0 for a kernel that ran (bytes may be). */
static int timing_unit(const char *unit)
{
	return !strcmp(unit, "cycles") || !strcmp(unit, "ns") || !strcmp(unit, "MHz");
}

/*
 * one_then_two()
 *	The self-test kernel's values for 1 launch (a) and for 2 (b): every
 *	metric finite; with `timing`, a time, cycle count or clock that counted
 *	in a non-zero in b (no replay pass lost); summed cycles 1.5-2.5x (two
 *	launches of the same kernel: twice the cycles, not one or three
 *	times).  0, or -1 with why ("<what>: ...").
 */
static int one_then_two(const tcp_counters_t *t, const double *a, const double *b, int timing,
			const char *what, char *why, size_t len)
{
	for (int i = 0; i < t->n; i++) {
		const tcp_counter_metric_t *m = &t->m[i];
		if (!isfinite(a[i]) || !isfinite(b[i])) {
			snprintf(why, len, "%s: %s not finite (%g, %g)", what, m->name, a[i], b[i]);
			return -1;
		}
		if (timing && timing_unit(m->unit) && a[i] > 0 && !(b[i] > 0)) {
			snprintf(why, len, "%s: %s %g, then %g", what, m->name, a[i], b[i]);
			return -1;
		}
		if (!strcmp(m->unit, "cycles") && m->rollup == TCP_ROLLUP_SUM && a[i] > 0 &&
		    !(b[i] >= 1.5 * a[i] && b[i] <= 2.5 * a[i])) {
			snprintf(why, len, "%s: %s %g for 1 launch, %g for 2", what, m->name, a[i], b[i]);
			return -1;
		}
	}
	return 0;
}

/*
 * prove_batch()
 *	A batch of two points (1 launch, then 2 of the self-test kernel) must
 *	split into 1 and 2 ranges with the second's cycle counts 1.5-2.5x the
 *	first's, every metric finite.  0, or -1 with why.
 */
static int selftest_run(void *p);
static int prove_batch(tcp_counters_t *t, void *one, void *two, char *why, size_t len)
{
	void *args[2] = { one, two };
	double v[2 * TCP_COUNTERS_MAX_METRICS];
	int nr[2], failed;
	if (measure_batch(t, 2, selftest_run, args, v, nr, &failed, why, len))
		return -1;
	if (nr[0] != 1 || nr[1] != 2) {
		snprintf(why, len, "batch self-test: %d then %d ranges for 1 then 2 launches", nr[0], nr[1]);
		return -1;
	}
	return one_then_two(t, v, v + t->n, 0, "batch self-test", why, len);
}

/* ------------------------------------------------------------------ */
/* Self-test of a long-lived session                                   */
/* ------------------------------------------------------------------ */

struct selftest_arg {
	int launches;
	long long *sink;
};

static int selftest_run(void *p)
{
	selftest_arg *a = (selftest_arg *)p;
	long long cycles = 20000;	/* about 20k SM cycles on one warp: long enough to count, short enough not to matter */
	void *args[] = { &cycles, &a->sink };
	for (int i = 0; i < a->launches; i++)
		(void)cudaLaunchKernel(tcp_counters_selftest_fn, dim3(1), dim3(32), args, 0, 0);	/* <<<1, 32>>> */
	return cudaGetLastError() == cudaSuccess ? 0 : -1;
}

/* Append to t->session_note, "; " between entries. */
static void note_add(tcp_counters_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note_add(tcp_counters_t *t, const char *fmt, ...)
{
	size_t o = strlen(t->session_note);
	va_list ap;
	if (o)
		o += (size_t)snprintf(t->session_note + o, sizeof(t->session_note) - o, "; ");
	if (o >= sizeof(t->session_note))
		return;
	va_start(ap, fmt);
	vsnprintf(t->session_note + o, sizeof(t->session_note) - o, fmt, ap);
	va_end(ap);
}

/* With an appended image: the second point's ranges follow the first's,
 * and the first's range evaluates as it did before the second was added.
 * 0, or -1 with why. */
static int append_kept(tcp_counters_t *t, int fa, int fb, const double *a, char *why, size_t len)
{
	double a2[TCP_COUNTERS_MAX_METRICS];
	const char *where = "";
	CUptiResult r = evaluate(t, fa, 1, a2, &where);
	if (r != CUPTI_SUCCESS) {
		tcp_counters_error_text(r, where, why, len);
		return -1;
	}
	if (fb != fa + 1) {
		snprintf(why, len, "self-test: the second point's ranges start at %d, the first's at %d", fb, fa);
		return -1;
	}
	for (int i = 0; i < t->n; i++)
		if (!(fabs(a2[i] - a[i]) <= 1e-9 * fabs(a[i]))) {
			snprintf(why, len, "self-test: appending changed the first point's %s: %g, then %g",
				 t->m[i].name, a[i], a2[i]);
			return -1;
		}
	return 0;
}

/* selftest()'s two passes, one and two launches, and their checks. */
static int selftest_passes(tcp_counters_t *t, selftest_arg *one, selftest_arg *two, char *why, size_t len)
{
	double a[TCP_COUNTERS_MAX_METRICS], b[TCP_COUNTERS_MAX_METRICS];
	int fa = 0, ra = 0, fb = 0, rb = 0;
	int rounds = t->replay == REPLAY_USER ? t->passes : 1;

	/* load the module (JIT) outside the profiled passes */
	if (selftest_run(one) != 0 || cudaDeviceSynchronize() != cudaSuccess) {
		cudaError_t e = cudaGetLastError();	/* (and clear it) */
		snprintf(why, len, "self-test kernel does not run: %s", cudaGetErrorString(e));
		return -1;
	}
	if (measure_once(t, selftest_run, one, a, &fa, &ra, why, len))
		return -1;
	int rounds_a = t->rounds;
	if (measure_once(t, selftest_run, two, b, &fb, &rb, why, len))
		return -1;
	if (ra != 1 || rb != 2) {
		snprintf(why, len, "self-test: %d then %d ranges for 1 then 2 launches", ra, rb);
		return -1;
	}
	if (rounds_a != rounds || t->rounds != rounds) {
		snprintf(why, len, "self-test: %d and %d Start/Stop rounds, expected %d", rounds_a, t->rounds,
			 rounds);
		return -1;
	}
	if (one_then_two(t, a, b, 1, "self-test", why, len))
		return -1;
	if (t->duration >= 0 && !(a[t->duration] > 0)) {
		snprintf(why, len, "self-test: %s is 0", t->m[t->duration].name);
		return -1;
	}
	return t->book.append ? append_kept(t, fa, fb, a, why, len) : 0;
}

/* Batches (counters.h), in a keep session only; failing this is no failure
 * of the session: the worker measures point by point, the note says why. */
static void try_batches(tcp_counters_t *t, selftest_arg *one, selftest_arg *two)
{
	char bw[TCP_REASON_LEN];
	t->batch_ok = 0;
	if (!t->batch_asked || t->session != SESSION_KEEP)
		return;
	if (prove_batch(t, one, two, bw, sizeof(bw)) == 0)
		t->batch_ok = 1;
	else
		note_add(t, "no batches: %.200s", bw);
}

/*
 * selftest()
 *	Two counter passes in the session t describes, the second after the
 *	first was decoded: 1 launch must give 1 range, then 2 launches 2 ranges
 *	of their own (no range left over, nothing accumulated: every cycle count
 *	of the second 1.5-2.5x the first's), every metric finite, a time, cycle
 *	count or clock that counted in the first pass non-zero in the second (no
 *	replay pass lost), each pass as many Start/Stop rounds as the replay
 *	takes (user: the set's passes; kernel: 1), and with an appended image
 *	the first point's range evaluating as it did before the second was
 *	added.  Then batches, when asked.  0, or -1 with why.
 */
static int selftest(tcp_counters_t *t, char *why, size_t len)
{
	long long *sink = NULL;
	selftest_arg one = { 1, NULL }, two = { 2, NULL };

	if (cudaMalloc((void **)&sink, sizeof(long long)) != cudaSuccess) {
		(void)cudaGetLastError();
		snprintf(why, len, "self-test: cudaMalloc failed");
		return -1;
	}
	one.sink = two.sink = sink;
	int rc = selftest_passes(t, &one, &two, why, len);
	if (rc == 0)
		try_batches(t, &one, &two);
	cudaFree(sink);
	return rc;
}

/*
 * prove_session()
 *	Settle the session, starting from keep, user replay, image append
 *	(enabled and configured by open()): the self-test, and after a failure
 *	the next fallback (counters-session.cc's opening comment gives the
 *	order), each refusal said in t->session_note.  Session point is the
 *	last: nothing enabled between points, no self-test.
 */
static void prove_session(tcp_counters_t *t)
{
	char why[TCP_REASON_LEN];
	for (;;) {
		describe(t);
		if (selftest(t, why, sizeof(why)) == 0) {
			describe(t);	/* with ", batches" when proven */
			return;
		}
		/* not this one; a "permanent" error here is the session's, not the device's */
		t->broken = 0;
		t->why[0] = '\0';
		note_add(t, "%s: %s", t->desc, why);
		disable(t);
		if (t->book.append) {
			image_reset(t, 0);
		} else if (t->replay == REPLAY_USER) {
			t->replay = REPLAY_KERNEL;
			image_reset(t, 1);
		} else {
			t->session = SESSION_POINT;	/* kernel replay already */
			image_reset(t, 0);
			describe(t);
			return;
		}
	}
}

/* The device's profiler (step "init"): initialised, supported, its chip
 * name and counter availability.  0, or -1 with a reason. */
static int open_profiler(tcp_counters_t *t, char *reason, size_t len)
{
	CUpti_Profiler_Initialize_Params p = { CUpti_Profiler_Initialize_Params_STRUCT_SIZE };
	if (cupti_error(C.cuptiProfilerInitialize(&p), "cuptiProfilerInitialize", reason, len))
		return -1;
	t->profiler_init = 1;
	CUpti_Profiler_DeviceSupported_Params s = { CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE };
	s.cuDevice = (CUdevice)t->device;
	s.api = CUPTI_PROFILER_RANGE_PROFILING;
	if (cupti_error(C.cuptiProfilerDeviceSupported(&s), "cuptiProfilerDeviceSupported", reason, len))
		return -1;
	if (s.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
		snprintf(reason, len, "counters unsupported on device %d: %s", t->device, support_text(&s));
		return -1;
	}
	CUpti_Device_GetChipName_Params c = { CUpti_Device_GetChipName_Params_STRUCT_SIZE };
	c.deviceIndex = (size_t)t->device;
	if (cupti_error(C.cuptiDeviceGetChipName(&c), "cuptiDeviceGetChipName", reason, len))
		return -1;
	snprintf(t->chip, sizeof(t->chip), "%s", c.pChipName);
	CUpti_Profiler_GetCounterAvailability_Params a = { CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE };
	a.ctx = t->ctx;
	if (cupti_error(C.cuptiProfilerGetCounterAvailability(&a), "cuptiProfilerGetCounterAvailability", reason, len))
		return -1;
	t->avail = (uint8_t *)malloc(a.counterAvailabilityImageSize);
	if (!t->avail) {
		snprintf(reason, len, "out of host memory");
		return -1;
	}
	a.pCounterAvailabilityImage = t->avail;
	return cupti_error(C.cuptiProfilerGetCounterAvailability(&a), "cuptiProfilerGetCounterAvailability", reason,
			   len);
}

/* The keep session, before its self-test: Enable (the usual failures,
 * privileges or another profiler, show here, once per worker, rather than
 * at the first point), the image allocated and initialised, SetConfig.
 * 0, or -1 with a reason. */
static int open_session(tcp_counters_t *t, char *reason, size_t len)
{
	return cupti_error(timed_step(t, 1, "enable", [&] { return enable(t); }), "cuptiRangeProfilerEnable",
			   reason, len) ||
	       cupti_error(timed_step(t, 1, "image", [&] { return image_alloc(t); }),
			   "cuptiRangeProfilerGetCounterDataSize", reason, len) ||
	       cupti_error(timed_step(t, 1, "image_init", [&] { return image_init(t); }),
			   "cuptiRangeProfilerCounterDataImageInitialize", reason, len) ||
	       cupti_error(timed_step(t, 1, "set_config", [&] { return set_config(t); }),
			   "cuptiRangeProfilerSetConfig", reason, len)
		       ? -1
		       : 0;
}

tcp_counters_t *tcp_counters_open(int device, const char *spec, char *reason, size_t len)
{
	tcp_counters_t *t = NULL;
	int batch;
	CUcontext ctx;
	double t0, t_load;
	if (spec && !strcmp(spec, "none")) {
		snprintf(reason, len, "off");
		return NULL;
	}
	if (tcp_counters_batch_env(&batch, reason, len))
		return NULL;
	t0 = now_ms();
	if (load()) {
		snprintf(reason, len, "%s", C.err);
		return NULL;
	}
	t_load = now_ms() - t0;
	if (current_ctx(device, &ctx, reason, len))
		return NULL;
	t = alloc_handle("", device);
	if (!t) {
		snprintf(reason, len, "out of host memory");
		return NULL;
	}
	t->ctx = ctx;
	t->session = SESSION_KEEP;
	t->replay = REPLAY_USER;
	t->batch_asked = batch > 1;
	image_reset(t, 1);
	describe(t);
	phase_add(t->open_ph, &t->nopen_ph, "load", t_load);
	t0 = now_ms();
	if (open_profiler(t, reason, len))
		goto fail;
	phase_add(t->open_ph, &t->nopen_ph, "init", now_ms() - t0);
	/* the metric set: host object, config image, passes */
	if (timed_step(t, 1, "config", [&] {
		    return host_init(t->chip, t->avail, &t->host, reason, len) || resolve(t, spec, reason, len);
	    }) ||
	    open_session(t, reason, len))
		goto fail;
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
	int first, nranges;

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
	int rc = measure_once(t, fn, arg, values, &first, &nranges, reason, len);
	if (rc && t->obj)
		timed_step(t, 0, "disable", [&] {
			disable(t);
			return 0;
		});
	return rc;
}

/*
 * tcp_counters_measure_batch()
 *	measure_batch() with tcp_counters_measure()'s handling of a failure.
 */
int tcp_counters_measure_batch(tcp_counters_t *t, int n, int (*fn)(void *arg), void *const *args,
			       double *values, int *nranges, int *failed, char *reason, size_t len)
{
	*failed = -1;
	if (!t || t->device < 0 || !t->batch_ok || n < 1) {
		snprintf(reason, len, "counters: no batch session");
		return -1;
	}
	t->nph = 0;
	if (t->broken) {
		for (int i = 0; i < n * t->n; i++)
			values[i] = NAN;
		snprintf(reason, len, "%s", t->why);
		return -1;
	}
	int rc = measure_batch(t, n, fn, args, values, nranges, failed, reason, len);
	if (rc && t->obj)
		timed_step(t, 0, "disable", [&] {
			disable(t);
			return 0;
		});
	return rc;
}

int tcp_counters_batch_ok(const tcp_counters_t *t)
{
	return t && t->device >= 0 && t->batch_ok && !t->broken;
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
	return t && t->device >= 0 ? t->desc : "";
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
	if (t->sub)
		C.cuptiUnsubscribe(t->sub);
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
