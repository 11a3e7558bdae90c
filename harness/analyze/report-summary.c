/*
 * report-summary.c
 *	The findings a report opens with, derived from the run, never written by
 *	hand (rpt_summary_build): per MMA family (all of its probes), rate class
 *	and dense or sparse form the best math rate at a stated input pattern,
 *	its % of the chip's published peak (model/peaks.h; a sparse form's is
 *	twice the dense figure), TFLOP/s and the SM clock over the points within
 *	RPT_AT_PEAK_PCT of it, and the accumulator bandwidth the K/4 identity
 *	implies; the SM clock and power under load (rpt_point_clock, never
 *	NVML's sample); latency vs N per form as one line or, where one line
 *	does not fit, two (rpt_fit_lines, also drawn by lat-vs-n); issue
 *	interval and saturating depth; tcgen05.ld/st/cp peak bytes; energy per
 *	FLOP; the points that need attention; and against a baseline, the
 *	verdicts counted without the rows neither run ran, and what is missing
 *	per probe.  Written as summary.json here (its contract:
 *	results/summary.schema.json) and as report sections by
 *	report-findings.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/analyze/report-int.h"
#include "harness/measure/stats.h"
#include "harness/store/provenance.h"
#include "model/kinds.h"
#include "model/peaks.h"

#define SUMMARY_VERSION 3
#define SAT_FRACTION 0.05	/* saturating depth: within 5% of the asymptotic interval (as ii-vs-depth) */
#define ONE_LINE_R2 0.999	/* a line this good is never split */
#define SPLIT_GAIN 10.0		/* two segments must cut the squared error 10x */

/* ------------------------------------------------------------ the fits */

/* Least squares on x[i0..i1] (inclusive): a, b, r2; returns the squared error. */
static double fit_range(const double *x, const double *y, int i0, int i1, double *a, double *b, double *r2)
{
	double sse = 0;

	tcp_fit_linear(x + i0, y + i0, i1 - i0 + 1, a, b, r2);
	for (int i = i0; i <= i1; i++)
		sse += (y[i] - (*a + *b * x[i])) * (y[i] - (*a + *b * x[i]));
	return sse;
}

/*
 *  rpt_fit_lines()
 *	One line y = a + b x over all points, and the best two-segment fit
 *	(every breakpoint at a measured x, each segment with 3 or more points,
 *	the breakpoint in both): two segments are reported when the one line
 *	explains less than 99.9% of the variance and the two cut its squared
 *	error at least 10x (Hopper's wgmma latency bends above N = 128).
 *	Fewer than RPT_FIT_MIN_POINTS points are not fitted: a line through two
 *	points has R^2 = 1 whatever they measure (pieces 0, a, b, r2 NaN).
 */
int rpt_fit_lines(const double *x, const double *y, int n, rpt_fit_t *f)
{
	memset(f, 0, sizeof(*f));
	f->n = n;
	f->pieces = 1;
	if (n < RPT_FIT_MIN_POINTS) {
		f->pieces = 0;
		f->a = f->b = f->r2 = NAN;
		return -1;
	}
	double sse1 = fit_range(x, y, 0, n - 1, &f->a, &f->b, &f->r2), best = INFINITY;
	int at = -1;
	f->x0[0] = x[0];
	f->x1[0] = x[n - 1];
	f->sa[0] = f->a;
	f->sb[0] = f->b;
	f->sr2[0] = f->r2;
	for (int k = RPT_FIT_MIN_POINTS - 1; k <= n - RPT_FIT_MIN_POINTS; k++) {
		double a, b, r2, s = fit_range(x, y, 0, k, &a, &b, &r2) + fit_range(x, y, k, n - 1, &a, &b, &r2);
		if (s < best) {
			best = s;
			at = k;
		}
	}
	if (at < 0 || !(f->r2 < ONE_LINE_R2) || !(best * SPLIT_GAIN < sse1))
		return 0;
	f->pieces = 2;
	fit_range(x, y, 0, at, &f->sa[0], &f->sb[0], &f->sr2[0]);
	fit_range(x, y, at, n - 1, &f->sa[1], &f->sb[1], &f->sr2[1]);
	f->x0[0] = x[0];
	f->x1[0] = f->x0[1] = x[at];
	f->x1[1] = x[n - 1];
	return 0;
}

/* ------------------------------------------------------------ helpers */

static const struct { const char *probe, *family; } families[] = {
	{ "wgmma_tput", "wgmma" }, { "tc_mma_tput", "tcgen05" }, { "mma_sync", "mma.sync" },
	{ "warp_mma", "mma.sync" },
};

static const char *family_of(const char *probe)
{
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (!strcmp(families[i].probe, probe))
			return families[i].family;
	return NULL;
}

/* The axes of p other than `skip`, "a=1;b=2" ("" when none). */
static void form_of(const tcp_run_point_t *p, const char *skip, char *buf, size_t len)
{
	buf[0] = 0;
	for (int a = 0; a < p->naxes; a++)
		if (strcmp(p->an[a], skip)) {
			size_t n = strlen(buf);
			snprintf(buf + n, len - n, "%s%s=%s", n ? ";" : "", p->an[a], p->av[a]);
		}
}

/* Add word to a ", "-separated list unless it is there. */
static void list_add(char *list, size_t len, const char *word)
{
	size_t w = strlen(word);

	for (const char *s = list; (s = strstr(s, word)); s += w)
		if ((s == list || s[-1] == ' ') && (s[w] == ',' || !s[w]))
			return;
	size_t n = strlen(list);
	snprintf(list + n, len - n, "%s%s", n ? ", " : "", word);
}

static double metric_median(const tcp_run_point_t *p, const char *metric)
{
	const tcp_run_row_t *m = tcp_point_metric(p, metric);
	return m ? m->median : NAN;
}

static double sort_xy(double *x, double *y, int n)	/* insertion sort by x: series are short */
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && x[j - 1] > x[j]; j--) {
			double t = x[j]; x[j] = x[j - 1]; x[j - 1] = t;
			t = y[j]; y[j] = y[j - 1]; y[j - 1] = t;
		}
	return n ? x[n - 1] : NAN;
}

/* ------------------------------------------------------------ the parts */

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* n values (sorted in place) as a range; n 0: NaNs. */
static rpt_range_t range_of(double *v, int n)
{
	rpt_range_t g = { n, NAN, NAN, NAN };

	if (n <= 0)
		return g;
	qsort(v, (size_t)n, sizeof(*v), dcmp);
	g.lo = v[0];
	g.hi = v[n - 1];
	g.med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	return g;
}

/* A point of a kinds row: an OK, accumulating (enable_input_d = 1, or no such
 * axis: an overwrite moves half the accumulator bytes acc_bw counts) MMA-rate
 * point of a known family and kind; its flop_per_clk_sm row, else NULL. */
