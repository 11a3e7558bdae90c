/*
 * report-compare-plot.c
 *	The compare-ratio plot's data (rpt_compare_plot), from a `tcprobe
 *	compare --csv` file, or the same CSV of the comparison `tcprobe report
 *	--baseline` makes itself: every row that produced a verdict on numbers both
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

/* The ratio plot as it is built from one compare CSV. */
struct ratio {
	const char *csv;
	const char *baseline;	/* the BASE of the report's own comparison; NULL: csv is compare's */
	tcp_table_t t;
	int ngroups;		/* NEW runs in the CSV */
	struct pt *pts;
	struct facet *fc;
	struct strip *sr;
	int npts, nfc, nsr;
	int never_ok;		/* rows only ever UNSUPPORTED, SKIPPED, ...: not a result */
};

/* A verdict on numbers both runs measured. */
static int numeric_verdict(const char *v)
{
	return !strcmp(v, "same") || !strcmp(v, "faster") || !strcmp(v, "slower") || !strcmp(v, "changed");
}

/* A row of the strip: missing (OK in BASE), new (OK in the NEW run), or a status change. */
static int strip_row(const char *v, const char *bs, const char *ns)
{
	return (!strcmp(v, "missing") && bs && !strcmp(bs, "OK")) || (!strcmp(v, "new") && !strcmp(ns, "OK")) ||
	       !strcmp(v, "status_changed");
}

/* csv into R->t, every column the plot reads there, R->ngroups counted.  -1
 * with the reason in err. */
static int ratio_load(struct ratio *R, char *err, size_t len)
{
	static const char *const need[] = { "probe", "axes", "metric", "new_run", "ratio", "noise_pct", "verdict",
					    NULL };
	char b[64];

	if (tcp_table_load(R->csv, &R->t, err, len))
		return -1;
	for (int i = 0; need[i]; i++)
		if (tcp_table_col(&R->t, need[i]) < 0) {
			snprintf(err, len, "%s:1: column '%s' missing (not a tcprobe compare --csv file?)", R->csv,
				 need[i]);
			return -1;
		}
	for (R->ngroups = 1; R->ngroups < 64; R->ngroups++)
		if (tcp_table_col(&R->t, sfx(b, sizeof(b), "ratio", R->ngroups)) < 0)
			break;
	R->pts = calloc((size_t)R->t.nrows * (size_t)R->ngroups + 1, sizeof(*R->pts));
	R->fc = calloc((size_t)R->t.nrows + 1, sizeof(*R->fc));
	R->sr = calloc((size_t)R->t.nrows * (size_t)R->ngroups + 1, sizeof(*R->sr));
	if (!R->pts || !R->fc || !R->sr) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	return 0;
}

/* Row i of NEW run g, not a numeric verdict, counted into the strip of its
 * probe and run (a row never OK in either run is counted apart). */
static void strip_add(struct ratio *R, int i, int g, const char *v)
{
	const char *probe = tcp_table_get(&R->t, i, "probe");
	const char *bs = tcp_table_get(&R->t, i, "base_status"), *ns = cell(&R->t, i, "new_status", g);
	int miss = !strcmp(v, "missing"), fresh = !strcmp(v, "new"), stat = !strcmp(v, "status_changed");
	int k;

	if (!miss && !fresh && !stat)
		return;		/* unmeasured, absent: no verdict on a measurement */
	if ((miss && (!bs || strcmp(bs, "OK"))) || (fresh && strcmp(ns, "OK"))) {
		R->never_ok++;	/* only ever UNSUPPORTED, SKIPPED, ...: not a result */
		return;
	}
	for (k = 0; k < R->nsr && (R->sr[k].run != g || strcmp(R->sr[k].probe, probe)); k++)
		;
	if (k == R->nsr) {
		R->sr[R->nsr].probe = probe;
		R->sr[R->nsr++].run = g;
	}
	R->sr[k].missing += miss;
	R->sr[k].fresh += fresh;
	R->sr[k].status += stat;
	R->sr[k].status_bad += stat && !strcmp(cell(&R->t, i, "regression", g), "1");
}

