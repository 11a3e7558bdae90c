/*
 * report.c
 *	report.md and report.html of one run (tcp_report_write): a title, a
 *	contents line and the sections of sections[], each one function that
 *	writes both formats through report-doc.c, walked once per format.
 *	Adding a section is an entry in sections[].  Also the best points of a
 *	probe (tcp_run_best) and how the report reads a point's MMA kind and
 *	generation.  The plots: report-plots.c; the timer section:
 *	report-timers.c; the run itself: harness/store/run.h.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/analyze/report-int.h"
#include "harness/store/provenance.h"
#include "model/kinds.h"
#include "model/peaks.h"



/* The point's MMA kind (the run's `mma_kind`, run.h), -1 when none. */
int rpt_point_kind(const tcp_run_point_t *p)
{
	return p->mma_kind && *p->mma_kind ? tcp_kind_parse(p->mma_kind) : -1;
}

/* Generation of the target the point ran on (the run's `arch`, run.h). */
int rpt_point_gen(const tcp_run_t *r, const tcp_run_point_t *p)
{
	(void)r;
	return p->gen;
}

/* Lower is better for times, higher for everything else (rates, counts of work). */
static int unit_higher_is_better(const char *unit)
{
	return !(unit && (!strcmp(unit, "cycles") || !strcmp(unit, "ns") || !strcmp(unit, "us") ||
			  !strcmp(unit, "ms") || !strcmp(unit, "s")));
}

/*
 *  rpt_primary_metric()
 *	The metric a probe's table ranks by: flop_per_clk_sm when the probe
 *	reports it, else the first metric the run's probe declared (run.h),
 *	else the first non-counter metric the CSV holds for it.  *hib: 1 when
 *	higher is better.
 */