static const tcp_run_row_t *kind_point(const tcp_run_point_t *p, const char **fam, int *kind)
{
	const char *eid = tcp_point_axis(p, "enable_input_d");
	const tcp_run_row_t *m;

	*fam = family_of(p->probe);
	*kind = rpt_point_kind(p);
	if (!*fam || p->status != TCP_OK || *kind < 0 || (eid && strcmp(eid, "1")) ||
	    !(m = tcp_point_metric(p, "flop_per_clk_sm")) || !isfinite(m->median))
		return NULL;
	return m;
}

/* The kinds row of a point: one per (family, rate class, kind, sparse); -1 none. */
static int kind_row(const rpt_summary_t *s, const tcp_run_point_t *p, const char *fam, int kind)
{
	int cls = tcp_peak_class((tcp_kind_t)kind, TCP_T_COUNT, (tcp_type_t)rpt_point_acc(p));
	int sparse = rpt_point_sparse(p);

	for (int k = 0; k < s->nkinds; k++)
		if (!strcmp(s->kinds[k].family, fam) && s->kinds[k].cls == cls && s->kinds[k].kind == kind &&
		    s->kinds[k].sparse == sparse)
			return k;
	return -1;
}

/* The point is at the row's stated pattern (any point when it has none). */
static int at_pattern(const rpt_kind_row_t *w, const tcp_run_point_t *p)
{
	const char *pat = tcp_point_axis(p, "pattern");

	return !w->pattern[0] || (pat && !strcmp(pat, w->pattern));
}

/* The kinds row of point p (family fam, kind), added when it is new; -1
 * when the table is full. */
static int kind_row_add(rpt_summary_t *s, const tcp_run_point_t *p, const char *fam, int kind)
{
	int k = kind_row(s, p, fam, kind);

	if (k >= 0)
		return k;
	if (s->nkinds == RPT_MAX_ROWS)
		return -1;
	k = s->nkinds++;
	rpt_kind_row_t *w = &s->kinds[k];
	memset(w, 0, sizeof(*w));
	w->family = fam;
	w->kind = kind;
	w->cls = tcp_peak_class((tcp_kind_t)kind, TCP_T_COUNT, (tcp_type_t)rpt_point_acc(p));
	w->sparse = rpt_point_sparse(p);
	w->rate = -INFINITY;
	return k;
}

/* The kinds rows, their probes and inputs, and whether random inputs were measured. */
static void kinds_rows(rpt_summary_t *s, const tcp_run_t *r)
{
	const char *fam, *kv;
	int kind;

	for (int i = 0; i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		if (!kind_point(p, &fam, &kind))
			continue;
		int k = kind_row_add(s, p, fam, kind);
		if (k < 0)
			continue;
		rpt_kind_row_t *w = &s->kinds[k];
		list_add(w->probes, sizeof(w->probes), p->probe);
		/* the input type: warp_mma's / tcgen05's atype when set, else the kind */
		if ((kv = tcp_point_axis(p, "atype")) && strcmp(kv, "auto"))
			list_add(w->inputs, sizeof(w->inputs), kv);
		else if ((kv = tcp_point_axis(p, "kind")))
			list_add(w->inputs, sizeof(w->inputs), kv);
		if ((kv = tcp_point_axis(p, "pattern")) && !strcmp(kv, "random"))
			snprintf(w->pattern, sizeof(w->pattern), "random");
	}
}

/* The best point of each kinds row at its pattern (random, else whichever
 * the best point has): its rate, % of peak, MMA-K and accumulator bandwidth. */
static void kinds_best(rpt_summary_t *s, const tcp_run_t *r)
{
	const char *fam;
	int kind;

	for (int i = 0; i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		const tcp_run_row_t *m = kind_point(p, &fam, &kind);
		int k = m ? kind_row(s, p, fam, kind) : -1;
		if (k < 0)
			continue;
		rpt_kind_row_t *w = &s->kinds[k];
		if (!at_pattern(w, p) || !(m->median > w->rate))
			continue;
		int gen = rpt_point_gen(r, p), kk = tcp_kind_k_gen((tcp_kind_t)kind, (tcp_gen_t)(gen ? gen : 90));
		w->probe = p->probe;
		w->axes = p->axes;
		w->rate = m->median;
		w->spread_pct = m->spread_pct;
		w->peak = rpt_point_peak(r, p, &w->peak_source);
		w->pct_peak = rpt_point_pct(p, m, w->peak);
		w->mma_k = kk * (w->sparse ? 2 : 1);
		/* FLOP per accumulator byte = 2MNK / (MN x bytes x 2: read and write) = K / bytes */
		w->acc_bw = w->rate / ((double)w->mma_k / (tcp_type_bits((tcp_type_t)rpt_point_acc(p)) / 8));
	}
}

/*
 *  kinds_at_peak()
 *	Kinds row k's points within RPT_AT_PEAK_PCT of its best: TFLOP/s and
 *	the SM clock as ranges (tf, ck: room for every point), the worst
 *	clock source among them; and its label.
 */
static void kinds_at_peak(rpt_summary_t *s, const tcp_run_t *r, int k, double sms, double *tf, double *ck)
{
	rpt_kind_row_t *w = &s->kinds[k];
	const tcp_run_point_t *best = tcp_run_find(r, w->probe, w->axes);
	const char *fam, *kv;
	int kind, n = 0, worst = 0;	/* the worst clock source among them (none worst of all) */

	if (!w->pattern[0] && best && (kv = tcp_point_axis(best, "pattern")))
		snprintf(w->pattern, sizeof(w->pattern), "%s", kv);
	for (int i = 0; i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		const tcp_run_row_t *m = kind_point(p, &fam, &kind);
		int ps;
		if (!m || kind_row(s, p, fam, kind) != k || !at_pattern(w, p) ||
		    m->median < w->rate * (1 - RPT_AT_PEAK_PCT / 100))
			continue;
		double c = rpt_point_clock(r, p, &ps), t = metric_median(p, "tflops");
		if (!isfinite(t))
			t = m->median * sms * c * 1e-6;
		if ((ps == RPT_CLK_NONE ? RPT_CLK_NVML + 1 : ps) > worst)
			worst = ps == RPT_CLK_NONE ? RPT_CLK_NVML + 1 : ps;
		tf[n] = t;
		ck[n++] = c;
	}
	rpt_range_t g = range_of(tf, n), h = range_of(ck, n);
	w->npeak = n;
	w->tflops = g.med;
	w->tflops_lo = g.lo;
	w->tflops_hi = g.hi;
	w->clock_mhz = h.med;
	w->clock_lo = h.lo;
	w->clock_hi = h.hi;
	w->clock_src = worst > RPT_CLK_NVML ? RPT_CLK_NONE : worst;
	snprintf(w->label, sizeof(w->label), "%s -> %s%s", w->inputs, tcp_type_name((tcp_type_t)
		 (w->cls == TCP_PK_F16_F16 || w->cls == TCP_PK_F8_F16 ? TCP_T_F16 :
		  w->kind == TCP_KIND_I8 ? TCP_T_S32 : TCP_T_F32)), w->sparse ? " (sparse)" : "");
}

