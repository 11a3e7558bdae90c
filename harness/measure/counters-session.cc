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
 *	Session kinds, TCPROBE_COUNTERS_SESSION=keep|worker|point (default keep):
 *	  keep    Enable and SetConfig once in open(); the image is
 *	          re-initialised in place when needed (the buffer SetConfig was given)
 *	  worker  Enable once; per point image initialise + SetConfig
 *	  point   everything per point, unbatched (the reference to compare against)
 *	Replay, TCPROBE_COUNTERS_REPLAY=user|kernel (default user): user = the
 *	worker calls run() once per pass between Start and Stop until CUPTI says
 *	every pass was submitted ("Kernel Replay ... only supported in Auto Range
 *	Mode"; "User Replay ... supports both Auto and User range modes": CUPTI
 *	docs, Range Profiling API, Replay Modes); kernel = CUPTI replays each
 *	kernel within one Start/Stop.
 *	Image, TCPROBE_COUNTERS_IMAGE=append|fresh (default append): append =
 *	one image for many points (auto-range ranges of successive Start/Stop
 *	sessions follow each other); fresh = initialised before every point,
 *	sized for what run() launches.
 *	CUPTI does not document that a configured session may run again, nor
 *	that ranges of successive sessions append, so open() proves it: a
 *	self-test kernel measured twice (1 launch, then 2) must give 1 then 2
 *	ranges of its own (in append mode the first point's range unchanged after
 *	the second), the second's cycle counts about twice the first's (nothing
 *	left over or added up), every metric finite, no time or cycle count that
 *	counted in the first pass zero in the second, and as many Start/Stop
 *	rounds as the replay mode takes.  A failure falls back: image append ->
 *	fresh, then user replay -> kernel (image as asked), then keep -> worker
 *	-> point; the reasons are in tcp_counters_session_note().  A measure()
 *	that fails in a long-lived session discards it (Disable); the next point
 *	enables afresh.
 *
 *	One pass where the names take two (TCPROBE_COUNTERS_FORM=names|one-pass,
 *	default names: on an H200 the one-pass set's Start cost 24.5 ms a point
 *	against 2 x ~4.7 for the two passes, so one pass is slower; docs/findings.md
 *	"What the harness costs"): a set whose rows name a `one_pass` source (GH100's
 *	tensor-pipe active cycles, counters.cc) is collected in that form only
 *	after prove_one_pass() read every name beside its source, in one pass of
 *	one tensor kernel, equal; else under the names, the note saying why.
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
#include "harness/measure/measure-kernels.h"

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

static const char *const replay_names[] = { "user", "kernel" };
static const char *const image_names[] = { "append", "fresh" };
static const char *const form_names[] = { "names", "one-pass" };

/* Environment variable `var`: index of its value in names[n] (unset or empty:
 * 0), or -1 with "VAR: got 'x', expected a, b or c". */