const char *rpt_primary_metric(const tcp_run_t *r, const char *probe, int *hib)
{
	const tcp_meta_t *d = tcp_run_first_metric(r, probe);

	/* a probe that reports a math rate is ranked by it, whatever it lists first */
	for (int i = 0; i < r->npoints; i++)
		if (!strcmp(r->points[i].probe, probe) && tcp_point_metric(&r->points[i], "flop_per_clk_sm")) {
			*hib = 1;
			return "flop_per_clk_sm";
		}
	if (d) {
		*hib = d->better > 0;
		return d->metric;
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

int rpt_point_acc(const tcp_run_point_t *p)
{
	int t = p->acc_type && *p->acc_type ? tcp_type_parse(p->acc_type) : -1;

	if (t >= 0)
		return t;
	return rpt_point_kind(p) == TCP_KIND_I8 ? TCP_T_S32 : TCP_T_F32;
}

/*
 *  metric_clock()
 *	Whether a metric is its point's SM clock, and which: the run's own
 *	metrics.csv first, else what its probe declared when the run was
 *	written (the probe's TCP_ROLE_CLOCK metric: harness/store/declared.h),
 *	else the harness's rows (the CUPTI clock row), as compare reads the
 *	roles (harness/store/metrics.h).
 */
static tcp_clock_src_t metric_clock(const tcp_run_t *r, const tcp_run_row_t *w)
{
	const tcp_meta_t *m = r->meta ? tcp_meta_find(r->meta, w->probe, w->metric) : NULL;
	tcp_meta_t e;

	if (m)
		return m->clock;
	if (!tcp_meta_counter_row(w->metric) && (m = tcp_run_declared_metric(r, w->probe, w->metric)))
		return m->clock;
	tcp_meta_from_harness(w->metric, w->unit, &e);
	return e.clock;
}

/* The point's clock row of source src, OK with a positive median; NULL none. */
static const tcp_run_row_t *clock_row(const tcp_run_t *r, const tcp_run_point_t *p, tcp_clock_src_t src)
{
	for (int k = 0; k < p->nm; k++) {
		const tcp_run_row_t *w = p->m[k];
		if (w->status == TCP_OK && isfinite(w->median) && w->median > 0 && metric_clock(r, w) == src)
			return w;
	}
	return NULL;
}

double rpt_point_clock(const tcp_run_t *r, const tcp_run_point_t *p, int *src)
{
	const tcp_run_row_t *w = clock_row(r, p, TCP_CLOCK_KERNEL);
	int s = RPT_CLK_KERNEL;

	if (!w) {
		w = clock_row(r, p, TCP_CLOCK_CUPTI);
		s = RPT_CLK_CUPTI;
	}
	if (src)
		*src = w ? s : isfinite(p->clock_mhz) ? RPT_CLK_NVML : RPT_CLK_NONE;
	return w ? w->median : p->clock_mhz;
}

double rpt_point_cupti_clock(const tcp_run_t *r, const tcp_run_point_t *p)
{
	const tcp_run_row_t *w = clock_row(r, p, TCP_CLOCK_CUPTI);

	return w ? w->median : NAN;
}

double rpt_point_nvml_off(const tcp_run_t *r, const tcp_run_point_t *p)
{
	int src;
	double c = rpt_point_clock(r, p, &src);

	if ((src != RPT_CLK_KERNEL && src != RPT_CLK_CUPTI) || !isfinite(p->clock_mhz) || !(c > 0))
		return NAN;
	return (p->clock_mhz - c) / c * 100.0;
}

const char *rpt_clock_src_name(int src)
{
	switch (src) {
	case RPT_CLK_KERNEL: return "in-kernel";
	case RPT_CLK_CUPTI: return "CUPTI";
	case RPT_CLK_NVML: return "NVML sampled";
	default: return "-";
	}
}

int rpt_point_sparse(const tcp_run_point_t *p)
{
	return p->sparse;
}

double rpt_point_peak(const tcp_run_t *r, const tcp_run_point_t *p, const char **src)
{
	const char *id = tcp_run_prov(r, "pci_device_id");
	const tcp_peak_chip_t *chip = tcp_peak_find(id ? (unsigned)strtoul(id, NULL, 16) : 0,
						    tcp_run_prov(r, "gpu_name"));
	int kind = rpt_point_kind(p), cls;
	double v = NAN;
	char why[160];

	if (src)
		*src = NULL;
	if (kind < 0)
		return NAN;
	cls = tcp_peak_class((tcp_kind_t)kind, TCP_T_COUNT, (tcp_type_t)rpt_point_acc(p));
	/* 2:4 structured sparsity: a sparse MMA does twice the logical FLOP of its dense
	 * form, and a datasheet's sparse figure is twice its dense one */
	double mul = rpt_point_sparse(p) ? 2.0 : 1.0;
	if (chip) {
		v = tcp_peak_rate(chip, cls, why, sizeof(why));
		if (src && isfinite(v))
			*src = chip->source;
		return v * mul;
	}
	v = rpt_published_peak(kind, rpt_point_gen(r, p));
	if (src && isfinite(v))
		*src = "model/kinds.h (per generation; this chip is not in model/peaks.c)";
	return v * mul;
}

double rpt_published_peak(int kind, int gen)
{
	if (kind < 0 || (gen != 90 && gen != 100))
		return NAN;
	double v = tcp_kind_flop_clk_sm((tcp_kind_t)kind, (tcp_gen_t)gen);
	return v > 0 ? v : NAN;
}

int rpt_is_flop_rate(const char *unit)
{
	return unit && !strcmp(unit, "FLOP/clk/SM");
}

double rpt_point_pct(const tcp_run_point_t *p, const tcp_run_row_t *m, double peak)
{
	const tcp_run_row_t *pp = tcp_point_metric(p, "pct_peak");

	if (rpt_point_sparse(p))	/* a probe's own figure holds a sparse form against the dense peak */
		return isfinite(peak) ? m->median / peak * 100.0 : NAN;
	if (pp && isfinite(pp->median))
		return pp->median;
	return isfinite(peak) ? m->median / peak * 100.0 : NAN;
}

static void best_fill(const tcp_run_t *r, const tcp_run_point_t *p, const tcp_run_row_t *m, tcp_best_t *b)
{
	b->axes = p->axes;
	b->metric = m->metric;
	b->unit = m->unit;
	b->median = m->median;
	b->spread_pct = m->spread_pct;
	b->clock_mhz = rpt_point_clock(r, p, &b->clock_src);
	b->nvml_mhz = p->clock_mhz;
	b->nvml_off_pct = rpt_point_nvml_off(r, p);
	b->peak = rpt_is_flop_rate(m->unit) ? rpt_point_peak(r, p, NULL) : NAN;
	b->pct_peak = rpt_point_pct(p, m, b->peak);
}

int tcp_run_best(const tcp_run_t *r, const char *probe, tcp_best_t *out, int max)
{
	int hib, n = 0;
	const char *metric = rpt_primary_metric(r, probe, &hib);
	char group[64][96];		/* the kind, acc and sparse axis values of out[i] ("" when none) */

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
		char g[96];
		const char *acc = tcp_point_axis(p, "acc"), *sp = tcp_point_axis(p, "sparse");
		kv = tcp_point_axis(p, "kind");
		snprintf(g, sizeof(g), "%s;%s;%s", kv ? kv : "", acc ? acc : "", sp ? sp : "");
		for (slot = 0; slot < n && strcmp(group[slot], g); slot++)
			;
		if (slot == n) {
			if (n == max)
				continue;
			snprintf(group[n++], sizeof(group[0]), "%s", g);
		} else if (hib ? m->median <= out[slot].median : m->median >= out[slot].median) {
			continue;
		}
		best_fill(r, p, m, &out[slot]);
	}
	return n;
}

/*
 *  status_table()
 *	Points per probe and status: the first thing a reviewer checks.
 */
static void status_table(struct out *o, int html, const tcp_run_t *r)
{
	/* BLOCKED (block.h) gets its column only in a run that has some */
	static const char *const h[] = { "probe", "arch", "points", "OK", "FAILED", "INVALID", "TIMEOUT",
					 "SKIPPED", "UNSUPPORTED", "BLOCKED" };
	static const tcp_status_t order[] = { TCP_OK, TCP_FAILED, TCP_INVALID, TCP_TIMEOUT, TCP_SKIPPED,
					      TCP_UNSUPPORTED, TCP_BLOCKED };
	char cell[10][64];
	const char *c[10];
	int tot[8] = { 0 }, nst = 6;

	for (int k = 0; k < r->npoints && nst == 6; k++)
		nst += r->points[k].status == TCP_BLOCKED;
	rpt_tab_begin(o, html, h, 3 + nst);
	for (int i = 0; i < r->nprobes; i++) {
		const char *probe = r->probes[i], *targets = "";
		int np = 0;
		for (int k = 0; k < r->npoints; k++)
			if (!strcmp(r->points[k].probe, probe)) {
				np++;
				targets = r->points[k].targets ? r->points[k].targets : "";
			}
		c[0] = probe;
		c[1] = targets;	/* the table's "arch" column: the probe's targets */
		snprintf(cell[2], sizeof(cell[2]), "%d", np);
		c[2] = cell[2];
		tot[0] += np;
		for (int s = 0; s < nst; s++) {
			int n = tcp_run_count(r, probe, order[s]);
			tot[s + 1] += n;
			snprintf(cell[3 + s], sizeof(cell[0]), "%d", n);
			c[3 + s] = cell[3 + s];
		}
		rpt_tab_row(o, html, c, 3 + nst);
	}
	c[0] = "all";
	c[1] = "";
	for (int s = 0; s < nst + 1; s++) {
		snprintf(cell[2 + s], sizeof(cell[0]), "%d", tot[s]);
		c[2 + s] = cell[2 + s];
	}
	rpt_tab_row(o, html, c, 3 + nst);
	rpt_tab_end(o, html);
	int other = r->npoints;
	for (int s = 0; s < nst; s++)
		other -= tot[s + 1];
	if (other > 0) {
		char b[160];
		snprintf(b, sizeof(b), "%d point(s) carry a status word this tcprobe does not know.", other);
		rpt_para(o, html, b);
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
			rpt_outf(o, html ? "<ul class=\"bad\">\n" : "");
		rpt_outf(o, html ? "<li>" : "- ");
		snprintf(b, sizeof(b), "%s %s: %s", p->status >= 0 ? tcp_status_name((tcp_status_t)p->status) : "?",
			 p->axes, p->reason && *p->reason ? p->reason : "(no reason recorded)");
		rpt_txt(o, html, b);
		rpt_outf(o, html ? "</li>\n" : "\n");
	}
	if (more) {
		snprintf(b, sizeof(b), "... and %d more (see measurements.csv)", more);
		rpt_outf(o, html ? "<li>" : "- ");
		rpt_txt(o, html, b);
		rpt_outf(o, html ? "</li>\n" : "\n");
	}
	if (shown)
		rpt_outf(o, html ? "</ul>\n" : "\n");
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
			rpt_outf(o, html ? "<ul class=\"skip\">\n" : "");
		snprintf(b, sizeof(b), "%d point%s %s: %s", g[k].n, g[k].n == 1 ? "" : "s",
			 tcp_status_name((tcp_status_t)g[k].status), g[k].reason);
		rpt_outf(o, html ? "<li>" : "- ");
		rpt_txt(o, html, b);
		rpt_outf(o, html ? "</li>\n" : "\n");
	}
	if (other) {
		snprintf(b, sizeof(b), "%d more skipped or unsupported point%s with other reasons "
			 "(see measurements.csv)", other, other == 1 ? "" : "s");
		rpt_outf(o, html ? "<li>" : "- ");
		rpt_txt(o, html, b);
		rpt_outf(o, html ? "</li>\n" : "\n");
	}
	if (ng)
		rpt_outf(o, html ? "</ul>\n" : "\n");
}

