/*
 * worker-counters.c
 *	The counter pass of the worker: one extra run() of an OK GPU point
 *	under CUPTI collection (harness/measure/counters.h), its counter rows
 *	(a failed check makes the point INVALID), and the batch: the waiting
 *	points' passes in one set of CUPTI Start/Stop rounds, each point's
 *	completion sent (X, K rows, E), its state torn down.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "harness/sweep/worker-int.h"

static int ctr_run(void *arg)
{
	struct ctr_arg *a = arg;
	tcp_sample_t s;
	a->st = a->probe->run(a->state, a->ctx, &s);
	return a->st == TCP_OK ? 0 : -1;
}

/* Counter rows of one point from a counter pass's values (NULL: NA, why)
 * into *crow (allocated); a failed check makes the point INVALID. */
static int counter_rows(struct wstate *w, const double *vals, const char *why, const tcp_ctx_t *ctx,
			double clk, tcp_counter_row_t **crow, tcp_status_t *st, char *reason, size_t len)
{
	tcp_counters_input_t in = { vals, why, ctx->issued_tensor_insts, clk };
	*crow = calloc(TCP_COUNTERS_MAX_ROWS, sizeof(**crow));
	if (!*crow)
		_exit(5);
	int n = tcp_counters_rows(w->ctr, w->cc, w->cfg->counters, &in, *crow);
	for (int i = 0; i < n; i++)
		if ((*crow)[i].status == TCP_INVALID && *st == TCP_OK) {
			*st = TCP_INVALID;
			snprintf(reason, len, "%s", (*crow)[i].reason);
		}
	return n;
}

void wk_send_counter_rows(tcp_msgbuf_t *b, const tcp_counter_row_t *crow, int n)
{
	for (int i = 0; i < n; i++)
		tcp_msg_put_k(b, crow[i].metric, crow[i].unit, crow[i].value, crow[i].status, crow[i].reason);
}

/*
 *  wk_counter_pass()
 *	the counter pass of an OK point now, and its rows (*crow, allocated;
 *	the count returned); a run() that fails under collection fails the
 *	point (*st, ctx->reason)
 */
int wk_counter_pass(struct wstate *w, const tcp_probe_t *p, void *state, tcp_ctx_t *ctx, double clk,
		    tcp_status_t *st, tcp_counter_row_t **crow)
{
	double vals[TCP_COUNTERS_MAX_METRICS];
	char why[TCP_REASON_LEN] = "";
	int have = 0, n = 0;
	if (w->ctr) {
		struct ctr_arg ca = { p, state, ctx, TCP_OK };
		have = tcp_counters_measure(w->ctr, ctr_run, &ca, vals, why, sizeof(why)) == 0;
		if (!have && ca.st != TCP_OK) {
			*st = ca.st;	/* the probe itself failed under collection */
			char r0[TCP_REASON_LEN];
			snprintf(r0, sizeof(r0), "%s", wk_hook_reason(ctx, "run", *st));
			if (snprintf(ctx->reason, sizeof(ctx->reason), "counter pass: %s", r0) >= (int)sizeof(ctx->reason))
				ctx->reason[sizeof(ctx->reason) - 1] = '\0';
		}
	} else {
		snprintf(why, sizeof(why), "%s", w->ctr_reason);
	}
	if (*st == TCP_OK)
		n = counter_rows(w, have ? vals : NULL, why, ctx, clk, crow, st, ctx->reason, sizeof(ctx->reason));
	return n;
}

/* 1 when free device memory is under a quarter: the batch's states go now. */
int wk_memory_low(void)
{
	size_t fr = 0, total = 0;
	if (cudaMemGetInfo(&fr, &total) != cudaSuccess) {
		(void)cudaGetLastError();
		return 1;
	}
	return fr < total / 4;
}

/* A point that failed under its counter pass ends the worker: the supervisor
 * runs the batch's points again one at a time. */
static void batch_failed(int idx, const char *what, const char *why)
{
	fprintf(stderr, "tcprobe worker: point %d failed under %s: %s\n", idx, what, why);
	fflush(NULL);
	_exit(4);
}

/* The batch's pass (or the tests' stand-in, ctr_batch_fake: one run() each,
 * no rows).  Returns its rc; *failed = the first point whose run() failed. */
static int batch_measure(struct wstate *w, struct ctr_arg *ca, double *vals, int *nr, int *failed, char *why,
			 size_t len)
{
	int n = w->nbatch, rc = 0;
	void *args[TCP_COUNTERS_BATCH_MAX];
	for (int i = 0; i < n; i++) {
		struct pending *e = &w->batch[i];
		ca[i] = (struct ctr_arg){ e->p, e->state, &e->ctx, TCP_OK };
		args[i] = &ca[i];
		nr[i] = 0;
	}
	if (w->ctr) {
		rc = tcp_counters_measure_batch(w->ctr, n, ctr_run, args, vals, nr, failed, why, len);
	} else {
		for (int i = 0; i < n && rc == 0; i++)
			if (ctr_run(&ca[i]))
				rc = -1, *failed = i;
	}
	for (int i = 0; i < n; i++)
		if (ca[i].st != TCP_OK && *failed < 0)
			*failed = i;
	return rc;
}