/*
 *  build_kinds()
 *	Per MMA family and rate class (and sparse form), over every probe of
 *	the family: the best FLOP/clk/SM at the stated input pattern (random
 *	where measured), its % of the published peak (dense; sparse forms
 *	against the sparse peak), and over the points within RPT_AT_PEAK_PCT
 *	of it, TFLOP/s and the SM clock under load as ranges: which point wins
 *	by 0.01% decides no number.
 */
static void build_kinds(rpt_summary_t *s, const tcp_run_t *r)
{
	const char *smc = tcp_run_prov(r, "sm_count");
	double sms = smc ? tcp_csv_num(smc) : NAN;
	double *tf = malloc(((size_t)r->npoints + 1) * sizeof(*tf)), *ck = malloc(((size_t)r->npoints + 1) * sizeof(*ck));

	if (tf && ck) {
		kinds_rows(s, r);
		kinds_best(s, r);
		for (int k = 0; k < s->nkinds; k++)
			kinds_at_peak(s, r, k, sms, tf, ck);
	}
	free(tf);
	free(ck);
}

/*
 *  build_clock()
 *	The SM clock under load over the run's OK points: in-kernel, counter
 *	pass (CUPTI), NVML's samples, each point's own (the first two), and
 *	how often NVML is more than RPT_NVML_OFF_PCT off it; the power the
 *	energy rows measured, and the board's power limit.
 */
static void build_clock(rpt_summary_t *s, const tcp_run_t *r)
{
	size_t n = (size_t)r->npoints + 1;
	double *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b)), *c = malloc(n * sizeof(*c));
	double *d = malloc(n * sizeof(*d)), *e = malloc(n * sizeof(*e));
	int na = 0, nb = 0, nc = 0, nd = 0, ne = 0;
	const char *pl = tcp_run_prov(r, "power_limit_w");

	s->power_limit_w = pl ? tcp_csv_num(pl) : NAN;
	s->nvml_off_max = NAN;
	for (int i = 0; a && b && c && d && e && i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		const tcp_run_row_t *pw = tcp_point_metric(p, "power_w_mean");
		int src;
		if (p->status != TCP_OK)
			continue;
		double clk = rpt_point_clock(r, p, &src), cu = rpt_point_cupti_clock(r, p);
		double off = rpt_point_nvml_off(r, p);
		if (src == RPT_CLK_KERNEL)
			a[na++] = clk;
		if (isfinite(cu))
			b[nb++] = cu;
		if (isfinite(p->clock_mhz))
			c[nc++] = p->clock_mhz;
		if (src == RPT_CLK_KERNEL || src == RPT_CLK_CUPTI)
			d[nd++] = clk;
		if (isfinite(off)) {
			s->nvml_cmp++;
			s->nvml_off += fabs(off) > RPT_NVML_OFF_PCT;
			if (!(fabs(off) <= s->nvml_off_max))
				s->nvml_off_max = fabs(off);
		}
		if (pw && pw->status == TCP_OK && isfinite(pw->median))
			e[ne++] = pw->median;
	}
	s->clk_kernel = range_of(a, a ? na : 0);
	s->clk_cupti = range_of(b, b ? nb : 0);
	s->clk_nvml = range_of(c, c ? nc : 0);
	s->clk_load = range_of(d, d ? nd : 0);
	s->power = range_of(e, e ? ne : 0);
	free(a);
	free(b);
	free(c);
	free(d);
	free(e);
}

/* Latency vs N per form (the axes other than N) of the latency probes. */
static void build_lat(rpt_summary_t *s, const tcp_run_t *r)
{
	static const char *const probes[] = { "wgmma_lat", "tc_mma_lat", NULL };
	static const char *const metrics[] = { "cycles_per_mma", "latency_cycles", NULL };
	double x[64], y[64];

	for (int i = 0; i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		const char *nv = tcp_point_axis(p, "N");
		const tcp_run_row_t *m = NULL;
		char form[200];
		int k;
		if (!rpt_in_list(p->probe, probes) || p->status != TCP_OK || !nv)
			continue;
		for (int j = 0; metrics[j] && !m; j++)
			m = tcp_point_metric(p, metrics[j]);
		if (!m || !isfinite(m->median))
			continue;
		form_of(p, "N", form, sizeof(form));
		for (k = 0; k < s->nlat; k++)
			if (!strcmp(s->lat[k].probe, p->probe) && !strcmp(s->lat[k].form, form))
				break;
		if (k < s->nlat || s->nlat == RPT_MAX_ROWS)
			continue;	/* a form is fitted once, from all its points, below */
		rpt_lat_row_t *row = &s->lat[s->nlat++];
		row->probe = p->probe;
		row->metric = m->metric;
		snprintf(row->form, sizeof(row->form), "%s", form);
		int n = 0;
		for (int j = i; j < r->npoints && n < 64; j++) {
			const tcp_run_point_t *q = &r->points[j];
			const tcp_run_row_t *mq;
			char fq[200];
			if (strcmp(q->probe, p->probe) || q->status != TCP_OK || !tcp_point_axis(q, "N") ||
			    !(mq = tcp_point_metric(q, m->metric)) || !isfinite(mq->median))
				continue;
			form_of(q, "N", fq, sizeof(fq));
			if (strcmp(fq, form))
				continue;
			x[n] = tcp_csv_num(tcp_point_axis(q, "N"));
			y[n++] = mq->median;
		}
		sort_xy(x, y, n);
		rpt_fit_lines(x, y, n, &row->fit);
		s->nlat_short += n < RPT_FIT_MIN_POINTS;
	}
}

/* Issue interval vs chain depth per form (tc_mma_ii): cycles = ii + b / D. */
static void build_ii(rpt_summary_t *s, const tcp_run_t *r)
{
	static const char *const dn[] = { "depth", "D", NULL };
	double x[64], y[64];

	for (int i = 0; i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		const char *dname = NULL;
		char form[200];
		int k;
		for (int j = 0; dn[j] && !dname; j++)
			if (tcp_point_axis(p, dn[j]))
				dname = dn[j];
		if (strcmp(p->probe, "tc_mma_ii") || p->status != TCP_OK || !dname ||
		    !isfinite(metric_median(p, "cycles_per_mma")))
			continue;
		form_of(p, dname, form, sizeof(form));
		for (k = 0; k < s->nii && strcmp(s->ii[k].form, form); k++)
			;
		if (k < s->nii || s->nii == RPT_MAX_ROWS)
			continue;
		rpt_ii_row_t *row = &s->ii[s->nii++];
		row->probe = p->probe;
		snprintf(row->form, sizeof(row->form), "%s", form);
		row->min_issue = NAN;
		int n = 0;
		for (int j = i; j < r->npoints && n < 64; j++) {
			const tcp_run_point_t *q = &r->points[j];
			char fq[200];
			double d = tcp_csv_num(tcp_point_axis(q, dname)), c = metric_median(q, "cycles_per_mma");
			double is = metric_median(q, "issue_cycles_per_mma");
			if (strcmp(q->probe, p->probe) || q->status != TCP_OK || !isfinite(c))
				continue;
			form_of(q, dname, fq, sizeof(fq));
			if (strcmp(fq, form))
				continue;
			if (isfinite(is) && !(is >= row->min_issue))
				row->min_issue = is;
			if (d > 0) {
				x[n] = d;
				y[n++] = c;
			}
		}
		row->n = n;
		row->ii = row->b = row->r2 = row->sat_depth = NAN;
		if (n >= 2 && tcp_fit_inverse(x, y, n, &row->ii, &row->b, &row->r2) == 0 && row->ii > 0 && row->b > 0)
			row->sat_depth = ceil(row->b / (SAT_FRACTION * row->ii));
	}
}