static void probe_section(struct out *o, int html, const tcp_run_t *r, const char *probe)
{
	static const char *const h[] = { "point", "median", "unit", "spread %", "% of peak",
					 "published peak", "SM MHz under load", "clock", "NVML MHz (sampled)" };
	tcp_best_t best[32];
	tcp_probe_info_t d;
	int described = !tcp_run_probe_info(r, probe, &d);
	char id[160], b[512], cell[9][96];
	const char *c[9];
	int hib, off = 0;

	snprintf(id, sizeof(id), "probe-%s", probe);
	rpt_heading(o, html, 3, probe, id);
	if (described && d.help)
		rpt_para(o, html, d.help);
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
	rpt_para(o, html, b);
	if (tcp_run_emulated(r)) {	/* the emulator's times are no measurement */
		rpt_para(o, html, "Emulated: OK points ran and matched their CPU reference; no time is reported.");
		problems(o, html, r, probe);
		return;
	}
	int n = tcp_run_best(r, probe, best, 32);
	const char *metric = rpt_primary_metric(r, probe, &hib);
	char finding[1024], fb[1100];
	if (rpt_probe_finding(r, probe, finding, sizeof(finding))) {
		snprintf(fb, sizeof(fb), "Finding: %s", finding);
		rpt_para(o, html, fb);
	}
	if (n > 0) {
		snprintf(b, sizeof(b), "Best point%s of %s (%s is better)%s:", n > 1 ? "s" : "", metric,
			 hib ? "higher" : "lower", n > 1 ? ", one per kind and accumulator" : "");
		rpt_para(o, html, b);
		rpt_tab_begin(o, html, h, 9);
		for (int i = 0; i < n; i++) {
			c[0] = best[i].axes;
			c[1] = rpt_num(best[i].median, cell[1], sizeof(cell[1]), "%.6g");
			c[2] = best[i].unit;
			c[3] = rpt_num(best[i].spread_pct, cell[3], sizeof(cell[3]), "%.3g");
			c[4] = rpt_num(best[i].pct_peak, cell[4], sizeof(cell[4]), "%.2f");
			c[5] = rpt_num(best[i].peak, cell[5], sizeof(cell[5]), "%.6g");
			c[6] = rpt_num(best[i].clock_mhz, cell[6], sizeof(cell[6]), "%.0f");
			c[7] = rpt_clock_src_name(best[i].clock_src);
			rpt_num(best[i].nvml_mhz, cell[8], sizeof(cell[8]), "%.0f");
			if (fabs(best[i].nvml_off_pct) > RPT_NVML_OFF_PCT) {	/* NaN: not flagged */
				snprintf(cell[8] + strlen(cell[8]), sizeof(cell[8]) - strlen(cell[8]), " (%+.1f%%)",
					 best[i].nvml_off_pct);
				off++;
			}
			c[8] = cell[8];
			rpt_tab_row(o, html, c, 9);
		}
		rpt_tab_end(o, html);
		if (off) {
			snprintf(b, sizeof(b), "NVML's sampled clock is more than %.0f%% off the point's measured clock "
				 "on %d of these points (the difference in brackets): NVML samples between kernels, "
				 "so the SM MHz column, measured while the kernel ran, is the clock to cite.",
				 RPT_NVML_OFF_PCT, off);
			rpt_para(o, html, b);
		}
	} else {
		rpt_para(o, html, "No OK point: nothing measured.");
	}
	problems(o, html, r, probe);
}

