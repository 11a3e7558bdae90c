/*
 * report-plots.c
 *	The plots of `tcprobe report`: one table, one entry per plot (its stem,
 *	which names plots/<stem>.gp, its title, the probes and metrics that feed
 *	it, one image or one per panel, how its data is extracted), walked by
 *	tcp_report_extract().  Adding a plot is an entry in plots[] and its .gp
 *	file.  compare-ratio's data: report-compare-plot.c.
 *
 *	Every number a plot shows is extracted from the run at plot time;
 *	published peaks and MMA-K come from model/kinds.h only, the B300 K=96
 *	estimate from model/published-b300.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/analyze/report-int.h"
#include "harness/store/infile.h"
#include "harness/measure/stats.h"
#include "model/kinds.h"
#include "model/published-b300.h"
#include "model/tmem-plan.h"
#include "model/tmem.h"

#define MAX_SERIES_PER_PANEL 12		/* beyond this a plot stops being readable */
#define SAT_FRACTION 0.05		/* saturating depth: fit within 5% of its asymptote */

static int probe_in(const char *probe, const char *const *list)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(probe, list[i]))
			return 1;
	return 0;
}

/*
 * Probe names per role, one table: the Hopper (wgmma) probes and the
 * tcgen05 probes.  A run lacking a probe leaves its plot empty
 * and the report says so.
 */
static const char *const tput_probes[] = { "wgmma_tput", "tc_mma_tput", NULL };
static const char *const lat_probes[] = { "wgmma_lat", "tc_mma_lat", NULL };
static const char *const ii_probes[] = { "tc_mma_ii", NULL };
static const char *const tmem_probes[] = { "tc_ldst", "tc_cp", NULL };
static const char *const rate_metrics[] = { "flop_per_clk_sm", NULL };
static const char *const lat_metrics[] = { "cycles_per_mma", "latency_cycles", NULL };
static const char *const ii_metrics[] = { "cycles_per_mma", "ii_cycles", NULL };
static const char *const tmem_metrics[] = { "reg_bytes_per_clk_sm", "bytes_per_clk_sm", "tmem_bytes_per_clk_sm",
					       NULL };

enum { FIT_NONE, FIT_LINEAR, FIT_INVERSE };

struct plot_ctx {
	const tcp_run_t *run;
	const char *dir;		/* where the data files go; NULL: only decide has_data */
	const char *compare_csv;	/* a `tcprobe compare --csv` file, or NULL */
	const char *baseline;		/* the BASE the report joined into compare_csv itself, or NULL */
};

/*
 * One plot: plots/<stem>.gp draws RUN_DIR/<stem>.png and .svg from <stem>.dat
 * and <stem>.gpvars, which extract() writes, or, for a plot of one image per
 * panel, RUN_DIR/<image>.png and .svg per image its state names.  An x-vs-y
 * plot (extract = plot_xy) is split into panels (probe + panel axes) and
 * series (all other axes).
 */
