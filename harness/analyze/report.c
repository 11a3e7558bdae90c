/*
 * report.c
 *	A run directory read back (tcp_run_*), the per-plot data files the
 *	gnuplot scripts draw (tcp_report_extract), and report.md / report.html
 *	(tcp_report_write, the second half of this file).  See report.h.
 *
 *	The CSV is read through csvio.h only, columns by header name.  Rows are
 *	grouped into points on (probe, axes); a point's status is the status of
 *	its rows (every row of a point carries the same one).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/store/csvio.h"
#include "harness/analyze/report.h"
#include "harness/measure/stats.h"
#include "model/kinds.h"
#include "model/tmem-plan.h"
#include "model/tmem.h"

#define NSTATUS 6			/* TCP_OK .. TCP_UNSUPPORTED */
#define MAX_SERIES_PER_PANEL 12		/* beyond this a plot stops being readable */
#define SAT_FRACTION 0.05		/* saturating depth: fit within 5% of its asymptote */

/* ------------------------------------------------------------------ */
/* The run as the report sees it (the run itself: harness/store/run.h)  */
/* ------------------------------------------------------------------ */

const char *tcp_plot_stem(int plot)
{
#define STEM(id, stem, title) stem,
	static const char *const s[] = { TCP_PLOTS(STEM) };
#undef STEM
	return plot >= 0 && plot < TCP_NPLOTS ? s[plot] : "?";
}

const char *tcp_plot_title(int plot)
{
#define TITLE(id, stem, title) title,
	static const char *const s[] = { TCP_PLOTS(TITLE) };
#undef TITLE
	return plot >= 0 && plot < TCP_NPLOTS ? s[plot] : "?";
}


/*
 *  kind_of_value()
 *	An axis value as an MMA kind: a tcgen05 kind name ("f8f6f4"), an
 *	element type that selects the kind ("bf16", "e4m3", "s8"), or either
 *	followed by a suffix ("e4m3.e5m2", "bf16_f32").  -1 when none matches.
 */
static int kind_of_value(const char *v)
{
	char tok[32];
	size_t n = 0;
	int k;

	if (!v || !*v)
		return -1;
	if ((k = tcp_kind_parse(v)) >= 0)
		return k;
	while (v[n] && n + 1 < sizeof(tok) && !strchr("._-/:+ ", v[n])) {
		tok[n] = v[n];
		n++;
	}
	tok[n] = 0;
	if ((k = tcp_kind_parse(tok)) >= 0)
		return k;
	if (!strcmp(tok, "fp8"))
		return TCP_KIND_F8F6F4;
	if (!strcmp(tok, "int8"))
		return TCP_KIND_I8;
	if (!strcmp(tok, "fp16"))
		return TCP_KIND_F16;
	switch (tcp_type_parse(tok)) {
	case TCP_T_F16: case TCP_T_BF16: return TCP_KIND_F16;
	case TCP_T_TF32: return TCP_KIND_TF32;
	case TCP_T_E4M3: case TCP_T_E5M2: case TCP_T_E2M3: case TCP_T_E3M2: case TCP_T_E2M1:
		return TCP_KIND_F8F6F4;
	case TCP_T_S8: case TCP_T_U8: return TCP_KIND_I8;
	default: return -1;
	}
}

/* The point's MMA kind: its `kind` axis, else a type axis. */
static int point_kind(const tcp_run_point_t *p)
{
	static const char *const names[] = { "kind", "type", "dtype", "atype", "a_type", "a", NULL };

	for (int i = 0; names[i]; i++) {
		const char *v = tcp_point_axis(p, names[i]);
		if (v)
			return kind_of_value(v);
	}
	return -1;
}

/* Generation from the CSV arch column, else the GPU the run used, else the name. */
static int point_gen(const tcp_run_t *r, const tcp_run_point_t *p)
{
	if (p->arch && !strcmp(p->arch, "sm_90a"))
		return 90;
	if (p->arch && !strcmp(p->arch, "sm_100a"))
		return 100;
	const char *cc = tcp_run_prov(r, "compute_capability");
	if (cc) {
		double v = tcp_csv_num(cc);
		if (v == 9.0 || v == 90)
			return 90;
		if (v == 10.0 || v == 100)
			return 100;
	}
	if (!strncmp(p->probe, "tc_", 3))
		return 100;
	if (!strncmp(p->probe, "wgmma", 5) || !strncmp(p->probe, "mma_sync", 8))
		return 90;
	return 0;
}

/* Lower is better for times, higher for everything else (rates, counts of work). */
static int unit_higher_is_better(const char *unit)
{
	return !(unit && (!strcmp(unit, "cycles") || !strcmp(unit, "ns") || !strcmp(unit, "us") ||
			  !strcmp(unit, "ms") || !strcmp(unit, "s")));
}

/*
 *  primary_metric()
 *	The metric a probe's table ranks by: flop_per_clk_sm when the probe
 *	reports it, else the registry's first metric when this binary knows the
 *	probe, else the first non-counter metric the CSV holds for it.  *hib: 1
 *	when higher is better.
 */
static const char *primary_metric(const tcp_run_t *r, const char *probe, int *hib)
{
	const tcp_probe_t *d = tcp_probe_find(probe);

	/* a probe that reports a math rate is ranked by it, whatever it lists first */
	for (int i = 0; i < r->npoints; i++)
		if (!strcmp(r->points[i].probe, probe) && tcp_point_metric(&r->points[i], "flop_per_clk_sm")) {
			*hib = 1;
			return "flop_per_clk_sm";
		}
	if (d && d->nmetrics > 0) {
		*hib = d->metrics[0].higher_is_better;
		return d->metrics[0].name;
	}
	for (int i = 0; i < r->npoints; i++) {
		if (strcmp(r->points[i].probe, probe))
			continue;
		for (int m = 0; m < r->points[i].nm; m++)
			if (strncmp(r->points[i].m[m]->metric, "cupti/", 6)) {
				*hib = unit_higher_is_better(r->points[i].m[m]->unit);
				return r->points[i].m[m]->metric;
			}
	}
	*hib = 1;
	return NULL;
}

static double published_peak(int kind, int gen)
{
	if (kind < 0 || (gen != 90 && gen != 100))
		return NAN;
	double v = tcp_kind_flop_clk_sm((tcp_kind_t)kind, (tcp_gen_t)gen);
	return v > 0 ? v : NAN;
}

static int is_flop_rate(const char *unit)
{
	return unit && !strcmp(unit, "FLOP/clk/SM");
}

static void best_fill(const tcp_run_t *r, const tcp_run_point_t *p, const tcp_run_row_t *m, tcp_best_t *b)
{
	const tcp_run_row_t *pp = tcp_point_metric(p, "pct_peak");

	if (!pp)
		pp = tcp_point_metric(p, "pct_of_peak");	/* the tcgen05 probes' name */

	b->axes = p->axes;
	b->metric = m->metric;
	b->unit = m->unit;
	b->median = m->median;
	b->spread_pct = m->spread_pct;
	b->clock_mhz = p->clock_mhz;
	b->peak = is_flop_rate(m->unit) ? published_peak(point_kind(p), point_gen(r, p)) : NAN;
	if (pp && isfinite(pp->median))
		b->pct_peak = pp->median;
	else if (isfinite(b->peak))
		b->pct_peak = m->median / b->peak * 100.0;
	else
		b->pct_peak = NAN;
}

int tcp_run_best(const tcp_run_t *r, const char *probe, tcp_best_t *out, int max)
{
	int hib, n = 0;
	const char *metric = primary_metric(r, probe, &hib);
	const char *group[64];		/* the kind axis value of out[i] ("" when none) */

	if (!metric || max <= 0)
		return 0;
	if (max > 64)
		max = 64;
	for (int i = 0; i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		const tcp_run_row_t *m;
		const char *kv;
		int slot;
		if (strcmp(p->probe, probe) || p->status != TCP_OK || !(m = tcp_point_metric(p, metric)) ||
		    !isfinite(m->median))
			continue;
		kv = tcp_point_axis(p, "kind");
		if (!kv)
			kv = "";
		for (slot = 0; slot < n && strcmp(group[slot], kv); slot++)
			;
		if (slot == n) {
			if (n == max)
				continue;
			group[n++] = kv;
		} else if (hib ? m->median <= out[slot].median : m->median >= out[slot].median) {
			continue;
		}
		best_fill(r, p, m, &out[slot]);
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* Plot data                                                           */
/* ------------------------------------------------------------------ */

/* printf into a file; remembers the first failure. */
struct out {
	FILE *f;
	int bad;
};

static void outf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void outf(struct out *o, const char *fmt, ...)
{
	va_list ap;

	if (!o->f)
		return;
	va_start(ap, fmt);
	if (vfprintf(o->f, fmt, ap) < 0)
		o->bad = 1;
	va_end(ap);
}

static int out_open(struct out *o, const char *dir, const char *stem, const char *ext,
		    char *err, size_t len)
{
	char path[4096];

	o->bad = 0;
	o->f = NULL;
	if (!dir)
		return 0;
	snprintf(path, sizeof(path), "%s/%s.%s", dir, stem, ext);
	if (!(o->f = fopen(path, "w"))) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int out_close(struct out *o, const char *dir, const char *stem, const char *ext,
		     char *err, size_t len)
{
	if (!o->f)
		return 0;
	if (fclose(o->f) || o->bad) {
		snprintf(err, len, "%s/%s.%s: write failed", dir, stem, ext);
		return -1;
	}
	return 0;
}

/* A string as a gnuplot double-quoted literal (no quotes or backslashes survive). */
static const char *gq(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; s && *s && n + 1 < len; s++)
		buf[n++] = (*s == '"' || *s == '\\' || *s == '\n' || *s == '\t') ? '\'' : *s;
	buf[n] = 0;
	return buf;
}

/* A field for a tab-separated .dat cell: no tabs or newlines, never empty. */
static const char *tq(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; s && *s && n + 1 < len; s++)
		buf[n++] = (*s == '\t' || *s == '\n' || *s == '\r') ? ' ' : *s;
	if (!n && len > 1)
		buf[n++] = '-';
	buf[n] = 0;
	return buf;
}

static int probe_in(const char *probe, const char *const *list)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(probe, list[i]))
			return 1;
	return 0;
}

/*
 * Probe names per role, one table: the Hopper probes (issue 4) and the
 * tcgen05 probes (issue 5).  A run lacking a probe leaves its plot empty
 * and the report says so.
 */
