/*
 * cupti-timer.c
 *	Kernel timestamps from the CUPTI Activity API (`--timer cupti`).
 *	Includes only the C headers of CUPTI (cupti_activity.h); libcupti is
 *	reached through tcp_cupti_sym() (harness/measure/counters.cc), which dlopens it.
 *
 *	CUPTI hands records back in buffers we supply; buffer_done() runs on the
 *	caller's thread during a forced flush, or on a CUPTI thread when a
 *	buffer fills, so the accumulator is under a mutex.
 */
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <cupti_activity.h>
#include <cupti_activity_deprecated.h>	/* CUpti_ActivityKernel4: the oldest layout we read */
#include <cupti_result.h>
#include <cupti_version.h>

#include "harness/measure/counters.h"
#include "harness/measure/cupti-timer.h"

#define BUF_SIZE (1u << 20)	/* ~4000 kernel records per buffer */

typedef CUptiResult (*register_fn)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
typedef CUptiResult (*kind_fn)(CUpti_ActivityKind);
typedef CUptiResult (*flush_fn)(uint32_t);
typedef CUptiResult (*next_fn)(uint8_t *, size_t, CUpti_Activity **);
typedef CUptiResult (*dropped_fn)(CUcontext, uint32_t, size_t *);
typedef CUptiResult (*result_string_fn)(CUptiResult, const char **);

static struct {
	int open;
	register_fn reg;
	kind_fn enable, disable;
	flush_fn flush;
	next_fn next;
	dropped_fn dropped_records;
	result_string_fn result_string;
	pthread_mutex_t lock;
	/* accumulator, under lock */
	int kernels;
	uint64_t first, last, busy, dropped;
} T = { .lock = PTHREAD_MUTEX_INITIALIZER };

static const char *const timer_names[] = { "events", "cupti" };

int tcp_timer_parse(const char *s, tcp_timer_t *t, char *err, size_t len)
{
	for (int i = 0; i < 2; i++)
		if (s && !strcmp(s, timer_names[i])) {
			*t = (tcp_timer_t)i;
			return 0;
		}
	snprintf(err, len, "bad --timer '%s' (legal: events, cupti)", s ? s : "");
	return -1;
}

const char *tcp_timer_name(tcp_timer_t t)
{
	return (unsigned)t < 2 ? timer_names[t] : "?";
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
	/* CUPTI wants 8-byte aligned buffers */
	*buffer = (uint8_t *)aligned_alloc(8, BUF_SIZE);
	*size = *buffer ? BUF_SIZE : 0;
	*max_records = 0;
}

/*
 * kernel_times()
 *	start and end of a kernel record.  The record is laid out as the
 *	CUpti_ActivityKernelN of the libcupti loaded at run time, which may be
 *	older or newer than the headers we were built with (CUDA 12.8 headers
 *	stop at ...Kernel9, 13.0's add ...Kernel10).  Every version from
 *	...Kernel4 (CUDA 9) on starts with the same fields up to `end`, so we
 *	read only that prefix, at offsets checked against the headers' oldest
 *	and newest structs, and never cast to a whole struct of one version.
 */
#define KERNEL_START_OFF 16
#define KERNEL_END_OFF 24
_Static_assert(offsetof(CUpti_ActivityKernel4, start) == KERNEL_START_OFF &&
		       offsetof(CUpti_ActivityKernel4, end) == KERNEL_END_OFF,
	       "CUPTI kernel record prefix moved (CUpti_ActivityKernel4)");
#if CUPTI_API_VERSION >= 130000
_Static_assert(offsetof(CUpti_ActivityKernel10, start) == KERNEL_START_OFF &&
		       offsetof(CUpti_ActivityKernel10, end) == KERNEL_END_OFF,
	       "CUPTI kernel record prefix moved (CUpti_ActivityKernel10)");
#else
_Static_assert(offsetof(CUpti_ActivityKernel9, start) == KERNEL_START_OFF &&
		       offsetof(CUpti_ActivityKernel9, end) == KERNEL_END_OFF,
	       "CUPTI kernel record prefix moved (CUpti_ActivityKernel9)");
#endif

static void kernel_times(const CUpti_Activity *rec, uint64_t *start, uint64_t *end)
{
	memcpy(start, (const uint8_t *)rec + KERNEL_START_OFF, sizeof(*start));
	memcpy(end, (const uint8_t *)rec + KERNEL_END_OFF, sizeof(*end));
}