/* tcgen05.ld / st / cp: the peak byte rate per operation. */
static void build_tmem(rpt_summary_t *s, const tcp_run_t *r)
{
	static const char *const probes[] = { "tc_ldst", "tc_cp", NULL };
	static const char *const metrics[] = { "reg_bytes_per_clk_sm", "bytes_per_clk_sm", "tmem_bytes_per_clk_sm",
					       NULL };

	for (int i = 0; i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		const tcp_run_row_t *m = NULL;
		const char *op = tcp_point_axis(p, "op");
		char what[96];
		int k;
		if (!rpt_in_list(p->probe, probes) || p->status != TCP_OK)
			continue;
		for (int j = 0; metrics[j] && !m; j++)
			m = tcp_point_metric(p, metrics[j]);
		if (!m || !isfinite(m->median))
			continue;
		snprintf(what, sizeof(what), "tcgen05.%s", op ? op : !strcmp(p->probe, "tc_cp") ? "cp" : p->probe);
		for (k = 0; k < s->ntmem && strcmp(s->tmem[k].what, what); k++)
			;
		if (k == s->ntmem) {
			if (k == (int)(sizeof(s->tmem) / sizeof(s->tmem[0])))
				continue;
			memset(&s->tmem[k], 0, sizeof(s->tmem[k]));
			snprintf(s->tmem[k].what, sizeof(s->tmem[k].what), "%s", what);
			s->tmem[k].value = -INFINITY;
			s->ntmem++;
		}
		if (m->median > s->tmem[k].value) {
			s->tmem[k].probe = p->probe;
			s->tmem[k].axes = p->axes;
			s->tmem[k].metric = m->metric;
			s->tmem[k].unit = m->unit;
			s->tmem[k].value = m->median;
		}
	}
}

/* Energy per FLOP per (probe, kind, accumulator): lowest and highest over the input patterns. */
static void build_energy(rpt_summary_t *s, const tcp_run_t *r)
{
	for (int i = 0; i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		const tcp_run_row_t *m = tcp_point_metric(p, "pj_per_flop");
		const char *kv = tcp_point_axis(p, "kind"), *acc = tcp_point_axis(p, "acc");
		const char *pat = tcp_point_axis(p, "pattern");
		char what[96];
		int k;
		if (!m || m->status != TCP_OK || !isfinite(m->median))
			continue;
		snprintf(what, sizeof(what), "%s %s%s%s", p->probe, kv ? kv : "", acc ? " -> " : "", acc ? acc : "");
		for (k = 0; k < s->nenergy && strcmp(s->energy[k].what, what); k++)
			;
		if (k == s->nenergy) {
			if (k == RPT_MAX_ROWS)
				continue;
			memset(&s->energy[k], 0, sizeof(s->energy[k]));
			snprintf(s->energy[k].what, sizeof(s->energy[k].what), "%s", what);
			s->energy[k].probe = p->probe;
			s->energy[k].metric = m->metric;
			s->energy[k].unit = m->unit;
			s->energy[k].lo = INFINITY;
			s->energy[k].hi = -INFINITY;
			s->energy[k].value = NAN;
			s->nenergy++;
		}
		rpt_peak_row_t *e = &s->energy[k];
		if (m->median < e->lo) {
			e->lo = m->median;
			snprintf(e->lo_at, sizeof(e->lo_at), "%s", pat ? pat : p->axes);
		}
		if (m->median > e->hi) {
			e->hi = m->median;
			e->axes = p->axes;
			snprintf(e->hi_at, sizeof(e->hi_at), "%s", pat ? pat : p->axes);
		}
		if (pat && !strcmp(pat, "random"))
			e->value = m->median;	/* the realistic input: the headline */
	}
}

static void attn_add(rpt_summary_t *s, const tcp_run_point_t *p, int cat, const char *why, const char *detail)
{
	if (s->nattn == RPT_MAX_ATTN) {
		s->attn_dropped++;
		return;
	}
	rpt_attn_t *a = &s->attn[s->nattn++];
	a->p = p;
	a->cat = cat;
	a->why = why;
	snprintf(a->detail, sizeof(a->detail), "%s", detail && *detail ? detail : "(no reason recorded)");
}

/* Throttled, failed (any status but OK / SKIPPED / UNSUPPORTED), contended, noisy points. */
static void build_attention(rpt_summary_t *s, const tcp_run_t *r)
{
	s->has_contended = tcp_run_has_col(r, "contended");
	s->has_ci = tcp_run_has_col(r, "ci_pct");
	s->noise_target = r->plan_noise_pct;
	for (int i = 0; i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		const char *thr = NULL;
		int contended = 0;
		s->nstatus[p->status >= 0 && p->status < NSTATUS ? p->status : NSTATUS]++;
		s->nrun += p->status != TCP_SKIPPED && p->status != TCP_UNSUPPORTED && p->status != TCP_BLOCKED;
		if (p->status != TCP_OK && p->status != TCP_SKIPPED && p->status != TCP_UNSUPPORTED) {
			s->nbad++;
			attn_add(s, p, RPT_ATTN_STATUS, p->nm ? p->m[0]->status_word : "?", p->reason);
		}
		for (int k = 0; k < p->nm; k++) {
			const char *t = p->m[k]->throttle;
			if (!thr && t && *t && strcmp(t, "none") && strncmp(t, "NA", 2))
				thr = t;
			if (p->m[k]->contended == 1)	/* the run model's v2 column (harness/store/run.h) */
				contended = 1;
		}
		if (thr) {
			s->nthrottled++;
			attn_add(s, p, RPT_ATTN_THROTTLED, "throttled", thr);
		}
		if (contended) {
			s->ncontended++;
			attn_add(s, p, RPT_ATTN_CONTENDED, "contended", "other work was on the GPU during the point (log.txt has the evidence)");
		}
		if (s->has_ci && isfinite(s->noise_target) && p->status == TCP_OK && p->nm) {
			int row = (int)(p->m[0] - r->rows);
			double ci = tcp_csv_num(tcp_run_cell(r, row, "ci_pct"));
			const char *stop = tcp_run_cell(r, row, "reps_stop");
			if (ci > s->noise_target) {
				char b[200];
				snprintf(b, sizeof(b), "%s: 95%% CI +-%.3g%% > target %.3g%% (stopped: %s)", p->m[0]->metric,
					 ci, s->noise_target, stop && *stop ? stop : "?");
				s->nnoisy++;
				attn_add(s, p, RPT_ATTN_NOISY, "noisy", b);
			}
		}
	}
}

