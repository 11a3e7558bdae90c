/*
 * supervisor-result.c
 *	A point's result (struct result): made, freed, and read from the
 *	worker's message of the point in the order worker.h gives: P, its S
 *	lines, then its K rows and E, or W (its counter pass waits for the
 *	batch).  Each line is decoded by protocol.c; what may come next, and
 *	the reason of a line that may not, is decided here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/sweep/protocol.h"
#include "harness/sweep/supervisor-int.h"

/* A fresh result of a point with nm series: nothing measured yet. */
void sup_result_init(struct result *r, int nm)
{
	memset(r, 0, sizeof(*r));
	r->clock_mhz = r->rtt0 = r->rtt1 = r->temp_c = NAN;
	r->contended = -1;
	r->nm = nm;
}

static void free_rows(struct result *r)
{
	for (int i = 0; i < r->nk; i++) {
		free(r->k[i].metric);
		free(r->k[i].unit);
		free(r->k[i].reason);
	}
	r->nk = 0;
}

void sup_result_free(struct result *r)
{
	free_rows(r);
	free(r->k);
	free(r->smp);
	memset(r, 0, sizeof(*r));
}

/* What the worker sent before failing is not trusted: no samples, no rows;
 * the point keeps its nm series (written empty). */
void sup_result_distrust(struct result *r, int nm)
{
	free_rows(r);
	r->ns = 0;
	r->nm = nm;
}

/* Append one counter or energy row; 0, or -1 out of memory. */
int sup_result_add_row(struct result *res, const char *metric, const char *unit, double v, tcp_status_t st,
		       const char *reason)
{
	struct krow *nk = realloc(res->k, sizeof(*nk) * (size_t)(res->nk + 1));
	if (!nk)
		return -1;
	res->k = nk;
	struct krow *k = &res->k[res->nk];
	k->metric = strdup(metric);
	k->unit = strdup(unit);
	k->reason = strdup(reason);
	k->v = v;
	k->st = st;
	res->nk++;
	return k->metric && k->unit && k->reason ? 0 : -1;
}

/* The next line, split into g[] (*n fields), its start kept in copy[] for an
 * error's excerpt: WL_LINE or another WL_* code. */
int sup_next_fields(struct sup *s, double deadline, struct sampler *smp, char *copy, size_t clen, char **g,
		    int *n)
{
	char *line;
	int r = sup_worker_line(&s->w, deadline, smp, &line);
	if (r != WL_LINE)
		return r;
	snprintf(copy, clen, "%s", line);
	*n = tcp_msg_split(line, g, TCP_MSG_MAXF);
	return WL_LINE;
}

/* The reason of a line (its start in copy) that may not come here: WL_GARBAGE. */
int sup_unexpected(struct result *res, const char *copy)
{
	char ex[96];
	snprintf(res->reason, sizeof(res->reason), "worker protocol error: unexpected '%s'",
		 tcp_msg_excerpt(copy, ex, sizeof(ex)));
	return WL_GARBAGE;
}

/*
 *  sup_read_tail()
 *	the rest of point idx's message: its counter rows (K) and E; or, where
 *	may_defer, W alone: its counter pass waits for the batch
 *	(res->deferred).  0, or a WL_* code with the reason in res.
 */
int sup_read_tail(struct sup *s, int idx, double deadline, struct sampler *smp, struct result *res, int may_defer)
{
	char *g[TCP_MSG_MAXF], ex[96], copy[128];
	const char *metric, *unit, *reason, *site;
	double v;
	tcp_status_t st;
	for (;;) {
		int n, k, r = sup_next_fields(s, deadline, smp, copy, sizeof(copy), g, &n);
		if (r != WL_LINE)
			return r;
		if ((k = tcp_msg_get_k(g, n, &metric, &unit, &v, &st, &reason)) == 0) {
			if (sup_result_add_row(res, metric, unit, v, st, reason))
				return WL_GARBAGE;
			continue;
		}
		if (k < 0) {
			snprintf(res->reason, sizeof(res->reason), "worker protocol error: bad counter row '%s'",
				 tcp_msg_excerpt(copy, ex, sizeof(ex)));
			return WL_GARBAGE;
		}
		if (tcp_msg_get_e(g, n, idx, &res->sticky, &site, &reason) == 0) {
			if (res->st != TCP_OK) {
				snprintf(res->site, sizeof(res->site), "%s", site);
				snprintf(res->reason, sizeof(res->reason), "%s", reason[0] ? reason : "no reason given");
			}
			return 0;
		}
		if (may_defer && res->nk == 0 && res->st == TCP_OK && tcp_msg_get_w(g, n, idx) == 0) {
			res->deferred = 1;
			return 0;
		}
		return sup_unexpected(res, copy);
	}
}

/*
 *  sup_read_point()
 *	the rest of point idx's message after its P line (split into f): the
 *	S lines of its series and its tail (sup_read_tail); 0, or a WL_* code
 *	with the reason in res
 */
int sup_read_point(struct sup *s, int idx, char **f, int nf, double deadline, struct sampler *smp,
		   struct result *res)
{
	const tcp_probe_t *p = s->plan.p[idx].probe;
	int nm = p->nmetrics + tcp_config_extra_series(&s->cfg, s->w.gpu >= 0 && p->arch != TCP_ARCH_HOST);
	tcp_msg_p_t h;
	char e[256];
	int rc = tcp_msg_get_p(f, nf, idx, s->plan.p[idx].reps, nm, &h, e, sizeof(e));
	if (rc == -1) {
		snprintf(res->reason, sizeof(res->reason), "worker protocol error: bad point header for point %d",
			 idx);
		return WL_GARBAGE;
	}
	res->st = h.st;
	res->work_flop = h.work_flop;
	res->ns = h.ns;
	snprintf(res->stop, sizeof(res->stop), "%s", h.stop);
	if (rc) {
		snprintf(res->reason, sizeof(res->reason), "worker protocol error: %s", e);
		return WL_GARBAGE;
	}
	res->nm = nm;
	res->smp = calloc((size_t)(res->nm ? res->nm : 1) * (size_t)(res->ns ? res->ns : 1), sizeof(double));
	if (!res->smp) {
		snprintf(res->reason, sizeof(res->reason), "supervisor out of memory");
		return WL_GARBAGE;
	}
	for (int m = 0; m < res->nm; m++) {
		char *line;
		int r = sup_worker_line(&s->w, deadline, smp, &line);
		if (r != WL_LINE)
			return r;
		if (tcp_msg_get_s(line, m, res->ns, res->smp + (size_t)m * (size_t)res->ns, res->reason,
				  sizeof(res->reason)))
			return WL_GARBAGE;
	}
	return sup_read_tail(s, idx, deadline, smp, res, 1);
}
