/*
 * counters-cupti.h
 *	What the two CUPTI translation units of harness/measure share, and nothing
 *	else includes (C++ only: cupti_profiler_host.h is): the dlopen'ed
 *	function table, the handle behind tcp_counters_t, and the host-side
 *	helpers the device session calls.
 *	  counters.cc          loader, metric tables, error texts, host-side
 *	                       resolution (no GPU), accessors, CSV rows
 *	  counters-session.cc  the device session: open / measure / close, what
 *	                       each step costs (TCPROBE_PHASES)
 */
#ifndef TCP_COUNTERS_CUPTI_H
#define TCP_COUNTERS_CUPTI_H

#include <stddef.h>
#include <stdint.h>

#include <cuda.h>
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_profiler_host.h>
#include <cupti_runtime_cbid.h>
#include <cupti_version.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include "harness/measure/counters-book.h"
#include "harness/measure/counters.h"

#define CUPTI_FUNCS(X) \
	X(cuptiGetResultString) \
	X(cuptiProfilerInitialize) \
	X(cuptiProfilerDeInitialize) \
	X(cuptiProfilerDeviceSupported) \
	X(cuptiProfilerGetCounterAvailability) \
	X(cuptiDeviceGetChipName) \
	X(cuptiProfilerHostGetSupportedChips) \
	X(cuptiProfilerHostInitialize) \
	X(cuptiProfilerHostDeinitialize) \
	X(cuptiProfilerHostGetBaseMetrics) \
	X(cuptiProfilerHostGetMetricProperties) \
	X(cuptiProfilerHostConfigAddMetrics) \
	X(cuptiProfilerHostGetConfigImageSize) \
	X(cuptiProfilerHostGetConfigImage) \
	X(cuptiProfilerHostGetNumOfPasses) \
	X(cuptiProfilerHostEvaluateToGpuValues) \
	X(cuptiRangeProfilerEnable) \
	X(cuptiRangeProfilerDisable) \
	X(cuptiRangeProfilerGetCounterDataSize) \
	X(cuptiRangeProfilerCounterDataImageInitialize) \
	X(cuptiRangeProfilerSetConfig) \
	X(cuptiRangeProfilerStart) \
	X(cuptiRangeProfilerStop) \
	X(cuptiRangeProfilerDecodeData) \
	X(cuptiRangeProfilerGetCounterDataInfo) \
	X(cuptiSubscribe) \
	X(cuptiUnsubscribe) \
	X(cuptiEnableDomain)

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

namespace tcp_cupti {

/* libcupti's functions, resolved by load() (counters.cc). */
struct lib {
	int state;			/* 0 untried, 1 loaded, -1 failed */
	void *lib;
	char path[512];			/* where libcupti.so.13 was found */
	char err[TCP_REASON_LEN];
#define CUPTI_FN(f) decltype(&::f) f;
	CUPTI_FUNCS(CUPTI_FN)
#undef CUPTI_FN
};
extern lib C;

/* Load libcupti (first call) and every function above: 0, or -1 with C.err. */
int load(void);

/* How a device session pays its set-up (counters-session.cc says why):
 * once per worker, or every step per point (the fallback). */
enum session_kind { SESSION_KEEP = 0, SESSION_POINT };
/* Who replays run() for multi-pass metric sets: the worker (one run() a pass)
 * or CUPTI (each kernel, device memory saved and restored around it; the
 * fallback). */
enum replay_kind { REPLAY_USER = 0, REPLAY_KERNEL };

} /* namespace tcp_cupti */

struct tcp_counters {
	char chip[32];
	int device;			/* -1: host-only handle */
	int n;
	tcp_counter_metric_t m[TCP_COUNTERS_MAX_METRICS];
	char names[TCP_COUNTERS_MAX_METRICS][128];	/* storage behind m[i].name (LIST specs) */
	char units[TCP_COUNTERS_MAX_METRICS][32];
	const char *cnames[TCP_COUNTERS_MAX_METRICS];	/* for the CUPTI calls */
	int tensor;			/* index of the TENSOR_INSTS metric, -1 */
	int duration;			/* index of the DURATION metric, -1 */
	int passes;
	CUpti_Profiler_Host_Object *host;
	uint8_t *avail;			/* counter availability image (device handles) */
	uint8_t *config;
	size_t config_size;
	CUcontext ctx;
	int profiler_init;		/* cuptiProfilerInitialize succeeded */
	int broken;			/* a permanent error: measure() repeats `why` */
	char why[TCP_REASON_LEN];
	/* the device session (counters-session.cc) */
	tcp_cupti::session_kind session;
	char session_note[TCP_REASON_LEN];	/* why it is not "keep, user replay, image append"
						 * or has no batches; "" when nothing was refused */
	CUpti_RangeProfiler_Object *obj;	/* enabled profiler (keep); NULL = none */
	int configured;			/* keep: SetConfig done on obj */
	tcp_cupti::replay_kind replay;
	uint8_t *data;			/* counter data image (keep) */
	size_t data_size;
	tcp_ctr_book_t book;		/* which of its ranges are whose; its size and mode */
	int rounds;			/* Start/Stop rounds of the last measure() (user replay: passes) */
	int batch_asked;		/* open(): prove batches (TCPROBE_COUNTERS_BATCH > 1) */
	int batch_ok;			/* proven: several points' run()s in one pass split exactly */
	CUpti_SubscriberHandle sub;	/* counts launches while a batch runs (NULL: none) */
	long long launches[2];		/* launches seen: driver, runtime API */
	char desc[64];			/* "keep, user replay, image append": tcp_counters_session() */
	tcp_counters_phase_t ph[TCP_COUNTERS_MAX_PHASES];	/* the last measure()'s steps */
	int nph;
	tcp_counters_phase_t open_ph[TCP_COUNTERS_MAX_PHASES];	/* open()'s steps */
	int nopen_ph;
};

#define CUPTI_TRY(call, where)                                                    \
	do {                                                                      \
		CUptiResult r_ = (call);                                          \
		if (r_ != CUPTI_SUCCESS) {                                        \
			tcp_counters_error_text(r_, where, reason, len);          \
			goto fail;                                                \
		}                                                                 \
	} while (0)

namespace tcp_cupti {

/* Host side (counters.cc). */
int host_init(const char *chip, const uint8_t *avail, CUpti_Profiler_Host_Object **host,
	      char *reason, size_t len);
void host_deinit(CUpti_Profiler_Host_Object *host);
/* Fill t->m[] from spec, build the config image, count the passes. */
int resolve(tcp_counters_t *t, const char *spec, char *reason, size_t len);
tcp_counters_t *alloc_handle(const char *chip, int device);

/* Device side (counters-session.cc): the primary context of `device`, current. */
int current_ctx(int device, CUcontext *ctx, char *reason, size_t len);

} /* namespace tcp_cupti */

#endif /* TCP_COUNTERS_CUPTI_H */
