/*
 * supervisor-batch.c
 *	The batch queue (counters.h: counter batches): the points whose
 *	counter pass waits for the worker's next batch (s->pend, in plan
 *	order), their completions read (X, K rows, E for each, then F), FLUSH
 *	when the batch must run now, their rows written in plan order once
 *	complete, or the batch dropped when its worker is lost.
 */
#include <stdio.h>
#include <string.h>

#include "harness/sweep/protocol.h"
#include "harness/sweep/supervisor-int.h"

/* What the waiting points' counter pass may take: their timeouts, summed. */
double sup_batch_timeout(const struct sup *s)
{
	double t = 0;
	for (int k = 0; k < s->npend; k++)
		t += tcp_emu_timeout(&s->cfg.emu, s->plan.p[s->pend_idx[k]].timeout);
	return t;
}

/* The result an X line of point v completes: idx itself (res, waiting) or a
 * waiting point of the queue; NULL when none. */
static struct result *completes(struct sup *s, int idx, struct result *res, int v)
{
	if (v == idx && res->deferred && !res->complete)
		return res;
	for (int k = 0; k < s->npend; k++)
		if (s->pend_idx[k] == v && !s->pend[k].complete)
			return &s->pend[k];
	return NULL;
}

/* All or nothing: a batch that ran completes every waiting point; none only
 * while idx waits too.  0, or WL_GARBAGE with the reason in res. */
static int all_or_none(struct sup *s, struct result *res, int nx)
{
	int left = 0, waits = res->deferred && !res->complete;
	for (int k = 0; k < s->npend; k++)
		left += !s->pend[k].complete;
	if ((nx && (left || waits)) || (!nx && !(res->deferred && left == s->npend))) {
		snprintf(res->reason, sizeof(res->reason),
			 "worker protocol error: a batch of %d waiting points came back with %d completions",
			 s->npend + (res->deferred ? 1 : 0), nx);
		return WL_GARBAGE;
	}
	return 0;
}

/*
 *  sup_batch_read()
 *	after point idx's message (res), when the worker owes an F line: its
 *	batch's completions, each "X idx STATUS", counter rows, "E idx ...",
 *	for a waiting point (s->pend) or idx itself, then F.  Every waiting
 *	point is completed, or none (idx deferred, the batch not yet run).
 *	0, or a WL_* code with the reason in res.
 */
int sup_batch_read(struct sup *s, double deadline, struct sampler *smp, int idx, struct result *res)
{
	char *g[TCP_MSG_MAXF], copy[128];
	int nx = 0;
	for (;;) {
		struct result *t;
		tcp_status_t st;
		int n, v, r = sup_next_fields(s, deadline, smp, copy, sizeof(copy), g, &n);
		if (r != WL_LINE)
			return r;
		if (tcp_msg_get_f(g, n) == 0)
			break;
		if (tcp_msg_get_x(g, n, s->plan.n, &v, &st) || !(t = completes(s, idx, res, v)))
			return sup_unexpected(res, copy);
		t->st = st;
		if ((r = sup_read_tail(s, v, deadline, smp, t, 0))) {
			if (t != res)
				snprintf(res->reason, sizeof(res->reason), "%s", t->reason);
			return r;
		}
		t->complete = 1;
		nx++;
	}
	return all_or_none(s, res, nx);
}

/* Point idx waits for the batch (its result kept until the batch completes it). */
void sup_batch_hold(struct sup *s, int idx, const struct result *res)
{
	s->pend_idx[s->npend] = idx;
	s->pend[s->npend++] = *res;
}

/*
 *  flush()
 *	the waiting points completed now: FLUSH, then their completions and F
 *	(sup_batch_read).  0; or -1 with why, the worker killed (the caller
 *	runs those points again).
 */
static int flush(struct sup *s, char *why, size_t len)
{
	struct result none;
	struct sampler smp;
	char cmd[16];
	double deadline = sup_mono() + 5.0 + sup_batch_timeout(s);
	int r = -1, n = tcp_msg_put_cmd(cmd, sizeof(cmd), TCP_CMD_FLUSH);

	memset(&none, 0, sizeof(none));
	sup_sampler_start(&smp, -1, NULL, NULL);
	if (s->w.pid > 0 && sup_worker_send(&s->w, cmd, n) == 0)
		r = sup_batch_read(s, deadline, &smp, -1, &none);
	else
		snprintf(none.reason, sizeof(none.reason), "the worker is gone");
	if (r == 0)
		return 0;
	snprintf(why, len, "%.*s", (int)len - 1, r == WL_TIMEOUT ? "no answer in time" : r == WL_EOF ? "the worker exited" :
		 none.reason[0] ? none.reason : "worker protocol error");
	sup_worker_kill(&s->w);
	return -1;
}

/* Forget the points waiting for a counter batch (not written: a --resume runs them). */
void sup_batch_drop(struct sup *s)
{
	for (int k = 0; k < s->npend; k++)
		sup_result_free(&s->pend[k]);
	s->npend = 0;
}

/*
 *  sup_batch_finish()
 *	the waiting points written in plan order, once complete (completed:
 *	they are; else FLUSH first).  0; -1 when the batch is lost (the worker
 *	killed; the caller runs its points again, or with `final` drops them);
 *	or the exit status of a failed write.
 */
int sup_batch_finish(struct sup *s, int final)
{
	char why[TCP_REASON_LEN];
	int rc = 0;
	if (s->npend > 0 && !s->pend[0].complete && flush(s, why, sizeof(why))) {
		sup_log(s, "a counter batch of %d points was lost: %s", s->npend, why);
		if (final)
			sup_batch_drop(s);
		return -1;
	}
	int k = 0;
	for (; k < s->npend && rc == 0; k++)
		rc = sup_point_finish(s, s->pend_idx[k], &s->pend[k]);
	for (; k < s->npend; k++)
		sup_result_free(&s->pend[k]);
	s->npend = 0;
	return rc;
}
