/*
 * report-summary.c
 *	The findings a report opens with, derived from the run, never written by
 *	hand (rpt_summary_build): per MMA family and rate class the best math
 *	rate, its % of the chip's published dense peak (model/peaks.h), TFLOP/s
 *	at the clock measured under load and the accumulator bandwidth the
 *	K/4 identity implies; latency vs N per form as one line or, where one
 *	line does not fit, two (rpt_fit_lines, also drawn by lat-vs-n); issue
 *	interval and saturating depth; tcgen05.ld/st/cp peak bytes; energy per
 *	FLOP; and the points that need attention.  Written as summary.json here
 *	and as report sections by report-findings.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/analyze/report-int.h"
#include "harness/measure/stats.h"
#include "model/kinds.h"
#include "model/peaks.h"

#define SUMMARY_VERSION 1
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
 */
int rpt_fit_lines(const double *x, const double *y, int n, rpt_fit_t *f)
{
	memset(f, 0, sizeof(*f));
	f->n = n;
	f->pieces = 1;
	if (n < 2) {
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
	for (int k = 2; k <= n - 3; k++) {
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

/* Per family and rate class (and sparse): the best flop_per_clk_sm point. */
static void build_kinds(rpt_summary_t *s, const tcp_run_t *r)
{
	const char *smc = tcp_run_prov(r, "sm_count");
	double sms = smc ? tcp_csv_num(smc) : NAN;

	for (int i = 0; i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		const char *fam = family_of(p->probe), *sp = tcp_point_axis(p, "sparse"), *kv;
		const char *eid = tcp_point_axis(p, "enable_input_d");
		const tcp_run_row_t *m;
		int kind = rpt_point_kind(p), k;
		/* accumulating points only (enable_input_d = 1, or no such axis): an
		 * overwrite moves half the accumulator bytes acc_bw counts */
		if (!fam || p->status != TCP_OK || kind < 0 || (eid && strcmp(eid, "1")) ||
		    !(m = tcp_point_metric(p, "flop_per_clk_sm")) || !isfinite(m->median))
			continue;
		int acc = rpt_point_acc(p), sparse = sp && strcmp(sp, "0");
		int cls = tcp_peak_class((tcp_kind_t)kind, TCP_T_COUNT, (tcp_type_t)acc);
		for (k = 0; k < s->nkinds; k++)
			if (!strcmp(s->kinds[k].probe, p->probe) && s->kinds[k].cls == cls && s->kinds[k].kind == kind &&
			    s->kinds[k].sparse == sparse)
				break;
		if (k == s->nkinds) {
			if (k == RPT_MAX_ROWS)
				continue;
			memset(&s->kinds[k], 0, sizeof(s->kinds[k]));
			s->kinds[k].family = fam;
			s->kinds[k].probe = p->probe;
			s->kinds[k].kind = kind;
			s->kinds[k].cls = cls;
			s->kinds[k].sparse = sparse;
			s->kinds[k].rate = -INFINITY;
			s->nkinds++;
		}
		rpt_kind_row_t *row = &s->kinds[k];
		/* the input type: warp_mma's / tcgen05's atype when set, else the kind */
		if ((kv = tcp_point_axis(p, "atype")) && strcmp(kv, "auto"))
			list_add(row->label, sizeof(row->label), kv);
		else if ((kv = tcp_point_axis(p, "kind")))
			list_add(row->label, sizeof(row->label), kv);
		if (!(m->median > row->rate))
			continue;
		int gen = rpt_point_gen(r, p), kk = tcp_kind_k_gen((tcp_kind_t)kind, (tcp_gen_t)(gen ? gen : 90));
		row->axes = p->axes;
		row->rate = m->median;
		row->spread_pct = m->spread_pct;
		row->peak = rpt_point_peak(r, p, &row->peak_source);
		row->pct_peak = rpt_point_pct(p, m, row->peak);
		row->clock_mhz = rpt_point_clock(p);
		row->tflops = metric_median(p, "tflops");
		if (!isfinite(row->tflops))
			row->tflops = row->rate * sms * row->clock_mhz * 1e-6;
		row->mma_k = kk * (sparse ? 2 : 1);
		/* FLOP per accumulator byte = 2MNK / (MN x bytes x 2: read and write) = K / bytes */
		row->acc_bw = row->rate / ((double)row->mma_k / (tcp_type_bits((tcp_type_t)acc) / 8));
	}
	for (int k = 0; k < s->nkinds; k++) {
		rpt_kind_row_t *row = &s->kinds[k];
		size_t n = strlen(row->label);
		snprintf(row->label + n, sizeof(row->label) - n, " -> %s%s", tcp_type_name((tcp_type_t)
			 (row->cls == TCP_PK_F16_F16 || row->cls == TCP_PK_F8_F16 ? TCP_T_F16 :
			  row->kind == TCP_KIND_I8 ? TCP_T_S32 : TCP_T_F32)), row->sparse ? " (sparse)" : "");
	}
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
		s->nlat_short += n < 3;
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
	static const char *const probes[] = { "tc_ldst", "tc_ld", "tc_st", "tc_cp", NULL };
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
		snprintf(what, sizeof(what), "tcgen05.%s", op ? op : !strcmp(p->probe, "tc_cp") ? "cp" :
			 !strcmp(p->probe, "tc_ld") ? "ld" : !strcmp(p->probe, "tc_st") ? "st" : p->probe);
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
	for (int i = 0; base && i < base->cmp->nrows; i++)
		s->base_prim[base->cmp->rows[i].cells[0].verdict] += rpt_primary_row(r, &base->cmp->rows[i]);
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
static void jk(struct out *o, int *first, const char *key)
{
	rpt_outf(o, "%s\n\t\t", *first ? "" : ",");
	*first = 0;
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

int rpt_summary_json(const rpt_summary_t *s, const tcp_run_t *r, const char *dir, char *err, size_t len)
{
	static const char *const prov[] = { "gpu_name", "driver_version", "cuda_runtime_version", "sm_count",
					    "tcprobe_version", "git_commit", "started_utc", NULL };
	struct out o;
	int f;

	if (rpt_open(&o, dir, "summary", "json", err, len))
		return -1;
	rpt_outf(&o, "{\n\t\"summary_version\": %d,\n\t\"run\": {", SUMMARY_VERSION);
	f = 1;
	jks(&o, &f, "id", r->name);
	for (int i = 0; prov[i]; i++)
		jks(&o, &f, prov[i], tcp_run_prov(r, prov[i]));
	jkn(&o, &f, "schema", r->schema);
	rpt_outf(&o, "\n\t},\n\t\"points\": {");
	f = 1;
	jkn(&o, &f, "total", r->npoints);
	jkn(&o, &f, "run_here", s->nrun);
	for (int st = 0; st < NSTATUS; st++)
		jkn(&o, &f, tcp_status_name((tcp_status_t)st), s->nstatus[st]);
	jkn(&o, &f, "other_status", s->nstatus[NSTATUS]);
	rpt_outf(&o, "\n\t},\n\t\"kinds\": [");
	for (int k = 0; k < s->nkinds; k++) {
		const rpt_kind_row_t *w = &s->kinds[k];
		rpt_outf(&o, "%s\n\t\t{", k ? "," : "");
		f = 1;
		jks(&o, &f, "family", w->family);
		jks(&o, &f, "probe", w->probe);
		jks(&o, &f, "label", w->label);
		jks(&o, &f, "peak_class", tcp_peak_class_name(w->cls));
		jks(&o, &f, "best_axes", w->axes);
		jkn(&o, &f, "flop_per_clk_sm", w->rate);
		jkn(&o, &f, "spread_pct", w->spread_pct);
		jkn(&o, &f, "peak_flop_per_clk_sm", w->peak);
		jkn(&o, &f, "pct_of_peak", w->pct_peak);
		jks(&o, &f, "peak_source", w->peak_source);
		jkn(&o, &f, "sm_clock_mhz", w->clock_mhz);
		jkn(&o, &f, "tflops", w->tflops);
		jkn(&o, &f, "mma_k", w->mma_k);
		jkn(&o, &f, "acc_bytes_per_clk_sm", w->acc_bw);
		rpt_outf(&o, "}");
	}
	rpt_outf(&o, "\n\t],\n\t\"latency_fits\": [");
	for (int k = 0; k < s->nlat; k++) {
		const rpt_lat_row_t *w = &s->lat[k];
		rpt_outf(&o, "%s\n\t\t{", k ? "," : "");
		f = 1;
		jks(&o, &f, "probe", w->probe);
		jks(&o, &f, "metric", w->metric);
		jks(&o, &f, "form", w->form);
		jkn(&o, &f, "n_points", w->fit.n);
		jkn(&o, &f, "a", w->fit.a);
		jkn(&o, &f, "b", w->fit.b);
		jkn(&o, &f, "r2", w->fit.r2);
		jk(&o, &f, "segments");
		rpt_outf(&o, "[");
		for (int g = 0; g < w->fit.pieces && w->fit.n >= 2; g++)
			rpt_outf(&o, "%s{\"n_from\": %.10g, \"n_to\": %.10g, \"a\": %.10g, \"b\": %.10g, \"r2\": %.10g}",
				 g ? ", " : "", w->fit.x0[g], w->fit.x1[g], w->fit.sa[g], w->fit.sb[g], w->fit.sr2[g]);
		rpt_outf(&o, "]}");
	}
	rpt_outf(&o, "\n\t],\n\t\"issue_interval\": [");
	for (int k = 0; k < s->nii; k++) {
		const rpt_ii_row_t *w = &s->ii[k];
		rpt_outf(&o, "%s\n\t\t{", k ? "," : "");
		f = 1;
		jks(&o, &f, "probe", w->probe);
		jks(&o, &f, "form", w->form);
		jkn(&o, &f, "n_points", w->n);
		jkn(&o, &f, "ii_cycles", w->ii);
		jkn(&o, &f, "b", w->b);
		jkn(&o, &f, "r2", w->r2);
		jkn(&o, &f, "saturating_depth", w->sat_depth);
		jkn(&o, &f, "min_issue_cycles", w->min_issue);
		rpt_outf(&o, "}");
	}
	rpt_outf(&o, "\n\t],\n\t\"tmem\": [");
	for (int k = 0; k < s->ntmem; k++) {
		rpt_outf(&o, "%s\n\t\t{", k ? "," : "");
		f = 1;
		jks(&o, &f, "op", s->tmem[k].what);
		jks(&o, &f, "probe", s->tmem[k].probe);
		jks(&o, &f, "best_axes", s->tmem[k].axes);
		jks(&o, &f, "metric", s->tmem[k].metric);
		jkn(&o, &f, "bytes_per_clk_sm", s->tmem[k].value);
		rpt_outf(&o, "}");
	}
	rpt_outf(&o, "\n\t],\n\t\"energy\": [");
	for (int k = 0; k < s->nenergy; k++) {
		const rpt_peak_row_t *e = &s->energy[k];
		rpt_outf(&o, "%s\n\t\t{", k ? "," : "");
		f = 1;
		jks(&o, &f, "what", e->what);
		jkn(&o, &f, "pj_per_flop_random", e->value);
		jkn(&o, &f, "pj_per_flop_min", e->lo);
		jks(&o, &f, "min_pattern", e->lo_at);
		jkn(&o, &f, "pj_per_flop_max", e->hi);
		jks(&o, &f, "max_pattern", e->hi_at);
		rpt_outf(&o, "}");
	}
	rpt_outf(&o, "\n\t],\n\t\"attention\": {");
	f = 1;
	jkn(&o, &f, "throttled", s->nthrottled);
	jkn(&o, &f, "not_ok", s->nbad);
	jkn(&o, &f, "contended", s->has_contended ? s->ncontended : NAN);
	jkn(&o, &f, "noisy", s->has_ci && isfinite(s->noise_target) ? s->nnoisy : NAN);
	jkn(&o, &f, "noise_target_pct", s->noise_target);
	jk(&o, &f, "points");
	rpt_outf(&o, "[");
	for (int k = 0; k < s->nattn; k++) {
		rpt_outf(&o, "%s\n\t\t\t{\"why\": ", k ? "," : "");
		jstr(&o, s->attn[k].why);
		rpt_outf(&o, ", \"probe\": ");
		jstr(&o, s->attn[k].p->probe);
		rpt_outf(&o, ", \"axes\": ");
		jstr(&o, s->attn[k].p->axes);
		rpt_outf(&o, ", \"detail\": ");
		jstr(&o, s->attn[k].detail);
		rpt_outf(&o, "}");
	}
	rpt_outf(&o, "]");
	jkn(&o, &f, "points_not_listed", s->attn_dropped);
	rpt_outf(&o, "\n\t},\n\t\"baseline\": ");
	if (s->base) {
		const tcp_cmp_t *c = s->base->cmp;
		rpt_outf(&o, "{");
		f = 1;
		jks(&o, &f, "base_run", s->base->base->name);
		jks(&o, &f, "base_gpu_name", tcp_cmp_prov(s->base->base, "gpu_name"));
		jks(&o, &f, "base_driver_version", tcp_cmp_prov(s->base->base, "driver_version"));
		jkn(&o, &f, "noise_floor_pct", c->noise_floor_pct);
		jkn(&o, &f, "threshold_pct", c->threshold_pct);
		jkn(&o, &f, "regressions", c->nregress[0]);
		jkn(&o, &f, "base_ok_rows", c->nbase_ok);
		jkn(&o, &f, "missing_ok_rows", c->nmissing[0]);	/* the completeness rule (run.h) */
		jkn(&o, &f, "compare_exit_status", tcp_cmp_status(c));
		jk(&o, &f, "verdicts");
		rpt_outf(&o, "{");
		for (int v = 0; v < TCP_V_COUNT; v++) {
			rpt_outf(&o, "%s", v ? ", " : "");
			jstr(&o, tcp_verdict_name((tcp_verdict_t)v));
			rpt_outf(&o, ": %d", c->count[0][v]);
		}
		rpt_outf(&o, "}");
		jk(&o, &f, "primary_metric_verdicts");
		rpt_outf(&o, "{");
		for (int v = 0; v < TCP_V_COUNT; v++) {
			rpt_outf(&o, "%s", v ? ", " : "");
			jstr(&o, tcp_verdict_name((tcp_verdict_t)v));
			rpt_outf(&o, ": %d", s->base_prim[v]);
		}
		rpt_outf(&o, "}\n\t}");
	} else {
		rpt_outf(&o, "null");
	}
	rpt_outf(&o, "\n}\n");
	return rpt_close(&o, dir, "summary", "json", err, len);
}