/* Row i of NEW run g, a numeric verdict, as a point of its probe's facet
 * (facets in first-appearance order; mrow holds the facet until sorted). */
static void point_add(struct ratio *R, int i, int g, const char *v)
{
	const char *probe = tcp_table_get(&R->t, i, "probe");
	int f;

	for (f = 0; f < R->nfc && strcmp(R->fc[f].probe, probe); f++)
		;
	if (f == R->nfc)
		R->fc[R->nfc++].probe = probe;
	struct pt *p = &R->pts[R->npts++];
	p->row = i;
	p->run = g;
	p->mrow = f;
	p->verdict = v;
	p->judged = cell(&R->t, i, "judged", g);
	p->regression = !strcmp(cell(&R->t, i, "regression", g), "1");
	p->ratio = tcp_csv_num(cell(&R->t, i, "ratio", g));
	p->change_pct = tcp_csv_num(cell(&R->t, i, "change_pct", g));
	p->noise_pct = tcp_csv_num(cell(&R->t, i, "noise_pct", g));
	p->lr = p->ratio > 0 && isfinite(p->ratio) ? log2(p->ratio) :
		isnan(p->ratio) && !strcmp(v, "same") ? 0 : p->ratio == 0 ? -INFINITY : INFINITY;
}

/* Each facet's points together, by metric row (first appearance), scaled,
 * each at its height in its metric's row: the NEW runs side by side, their
 * points spread.  -1 out of memory. */
static int ratio_layout(struct ratio *R)
{
	struct pt *pts = R->pts;

	qsort(pts, (size_t)R->npts, sizeof(*pts), pt_order);
	for (int f = 0, at = 0; f < R->nfc; f++) {
		struct facet *F = &R->fc[f];
		F->first = at;
		while (at < R->npts && pts[at].mrow == f)
			at++;
		F->n = at - F->first;
		for (int i = F->first; i < at; i++)
			if ((pts[i].mrow = metric_row(F, tcp_table_get(&R->t, pts[i].row, "metric"))) < 0)
				return -1;
		qsort(&pts[F->first], (size_t)F->n, sizeof(*pts), pt_order);
		facet_scale(F, pts);
		for (int i = F->first; i < at;) {
			int j = i;
			while (j < at && pts[j].mrow == pts[i].mrow && pts[j].run == pts[i].run)
				j++;
			for (int k = i; k < j; k++)
				pts[k].y = pts[k].mrow + ((pts[k].run + (k - i + 0.5) / (j - i)) / R->ngroups - 0.5) * 0.7;
			i = j;
		}
	}
	return 0;
}

/* One facet's block of the .dat: a line per point, its colour class counted. */
static void dat_facet(struct out *o, const struct ratio *R, struct facet *F, int f)
{
	char b1[512], b2[512], b3[64];

	rpt_outf(o, "%s# facet %d: %s\n", f ? "\n\n" : "", f + 1, F->probe);
	rpt_outf(o, "facet\trun\tmetric\taxes\tmrow\ty\tratio\tchange_pct\tnoise_pct\tverdict\tjudged\t"
		 "regression\toutlier\tx\tclamped\tnum\tcolor\tpt\n");
	for (int i = F->first; i < F->first + F->n; i++) {
		const struct pt *p = &R->pts[i];
		int c = p->regression ? C_REGRESSION : !strcmp(p->verdict, "faster") ? C_FASTER :
			!strcmp(p->verdict, "slower") ? C_SLOWER : !strcmp(p->verdict, "changed") ? C_CHANGED : C_SAME;
		/* filled circle; hollow: the SM clock explains it; cross: beyond the axis,
		 * drawn at its edge; triangle: a regression, wherever it is drawn */
		int ptype = p->regression ? 9 : p->clamped ? 2 : !strcmp(p->judged, "clock") ? 6 : 7;
		F->count[c]++;
		snprintf(b3, sizeof(b3), "%d", p->num > 0 ? p->num : 0);
		rpt_outf(o, "%s\t%d\t%s\t", rpt_tq(F->probe, b1, sizeof(b1)), p->run + 1,
			 rpt_tq(tcp_table_get(&R->t, p->row, "metric"), b2, sizeof(b2)));
		rpt_outf(o, "%s\t%d\t%.6f\t%.17g\t%.17g\t%.17g\t%s\t", rpt_tq(tcp_table_get(&R->t, p->row, "axes"), b1,
			 sizeof(b1)), p->mrow, p->y, p->ratio, p->change_pct, p->noise_pct,
			 rpt_tq(p->verdict, b2, sizeof(b2)));
		rpt_outf(o, "%s\t%d\t%d\t%.17g\t%d\t%s\t%d\t%d\n", rpt_tq(p->judged, b1, sizeof(b1)), p->regression,
			 p->outlier, p->x, p->clamped, p->num > 0 ? b3 : "-", c, ptype);
	}
}