static const char *const tput_probes[] = { "wgmma_tput", "tc_mma_tput", NULL };
static const char *const lat_probes[] = { "wgmma_lat", "tc_mma_lat", NULL };
static const char *const ii_probes[] = { "tc_mma_ii", NULL };
static const char *const tmem_probes[] = { "tc_ldst", "tc_ld", "tc_st", "tc_cp", NULL };
static const char *const rate_metrics[] = { "flop_per_clk_sm", NULL };
static const char *const lat_metrics[] = { "cycles_per_mma", "latency_cycles", NULL };
static const char *const ii_metrics[] = { "cycles_per_mma", "ii_cycles", NULL };
static const char *const tmem_metrics[] = { "reg_bytes_per_clk_sm", "bytes_per_clk_sm", "tmem_bytes_per_clk_sm",
					       NULL };

enum { FIT_NONE, FIT_LINEAR, FIT_INVERSE };

/* One x-vs-y plot, split into panels (probe + panel axes) and series (all other axes). */
struct xy_spec {
	const char *const *probes;
	const char *const *metrics;
	const char *const *x;		/* x axis names tried in order */
	const char *xlabel;
	const char *const *panel_axes;
	int fit;
	int peak;			/* 1: the published peak of the panel's kind as a line */
};

struct series {
	char *key, *title;
	int panel;
	int n, cap;
	double *x, *y, *lo, *hi;
	const char **xlab;
	double best;			/* for ranking when a panel has too many */
	int keep;			/* among the best MAX_SERIES_PER_PANEL of its panel */
	double fa, fb, fr2, fsat;
	const tcp_run_point_t *rep;	/* a point of the series: its axes name it */
};

struct panel {
	char *key, *title;
	const char *unit;
	double peak;
	int kind, gen;
	int nseries, omitted;
	int categorical;		/* some x value of the panel is not a number */
	const char *xname;		/* the x axis its points use */
	const char *metric;		/* the metric on y */
};

struct xy {
	int np, ns;
	struct panel *pn;
	struct series *s;
	int categorical;		/* any panel is */
	const char *xname;
	char *cats[256];
	int ncats;
};

static void xy_free(struct xy *d)
{
	for (int i = 0; i < d->np; i++) {
		free(d->pn[i].key);
		free(d->pn[i].title);
	}
	for (int i = 0; i < d->ns; i++) {
		free(d->s[i].key);
		free(d->s[i].title);
		free(d->s[i].x);
		free(d->s[i].y);
		free(d->s[i].lo);
		free(d->s[i].hi);
		free(d->s[i].xlab);
	}
	for (int i = 0; i < d->ncats; i++)
		free(d->cats[i]);
	free(d->pn);
	free(d->s);
	memset(d, 0, sizeof(*d));
}

/* Append "name=value" (or, with sep " ", as the next word) to buf. */
static void kv_cat(char *buf, size_t len, const char *sep, const char *k, const char *v)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s%s=%s", n ? sep : "", k, v);
}

static int in_list(const char *s, const char *const *list)
{
	for (int i = 0; list && list[i]; i++)
		if (!strcmp(s, list[i]))
			return 1;
	return 0;
}

static int xy_panel(struct xy *d, const char *key, const char *title)
{
	for (int i = 0; i < d->np; i++)
		if (!strcmp(d->pn[i].key, key))
			return i;
	struct panel *np = realloc(d->pn, (size_t)(d->np + 1) * sizeof(*np));
	if (!np)
		return -1;
	d->pn = np;
	memset(&d->pn[d->np], 0, sizeof(*np));
	d->pn[d->np].key = strdup(key);
	d->pn[d->np].title = strdup(title);
	d->pn[d->np].peak = NAN;
	return d->np++;
}

static int xy_series(struct xy *d, int panel, const char *key, const char *title)
{
	for (int i = 0; i < d->ns; i++)
		if (!strcmp(d->s[i].key, key))
			return i;
	struct series *ns = realloc(d->s, (size_t)(d->ns + 1) * sizeof(*ns));
	if (!ns)
		return -1;
	d->s = ns;
	memset(&d->s[d->ns], 0, sizeof(*ns));
	d->s[d->ns].key = strdup(key);
	d->s[d->ns].title = strdup(title);
	d->s[d->ns].panel = panel;
	d->s[d->ns].fa = d->s[d->ns].fb = d->s[d->ns].fr2 = d->s[d->ns].fsat = NAN;
	return d->ns++;
}

static int series_add(struct series *s, double x, double y, double lo, double hi, const char *xl)
{
	if (s->n == s->cap) {
		int c = s->cap ? 2 * s->cap : 16;
		double *a = realloc(s->x, (size_t)c * sizeof(double));
		if (a) s->x = a;
		double *b = realloc(s->y, (size_t)c * sizeof(double));
		if (b) s->y = b;
		double *e = realloc(s->lo, (size_t)c * sizeof(double));
		if (e) s->lo = e;
		double *f = realloc(s->hi, (size_t)c * sizeof(double));
		if (f) s->hi = f;
		const char **g = realloc(s->xlab, (size_t)c * sizeof(char *));
		if (g) s->xlab = g;
		if (!a || !b || !e || !f || !g)
			return -1;
		s->cap = c;
	}
	s->x[s->n] = x;
	s->y[s->n] = y;
	s->lo[s->n] = lo;
	s->hi[s->n] = hi;
	s->xlab[s->n] = xl;
	s->n++;
	return 0;
}

static int cat_index(struct xy *d, const char *v)
{
	for (int i = 0; i < d->ncats; i++)
		if (!strcmp(d->cats[i], v))
			return i;
	if (d->ncats == (int)(sizeof(d->cats) / sizeof(d->cats[0])))
		return -1;
	d->cats[d->ncats] = strdup(v);
	return d->ncats++;
}

static void series_sort(struct series *s)
{
	for (int i = 1; i < s->n; i++)		/* insertion sort: series are short */
		for (int j = i; j > 0 && s->x[j - 1] > s->x[j]; j--) {
			double t;
			const char *l;
#define SWAP(a) do { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t; } while (0)
			SWAP(s->x); SWAP(s->y); SWAP(s->lo); SWAP(s->hi);
#undef SWAP
			l = s->xlab[j]; s->xlab[j] = s->xlab[j - 1]; s->xlab[j - 1] = l;
		}
}

/* The min and max of a point's samples, when the CSV has them. */
static void point_minmax(const tcp_run_t *r, const tcp_run_point_t *p, const tcp_run_row_t *m,
			 double *lo, double *hi)
{
	*lo = *hi = m->median;
	(void)r;
	(void)p;
	if (isfinite(m->spread_pct) && isfinite(m->median)) {
		/* spread = (max - min) / median: drawn as a band centred on the median */
		double half = fabs(m->median) * m->spread_pct / 200.0;
		*lo = m->median - half;
		*hi = m->median + half;
	}
}

/*
 *  xy_collect()
 *	Gather the OK points of spec's probes into panels and series.  Returns
 *	the number of series (0: nothing to draw).
 */
static int xy_collect(const tcp_run_t *r, const struct xy_spec *sp, struct xy *d)
{
	memset(d, 0, sizeof(*d));
	for (int i = 0; i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		const tcp_run_row_t *m = NULL;
		const char *xname = NULL, *xv = NULL;
		char pkey[512] = "", ptitle[512] = "", skey[1200], stitle[512] = "";

		if (!probe_in(p->probe, sp->probes) || p->status != TCP_OK)
			continue;
		for (int k = 0; sp->metrics[k] && !m; k++)
			m = tcp_point_metric(p, sp->metrics[k]);
		for (int k = 0; sp->x[k] && !xv; k++)
			if ((xv = tcp_point_axis(p, sp->x[k])))
				xname = sp->x[k];
		if (!m || !xv || !isfinite(m->median))
			continue;
		d->xname = xname;
		snprintf(pkey, sizeof(pkey), "%s", p->probe);
		snprintf(ptitle, sizeof(ptitle), "%s", p->probe);
		for (int a = 0; a < p->naxes; a++)
			if (in_list(p->an[a], sp->panel_axes)) {
				kv_cat(pkey, sizeof(pkey), ";", p->an[a], p->av[a]);
				kv_cat(ptitle, sizeof(ptitle), " ", p->an[a], p->av[a]);
			}
		for (int a = 0; a < p->naxes; a++)
			if (strcmp(p->an[a], xname) && !in_list(p->an[a], sp->panel_axes))
				kv_cat(stitle, sizeof(stitle), " ", p->an[a], p->av[a]);
		snprintf(skey, sizeof(skey), "%s|%s|%s", pkey, stitle, m->metric);
		int pi = xy_panel(d, pkey, ptitle);
		int si = pi < 0 ? -1 : xy_series(d, pi, skey, stitle[0] ? stitle : p->probe);
		if (si < 0)
			return -1;
		d->s[si].rep = p;
		struct panel *pn = &d->pn[pi];
		pn->unit = m->unit;
		pn->metric = m->metric;
		pn->kind = point_kind(p);
		pn->gen = point_gen(r, p);
		if (sp->peak && is_flop_rate(m->unit))
			pn->peak = published_peak(point_kind(p), point_gen(r, p));
		double lo, hi;
		pn->xname = xname;
		pn->categorical |= isnan(tcp_csv_num(xv));
		point_minmax(r, p, m, &lo, &hi);
		if (series_add(&d->s[si], tcp_csv_num(xv), m->median, lo, hi, xv))
			return -1;
	}
	/* a panel whose x is not numeric (tcgen05.cp by shape) gets category indexes */
	for (int i = 0; i < d->ns; i++) {
		struct series *s = &d->s[i];
		if (!d->pn[s->panel].categorical)
			continue;
		d->categorical = 1;
		for (int k = 0; k < s->n; k++)
			if ((s->x[k] = cat_index(d, s->xlab[k])) < 0)
				return -1;
	}
	return d->ns;
}

/*
 *  xy_retitle()
 *	Name each series by the axes that vary within its panel only; the ones
 *	every series of the panel shares move into the panel's title.
 */