/* Height in pixels of a PNG (its IHDR), 0 when not a PNG. */
static unsigned png_height(const unsigned char *b, size_t n)
{
	if (n < 24 || memcmp(b, "\x89PNG\r\n\x1a\n", 8) || memcmp(b + 12, "IHDR", 4))
		return 0;
	return (unsigned)b[20] << 24 | (unsigned)b[21] << 16 | (unsigned)b[22] << 8 | b[23];
}

#define LARGE_PLOT_PX 900	/* a plot this tall prints on a page of its own */

/* A plot drawn one image per panel: the note once, then each image with what it shows. */
static void plot_images(struct out *o, int html, const char *dir, int i, const tcp_plot_state_t *p)
{
	char path[4096], b[1024];
	int shown = 0;

	for (int k = 0; k < p->nimages; k++)
		shown += rpt_file_exists(dir, p->image[k], "png") || rpt_file_exists(dir, p->image[k], "svg");
	if (!shown) {
		snprintf(b, sizeof(b), "The run has the data (%s) but the plot is not rendered: run "
			 "`make plots RUN=%s`.", p->note, dir);
		rpt_para(o, html, b);
		return;
	}
	if (!html) {
		rpt_outf(o, "Data: ");
		rpt_md(o, p->note);
		rpt_outf(o, ".\n\n");
	}
	for (int k = 0; k < p->nimages; k++) {
		const char *im = p->image[k];
		int png = rpt_file_exists(dir, im, "png"), svg = rpt_file_exists(dir, im, "svg");
		snprintf(b, sizeof(b), "%s: %s", tcp_plot_title(i), p->image_title[k]);
		if (!html) {
			if (!png && !svg)
				continue;
			rpt_outf(o, "![");
			rpt_md(o, b);
			rpt_outf(o, "](%s.%s)\n\n", im, svg ? "svg" : "png");
			rpt_md(o, p->image_title[k]);
			rpt_outf(o, ".%s%s%s%s%s%s\n\n", svg ? " [SVG](" : "", svg ? im : "", svg ? ".svg)" : "",
				 png ? " [PNG](" : "", png ? im : "", png ? ".png)" : "");
			continue;
		}
		size_t n = 0;
		unsigned char *bytes = NULL;
		snprintf(path, sizeof(path), "%s/%s.png", dir, im);
		if (png && (bytes = rpt_slurp(path, &n))) {
			char *b64 = malloc(4 * ((n + 2) / 3) + 1);
			if (b64) {
				tcp_base64(bytes, n, b64);
				rpt_outf(o, "<figure><img alt=\"");
				rpt_html(o, b);
				rpt_outf(o, "\" src=\"data:image/png;base64,%s\"><figcaption>", b64);
				rpt_html(o, p->image_title[k]);
				rpt_outf(o, "; ");
				rpt_html(o, p->note);
				rpt_outf(o, "</figcaption></figure>\n");
				free(b64);
			}
		} else if (svg) {
			rpt_outf(o, "<p>PNG not rendered; the SVG is next to this report: ");
			rpt_html(o, im);
			rpt_outf(o, ".svg</p>\n");
		}
		free(bytes);
	}
}