static int env_choice(const char *var, const char *const *names, int n, int *kind, char *err, size_t len)
{
	const char *v = getenv(var);
	*kind = 0;
	if (!v || !*v)
		return 0;
	for (int i = 0; i < n; i++)
		if (!strcmp(v, names[i])) {
			*kind = i;
			return 0;
		}
	size_t o = (size_t)snprintf(err, len, "%s: got '%.60s', expected ", var, v);
	for (int i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(err + o, len - o, "%s%s", names[i],
				      i == n - 1 ? "" : i == n - 2 ? " or " : ", ");
	return -1;
}

int tcp_counters_session_env(int *kind, char *err, size_t len)
{
	return env_choice("TCPROBE_COUNTERS_SESSION", session_names, NELEM(session_names), kind, err, len);
}

int tcp_counters_replay_env(int *kind, char *err, size_t len)
{
	return env_choice("TCPROBE_COUNTERS_REPLAY", replay_names, NELEM(replay_names), kind, err, len);
}

int tcp_counters_image_env(int *kind, char *err, size_t len)
{
	return env_choice("TCPROBE_COUNTERS_IMAGE", image_names, NELEM(image_names), kind, err, len);
}

int tcp_counters_form_env(int *kind, char *err, size_t len)
{
	return env_choice("TCPROBE_COUNTERS_FORM", form_names, NELEM(form_names), kind, err, len);
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

/*
 * measure_once()
 *	One counter pass of fn(arg) in the session t describes; values as
 *	tcp_counters_measure(), *first / *nranges = the point's ranges in the
 *	image.  0, or -1 with a reason.  Leaves the long-lived state (t->obj,
 *	t->data) as it found it, except that a kind-keep/worker session with no
 *	profiler enables one, and that the image may be re-initialised or grown
 *	(counters-book.h); a point whose kernels did not fit runs again.
 *	values NULL: not evaluated (a batch splits the ranges first).
 */
static int measure_once(tcp_counters_t *t, int (*fn)(void *arg), void *arg, double *values,
			int *first, int *nranges, char *reason, size_t len)
{
	int rc = -1, started = 0, per_point = t->session == SESSION_POINT;

	*first = *nranges = 0;
	t->rounds = 0;
	for (int i = 0; values && i < t->n; i++)
		values[i] = NAN;
	/* at most: a retry on a fresh image, then one grown to what run() needs */
	for (int attempt = 0;; attempt++) {
		if (attempt == 3) {
			snprintf(reason, len, "counter pass: the kernels of run() did not fit the image in 3 tries");
			goto out;
		}
		if (!t->obj)
			MEASURE_TRY(timed_step(t, 0, "enable", [&] { return enable(t); }), "cuptiRangeProfilerEnable");
		if (per_point || !t->data)
			MEASURE_TRY(timed_step(t, 0, "image", [&] { return image_alloc(t); }),
				    "cuptiRangeProfilerGetCounterDataSize");
		if (tcp_ctr_book_need_init(&t->book))
			MEASURE_TRY(timed_step(t, 0, "image_init", [&] { return image_init(t); }),
				    "cuptiRangeProfilerCounterDataImageInitialize");
		if (t->session != SESSION_KEEP || !t->configured)
			MEASURE_TRY(timed_step(t, 0, "set_config", [&] { return set_config(t); }),
				    "cuptiRangeProfilerSetConfig");
		/* Start / run() / Stop until every pass is submitted: once under
		 * kernel replay (CUPTI replays inside), once per pass under user
		 * replay (CUPTI docs, Range Profiling API usage, Stop) */
		t->rounds = 0;
		for (int done = 0; !done;) {
			if (t->rounds > t->passes) {
				snprintf(reason, len, "counter pass: CUPTI still wants passes after %d rounds "
					 "(the set has %d)", t->rounds, t->passes);
				goto out;
			}
			CUpti_RangeProfiler_Start_Params s = { CUpti_RangeProfiler_Start_Params_STRUCT_SIZE };
			s.pRangeProfilerObject = t->obj;
			MEASURE_TRY(timed_step(t, 0, "start", [&] { return C.cuptiRangeProfilerStart(&s); }),
				    "cuptiRangeProfilerStart");
			started = 1;
			/* run() (and under kernel replay its replayed passes, memory save/restore included) */
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
			t->rounds++;
			done = sp.isAllPassSubmitted;
		}
		CUpti_RangeProfiler_DecodeData_Params d = { CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE };
		d.pRangeProfilerObject = t->obj;
		MEASURE_TRY(timed_step(t, 0, "decode", [&] { return C.cuptiRangeProfilerDecodeData(&d); }),
			    "cuptiRangeProfilerDecodeData");
		CUpti_RangeProfiler_GetCounterDataInfo_Params info = {
			CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE };
		info.pCounterDataImage = t->data;
		info.counterDataImageSize = t->data_size;
		MEASURE_TRY(C.cuptiRangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo");
		tcp_ctr_book_verdict_t v = tcp_ctr_book_after(&t->book, info.numTotalRanges, d.numOfRangeDropped,
							      first, nranges, reason, len);
		if (v == TCP_BOOK_OK)
			break;
		if (v == TCP_BOOK_FAIL)
			goto out;
		if (v == TCP_BOOK_GROW) {
			tcp_ctr_book_resize(&t->book, *nranges);
			MEASURE_TRY(timed_step(t, 0, "image", [&] { return image_alloc(t); }),
				    "cuptiRangeProfilerGetCounterDataSize");
		}
		/* RETRY, GROW: again, on a fresh image */
	}
	if (values) {
		double t0 = now_ms();
		const char *where = "";
		MEASURE_TRY(evaluate(t, *first, *nranges, values, &where), where);
		phase_add(t->ph, &t->nph, "evaluate", now_ms() - t0);
	}
	rc = 0;
out:
	if (rc && values)
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
	for (int i = 0; i < t->n; i++) {
		double a = v[i], b = v[t->n + i];
		if (!isfinite(a) || !isfinite(b)) {
			snprintf(why, len, "batch self-test: %s not finite (%g, %g)", t->m[i].name, a, b);
			return -1;
		}
		if (!strcmp(t->m[i].unit, "cycles") && t->m[i].rollup == TCP_ROLLUP_SUM && a > 0 &&
		    !(b >= 1.5 * a && b <= 2.5 * a)) {
			snprintf(why, len, "batch self-test: %s %g for 1 launch, %g for 2", t->m[i].name, a, b);
			return -1;
		}
	}
	return 0;
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
 *	added.  0, or -1 with why.
 */
static int selftest(tcp_counters_t *t, char *why, size_t len)
{
	long long *sink = NULL;
	selftest_arg one = { 1, NULL }, two = { 2, NULL };
	double a[TCP_COUNTERS_MAX_METRICS], b[TCP_COUNTERS_MAX_METRICS], a2[TCP_COUNTERS_MAX_METRICS];
	int fa = 0, ra = 0, fb = 0, rb = 0, rounds_a, rc = -1;
	int rounds = t->replay == REPLAY_USER ? t->passes : 1;

	if (cudaMalloc((void **)&sink, sizeof(long long)) != cudaSuccess) {
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
	if (measure_once(t, selftest_run, &one, a, &fa, &ra, why, len))
		goto out;
	rounds_a = t->rounds;
	if (measure_once(t, selftest_run, &two, b, &fb, &rb, why, len))
		goto out;
	if (ra != 1 || rb != 2) {
		snprintf(why, len, "self-test: %d then %d ranges for 1 then 2 launches", ra, rb);
		goto out;
	}
	if (rounds_a != rounds || t->rounds != rounds) {
		snprintf(why, len, "self-test: %d and %d Start/Stop rounds, expected %d", rounds_a, t->rounds,
			 rounds);
		goto out;
	}
	for (int i = 0; i < t->n; i++) {
		if (!isfinite(a[i]) || !isfinite(b[i])) {
			snprintf(why, len, "self-test: %s not finite (%g, %g)", t->m[i].name, a[i], b[i]);
			goto out;
		}
		/* times, cycles and clocks of a kernel that ran are never 0 (bytes may be) */
		int cycles = !strcmp(t->m[i].unit, "cycles");
		int timing = cycles || !strcmp(t->m[i].unit, "ns") || !strcmp(t->m[i].unit, "MHz");
		if (timing && a[i] > 0 && !(b[i] > 0)) {
			snprintf(why, len, "self-test: %s %g, then %g", t->m[i].name, a[i], b[i]);
			goto out;
		}
		/* two launches of the same kernel: twice the cycles, not one or three times */
		if (cycles && t->m[i].rollup == TCP_ROLLUP_SUM && a[i] > 0 &&
		    !(b[i] >= 1.5 * a[i] && b[i] <= 2.5 * a[i])) {
			snprintf(why, len, "self-test: %s %g for 1 launch, %g for 2", t->m[i].name, a[i], b[i]);
			goto out;
		}
	}
	if (t->duration >= 0 && !(a[t->duration] > 0)) {
		snprintf(why, len, "self-test: %s is 0", t->m[t->duration].name);
		goto out;
	}
	if (t->book.append) {
		const char *where = "";
		CUptiResult r = evaluate(t, fa, 1, a2, &where);
		if (r != CUPTI_SUCCESS) {
			tcp_counters_error_text(r, where, why, len);
			goto out;
		}
		if (fb != fa + 1) {
			snprintf(why, len, "self-test: the second point's ranges start at %d, the first's at %d",
				 fb, fa);
			goto out;
		}
		for (int i = 0; i < t->n; i++)
			if (!(fabs(a2[i] - a[i]) <= 1e-9 * fabs(a[i]))) {
				snprintf(why, len, "self-test: appending changed the first point's %s: %g, then %g",
					 t->m[i].name, a[i], a2[i]);
				goto out;
			}
	}
	rc = 0;
	/* batches (counters.h): a long-lived session only; failing this is no
	 * failure of the session, the worker measures point by point */
	t->batch_ok = 0;
	if (t->batch_asked && t->session == SESSION_KEEP) {
		char bw[TCP_REASON_LEN];
		if (prove_batch(t, &one, &two, bw, sizeof(bw)) == 0) {
			t->batch_ok = 1;
		} else {
			size_t o = strlen(t->session_note);
			snprintf(t->session_note + o, sizeof(t->session_note) - o, "%sno batches: %.200s",
				 o ? "; " : "", bw);
		}
	}
out:
	cudaFree(sink);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The set's one-pass form, proven (counters.cc, set_hopper)           */
/* ------------------------------------------------------------------ */

struct tensor_arg {
	int blocks;
	float *sink;
};

static int tensor_run(void *p)
{
	tensor_arg *a = (tensor_arg *)p;
	int iters = 2048;
	void *args[] = { &iters, &a->sink };
	(void)cudaLaunchKernel(tcp_counters_tensor_fn, dim3((unsigned)a->blocks), dim3(32), args, 0, 0);
	return cudaGetLastError() == cudaSuccess ? 0 : -1;
}

/*
 * prove_one_pass()
 *	Every row with a one-pass source read side by side with it, in one
 *	pass of one run of a tensor kernel (a session of its own, enabled and
 *	disabled here, before the worker's): each pair must be non-zero and
 *	exactly equal.  0, or -1 with why.
 */
static int prove_one_pass(tcp_counters_t *t, char *why, size_t len)
{
	char spec[1024];
	size_t o = 0;
	int npair = 0, rc = -1, first, nr;
	double v[TCP_COUNTERS_MAX_METRICS];
	tensor_arg arg = { 0, NULL };
	tcp_counters_t *p = alloc_handle(t->chip, t->device);

	if (!p) {
		snprintf(why, len, "out of host memory");
		return -1;
	}
	for (int i = 0; i < t->n && o < sizeof(spec); i++)
		if (t->m[i].one_pass) {
			o += (size_t)snprintf(spec + o, sizeof(spec) - o, "%s%s,%s", o ? "," : "", t->m[i].name,
					      t->m[i].one_pass);
			npair++;
		}
	p->ctx = t->ctx;
	p->avail = t->avail;	/* borrowed: not freed by close() */
	p->session = SESSION_POINT;
	p->replay = p->replay_asked = REPLAY_USER;
	image_reset(p, 0);
	if (host_init(t->chip, t->avail, &p->host, why, len) || resolve(p, spec, why, len))
		goto out;
	if (p->n != 2 * npair || p->passes != 1) {
		snprintf(why, len, "the side-by-side check takes %d metrics in %d passes, expected %d in 1",
			 p->n, p->passes, 2 * npair);
		goto out;
	}
	if (cudaDeviceGetAttribute(&arg.blocks, cudaDevAttrMultiProcessorCount, t->device) != cudaSuccess ||
	    cudaMalloc((void **)&arg.sink, sizeof(float) * (size_t)(2 * arg.blocks + 1)) != cudaSuccess) {
		(void)cudaGetLastError();
		snprintf(why, len, "no device memory for the tensor kernel");
		goto out;
	}
	arg.blocks = 2 * arg.blocks + 1;
	/* load the module (JIT) outside the profiled pass */
	if (tensor_run(&arg) != 0 || cudaDeviceSynchronize() != cudaSuccess) {
		snprintf(why, len, "tensor kernel does not run: %s", cudaGetErrorString(cudaGetLastError()));
		goto out;
	}
	if (measure_once(p, tensor_run, &arg, v, &first, &nr, why, len))
		goto out;
	for (int i = 0; i < p->n; i += 2)
		if (!(v[i] > 0) || v[i] != v[i + 1]) {
			snprintf(why, len, "%s %.17g but %s %.17g on a tensor kernel", p->m[i].name, v[i],
				 p->m[i + 1].name, v[i + 1]);
			goto out;
		}
	rc = 0;
out:
	if (arg.sink)
		cudaFree(arg.sink);
	p->avail = NULL;
	tcp_counters_close(p);
	return rc;
}

/*
 * prove_session()
 *	Settle the session, starting from what was asked: keep and worker run
 *	the self-test on an enabled profiler (keep configured first); a failure
 *	falls back (image append -> fresh; user replay -> kernel, image as
 *	asked; keep -> worker -> point, replay and image as asked) and says why
 *	in t->session_note.  point leaves nothing enabled between points, and
 *	replays by kernel if user replay failed its self-test.
 */
static void prove_session(tcp_counters_t *t)
{
	char why[TCP_REASON_LEN];
	int user_failed = 0;
	for (;;) {
		if (t->session == SESSION_POINT) {
			disable(t);
			if (user_failed)
				t->replay = REPLAY_KERNEL;
			image_reset(t, 0);
			describe(t);
			return;
		}
		describe(t);
		if (selftest(t, why, sizeof(why)) == 0) {
			describe(t);	/* with ", batches" when proven */
			return;
		}
		/* not this one; a "permanent" error here is the session's, not the device's */
		t->broken = 0;
		t->why[0] = '\0';
		size_t o = strlen(t->session_note);
		snprintf(t->session_note + o, sizeof(t->session_note) - o, "%s%s: %s", o ? "; " : "", t->desc, why);
		disable(t);
		if (t->book.append) {
			image_reset(t, 0);
			continue;
		}
		if (t->replay == REPLAY_USER) {
			user_failed = 1;
			t->replay = REPLAY_KERNEL;
		} else {	/* kernel replay already (asked, or user failed) */
			t->session = (session_kind)(t->session + 1);
		}
		image_reset(t, t->image_asked == IMAGE_APPEND);
	}
}

tcp_counters_t *tcp_counters_open(int device, const char *spec, char *reason, size_t len)
{
	tcp_counters_t *t = NULL;
	int kind, replay, image, form, batch;
	if (spec && !strcmp(spec, "none")) {
		snprintf(reason, len, "off");
		return NULL;
	}
	if (tcp_counters_session_env(&kind, reason, len) || tcp_counters_replay_env(&replay, reason, len) ||
	    tcp_counters_image_env(&image, reason, len) || tcp_counters_form_env(&form, reason, len) ||
	    tcp_counters_batch_env(&batch, reason, len))
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
	t->replay = t->replay_asked = (replay_kind)replay;
	t->image_asked = (image_kind)image;
	t->batch_asked = batch > 1;
	image_reset(t, image == IMAGE_APPEND && kind != SESSION_POINT);
	describe(t);
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
	/* fewer passes for the same numbers: only once read equal here */
	if (t->passes1 > 0) {
		char why[TCP_REASON_LEN];
		if (form == 0)
			snprintf(t->session_note, sizeof(t->session_note), "one-pass form not used: "
				 "TCPROBE_COUNTERS_FORM=names (the default)");
		else if (timed_step(t, 1, "one_pass", [&] { return prove_one_pass(t, why, sizeof(why)); }) == 0)
			use_one_pass(t);
		else
			snprintf(t->session_note, sizeof(t->session_note), "one-pass form not used: %.200s", why);
	}
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
	host_deinit(t->host1);
	free(t->config1);
	if (t->profiler_init) {
		CUpti_Profiler_DeInitialize_Params p = { CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE };
		C.cuptiProfilerDeInitialize(&p);
	}
	free(t->avail);
	free(t->config);
	free(t);
}