static void xy_retitle(struct xy *d, const struct xy_spec *sp)
{
	for (int pi = 0; pi < d->np; pi++) {
		const char *xname = d->pn[pi].xname ? d->pn[pi].xname : "";
		const tcp_run_point_t *first = NULL;
		char shared[512] = "";
		for (int i = 0; i < d->ns && !first; i++)
			if (d->s[i].panel == pi)
				first = d->s[i].rep;
		if (!first)
			continue;
		for (int i = 0; i < d->ns; i++) {
			struct series *s = &d->s[i];
			char title[512] = "";
			if (s->panel != pi)
				continue;
			for (int a = 0; a < s->rep->naxes; a++) {
				const char *an = s->rep->an[a], *av = s->rep->av[a];
				int varies = 0;
				if (!strcmp(an, xname) || in_list(an, sp->panel_axes))
					continue;
				for (int k = 0; k < d->ns && !varies; k++) {
					const char *v = tcp_point_axis(d->s[k].rep, an);
					varies = d->s[k].panel == pi && (!v || strcmp(v, av));
				}
				if (varies)
					kv_cat(title, sizeof(title), " ", an, av);
				else if (s->rep == first)
					kv_cat(shared, sizeof(shared), " ", an, av);
			}
			free(s->title);		/* one series: it is simply the median */
			s->title = strdup(title[0] ? title : "median");
		}
		if (shared[0]) {
			char pt[1024];
			snprintf(pt, sizeof(pt), "%s; %s", d->pn[pi].title, shared);
			free(d->pn[pi].title);
			d->pn[pi].title = strdup(pt);
		}
	}
}

/* Order series by panel (contiguous index ranges) and keep the best few per panel. */
static void xy_finish(struct xy *d, const struct xy_spec *sp)
{
	int hib = sp->metrics == rate_metrics || sp->metrics == tmem_metrics;

	xy_retitle(d, sp);
	for (int i = 0; i < d->ns; i++) {
		struct series *s = &d->s[i];
		series_sort(s);
		s->best = hib ? -INFINITY : INFINITY;
		for (int k = 0; k < s->n; k++)
			s->best = hib ? fmax(s->best, s->y[k]) : fmin(s->best, s->y[k]);
		if (d->pn[s->panel].categorical)
			continue;		/* a fit over category indexes means nothing */
		if (sp->fit == FIT_LINEAR && s->n >= 2)
			tcp_fit_linear(s->x, s->y, s->n, &s->fa, &s->fb, &s->fr2);
		else if (sp->fit == FIT_INVERSE && s->n >= 2 &&
			 tcp_fit_inverse(s->x, s->y, s->n, &s->fa, &s->fb, &s->fr2) == 0 &&
			 s->fa > 0 && s->fb > 0)
			s->fsat = ceil(s->fb / (SAT_FRACTION * s->fa));
	}
	/* stable order: panel, then best first (insertion sort on a copy of the order) */
	for (int i = 1; i < d->ns; i++)
		for (int j = i; j > 0; j--) {
			struct series *a = &d->s[j - 1], *b = &d->s[j];
			int before = b->panel < a->panel ||
				     (b->panel == a->panel && (hib ? b->best > a->best : b->best < a->best));
			if (!before)
				break;
			struct series t = *a;
			*a = *b;
			*b = t;
		}
	for (int i = 0; i < d->ns; i++) {
		struct panel *pn = &d->pn[d->s[i].panel];
		d->s[i].keep = pn->nseries < MAX_SERIES_PER_PANEL;
		if (d->s[i].keep)
			pn->nseries++;
		else
			pn->omitted++;
	}
	/* kept series by title, so one configuration has one colour in every panel */
	for (int i = 1; i < d->ns; i++)
		for (int j = i; j > 0; j--) {
			struct series *a = &d->s[j - 1], *b = &d->s[j];
			int before = b->panel < a->panel ||
				     (b->panel == a->panel && b->keep > a->keep) ||
				     (b->panel == a->panel && b->keep == a->keep && strcmp(b->title, a->title) < 0);
			if (!before)
				break;
			struct series t = *a;
			*a = *b;
			*b = t;
		}
}

static const char *unit_or(const char *u, const char *dflt)
{
	return u && *u ? u : dflt;
}

/* Write <stem>.dat and <stem>.gpvars for an x-vs-y plot. */
static int xy_write(const struct xy *d, const struct xy_spec *sp, const char *dir, const char *stem,
		    const char *ylabel, char *err, size_t len)
{
	struct out o;
	char b1[512], b2[512];
	int ns = 0, first[512], last[512];

	if (out_open(&o, dir, stem, "dat", err, len))
		return -1;
	outf(&o, "# %s: generated by tcprobe report --extract from measurements.csv\n", stem);
	for (int p = 0; p < d->np && p < 512; p++) {
		first[p] = ns + 1;
		for (int i = 0; i < d->ns; i++) {
			const struct series *s = &d->s[i];
			if (s->panel != p || !s->keep)
				continue;
			outf(&o, "%s# series %d: %s\n", ns ? "\n\n" : "", ns + 1, s->title);
			outf(&o, "x\txlabel\tmedian\tlo\thi\n");
			for (int k = 0; k < s->n; k++)
				outf(&o, "%.17g\t%s\t%.17g\t%.17g\t%.17g\n", s->x[k],
				     tq(s->xlab[k], b1, sizeof(b1)), s->y[k], s->lo[k], s->hi[k]);
			ns++;
		}
		last[p] = ns;
	}
	if (out_close(&o, dir, stem, "dat", err, len) || out_open(&o, dir, stem, "gpvars", err, len))
		return -1;
	outf(&o, "# %s: generated by tcprobe report --extract\n", stem);
	outf(&o, "NP = %d\nNS = %d\ncategorical = %d\n", d->np, ns, d->categorical);
	outf(&o, "xlabel = \"%s\"\n", gq(sp->xlabel, b1, sizeof(b1)));
	outf(&o, "ylabel = \"%s\"\n", gq(ylabel, b1, sizeof(b1)));
	outf(&o, "array ptitle[%d]\narray pfirst[%d]\narray plast[%d]\narray ppeak[%d]\n"
	     "array pcat[%d]\narray pxlabel[%d]\narray pylabel[%d]\n", d->np, d->np, d->np, d->np, d->np,
	     d->np, d->np);
	outf(&o, "array stitle[%d]\narray fa[%d]\narray fb[%d]\narray fr2[%d]\narray fsat[%d]\n",
	     ns, ns, ns, ns, ns);
	for (int p = 0; p < d->np; p++) {
		const struct panel *pn = &d->pn[p];
		if (pn->omitted)
			snprintf(b2, sizeof(b2), "%s (%d more series in the CSV)", pn->title, pn->omitted);
		else
			snprintf(b2, sizeof(b2), "%s", pn->title);
		outf(&o, "ptitle[%d] = \"%s\"; pfirst[%d] = %d; plast[%d] = %d; ppeak[%d] = %.17g\n",
		     p + 1, gq(b2, b1, sizeof(b1)), p + 1, first[p], p + 1, last[p], p + 1,
		     isfinite(pn->peak) ? pn->peak : 0.0);
		outf(&o, "pcat[%d] = %d; pxlabel[%d] = \"%s\"\n", p + 1, pn->categorical, p + 1,
		     gq(pn->categorical || strcmp(pn->xname, sp->x[0]) ? pn->xname : sp->xlabel, b2, sizeof(b2)));
		snprintf(b2, sizeof(b2), "%s (%s), median; bar = spread", pn->metric, unit_or(pn->unit, "?"));
		outf(&o, "pylabel[%d] = \"%s\"\n", p + 1, gq(b2, b1, sizeof(b1)));
	}
	for (int p = 0, k = 0; p < d->np; p++)
		for (int i = 0; i < d->ns; i++) {
			const struct series *s = &d->s[i];
			if (s->panel != p || !s->keep)
				continue;
			k++;
			outf(&o, "stitle[%d] = \"%s\"; fa[%d] = %.17g; fb[%d] = %.17g; fr2[%d] = %.17g; fsat[%d] = %.17g\n",
			     k, gq(s->title, b1, sizeof(b1)), k, isfinite(s->fa) ? s->fa : 0.0, k,
			     isfinite(s->fb) ? s->fb : 0.0, k, isfinite(s->fr2) ? s->fr2 : 0.0, k,
			     isfinite(s->fsat) ? s->fsat : 0.0);
		}
	if (d->categorical) {
		outf(&o, "NCAT = %d\narray xcat[%d]\n", d->ncats, d->ncats);
		for (int i = 0; i < d->ncats; i++)
			outf(&o, "xcat[%d] = \"%s\"\n", i + 1, gq(d->cats[i], b1, sizeof(b1)));
	}
	return out_close(&o, dir, stem, "gpvars", err, len);
}

/*
 *  plot_xy()
 *	Throughput, latency, II and TMEM plots: one generic x-vs-y extraction.
 */
static int plot_xy(const tcp_run_t *r, const struct xy_spec *sp, const char *dir, const char *stem,
		   tcp_plot_state_t *st, char *err, size_t len)
{
	struct xy d;
	char ylabel[160], probes[256] = "";
	int rc = 0;

	char metrics[160] = "";
	for (int i = 0; sp->probes[i]; i++)
		snprintf(probes + strlen(probes), sizeof(probes) - strlen(probes), "%s%s",
			 i ? ", " : "", sp->probes[i]);
	for (int i = 0; sp->metrics[i]; i++)
		snprintf(metrics + strlen(metrics), sizeof(metrics) - strlen(metrics), "%s%s",
			 i ? " or " : "", sp->metrics[i]);
	if (xy_collect(r, sp, &d) <= 0) {
		snprintf(st->note, sizeof(st->note), "no OK points of %s with metric %s in this run",
			 probes, metrics);
		xy_free(&d);
		return 0;
	}
	xy_finish(&d, sp);
	const char *unit = unit_or(d.pn[0].unit, "?");
	snprintf(ylabel, sizeof(ylabel), "%s (%s), median; band = spread", d.s[0].key[0] ?
		 strrchr(d.s[0].key, '|') + 1 : "?", unit);
	st->has_data = 1;
	int pts = 0;
	for (int i = 0; i < d.ns; i++)
		pts += d.s[i].n;
	snprintf(st->note, sizeof(st->note), "%d points in %d panels x %d series, from %s", pts, d.np,
		 d.ns, probes);
	if (dir)
		rc = xy_write(&d, sp, dir, stem, ylabel, err, len);
	xy_free(&d);
	return rc;
}