static void plot_section(struct out *o, int html, const char *dir, int i, const tcp_plot_state_t *st)
{
	char title[256], id[64], path[4096], b[1024];
	const char *stem = tcp_plot_stem(i);
	int png = st[i].has_data && !st[i].nimages && rpt_file_exists(dir, stem, "png");
	int svg = st[i].has_data && !st[i].nimages && rpt_file_exists(dir, stem, "svg");
	size_t n = 0;
	unsigned char *bytes = NULL;

	snprintf(path, sizeof(path), "%s/%s.png", dir, stem);
	if (html && png)
		bytes = rpt_slurp(path, &n);
	snprintf(title, sizeof(title), "%d. %s", i + 1, tcp_plot_title(i));
	snprintf(id, sizeof(id), "plot-%s", stem);
	if (html)
		rpt_outf(o, "<section class=\"plot%s\">\n", bytes && png_height(bytes, n) >= LARGE_PLOT_PX ? " large" : "");
	rpt_heading(o, html, 3, title, id);
	if (!st[i].has_data) {
		snprintf(b, sizeof(b), "Not drawn: %s.", st[i].note);
		rpt_para(o, html, b);
	} else if (st[i].nimages) {
		plot_images(o, html, dir, i, &st[i]);
	} else if (!png && !svg) {
		snprintf(b, sizeof(b), "The run has the data (%s) but the plot is not rendered: run "
			 "`make plots RUN=%s`.", st[i].note, dir);
		rpt_para(o, html, b);
	} else if (!html) {
		rpt_outf(o, "![");
		rpt_md(o, tcp_plot_title(i));
		rpt_outf(o, "](%s.%s)\n\n", stem, svg ? "svg" : "png");
		rpt_outf(o, "Data: ");
		rpt_md(o, st[i].note);
		rpt_outf(o, ".%s%s%s\n\n", svg ? " [SVG](" : "", svg ? stem : "", svg ? ".svg)" : "");
		if (png)
			rpt_outf(o, "[PNG](%s.png)\n\n", stem);
	} else if (bytes) {
		char *b64 = malloc(4 * ((n + 2) / 3) + 1);
		if (b64) {
			tcp_base64(bytes, n, b64);
			rpt_outf(o, "<figure><img alt=\"");
			rpt_html(o, tcp_plot_title(i));
			rpt_outf(o, "\" src=\"data:image/png;base64,%s\"><figcaption>", b64);
			rpt_html(o, st[i].note);
			rpt_outf(o, "</figcaption></figure>\n");
			free(b64);
		}
	} else {
		rpt_outf(o, "<p>PNG not rendered; the SVG is next to this report: ");
		rpt_html(o, stem);
		rpt_outf(o, ".svg</p>\n");
	}
	if (html)
		rpt_outf(o, "</section>\n");
	free(bytes);
}

/* ------------------------------------------------------------------ */
/* The document: sections walked for markdown and for HTML              */
/* ------------------------------------------------------------------ */

/* What every section sees. */
struct doc {
	const tcp_run_t *r;
	const char *dir;			/* the run directory the report is written into */
	const tcp_plot_state_t *st;		/* per plot, from tcp_report_extract */
	const tcp_timer_row_t *timers;		/* tcp_report_timers */
	int ntimers;
	const rpt_summary_t *sum;		/* rpt_summary_build */
	const char *emu;			/* emulated target (tcp_run_emulated), NULL = hardware */
};

static const char *const prov_headline[] = {
	"gpu_name", "driver_version", "cuda_runtime_version", "cuda_toolkit_version", "sm_count",
	"sm_clock_max_mhz", "tcprobe_version", "git_commit", "started_utc", "finished_utc", NULL
};

/* Provenance, last: collapsed in HTML (the PDF opens it, cmd-report.c). */
static void sec_provenance(struct out *o, int html, const struct doc *d)
{
	static const char *const h[] = { "key", "value" };
	const char *c[2];
	int n = 0;

	if (!d->r->has_prov) {
		rpt_para(o, html, "No provenance.csv in this run directory.");
		return;
	}
	while (tcp_run_prov_key(d->r, n))
		n++;
	if (html)
		rpt_outf(o, "<details class=\"prov\"><summary>%d keys of provenance.csv (click to open)</summary>\n", n);
	rpt_tab_begin(o, html, h, 2);
	for (int i = 0; prov_headline[i]; i++)	/* headline keys first, then the rest */
		if ((c[1] = tcp_run_prov(d->r, prov_headline[i]))) {
			c[0] = prov_headline[i];
			rpt_tab_row(o, html, c, 2);
		}
	for (int i = 0; (c[0] = tcp_run_prov_key(d->r, i)); i++) {
		c[1] = tcp_run_prov_value(d->r, i);
		if (!rpt_in_list(c[0], prov_headline))
			rpt_tab_row(o, html, c, 2);
	}
	rpt_tab_end(o, html);
	if (html)
		rpt_outf(o, "</details>\n");
}