int rpt_primary_row(const tcp_run_t *r, const tcp_cmp_row_t *w)
{
	int hib;
	const char *m = rpt_primary_metric(r, w->probe, &hib);

	if (!m)		/* a probe only the base ran: its math rate */
		return !strcmp(w->metric, "flop_per_clk_sm");
	return !strcmp(m, w->metric);
}

/* A row neither run ran: SKIPPED or UNSUPPORTED (or absent) on both sides. */
static int not_run(const tcp_cmp_point_t *p)
{
	return !p || !strcmp(p->status, "SKIPPED") || !strcmp(p->status, "UNSUPPORTED");
}

int rpt_verdict_counted(const tcp_cmp_cell_t *x)
{
	if (not_run(x->base) && not_run(x->cur))
		return -1;
	if (x->verdict == TCP_V_MISSING && strcmp(x->base->status, "OK"))
		return TCP_V_UNMEASURED;	/* missing counts only rows OK in the baseline */
	return (int)x->verdict;
}

static int row_key_cmp(const void *a, const void *b)
{
	const tcp_cmp_row_t *x = *(const tcp_cmp_row_t *const *)a, *y = *(const tcp_cmp_row_t *const *)b;
	int c = strcmp(x->probe, y->probe);
	return c ? c : strcmp(x->key, y->key);
}

/* Verdicts as the report counts them, and the rows OK in the baseline this run lacks, per probe. */
static void build_baseline(rpt_summary_t *s, const tcp_run_t *r)
{
	const tcp_cmp_t *c = s->base->cmp;
	const tcp_cmp_row_t **miss = malloc(((size_t)c->nrows + 1) * sizeof(*miss));
	int nm = 0;

	for (int i = 0; i < c->nrows; i++) {
		const tcp_cmp_row_t *w = &c->rows[i];
		const tcp_cmp_cell_t *x = &w->cells[0];
		int v = rpt_verdict_counted(x);
		if (v < 0) {
			s->base_notrun++;
			continue;
		}
		s->base_all[v]++;
		s->base_prim[v] += rpt_primary_row(r, w);
		if (v == TCP_V_MISSING && miss)
			miss[nm++] = w;
	}
	/* the points joined across each axis one run lacks that some run measured: a point
	 * counts once, on its first such row (the rows of a point are not neighbours here) */
	for (int k = 0; k < c->naxes_joined && k < RPT_MAX_ROWS && miss; k++) {
		int n = 0;
		for (int i = 0; i < c->nrows; i++) {
			const tcp_cmp_row_t *w = &c->rows[i];
			const tcp_cmp_cell_t *x = &w->cells[0];
			if (strcmp(w->probe, c->axes_joined[k].probe) || !x->base || !x->cur ||
			    !strcmp(x->base->axes, x->cur->axes) || rpt_verdict_counted(x) < 0)
				continue;
			miss[nm + n++] = w;
		}
		qsort(miss + nm, (size_t)n, sizeof(*miss), row_key_cmp);
		for (int i = 0; i < n; i++)
			s->joined_meas[k] += !i || row_key_cmp(&miss[nm + i - 1], &miss[nm + i]);
	}
	if (!miss)
		return;
	qsort(miss, (size_t)nm, sizeof(*miss), row_key_cmp);
	for (int i = 0; i < nm; i++) {
		rpt_missing_t *m = s->nmiss ? &s->miss[s->nmiss - 1] : NULL;
		s->miss_rows++;
		if (!m || strcmp(m->probe, miss[i]->probe)) {
			if (s->nmiss == RPT_MAX_ROWS)
				continue;
			m = &s->miss[s->nmiss++];
			*m = (rpt_missing_t){ miss[i]->probe, 0, 0 };
		}
		m->rows++;
		m->points += !i || row_key_cmp(&miss[i - 1], &miss[i]);
	}
	free(miss);
}

rpt_summary_t *rpt_summary_build(const tcp_run_t *r, const tcp_report_base_t *base)
{
	rpt_summary_t *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->base = base;
	build_kinds(s, r);
	build_lat(s, r);
	build_ii(s, r);
	build_tmem(s, r);
	build_energy(s, r);
	build_attention(s, r);
	build_clock(s, r);
	if (base)
		build_baseline(s, r);
	return s;
}

/* ------------------------------------------------------------ summary.json */

static void jstr(struct out *o, const char *s)
{
	rpt_outf(o, "\"");
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			rpt_outf(o, "\\%c", c);
		else if (c < 0x20)
			rpt_outf(o, "\\u%04x", c);
		else
			rpt_outf(o, "%c", c);
	}
	rpt_outf(o, "\"");
}

static void jnum(struct out *o, double v)
{
	if (isfinite(v))
		rpt_outf(o, "%.10g", v);
	else
		rpt_outf(o, "null");
}

/* "key": value pairs, comma-led after the first of an object. */
#define JINLINE 2	/* a `first` that writes the object's pairs on one line */
static void jk(struct out *o, int *first, const char *key)
{
	if (*first == JINLINE || *first < 0) {
		rpt_outf(o, "%s", *first < 0 ? ", " : "");
		*first = -1;
	} else {
		rpt_outf(o, "%s\n\t\t", *first ? "" : ",");
		*first = 0;
	}
	jstr(o, key);
	rpt_outf(o, ": ");
}
static void jks(struct out *o, int *first, const char *key, const char *v)
{
	jk(o, first, key);
	if (v)
		jstr(o, v);
	else
		rpt_outf(o, "null");
}
static void jkn(struct out *o, int *first, const char *key, double v)
{
	jk(o, first, key);
	jnum(o, v);
}

static void jkb(struct out *o, int *first, const char *key, const char *v)	/* "0"/"1" -> false/true, else null */
{
	jk(o, first, key);
	rpt_outf(o, "%s", v && !strcmp(v, "1") ? "true" : v && !strcmp(v, "0") ? "false" : "null");
}

/* The opening of element k of an array of objects, one a line; *first set
 * for the object's first key. */
static void jelem(struct out *o, int k, int *first)
{
	rpt_outf(o, "%s\n\t\t{", k ? "," : "");
	*first = 1;
}

/* {"points": n, "min": .., "median": .., "max": ..} */
static void jrange(struct out *o, int *first, const char *key, const rpt_range_t *g)
{
	jk(o, first, key);
	if (!g->n) {
		rpt_outf(o, "null");
		return;
	}
	rpt_outf(o, "{\"points\": %d, \"min\": ", g->n);
	jnum(o, g->lo);
	rpt_outf(o, ", \"median\": ");
	jnum(o, g->med);
	rpt_outf(o, ", \"max\": ");
	jnum(o, g->hi);
	rpt_outf(o, "}");
}