/* Best OK median of `metric` over a probe's points of one kind (max). */
static double best_rate(const tcp_run_t *r, const char *probe, int kind, const char **axes)
{
	double best = NAN;

	for (int i = 0; i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		const tcp_run_row_t *m;
		if (strcmp(p->probe, probe) || p->status != TCP_OK || point_kind(p) != kind ||
		    !(m = tcp_point_metric(p, "flop_per_clk_sm")) || !isfinite(m->median))
			continue;
		if (isnan(best) || m->median > best) {
			best = m->median;
			if (axes)
				*axes = p->axes;
		}
	}
	return best;
}

/* The warp-level family's best dense rate of a kind: mma_sync or warp_mma (not sparse:
 * a sparse form counts its logical K, up to 2x the dense rate). */
static double best_warp_rate(const tcp_run_t *r, int kind)
{
	double best = NAN;

	for (int i = 0; i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		const tcp_run_row_t *m;
		const char *sp = tcp_point_axis(p, "sparse");
		if ((strcmp(p->probe, "mma_sync") && strcmp(p->probe, "warp_mma")) || p->status != TCP_OK ||
		    point_kind(p) != kind || (sp && strcmp(sp, "0")) ||
		    !(m = tcp_point_metric(p, "flop_per_clk_sm")) || !isfinite(m->median))
			continue;
		if (isnan(best) || m->median > best)
			best = m->median;
	}
	return best;
}

static const char *kind_label(int kind, int gen)
{
	if (gen == 90 && kind == TCP_KIND_F8F6F4)
		return "fp8";		/* wgmma's e4m3 / e5m2 family */
	return tcp_kind_name((tcp_kind_t)kind);
}

/*
 *  plot_k4()
 *	FLOP per accumulator byte = 2MNK / (2 MN 4 B) = K/4: an MxN fp32 (or
 *	s32) accumulator is read and written once per MMA.  K per kind and
 *	generation, and the published peak, from model/kinds.h.
 */
static int plot_k4(const tcp_run_t *r, const char *dir, tcp_plot_state_t *st, int measured,
		   char *err, size_t len)
{
	static const int gens[] = { 90, 100 };
	const char *stem = measured ? "acc-bandwidth" : "k4-identity";
	double hopper_f16 = tcp_kind_flop_clk_sm(TCP_KIND_F16, TCP_GEN_SM90) / (tcp_kind_k(TCP_KIND_F16) / 4.0);
	struct out o;
	int x = 0, nmeas = 0;
	char b[128];

	if (out_open(&o, dir, stem, "dat", err, len))
		return -1;
	outf(&o, "# %s: MMA-K and published peaks from model/kinds.h%s\n", stem,
	     measured ? "; measured rates from measurements.csv" : "");
	outf(&o, "x\tlabel\tgen\tkind\tmma_k\tflop_per_acc_byte\trate\tsource\tpeak\tacc_bw\tacc_x_hopper\tmeasured\tpublished\n");
	for (int g = 0; g < 2; g++)
		for (int k = 0; k < TCP_KIND_COUNT; k++) {
			int kk = tcp_kind_k_gen((tcp_kind_t)k, (tcp_gen_t)gens[g]);
			double peak = published_peak(k, gens[g]);
			if (kk <= 0 || isnan(peak))
				continue;
			double rate = NAN;
			if (measured && r)
				rate = best_rate(r, gens[g] == 90 ? "wgmma_tput" : "tc_mma_tput", k, NULL);
			int meas = isfinite(rate);
			nmeas += meas;
			if (!meas)
				rate = peak;
			double acc = rate / (kk / 4.0);
			snprintf(b, sizeof(b), "%s %s", gens[g] == 90 ? "wgmma" : "tcgen05", kind_label(k, gens[g]));
			outf(&o, "%d\t%s\t%s\t%s\t%d\t%.17g\t%.17g\t%s\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\n", x++, b,
			     gens[g] == 90 ? "sm_90" : "sm_100", kind_label(k, gens[g]), kk, kk / 4.0, rate,
			     meas ? "measured" : "published", peak, acc, acc / hopper_f16,
			     meas ? rate : NAN, meas ? NAN : rate);
		}
	/* the register-file accumulator family: warp-level MMA, measured points only */
	for (int k = 0; measured && r && k < TCP_KIND_COUNT; k++) {
		int kk = tcp_kind_k((tcp_kind_t)k);
		double rate = best_warp_rate(r, k);
		if (!isfinite(rate) || kk <= 0)
			continue;
		nmeas++;
		double acc = rate / (kk / 4.0);
		snprintf(b, sizeof(b), "mma.sync %s (registers)", kind_label(k, 90));
		outf(&o, "%d\t%s\tregfile\t%s\t%d\t%.17g\t%.17g\tmeasured\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\n", x++, b,
		     kind_label(k, 90), kk, kk / 4.0, rate, NAN, acc, acc / hopper_f16, rate, NAN);
	}
	if (out_close(&o, dir, stem, "dat", err, len) || out_open(&o, dir, stem, "gpvars", err, len))
		return -1;
	outf(&o, "hopper_f16_acc_bw = %.17g\nnmeasured = %d\n", hopper_f16, nmeas);
	if (out_close(&o, dir, stem, "gpvars", err, len))
		return -1;
	st->has_data = 1;
	if (measured)
		snprintf(st->note, sizeof(st->note), "%d kinds measured in this run (wgmma_tput / "
			 "tc_mma_tput best points, warp-level MMA as register-file rows), the others at the "
			 "published peak (model/kinds.h)", nmeas);
	else
		snprintf(st->note, sizeof(st->note), "MMA-K per kind from model/kinds.h (PTX ISA)");
	return 0;
}

/*
 *  plot_cross_gen()
 *	Per kind family: mma.sync (measured only: no published per-SM figure),
 *	wgmma and tcgen05 (measured, else the published peak).  Accumulator
 *	bytes per FLOP = 4 / K for a 32-bit accumulator.
 */
static int plot_cross_gen(const tcp_run_t *r, const char *dir, tcp_plot_state_t *st, char *err,
			  size_t len)
{
	static const int kinds[] = { TCP_KIND_F16, TCP_KIND_TF32, TCP_KIND_F8F6F4, TCP_KIND_I8 };
	static const char *const fam[] = { "mma.sync", "wgmma", "tcgen05" };
	static const char *const probe[] = { "mma_sync", "wgmma_tput", "tc_mma_tput" };
	static const int gen[] = { 90, 90, 100 };
	struct out o;
	int nmeas = 0, nrows = 0;

	if (out_open(&o, dir, "cross-gen", "dat", err, len))
		return -1;
	outf(&o, "# cross-gen: measured rates from measurements.csv, peaks and K from model/kinds.h\n");
	outf(&o, "x\tlabel\tkind\tfamily\trate\tsource\tmma_k\tacc_bytes_per_flop\tacc_bw\tmeasured\tpublished\n");
	for (int ki = 0; ki < 4; ki++)
		for (int f = 0; f < 3; f++) {
			int k = kinds[ki], kk = tcp_kind_k_gen((tcp_kind_t)k, (tcp_gen_t)gen[f]);
			double rate = f == 0 ? best_warp_rate(r, k) : best_rate(r, probe[f], k, NULL);
			double peak = published_peak(k, gen[f]);
			int meas = isfinite(rate);
			if (!meas && (f == 0 || isnan(peak)))
				continue;
			if (kk <= 0)
				continue;
			nmeas += meas;
			if (!meas)
				rate = peak;
			outf(&o, "%d\t%s %s\t%s\t%s\t%.17g\t%s\t%d\t%.17g\t%.17g\t%.17g\t%.17g\n", ki * 4 + f,
			     fam[f], kind_label(k, gen[f]), kind_label(k, gen[f]), fam[f], rate,
			     meas ? "measured" : "published", kk, 4.0 / kk, rate * 4.0 / kk,
			     meas ? rate : NAN, meas ? NAN : rate);
			nrows++;
		}
	if (out_close(&o, dir, "cross-gen", "dat", err, len) || out_open(&o, dir, "cross-gen", "gpvars", err, len))
		return -1;
	outf(&o, "nmeasured = %d\nnrows = %d\n", nmeas, nrows);
	if (out_close(&o, dir, "cross-gen", "gpvars", err, len))
		return -1;
	if (!nmeas) {
		snprintf(st->note, sizeof(st->note), "no OK points of mma_sync, wgmma_tput or "
			 "tc_mma_tput with flop_per_clk_sm in this run");
		return 0;
	}
	st->has_data = 1;
	snprintf(st->note, sizeof(st->note), "%d rates measured in this run; bars without a "
		 "measurement show the published peak (model/kinds.h)", nmeas);
	return 0;
}

/*
 *  plot_compare()
 *	The ratio plot from a `tcprobe compare --csv` file (harness/analyze/compare.h):
 *	per NEW run (column groups ratio, ratio_2, ...) one panel, one dot per
 *	point of each probe's primary metric (flop_per_clk_sm when the probe has
 *	it, else the registry's first), the noise band 1 +- noise_pct.
 */
/* A comparison row the ratio plot can place: the base measured it (points no
 * run measured, e.g. UNSUPPORTED ones, would only stretch the x axis). */
static int row_measured(const tcp_table_t *t, int i)
{
	const char *s = tcp_table_get(t, i, "base_status");
	return !s || !strcmp(s, "OK");
}