/* The strip's blocks of the .dat: its rows, then its counts per probe (and NEW run). */
static void dat_strip(struct out *o, const struct ratio *R)
{
	char b1[512], b2[512];

	rpt_outf(o, "%s# strip: rows only one run measured (OK there), and status changes\n", R->nfc ? "\n\n" : "");
	rpt_outf(o, "facet\trun\tprobe\tmetric\taxes\tverdict\tbase_status\tnew_status\tregression\n");
	for (int i = 0; i < R->t.nrows; i++)
		for (int g = 0; g < R->ngroups; g++) {
			const char *v = cell(&R->t, i, "verdict", g), *bs = tcp_table_get(&R->t, i, "base_status");
			const char *ns = cell(&R->t, i, "new_status", g);
			if (!strip_row(v, bs, ns))
				continue;
			rpt_outf(o, "new-missing\t%d\t%s\t", g + 1, rpt_tq(tcp_table_get(&R->t, i, "probe"), b1, sizeof(b1)));
			rpt_outf(o, "%s\t", rpt_tq(tcp_table_get(&R->t, i, "metric"), b1, sizeof(b1)));
			rpt_outf(o, "%s\t%s\t", rpt_tq(tcp_table_get(&R->t, i, "axes"), b1, sizeof(b1)), rpt_tq(v, b2, sizeof(b2)));
			rpt_outf(o, "%s\t", rpt_tq(bs, b1, sizeof(b1)));
			rpt_outf(o, "%s\t%d\n", rpt_tq(ns, b1, sizeof(b1)), !strcmp(cell(&R->t, i, "regression", g), "1"));
		}
	rpt_outf(o, "\n\n# strip counts: per probe (and NEW run)\nsrow\tlabel\tmissing\tnew\tstatus\tstatus_bad\n");
	for (int k = 0; k < R->nsr; k++) {
		if (R->ngroups > 1)
			snprintf(b2, sizeof(b2), "%s, run %d", R->sr[k].probe, R->sr[k].run + 1);
		else
			snprintf(b2, sizeof(b2), "%s", R->sr[k].probe);
		rpt_outf(o, "%d\t%s\t%d\t%d\t%d\t%d\n", k, rpt_tq(b2, b1, sizeof(b1)), R->sr[k].missing, R->sr[k].fresh,
			 R->sr[k].status, R->sr[k].status_bad);
	}
}

/* compare-ratio.dat: a block per facet, then the strip's rows and its counts. */
static int ratio_dat(struct ratio *R, const char *dir, char *err, size_t len)
{
	struct out o = { 0 };

	if (rpt_open(&o, dir, "compare-ratio", "dat", err, len))
		return -1;
	if (R->baseline)
		rpt_outf(&o, "# compare-ratio: from the comparison with %s (tcprobe report --baseline, as tcprobe "
			 "compare --csv writes it)", R->baseline);
	else
		rpt_outf(&o, "# compare-ratio: from %s (tcprobe compare --csv)", R->csv);
	rpt_outf(&o, "; a block per facet, then the strip's rows and its counts\n");
	for (int f = 0; f < R->nfc; f++)
		dat_facet(&o, R, &R->fc[f], f);
	dat_strip(&o, R);
	return rpt_close(&o, dir, "compare-ratio", "dat", err, len);
}

