/*
 * cupti-timer.h
 *	`--timer events|cupti`: the CUPTI Activity API as an alternative kernel
 *	timer.  With `cupti`, the worker brackets each timed run() with
 *	tcp_cupti_timer_begin()/end() and records the GPU's own start/end
 *	timestamps of the kernels that run() launched (ns, %globaltimer based),
 *	next to the probe's event/cycle timings.
 *
 *	Engine hook (harness/sweep/worker-gpu.c, worker-point.c), with timer == TCP_TIMER_CUPTI:
 *	  after the CUDA context exists:  tcp_cupti_timer_open(reason, len)
 *	      (-1: print the reason once, fall back to events, record it)
 *	  for each timed rep:  begin; probe->run(...); end(&tm, ...)
 *	      -> one sample of metric TCP_CUPTI_TIMER_METRIC (unit "ns") = tm.span_ns
 *	         (NAN when tm.kernels == 0 or tm.dropped)
 *	  at worker exit:  tcp_cupti_timer_close()
 *	Never around the counter pass (the range profiler replays kernels).
 *	The Activity API is enabled only between begin and end, so warmup,
 *	validate and counter runs pay nothing.
 */
#ifndef TCP_CUPTI_TIMER_H
#define TCP_CUPTI_TIMER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
	TCP_TIMER_EVENTS = 0,	/* cudaEvent / in-kernel timers only (default) */
	TCP_TIMER_CUPTI		/* plus CUPTI Activity kernel timestamps */
} tcp_timer_t;

#define TCP_CUPTI_TIMER_METRIC "cupti_kernel_ns"

/* "events" | "cupti" -> *t; -1 with "bad --timer 'x' (legal: events, cupti)". */
int tcp_timer_parse(const char *s, tcp_timer_t *t, char *err, size_t len);
const char *tcp_timer_name(tcp_timer_t t);

typedef struct {
	int kernels;		/* kernel records between begin and end */
	double span_ns;		/* last kernel end - first kernel start */
	double busy_ns;		/* sum over kernels of end - start */
	uint64_t first_start;	/* GPU timestamps, ns */
	uint64_t last_end;
	uint64_t dropped;	/* records CUPTI dropped: the sample is incomplete */
} tcp_cupti_timing_t;

/* Once per worker, after the CUDA context exists.  0, or -1 with a reason. */
int tcp_cupti_timer_open(char *reason, size_t len);
/* Around one run(): begin enables kernel records, end synchronises, flushes
 * and fills *out with the kernels launched in between. */
int tcp_cupti_timer_begin(char *reason, size_t len);
int tcp_cupti_timer_end(tcp_cupti_timing_t *out, char *reason, size_t len);
void tcp_cupti_timer_close(void);

#ifdef __cplusplus
}
#endif
#endif /* TCP_CUPTI_TIMER_H */
