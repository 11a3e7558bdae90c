/*
 * supervisor-loop.c
 *	The loop over the plan's points, in plan order: each one not yet
 *	written is SKIPPED (the plan said so), UNSUPPORTED (no code for this
 *	GPU), BLOCKED (block.h) or run (supervisor-point.c); a point whose
 *	counter pass waits for a batch is held (supervisor-batch.c), and a
 *	batch lost to a crash or a hang runs its points again, one at a time,
 *	without batches.  SIGINT/SIGTERM stop it between points.
 */
#include <stdio.h>

#include "harness/sweep/supervisor-int.h"

enum { GO_ON, STOP };

/* What a point is without running it (SKIPPED, UNSUPPORTED, BLOCKED): 1 with
 * res filled; 0 when it runs. */
static int decided(struct sup *s, int i, struct result *res)
{
	const tcp_plan_point_t *pp = &s->plan.p[i];
	char ua[TCP_REASON_LEN];
	const char *u;
	if (pp->skipped) {
		res->st = TCP_SKIPPED;
		snprintf(res->reason, sizeof(res->reason), "%s", pp->reason);
		return 1;
	}
	if ((u = sup_unsupported_why(s, pp->probe, s->w.cc, ua, sizeof(ua))) &&
	    (pp->probe->unsupported_reason || s->w.gpu >= 0)) {
		res->st = TCP_UNSUPPORTED;
		snprintf(res->reason, sizeof(res->reason), "%s", u);
		s->ntorun--;	/* takes no time: keep it out of the ETA */
		return 1;
	}
	if ((u = tcp_block_why(&s->w.block, pp->probe->name))) {
		res->st = TCP_BLOCKED;	/* never launched (block.h) */
		snprintf(res->reason, sizeof(res->reason), "%s", u);
		s->ntorun--;
		return 1;
	}
	return 0;
}

/* SIGINT/SIGTERM between points: the points waiting for a batch were
 * measured, kept if it completes.  *rc the exit status. */
static void interrupted(struct sup *s, int *rc)
{
	if (s->npend > 0 && (*rc = sup_batch_finish(s, 1)) > 0)
		return;
	sup_print_interrupted(s);
	*rc = TCP_EXIT_INTERRUPTED;
}

/* The point runner gave up (RUN_SIGNAL, RUN_FATAL): the exit status. */
static int run_stopped(struct sup *s, int r, struct result *res)
{
	sup_result_free(res);
	sup_batch_drop(s);
	if (r == RUN_SIGNAL) {
		sup_print_interrupted(s);
		return TCP_EXIT_INTERRUPTED;
	}
	fprintf(stderr, "stopped: %d of %d points written to %s; finish with: tcprobe run --resume %s\n", s->ndone,
		s->plan.n, s->dir, s->dir);
	return TCP_EXIT_POINTS;
}

/* A counter batch was lost at point *i: the waiting points and this one
 * again, one at a time (*i set back to the first of them, less one). */
static void rerun(struct sup *s, int *i, int ran, struct result *res)
{
	int first = s->npend > 0 ? s->pend_idx[0] : *i;
	s->nrun -= s->npend + ran;
	s->nodefer_until = *i;
	if (!ran && (res->st == TCP_UNSUPPORTED || res->st == TCP_BLOCKED))
		s->ntorun++;	/* counted out again when it comes round */
	sup_log(s, "a counter batch was lost at point %d: points %d to %d run again without batches", *i, first,
		*i);
	sup_batch_drop(s);
	sup_result_free(res);
	*i = first - 1;
}

/* Point *i, decided or run, then written, held for its batch, or run again. */
static int step(struct sup *s, int *i, int *rc)
{
	struct result res;
	int ran = 0;
	if (sup_signal) {
		interrupted(s, rc);
		return STOP;
	}
	sup_result_init(&res, s->plan.p[*i].probe->nmetrics);
	if (!decided(s, *i, &res)) {
		int r = sup_run_point(s, *i, &res);
		if (r != RUN_DONE) {
			*rc = run_stopped(s, r, &res);
			return STOP;
		}
		s->nrun++;
		ran = 1;
	}
	int lost = res.batch_lost;
	if (!ran && s->npend > 0) {	/* the batch ends before a point the worker does not run */
		int fr = sup_batch_finish(s, 0);
		if (fr > 0) {
			*rc = fr;
			sup_result_free(&res);
			return STOP;
		}
		lost = fr < 0;
	}
	if (lost) {
		rerun(s, i, ran, &res);
		return GO_ON;
	}
	if (res.deferred && !res.complete) {	/* its counters come with the batch */
		sup_batch_hold(s, *i, &res);
		return GO_ON;
	}
	if (s->npend > 0 && (*rc = sup_batch_finish(s, 1)) != 0) {	/* completed: written first, in plan order */
		sup_result_free(&res);
		return STOP;
	}
	return (*rc = sup_point_finish(s, *i, &res)) != 0 ? STOP : GO_ON;
}

/*
 *  sup_run_plan()
 *	every point of the plan not yet written; the exit status so far
 */
int sup_run_plan(struct sup *s)
{
	int rc = TCP_EXIT_OK;
	for (int i = 0; i < s->plan.n; i++)
		s->ntorun += !s->done[i] && !s->plan.p[i].skipped;
	s->t_start = sup_mono();
	for (int i = 0; i < s->plan.n; i++)
		if (!s->done[i] && step(s, &i, &rc) == STOP)
			break;
	if (s->npend > 0 && rc == TCP_EXIT_OK) {	/* cannot happen: a batch ends before the plan does */
		int fr = sup_batch_finish(s, 1);
		rc = fr > 0 ? fr : fr < 0 ? TCP_EXIT_POINTS : rc;
	}
	return rc;
}
