/*
 * report-compare-plot.c
 *	The compare-ratio plot's data (rpt_compare_plot), from a `tcprobe
 *	compare --csv` file: every row that produced a verdict on numbers both
 *	runs measured (same, faster, slower, changed), in one facet per probe
 *	and one image per facet: a row per metric, the ratio NEW / BASE on a
 *	log2 axis zoomed to the facet's data, coloured by verdict, hollow where
 *	the point's SM clock explains the change (compare's `judged` = clock),
 *	regressions and outliers numbered and listed under the facet; and the
 *	rows only one run measured (new, missing) and the status changes in a
 *	strip of their own.  plots/compare-ratio.gp draws image k of
 *	compare-ratio.dat / .gpvars with panel = k.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/analyze/report-int.h"
#include "harness/store/csvio.h"

#define FENCE_IQR 3.0		/* outlier: beyond the quartiles by this many IQRs, and not `same` */
#define ZOOM_SPAN 3.0		/* outliers drawn in place up to this many inlier widths out */
#define MIN_HALF 0.000288	/* log2(1.0002): the narrowest axis, +-0.02% */
#define MAX_LABELS 10		/* numbered points listed under a facet ... */
#define MAX_LABELS_ROW 2	/* ... of them per metric row, so that several metrics get one */
#define LABEL_CHARS 96		/* a listed point's line, cut to fit 700 px at 9 pt */
#define ROW_PX 18		/* a metric's row in a facet image, per NEW run */

enum { C_SAME, C_FASTER, C_SLOWER, C_CHANGED, C_REGRESSION };

struct pt {			/* one verdict row of one NEW run in a facet */
	int row, run, mrow;	/* CSV row, NEW run (0-based), metric row of the facet */
	double lr;		/* log2(ratio); +-INFINITY when one side is 0 */
	double ratio, change_pct, noise_pct;
	const char *verdict, *judged;
	int regression, outlier, num;
	double y, x;
	int clamped;
};

struct facet {
	const char *probe;
	const char **metric;	/* its metric rows, first-appearance order */
	int nm;
	int first, n;		/* its points: pts[first .. first + n - 1] */
	double x0, x1;		/* the axis, log2 */
	int count[C_REGRESSION + 1], noutliers, nlabels, unlisted;
};

struct strip {			/* rows only one run measured, and status changes, per probe and run */
	const char *probe;
	int run, missing, fresh, status, status_bad;
};

static const char *sfx(char *b, size_t n, const char *col, int g)
{
	if (g)
		snprintf(b, n, "%s_%d", col, g + 1);
	else
		snprintf(b, n, "%s", col);
	return b;
}

