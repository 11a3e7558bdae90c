/*
 * report-timers.c
 *	The "Kernel timers" section of a `tcprobe run --timer cupti` run and its
 *	RUN_DIR/timer-compare.csv: per point, the CUPTI Activity span of the
 *	kernels next to the profiler's duration and the probe's own timing.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/analyze/report-int.h"
#include "harness/measure/stats.h"


/* ------------------------------------------------------------------ */
/* Kernel timers of a --timer cupti run                                */
/* ------------------------------------------------------------------ */

/* A metric's median, NaN when the point has no such row or its median is empty. */
static double metric_median(const tcp_run_point_t *p, const char *metric)
{
	const tcp_run_row_t *m = tcp_point_metric(p, metric);

	return m ? m->median : NAN;
}

static long point_number(const char *id)
{
	char *end;
	long v = id ? strtol(id, &end, 10) : 0;

	return id && end != id ? v : 0;
}

/* Rows in the order of the CSV's point column; ties (no column) in load order. */
static int timer_row_cmp(const void *a, const void *b)
{
	const tcp_timer_row_t *x = a, *y = b;
	long px = point_number(x->point), py = point_number(y->point);

	if (px != py)
		return px < py ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

/*
 *  tcp_report_timers()
 *	One row per OK point with a positive cupti_kernel_ns; every ratio is
 *	taken only over a positive, finite denominator (a zero or malformed
 *	duration leaves the column NaN instead of dividing by it).
 */
int tcp_report_timers(const tcp_run_t *r, tcp_timer_row_t **rows)
{
	tcp_timer_row_t *t;
	int n = 0;

	*rows = NULL;
	if (!(t = calloc((size_t)r->npoints + 1, sizeof(*t))))
		return -1;
	for (int i = 0; i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		const tcp_run_row_t *cm = tcp_point_metric(p, "cupti_kernel_ns");
		if (p->status != TCP_OK || !cm || !isfinite(cm->median) || cm->median <= 0)
			continue;
		tcp_timer_row_t *w = &t[n++];
		double cu = cm->median, d = metric_median(p, "cupti/gpu__time_duration.sum"), ik = NAN;
		w->index = i;
		w->point = p->id ? p->id : "";
		w->probe = p->probe;
		w->axes = p->axes;
		w->cupti_ns = cu;
		w->spread_pct = 100.0 * (cm->max - cm->min) / cu;	/* NaN when min/max are missing */
		w->duration_ns = w->activity_over_profiler = NAN;
		w->inkernel_ns = w->inkernel_share_pct = w->outside_ns = w->event_ns = NAN;
		if (isfinite(d) && d > 0) {
			w->duration_ns = d;
			w->activity_over_profiler = cu / d;
		}
		if (!strcmp(p->probe, "calib")) {
			ik = metric_median(p, "kernel_ns");
			w->event_ns = metric_median(p, "event_ns");
		} else {
			double cyc = metric_median(p, "cycles"), mhz = metric_median(p, "sm_clock_mhz");
			if (isfinite(cyc) && isfinite(mhz) && mhz > 0)
				ik = cyc / (mhz * 1e-3);
		}
		if (isfinite(ik) && ik > 0) {
			w->inkernel_ns = ik;
			w->inkernel_share_pct = 100.0 * ik / cu;
			w->outside_ns = cu - ik;
		}
	}
	if (!n) {
		free(t);
		return 0;
	}
	qsort(t, (size_t)n, sizeof(*t), timer_row_cmp);
	*rows = t;
	return n;
}

/*
 * Field `off` (a double of tcp_timer_row_t) over the rows of probe (NULL:
 * all), only those with an in-kernel span when need_ik; v is scratch.
 */
static tcp_stats_t timer_q(const tcp_timer_row_t *t, int n, const char *probe, size_t off, int need_ik,
			   double *v)
{
	tcp_stats_t q;
	int k = 0;

	for (int i = 0; i < n; i++)
		if ((!probe || !strcmp(t[i].probe, probe)) && (!need_ik || isfinite(t[i].inkernel_ns)))
			v[k++] = *(const double *)((const char *)&t[i] + off);
	tcp_stats_compute(v, k, &q);	/* median, min, max of the non-NaN values */
	return q;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const char *const timer_csv_cols[] = {
	"point", "probe", "axes", "cupti_kernel_ns", "cupti_spread_pct", "gpu_time_duration_ns",
	"activity_over_profiler", "inkernel_ns", "inkernel_share_pct", "outside_ns", "event_ns",
};
#define TIMER_NCOLS ((int)(sizeof(timer_csv_cols) / sizeof(timer_csv_cols[0])))

/* dir/timer-compare.csv: one row per point, numbers as %.6g, NaN as an empty field. */
int rpt_timer_csv(const tcp_timer_row_t *t, int n, const char *dir, char *err, size_t len)
{
	char path[4096], (*cell)[8][32];
	const char **c;
	tcp_csv_writer_t *w;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/timer-compare.csv", dir);
	cell = malloc((size_t)n * sizeof(*cell));
	c = malloc((size_t)n * TIMER_NCOLS * sizeof(*c));
	if (!cell || !c) {
		free(cell);
		free(c);
		snprintf(err, len, "%s: out of memory", path);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		const double v[8] = { t[i].cupti_ns, t[i].spread_pct, t[i].duration_ns, t[i].activity_over_profiler,
				      t[i].inkernel_ns, t[i].inkernel_share_pct, t[i].outside_ns, t[i].event_ns };
		const char **row = c + (size_t)i * TIMER_NCOLS;
		row[0] = t[i].point;
		row[1] = t[i].probe;
		row[2] = t[i].axes;
		for (int k = 0; k < 8; k++) {
			if (isfinite(v[k]))
				snprintf(cell[i][k], sizeof(cell[i][k]), "%.6g", v[k]);
			else
				cell[i][k][0] = 0;
			row[3 + k] = cell[i][k];
		}
	}
	if (!(w = tcp_csv_open(path, timer_csv_cols, TIMER_NCOLS, 0, err, len)))
		rc = -1;
	else if (tcp_csv_write_rows(w, c, n) | tcp_csv_close(w)) {
		snprintf(err, len, "%s: write failed: %s", path, strerror(errno));
		rc = -1;
	}
	free(cell);
	free(c);
	return rc;
}

static void stats_cells(tcp_stats_t q, char cell[3][32], const char **c)
{
	c[0] = rpt_num(q.median, cell[0], 32, "%.4g");
	c[1] = rpt_num(q.min, cell[1], 32, "%.4g");
	c[2] = rpt_num(q.max, cell[2], 32, "%.4g");
}

/* Per probe: the Activity span over the profiler's gpu__time_duration (v:
 * room for n values). */
static void timer_ratio_table(struct out *o, int html, const char *const *probes, int np,
			      const tcp_timer_row_t *t, int n, double *v)
{
	static const char *const h[] = { "probe", "points", "median", "min", "max" };
	const char *c[5];
	char cell[8][32];
	int any = 0;

	rpt_para(o, html, "Activity span / profiler gpu__time_duration (same kernels, counter pass replayed):");
	for (int i = 0; i < np; i++) {
		tcp_stats_t q = timer_q(t, n, probes[i], offsetof(tcp_timer_row_t, activity_over_profiler), 0, v);
		if (!q.n)
			continue;
		if (!any++)
			rpt_tab_begin(o, html, h, 5);
		c[0] = probes[i];
		snprintf(cell[7], sizeof(cell[7]), "%d", q.n);
		c[1] = cell[7];
		stats_cells(q, cell, c + 2);
		rpt_tab_row(o, html, c, 5);
	}
	if (any)
		rpt_tab_end(o, html);
	else
		rpt_para(o, html, "No point has a positive cupti/gpu__time_duration.sum (run with --counters default).");
}

/* calib's one spin kernel: its in-kernel, CUPTI and cudaEvent spans, per point. */
static void timer_calib_table(struct out *o, int html, const tcp_timer_row_t *t, int n)
{
	static const char *const h[] = { "point", "in-kernel ns", "CUPTI ns", "event ns",
					 "CUPTI - in-kernel ns", "event - CUPTI ns" };
	const char *c[6];
	char cell[5][32];
	int any = 0;

	for (int i = 0; i < n; i++) {
		if (strcmp(t[i].probe, "calib") || !isfinite(t[i].inkernel_ns))
			continue;
		if (!any++) {
			rpt_para(o, html, "calib (one spin kernel): in-kernel %globaltimer span vs CUPTI span vs "
				 "cudaEvent span:");
			rpt_tab_begin(o, html, h, 6);
		}
		c[0] = t[i].axes;
		c[1] = rpt_num(t[i].inkernel_ns, cell[0], 32, "%.0f");
		c[2] = rpt_num(t[i].cupti_ns, cell[1], 32, "%.0f");
		c[3] = rpt_num(t[i].event_ns, cell[2], 32, "%.0f");
		c[4] = rpt_num(t[i].outside_ns, cell[3], 32, "%.0f");
		c[5] = rpt_num(t[i].event_ns - t[i].cupti_ns, cell[4], 32, "%.0f");
		rpt_tab_row(o, html, c, 6);
	}
	if (any)
		rpt_tab_end(o, html);
}

/* Each timed-loop probe (every probe but calib): its loop's share of the
 * CUPTI span, the time outside it, the span itself. */
static void timer_share_tables(struct out *o, int html, const char *const *probes, int np,
			       const tcp_timer_row_t *t, int n, double *v)
{
	static const char *const h[] = { "quantity", "median", "min", "max" };
	static const struct {
		const char *name;
		size_t off;
	} rows[] = {
		{ "share %", offsetof(tcp_timer_row_t, inkernel_share_pct) },
		{ "outside loop, ns", offsetof(tcp_timer_row_t, outside_ns) },
		{ "CUPTI span, ns", offsetof(tcp_timer_row_t, cupti_ns) },
	};
	const char *c[4];
	char b[1024], cell[3][32];

	for (int i = 0; i < np; i++) {
		if (!strcmp(probes[i], "calib"))
			continue;
		tcp_stats_t q = timer_q(t, n, probes[i], offsetof(tcp_timer_row_t, inkernel_ns), 1, v);
		if (!q.n)
			continue;
		snprintf(b, sizeof(b), "%s: timed loop (cycles / sm_clock_mhz) as a share of the CUPTI kernel "
			 "span, %d points:", probes[i], q.n);
		rpt_para(o, html, b);
		rpt_tab_begin(o, html, h, 4);
		for (int k = 0; k < 3; k++) {
			c[0] = rows[k].name;
			stats_cells(timer_q(t, n, probes[i], rows[k].off, 1, v), cell, c + 1);
			rpt_tab_row(o, html, c, 4);
		}
		rpt_tab_end(o, html);
	}
}

/*
 *  rpt_timer_section()
 *	What --timer cupti adds, next to the probes' own clocks: the Activity
 *	span against the profiler's gpu__time_duration (per probe), calib's
 *	three spans of one spin kernel, each timed-loop probe's share of the
 *	CUPTI span, and the span's spread over reps.  Written only when the
 *	run has cupti_kernel_ns rows (t, n from tcp_report_timers).
 */
void rpt_timer_section(struct out *o, int html, const tcp_run_t *r, const char *dir,
			  const tcp_timer_row_t *t, int n)
{
	char b[1024];
	double *v = malloc((size_t)n * sizeof(*v));
	/* the run's probes (the loader's distinct list), by name; those without rows add nothing */
	const char **probes = malloc((size_t)(r->nprobes + 1) * sizeof(*probes));
	int np = r->nprobes;

	if (!v || !probes) {
		free(v);
		free(probes);
		return;
	}
	memcpy(probes, r->probes, (size_t)np * sizeof(*probes));
	qsort(probes, (size_t)np, sizeof(*probes), name_cmp);
	snprintf(b, sizeof(b), "%d points carry cupti_kernel_ns, the CUPTI Activity API's span (first GPU start "
		 "to last GPU end) of the kernels one timed run() launched, next to the profiler's "
		 "cupti/gpu__time_duration.sum of the counter pass and the probes' own clock64 / %%globaltimer "
		 "timing. Per point: %s/timer-compare.csv (written by tcprobe report).", n, dir);
	rpt_para(o, html, b);
	rpt_para(o, html, "Caution: event-based metrics of a --timer cupti run (event_ns, launch_overhead_ns) are not "
		 "comparable with those of an events run: the Activity API instruments the host launch path "
		 "(on the H200, calib's cudaEvent span grew from ~58 to 277 us).");
	timer_ratio_table(o, html, probes, np, t, n, v);
	timer_calib_table(o, html, t, n);
	timer_share_tables(o, html, probes, np, t, n, v);

	tcp_stats_t q = timer_q(t, n, NULL, offsetof(tcp_timer_row_t, spread_pct), 0, v);
	if (q.n) {
		char s[3][32];
		const char *sc[3];
		stats_cells(q, s, sc);
		snprintf(b, sizeof(b), "CUPTI span spread over reps, (max - min) / median, %%: median %s, min %s, "
			 "max %s (%d points).", sc[0], sc[1], sc[2], q.n);
		rpt_para(o, html, b);
	}
	free(v);
	free(probes);
}
