/*
 * progress.c
 *	The plain-text end-of-sweep summary, read back from measurements.csv
 *	(so a resumed run summarises every point, and the summary proves the
 *	CSV parses): per probe, points by status and the best median of the
 *	probe's first metric.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/store/csvio.h"
#include "harness/sweep/supervisor.h"

#define NSTATUS (TCP_UNSUPPORTED + 1)

struct psum {
	const char *name;
	int count[NSTATUS];
	int points;
	const tcp_metric_t *first;	/* NULL: probe not in this build */
	double best;
	int best_row;
};

static int status_index(const char *s)
{
	for (int i = 0; i < NSTATUS; i++)
		if (strcmp(s, tcp_status_name((tcp_status_t)i)) == 0)
			return i;
	return -1;
}

int tcp_sweep_summary(const char *dir, const tcp_probe_t *const *probes, int nprobes, FILE *f)
{
	char path[4096], err[1024];
	tcp_table_t t;
	snprintf(path, sizeof(path), "%s/measurements.csv", dir);
	if (tcp_table_load(path, &t, err, sizeof(err))) {
		fprintf(stderr, "tcprobe: summary: %s\n", err);
		return -1;
	}
	int cp = tcp_table_col(&t, "point"), cpr = tcp_table_col(&t, "probe"),
	    cm = tcp_table_col(&t, "metric"), cs = tcp_table_col(&t, "status"),
	    cmed = tcp_table_col(&t, "median"), cax = tcp_table_col(&t, "axes");
	if (cp < 0 || cpr < 0 || cm < 0 || cs < 0 || cmed < 0 || cax < 0) {
		fprintf(stderr, "tcprobe: summary: %s: missing columns: got another file, expected tcprobe measurements\n",
			path);
		tcp_table_free(&t);
		return -1;
	}
	struct psum *ps = calloc((size_t)t.nrows + 1, sizeof(*ps));
	int np = 0, bad = 0, maxpt = -1;
	for (int r = 0; r < t.nrows; r++)
		if (atoi(tcp_table_cell(&t, r, cp)) > maxpt)
			maxpt = atoi(tcp_table_cell(&t, r, cp));
	unsigned char *seen = calloc((size_t)maxpt + 2, 1);
	if (!ps || !seen) {
		free(ps);
		free(seen);
		tcp_table_free(&t);
		return -1;
	}
	for (int r = 0; r < t.nrows; r++) {
		const char *pn = tcp_table_cell(&t, r, cpr), *metric = tcp_table_cell(&t, r, cm);
		int pt = atoi(tcp_table_cell(&t, r, cp)), k;
		if (strncmp(metric, "cupti/", 6) == 0)
			continue;
		for (k = 0; k < np && strcmp(ps[k].name, pn) != 0; k++)
			;
		if (k == np) {
			ps[np].name = pn;
			ps[np].best = NAN;
			ps[np].best_row = -1;
			for (int i = 0; i < nprobes; i++)
				if (strcmp(probes[i]->name, pn) == 0 && probes[i]->nmetrics > 0)
					ps[np].first = &probes[i]->metrics[0];
			np++;
		}
		struct psum *q = &ps[k];
		int si = status_index(tcp_table_cell(&t, r, cs));
		if (pt >= 0 && pt <= maxpt && !seen[pt]) {
			seen[pt] = 1;
			q->points++;
			if (si >= 0)
				q->count[si]++;
			bad |= si == TCP_FAILED || si == TCP_TIMEOUT || si == TCP_INVALID;
		}
		const char *med = tcp_table_cell(&t, r, cmed);
		if (q->first && si == TCP_OK && *med && strcmp(metric, q->first->name) == 0) {
			double v = atof(med);
			if (isnan(q->best) || (q->first->higher_is_better ? v > q->best : v < q->best)) {
				q->best = v;
				q->best_row = r;
			}
		}
	}
	fprintf(f, "%-24s %6s %6s %6s %7s %7s %7s %6s  %s\n", "probe", "points", "OK", "FAILED",
		"TIMEOUT", "INVALID", "SKIPPED", "UNSUPP", "best median of the first metric");
	for (int k = 0; k < np; k++) {
		const struct psum *q = &ps[k];
		fprintf(f, "%-24s %6d %6d %6d %7d %7d %7d %6d  ", q->name, q->points, q->count[TCP_OK],
			q->count[TCP_FAILED], q->count[TCP_TIMEOUT], q->count[TCP_INVALID],
			q->count[TCP_SKIPPED], q->count[TCP_UNSUPPORTED]);
		if (q->best_row >= 0)
			fprintf(f, "%s %.6g %s (%s)\n", q->first->name, q->best, q->first->unit,
				tcp_table_cell(&t, q->best_row, cax));
		else
			fprintf(f, "-\n");
	}
	if (t.torn_tail)
		fprintf(f, "note: a torn last line of %s was ignored\n", path);
	free(ps);
	free(seen);
	tcp_table_free(&t);
	return bad;
}