/* TCPROBE_PHASES of a batch's point: the batch's cost shared out evenly,
 * or (alone) its own pass. */
static void batch_phases(struct wstate *w, const struct pending *e, int alone, double sec, int n)
{
	struct phases *ph = &w->ph;
	ph->point = e->idx;
	ph->probe = e->p->name;
	ph->axes = e->key;
	if (alone) {
		wk_ph_add(ph, "counters", sec, tcp_counters_session(w->ctr));
		wk_ph_counters(ph, w->ctr, 0, 1);
	} else {	/* the batch's steps: nothing measured since */
		char note[96];
		snprintf(note, sizeof(note), "batch of %d", n);
		wk_ph_add(ph, "counters", sec / n, note);
		wk_ph_counters(ph, w->ctr, 0, n);
	}
	wk_ph_flush(ph);
}

/*
 *  complete()
 *	batch point i after the pass (rc: the batch's; v: its values; nr: its
 *	kernel ranges): alone in a pass of its own when the batch could not be
 *	split, its rows, teardown, and its completion to the supervisor
 */
static void complete(struct wstate *w, int i, int rc, const double *v, int nr, const char *why, double batch_s)
{
	struct pending *e = &w->batch[i];
	double one[TCP_COUNTERS_MAX_METRICS], ti = wk_now();
	char pwhy[TCP_REASON_LEN];
	int have = rc == 0 && nr > 0;
	snprintf(pwhy, sizeof(pwhy), "%s", rc ? why : "counter pass: run() launched no kernel");
	if (rc && w->ctr) {	/* this one alone, in a pass of its own */
		struct ctr_arg c1 = { e->p, e->state, &e->ctx, TCP_OK };
		have = tcp_counters_measure(w->ctr, ctr_run, &c1, one, pwhy, sizeof(pwhy)) == 0;
		v = one;
		if (!have && c1.st != TCP_OK)
			batch_failed(e->idx, "its counter pass", e->ctx.reason);
	}
	tcp_status_t st = TCP_OK;
	tcp_counter_row_t *crow = NULL;
	int ncrow = w->ctr_on ? counter_rows(w, have ? v : NULL, pwhy, &e->ctx, e->clk, &crow, &st,
					     e->ctx.reason, sizeof(e->ctx.reason)) : 0;
	if (e->p->teardown)
		e->p->teardown(e->state);
	tcp_msg_put_x(&w->msg, e->idx, st);
	wk_send_counter_rows(&w->msg, crow, ncrow);
	tcp_msg_put_e(&w->msg, e->idx, 0, "", st == TCP_OK ? "" : e->ctx.reason);
	free(crow);
	batch_phases(w, e, rc && w->ctr, rc && w->ctr ? wk_now() - ti : batch_s, w->nbatch);
}

/*
 *  wk_flush_batch()
 *	the counter pass of every waiting point at once (tcp_counters_
 *	measure_batch: CUPTI's Start and Stop paid once for the batch), each
 *	point's completion to the supervisor ("X idx STATUS", K rows, "E idx
 *	..."), its state torn down.  A run() that fails under the batch's pass
 *	ends the worker: the supervisor runs the batch's points again one at a
 *	time, each under its own verdict.  A batch the session cannot split
 *	(too many kernels for the image, ...) is measured point by point.
 */
void wk_flush_batch(struct wstate *w)
{
	static double vals[TCP_COUNTERS_BATCH_MAX * TCP_COUNTERS_MAX_METRICS];
	int n = w->nbatch, failed = -1, nr[TCP_COUNTERS_BATCH_MAX];
	struct ctr_arg ca[TCP_COUNTERS_BATCH_MAX];
	char why[TCP_REASON_LEN] = "";
	int nm = w->ctr ? tcp_counters_nmetrics(w->ctr) : 0;
	double t0 = wk_now();

	if (n == 0)
		return;
	int rc = batch_measure(w, ca, vals, nr, &failed, why, sizeof(why));
	if (failed >= 0)
		batch_failed(w->batch[failed].idx, "its batch's counter pass",
			     w->batch[failed].ctx.reason[0] ? w->batch[failed].ctx.reason : why);
	double batch_s = wk_now() - t0;
	for (int i = 0; i < n; i++)
		complete(w, i, rc, vals + (size_t)i * (size_t)nm, nr[i], why, batch_s);
	w->nbatch = 0;
}
