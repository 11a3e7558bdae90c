/*
 * worker-int.h
 *	The worker's state and what its files share, private to
 *	harness/sweep/worker*.c (the worker process: worker.h).  Each file
 *	calls only the files listed after it:
 *	  worker.c           the process: start, the command loop, exit
 *	  worker-gpu.c       start on a GPU: context, device facts, provenance,
 *	                     counters and kernel timer opened
 *	  worker-point.c     one point, probe.h's life of it, and its message
 *	  worker-counters.c  the counter pass, of one point or of a batch
 *	  worker-phases.c    TCPROBE_PHASES: every step's time
 *	Every message goes through harness/sweep/protocol.h.
 */
#ifndef TCP_WORKER_INT_H
#define TCP_WORKER_INT_H

#include <stdio.h>

#include "harness/measure/counters.h"
#include "harness/sweep/protocol.h"
#include "harness/sweep/worker.h"

/* TCPROBE_PHASES: the steps of one point (or of the worker's start), then one write. */
struct phases {
	int fd;				/* -1: not recording */
	tcp_msgbuf_t b;
	int point;
	const char *probe, *axes;
};

/* The counter pass: one extra run() under CUPTI collection. */
struct ctr_arg {
	const tcp_probe_t *probe;
	void *state;
	tcp_ctx_t *ctx;
	tcp_status_t st;
};

/* A point whose counter pass waits for the batch (counters.h): what the pass
 * and its rows need; the probe's state is kept until then. */
struct pending {
	int idx;
	const tcp_probe_t *p;
	const char *key;		/* the point's axes, for TCPROBE_PHASES */
	void *state;
	tcp_ctx_t ctx;
	double clk;			/* timing-pass SM clock (MHz), NAN unknown */
};

/* Worker-wide state: filled once at start. */
struct wstate {
	const tcp_worker_args_t *a;
	const tcp_run_config_t *cfg;	/* a->cfg */
	int cc;
	tcp_ctx_t base;			/* device facts, copied into each point's ctx */
	tcp_counters_t *ctr;
	char ctr_reason[TCP_REASON_LEN];
	int ctr_on;			/* 0: counters "off" (no rows at all) */
	int timer_on;			/* --timer cupti opened: CUPTI kernel spans */
	struct phases ph;		/* TCPROBE_PHASES */
	tcp_msgbuf_t msg;
	struct pending batch[TCP_COUNTERS_BATCH_MAX];
	int nbatch;
};

/* A hook's reason: the probe's, or that it gave none. */
static inline const char *wk_hook_reason(tcp_ctx_t *c, const char *hook, tcp_status_t st)
{
	if (!c->reason[0])
		snprintf(c->reason, sizeof(c->reason), "%s() returned %s without a reason", hook,
			 tcp_status_name(st));
	return c->reason;
}

/* worker-phases.c */
double wk_now(void);
void wk_ph_open(struct phases *ph);
void wk_ph_add(struct phases *ph, const char *name, double sec, const char *note);
void wk_ph_counters(struct phases *ph, const tcp_counters_t *t, int of_open, int share);
void wk_ph_flush(struct phases *ph);

/* worker-counters.c */
int wk_counter_pass(struct wstate *w, const tcp_probe_t *p, void *state, tcp_ctx_t *ctx, double clk,
		    tcp_status_t *st, tcp_counter_row_t **crow);
void wk_send_counter_rows(tcp_msgbuf_t *b, const tcp_counter_row_t *crow, int n);
void wk_flush_batch(struct wstate *w);
int wk_memory_low(void);

/* worker-gpu.c */
void wk_init_gpu(struct wstate *w);

/* worker-point.c */
void wk_run_point(struct wstate *w, int idx, int defer);

#endif /* TCP_WORKER_INT_H */