static int plot_compare(const char *csv, const char *dir, tcp_plot_state_t *st, char *err, size_t len)
{
	static const char *const need[] = { "probe", "axes", "metric", "unit", "new_run", "ratio",
					    "noise_pct", "verdict", NULL };
	tcp_table_t t;
	struct out o;
	char col[64], b1[512], b2[512];
	const char **prim = NULL, **pname = NULL;
	int nprim = 0, ngroups = 0, nkept = 0, nplotted = 0, rc = -1;

	if (!csv) {
		snprintf(st->note, sizeof(st->note), "no comparison given: run `tcprobe compare BASE_DIR "
			 "THIS_DIR --csv FILE`, then `tcprobe report THIS_DIR --compare FILE`");
		return 0;
	}
	if (tcp_table_load(csv, &t, err, len))
		return -1;
	for (int i = 0; need[i]; i++)
		if (tcp_table_col(&t, need[i]) < 0) {
			snprintf(err, len, "%s:1: column '%s' missing (not a tcprobe compare --csv file?)",
				 csv, need[i]);
			goto out;
		}
	for (ngroups = 1; ngroups < 64; ngroups++) {
		snprintf(col, sizeof(col), "ratio_%d", ngroups + 1);
		if (tcp_table_col(&t, col) < 0)
			break;
	}
	/* each probe's primary metric: the registry's first, else the first row's */
	prim = calloc((size_t)t.nrows + 1, sizeof(*prim));
	pname = calloc((size_t)t.nrows + 1, sizeof(*pname));
	if (!prim || !pname) {
		snprintf(err, len, "out of memory");
		goto out;
	}
	for (int i = 0; i < t.nrows; i++) {
		const char *probe = tcp_table_get(&t, i, "probe"), *metric = tcp_table_get(&t, i, "metric");
		int k;
		for (k = 0; k < nprim && strcmp(pname[k], probe); k++)
			;
		if (k < nprim || !strncmp(metric, "cupti/", 6) || !row_measured(&t, i))
			continue;
		const tcp_probe_t *d = tcp_probe_find(probe);
		pname[nprim] = probe;
		prim[nprim++] = d && d->nmetrics ? d->metrics[0].name : metric;
		/* as in the report's tables: a probe with a math rate is compared on it */
		for (int j = i; j < t.nrows; j++)
			if (!strcmp(tcp_table_get(&t, j, "probe"), probe) &&
			    !strcmp(tcp_table_get(&t, j, "metric"), "flop_per_clk_sm")) {
				prim[nprim - 1] = "flop_per_clk_sm";
				break;
			}
	}
	if (out_open(&o, dir, "compare-ratio", "dat", err, len))
		goto out;
	outf(&o, "# compare-ratio: from %s (tcprobe compare --csv)\n", csv);
	for (int g = 0; g < ngroups; g++) {
		char sfx[16] = "";
		if (g)
			snprintf(sfx, sizeof(sfx), "_%d", g + 1);
		outf(&o, "%s# run %d\n", g ? "\n\n" : "", g + 1);
		outf(&o, "i\tprobe\tratio\tlo\thi\tverdict\tcolor\n");
		nkept = 0;
		for (int i = 0; i < t.nrows; i++) {
			const char *probe = tcp_table_get(&t, i, "probe"), *metric = tcp_table_get(&t, i, "metric");
			int k;
			for (k = 0; k < nprim && strcmp(pname[k], probe); k++)
				;
			if (k == nprim || strcmp(prim[k], metric) || !row_measured(&t, i))
				continue;
			nkept++;
			snprintf(col, sizeof(col), "ratio%s", sfx);
			double ratio = tcp_csv_num(tcp_table_get(&t, i, col));
			snprintf(col, sizeof(col), "noise_pct%s", sfx);
			double noise = tcp_csv_num(tcp_table_get(&t, i, col));
			snprintf(col, sizeof(col), "verdict%s", sfx);
			const char *v = tcp_table_get(&t, i, col);
			if (!v || !isfinite(ratio))
				continue;
			if (!isfinite(noise))
				noise = 0;
			int color = !strcmp(v, "same") ? 0 : !strcmp(v, "faster") ? 1 : !strcmp(v, "slower") ? 2 : 3;
			outf(&o, "%d\t%s\t%.17g\t%.17g\t%.17g\t%s\t%d\n", nkept, tq(probe, b1, sizeof(b1)), ratio,
			     1.0 - noise / 100.0, 1.0 + noise / 100.0, tq(v, b2, sizeof(b2)), color);
			nplotted++;
		}
	}
	if (out_close(&o, dir, "compare-ratio", "dat", err, len) ||
	    out_open(&o, dir, "compare-ratio", "gpvars", err, len))
		goto out;
	outf(&o, "NR = %d\nNPTS = %d\narray rtitle[%d]\narray tpos[%d]\narray tlab[%d]\nNT = %d\n", ngroups,
	     nkept, ngroups, nprim ? nprim : 1, nprim ? nprim : 1, nprim);
	for (int g = 0; g < ngroups; g++) {
		char sfx[16] = "";
		if (g)
			snprintf(sfx, sizeof(sfx), "_%d", g + 1);
		snprintf(col, sizeof(col), "new_run%s", sfx);
		const char *base = t.nrows ? tcp_table_get(&t, 0, "base_run") : NULL;
		const char *nw = t.nrows ? tcp_table_get(&t, 0, col) : NULL;
		snprintf(b2, sizeof(b2), "%s / %s", nw ? nw : "new", base ? base : "base");
		outf(&o, "rtitle[%d] = \"%s\"\n", g + 1, gq(b2, b1, sizeof(b1)));
	}
	/* a tic at the first point of each probe */
	for (int k = 0, idx = 0, seen = 0; k < nprim; k++) {
		idx = 0;
		for (int i = 0; i < t.nrows; i++) {
			const char *probe = tcp_table_get(&t, i, "probe"), *metric = tcp_table_get(&t, i, "metric");
			int j;
			for (j = 0; j < nprim && strcmp(pname[j], probe); j++)
				;
			if (j == nprim || strcmp(prim[j], metric) || !row_measured(&t, i))
				continue;
			idx++;
			if (j == k)
				break;
		}
		seen++;
		snprintf(b2, sizeof(b2), "%s (%s)", pname[k], prim[k]);
		outf(&o, "tpos[%d] = %d; tlab[%d] = \"%s\"\n", seen, idx, seen, gq(b2, b1, sizeof(b1)));
	}
	if (out_close(&o, dir, "compare-ratio", "gpvars", err, len))
		goto out;
	if (nplotted) {
		st->has_data = 1;
		snprintf(st->note, sizeof(st->note), "%d ratios of %d points' primary metric, %d run(s) vs "
			 "the base, from %s", nplotted, nkept, ngroups, csv);
	} else {
		snprintf(st->note, sizeof(st->note), "%s holds no point measured in both runs", csv);
	}
	rc = 0;
out:
	free(prim);
	free(pname);
	tcp_table_free(&t);
	return rc;
}

/*
 *  plot_tmem_budget()
 *	The model's TMEM planner (model/tmem-plan.h) over the standard tile
 *	grid, 128 x {64..256} (cta_group::1) and 256 x {64..256} (cta_group::2),
 *	1-3 accumulator stages, in two scenarios: dense f16 with A and B in
 *	shared memory, and block-scaled mxf8f6f4 with A (e4m3) and the scale
 *	factors in TMEM.  A model, not a measurement: the plot says so.
 */
static int plot_tmem_budget(const char *dir, tcp_plot_state_t *st, char *err, size_t len)
{
	static const unsigned ms[] = { 128, 256 }, ns[] = { 64, 128, 192, 256 };
	enum { A_K = 128, A_STAGES = 2, SF_BLOCK = 32, SF_K = 128, SF_STAGES = 2 };
	struct out o;
	char reason[256];
	int nbars = 0, nfit = 0;

	if (out_open(&o, dir, "tmem-budget", "dat", err, len))
		return -1;
	outf(&o, "# tmem-budget: columns per CTA from model/tmem-plan.h (a model, not a measurement)\n");
	for (int sc = 0; sc < 2; sc++) {
		outf(&o, "%s# scenario %d\nx\tlabel\taccumulator\ta_operand\tscale_a\tscale_b\ttotal\talloc\tfits\n",
		     sc ? "\n\n" : "", sc + 1);
		for (int mi = 0, x = 0; mi < 2; mi++)
			for (int ni = 0; ni < 4; ni++, x++)
				for (unsigned s = 1; s <= 3; s++) {
					tcp_tmem_req_t q;
					tcp_tmem_plan_t p;
					unsigned c[4] = { 0 };
					tcp_tmem_req_default(&q, ms[mi], ns[ni]);
					q.stages = s;
					if (sc) {
						q.a_tmem = 1;
						q.a_type = TCP_T_E4M3;
						q.a_k = A_K;
						q.a_stages = A_STAGES;
						q.sf_block = SF_BLOCK;
						q.sf_k = SF_K;
						q.sf_stages = SF_STAGES;
					}
					if (tcp_tmem_plan(&q, &p, reason, sizeof(reason))) {
						snprintf(err, len, "tmem planner: %s", reason);
						if (o.f)
							fclose(o.f);
						return -1;
					}
					for (int k = 0; k < p.nparts; k++) {
						const char *nm = p.part[k].name;
						int slot = !strcmp(nm, "accumulator") ? 0 : !strcmp(nm, "A operand") ? 1 :
							   !strcmp(nm, "scale A") ? 2 : !strcmp(nm, "scale B") ? 3 : -1;
						if (slot >= 0)
							c[slot] = p.part[k].cols_rounded;
					}
					outf(&o, "%u\t%ux%u s%u\t%u\t%u\t%u\t%u\t%u\t%u\t%d\n", x * 4 + s - 1, ms[mi],
					     ns[ni], s, c[0], c[1], c[2], c[3], p.total, p.alloc, p.fits);
					nbars++;
					nfit += p.fits;
				}
	}
	if (out_close(&o, dir, "tmem-budget", "dat", err, len) ||
	    out_open(&o, dir, "tmem-budget", "gpvars", err, len))
		return -1;
	outf(&o, "tmem_cols = %d\n", TCP_TMEM_COLS);
	outf(&o, "sc1 = \"dense f16/bf16, A and B in shared memory: accumulator only (f32)\"\n");
	outf(&o, "sc2 = \"mxf8f6f4, A in TMEM (e4m3, %d K x %d buffers), scale factors (block %d, %d K x %d buffers)\"\n",
	     A_K, A_STAGES, SF_BLOCK, SF_K, SF_STAGES);
	if (out_close(&o, dir, "tmem-budget", "gpvars", err, len))
		return -1;
	st->has_data = 1;
	snprintf(st->note, sizeof(st->note), "the model's TMEM planner (model/tmem-plan.h), not a "
		 "measurement: %d of %d configurations fit in %d columns", nfit, nbars, TCP_TMEM_COLS);
	return 0;
}

/* One line per plot for scripts/plots.sh: stem, has_data, note. */
static int write_manifest(const char *dir, const tcp_plot_state_t *st, char *err, size_t len)
{
	struct out o;
	char b[512];

	if (out_open(&o, dir, "manifest", "tsv", err, len))
		return -1;
	for (int i = 0; i < TCP_NPLOTS; i++)
		outf(&o, "%s\t%d\t%s\n", tcp_plot_stem(i), st[i].has_data, tq(st[i].note, b, sizeof(b)));
	return out_close(&o, dir, "manifest", "tsv", err, len);
}