/* The unit of every number of each section with units (summary.schema.json requires them). */
static const struct { const char *section, *key, *unit; } units[] = {
	{ "run", "sm_count", "SMs" }, { "run", "power_limit_w", "W" },
	{ "clock", "under_load_mhz", "MHz" }, { "clock", "in_kernel_mhz", "MHz" }, { "clock", "cupti_mhz", "MHz" },
	{ "clock", "nvml_sampled_mhz", "MHz" }, { "clock", "nvml_off_threshold_pct", "%" },
	{ "clock", "nvml_off_max_pct", "%" },
	{ "power", "limit_w", "W" }, { "power", "under_load_w", "W" },
	{ "kinds", "flop_per_clk_sm", "FLOP/clk/SM" }, { "kinds", "peak_flop_per_clk_sm", "FLOP/clk/SM" },
	{ "kinds", "pct_peak", "%" }, { "kinds", "spread_pct", "%" }, { "kinds", "sm_clock_mhz", "MHz" },
	{ "kinds", "sm_clock_mhz_min", "MHz" }, { "kinds", "sm_clock_mhz_max", "MHz" },
	{ "kinds", "tflops", "TFLOP/s" }, { "kinds", "tflops_min", "TFLOP/s" }, { "kinds", "tflops_max", "TFLOP/s" },
	{ "kinds", "mma_k", "elements" }, { "kinds", "acc_bytes_per_clk_sm", "B/clk/SM" },
	{ "latency_fits", "a", "cycles" }, { "latency_fits", "b", "cycles per unit of N" },
	{ "latency_fits", "n_from", "N" }, { "latency_fits", "n_to", "N" },
	{ "issue_interval", "ii_cycles", "cycles" }, { "issue_interval", "b", "cycles x MMAs" },
	{ "issue_interval", "saturating_depth", "MMAs" }, { "issue_interval", "min_issue_cycles", "cycles" },
	{ "tmem", "bytes_per_clk_sm", "B/clk/SM" },
	{ "energy", "pj_per_flop_random", "pJ/FLOP" }, { "energy", "pj_per_flop_min", "pJ/FLOP" },
	{ "energy", "pj_per_flop_max", "pJ/FLOP" },
	{ "attention", "noise_target_pct", "%" },
	{ "baseline", "noise_floor_pct", "%" }, { "baseline", "threshold_pct", "%" },
	{ "baseline", "change_pct", "%" }, { "baseline", "noise_pct", "%" }, { "baseline", "clock_pct", "%" },
	{ "baseline", "beyond_clock_pct", "%" }, { "baseline", "base", "the row's unit" },
	{ "baseline", "new", "the row's unit" },
};

static void junits(struct out *o)
{
	size_t n = sizeof(units) / sizeof(units[0]);

	rpt_outf(o, "\n\t\"units\": {");
	for (size_t i = 0; i < n; i++) {
		int open = !i || strcmp(units[i - 1].section, units[i].section);
		if (open) {
			rpt_outf(o, "%s\n\t\t", i ? "}," : "");
			jstr(o, units[i].section);
			rpt_outf(o, ": {");
		}
		rpt_outf(o, "%s", open ? "" : ", ");
		jstr(o, units[i].key);
		rpt_outf(o, ": ");
		jstr(o, units[i].unit);
	}
	rpt_outf(o, "}\n\t},");
}

/* A comparison value as a number (null when the side has none). */
static void jcell(struct out *o, const tcp_cmp_point_t *p)
{
	jnum(o, p ? p->median : NAN);
}

/* "report" (the tcprobe that writes this file), "run" and "points". */
static void json_head(struct out *o, const rpt_summary_t *s, const tcp_run_t *r)
{
	static const char *const prov[] = { "gpu_name", "gpu_uuid", "driver_version", "cuda_runtime_version",
					    "tcprobe_version", "git_commit", "started_utc", "sass_compiler", NULL };
	char uid[128];
	int f = 1;

	rpt_outf(o, "\n\t\"report\": {");
	jks(o, &f, "tcprobe_version", tcp_build_version());
	jks(o, &f, "git_commit", tcp_build_commit());
	jkb(o, &f, "git_dirty", tcp_build_dirty() ? "1" : "0");
	rpt_outf(o, "\n\t},\n\t\"run\": {");
	f = 1;
	jks(o, &f, "id", r->name);
	jks(o, &f, "uid", tcp_run_uid(r, uid, sizeof(uid)));
	for (int i = 0; prov[i]; i++)
		jks(o, &f, prov[i], tcp_run_prov(r, prov[i]));
	jkb(o, &f, "git_dirty", tcp_run_prov(r, "git_dirty"));
	jkn(o, &f, "sm_count", tcp_run_prov(r, "sm_count") ? tcp_csv_num(tcp_run_prov(r, "sm_count")) : NAN);
	jkn(o, &f, "power_limit_w", s->power_limit_w);
	jkn(o, &f, "schema", r->schema);
	rpt_outf(o, "\n\t},\n\t\"points\": {");
	f = 1;
	jkn(o, &f, "total", r->npoints);
	jkn(o, &f, "run_here", s->nrun);
	for (int st = 0; st < NSTATUS; st++)
		jkn(o, &f, tcp_status_name((tcp_status_t)st), s->nstatus[st]);
	jkn(o, &f, "other_status", s->nstatus[NSTATUS]);
}

/* "clock" and "power". */
static void json_clock(struct out *o, const rpt_summary_t *s)
{
	int f = 1;

	rpt_outf(o, "\n\t},\n\t\"clock\": {");
	jks(o, &f, "under_load_source", s->clk_kernel.n ? (s->clk_cupti.n ? "in-kernel, else CUPTI" : "in-kernel") :
	    s->clk_cupti.n ? "CUPTI" : NULL);
	jrange(o, &f, "under_load_mhz", &s->clk_load);
	jrange(o, &f, "in_kernel_mhz", &s->clk_kernel);
	jrange(o, &f, "cupti_mhz", &s->clk_cupti);
	jrange(o, &f, "nvml_sampled_mhz", &s->clk_nvml);
	jkn(o, &f, "nvml_compared_points", s->nvml_cmp);
	jkn(o, &f, "nvml_off_points", s->nvml_off);
	jkn(o, &f, "nvml_off_threshold_pct", RPT_NVML_OFF_PCT);
	jkn(o, &f, "nvml_off_max_pct", s->nvml_off_max);
	rpt_outf(o, "\n\t},\n\t\"power\": {");
	f = 1;
	jkn(o, &f, "limit_w", s->power_limit_w);
	jrange(o, &f, "under_load_w", &s->power);
	jks(o, &f, "under_load_source", s->power.n ? "power_w_mean of the energy rows (tcprobe run --energy)" : NULL);
}

