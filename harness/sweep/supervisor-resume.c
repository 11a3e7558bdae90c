/*
 * supervisor-resume.c
 *	--resume DIR: the run's plan (DIR/plan.txt; a spec given too must make
 *	the same plan, and nothing may change what plan.txt fixes), and which
 *	points already have all their rows (read through the run model,
 *	harness/store/run.h): a partly written point is dropped and runs again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/sweep/supervisor-int.h"

/* A re-given spec must make the plan of plan.txt.  0, or -1 (said). */
static int same_plan(struct sup *s)
{
	const tcp_sweep_opts_t *o = s->o;
	tcp_plan_t again;
	char err[2048];
	if (tcp_plan_build(&again, o->spec, o->reps, o->warmup, o->timeout, err, sizeof(err))) {
		sup_die("%s", err);
		return -1;
	}
	int rc = tcp_plan_compare(&again, &s->plan, err, sizeof(err));
	tcp_plan_free(&again);
	if (rc) {
		sup_die("--resume %s: the plan differs from its plan.txt: %s", o->resume_dir, err);
		return -1;
	}
	return 0;
}

/*
 *  sup_resume_plan()
 *	s->plan from the resumed run's plan.txt, checked against what the
 *	command line gives.  0, or TCP_EXIT_USAGE (said; no plan kept).
 */
int sup_resume_plan(struct sup *s)
{
	const tcp_sweep_opts_t *o = s->o;
	char err[2048], path[PATHLEN];
	if (access(sup_path_in(o->resume_dir, "measurements.csv.gz", path, sizeof(path)), F_OK) == 0) {
		sup_die("--resume %s: an archived run (measurements.csv.gz, docs/results.md): "
			"gunzip %s/*.gz first", o->resume_dir, o->resume_dir);
		return TCP_EXIT_USAGE;
	}
	if (tcp_plan_read(&s->plan, sup_path_in(o->resume_dir, "plan.txt", path, sizeof(path)), s->probes,
			  s->nprobes, err, sizeof(err))) {
		sup_die("--resume: %s", err);
		return TCP_EXIT_USAGE;
	}
	if (o->spec && o->spec->n) {
		if (same_plan(s)) {
			tcp_plan_free(&s->plan);
			return TCP_EXIT_USAGE;
		}
	} else if (o->reps >= 0 || o->warmup >= 0 || o->timeout >= 0 || o->seed_set || o->reps_auto ||
		   o->noise_pct > 0 || o->rep_budget_s > 0) {
		sup_die("--resume %s: --reps/--noise/--rep-budget/--warmup/--timeout/--seed cannot change a planned run: got one, expected none (plan.txt fixes them)",
			o->resume_dir);
		tcp_plan_free(&s->plan);
		return TCP_EXIT_USAGE;
	}
	return 0;
}

/* A tcp_run_keep_fn: rows of the points --resume keeps (ctx = s->done). */
static int keep_done(const tcp_run_t *r, const tcp_run_row_t *w, void *ctx)
{
	(void)r;
	return ((const unsigned char *)ctx)[atoll(w->id)];
}

/*
 *  take_row()
 *	one row of the run: it must be a point of the plan; its declared
 *	metrics counted in decl[] (counter and other extra rows may come and
 *	go, the declared ones are always written), its status kept for the
 *	probe's verdict line, a probe BLOCKED before blocked again (block.h;
 *	--no-block runs the rest).  0, or -1 (said).
 */
static int take_row(struct sup *s, const tcp_run_row_t *w, int *decl)
{
	long long idx;
	char e[256];
	if (tcp_parse_int("point", w->id, 0, s->plan.n - 1, &idx, e, sizeof(e))) {
		sup_die("--resume %s: measurements.csv row %d: %s", s->dir, w->line, e);
		return -1;
	}
	const tcp_plan_point_t *pp = &s->plan.p[idx];
	if (strcmp(w->probe, pp->probe->name) || strcmp(w->axes, pp->key)) {
		sup_die("--resume %s: measurements.csv row %d does not match plan.txt: got '%s %s', expected '%s %s'",
			s->dir, w->line, w->probe, w->axes, pp->probe->name, pp->key);
		return -1;
	}
	for (int m = 0; m < pp->probe->nmetrics; m++)
		if (strcmp(w->metric, pp->probe->metrics[m].name) == 0)
			decl[idx]++;
	s->pst[idx] = (signed char)w->status;
	if (w->status == TCP_BLOCKED && tcp_block_restore(&s->w.block, w->probe, w->reason)) {
		sup_die("--resume %s: out of memory", s->dir);
		return -1;
	}
	return 0;
}

/* Points with every declared row are done; the partial ones counted, and
 * forgotten (they run again). */
static int mark_done(struct sup *s, const int *decl)
{
	int partial = 0;
	for (int i = 0; i < s->plan.n; i++) {
		if (decl[i] == s->plan.p[i].probe->nmetrics && decl[i] > 0)
			s->done[i] = 1;
		else if (decl[i])
			partial++;
		if (!s->done[i])
			s->pst[i] = -1;	/* runs again */
	}
	return partial;
}

/* The rows of partly written points (a write cut by SIGKILL across pages)
 * removed from the CSV.  0, or -1 (said). */
static int drop_partial(struct sup *s, tcp_run_t *run, unsigned char *keep, int partial)
{
	char err[1024];
	for (int r = 0; r < run->nrows; r++)
		keep[r] = s->done[atoll(run->rows[r].id)];
	if (tcp_run_keep_rows(run, keep, err, sizeof(err))) {
		sup_die("--resume %s: %s", s->dir, err);
		return -1;
	}
	sup_log(s, "resume: dropped the rows of %d partially written point(s)", partial);
	return 0;
}

/*
 *  sup_load_done()
 *	--resume: which points already have all their rows (the run model
 *	reads them); a partial point is removed from the CSV so it runs again.
 *	0, or -1 with the message printed.
 */
int sup_load_done(struct sup *s)
{
	char err[1024];
	tcp_run_t *run;
	if (tcp_run_open(s->dir, TCP_RUN_MAY_BE_EMPTY | TCP_RUN_NEED_POINT, &run, err, sizeof(err))) {
		sup_die("--resume %s: %s", s->dir, err);
		return -1;
	}
	int *decl = calloc((size_t)s->plan.n + 1, sizeof(int));
	unsigned char *keep = calloc((size_t)run->nrows + 1, 1);
	int rc = -1, partial;
	if (!decl || !keep) {
		sup_die("--resume %s: out of memory", s->dir);
		goto out;
	}
	for (int r = 0; r < run->nrows; r++)
		if (take_row(s, &run->rows[r], decl))
			goto out;
	if ((partial = mark_done(s, decl)) && drop_partial(s, run, keep, partial))
		goto out;
	if (run->torn_tail)
		sup_log(s, "resume: dropped a torn last line of measurements.csv");
	/* the sweep's last line counts every contended point of the run, these too */
	s->resumed_contended = tcp_run_contended(run, keep_done, s->done);
	/* metrics.csv goes on from what the run has described so far */
	s->meta = run->meta;
	run->meta = NULL;
	rc = 0;
out:
	free(decl);
	free(keep);
	tcp_run_free(run);
	return rc;
}