/* The noise band of metric row k of F on its axis: the median of its points' bands. */
static void row_band(const struct facet *F, const struct pt *pts, int k, double *blo, double *bhi)
{
	double *lo = malloc(sizeof(double) * (size_t)F->n), *hi = malloc(sizeof(double) * (size_t)F->n);
	int nb = 0;

	for (int i = F->first; lo && hi && i < F->first + F->n; i++)
		if (pts[i].mrow == k && isfinite(pts[i].noise_pct) && pts[i].noise_pct < 100) {
			lo[nb] = log2(1 - pts[i].noise_pct / 100);
			hi[nb++] = log2(1 + pts[i].noise_pct / 100);
		}
	*blo = *bhi = 0;
	if (nb) {
		qsort(lo, (size_t)nb, sizeof(double), cmp_double);
		qsort(hi, (size_t)nb, sizeof(double), cmp_double);
		*blo = fmax(quantile(lo, nb, 0.5), F->x0);
		*bhi = fmin(quantile(hi, nb, 0.5), F->x1);
	}
	free(lo);
	free(hi);
}

/* The .gpvars' header: the facet, run, strip counts and every array's size. */
static void vars_head(struct out *o, const struct ratio *R)
{
	int nm = 0, nl = 0, n = R->nfc + 1;	/* metric rows, listed points */
	char b1[512], b2[512];

	for (int f = 0; f < R->nfc; f++) {
		nm += R->fc[f].nm;
		nl += R->fc[f].nlabels + (R->fc[f].unlisted > 0);
	}
	rpt_outf(o, "# compare-ratio: generated by tcprobe report --extract\n");
	rpt_outf(o, "NF = %d\nNR = %d\nNSR = %d\nrowpx = %d\n", R->nfc, R->ngroups, R->nsr, ROW_PX);
	rpt_outf(o, "array rtitle[%d]\n", R->ngroups);
	for (int g = 0; g < R->ngroups; g++) {
		const char *base = R->t.nrows ? tcp_table_get(&R->t, 0, "base_run") : NULL;
		const char *nw = R->t.nrows ? cell(&R->t, 0, "new_run", g) : NULL;
		snprintf(b2, sizeof(b2), "%s / %s", nw && *nw ? nw : "new", base ? base : "base");
		rpt_outf(o, "rtitle[%d] = \"%s\"\n", g + 1, rpt_gq(b2, b1, sizeof(b1)));
	}
	rpt_outf(o, "array fname[%d]\narray ftitle[%d]\narray fx0[%d]\narray fx1[%d]\narray fnm[%d]\n"
		 "array fmfirst[%d]\narray ftfirst[%d]\narray ftlast[%d]\narray flfirst[%d]\narray flast[%d]\n"
		 "array flm[%d]\n", n, n, n, n, n, n, n, n, n, n, n);
	rpt_outf(o, "array mlab[%d]\narray mblo[%d]\narray mbhi[%d]\narray ltext[%d]\n", nm + 1, nm + 1, nm + 1,
		 nl + 1);
}

/* Facet F's numbered points under it, from list line l + 1: each one's
 * line, then how many more there are.  The last line written. */