/* One "kinds" row: its family and class, the best point, its peak and the points at peak. */
static void json_kind(struct out *o, const rpt_kind_row_t *w)
{
	char label[200];
	int f = 1;

	snprintf(label, sizeof(label), "%s %s", w->family, w->label);
	jks(o, &f, "label", label);
	jks(o, &f, "family", w->family);
	jks(o, &f, "probe", w->probe);
	jk(o, &f, "probes");
	rpt_outf(o, "[");
	for (const char *q = w->probes; *q;) {	/* the ", "-separated list */
		size_t n = strcspn(q, ",");
		char one[64];
		snprintf(one, sizeof(one), "%.*s", (int)n, q);
		rpt_outf(o, "%s", q == w->probes ? "" : ", ");
		jstr(o, one);
		q += n + (q[n] == ',' ? 2 : 0);
	}
	rpt_outf(o, "]");
	jks(o, &f, "inputs", w->inputs);
	jks(o, &f, "peak_class", tcp_peak_class_name(w->cls));
	jk(o, &f, "sparse");
	rpt_outf(o, "%s", w->sparse ? "true" : "false");
	jks(o, &f, "pattern", w->pattern[0] ? w->pattern : NULL);
	jks(o, &f, "best_axes", w->axes);
	jkn(o, &f, "flop_per_clk_sm", w->rate);
	jkn(o, &f, "spread_pct", w->spread_pct);
	jkn(o, &f, "peak_flop_per_clk_sm", w->peak);
	jks(o, &f, "peak_basis", w->sparse ? "sparse (2 x the published dense figure)" : "dense");
	jkn(o, &f, "pct_peak", w->pct_peak);
	jks(o, &f, "peak_source", w->peak_source);
	jkn(o, &f, "points_at_peak", w->npeak);
	jks(o, &f, "clock_source", rpt_clock_src_name(w->clock_src));
	jkn(o, &f, "sm_clock_mhz", w->clock_mhz);
	jkn(o, &f, "sm_clock_mhz_min", w->clock_lo);
	jkn(o, &f, "sm_clock_mhz_max", w->clock_hi);
	jkn(o, &f, "tflops", w->tflops);
	jkn(o, &f, "tflops_min", w->tflops_lo);
	jkn(o, &f, "tflops_max", w->tflops_hi);
	jkn(o, &f, "mma_k", w->mma_k);
	jkn(o, &f, "acc_bytes_per_clk_sm", w->acc_bw);
}

/* "latency_fits" (each fit with its segments) and "issue_interval". */
static void json_fits(struct out *o, const rpt_summary_t *s)
{
	int f;

	rpt_outf(o, "\n\t],\n\t\"latency_fits\": [");
	for (int k = 0; k < s->nlat; k++) {
		const rpt_lat_row_t *w = &s->lat[k];
		jelem(o, k, &f);
		jks(o, &f, "probe", w->probe);
		jks(o, &f, "metric", w->metric);
		jks(o, &f, "form", w->form);
		jkn(o, &f, "n_points", w->fit.n);
		jkn(o, &f, "a", w->fit.a);
		jkn(o, &f, "b", w->fit.b);
		jkn(o, &f, "r2", w->fit.r2);
		jk(o, &f, "segments");
		rpt_outf(o, "[");
		for (int g = 0; g < w->fit.pieces && w->fit.n >= 2; g++)
			rpt_outf(o, "%s{\"n_from\": %.10g, \"n_to\": %.10g, \"a\": %.10g, \"b\": %.10g, \"r2\": %.10g}",
				 g ? ", " : "", w->fit.x0[g], w->fit.x1[g], w->fit.sa[g], w->fit.sb[g], w->fit.sr2[g]);
		rpt_outf(o, "]}");
	}
	rpt_outf(o, "\n\t],\n\t\"issue_interval\": [");
	for (int k = 0; k < s->nii; k++) {
		const rpt_ii_row_t *w = &s->ii[k];
		jelem(o, k, &f);
		jks(o, &f, "probe", w->probe);
		jks(o, &f, "form", w->form);
		jkn(o, &f, "n_points", w->n);
		jkn(o, &f, "ii_cycles", w->ii);
		jkn(o, &f, "b", w->b);
		jkn(o, &f, "r2", w->r2);
		jkn(o, &f, "saturating_depth", w->sat_depth);
		jkn(o, &f, "min_issue_cycles", w->min_issue);
		rpt_outf(o, "}");
	}
}

/* "tmem" and "energy". */
static void json_tmem_energy(struct out *o, const rpt_summary_t *s)
{
	int f;

	rpt_outf(o, "\n\t],\n\t\"tmem\": [");
	for (int k = 0; k < s->ntmem; k++) {
		jelem(o, k, &f);
		jks(o, &f, "op", s->tmem[k].what);
		jks(o, &f, "probe", s->tmem[k].probe);
		jks(o, &f, "best_axes", s->tmem[k].axes);
		jks(o, &f, "metric", s->tmem[k].metric);
		jkn(o, &f, "bytes_per_clk_sm", s->tmem[k].value);
		rpt_outf(o, "}");
	}
	rpt_outf(o, "\n\t],\n\t\"energy\": [");
	for (int k = 0; k < s->nenergy; k++) {
		const rpt_peak_row_t *e = &s->energy[k];
		jelem(o, k, &f);
		jks(o, &f, "what", e->what);
		jkn(o, &f, "pj_per_flop_random", e->value);
		jkn(o, &f, "pj_per_flop_min", e->lo);
		jks(o, &f, "min_pattern", e->lo_at);
		jkn(o, &f, "pj_per_flop_max", e->hi);
		jks(o, &f, "max_pattern", e->hi_at);
		rpt_outf(o, "}");
	}
}

/* "attention": the counts, then every point listed with why. */
static void json_attention(struct out *o, const rpt_summary_t *s)
{
	int f = 1;

	rpt_outf(o, "\n\t],\n\t\"attention\": {");
	jkn(o, &f, "throttled", s->nthrottled);
	jkn(o, &f, "not_ok", s->nbad);
	jkn(o, &f, "contended", s->has_contended ? s->ncontended : NAN);
	jkn(o, &f, "noisy", s->has_ci && isfinite(s->noise_target) ? s->nnoisy : NAN);
	jkn(o, &f, "noise_target_pct", s->noise_target);
	jk(o, &f, "points");
	rpt_outf(o, "[");
	for (int k = 0; k < s->nattn; k++) {
		rpt_outf(o, "%s\n\t\t\t{\"why\": ", k ? "," : "");
		jstr(o, s->attn[k].why);
		rpt_outf(o, ", \"probe\": ");
		jstr(o, s->attn[k].p->probe);
		rpt_outf(o, ", \"axes\": ");
		jstr(o, s->attn[k].p->axes);
		rpt_outf(o, ", \"detail\": ");
		jstr(o, s->attn[k].detail);
		rpt_outf(o, "}");
	}
	rpt_outf(o, "]");
	jkn(o, &f, "points_not_listed", s->attn_dropped);
}