static const char *cell(const tcp_table_t *t, int row, const char *col, int g)
{
	char b[64];
	const char *v = tcp_table_get(t, row, sfx(b, sizeof(b), col, g));

	return v ? v : "";
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Quantile q of n sorted values (linear between neighbours). */
static double quantile(const double *v, int n, double q)
{
	double at = q * (n - 1);
	int i = (int)floor(at);

	return i + 1 < n ? v[i] + (at - i) * (v[i + 1] - v[i]) : v[n - 1];
}

/* 1, 2 or 5 x 10^k, at least x. */
static double nice_step(double x)
{
	double e = pow(10, floor(log10(x))), m = x / e;

	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * e;
}

/* The axis tics of [x0, x1] (log2 of the ratio): as a change in percent where the
 * range is within a factor of about 2.3, else at powers of two ("x2", "1/4"). */
static void facet_tics(struct out *o, double x0, double x1, int *nt)
{
	if (x1 - x0 < 1.2) {
		double p0 = (exp2(x0) - 1) * 100, p1 = (exp2(x1) - 1) * 100, step = nice_step((p1 - p0) / 5);
		int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
		for (double p = ceil(p0 / step) * step; p <= p1 + step * 1e-9; p += step) {
			double q = fabs(p) < step * 1e-6 ? 0 : p;
			(*nt)++;
			if (q == 0)
				rpt_outf(o, "tpos[%d] = 0; tlab[%d] = \"0\"\n", *nt, *nt);
			else
				rpt_outf(o, "tpos[%d] = %.17g; tlab[%d] = \"%+.*f%%%%\"\n", *nt, log2(1 + q / 100), *nt,
					 dec, q);
		}
		return;
	}
	int kstep = (int)fmax(1, ceil((x1 - x0) / 8));	/* at most about 8 tics */
	for (int k = (int)ceil(x0 / kstep) * kstep; k <= (int)floor(x1); k += kstep) {
		(*nt)++;
		if (k >= 0)
			rpt_outf(o, "tpos[%d] = %d; tlab[%d] = \"%s%d\"\n", *nt, k, *nt, k ? "x" : "", 1 << k);
		else
			rpt_outf(o, "tpos[%d] = %d; tlab[%d] = \"1/%d\"\n", *nt, k, *nt, 1 << -k);
	}
}

/* A point's change as a reader says it: "+3.4%", "x19.7", "base 0". */
static const char *change_text(const struct pt *p, char *b, size_t n)
{
	if (!isfinite(p->lr))
		snprintf(b, n, "%s 0", p->lr > 0 ? "base" : "new");
	else if (fabs(p->lr) < 1)
		snprintf(b, n, "%+.3g%%", (p->ratio - 1) * 100);
	else
		snprintf(b, n, "x%.3g", p->ratio);
	return b;
}

/* Outliers, the axis and the numbered points of one facet. */
static void facet_scale(struct facet *f, struct pt *pts)
{
	double *v = malloc(sizeof(double) * (size_t)(f->n ? f->n : 1));
	int nv = 0;

	for (int i = 0; v && i < f->n; i++)
		if (isfinite(pts[f->first + i].lr))
			v[nv++] = pts[f->first + i].lr;
	qsort(v, (size_t)nv, sizeof(double), cmp_double);
	double q1 = nv ? quantile(v, nv, 0.25) : 0, q3 = nv ? quantile(v, nv, 0.75) : 0, iqr = q3 - q1;
	double a = 0, b = 0, lo = 0, hi = 0;
	free(v);
	for (int i = 0; i < f->n; i++) {
		struct pt *p = &pts[f->first + i];
		p->outlier = strcmp(p->verdict, "same") &&
			     (!isfinite(p->lr) || p->lr < q1 - FENCE_IQR * iqr || p->lr > q3 + FENCE_IQR * iqr);
		f->noutliers += p->outlier;
		if (!isfinite(p->lr))
			continue;
		if (!p->outlier) {
			a = fmin(a, p->lr);
			b = fmax(b, p->lr);
		}
		lo = fmin(lo, p->lr);
		hi = fmax(hi, p->lr);
	}
	double w = fmax(b - a, 2 * MIN_HALF);
	f->x0 = fmax(lo, a - ZOOM_SPAN * w);
	f->x1 = fmin(hi, b + ZOOM_SPAN * w);
	if (f->x1 - f->x0 < 2 * MIN_HALF) {
		double c = (f->x0 + f->x1) / 2;
		f->x0 = c - MIN_HALF;
		f->x1 = c + MIN_HALF;
	}
	double pad = (f->x1 - f->x0) * 0.06;
	f->x0 -= pad;
	f->x1 += pad;
	for (int i = 0; i < f->n; i++) {
		struct pt *p = &pts[f->first + i];
		p->x = p->lr < f->x0 ? f->x0 : p->lr > f->x1 ? f->x1 : p->lr;
		p->clamped = p->x != p->lr;
	}
	/* numbered: regressions first, then outliers, each the largest change first, at
	 * most MAX_LABELS_ROW a metric row (regressions always, up to MAX_LABELS) */
	int *per_row = calloc((size_t)f->nm + 1, sizeof(int));
	for (int pass = 0; per_row && pass < 2; pass++)
		for (;;) {
			struct pt *best = NULL;
			for (int i = 0; i < f->n; i++) {
				struct pt *p = &pts[f->first + i];
				if (p->num || !(pass ? p->outlier : p->regression))
					continue;
				if (!best || fabs(p->lr) > fabs(best->lr))
					best = p;
			}
			if (!best)
				break;
			if (f->nlabels == MAX_LABELS || (pass && per_row[best->mrow] >= MAX_LABELS_ROW)) {
				best->num = -1;		/* counted, not listed */
				f->unlisted++;
				continue;
			}
			per_row[best->mrow]++;
			best->num = ++f->nlabels;
		}
	free(per_row);
}

static int metric_row(struct facet *f, const char *metric)
{
	for (int i = 0; i < f->nm; i++)
		if (!strcmp(f->metric[i], metric))
			return i;
	const char **m = realloc(f->metric, sizeof(*m) * (size_t)(f->nm + 1));
	if (!m)
		return -1;
	f->metric = m;
	f->metric[f->nm] = metric;
	return f->nm++;
}

/* Points by mrow (the facet, then the metric row), NEW run, CSV row. */
static int pt_order(const void *a, const void *b)
{
	const struct pt *x = a, *y = b;

	if (x->mrow != y->mrow)
		return x->mrow - y->mrow;
	if (x->run != y->run)
		return x->run - y->run;
	return x->row - y->row;
}

/*
 *  rpt_compare_plot()
 *	compare-ratio.dat (a block per facet: every verdict row with its facet,
 *	metric row, ratio, verdict, how it was judged, the axis position; then
 *	the strip's rows and its counts) and compare-ratio.gpvars; st's images:
 *	compare-ratio-<probe> per facet, compare-ratio-new-missing for the
 *	strip.  0, or -1 with the reason (a file that is not compare's CSV, a
 *	write error).
 */
int rpt_compare_plot(const char *csv, const char *dir, tcp_plot_state_t *st, char *err, size_t len)
{
	static const char *const need[] = { "probe", "axes", "metric", "new_run", "ratio", "noise_pct", "verdict",
					    NULL };
	tcp_table_t t;
	struct pt *pts = NULL;
	struct facet *fc = NULL;
	struct strip *sr = NULL;
	int npts = 0, nfc = 0, nsr = 0, ngroups, never_ok = 0, rc = -1;
	struct out o = { 0 };
	char b1[512], b2[512], b3[64];

	if (tcp_table_load(csv, &t, err, len))
		return -1;
	for (int i = 0; need[i]; i++)
		if (tcp_table_col(&t, need[i]) < 0) {
			snprintf(err, len, "%s:1: column '%s' missing (not a tcprobe compare --csv file?)", csv, need[i]);
			goto out;
		}
	for (ngroups = 1; ngroups < 64; ngroups++)
		if (tcp_table_col(&t, sfx(b3, sizeof(b3), "ratio", ngroups)) < 0)
			break;
	pts = calloc((size_t)t.nrows * (size_t)ngroups + 1, sizeof(*pts));
	fc = calloc((size_t)t.nrows + 1, sizeof(*fc));
	sr = calloc((size_t)t.nrows * (size_t)ngroups + 1, sizeof(*sr));
	if (!pts || !fc || !sr) {
		snprintf(err, len, "out of memory");
		goto out;
	}
	/* facets in first-appearance order, then each facet's points together */
	for (int i = 0; i < t.nrows; i++)
		for (int g = 0; g < ngroups; g++) {
			const char *probe = tcp_table_get(&t, i, "probe"), *v = cell(&t, i, "verdict", g);
			const char *bs = tcp_table_get(&t, i, "base_status"), *ns = cell(&t, i, "new_status", g);
			int numeric = !strcmp(v, "same") || !strcmp(v, "faster") || !strcmp(v, "slower") ||
				      !strcmp(v, "changed");
			if (!numeric) {
				int miss = !strcmp(v, "missing"), fresh = !strcmp(v, "new"), stat = !strcmp(v, "status_changed");
				if (!miss && !fresh && !stat)
					continue;	/* unmeasured, absent: no verdict on a measurement */
				if ((miss && (!bs || strcmp(bs, "OK"))) || (fresh && strcmp(ns, "OK"))) {
					never_ok++;	/* only ever UNSUPPORTED, SKIPPED, ...: not a result */
					continue;
				}
				int k;
				for (k = 0; k < nsr && (sr[k].run != g || strcmp(sr[k].probe, probe)); k++)
					;
				if (k == nsr) {
					sr[nsr].probe = probe;
					sr[nsr++].run = g;
				}
				sr[k].missing += miss;
				sr[k].fresh += fresh;
				sr[k].status += stat;
				sr[k].status_bad += stat && !strcmp(cell(&t, i, "regression", g), "1");
				continue;
			}
			int f;
			for (f = 0; f < nfc && strcmp(fc[f].probe, probe); f++)
				;
			if (f == nfc)
				fc[nfc++].probe = probe;
			struct pt *p = &pts[npts++];
			p->row = i;
			p->run = g;
			p->mrow = f;		/* the facet, until sorted */
			p->verdict = v;
			p->judged = cell(&t, i, "judged", g);
			p->regression = !strcmp(cell(&t, i, "regression", g), "1");
			p->ratio = tcp_csv_num(cell(&t, i, "ratio", g));
			p->change_pct = tcp_csv_num(cell(&t, i, "change_pct", g));
			p->noise_pct = tcp_csv_num(cell(&t, i, "noise_pct", g));
			p->lr = p->ratio > 0 && isfinite(p->ratio) ? log2(p->ratio) :
				isnan(p->ratio) && !strcmp(v, "same") ? 0 : p->ratio == 0 ? -INFINITY : INFINITY;
		}
	/* the points by facet, then within a facet by metric row (first appearance) */
	qsort(pts, (size_t)npts, sizeof(*pts), pt_order);
	for (int f = 0, at = 0; f < nfc; f++) {
		fc[f].first = at;
		while (at < npts && pts[at].mrow == f)
			at++;
		fc[f].n = at - fc[f].first;
		for (int i = fc[f].first; i < at; i++)
			if ((pts[i].mrow = metric_row(&fc[f], tcp_table_get(&t, pts[i].row, "metric"))) < 0) {
				snprintf(err, len, "out of memory");
				goto out;
			}
		qsort(&pts[fc[f].first], (size_t)fc[f].n, sizeof(*pts), pt_order);
		facet_scale(&fc[f], pts);
		/* a point's height in its metric's row: the NEW runs side by side, their points spread */
		for (int i = fc[f].first; i < at;) {
			int j = i;
			while (j < at && pts[j].mrow == pts[i].mrow && pts[j].run == pts[i].run)
				j++;
			for (int k = i; k < j; k++)
				pts[k].y = pts[k].mrow + ((pts[k].run + (k - i + 0.5) / (j - i)) / ngroups - 0.5) * 0.7;
			i = j;
		}
	}

	if (rpt_open(&o, dir, "compare-ratio", "dat", err, len))
		goto out;
	rpt_outf(&o, "# compare-ratio: from %s (tcprobe compare --csv); a block per facet, then the strip's "
		 "rows and its counts\n", csv);
	for (int f = 0; f < nfc; f++) {
		rpt_outf(&o, "%s# facet %d: %s\n", f ? "\n\n" : "", f + 1, fc[f].probe);
		rpt_outf(&o, "facet\trun\tmetric\taxes\tmrow\ty\tratio\tchange_pct\tnoise_pct\tverdict\tjudged\t"
			 "regression\toutlier\tx\tclamped\tnum\tcolor\tpt\n");
		for (int i = fc[f].first; i < fc[f].first + fc[f].n; i++) {
			struct pt *p = &pts[i];
			int c = p->regression ? C_REGRESSION : !strcmp(p->verdict, "faster") ? C_FASTER :
				!strcmp(p->verdict, "slower") ? C_SLOWER : !strcmp(p->verdict, "changed") ? C_CHANGED : C_SAME;
			/* filled circle; hollow: the SM clock explains it; cross: beyond the axis,
			 * drawn at its edge; triangle: a regression, wherever it is drawn */
			int ptype = p->regression ? 9 : p->clamped ? 2 : !strcmp(p->judged, "clock") ? 6 : 7;
			fc[f].count[c]++;
			snprintf(b3, sizeof(b3), "%d", p->num > 0 ? p->num : 0);
			rpt_outf(&o, "%s\t%d\t%s\t", rpt_tq(fc[f].probe, b1, sizeof(b1)), p->run + 1,
				 rpt_tq(tcp_table_get(&t, p->row, "metric"), b2, sizeof(b2)));
			rpt_outf(&o, "%s\t%d\t%.6f\t%.17g\t%.17g\t%.17g\t%s\t", rpt_tq(tcp_table_get(&t, p->row, "axes"), b1,
				 sizeof(b1)), p->mrow, p->y, p->ratio, p->change_pct, p->noise_pct,
				 rpt_tq(p->verdict, b2, sizeof(b2)));
			rpt_outf(&o, "%s\t%d\t%d\t%.17g\t%d\t%s\t%d\t%d\n", rpt_tq(p->judged, b1, sizeof(b1)), p->regression,
				 p->outlier, p->x, p->clamped, p->num > 0 ? b3 : "-", c, ptype);
		}
	}
	rpt_outf(&o, "%s# strip: rows only one run measured (OK there), and status changes\n", nfc ? "\n\n" : "");
	rpt_outf(&o, "facet\trun\tprobe\tmetric\taxes\tverdict\tbase_status\tnew_status\tregression\n");
	for (int i = 0; i < t.nrows; i++)
		for (int g = 0; g < ngroups; g++) {
			const char *v = cell(&t, i, "verdict", g), *bs = tcp_table_get(&t, i, "base_status");
			const char *ns = cell(&t, i, "new_status", g);
			if (!(!strcmp(v, "missing") && bs && !strcmp(bs, "OK")) && !(!strcmp(v, "new") && !strcmp(ns, "OK")) &&
			    strcmp(v, "status_changed"))
				continue;
			rpt_outf(&o, "new-missing\t%d\t%s\t", g + 1, rpt_tq(tcp_table_get(&t, i, "probe"), b1, sizeof(b1)));
			rpt_outf(&o, "%s\t", rpt_tq(tcp_table_get(&t, i, "metric"), b1, sizeof(b1)));
			rpt_outf(&o, "%s\t%s\t", rpt_tq(tcp_table_get(&t, i, "axes"), b1, sizeof(b1)), rpt_tq(v, b2, sizeof(b2)));
			rpt_outf(&o, "%s\t", rpt_tq(bs, b1, sizeof(b1)));
			rpt_outf(&o, "%s\t%d\n", rpt_tq(ns, b1, sizeof(b1)), !strcmp(cell(&t, i, "regression", g), "1"));
		}
	rpt_outf(&o, "\n\n# strip counts: per probe (and NEW run)\nsrow\tlabel\tmissing\tnew\tstatus\tstatus_bad\n");
	for (int k = 0; k < nsr; k++) {
		if (ngroups > 1)
			snprintf(b2, sizeof(b2), "%s, run %d", sr[k].probe, sr[k].run + 1);
		else
			snprintf(b2, sizeof(b2), "%s", sr[k].probe);
		rpt_outf(&o, "%d\t%s\t%d\t%d\t%d\t%d\n", k, rpt_tq(b2, b1, sizeof(b1)), sr[k].missing, sr[k].fresh,
			 sr[k].status, sr[k].status_bad);
	}
	if (rpt_close(&o, dir, "compare-ratio", "dat", err, len) ||
	    rpt_open(&o, dir, "compare-ratio", "gpvars", err, len))
		goto out;

	/* the gpvars: per facet its axis, tics, metric rows, numbered points; the strip */
	int nm = 0, nt = 0, nl = 0;	/* metric rows, tics, listed points */
	for (int f = 0; f < nfc; f++) {
		nm += fc[f].nm;
		nl += fc[f].nlabels + (fc[f].unlisted > 0);
	}
	rpt_outf(&o, "# compare-ratio: generated by tcprobe report --extract\n");
	rpt_outf(&o, "NF = %d\nNR = %d\nNSR = %d\nrowpx = %d\n", nfc, ngroups, nsr, ROW_PX);
	rpt_outf(&o, "array rtitle[%d]\n", ngroups);
	for (int g = 0; g < ngroups; g++) {
		const char *base = t.nrows ? tcp_table_get(&t, 0, "base_run") : NULL;
		const char *nw = t.nrows ? cell(&t, 0, "new_run", g) : NULL;
		snprintf(b2, sizeof(b2), "%s / %s", nw && *nw ? nw : "new", base ? base : "base");
		rpt_outf(&o, "rtitle[%d] = \"%s\"\n", g + 1, rpt_gq(b2, b1, sizeof(b1)));
	}
	rpt_outf(&o, "array fname[%d]\narray ftitle[%d]\narray fx0[%d]\narray fx1[%d]\narray fnm[%d]\n"
		 "array fmfirst[%d]\narray ftfirst[%d]\narray ftlast[%d]\narray flfirst[%d]\narray flast[%d]\n"
		 "array flm[%d]\n", nfc + 1, nfc + 1, nfc + 1, nfc + 1, nfc + 1, nfc + 1, nfc + 1, nfc + 1, nfc + 1,
		 nfc + 1, nfc + 1);
	rpt_outf(&o, "array mlab[%d]\narray mblo[%d]\narray mbhi[%d]\narray ltext[%d]\n", nm + 1, nm + 1, nm + 1,
		 nl + 1);
	for (int f = 0, m = 0, l = 0; f < nfc; f++) {
		struct facet *F = &fc[f];
		int wide = 0;
		rpt_outf(&o, "fname[%d] = \"%s\"\n", f + 1, rpt_gq(F->probe, b1, sizeof(b1)));
		snprintf(b2, sizeof(b2), "%d rows of %d metric%s: %d regression%s, %d slower, %d faster, %d changed, "
			 "%d same%s", F->n, F->nm, F->nm == 1 ? "" : "s", F->count[C_REGRESSION],
			 F->count[C_REGRESSION] == 1 ? "" : "s", F->count[C_SLOWER], F->count[C_FASTER], F->count[C_CHANGED],
			 F->count[C_SAME], ngroups > 1 ? " (over the NEW runs)" : "");
		rpt_outf(&o, "ftitle[%d] = \"%s\"; fx0[%d] = %.17g; fx1[%d] = %.17g; fnm[%d] = %d; fmfirst[%d] = %d\n",
			 f + 1, rpt_gq(b2, b1, sizeof(b1)), f + 1, F->x0, f + 1, F->x1, f + 1, F->nm, f + 1, m + 1);
		for (int k = 0; k < F->nm; k++) {
			/* the row's noise band: the median of its points' bands, on the axis */
			double *lo = malloc(sizeof(double) * (size_t)F->n), *hi = malloc(sizeof(double) * (size_t)F->n);
			int nb = 0;
			for (int i = F->first; lo && hi && i < F->first + F->n; i++)
				if (pts[i].mrow == k && isfinite(pts[i].noise_pct) && pts[i].noise_pct < 100) {
					lo[nb] = log2(1 - pts[i].noise_pct / 100);
					hi[nb++] = log2(1 + pts[i].noise_pct / 100);
				}
			double blo = 0, bhi = 0;
			if (nb) {
				qsort(lo, (size_t)nb, sizeof(double), cmp_double);
				qsort(hi, (size_t)nb, sizeof(double), cmp_double);
				blo = fmax(quantile(lo, nb, 0.5), F->x0);
				bhi = fmin(quantile(hi, nb, 0.5), F->x1);
			}
			free(lo);
			free(hi);
			m++;
			rpt_outf(&o, "mlab[%d] = \"%s\"; mblo[%d] = %.17g; mbhi[%d] = %.17g\n", m,
				 rpt_gq(F->metric[k], b1, sizeof(b1)), m, blo, m, bhi);
			wide = (int)fmax(wide, strlen(F->metric[k]));
		}
		rpt_outf(&o, "flm[%d] = %d; flfirst[%d] = %d\n", f + 1, wide + 2, f + 1, l + 1);
		for (int num = 1; num <= F->nlabels; num++)
			for (int i = F->first; i < F->first + F->n; i++) {
				const struct pt *p = &pts[i];
				if (p->num != num)
					continue;
				char ch[64], line[600], run[24] = "";
				if (ngroups > 1)
					snprintf(run, sizeof(run), ", run %d", p->run + 1);
				/* the axes last: a long one is what the cut takes */
				snprintf(line, sizeof(line), "%d  %s: %s, %s%s%s%s%s  %s", num,
					 tcp_table_get(&t, p->row, "metric"), change_text(p, ch, sizeof(ch)),
					 p->regression ? "REGRESSION" : p->verdict, p->judged[0] ? " (" : "", p->judged,
					 p->judged[0] ? ")" : "", run, tcp_table_get(&t, p->row, "axes"));
				if (strlen(line) > LABEL_CHARS)
					memcpy(line + LABEL_CHARS - 3, "...", 4);
				rpt_outf(&o, "ltext[%d] = \"%s\"\n", ++l, rpt_gq(line, b1, sizeof(b1)));
			}
		if (F->unlisted) {
			snprintf(b2, sizeof(b2), "and %d more regression%s or outlier%s: the .dat has them (num -)",
				 F->unlisted, F->unlisted == 1 ? "" : "s", F->unlisted == 1 ? "" : "s");
			rpt_outf(&o, "ltext[%d] = \"%s\"\n", ++l, rpt_gq(b2, b1, sizeof(b1)));
		}
		rpt_outf(&o, "flast[%d] = %d\n", f + 1, l);
	}
	/* every facet's tics, in one array: a pass that writes nothing counts them */
	{
		struct out none = { 0 };
		int count = 0;
		for (int f = 0; f < nfc; f++)
			facet_tics(&none, fc[f].x0, fc[f].x1, &count);
		rpt_outf(&o, "array tpos[%d]\narray tlab[%d]\n", count + 1, count + 1);
		for (int f = 0; f < nfc; f++) {
			rpt_outf(&o, "ftfirst[%d] = %d\n", f + 1, nt + 1);
			facet_tics(&o, fc[f].x0, fc[f].x1, &nt);
			rpt_outf(&o, "ftlast[%d] = %d\n", f + 1, nt);
		}
	}
	rpt_outf(&o, "never_ok = %d\n", never_ok);
	if (rpt_close(&o, dir, "compare-ratio", "gpvars", err, len))
		goto out;

	/* the images: one per facet, then the strip */
	for (int f = 0; f < nfc; f++)
		if (rpt_plot_image(st, "compare-ratio", fc[f].probe, fc[f].probe))
			break;
	if (nsr)
		rpt_plot_image(st, "compare-ratio", "new-missing", "rows only one run measured, and status changes");
	if (npts || nsr) {
		const char *base = tcp_table_get(&t, 0, "base_run"), *nw = tcp_table_get(&t, 0, "new_run");
		int nreg = 0, nmiss = 0, nnew = 0, nstat = 0;
		for (int f = 0; f < nfc; f++)
			nreg += fc[f].count[C_REGRESSION];
		for (int k = 0; k < nsr; k++) {
			nmiss += sr[k].missing;
			nnew += sr[k].fresh;
			nstat += sr[k].status;
		}
		st->has_data = 1;
		snprintf(st->footnote, sizeof(st->footnote), "Mixes runs: base %s; new %s%s", base ? base : "?",
			 nw ? nw : "?", ngroups > 1 ? " and the other runs named in the .dat" : "");
		snprintf(st->note, sizeof(st->note), "%d verdicts on rows both runs measured, in %d facets (one per "
			 "probe), %d of them regressions; %d missing, %d new, %d status changes; %s%s against the base "
			 "%s (tcprobe compare)", npts, nfc, nreg, nmiss, nnew, nstat, nw ? nw : "?",
			 ngroups > 1 ? " and more runs" : "", base ? base : "?");
	} else {
		snprintf(st->note, sizeof(st->note), "%s holds no row with a verdict on a measurement", csv);
	}
	rc = 0;
out:
	for (int f = 0; fc && f < nfc; f++)
		free(fc[f].metric);
	free(fc);
	free(pts);
	free(sr);
	tcp_table_free(&t);
	return rc;
}