static int vars_labels(struct out *o, const struct ratio *R, const struct facet *F, int l)
{
	char b1[512], b2[512];

	for (int num = 1; num <= F->nlabels; num++)
		for (int i = F->first; i < F->first + F->n; i++) {
			const struct pt *p = &R->pts[i];
			if (p->num != num)
				continue;
			char ch[64], line[600], run[24] = "";
			if (R->ngroups > 1)
				snprintf(run, sizeof(run), ", run %d", p->run + 1);
			/* the axes last: a long one is what the cut takes */
			snprintf(line, sizeof(line), "%d  %s: %s, %s%s%s%s%s  %s", num,
				 tcp_table_get(&R->t, p->row, "metric"), change_text(p, ch, sizeof(ch)),
				 p->regression ? "REGRESSION" : p->verdict, p->judged[0] ? " (" : "", p->judged,
				 p->judged[0] ? ")" : "", run, tcp_table_get(&R->t, p->row, "axes"));
			if (strlen(line) > LABEL_CHARS)
				memcpy(line + LABEL_CHARS - 3, "...", 4);
			rpt_outf(o, "ltext[%d] = \"%s\"\n", ++l, rpt_gq(line, b1, sizeof(b1)));
		}
	if (F->unlisted) {
		snprintf(b2, sizeof(b2), "and %d more regression%s or outlier%s: the .dat has them (num -)",
			 F->unlisted, F->unlisted == 1 ? "" : "s", F->unlisted == 1 ? "" : "s");
		rpt_outf(o, "ltext[%d] = \"%s\"\n", ++l, rpt_gq(b2, b1, sizeof(b1)));
	}
	return l;
}

/* Facet f's variables: its title and axis, its metric rows (from m + 1) with
 * their bands, its numbered points (from l + 1).  m and l move past them. */
static void vars_facet(struct out *o, const struct ratio *R, int f, int *m, int *l)
{
	const struct facet *F = &R->fc[f];
	char b1[512], b2[512];
	int wide = 0;

	rpt_outf(o, "fname[%d] = \"%s\"\n", f + 1, rpt_gq(F->probe, b1, sizeof(b1)));
	snprintf(b2, sizeof(b2), "%d rows of %d metric%s: %d regression%s, %d slower, %d faster, %d changed, "
		 "%d same%s", F->n, F->nm, F->nm == 1 ? "" : "s", F->count[C_REGRESSION],
		 F->count[C_REGRESSION] == 1 ? "" : "s", F->count[C_SLOWER], F->count[C_FASTER], F->count[C_CHANGED],
		 F->count[C_SAME], R->ngroups > 1 ? " (over the NEW runs)" : "");
	rpt_outf(o, "ftitle[%d] = \"%s\"; fx0[%d] = %.17g; fx1[%d] = %.17g; fnm[%d] = %d; fmfirst[%d] = %d\n",
		 f + 1, rpt_gq(b2, b1, sizeof(b1)), f + 1, F->x0, f + 1, F->x1, f + 1, F->nm, f + 1, *m + 1);
	for (int k = 0; k < F->nm; k++) {
		double blo, bhi;
		row_band(F, R->pts, k, &blo, &bhi);
		++*m;
		rpt_outf(o, "mlab[%d] = \"%s\"; mblo[%d] = %.17g; mbhi[%d] = %.17g\n", *m,
			 rpt_gq(F->metric[k], b1, sizeof(b1)), *m, blo, *m, bhi);
		wide = (int)fmax(wide, strlen(F->metric[k]));
	}
	rpt_outf(o, "flm[%d] = %d; flfirst[%d] = %d\n", f + 1, wide + 2, f + 1, *l + 1);
	*l = vars_labels(o, R, F, *l);
	rpt_outf(o, "flast[%d] = %d\n", f + 1, *l);
}

/* Every facet's tics, in one array: a pass that writes nothing counts them. */
static void vars_tics(struct out *o, const struct ratio *R)
{
	struct out none = { 0 };
	int count = 0, nt = 0;

	for (int f = 0; f < R->nfc; f++)
		facet_tics(&none, R->fc[f].x0, R->fc[f].x1, &count);
	rpt_outf(o, "array tpos[%d]\narray tlab[%d]\n", count + 1, count + 1);
	for (int f = 0; f < R->nfc; f++) {
		rpt_outf(o, "ftfirst[%d] = %d\n", f + 1, nt + 1);
		facet_tics(o, R->fc[f].x0, R->fc[f].x1, &nt);
		rpt_outf(o, "ftlast[%d] = %d\n", f + 1, nt);
	}
}