/* A {"verdict": count, ...} object of every verdict. */
static void json_verdicts(struct out *o, int *f, const char *key, const int *count)
{
	jk(o, f, key);
	rpt_outf(o, "{");
	for (int v = 0; v < TCP_V_COUNT; v++) {
		rpt_outf(o, "%s", v ? ", " : "");
		jstr(o, tcp_verdict_name((tcp_verdict_t)v));
		rpt_outf(o, ": %d", count[v]);
	}
	rpt_outf(o, "}");
}

/* The baseline's runs, roles, gate and counts. */
static void json_base_counts(struct out *o, int *f, const rpt_summary_t *s)
{
	const tcp_cmp_t *c = s->base->cmp;
	char uid[128], from[1200];	/* from: a run's metrics.csv, or the --roles file */

	jks(o, f, "base_run", s->base->base->name);
	jks(o, f, "base_uid", tcp_run_uid(s->base->base->run, uid, sizeof(uid)));
	jks(o, f, "base_gpu_name", tcp_cmp_prov(s->base->base, "gpu_name"));
	jks(o, f, "base_gpu_uuid", tcp_cmp_prov(s->base->base, "gpu_uuid"));
	jks(o, f, "base_driver_version", tcp_cmp_prov(s->base->base, "driver_version"));
	snprintf(from, sizeof(from), "%s%s", c->roles_from[0] ? c->roles_from[0] : "",
		 c->roles_from[0] == s->base->base->dir || c->roles_from[0] == s->base->cur->dir ?
		 "/" TCP_META_FILE : "");
	jks(o, f, "roles_from", c->roles_from[0] ? from : NULL);
	jkn(o, f, "noise_floor_pct", c->noise_floor_pct);
	jkn(o, f, "threshold_pct", c->threshold_pct);
	jkn(o, f, "regressions", c->nregress[0]);
	jkn(o, f, "base_ok_rows", c->nbase_ok);
	jkn(o, f, "missing_ok_rows", c->nmissing[0]);	/* the completeness rule (run.h) */
	jkn(o, f, "compare_exit_status", tcp_cmp_status(c));
	jkn(o, f, "rows_not_run", s->base_notrun);
	json_verdicts(o, f, "verdicts", s->base_all);
	json_verdicts(o, f, "primary_metric_verdicts", s->base_prim);
}

/* "regression_rows": every regression of the comparison, one object a row. */
static void json_regressions(struct out *o, int *f, const tcp_cmp_t *c)
{
	jk(o, f, "regression_rows");
	rpt_outf(o, "[");
	for (int i = 0, n = 0; i < c->nrows; i++) {
		const tcp_cmp_row_t *w = &c->rows[i];
		const tcp_cmp_cell_t *x = &w->cells[0];
		int g = JINLINE;
		if (!x->regression)
			continue;
		rpt_outf(o, "%s\n\t\t\t{", n++ ? "," : "");
		jks(o, &g, "probe", w->probe);
		jks(o, &g, "axes", w->axes);
		jks(o, &g, "metric", w->metric);
		jks(o, &g, "unit", w->unit);
		jks(o, &g, "verdict", tcp_verdict_name(x->verdict));
		jks(o, &g, "judged", c->roles ? tcp_judged_name(x->judged) : NULL);
		jks(o, &g, "base_status", x->base ? x->base->status : NULL);
		jks(o, &g, "new_status", x->cur ? x->cur->status : NULL);
		jk(o, &g, "base");
		jcell(o, x->base);
		jk(o, &g, "new");
		jcell(o, x->cur);
		jkn(o, &g, "change_pct", x->change_pct);
		jkn(o, &g, "noise_pct", x->noise_pct);
		jkn(o, &g, "clock_pct", x->clock_pct);
		jkn(o, &g, "beyond_clock_pct", x->beyond_pct);
		rpt_outf(o, "}");
	}
	rpt_outf(o, "]");
}

/* "missing_by_probe" and "axes_joined". */
static void json_base_lists(struct out *o, int *f, const rpt_summary_t *s)
{
	const tcp_cmp_t *c = s->base->cmp;

	jk(o, f, "missing_by_probe");
	rpt_outf(o, "[");
	for (int k = 0; k < s->nmiss; k++) {
		rpt_outf(o, "%s{\"probe\": ", k ? ", " : "");
		jstr(o, s->miss[k].probe);
		rpt_outf(o, ", \"rows\": %d, \"points\": %d}", s->miss[k].rows, s->miss[k].points);
	}
	rpt_outf(o, "]");
	jk(o, f, "axes_joined");
	rpt_outf(o, "[");
	for (int k = 0; k < c->naxes_joined; k++) {
		const tcp_cmp_axis_t *a = &c->axes_joined[k];
		int g = JINLINE;
		rpt_outf(o, "%s{", k ? ", " : "");
		jks(o, &g, "probe", a->probe);
		jks(o, &g, "axis", a->axis);
		jks(o, &g, "default", a->value[0] ? a->value : NULL);
		jk(o, &g, "in_base");
		rpt_outf(o, "%s", a->in_base ? "true" : "false");
		jkn(o, &g, "points", a->points);
		jkn(o, &g, "points_measured", k < RPT_MAX_ROWS ? s->joined_meas[k] : NAN);
		rpt_outf(o, "}");
	}
	rpt_outf(o, "]");
}

/* "baseline": the comparison with --baseline, else null. */
static void json_baseline(struct out *o, const rpt_summary_t *s)
{
	int f = 1;

	rpt_outf(o, "\n\t},\n\t\"baseline\": ");
	if (!s->base) {
		rpt_outf(o, "null");
		return;
	}
	rpt_outf(o, "{");
	json_base_counts(o, &f, s);
	json_regressions(o, &f, s->base->cmp);
	json_base_lists(o, &f, s);
	rpt_outf(o, "\n\t}");
}

int rpt_summary_json(const rpt_summary_t *s, const tcp_run_t *r, const char *dir, char *err, size_t len)
{
	struct out o;

	if (rpt_open(&o, dir, "summary", "json", err, len))
		return -1;
	rpt_outf(&o, "{\n\t\"summary_version\": %d,", SUMMARY_VERSION);
	junits(&o);
	json_head(&o, s, r);
	json_clock(&o, s);
	rpt_outf(&o, "\n\t},\n\t\"kinds\": [");
	for (int k = 0; k < s->nkinds; k++) {
		rpt_outf(&o, "%s\n\t\t{", k ? "," : "");
		json_kind(&o, &s->kinds[k]);
		rpt_outf(&o, "}");
	}
	json_fits(&o, s);
	json_tmem_energy(&o, s);
	json_attention(&o, s);
	json_baseline(&o, s);
	rpt_outf(&o, "\n}\n");
	return rpt_close(&o, dir, "summary", "json", err, len);
}