static void sec_status(struct out *o, int html, const struct doc *d)
{
	status_table(o, html, d->r);
}

/* A probe with a point that ran on this GPU (anything but SKIPPED / UNSUPPORTED). */
static int ran_here(const tcp_run_t *r, const char *probe)
{
	for (int i = 0; i < r->npoints; i++)
		if (!strcmp(r->points[i].probe, probe) && r->points[i].status != TCP_SKIPPED &&
		    r->points[i].status != TCP_UNSUPPORTED)
			return 1;
	return 0;
}

/* Probes that ran: a section each; the others one line each, with their first reason. */
static void sec_probes(struct out *o, int html, const struct doc *d)
{
	const tcp_run_t *r = d->r;
	int nnot = 0;
	char b[1024];

	for (int i = 0; i < r->nprobes; i++) {
		if (ran_here(r, r->probes[i]))
			probe_section(o, html, r, r->probes[i]);
		else
			nnot++;
	}
	if (!nnot)
		return;
	rpt_heading(o, html, 3, "Not run on this GPU", "probes-not-run");
	rpt_outf(o, html ? "<ul class=\"skip\">\n" : "");
	for (int i = 0; i < r->nprobes; i++) {
		const char *probe = r->probes[i], *targets = "", *why = NULL;
		int np = 0, nu = 0;
		if (ran_here(r, probe))
			continue;
		for (int k = 0; k < r->npoints; k++)
			if (!strcmp(r->points[k].probe, probe)) {
				np++;
				nu += r->points[k].status == TCP_UNSUPPORTED;
				targets = r->points[k].targets ? r->points[k].targets : "";
				if (!why && r->points[k].reason && *r->points[k].reason)
					why = r->points[k].reason;
			}
		snprintf(b, sizeof(b), "%s (%s): %d point%s, %d UNSUPPORTED, %d SKIPPED: %s", probe, targets, np,
			 np == 1 ? "" : "s", nu, np - nu, why ? why : "(no reason recorded)");
		rpt_outf(o, html ? "<li>" : "- ");
		rpt_txt(o, html, b);
		rpt_outf(o, html ? "</li>\n" : "\n");
	}
	rpt_outf(o, html ? "</ul>\n" : "\n");
}

static int has_timers(const struct doc *d)
{
	return d->ntimers > 0;
}

static void sec_timers(struct out *o, int html, const struct doc *d)
{
	rpt_timer_section(o, html, d->r, d->dir, d->timers, d->ntimers);
}

static void sec_plots(struct out *o, int html, const struct doc *d)
{
	for (int i = 0; i < tcp_nplots(); i++)
		plot_section(o, html, d->dir, i, d->st);
}

static void sec_summary(struct out *o, int html, const struct doc *d)
{
	rpt_sec_summary(o, html, d->r, d->sum);
}

static void sec_attention(struct out *o, int html, const struct doc *d)
{
	rpt_sec_attention(o, html, d->r, d->sum);
}

static int has_baseline(const struct doc *d)
{
	return d->sum->base != NULL && !d->emu;
}

/* Sections of numbers (headline rates, noise, plots, timers): a hardware run's only. */
static int hardware(const struct doc *d)
{
	return !d->emu;
}

static int emulated(const struct doc *d)
{
	return d->emu != NULL;
}

/* An emulated run: what its rows are, and its validation per status. */
static void sec_emulated(struct out *o, int html, const struct doc *d)
{
	char b[1024];
	int n[TCP_NSTATUS] = { 0 };

	for (int i = 0; i < d->r->npoints; i++)
		if (d->r->points[i].status >= 0 && d->r->points[i].status < TCP_NSTATUS)
			n[d->r->points[i].status]++;
	rpt_para(o, html, tcp_run_emulated_banner(d->emu, b, sizeof(b)));
	snprintf(b, sizeof(b), "Validation: %d points OK (ran and matched the CPU reference), %d INVALID (a result "
		 "differs from it), %d FAILED, %d TIMEOUT, %d BLOCKED; %d SKIPPED and %d UNSUPPORTED for %s, as "
		 "`tcprobe run --dry-run --arch %s` plans. The emulator's medians stay in measurements.csv and "
		 "are neither summarised nor plotted here; `tcprobe compare` compares emulated runs on status "
		 "only.", n[TCP_OK], n[TCP_INVALID], n[TCP_FAILED], n[TCP_TIMEOUT], n[TCP_BLOCKED], n[TCP_SKIPPED],
		 n[TCP_UNSUPPORTED], d->emu, d->emu);
	rpt_para(o, html, b);
}

static void sec_baseline(struct out *o, int html, const struct doc *d)
{
	rpt_sec_baseline(o, html, d->r, d->sum);
}