/*
 *  plot_energy_trace()
 *	--sustain's trace.csv (t_s, sm_clock_mhz, power_w, temp_c, throttle,
 *	energy_mj), copied as energy-trace.dat for plots/energy-trace.gp
 */
static int plot_energy_trace(const tcp_run_t *r, const char *dir, tcp_plot_state_t *st, char *err,
			     size_t len)
{
	char path[4200], line[512];
	FILE *in, *out = NULL;
	int rows = 0;
	double t = 0;

	snprintf(path, sizeof(path), "%s/trace.csv", r->dir);
	if (!(in = fopen(path, "r"))) {
		snprintf(st->note, sizeof(st->note), "no trace.csv in this run (tcprobe run --sustain SEC)");
		return 0;
	}
	if (dir) {
		snprintf(path, sizeof(path), "%s/energy-trace.dat", dir);
		if (!(out = fopen(path, "w"))) {
			snprintf(err, len, "%s: %s", path, strerror(errno));
			fclose(in);
			return -1;
		}
	}
	while (fgets(line, sizeof(line), in)) {
		if (out)
			fputs(line, out);
		if (line[0] >= '0' && line[0] <= '9') {
			rows++;
			t = strtod(line, NULL);
		}
	}
	fclose(in);
	if (out && fclose(out)) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	st->has_data = rows > 1;
	if (rows > 1)
		snprintf(st->note, sizeof(st->note), "%d samples over %.1f s, from trace.csv", rows, t);
	else
		snprintf(st->note, sizeof(st->note), "trace.csv has %d samples, expected 2 or more", rows);
	return 0;
}

int tcp_report_extract(const tcp_run_t *r, const char *compare_csv, const char *dir,
		       tcp_plot_state_t st[TCP_NPLOTS], char *err, size_t len)
{
	static const char *const energy_probes[] = { "wgmma_tput", "mma_sync", "tc_mma_tput", NULL };
	static const char *const pj_metrics[] = { "pj_per_flop", NULL };
	static const char *const held_metrics[] = { "tflops_energy", NULL };
	static const char *const x_pat[] = { "pattern", NULL }, *const panel_acc[] = { "acc", NULL };
	static const struct xy_spec pj = { energy_probes, pj_metrics, x_pat, "input pattern",
					   panel_acc, FIT_NONE, 0 };
	static const struct xy_spec held = { energy_probes, held_metrics, x_pat, "input pattern",
					     panel_acc, FIT_NONE, 0 };
	static const char *const x_n[] = { "N", NULL }, *const x_d[] = { "D", "depth", NULL };
	static const char *const x_num[] = { "num", "shape", NULL };
	static const char *const panel_kind[] = { "kind", NULL };
	static const char *const panel_op[] = { "op", "warpgroups", NULL };
	static const struct xy_spec tput = { tput_probes, rate_metrics, x_n, "N (columns of the MMA tile)",
					     panel_kind, FIT_NONE, 1 };
	static const struct xy_spec lat = { lat_probes, lat_metrics, x_n, "N (columns of the MMA tile)",
					    panel_kind, FIT_LINEAR, 0 };
	static const struct xy_spec ii = { ii_probes, ii_metrics, x_d, "chain depth D (MMAs in flight)",
					   panel_kind, FIT_INVERSE, 0 };
	static const struct xy_spec tmem = { tmem_probes, tmem_metrics, x_num,
					     ".num (repetitions of the shape per instruction)", panel_op,
					     FIT_NONE, 0 };
	int rc = 0;

	for (int i = 0; i < TCP_NPLOTS; i++) {
		st[i].has_data = 0;
		st[i].note[0] = 0;
	}
	rc |= plot_k4(r, dir, &st[TCP_PLOT_k4_identity], 0, err, len);
	rc |= plot_k4(r, dir, &st[TCP_PLOT_acc_bandwidth], 1, err, len);
	rc |= plot_xy(r, &tput, dir, "tput-vs-n", &st[TCP_PLOT_tput_vs_n], err, len);
	rc |= plot_xy(r, &lat, dir, "lat-vs-n", &st[TCP_PLOT_lat_vs_n], err, len);
	rc |= plot_xy(r, &ii, dir, "ii-vs-depth", &st[TCP_PLOT_ii_vs_depth], err, len);
	rc |= plot_xy(r, &tmem, dir, "tmem-bw", &st[TCP_PLOT_tmem_bw], err, len);
	rc |= plot_tmem_budget(dir, &st[TCP_PLOT_tmem_budget], err, len);
	rc |= plot_cross_gen(r, dir, &st[TCP_PLOT_cross_gen], err, len);
	rc |= plot_xy(r, &pj, dir, "energy-pj-per-flop", &st[TCP_PLOT_energy_pj_per_flop], err, len);
	rc |= plot_xy(r, &held, dir, "energy-pattern", &st[TCP_PLOT_energy_pattern], err, len);
	rc |= plot_energy_trace(r, dir, &st[TCP_PLOT_energy_trace], err, len);
	if (!rc)
		rc |= plot_compare(compare_csv, dir, &st[TCP_PLOT_compare_ratio], err, len);
	/* a plot without data leaves no stale files behind for the renderer */
	for (int i = 0; dir && !rc && i < TCP_NPLOTS; i++)
		if (!st[i].has_data) {
			char path[4096];
			snprintf(path, sizeof(path), "%s/%s.dat", dir, tcp_plot_stem(i));
			unlink(path);
			snprintf(path, sizeof(path), "%s/%s.gpvars", dir, tcp_plot_stem(i));
			unlink(path);
		}
	if (dir && !rc)
		rc = write_manifest(dir, st, err, len);
	return rc ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* report.md and report.html                                           */
/* ------------------------------------------------------------------ */

void tcp_base64(const unsigned char *in, size_t n, char *out)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i, o = 0;

	for (i = 0; i + 2 < n; i += 3) {
		unsigned v = (unsigned)in[i] << 16 | (unsigned)in[i + 1] << 8 | in[i + 2];
		out[o++] = tab[v >> 18 & 63];
		out[o++] = tab[v >> 12 & 63];
		out[o++] = tab[v >> 6 & 63];
		out[o++] = tab[v & 63];
	}
	if (i < n) {
		unsigned v = (unsigned)in[i] << 16 | (i + 1 < n ? (unsigned)in[i + 1] << 8 : 0);
		out[o++] = tab[v >> 18 & 63];
		out[o++] = tab[v >> 12 & 63];
		out[o++] = i + 1 < n ? tab[v >> 6 & 63] : '=';
		out[o++] = '=';
	}
	out[o] = 0;
}

/* Text for a markdown table cell (| escaped, no newlines) or HTML (entities). */
static void put_md(struct out *o, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			outf(o, "\\|");
		else if (*s == '\n' || *s == '\r')
			outf(o, " ");
		else
			outf(o, "%c", *s);
	}
}

static void put_html(struct out *o, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': outf(o, "&amp;"); break;
		case '<': outf(o, "&lt;"); break;
		case '>': outf(o, "&gt;"); break;
		case '"': outf(o, "&quot;"); break;
		default: outf(o, "%c", *s);
		}
	}
}

/* A cell either way: md 0/1. */
static void put_txt(struct out *o, int html, const char *s)
{
	if (html)
		put_html(o, s);
	else
		put_md(o, s);
}

static const char *fmt_num(double v, char *buf, size_t len, const char *f)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, f, v);
	return buf;
}

/* A table: header cells, then rows through row_cell / row_end. */
static void tab_begin(struct out *o, int html, const char *const *h, int n)
{
	if (html) {
		outf(o, "<table>\n<tr>");
		for (int i = 0; i < n; i++) {
			outf(o, "<th>");
			put_html(o, h[i]);
			outf(o, "</th>");
		}
		outf(o, "</tr>\n");
		return;
	}
	outf(o, "\n|");
	for (int i = 0; i < n; i++) {
		outf(o, " ");
		put_md(o, h[i]);
		outf(o, " |");
	}
	outf(o, "\n|");
	for (int i = 0; i < n; i++)
		outf(o, "---|");
	outf(o, "\n");
}

static void tab_row(struct out *o, int html, const char *const *c, int n)
{
	outf(o, html ? "<tr>" : "|");
	for (int i = 0; i < n; i++) {
		if (html) {
			outf(o, "<td>");
			put_html(o, c[i]);
			outf(o, "</td>");
		} else {
			outf(o, " ");
			put_md(o, c[i]);
			outf(o, " |");
		}
	}
	outf(o, html ? "</tr>\n" : "\n");
}

static void tab_end(struct out *o, int html)
{
	outf(o, html ? "</table>\n" : "\n");
}

static void heading(struct out *o, int html, int level, const char *text, const char *id)
{
	if (html) {
		outf(o, "<h%d id=\"%s\">", level, id ? id : "");
		put_html(o, text);
		outf(o, "</h%d>\n", level);
	} else {
		outf(o, "\n%.*s ", level, "######");
		put_md(o, text);
		outf(o, "\n\n");
	}
}

static void para(struct out *o, int html, const char *text)
{
	outf(o, html ? "<p>" : "");
	put_txt(o, html, text);
	outf(o, html ? "</p>\n" : "\n\n");
}

/*
 *  status_table()
 *	Points per probe and status: the first thing a reviewer checks.
 */
static void status_table(struct out *o, int html, const tcp_run_t *r)
{
	static const char *const h[] = { "probe", "arch", "points", "OK", "FAILED", "INVALID", "TIMEOUT",
					 "SKIPPED", "UNSUPPORTED" };
	static const tcp_status_t order[] = { TCP_OK, TCP_FAILED, TCP_INVALID, TCP_TIMEOUT, TCP_SKIPPED,
					      TCP_UNSUPPORTED };
	char cell[9][64];
	const char *c[9];
	int tot[7] = { 0 };

	tab_begin(o, html, h, 9);
	for (int i = 0; i < r->nprobes; i++) {
		const char *probe = r->probes[i], *arch = "";
		int np = 0;
		for (int k = 0; k < r->npoints; k++)
			if (!strcmp(r->points[k].probe, probe)) {
				np++;
				arch = r->points[k].arch ? r->points[k].arch : "";
			}
		c[0] = probe;
		c[1] = arch;
		snprintf(cell[2], sizeof(cell[2]), "%d", np);
		c[2] = cell[2];
		tot[0] += np;
		for (int s = 0; s < 6; s++) {
			int n = tcp_run_count(r, probe, order[s]);
			tot[s + 1] += n;
			snprintf(cell[3 + s], sizeof(cell[0]), "%d", n);
			c[3 + s] = cell[3 + s];
		}
		tab_row(o, html, c, 9);
	}
	c[0] = "all";
	c[1] = "";
	for (int s = 0; s < 7; s++) {
		snprintf(cell[2 + s], sizeof(cell[0]), "%d", tot[s]);
		c[2 + s] = cell[2 + s];
	}
	tab_row(o, html, c, 9);
	tab_end(o, html);
	int other = r->npoints;
	for (int s = 0; s < 6; s++)
		other -= tot[s + 1];
	if (other > 0) {
		char b[160];
		snprintf(b, sizeof(b), "%d point(s) carry a status word this tcprobe does not know.", other);
		para(o, html, b);
	}
}

