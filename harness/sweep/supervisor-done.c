/*
 * supervisor-done.c
 *	What follows a point's result: its rows on disk (supervisor-rows.c),
 *	its progress line (stderr and log.txt), the BLOCKED rule (block.h)
 *	and, after the probe's last point in the plan, the probe's verdict
 *	line.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "harness/sweep/supervisor-int.h"

/* The progress line of a finished point, to stderr and log.txt. */
static void progress(struct sup *s, int idx, const struct result *r)
{
	const tcp_plan_point_t *pp = &s->plan.p[idx];
	const tcp_probe_t *p = pp->probe;
	char what[TCP_REASON_LEN + 200], eta[64] = "", d[32];
	int n = s->plan.n, k = s->ndone;
	if (r->st == TCP_OK && p->nmetrics > 0) {
		tcp_stats_t st;
		tcp_stats_compute(r->smp, r->ns, &st);
		snprintf(what, sizeof(what), "OK  median %.6g %s", st.median, p->metrics[0].unit);
	} else {
		snprintf(what, sizeof(what), "%s  %s", tcp_status_name(r->st), r->reason);
	}
	if (s->nrun > 0 && s->ntorun > s->nrun)
		snprintf(eta, sizeof(eta), "  (eta %s)",
			 sup_fmt_dur(s->t_run / s->nrun * (s->ntorun - s->nrun), d, sizeof(d)));
	int quiet_row = r->st == TCP_SKIPPED || r->st == TCP_UNSUPPORTED || r->st == TCP_BLOCKED;
	if (!s->cfg.quiet && !quiet_row)
		fprintf(stderr, "[%*d/%d %3d%%] %s %s ... %s%s\n", (int)snprintf(NULL, 0, "%d", n), k, n,
			n ? (int)(100.0 * k / n) : 100, p->name, pp->key, what, eta);
	sup_log(s, "[%d/%d] point %d %s %s: %s", k, n, idx, p->name, pp->key, what);
}

/*
 *  point_done()
 *	the BLOCKED rule (block.h) after a written point, and the probe's
 *	verdict line once its last point in the plan is written: to stderr
 *	(--quiet too: one line per probe is the output worth keeping) and log.txt
 */
static void point_done(struct sup *s, int idx, const struct result *r)
{
	const tcp_probe_t *p = s->plan.p[idx].probe;
	char line[TCP_REASON_LEN + 512];
	s->pst[idx] = (signed char)r->st;
	if (tcp_block_note(&s->w.block, p->name, r->st, r->site, r->reason) == 1) {
		fprintf(stderr, "%s: BLOCKED: %s\n", p->name, tcp_block_why(&s->w.block, p->name));
		sup_log(s, "%s: BLOCKED after point %d: %s", p->name, idx, tcp_block_why(&s->w.block, p->name));
	}
	if (!s->plast[idx])
		return;
	int count[TCP_NSTATUS] = { 0 };
	for (int i = 0; i <= idx; i++)
		if (s->plan.p[i].probe == p && s->pst[i] >= 0 && s->pst[i] < TCP_NSTATUS)
			count[s->pst[i]]++;
	tcp_block_verdict(p->name, count, tcp_block_where(&s->w.block, p->name), line, sizeof(line));
	fprintf(stderr, "%s\n", line);
	sup_log(s, "verdict: %s", line);
}

/*
 *  sup_point_finish()
 *	a point's rows on disk and what follows from them (progress line,
 *	BLOCKED rule, verdict); res freed.  0, or the exit status of a failed
 *	write (the message printed).
 */
int sup_point_finish(struct sup *s, int i, struct result *res)
{
	const tcp_plan_point_t *pp = &s->plan.p[i];
	if (sup_write_rows(s, i, res)) {
		int e = errno;
		sup_die("cannot write %s/measurements.csv: %s; %d of %d points kept, finish with: tcprobe run --resume %s",
			s->dir, strerror(e), s->ndone, s->plan.n, s->dir);
		sup_result_free(res);
		return tcp_io_exit(e);
	}
	s->done[i] = 1;
	s->ndone++;
	s->bad += res->st == TCP_FAILED || res->st == TCP_TIMEOUT || res->st == TCP_INVALID ||
		  res->st == TCP_BLOCKED;
	if (res->st == TCP_SKIPPED)
		sup_log(s, "point %d %s %s: SKIPPED: %s", i, pp->probe->name, pp->key, res->reason);
	else
		progress(s, i, res);
	point_done(s, i, res);
	sup_result_free(res);
	return 0;
}
