/*
 * counters.h
 *	CUPTI hardware counters behind a plain C interface (harness/counters.cu is
 *	the only translation unit that includes CUPTI headers).
 *
 *	The worker opens one session per device after its CUDA context exists,
 *	and for each OK point calls tcp_counters_measure() around one extra run()
 *	of the probe -- never around the timed runs (kernel replay serialises and
 *	repeats launches).  When counters cannot be read, open/measure return NULL/-1
 *	with CUPTI's error text and the remedy in `reason`; the timing rows stand.
 */
#ifndef TCP_COUNTERS_H
#define TCP_COUNTERS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tcp_counters tcp_counters_t;

/* spec: "none" (returns NULL, reason "off"), "default" (per-chip set), or a
 * comma-separated metric list.  Needs a current CUDA context on `device`. */
tcp_counters_t *tcp_counters_open(int device, const char *spec, char *reason, size_t len);

int tcp_counters_nmetrics(const tcp_counters_t *t);
const char *tcp_counters_metric(const tcp_counters_t *t, int i);	/* "sm__inst_executed_pipe_tensor_op_gmma.sum" */
const char *tcp_counters_unit(const tcp_counters_t *t, int i);
const char *tcp_counters_chip(const tcp_counters_t *t);		/* "GH100" */

/* Index of the metric that counts tensor (MMA) instructions, for the
 * issued-vs-counted check; -1 when the set has none. */
int tcp_counters_tensor_inst_metric(const tcp_counters_t *t);

/* Call fn(arg) once (it launches kernels and synchronises) with collection on;
 * values[i] = metric i summed over every kernel launched (or averaged for
 * rates, per the metric's rollup).  0 on success, -1 with a reason. */
int tcp_counters_measure(tcp_counters_t *t, int (*fn)(void *arg), void *arg,
			 double *values, char *reason, size_t len);

void tcp_counters_close(tcp_counters_t *t);

#ifdef __cplusplus
}
#endif
#endif