/* Non-OK points of a probe: failures one by one, skips grouped by reason. */
static void problems(struct out *o, int html, const tcp_run_t *r, const char *probe)
{
	enum { SHOW = 10 };
	int shown = 0, more = 0;
	char b[1024];

	for (int i = 0; i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		if (strcmp(p->probe, probe) || p->status == TCP_OK || p->status == TCP_SKIPPED ||
		    p->status == TCP_UNSUPPORTED)
			continue;
		if (shown == SHOW) {
			more++;
			continue;
		}
		if (!shown++)
			outf(o, html ? "<ul class=\"bad\">\n" : "");
		outf(o, html ? "<li>" : "- ");
		snprintf(b, sizeof(b), "%s %s: %s", p->status >= 0 ? tcp_status_name((tcp_status_t)p->status) : "?",
			 p->axes, p->reason && *p->reason ? p->reason : "(no reason recorded)");
		put_txt(o, html, b);
		outf(o, html ? "</li>\n" : "\n");
	}
	if (more) {
		snprintf(b, sizeof(b), "... and %d more (see measurements.csv)", more);
		outf(o, html ? "<li>" : "- ");
		put_txt(o, html, b);
		outf(o, html ? "</li>\n" : "\n");
	}
	if (shown)
		outf(o, html ? "</ul>\n" : "\n");
	/* SKIPPED / UNSUPPORTED: by reason, with counts (one pass; a run may skip thousands) */
	struct group { int status; const char *reason; int n; } g[SHOW + 1];
	int ng = 0, other = 0;
	for (int i = 0; i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		const char *why = p->reason && *p->reason ? p->reason : "(no reason)";
		int k;
		if (strcmp(p->probe, probe) || (p->status != TCP_SKIPPED && p->status != TCP_UNSUPPORTED))
			continue;
		for (k = 0; k < ng && (g[k].status != p->status || strcmp(g[k].reason, why)); k++)
			;
		if (k < ng)
			g[k].n++;
		else if (ng < SHOW)
			g[ng++] = (struct group){ p->status, why, 1 };
		else
			other++;
	}
	for (int k = 0; k < ng; k++) {
		if (!k)
			outf(o, html ? "<ul class=\"skip\">\n" : "");
		snprintf(b, sizeof(b), "%d point%s %s: %s", g[k].n, g[k].n == 1 ? "" : "s",
			 tcp_status_name((tcp_status_t)g[k].status), g[k].reason);
		outf(o, html ? "<li>" : "- ");
		put_txt(o, html, b);
		outf(o, html ? "</li>\n" : "\n");
	}
	if (other) {
		snprintf(b, sizeof(b), "%d more skipped or unsupported point%s with other reasons "
			 "(see measurements.csv)", other, other == 1 ? "" : "s");
		outf(o, html ? "<li>" : "- ");
		put_txt(o, html, b);
		outf(o, html ? "</li>\n" : "\n");
	}
	if (ng)
		outf(o, html ? "</ul>\n" : "\n");
}

static void probe_section(struct out *o, int html, const tcp_run_t *r, const char *probe)
{
	static const char *const h[] = { "point", "median", "unit", "spread %", "% of peak",
					 "published peak", "SM clock MHz" };
	tcp_best_t best[32];
	const tcp_probe_t *d = tcp_probe_find(probe);
	char id[160], b[512], cell[7][96];
	const char *c[7];
	int hib;

	snprintf(id, sizeof(id), "probe-%s", probe);
	heading(o, html, 3, probe, id);
	if (d && d->help)
		para(o, html, d->help);
	int total = 0;
	for (int i = 0; i < r->npoints; i++)
		total += !strcmp(r->points[i].probe, probe);
	snprintf(b, sizeof(b), "Points: %d", total);
	for (int st = 0, shown = 0; st < NSTATUS; st++) {
		int cnt = tcp_run_count(r, probe, (tcp_status_t)st);
		if (cnt)
			snprintf(b + strlen(b), sizeof(b) - strlen(b), "%s%s %d", shown++ ? ", " : " (",
				 tcp_status_name((tcp_status_t)st), cnt);
		if (st == NSTATUS - 1 && shown)
			snprintf(b + strlen(b), sizeof(b) - strlen(b), ")");
	}
	snprintf(b + strlen(b), sizeof(b) - strlen(b), ".");
	para(o, html, b);
	int n = tcp_run_best(r, probe, best, 32);
	const char *metric = primary_metric(r, probe, &hib);
	if (n > 0) {
		snprintf(b, sizeof(b), "Best point%s of %s (%s is better)%s:", n > 1 ? "s" : "", metric,
			 hib ? "higher" : "lower", n > 1 ? ", one per value of the kind axis" : "");
		para(o, html, b);
		tab_begin(o, html, h, 7);
		for (int i = 0; i < n; i++) {
			c[0] = best[i].axes;
			c[1] = fmt_num(best[i].median, cell[1], sizeof(cell[1]), "%.6g");
			c[2] = best[i].unit;
			c[3] = fmt_num(best[i].spread_pct, cell[3], sizeof(cell[3]), "%.3g");
			c[4] = fmt_num(best[i].pct_peak, cell[4], sizeof(cell[4]), "%.2f");
			c[5] = fmt_num(best[i].peak, cell[5], sizeof(cell[5]), "%.6g");
			c[6] = fmt_num(best[i].clock_mhz, cell[6], sizeof(cell[6]), "%.0f");
			tab_row(o, html, c, 7);
		}
		tab_end(o, html);
	} else {
		para(o, html, "No OK point: nothing measured.");
	}
	problems(o, html, r, probe);
}

/* Bytes of a whole file, NULL when unreadable (or larger than 64 MiB). */
static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	long sz;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (sz = ftell(f)) > 0 && sz < (64l << 20) &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)sz))) {
		if (fread(buf, 1, (size_t)sz, f) != (size_t)sz) {
			free(buf);
			buf = NULL;
		} else {
			*n = (size_t)sz;
		}
	}
	fclose(f);
	return buf;
}

static int file_exists(const char *dir, const char *stem, const char *ext)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s.%s", dir, stem, ext);
	return access(path, R_OK) == 0;
}

static void plot_section(struct out *o, int html, const char *dir, int i, const tcp_plot_state_t *st)
{
	char title[256], id[64], path[4096], b[1024];
	const char *stem = tcp_plot_stem(i);

	snprintf(title, sizeof(title), "%d. %s", i + 1, tcp_plot_title(i));
	snprintf(id, sizeof(id), "plot-%s", stem);
	heading(o, html, 3, title, id);
	if (!st[i].has_data) {
		snprintf(b, sizeof(b), "Not drawn: %s.", st[i].note);
		para(o, html, b);
		return;
	}
	int png = file_exists(dir, stem, "png"), svg = file_exists(dir, stem, "svg");
	if (!png && !svg) {
		snprintf(b, sizeof(b), "The run has the data (%s) but the plot is not rendered: run "
			 "`make plots RUN=%s`.", st[i].note, dir);
		para(o, html, b);
		return;
	}
	if (!html) {
		outf(o, "![");
		put_md(o, tcp_plot_title(i));
		outf(o, "](%s.%s)\n\n", stem, svg ? "svg" : "png");
		outf(o, "Data: ");
		put_md(o, st[i].note);
		outf(o, ".%s%s%s%s\n\n", svg ? " [SVG](" : "", svg ? stem : "", svg ? ".svg)" : "",
		     png ? "" : "");
		if (png)
			outf(o, "[PNG](%s.png)\n\n", stem);
		return;
	}
	size_t n = 0;
	unsigned char *bytes = NULL;
	snprintf(path, sizeof(path), "%s/%s.png", dir, stem);
	if (png && (bytes = slurp(path, &n))) {
		char *b64 = malloc(4 * ((n + 2) / 3) + 1);
		if (b64) {
			tcp_base64(bytes, n, b64);
			outf(o, "<figure><img alt=\"");
			put_html(o, tcp_plot_title(i));
			outf(o, "\" src=\"data:image/png;base64,%s\"><figcaption>", b64);
			put_html(o, st[i].note);
			outf(o, "</figcaption></figure>\n");
			free(b64);
		}
		free(bytes);
	} else {
		outf(o, "<p>PNG not rendered; the SVG is next to this report: ");
		put_html(o, stem);
		outf(o, ".svg</p>\n");
	}
}

/* Slug of a heading as GitHub renders it: lower case, spaces to '-', punctuation dropped. */
static void slug(const char *text, char *buf, size_t len)
{
	size_t n = 0;

	for (; *text && n + 1 < len; text++) {
		unsigned char c = (unsigned char)*text;
		if (isalnum(c) || c == '_' || c == '-')
			buf[n++] = (char)tolower(c);
		else if (c == ' ')
			buf[n++] = '-';
	}
	buf[n] = 0;
}