struct plot_spec {
	const char *stem, *title;
	const char *const *probes;	/* the probes feeding it; NULL: the model or a file */
	const char *const *metrics;	/* their metric, the first one a point has */
	const char *const *x;		/* x-vs-y: x axis names tried in order */
	const char *xlabel;
	const char *const *panel_axes;
	int fit;
	int per_panel;			/* 1: one image per panel (tcp_plot_state_t.image), else one */
	int peak;			/* 1: the published peak of the panel's kind as a line */
	int measured;			/* K/4 plots: 1 with the run's measured rates */
	const char *footnote;		/* what in the plot is published or a model, and its source */
	int (*extract)(const struct plot_ctx *c, const struct plot_spec *sp, tcp_plot_state_t *st,
		       char *err, size_t len);
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
	double fbrk, fa2, fb2, fr22;	/* FIT_LINEAR in two segments: the second, from x = fbrk (0: one line) */
	double fx0[2], fx1[2];		/* FIT_LINEAR: each segment's x range */
	int fn[2];			/* ... and its points (0: not fitted) */
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
static int xy_collect(const tcp_run_t *r, const struct plot_spec *sp, struct xy *d)
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
			if (rpt_in_list(p->an[a], sp->panel_axes)) {
				kv_cat(pkey, sizeof(pkey), ";", p->an[a], p->av[a]);
				kv_cat(ptitle, sizeof(ptitle), " ", p->an[a], p->av[a]);
			}
		for (int a = 0; a < p->naxes; a++)
			if (strcmp(p->an[a], xname) && !rpt_in_list(p->an[a], sp->panel_axes))
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
		pn->kind = rpt_point_kind(p);
		pn->gen = rpt_point_gen(r, p);
		if (sp->peak && rpt_is_flop_rate(m->unit))
			pn->peak = rpt_published_peak(rpt_point_kind(p), rpt_point_gen(r, p));
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
static void xy_retitle(struct xy *d, const struct plot_spec *sp)
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
				if (!strcmp(an, xname) || rpt_in_list(an, sp->panel_axes))
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
static void xy_finish(struct xy *d, const struct plot_spec *sp)
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
		if (sp->fit == FIT_LINEAR) {
			rpt_fit_t f;		/* the summary's fit (report-summary.c): none, one line or two */
			if (rpt_fit_lines(s->x, s->y, s->n, &f))
				continue;	/* too few points: drawn, not fitted */
			for (int g = 0; g < f.pieces; g++) {
				s->fx0[g] = f.x0[g];
				s->fx1[g] = f.x1[g];
				for (int k = 0; k < s->n; k++)
					s->fn[g] += s->x[k] >= f.x0[g] && s->x[k] <= f.x1[g];
			}
			s->fa = f.sa[0];
			s->fb = f.sb[0];
			s->fr2 = f.sr2[0];
			if (f.pieces == 2) {
				s->fbrk = f.x0[1];
				s->fa2 = f.sa[1];
				s->fb2 = f.sb[1];
				s->fr22 = f.sr2[1];
			}
		}
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
static int xy_write(const struct xy *d, const struct plot_spec *sp, const char *dir, const char *stem,
		    const char *ylabel, char *err, size_t len)
{
	struct out o;
	char b1[512], b2[512];
	int ns = 0, first[512], last[512];

	if (rpt_open(&o, dir, stem, "dat", err, len))
		return -1;
	rpt_outf(&o, "# %s: generated by tcprobe report --extract from measurements.csv\n", stem);
	for (int p = 0; p < d->np && p < 512; p++) {
		first[p] = ns + 1;
		for (int i = 0; i < d->ns; i++) {
			const struct series *s = &d->s[i];
			if (s->panel != p || !s->keep)
				continue;
			rpt_outf(&o, "%s# series %d: %s\n", ns ? "\n\n" : "", ns + 1, s->title);
			rpt_outf(&o, "x\txlabel\tmedian\tlo\thi\n");
			for (int k = 0; k < s->n; k++)
				rpt_outf(&o, "%.17g\t%s\t%.17g\t%.17g\t%.17g\n", s->x[k],
				     rpt_tq(s->xlab[k], b1, sizeof(b1)), s->y[k], s->lo[k], s->hi[k]);
			ns++;
		}
		last[p] = ns;
	}
	if (rpt_close(&o, dir, stem, "dat", err, len) || rpt_open(&o, dir, stem, "gpvars", err, len))
		return -1;
	rpt_outf(&o, "# %s: generated by tcprobe report --extract\n", stem);
	rpt_outf(&o, "NP = %d\nNS = %d\ncategorical = %d\n", d->np, ns, d->categorical);
	rpt_outf(&o, "xlabel = \"%s\"\n", rpt_gq(sp->xlabel, b1, sizeof(b1)));
	rpt_outf(&o, "ylabel = \"%s\"\n", rpt_gq(ylabel, b1, sizeof(b1)));
	rpt_outf(&o, "array ptitle[%d]\narray pfirst[%d]\narray plast[%d]\narray ppeak[%d]\n"
	     "array pcat[%d]\narray pxlabel[%d]\narray pylabel[%d]\n", d->np, d->np, d->np, d->np, d->np,
	     d->np, d->np);
	rpt_outf(&o, "array stitle[%d]\narray fa[%d]\narray fb[%d]\narray fr2[%d]\narray fsat[%d]\n",
	     ns, ns, ns, ns, ns);
	rpt_outf(&o, "array fbrk[%d]\narray fa2[%d]\narray fb2[%d]\narray fr22[%d]\n", ns, ns, ns, ns);
	if (sp->fit == FIT_LINEAR)	/* each segment's own x range and points (fn 0: not fitted) */
		rpt_outf(&o, "array fx0[%d]\narray fx1[%d]\narray fn[%d]\narray fx2[%d]\narray fn2[%d]\n",
			 ns, ns, ns, ns, ns);
	for (int p = 0; p < d->np; p++) {
		const struct panel *pn = &d->pn[p];
		if (pn->omitted)
			snprintf(b2, sizeof(b2), "%s (%d more series in the CSV)", pn->title, pn->omitted);
		else
			snprintf(b2, sizeof(b2), "%s", pn->title);
		rpt_outf(&o, "ptitle[%d] = \"%s\"; pfirst[%d] = %d; plast[%d] = %d; ppeak[%d] = %.17g\n",
		     p + 1, rpt_gq(b2, b1, sizeof(b1)), p + 1, first[p], p + 1, last[p], p + 1,
		     isfinite(pn->peak) ? pn->peak : 0.0);
		rpt_outf(&o, "pcat[%d] = %d; pxlabel[%d] = \"%s\"\n", p + 1, pn->categorical, p + 1,
		     rpt_gq(pn->categorical || strcmp(pn->xname, sp->x[0]) ? pn->xname : sp->xlabel, b2, sizeof(b2)));
		snprintf(b2, sizeof(b2), "%s (%s), median; bar = spread", pn->metric, unit_or(pn->unit, "?"));
		rpt_outf(&o, "pylabel[%d] = \"%s\"\n", p + 1, rpt_gq(b2, b1, sizeof(b1)));
	}
	for (int p = 0, k = 0; p < d->np; p++)
		for (int i = 0; i < d->ns; i++) {
			const struct series *s = &d->s[i];
			if (s->panel != p || !s->keep)
				continue;
			k++;
			rpt_outf(&o, "stitle[%d] = \"%s\"; fa[%d] = %.17g; fb[%d] = %.17g; fr2[%d] = %.17g; fsat[%d] = %.17g\n",
			     k, rpt_gq(s->title, b1, sizeof(b1)), k, isfinite(s->fa) ? s->fa : 0.0, k,
			     isfinite(s->fb) ? s->fb : 0.0, k, isfinite(s->fr2) ? s->fr2 : 0.0, k,
			     isfinite(s->fsat) ? s->fsat : 0.0);
			rpt_outf(&o, "fbrk[%d] = %.17g; fa2[%d] = %.17g; fb2[%d] = %.17g; fr22[%d] = %.17g\n", k, s->fbrk,
				 k, s->fa2, k, s->fb2, k, s->fr22);
			if (sp->fit == FIT_LINEAR)
				rpt_outf(&o, "fx0[%d] = %.17g; fx1[%d] = %.17g; fn[%d] = %d; fx2[%d] = %.17g; fn2[%d] = %d\n",
					 k, s->fx0[0], k, s->fx1[0], k, s->fn[0], k, s->fx1[1], k, s->fn[1]);
		}
	if (d->categorical) {
		rpt_outf(&o, "NCAT = %d\narray xcat[%d]\n", d->ncats, d->ncats);
		for (int i = 0; i < d->ncats; i++)
			rpt_outf(&o, "xcat[%d] = \"%s\"\n", i + 1, rpt_gq(d->cats[i], b1, sizeof(b1)));
	}
	return rpt_close(&o, dir, stem, "gpvars", err, len);
}

int rpt_plot_image(tcp_plot_state_t *st, const char *stem, const char *slug, const char *title)
{
	char b[64];
	int n = snprintf(b, sizeof(b), "%s-", stem);

	if (st->nimages == TCP_PLOT_IMAGES_MAX || n < 0 || n >= (int)sizeof(b) - 1)
		return -1;
	for (const char *c = slug; *c && n < (int)sizeof(b) - 8; c++)
		b[n++] = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
			 *c == '_' || *c == '.' ? *c : '-';
	b[n] = 0;
	for (int k = 0; k < st->nimages; k++)
		if (!strcmp(st->image[k], b)) {
			snprintf(b + n, sizeof(b) - (size_t)n, "-%d", st->nimages + 1);
			break;
		}
	snprintf(st->image[st->nimages], sizeof(st->image[0]), "%s", b);
	snprintf(st->image_title[st->nimages], sizeof(st->image_title[0]), "%s", title);
	st->nimages++;
	return 0;
}

/* One image per panel: its slug is the probe and the panel axes' values
 * ("wgmma_tput-f16" of "wgmma_tput;kind=f16"); the number left out when
 * there are more panels than images. */
static int panel_images(const struct xy *d, const char *stem, tcp_plot_state_t *st)
{
	int left = 0;

	for (int p = 0; p < d->np; p++) {
		char slug[256];
		size_t n = 0;
		for (const char *c = d->pn[p].key; *c && n + 1 < sizeof(slug); c++) {
			if (*c == ';')
				slug[n++] = '-';
			else if (*c == '=')		/* drop the axis name: "kind=" */
				while (n && slug[n - 1] != '-')
					n--;
			else
				slug[n++] = *c;
		}
		slug[n] = 0;
		left += rpt_plot_image(st, stem, slug, d->pn[p].title) != 0;
	}
	return left;
}

/*
 *  plot_xy()
 *	Throughput, latency, II and TMEM plots: one generic x-vs-y extraction.
 */
static int plot_xy(const struct plot_ctx *c, const struct plot_spec *sp, tcp_plot_state_t *st,
		   char *err, size_t len)
{
	const tcp_run_t *r = c->run;
	const char *dir = c->dir, *stem = sp->stem;
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
	if (sp->per_panel) {
		int left = panel_images(&d, stem, st);
		snprintf(st->note, sizeof(st->note), "%d points in %d images, one per probe and %s, %d series, "
			 "from %s%s", pts, st->nimages, sp->panel_axes[0], d.ns, probes,
			 left ? "; more panels than images: the rest are in the .dat only" : "");
	} else {
		snprintf(st->note, sizeof(st->note), "%d points in %d panels x %d series, from %s", pts, d.np,
			 d.ns, probes);
	}
	if (dir)
		rc = xy_write(&d, sp, dir, stem, ylabel, err, len);
	xy_free(&d);
	return rc;
}

/* The accumulator is acc_bits wide (rpt_point_acc: the `acc` axis, else the
 * kind's default); acc_bits 0: any. */
static int acc_is(const tcp_run_point_t *p, int acc_bits)
{
	return !acc_bits || tcp_type_bits((tcp_type_t)rpt_point_acc(p)) == acc_bits;
}

/* Best OK median of flop_per_clk_sm over a probe's points of one kind (max)
 * whose enable_input_d is `eid` ("1": accumulate, which a point without the
 * axis does, e.g. every wgmma; "0": overwrite, no read of D) and whose
 * accumulator is acc_bits wide (0: any). */
static double best_rate(const tcp_run_t *r, const char *probe, int kind, const char **axes, const char *eid,
			int acc_bits)
{
	double best = NAN;

	for (int i = 0; i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		const tcp_run_row_t *m;
		const char *e = tcp_point_axis(p, "enable_input_d");
		if (strcmp(p->probe, probe) || p->status != TCP_OK || rpt_point_kind(p) != kind ||
		    strcmp(e ? e : "1", eid) || !acc_is(p, acc_bits) ||
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
 * a sparse form counts its logical K, up to 2x the dense rate), accumulator acc_bits
 * wide (0: any). */
static double best_warp_rate(const tcp_run_t *r, int kind, int acc_bits)
{
	double best = NAN;

	for (int i = 0; i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		const tcp_run_row_t *m;
		const char *sp = tcp_point_axis(p, "sparse");
		if ((strcmp(p->probe, "mma_sync") && strcmp(p->probe, "warp_mma")) || p->status != TCP_OK ||
		    rpt_point_kind(p) != kind || (sp && strcmp(sp, "0")) || !acc_is(p, acc_bits) ||
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

/* One row of the K/4 table: K and the accumulator width give the FLOP per
 * accumulator byte (K / 4 for 32 bits, K / 2 for 16: read and written once
 * per MMA); acc_bits 0 when the row has no accumulator columns (k4-identity). */
struct k4_row {
	const char *label, *gen, *kind, *source;	/* source: measured, published, estimate */
	int mma_k, acc_bits;
	double rate, peak, rate_overwrite;
};

static void k4_row(struct out *o, int *x, const struct k4_row *w, int measured, double hopper_f16)
{
	double fpb = w->mma_k / (w->acc_bits == 16 ? 2.0 : 4.0), acc = w->rate / fpb;
	int meas = !strcmp(w->source, "measured");

	rpt_outf(o, "%d\t%s\t%s\t%s\t%d\t%.17g\t%.17g\t%s\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g", (*x)++, w->label,
		 w->gen, w->kind, w->mma_k, fpb, w->rate, w->source, w->peak, acc, acc / hopper_f16,
		 meas ? w->rate : NAN, meas ? NAN : w->rate);
	/* measured: the overwrite columns (the write alone: half the read-and-write
	 * traffic the identity counts) and the accumulator width */
	if (measured)
		rpt_outf(o, "\t%.17g\t%.17g\t%d", w->rate_overwrite, w->rate_overwrite / fpb, w->acc_bits);
	rpt_outf(o, "\n");
}

/* What the K/4 rows of one plot add up to: the next x, rates measured,
 * overwrite rates, 16-bit accumulator bars, whether B300's K=96 was measured. */
struct k4_counts {
	int x, nmeas, nover, n16, b300_meas;
};

/* The wgmma and tcgen05 bars: per generation and kind its published peak,
 * or the best measured point per accumulator width (a 16-bit bar only where
 * measured). */
static void k4_tensor_rows(struct out *o, const tcp_run_t *r, int measured, double hopper_f16,
			   struct k4_counts *n)
{
	static const int gens[] = { 90, 100 };
	char b[128];

	for (int g = 0; g < 2; g++)
		for (int k = 0; k < TCP_KIND_COUNT; k++) {
			int kk = tcp_kind_k_gen((tcp_kind_t)k, (tcp_gen_t)gens[g]);
			double peak = rpt_published_peak(k, gens[g]);
			const char *probe = gens[g] == 90 ? "wgmma_tput" : "tc_mma_tput";
			if (kk <= 0 || isnan(peak))
				continue;
			snprintf(b, sizeof(b), "%s %s", gens[g] == 90 ? "wgmma" : "tcgen05", kind_label(k, gens[g]));
			struct k4_row w = { b, gens[g] == 90 ? "sm_90" : "sm_100", kind_label(k, gens[g]), "published",
					    kk, 32, peak, peak, NAN };
			for (int bits = 32; bits >= 16; bits -= 16) {
				double rate = measured ? best_rate(r, probe, k, NULL, "1", bits) : NAN;
				if (bits == 16 && isnan(rate))
					break;		/* a 16-bit bar only where measured */
				if (bits == 16) {
					snprintf(b, sizeof(b), "%s %s -> f16", gens[g] == 90 ? "wgmma" : "tcgen05",
						 kind_label(k, gens[g]));
					n->n16++;
				}
				w.acc_bits = bits;
				w.source = isfinite(rate) ? "measured" : "published";
				w.rate = isfinite(rate) ? rate : peak;
				w.rate_overwrite = measured && gens[g] == 100 ? best_rate(r, probe, k, NULL, "0", bits) : NAN;
				n->nmeas += isfinite(rate);
				n->nover += isfinite(w.rate_overwrite);
				k4_row(o, &n->x, &w, measured, hopper_f16);
			}
		}
}

/* The register-file accumulator family: warp-level MMA, measured points only. */
static void k4_warp_rows(struct out *o, const tcp_run_t *r, double hopper_f16, struct k4_counts *n)
{
	char b[128];

	for (int k = 0; k < TCP_KIND_COUNT; k++)
		for (int bits = 32; bits >= 16; bits -= 16) {
			int kk = tcp_kind_k((tcp_kind_t)k);
			double rate = best_warp_rate(r, k, bits);
			if (!isfinite(rate) || kk <= 0)
				continue;
			n->nmeas++;
			n->n16 += bits == 16;
			snprintf(b, sizeof(b), "mma.sync %s%s (registers)", kind_label(k, 90), bits == 16 ? " -> f16" : "");
			struct k4_row w = { b, "regfile", kind_label(k, 90), "measured", kk, bits, rate, NAN, NAN };
			k4_row(o, &n->x, &w, 1, hopper_f16);
		}
}

/* B300 (sm_103a), kind::mxf4nvf4 at K = 96: no per-SM figure is published, so
 * the rate is an estimate unless tc_mma_k96 measured it: NVIDIA, "Inside
 * NVIDIA Blackwell Ultra" (technical blog, 2025): 15 PFLOPS dense NVFP4 =
 * 1.5 x B200's 10.  Per SM per clock: 1.5 x B200's 32768 = 49152, i.e. B200's
 * 148 SMs at the ~2.06 GHz its 10 PFLOPS implies (docs/b200-predictions.md "B300 /
 * GB300"); the K/4 identity then gives 2048 B/clk/SM. */
static void k4_b300_row(struct out *o, const tcp_run_t *r, int measured, double hopper_f16, struct k4_counts *n)
{
	const double b300 = tcp_b300_k96_flop_clk_sm();
	double rate = measured ? best_rate(r, "tc_mma_k96", TCP_KIND_MXF4NVF4, NULL, "1", 32) : NAN;

	n->nmeas += n->b300_meas = isfinite(rate);
	struct k4_row w = { "B300 mxf4nvf4 K=96", "sm_103", "mxf4nvf4", isfinite(rate) ? "measured" : "estimate",
			    TCP_B300_K96_MMA_K, 32, isfinite(rate) ? rate : b300, b300, NAN };
	k4_row(o, &n->x, &w, measured, hopper_f16);
}

/* The plot's footnote (the B300 figure's derivation: footer.gnuplot wraps
 * it) and its note. */
static void k4_state(tcp_plot_state_t *st, int measured, const struct k4_counts *n)
{
	size_t fl = strlen(st->footnote);

	st->has_data = 1;
	snprintf(st->footnote + fl, sizeof(st->footnote) - fl, "%sB300 K=96 rate: an ESTIMATE, no per-SM figure "
		 "is published: NVIDIA 'Inside Blackwell Ultra' 15 vs 10 PFLOPS NVFP4 -> 1.5 x B200's %.0f = %.0f "
		 "FLOP/clk/SM (assumes B200's 148 SMs at ~2.06 GHz); K=96 from CUTLASS SM103", fl ? "; " : "",
		 tcp_kind_flop_clk_sm(TCP_KIND_MXF4NVF4, TCP_GEN_SM100), tcp_b300_k96_flop_clk_sm());
	if (measured)
		snprintf(st->note, sizeof(st->note), "%d rates measured in this run (wgmma_tput / "
			 "tc_mma_tput best points per accumulator width, warp-level MMA as register-file rows), "
			 "the other kinds at the published peak (model/kinds.h)%s", n->nmeas,
			 n->b300_meas ? "" : ", B300 K=96 an estimate");
	else
		snprintf(st->note, sizeof(st->note), "MMA-K per kind from model/kinds.h (PTX ISA)");
}

/*
 *  plot_k4()
 *	FLOP per accumulator byte = 2MNK / (2 MN 4 B) = K/4: an MxN fp32 (or
 *	s32) accumulator is read and written once per MMA.  K per kind and
 *	generation, and the published peak, from model/kinds.h.  With measured
 *	rates (acc-bandwidth): each kind's bar is its best point with a 32-bit
 *	accumulator, the premise of K/4; a 16-bit accumulator (f16) moves half
 *	the bytes, K/2 FLOP per byte, and is a bar of its own where measured.
 */
static int plot_k4(const struct plot_ctx *c, const struct plot_spec *sp, tcp_plot_state_t *st,
		   char *err, size_t len)
{
	const tcp_run_t *r = c->run;
	const char *dir = c->dir;
	int measured = sp->measured && r;
	const char *stem = sp->stem;
	double hopper_f16 = tcp_kind_flop_clk_sm(TCP_KIND_F16, TCP_GEN_SM90) / (tcp_kind_k(TCP_KIND_F16) / 4.0);
	struct out o;
	struct k4_counts n = { 0 };

	if (rpt_open(&o, dir, stem, "dat", err, len))
		return -1;
	rpt_outf(&o, "# %s: MMA-K and published peaks from model/kinds.h%s\n", stem,
	     measured ? "; measured rates from measurements.csv" : "");
	/* measured: the overwrite columns too (enable_input_d = 0: the same
	 * shape with no read of D; NAN where the run has no such point) */
	rpt_outf(&o, "x\tlabel\tgen\tkind\tmma_k\tflop_per_acc_byte\trate\tsource\tpeak\tacc_bw\tacc_x_hopper\tmeasured\tpublished%s\n",
		 measured ? "\trate_overwrite\tacc_bw_overwrite\tacc_bits" : "");
	k4_tensor_rows(&o, r, measured, hopper_f16, &n);
	if (measured)
		k4_warp_rows(&o, r, hopper_f16, &n);
	k4_b300_row(&o, r, measured, hopper_f16, &n);
	if (rpt_close(&o, dir, stem, "dat", err, len) || rpt_open(&o, dir, stem, "gpvars", err, len))
		return -1;
	rpt_outf(&o, "hopper_f16_acc_bw = %.17g\nnmeasured = %d\n", hopper_f16, n.nmeas);
	if (measured)
		rpt_outf(&o, "noverwrite = %d\nnacc16 = %d\n", n.nover, n.n16);
	if (rpt_close(&o, dir, stem, "gpvars", err, len))
		return -1;
	k4_state(st, measured, &n);
	return 0;
}

/*
 *  plot_cross_gen()
 *	Per kind family: mma.sync (measured only: no published per-SM figure),
 *	wgmma and tcgen05 (measured, else the published peak).  Accumulator
 *	bytes per FLOP = 4 / K for a 32-bit accumulator.
 */
static int plot_cross_gen(const struct plot_ctx *c, const struct plot_spec *sp, tcp_plot_state_t *st,
		   char *err, size_t len)
{
	const tcp_run_t *r = c->run;
	const char *dir = c->dir;
	static const int kinds[] = { TCP_KIND_F16, TCP_KIND_TF32, TCP_KIND_F8F6F4, TCP_KIND_I8 };
	static const char *const fam[] = { "mma.sync", "wgmma", "tcgen05" };
	static const int gen[] = { 90, 90, 100 };
	struct out o;
	int nmeas = 0, nrows = 0;

	if (rpt_open(&o, dir, "cross-gen", "dat", err, len))
		return -1;
	rpt_outf(&o, "# cross-gen: measured rates from measurements.csv, peaks and K from model/kinds.h\n");
	rpt_outf(&o, "x\tlabel\tkind\tfamily\trate\tsource\tmma_k\tacc_bytes_per_flop\tacc_bw\tmeasured\tpublished\n");
	for (int ki = 0; ki < 4; ki++)
		for (int f = 0; f < 3; f++) {
			int k = kinds[ki], kk = tcp_kind_k_gen((tcp_kind_t)k, (tcp_gen_t)gen[f]);
			double rate = f == 0 ? best_warp_rate(r, k, 0) : best_rate(r, sp->probes[f], k, NULL, "1", 0);
			double peak = rpt_published_peak(k, gen[f]);
			int meas = isfinite(rate);
			if (!meas && (f == 0 || isnan(peak)))
				continue;
			if (kk <= 0)
				continue;
			nmeas += meas;
			if (!meas)
				rate = peak;
			rpt_outf(&o, "%d\t%s %s\t%s\t%s\t%.17g\t%s\t%d\t%.17g\t%.17g\t%.17g\t%.17g\n", ki * 4 + f,
			     fam[f], kind_label(k, gen[f]), kind_label(k, gen[f]), fam[f], rate,
			     meas ? "measured" : "published", kk, 4.0 / kk, rate * 4.0 / kk,
			     meas ? rate : NAN, meas ? NAN : rate);
			nrows++;
		}
	if (rpt_close(&o, dir, "cross-gen", "dat", err, len) || rpt_open(&o, dir, "cross-gen", "gpvars", err, len))
		return -1;
	rpt_outf(&o, "nmeasured = %d\nnrows = %d\n", nmeas, nrows);
	if (rpt_close(&o, dir, "cross-gen", "gpvars", err, len))
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
 *	report-compare-plot.c.
 */
static int plot_compare(const struct plot_ctx *c, const struct plot_spec *sp, tcp_plot_state_t *st,
		   char *err, size_t len)
{
	(void)sp;
	if (!c->compare_csv) {
		snprintf(st->note, sizeof(st->note), "no comparison given: run `tcprobe compare BASE_DIR "
			 "THIS_DIR --csv FILE`, then `tcprobe report THIS_DIR --compare FILE`");
		return 0;
	}
	return rpt_compare_plot(c->compare_csv, c->baseline, c->dir, st, err, len);
}

/*
 *  plot_tmem_budget()
 *	The model's TMEM planner (model/tmem-plan.h) over the standard tile
 *	grid, 128 x {64..256} (cta_group::1) and 256 x {64..256} (cta_group::2),
 *	1-3 accumulator stages, in two scenarios: dense f16 with A and B in
 *	shared memory, and block-scaled mxf8f6f4 with A (e4m3) and the scale
 *	factors in TMEM.  A model, not a measurement: the plot says so.
 */
static int plot_tmem_budget(const struct plot_ctx *c, const struct plot_spec *sp, tcp_plot_state_t *st,
		   char *err, size_t len)
{
	(void)sp;
	const char *dir = c->dir;
	static const unsigned ms[] = { 128, 256 }, ns[] = { 64, 128, 192, 256 };
	enum { A_K = 128, A_STAGES = 2, SF_BLOCK = 32, SF_K = 128, SF_STAGES = 2 };
	struct out o;
	char reason[256];
	int nbars = 0, nfit = 0;

	if (rpt_open(&o, dir, "tmem-budget", "dat", err, len))
		return -1;
	rpt_outf(&o, "# tmem-budget: columns per CTA from model/tmem-plan.h (a model, not a measurement)\n");
	for (int sc = 0; sc < 2; sc++) {
		rpt_outf(&o, "%s# scenario %d\nx\tlabel\taccumulator\ta_operand\tscale_a\tscale_b\ttotal\talloc\tfits\n",
		     sc ? "\n\n" : "", sc + 1);
		for (int mi = 0, x = 0; mi < 2; mi++)
			for (int ni = 0; ni < 4; ni++, x++)
				for (unsigned s = 1; s <= 3; s++) {
					tcp_tmem_req_t q;
					tcp_tmem_plan_t p;
					unsigned cols[4] = { 0 };
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
							cols[slot] = p.part[k].cols_rounded;
					}
					rpt_outf(&o, "%u\t%ux%u s%u\t%u\t%u\t%u\t%u\t%u\t%u\t%d\n", x * 4 + s - 1, ms[mi],
					     ns[ni], s, cols[0], cols[1], cols[2], cols[3], p.total, p.alloc, p.fits);
					nbars++;
					nfit += p.fits;
				}
	}
	if (rpt_close(&o, dir, "tmem-budget", "dat", err, len) ||
	    rpt_open(&o, dir, "tmem-budget", "gpvars", err, len))
		return -1;
	rpt_outf(&o, "tmem_cols = %d\n", TCP_TMEM_COLS);
	rpt_outf(&o, "sc1 = \"dense f16/bf16, A and B in shared memory: accumulator only (f32)\"\n");
	rpt_outf(&o, "sc2 = \"mxf8f6f4, A in TMEM (e4m3, %d K x %d buffers), scale factors (block %d, %d K x %d buffers)\"\n",
	     A_K, A_STAGES, SF_BLOCK, SF_K, SF_STAGES);
	if (rpt_close(&o, dir, "tmem-budget", "gpvars", err, len))
		return -1;
	st->has_data = 1;
	snprintf(st->note, sizeof(st->note), "the model's TMEM planner (model/tmem-plan.h), not a "
		 "measurement: %d of %d configurations fit in %d columns", nfit, nbars, TCP_TMEM_COLS);
	return 0;
}


/*
 *  plot_energy_trace()
 *	--sustain's trace.csv (t_s, sm_clock_mhz, power_w, temp_c, throttle,
 *	energy_mj), copied as energy-trace.dat for plots/energy-trace.gp
 */
static int plot_energy_trace(const struct plot_ctx *c, const struct plot_spec *sp, tcp_plot_state_t *st,
		   char *err, size_t len)
{
	(void)sp;
	const tcp_run_t *r = c->run;
	const char *dir = c->dir;
	char path[4200], line[512];
	FILE *in, *out = NULL;
	int rows = 0;
	double t = 0;

	snprintf(path, sizeof(path), "%s/trace.csv", r->dir);
	int fd = access(path, F_OK) == 0 ? tcp_infile_open(path, "trace", 0, err, len) : -1;
	if (fd < 0 && access(path, F_OK) == 0)
		return -1;	/* there, but a FIFO or device: never block on it */
	if (!(in = fd < 0 ? NULL : fdopen(fd, "r"))) {
		if (fd >= 0)
			close(fd);
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

/* ------------------------------------------------------------------ */
/* The plots, in report order                                          */
/* ------------------------------------------------------------------ */

static const char *const cross_probes[] = { "mma_sync", "wgmma_tput", "tc_mma_tput", NULL };	/* + warp_mma */
static const char *const energy_probes[] = { "wgmma_tput", "mma_sync", "tc_mma_tput", NULL };
static const char *const pj_metrics[] = { "pj_per_flop", NULL };
static const char *const held_metrics[] = { "tflops_energy", NULL };
static const char *const x_n[] = { "N", NULL }, *const x_d[] = { "D", "depth", NULL };
static const char *const x_num[] = { "num", "shape", NULL }, *const x_pat[] = { "pattern", NULL };
static const char *const panel_kind[] = { "kind", NULL }, *const panel_acc[] = { "acc", NULL };
static const char *const panel_op[] = { "op", "warpgroups", NULL };

/* The published and model parts of a plot, named with their source (its second footer line). */
#define FN_K "Model, not a measurement: MMA-K per kind from the PTX ISA (model/kinds.h)"
#define FN_PUBLISHED "Hatched bars and circles: PUBLISHED peaks, not measured here (NVIDIA datasheets; " \
	"CUTLASS media/docs/cpp/blackwell_functionality.md; model/kinds.h)"
#define FN_PUBLISHED_BARS "Hatched bars: PUBLISHED peaks, not measured here (NVIDIA datasheets; " \
	"CUTLASS media/docs/cpp/blackwell_functionality.md; model/kinds.h)"
#define FN_PEAK_LINE "Grey dashed line: the PUBLISHED dense peak (NVIDIA datasheets, model/kinds.h), not a measurement"
#define FN_TMEM_MODEL "Model, not a measurement: the TMEM planner model/tmem-plan.h (PTX ISA TMEM rules)"

static const struct plot_spec plots[] = {
	{ .stem = "k4-identity", .title = "K/4 identity: FLOP per accumulator byte per MMA kind",
	  .extract = plot_k4, .footnote = FN_K },		/* model/kinds.h */
	{ .stem = "acc-bandwidth", .title = "Math rate per kind and the implied accumulator bandwidth",
	  .probes = tput_probes, .metrics = rate_metrics, .measured = 1, .extract = plot_k4,
	  .footnote = FN_PUBLISHED },
	{ .stem = "tput-vs-n", .title = "MMA throughput vs N, one plot per kind, against the published peak",
	  .probes = tput_probes, .metrics = rate_metrics, .x = x_n, .xlabel = "N (columns of the MMA tile)",
	  .panel_axes = panel_kind, .fit = FIT_NONE, .per_panel = 1, .peak = 1, .extract = plot_xy,
	  .footnote = FN_PEAK_LINE },
	{ .stem = "lat-vs-n", .title = "MMA latency vs N, one plot per kind, fitted cycles = a + b N where 3 or more N "
	  "were measured (two lines where one does not fit)",
	  .probes = lat_probes, .metrics = lat_metrics, .x = x_n, .xlabel = "N (columns of the MMA tile)",
	  .panel_axes = panel_kind, .fit = FIT_LINEAR, .per_panel = 1, .extract = plot_xy },
	{ .stem = "ii-vs-depth", .title = "Initiation interval vs chain depth, fitted a + b / D",
	  .probes = ii_probes, .metrics = ii_metrics, .x = x_d, .xlabel = "chain depth D (MMAs in flight)",
	  .panel_axes = panel_kind, .fit = FIT_INVERSE, .extract = plot_xy },
	{ .stem = "tmem-bw", .title = "TMEM ld / st / cp bandwidth per shape and .num",
	  .probes = tmem_probes, .metrics = tmem_metrics, .x = x_num,
	  .xlabel = ".num (repetitions of the shape per instruction)", .panel_axes = panel_op,
	  .fit = FIT_NONE, .extract = plot_xy },
	{ .stem = "tmem-budget", .title = "TMEM budget of the standard tile grid vs the 512 columns",
	  .extract = plot_tmem_budget, .footnote = FN_TMEM_MODEL },	/* model/tmem-plan.h */
	{ .stem = "cross-gen", .title = "mma.sync -> wgmma -> tcgen05: rate and accumulator bytes per FLOP",
	  .probes = cross_probes, .metrics = rate_metrics, .extract = plot_cross_gen, .footnote = FN_PUBLISHED_BARS },
	{ .stem = "compare-ratio", .title = "Run-to-run / driver ratio of every compared row, one plot per probe, "
	  "and the rows only one run has",
	  .extract = plot_compare },		/* RUN_DIR/compare.csv or --compare FILE */
	{ .stem = "energy-pj-per-flop", .title = "Energy per FLOP (pJ) per kind and input pattern (--energy)",
	  .probes = energy_probes, .metrics = pj_metrics, .x = x_pat, .xlabel = "input pattern",
	  .panel_axes = panel_acc, .fit = FIT_NONE, .extract = plot_xy },
	{ .stem = "energy-pattern", .title = "TFLOP/s held over the energy window per input pattern (--energy)",
	  .probes = energy_probes, .metrics = held_metrics, .x = x_pat, .xlabel = "input pattern",
	  .panel_axes = panel_acc, .fit = FIT_NONE, .extract = plot_xy },
	{ .stem = "energy-trace", .title = "SM clock, power and temperature vs time of a sustained point (--sustain)",
	  .extract = plot_energy_trace },	/* RUN_DIR/trace.csv */
};
#define NPLOTS ((int)(sizeof(plots) / sizeof(plots[0])))
_Static_assert(sizeof(plots) / sizeof(plots[0]) <= TCP_PLOTS_MAX, "raise TCP_PLOTS_MAX (report.h)");

int tcp_nplots(void)
{
	return NPLOTS;
}

const char *tcp_plot_stem(int plot)
{
	return plot >= 0 && plot < NPLOTS ? plots[plot].stem : "?";
}

const char *tcp_plot_title(int plot)
{
	return plot >= 0 && plot < NPLOTS ? plots[plot].title : "?";
}

int tcp_plot_find(const char *stem)
{
	for (int i = 0; i < NPLOTS; i++)
		if (!strcmp(plots[i].stem, stem))
			return i;
	return -1;
}

/* One line per plot for scripts/plots.sh: stem, has_data, note, and the
 * plot's images, space-separated (empty: one image, <stem>). */
static int write_manifest(const char *dir, const tcp_plot_state_t *st, char *err, size_t len)
{
	struct out o;
	char b[512];

	if (rpt_open(&o, dir, "manifest", "tsv", err, len))
		return -1;
	for (int i = 0; i < NPLOTS; i++) {
		rpt_outf(&o, "%s\t%d\t%s\t", tcp_plot_stem(i), st[i].has_data, rpt_tq(st[i].note, b, sizeof(b)));
		for (int k = 0; st[i].has_data && k < st[i].nimages; k++)
			rpt_outf(&o, "%s%s", k ? " " : "", st[i].image[k]);
		rpt_outf(&o, "\n");
	}
	return rpt_close(&o, dir, "manifest", "tsv", err, len);
}

int tcp_report_extract(const tcp_run_t *r, const char *compare_csv, const char *dir,
		       tcp_plot_state_t st[TCP_PLOTS_MAX], char *err, size_t len)
{
	return tcp_report_extract_base(r, compare_csv, NULL, dir, st, err, len);
}

/*
 *  tcp_report_extract_base()
 *	The one extraction loop: every plot of the table, in order, decides
 *	whether the run has its data and writes its files; the first error
 *	stops it.
 */
int tcp_report_extract_base(const tcp_run_t *r, const char *compare_csv, const char *baseline, const char *dir,
			    tcp_plot_state_t st[TCP_PLOTS_MAX], char *err, size_t len)
{
	const struct plot_ctx c = { r, dir, compare_csv, baseline };
	int rc = 0;

	for (int i = 0; i < NPLOTS; i++) {
		st[i].has_data = 0;
		st[i].nimages = 0;
		st[i].note[0] = 0;
		snprintf(st[i].footnote, sizeof(st[i].footnote), "%s", plots[i].footnote ? plots[i].footnote : "");
	}
	for (int i = 0; i < NPLOTS && !rc; i++)
		rc = plots[i].extract(&c, &plots[i], &st[i], err, len);
	for (int i = 0; dir && !rc && i < NPLOTS; i++)
		if (st[i].has_data)
			rc = rpt_plot_footer(r, dir, i, &st[i], err, len);
	/* a plot without data leaves no stale files behind for the renderer */
	for (int i = 0; dir && !rc && i < NPLOTS; i++)
		if (!st[i].has_data) {
			st[i].nimages = 0;
			char path[4096];
			snprintf(path, sizeof(path), "%s/%s.dat", dir, tcp_plot_stem(i));
			unlink(path);
			snprintf(path, sizeof(path), "%s/%s.gpvars", dir, tcp_plot_stem(i));
			unlink(path);
			snprintf(path, sizeof(path), "%s/%s.svgmeta", dir, tcp_plot_stem(i));
			unlink(path);
		}
	if (dir && !rc)
		rc = write_manifest(dir, st, err, len);
	return rc ? -1 : 0;
}