/* The contents line's entry of the probes section: a link per probe that ran here. */
static void toc_probes(struct out *o, int html, const struct doc *d)
{
	char id[300];
	int nnot = 0;

	rpt_outf(o, "probes:");
	for (int i = 0; i < d->r->nprobes; i++) {
		if (!ran_here(d->r, d->r->probes[i])) {
			nnot++;
			continue;
		}
		if (html) {
			rpt_outf(o, " <a href=\"#probe-");
			rpt_html(o, d->r->probes[i]);
			rpt_outf(o, "\">");
			rpt_html(o, d->r->probes[i]);
			rpt_outf(o, "</a>");
		} else {
			rpt_slug(d->r->probes[i], id, sizeof(id));
			rpt_outf(o, " [%s](#%s)", d->r->probes[i], id);
		}
	}
	if (nnot)
		rpt_outf(o, html ? " <a href=\"#probes-not-run\">%d not run</a>" : " [%d not run](#not-run-on-this-gpu)",
			 nnot);
}

/* ... and of the plots section: a link per plot, by number. */
static void toc_plots(struct out *o, int html, const struct doc *d)
{
	char id[300], text[300];

	(void)d;
	rpt_outf(o, "plots:");
	for (int i = 0; i < tcp_nplots(); i++) {
		if (html) {
			rpt_outf(o, " <a href=\"#plot-%s\">%d</a>", tcp_plot_stem(i), i + 1);
		} else {
			snprintf(text, sizeof(text), "%d. %s", i + 1, tcp_plot_title(i));
			rpt_slug(text, id, sizeof(id));
			rpt_outf(o, " [%d](#%s)", i + 1, id);
		}
	}
}

/*
 * The sections, in document order: the findings first, then the plots and
 * the per-probe detail, provenance last.  Each is a level-2 heading (HTML
 * anchor `id`; markdown's anchor is the slug of the heading, as GitHub
 * renders it) and a body written for both formats; the contents line links
 * it by `toc`, or through toc_list when it lists its parts.
 */
static const struct section {
	const char *id, *heading, *toc;
	void (*toc_list)(struct out *o, int html, const struct doc *d);
	int (*present)(const struct doc *d);	/* NULL: always */
	void (*body)(struct out *o, int html, const struct doc *d);
} sections[] = {
	{ "emulated", "Emulated run", "emulated", NULL, emulated, sec_emulated },
	{ "summary", "Summary", "summary", NULL, hardware, sec_summary },
	{ "attention", "Needs attention", "needs attention", NULL, hardware, sec_attention },
	{ "baseline", "Against the baseline", "baseline", NULL, has_baseline, sec_baseline },
	{ "plots", "Plots", NULL, toc_plots, hardware, sec_plots },
	{ "status", "Points per probe and status", "status", NULL, NULL, sec_status },
	{ "probes", "Probes", NULL, toc_probes, NULL, sec_probes },
	{ "timers", "Kernel timers (--timer cupti)", "kernel timers", NULL, has_timers, sec_timers },	/* none emulated */
	{ "provenance", "Provenance", "provenance", NULL, NULL, sec_provenance },
};
#define NSECTIONS ((int)(sizeof(sections) / sizeof(sections[0])))

/* One line of links to every present section. */
static void contents(struct out *o, int html, const struct doc *d)
{
	char id[300];
	int first = 1;

	rpt_outf(o, html ? "<p class=\"toc\">Contents:" : "Contents:");
	for (int k = 0; k < NSECTIONS; k++) {
		const struct section *s = &sections[k];
		if (s->present && !s->present(d))
			continue;
		rpt_outf(o, first ? " " : " | ");
		first = 0;
		if (s->toc_list) {
			s->toc_list(o, html, d);
		} else if (html) {
			rpt_outf(o, "<a href=\"#%s\">", s->id);
			rpt_html(o, s->toc);
			rpt_outf(o, "</a>");
		} else {
			rpt_slug(s->heading, id, sizeof(id));
			rpt_outf(o, "[%s](#%s)", s->toc, id);
		}
	}
	rpt_outf(o, html ? "</p>\n" : "\n\n");
}

/* Screen and print: A4 and Letter alike (186 mm of text width), tables never wider
 * than the page, no row split across pages, a large plot on a page of its own. */
static const char css[] =
	"body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}\n"
	"table{border-collapse:collapse;margin:.5em 0 1em}\n"
	"th,td{border:1px solid #bbb;padding:2px 8px;text-align:left;font-size:90%}\n"
	"th{background:#eee}\nimg{max-width:100%;border:1px solid #ddd}\n"
	"figcaption{font-size:85%;color:#555}\nul.bad li{color:#a00}\n"
	"code{background:#f4f4f4}\ntable.summary td.num{text-align:right;white-space:nowrap}\n"
	"p.lead{font-size:105%}\ndetails.prov summary{cursor:pointer;color:#555}\n"
	"pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:85%}\n"
	"@page{margin:12mm 12mm 14mm}\n"
	"@media print{\n"
	" body{max-width:none;margin:0;padding:0;font-size:9.5pt}\n"
	" a{color:inherit;text-decoration:none}\n"
	" p.toc{display:none}\n"
	" table{width:100%;table-layout:auto;font-size:8pt}\n"
	" th,td{font-size:7.5pt;padding:1px 3px;overflow-wrap:break-word}\n"
	" th{hyphens:auto}\n"
	" thead{display:table-header-group}\n"
	" tr,li,figure,img{break-inside:avoid;page-break-inside:avoid}\n"
	" h1,h2,h3{break-after:avoid;page-break-after:avoid}\n"
	" h2{break-before:auto}\n"
	" section.plot.large{break-before:page;page-break-before:always}\n"
	" figure{margin:0}\n"
	" img{max-height:235mm;object-fit:contain;border:none}\n"
	" details.prov summary{display:none}\n"
	"}\n";