/* One line of links: provenance, status, each probe, each plot. */
static void contents(struct out *o, int html, const tcp_run_t *r, int timers)
{
	char id[300], text[300];

	outf(o, html ? "<p>Contents: <a href=\"#provenance\">provenance</a> | <a href=\"#status\">status</a> | probes:"
		     : "Contents: [provenance](#provenance) | [status](#points-per-probe-and-status) | probes:");
	for (int i = 0; i < r->nprobes; i++) {
		if (html) {
			outf(o, " <a href=\"#probe-");
			put_html(o, r->probes[i]);
			outf(o, "\">");
			put_html(o, r->probes[i]);
			outf(o, "</a>");
		} else {
			slug(r->probes[i], id, sizeof(id));
			outf(o, " [%s](#%s)", r->probes[i], id);
		}
	}
	if (timers)
		outf(o, html ? " | <a href=\"#timers\">kernel timers</a>" : " | [kernel timers](#kernel-timers---timer-cupti)");
	outf(o, " | plots:");
	for (int i = 0; i < TCP_NPLOTS; i++) {
		if (html) {
			outf(o, " <a href=\"#plot-%s\">%d</a>", tcp_plot_stem(i), i + 1);
		} else {
			snprintf(text, sizeof(text), "%d. %s", i + 1, tcp_plot_title(i));
			slug(text, id, sizeof(id));
			outf(o, " [%d](#%s)", i + 1, id);
		}
	}
	outf(o, html ? "</p>\n" : "\n\n");
}

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
static int timer_csv(const tcp_timer_row_t *t, int n, const char *dir, char *err, size_t len)
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
	c[0] = fmt_num(q.median, cell[0], 32, "%.4g");
	c[1] = fmt_num(q.min, cell[1], 32, "%.4g");
	c[2] = fmt_num(q.max, cell[2], 32, "%.4g");
}

/*
 *  timer_section()
 *	What --timer cupti adds, next to the probes' own clocks: the Activity
 *	span against the profiler's gpu__time_duration (per probe), calib's
 *	three spans of one spin kernel, each timed-loop probe's share of the
 *	CUPTI span, and the span's spread over reps.  Written only when the
 *	run has cupti_kernel_ns rows (t, n from tcp_report_timers).
 */
static void timer_section(struct out *o, int html, const tcp_run_t *r, const char *dir,
			  const tcp_timer_row_t *t, int n)
{
	const char *c[8];
	char b[1024], cell[8][32];
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
	heading(o, html, 2, "Kernel timers (--timer cupti)", "timers");
	snprintf(b, sizeof(b), "%d points carry cupti_kernel_ns, the CUPTI Activity API's span (first GPU start "
		 "to last GPU end) of the kernels one timed run() launched, next to the profiler's "
		 "cupti/gpu__time_duration.sum of the counter pass and the probes' own clock64 / %%globaltimer "
		 "timing. Per point: %s/timer-compare.csv (written by tcprobe report).", n, dir);
	para(o, html, b);
	para(o, html, "Caution: event-based metrics of a --timer cupti run (event_ns, launch_overhead_ns) are not "
		 "comparable with those of an events run: the Activity API instruments the host launch path "
		 "(on the H200, calib's cudaEvent span grew from ~58 to 277 us).");

	para(o, html, "Activity span / profiler gpu__time_duration (same kernels, counter pass replayed):");
	{
		static const char *const h[] = { "probe", "points", "median", "min", "max" };
		int any = 0;
		for (int i = 0; i < np; i++) {
			tcp_stats_t q = timer_q(t, n, probes[i], offsetof(tcp_timer_row_t, activity_over_profiler), 0, v);
			if (!q.n)
				continue;
			if (!any++)
				tab_begin(o, html, h, 5);
			c[0] = probes[i];
			snprintf(cell[7], sizeof(cell[7]), "%d", q.n);
			c[1] = cell[7];
			stats_cells(q, cell, c + 2);
			tab_row(o, html, c, 5);
		}
		if (any)
			tab_end(o, html);
		else
			para(o, html, "No point has a positive cupti/gpu__time_duration.sum (run with --counters default).");
	}

	{
		static const char *const h[] = { "point", "in-kernel ns", "CUPTI ns", "event ns",
						 "CUPTI - in-kernel ns", "event - CUPTI ns" };
		int any = 0;
		for (int i = 0; i < n; i++) {
			if (strcmp(t[i].probe, "calib") || !isfinite(t[i].inkernel_ns))
				continue;
			if (!any++) {
				para(o, html, "calib (one spin kernel): in-kernel %globaltimer span vs CUPTI span vs "
					 "cudaEvent span:");
				tab_begin(o, html, h, 6);
			}
			c[0] = t[i].axes;
			c[1] = fmt_num(t[i].inkernel_ns, cell[0], 32, "%.0f");
			c[2] = fmt_num(t[i].cupti_ns, cell[1], 32, "%.0f");
			c[3] = fmt_num(t[i].event_ns, cell[2], 32, "%.0f");
			c[4] = fmt_num(t[i].outside_ns, cell[3], 32, "%.0f");
			c[5] = fmt_num(t[i].event_ns - t[i].cupti_ns, cell[4], 32, "%.0f");
			tab_row(o, html, c, 6);
		}
		if (any)
			tab_end(o, html);
	}

	for (int i = 0; i < np; i++) {
		static const char *const h[] = { "quantity", "median", "min", "max" };
		static const struct {
			const char *name;
			size_t off;
		} rows[] = {
			{ "share %", offsetof(tcp_timer_row_t, inkernel_share_pct) },
			{ "outside loop, ns", offsetof(tcp_timer_row_t, outside_ns) },
			{ "CUPTI span, ns", offsetof(tcp_timer_row_t, cupti_ns) },
		};
		if (!strcmp(probes[i], "calib"))
			continue;
		tcp_stats_t q = timer_q(t, n, probes[i], offsetof(tcp_timer_row_t, inkernel_ns), 1, v);
		if (!q.n)
			continue;
		snprintf(b, sizeof(b), "%s: timed loop (cycles / sm_clock_mhz) as a share of the CUPTI kernel "
			 "span, %d points:", probes[i], q.n);
		para(o, html, b);
		tab_begin(o, html, h, 4);
		for (int k = 0; k < 3; k++) {
			c[0] = rows[k].name;
			stats_cells(timer_q(t, n, probes[i], rows[k].off, 1, v), cell, c + 1);
			tab_row(o, html, c, 4);
		}
		tab_end(o, html);
	}

	tcp_stats_t q = timer_q(t, n, NULL, offsetof(tcp_timer_row_t, spread_pct), 0, v);
	if (q.n) {
		char s[3][32];
		const char *sc[3];
		stats_cells(q, s, sc);
		snprintf(b, sizeof(b), "CUPTI span spread over reps, (max - min) / median, %%: median %s, min %s, "
			 "max %s (%d points).", sc[0], sc[1], sc[2], q.n);
		para(o, html, b);
	}
	free(v);
	free(probes);
}

static const char *const prov_headline[] = {
	"gpu_name", "driver_version", "cuda_runtime_version", "cuda_toolkit_version", "sm_count",
	"sm_clock_max_mhz", "tcprobe_version", "git_commit", "started_utc", "finished_utc", NULL
};

static void write_doc(struct out *o, int html, const tcp_run_t *r, const char *dir,
		      const tcp_plot_state_t *st, const tcp_timer_row_t *timers, int ntimers)
{
	const char *run_id = strrchr(dir, '/') && strrchr(dir, '/')[1] ? strrchr(dir, '/') + 1 : dir;
	char b[1024];

	if (html) {
		outf(o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		     "<link rel=\"icon\" href=\"data:,\">\n<title>tcprobe report: ");
		put_html(o, run_id);
		outf(o, "</title>\n<style>\n"
		     "body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}\n"
		     "table{border-collapse:collapse;margin:.5em 0 1em}\n"
		     "th,td{border:1px solid #bbb;padding:2px 8px;text-align:left;font-size:90%%}\n"
		     "th{background:#eee}\nimg{max-width:100%%;border:1px solid #ddd}\n"
		     "figcaption{font-size:85%%;color:#555}\nul.bad li{color:#a00}\n"
		     "code{background:#f4f4f4}\n</style>\n</head>\n<body>\n");
	}
	snprintf(b, sizeof(b), "tcprobe report: %s", run_id);
	heading(o, html, 1, b, "top");
	const char *gpu = tcp_run_prov(r, "gpu_name"), *drv = tcp_run_prov(r, "driver_version");
	snprintf(b, sizeof(b), "%d points on %s (driver %s). Generated by `tcprobe report` from "
		 "measurements.csv and provenance.csv; plots by `make plots RUN=%s`.%s", r->npoints,
		 gpu ? gpu : "an unrecorded GPU", drv ? drv : "unrecorded", dir,
		 r->torn_tail ? " measurements.csv ended in a torn line (a killed sweep): it was dropped." : "");
	para(o, html, b);
	contents(o, html, r, ntimers > 0);

	heading(o, html, 2, "Provenance", "provenance");
	if (!r->has_prov) {
		para(o, html, "No provenance.csv in this run directory.");
	} else {
		static const char *const h[] = { "key", "value" };
		const char *c[2];
		tab_begin(o, html, h, 2);
		for (int i = 0; prov_headline[i]; i++)	/* headline keys first, then the rest */
			if ((c[1] = tcp_run_prov(r, prov_headline[i]))) {
				c[0] = prov_headline[i];
				tab_row(o, html, c, 2);
			}
		for (int i = 0; (c[0] = tcp_run_prov_key(r, i)); i++) {
			c[1] = tcp_run_prov_value(r, i);
			if (!in_list(c[0], prov_headline))
				tab_row(o, html, c, 2);
		}
		tab_end(o, html);
	}

	heading(o, html, 2, "Points per probe and status", "status");
	status_table(o, html, r);

	heading(o, html, 2, "Probes", "probes");
	for (int i = 0; i < r->nprobes; i++)
		probe_section(o, html, r, r->probes[i]);

	if (ntimers > 0)
		timer_section(o, html, r, dir, timers, ntimers);

	heading(o, html, 2, "Plots", "plots");
	for (int i = 0; i < TCP_NPLOTS; i++)
		plot_section(o, html, dir, i, st);
	if (html)
		outf(o, "</body>\n</html>\n");
}

int tcp_report_write(const tcp_run_t *r, const char *dir, const tcp_plot_state_t st[TCP_NPLOTS],
		     char *err, size_t len)
{
	struct out o;
	tcp_timer_row_t *t;
	int nt = tcp_report_timers(r, &t), rc = -1;

	if (nt < 0) {
		snprintf(err, len, "%s: out of memory", dir);
		return -1;
	}
	if (nt > 0 && timer_csv(t, nt, dir, err, len))
		goto done;
	if (out_open(&o, dir, "report", "md", err, len))
		goto done;
	write_doc(&o, 0, r, dir, st, t, nt);
	if (out_close(&o, dir, "report", "md", err, len) || out_open(&o, dir, "report", "html", err, len))
		goto done;
	write_doc(&o, 1, r, dir, st, t, nt);
	rc = out_close(&o, dir, "report", "html", err, len);
done:
	free(t);
	return rc;
}