/* compare-ratio.gpvars: per facet its axis, tics, metric rows, numbered points; the strip. */
static int ratio_gpvars(const struct ratio *R, const char *dir, char *err, size_t len)
{
	struct out o = { 0 };
	int m = 0, l = 0;

	if (rpt_open(&o, dir, "compare-ratio", "gpvars", err, len))
		return -1;
	vars_head(&o, R);
	for (int f = 0; f < R->nfc; f++)
		vars_facet(&o, R, f, &m, &l);
	vars_tics(&o, R);
	rpt_outf(&o, "never_ok = %d\n", R->never_ok);
	return rpt_close(&o, dir, "compare-ratio", "gpvars", err, len);
}

/* st's images (one per facet, then the strip), whether it has data, its note and footnote. */
static void ratio_state(const struct ratio *R, tcp_plot_state_t *st)
{
	for (int f = 0; f < R->nfc; f++)
		if (rpt_plot_image(st, "compare-ratio", R->fc[f].probe, R->fc[f].probe))
			break;
	if (R->nsr)
		rpt_plot_image(st, "compare-ratio", "new-missing", "rows only one run measured, and status changes");
	if (!R->npts && !R->nsr) {
		snprintf(st->note, sizeof(st->note), "%s holds no row with a verdict on a measurement", R->csv);
		return;
	}
	const char *base = tcp_table_get(&R->t, 0, "base_run"), *nw = tcp_table_get(&R->t, 0, "new_run");
	int nreg = 0, nmiss = 0, nnew = 0, nstat = 0;
	for (int f = 0; f < R->nfc; f++)
		nreg += R->fc[f].count[C_REGRESSION];
	for (int k = 0; k < R->nsr; k++) {
		nmiss += R->sr[k].missing;
		nnew += R->sr[k].fresh;
		nstat += R->sr[k].status;
	}
	st->has_data = 1;
	snprintf(st->footnote, sizeof(st->footnote), "Mixes runs: base %s; new %s%s", base ? base : "?",
		 nw ? nw : "?", R->ngroups > 1 ? " and the other runs named in the .dat" : "");
	snprintf(st->note, sizeof(st->note), "%d verdicts on rows both runs measured, in %d facets (one per "
		 "probe), %d of them regressions; %d missing, %d new, %d status changes; %s%s against the base "
		 "%s (tcprobe compare)", R->npts, R->nfc, nreg, nmiss, nnew, nstat, nw ? nw : "?",
		 R->ngroups > 1 ? " and more runs" : "", base ? base : "?");
}

/*
 *  rpt_compare_plot()
 *	compare-ratio.dat (a block per facet: every verdict row with its facet,
 *	metric row, ratio, verdict, how it was judged, the axis position; then
 *	the strip's rows and its counts) and compare-ratio.gpvars; st's images:
 *	compare-ratio-<probe> per facet, compare-ratio-new-missing for the
 *	strip.  The .dat names where the comparison comes from: csv, or the
 *	baseline the report joined.  0, or -1 with the reason (a file that is
 *	not compare's CSV, a write error).
 */
int rpt_compare_plot(const char *csv, const char *baseline, const char *dir, tcp_plot_state_t *st, char *err,
		     size_t len)
{
	struct ratio R = { .csv = csv, .baseline = baseline };
	int rc = -1;

	if (ratio_load(&R, err, len))
		goto out;
	/* facets in first-appearance order, then each facet's points together */
	for (int i = 0; i < R.t.nrows; i++)
		for (int g = 0; g < R.ngroups; g++) {
			const char *v = cell(&R.t, i, "verdict", g);
			if (numeric_verdict(v))
				point_add(&R, i, g, v);
			else
				strip_add(&R, i, g, v);
		}
	if (ratio_layout(&R)) {
		snprintf(err, len, "out of memory");
		goto out;
	}
	if (ratio_dat(&R, dir, err, len) || ratio_gpvars(&R, dir, err, len))
		goto out;
	ratio_state(&R, st);
	rc = 0;
out:
	for (int f = 0; R.fc && f < R.nfc; f++)
		free(R.fc[f].metric);
	free(R.fc);
	free(R.pts);
	free(R.sr);
	tcp_table_free(&R.t);
	return rc;
}