/* The whole document in one format: title, contents, every present section. */
static void write_doc(struct out *o, int html, const struct doc *d)
{
	const char *dir = d->dir;
	const char *run_id = strrchr(dir, '/') && strrchr(dir, '/')[1] ? strrchr(dir, '/') + 1 : dir;
	char b[1024];

	char uid[128], run_commit[160], drew[160];
	tcp_run_uid(d->r, uid, sizeof(uid));
	if (html) {
		rpt_outf(o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		     "<link rel=\"icon\" href=\"data:,\">\n<title>%s%s%stcprobe report: ", d->emu ? "EMULATED " : "",
		     d->emu ? d->emu : "", d->emu ? ": " : "");
		rpt_html(o, run_id);
		rpt_outf(o, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", css);
	}
	/* an emulated run says so first: its title is the report's first line */
	snprintf(b, sizeof(b), "%s%s%stcprobe report: %s (run %s)", d->emu ? "EMULATED " : "", d->emu ? d->emu : "",
		 d->emu ? " run, statuses and validation only: " : "", run_id, uid);
	if (d->emu && !html) {	/* the markdown's first line, with no blank line before it */
		rpt_outf(o, "# ");
		rpt_md(o, b);
		rpt_outf(o, "\n\n");
	} else {
		rpt_heading(o, html, 1, b, "top");
	}
	const char *gpu = tcp_run_prov(d->r, "gpu_name"), *drv = tcp_run_prov(d->r, "driver_version");
	const char *cuda = tcp_run_prov(d->r, "cuda_runtime_version"), *ver = tcp_run_prov(d->r, "tcprobe_version");
	const char *when = tcp_run_prov(d->r, "started_utc");
	rpt_run_commit(d->r, run_commit, sizeof(run_commit));
	rpt_report_commit(drew, sizeof(drew));
	snprintf(b, sizeof(b), "%d points on %s (driver %s, CUDA %s), measured by tcprobe %s at %s, started %s "
		 "(run id %s). Every number below is derived from measurements.csv and provenance.csv by `tcprobe "
		 "report` (tcprobe %s); plots by `make plots RUN=%s`.%s", d->r->npoints,
		 gpu ? gpu : "an unrecorded GPU", drv ? drv : "unrecorded", cuda ? cuda : "unrecorded",
		 ver ? ver : "?", run_commit, when ? when : "at an unrecorded time", uid, drew, dir,
		 d->r->torn_tail ? " measurements.csv ended in a torn line (a killed sweep): it was dropped." : "");
	rpt_para(o, html, b);
	contents(o, html, d);
	for (int k = 0; k < NSECTIONS; k++) {
		const struct section *s = &sections[k];
		if (s->present && !s->present(d))
			continue;
		rpt_heading(o, html, 2, s->heading, s->id);
		s->body(o, html, d);
	}
	if (html)
		rpt_outf(o, "</body>\n</html>\n");
}

int tcp_report_write_base(const tcp_run_t *r, const char *dir, const tcp_plot_state_t st[TCP_PLOTS_MAX],
			  const tcp_report_base_t *base, char *err, size_t len)
{
	struct out o;
	tcp_timer_row_t *t;
	int nt = tcp_report_timers(r, &t), rc = -1;
	rpt_summary_t *sum = nt < 0 ? NULL : rpt_summary_build(r, base);

	if (nt < 0 || !sum) {
		snprintf(err, len, "%s: out of memory", dir);
		if (nt >= 0)
			free(t);
		return -1;
	}
	/* an emulated run: no timers, no summary.json (its rates would be the emulator's) */
	const struct doc d = { r, dir, st, tcp_run_emulated(r) ? NULL : t, tcp_run_emulated(r) ? 0 : nt, sum,
			       tcp_run_emulated(r) };
	if (!d.emu && nt > 0 && rpt_timer_csv(t, nt, dir, err, len))
		goto done;
	if (!d.emu && rpt_summary_json(sum, r, dir, err, len))
		goto done;
	if (rpt_open(&o, dir, "report", "md", err, len))
		goto done;
	write_doc(&o, 0, &d);
	if (rpt_close(&o, dir, "report", "md", err, len) || rpt_open(&o, dir, "report", "html", err, len))
		goto done;
	write_doc(&o, 1, &d);
	rc = rpt_close(&o, dir, "report", "html", err, len);
done:
	free(t);
	free(sum);
	return rc;
}

int tcp_report_write(const tcp_run_t *r, const char *dir, const tcp_plot_state_t st[TCP_PLOTS_MAX],
		     char *err, size_t len)
{
	return tcp_report_write_base(r, dir, st, NULL, err, len);
}