static void CUPTIAPI buffer_done(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
				 size_t valid)
{
	CUpti_Activity *rec = NULL;
	pthread_mutex_lock(&T.lock);
	while (valid && T.next(buffer, valid, &rec) == CUPTI_SUCCESS) {
		if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
		    rec->kind != CUPTI_ACTIVITY_KIND_KERNEL)
			continue;
		uint64_t start, end;
		kernel_times(rec, &start, &end);
		if (start == 0 || end < start)
			continue;	/* 0 = no timing collected */
		if (T.kernels == 0 || start < T.first)
			T.first = start;
		if (T.kernels == 0 || end > T.last)
			T.last = end;
		T.busy += end - start;
		T.kernels++;
	}
	size_t d = 0;
	if (ctx && T.dropped_records(ctx, stream, &d) == CUPTI_SUCCESS)
		T.dropped += d;
	pthread_mutex_unlock(&T.lock);
	(void)size;
	free(buffer);
}

static int fail(CUptiResult r, const char *where, char *reason, size_t len)
{
	const char *s = NULL;
	if (T.result_string)
		T.result_string(r, &s);
	snprintf(reason, len, "cupti timer: %s in %s; remedy: %s", s ? s : "CUPTI error", where,
		 tcp_counters_remedy((int)r));
	return -1;
}

int tcp_cupti_timer_open(char *reason, size_t len)
{
	if (T.open)
		return 0;
	/* ISO C forbids object->function pointer casts; POSIX dlsym needs them */
	T.reg = (register_fn)tcp_cupti_sym("cuptiActivityRegisterCallbacks", reason, len);
	T.enable = (kind_fn)tcp_cupti_sym("cuptiActivityEnable", reason, len);
	T.disable = (kind_fn)tcp_cupti_sym("cuptiActivityDisable", reason, len);
	T.flush = (flush_fn)tcp_cupti_sym("cuptiActivityFlushAll", reason, len);
	T.next = (next_fn)tcp_cupti_sym("cuptiActivityGetNextRecord", reason, len);
	T.dropped_records = (dropped_fn)tcp_cupti_sym("cuptiActivityGetNumDroppedRecords", reason, len);
	T.result_string = (result_string_fn)tcp_cupti_sym("cuptiGetResultString", reason, len);
	if (!T.reg || !T.enable || !T.disable || !T.flush || !T.next || !T.dropped_records ||
	    !T.result_string)
		return -1;
	CUptiResult r = T.reg(buffer_requested, buffer_done);
	if (r != CUPTI_SUCCESS)
		return fail(r, "cuptiActivityRegisterCallbacks", reason, len);
	T.open = 1;
	return 0;
}

int tcp_cupti_timer_begin(char *reason, size_t len)
{
	if (!T.open) {
		snprintf(reason, len, "cupti timer: not open");
		return -1;
	}
	pthread_mutex_lock(&T.lock);
	T.kernels = 0;
	T.first = T.last = T.busy = T.dropped = 0;
	pthread_mutex_unlock(&T.lock);
	CUptiResult r = T.enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
	return r == CUPTI_SUCCESS ? 0 : fail(r, "cuptiActivityEnable", reason, len);
}

int tcp_cupti_timer_end(tcp_cupti_timing_t *out, char *reason, size_t len)
{
	memset(out, 0, sizeof(*out));
	if (!T.open) {
		snprintf(reason, len, "cupti timer: not open");
		return -1;
	}
	cudaError_t e = cudaDeviceSynchronize();
	CUptiResult r = T.flush(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	CUptiResult rd = T.disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
	if (e != cudaSuccess) {
		snprintf(reason, len, "cupti timer: %s", cudaGetErrorString(e));
		return -1;
	}
	if (r != CUPTI_SUCCESS)
		return fail(r, "cuptiActivityFlushAll", reason, len);
	if (rd != CUPTI_SUCCESS)
		return fail(rd, "cuptiActivityDisable", reason, len);
	pthread_mutex_lock(&T.lock);
	out->kernels = T.kernels;
	out->first_start = T.first;
	out->last_end = T.last;
	out->busy_ns = (double)T.busy;
	out->span_ns = T.kernels ? (double)(T.last - T.first) : NAN;
	out->dropped = T.dropped;
	pthread_mutex_unlock(&T.lock);
	if (out->dropped) {
		snprintf(reason, len, "cupti timer: %llu kernel records dropped",
			 (unsigned long long)out->dropped);
		return -1;
	}
	return 0;
}

void tcp_cupti_timer_close(void)
{
	if (!T.open)
		return;
	T.flush(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	T.open = 0;
}
