/*
 * progress.c
 *	The plain-text end-of-sweep summary, read back from the run directory
 *	through the run model (harness/store/run.h), so a resumed run summarises
 *	every point and the summary proves the CSV parses: per probe, points by
 *	status and the best median of the probe's first metric (an emulated
 *	run's medians are the emulator's, not a time: statuses only).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/store/run.h"
#include "harness/sweep/supervisor.h"

struct psum {
	const char *name;
	int count[TCP_NSTATUS];
	int points;
	const tcp_metric_t *first;	/* NULL: probe not in this build */
	double best;
	const char *best_axes;		/* NULL: no OK value of the first metric */
};

/* The summary's entry of probe `name` (added, with its first metric from
 * this build's probes, when new). */
static struct psum *entry(struct psum *ps, int *np, const char *name, const tcp_probe_t *const *probes, int nprobes)
{
	int k;
	for (k = 0; k < *np && strcmp(ps[k].name, name) != 0; k++)
		;
	if (k < *np)
		return &ps[k];
	ps[k].name = name;
	ps[k].best = NAN;
	for (int i = 0; i < nprobes; i++)
		if (strcmp(probes[i]->name, name) == 0 && probes[i]->nmetrics > 0)
			ps[k].first = &probes[i]->metrics[0];
	(*np)++;
	return &ps[k];
}

/* A row of the run: its point counted once (by status), its first metric's
 * median against the best.  1 when the point is a bad one (FAILED, TIMEOUT,
 * INVALID, BLOCKED). */
static int take_row(struct psum *q, const tcp_run_row_t *w, unsigned char *seen, int maxpt)
{
	int pt = atoi(w->id), bad = 0;
	if (pt >= 0 && pt <= maxpt && !seen[pt]) {
		seen[pt] = 1;
		q->points++;
		if (w->status >= 0)
			q->count[w->status]++;
		bad = w->status == TCP_FAILED || w->status == TCP_TIMEOUT || w->status == TCP_INVALID ||
		      w->status == TCP_BLOCKED;
	}
	if (q->first && w->status == TCP_OK && !isnan(w->median) && strcmp(w->metric, q->first->name) == 0) {
		double v = w->median;
		if (isnan(q->best) || (q->first->higher_is_better ? v > q->best : v < q->best)) {
			q->best = v;
			q->best_axes = w->axes;
		}
	}
	return bad;
}

static void print_summary(const tcp_run_t *run, const struct psum *ps, int np, FILE *f)
{
	const char *emu = tcp_run_emulated(run);
	fprintf(f, "%-24s %6s %6s %6s %7s %7s %7s %7s %6s  %s\n", "probe", "points", "OK", "FAILED",
		"TIMEOUT", "INVALID", "BLOCKED", "SKIPPED", "UNSUPP", emu ? "(EMULATED: no times)" : "best median of the first metric");
	for (int k = 0; k < np; k++) {
		const struct psum *q = &ps[k];
		fprintf(f, "%-24s %6d %6d %6d %7d %7d %7d %7d %6d  ", q->name, q->points, q->count[TCP_OK],
			q->count[TCP_FAILED], q->count[TCP_TIMEOUT], q->count[TCP_INVALID],
			q->count[TCP_BLOCKED], q->count[TCP_SKIPPED], q->count[TCP_UNSUPPORTED]);
		if (q->best_axes && !emu)
			fprintf(f, "%s %.6g %s (%s)\n", q->first->name, q->best, q->first->unit, q->best_axes);
		else
			fprintf(f, "-\n");
	}
	if (run->torn_tail)
		fprintf(f, "note: a torn last line of %s was ignored\n", run->meas_path);
}

int tcp_sweep_summary(const char *dir, const tcp_probe_t *const *probes, int nprobes, FILE *f)
{
	char err[1024];
	tcp_run_t *run;
	if (tcp_run_open(dir, TCP_RUN_NEED_POINT, &run, err, sizeof(err))) {
		fprintf(stderr, "tcprobe: summary: %s\n", err);
		return -1;
	}
	struct psum *ps = calloc((size_t)run->nrows + 1, sizeof(*ps));
	int np = 0, bad = 0, maxpt = -1;
	for (int r = 0; r < run->nrows; r++)
		if (atoi(run->rows[r].id) > maxpt)
			maxpt = atoi(run->rows[r].id);
	unsigned char *seen = calloc((size_t)maxpt + 2, 1);
	if (!ps || !seen) {
		free(ps);
		free(seen);
		tcp_run_free(run);
		return -1;
	}
	for (int r = 0; r < run->nrows; r++) {
		const tcp_run_row_t *w = &run->rows[r];
		if (strncmp(w->metric, "cupti/", 6) != 0)
			bad |= take_row(entry(ps, &np, w->probe, probes, nprobes), w, seen, maxpt);
	}
	print_summary(run, ps, np, f);
	free(ps);
	free(seen);
	tcp_run_free(run);
	return bad;
}
