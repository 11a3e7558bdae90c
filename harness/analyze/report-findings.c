/*
 * report-findings.c
 *	The sections a report opens with, from rpt_summary_build()
 *	(report-summary.c): "Summary" (per-kind rates against the published
 *	peak; with --baseline the verdict counts, every regression by name,
 *	what is missing and the axes joined across; the SM clock and power under
 *	load; latency and issue fits, TMEM and energy headlines), "Needs
 *	attention" (throttled, failed, contended and noisy points) and, with
 *	--baseline, "Against the baseline" (compare's verdicts, compare.h).
 *	Each writes markdown and HTML through report-doc.c.
 *	Also each probe's finding sentence for its section (rpt_probe_finding).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/analyze/report-int.h"

#define LIST_MAX 20	/* points listed per kind of problem */

static void item(struct out *o, int html, const char *text)
{
	rpt_outf(o, html ? "<li>" : "- ");
	rpt_txt(o, html, text);
	rpt_outf(o, html ? "</li>\n" : "\n");
}

static void list_begin(struct out *o, int html, const char *cls)
{
	if (html)
		rpt_outf(o, "<ul class=\"%s\">\n", cls);
}

static void list_end(struct out *o, int html)
{
	rpt_outf(o, html ? "</ul>\n" : "\n");
}

/* "a-b" of two numbers, "a" when they print the same. */
static const char *range(double lo, double hi, const char *f, char *buf, size_t len)
{
	char a[48], b[48];

	rpt_num(lo, a, sizeof(a), f);
	rpt_num(hi, b, sizeof(b), f);
	snprintf(buf, len, strcmp(a, b) ? "%s-%s" : "%s", a, b);
	return buf;
}

/* " (median 1790)" of a range of more than one point, else "". */
static const char *median_txt(const rpt_range_t *g, char *buf, size_t len)
{
	if (g->n > 1)
		snprintf(buf, len, " (median %.0f)", g->med);
	else
		buf[0] = 0;
	return buf;
}

/* The SM clock and power under load, as measured (never NVML's sampled clock). */
static void clock_power(struct out *o, int html, const rpt_summary_t *s)
{
	char b[1400], x[96], y[96];
	size_t n;

	if (s->clk_kernel.n || s->clk_cupti.n) {
		snprintf(b, sizeof(b), "SM clock under load: ");
		if (s->clk_kernel.n)
			snprintf(b + strlen(b), sizeof(b) - strlen(b), "%s MHz%s measured in the kernel (clock64 over "
				 "%%globaltimer) on %d point%s", range(s->clk_kernel.lo, s->clk_kernel.hi, "%.0f", x, sizeof(x)),
				 median_txt(&s->clk_kernel, y, sizeof(y)), s->clk_kernel.n, s->clk_kernel.n == 1 ? "" : "s");
		if (s->clk_cupti.n)
			snprintf(b + strlen(b), sizeof(b) - strlen(b), "%s%s MHz%s in the counter pass (CUPTI) on %d "
				 "point%s", s->clk_kernel.n ? "; " : "", range(s->clk_cupti.lo, s->clk_cupti.hi, "%.0f", x,
				 sizeof(x)), median_txt(&s->clk_cupti, y, sizeof(y)), s->clk_cupti.n,
				 s->clk_cupti.n == 1 ? "" : "s");
		snprintf(b + strlen(b), sizeof(b) - strlen(b), ".");
	} else {
		snprintf(b, sizeof(b), "SM clock under load: not measured in this run (no point has an in-kernel "
			 "or counter-pass clock).");
	}
	if (s->clk_nvml.n) {
		n = strlen(b);
		snprintf(b + n, sizeof(b) - n, " NVML's sampled clock read %s MHz", range(s->clk_nvml.lo,
			 s->clk_nvml.hi, "%.0f", x, sizeof(x)));
		n = strlen(b);
		if (s->nvml_cmp)
			snprintf(b + n, sizeof(b) - n, " and is more than %.0f%% off the measured clock on %d of %d "
				 "points (by up to %.1f%%): it samples between kernels, so no number in this report "
				 "uses it.", RPT_NVML_OFF_PCT, s->nvml_off, s->nvml_cmp, s->nvml_off_max);
		else
			snprintf(b + n, sizeof(b) - n, " (sampled between kernels: no point has a measured clock to "
				 "hold it against).");
	}
	n = strlen(b);
	if (s->power.n)
		snprintf(b + n, sizeof(b) - n, " Power under load: %s W%s over the energy windows of %d point%s",
			 range(s->power.lo, s->power.hi, "%.0f", x, sizeof(x)), median_txt(&s->power, y, sizeof(y)),
			 s->power.n, s->power.n == 1 ? "" : "s");
	else
		snprintf(b + n, sizeof(b) - n, " Power under load: not measured in this run (tcprobe run --energy SEC "
			 "measures it)");
	n = strlen(b);
	if (isfinite(s->power_limit_w))
		snprintf(b + n, sizeof(b) - n, "; board power limit %.0f W.", s->power_limit_w);
	else
		snprintf(b + n, sizeof(b) - n, "; board power limit not recorded.");
	rpt_para(o, html, b);
}

/* One regression row as a reviewer cites it. */
static void regression_item(struct out *o, int html, const tcp_cmp_row_t *w)
{
	const tcp_cmp_cell_t *x = &w->cells[0];
	char b[1200], why[200];

	if (x->verdict == TCP_V_STATUS)
		snprintf(why, sizeof(why), "%s -> %s%s%s", x->base->status, x->cur->status,
			 *x->cur->reason ? ": " : "", x->cur->reason);
	else if (x->judged == TCP_J_BEYOND_CLOCK)
		snprintf(why, sizeof(why), "%+.1f%%; SM clock %+.1f%%, %+.1f%% beyond it; noise %.1f%%", x->change_pct,
			 x->clock_pct, x->beyond_pct, x->noise_pct);
	else
		snprintf(why, sizeof(why), "%+.1f%%, noise %.1f%%", x->change_pct, x->noise_pct);
	if (x->verdict == TCP_V_STATUS)
		snprintf(b, sizeof(b), "%s %s [%s]: %.900s", w->probe, w->metric, w->axes, why);
	else
		snprintf(b, sizeof(b), "%s %s [%s]: %s -> %s %s (%s)", w->probe, w->metric, w->axes,
			 x->base->median_s, x->cur->median_s, w->unit, why);
	item(o, html, b);
}

/* Against the baseline, first screen: the counts, every regression by name, what is missing. */
static void baseline_lead(struct out *o, int html, const rpt_summary_t *s)
{
	const tcp_cmp_t *c = s->base->cmp;
	const int *p = s->base_prim, *a = s->base_all;
	char b[4000];
	size_t n;

	char rules[300];
	if (c->roles)
		snprintf(rules, sizeof(rules), "`tcprobe compare`'s rules, roles from %s; it exits %d",
			 c->roles_from[0] == s->base->base->dir ? "the baseline's metrics.csv" :
			 c->roles_from[0] == s->base->cur->dir ? "this run's metrics.csv" : c->roles_from[0],
			 tcp_cmp_status(c));
	else
		snprintf(rules, sizeof(rules), "every row gated: neither run has metrics.csv, and `tcprobe compare` "
			 "refuses the pair without --roles; report --roles FILE judges it by roles");
	snprintf(b, sizeof(b), "Against the baseline %s (%s): %d regression%s "
		 "beyond the %.3g%% gate%s. On each probe's primary metric: %d slower, %d faster, %d missing, %d new, "
		 "%d status changed; over all rows: %d slower, %d faster, %d missing (rows OK in the baseline with "
		 "no row here), %d new, %d status changed. %d row%s SKIPPED or UNSUPPORTED on every side %s not "
		 "counted.", s->base->base->name, rules, c->nregress[0], c->nregress[0] == 1 ? "" : "s",
		 c->threshold_pct, c->nregress[0] ? ", every one listed below" : "", p[TCP_V_SLOWER], p[TCP_V_FASTER],
		 p[TCP_V_MISSING], p[TCP_V_NEW], p[TCP_V_STATUS], a[TCP_V_SLOWER], a[TCP_V_FASTER], a[TCP_V_MISSING],
		 a[TCP_V_NEW], a[TCP_V_STATUS], s->base_notrun, s->base_notrun == 1 ? "" : "s",
		 s->base_notrun == 1 ? "is" : "are");
	int quiet = 0, first = 1;	/* quiet: axes joined only across points neither run ran */
	for (int k = 0; k < c->naxes_joined; k++) {
		const tcp_cmp_axis_t *x = &c->axes_joined[k];
		if (!s->joined_meas[k]) {
			quiet += x->points > 0;
			continue;
		}
		n = strlen(b);
		snprintf(b + n, sizeof(b) - n, "%s %s %s=%s (%d point%s measured on a side)", first ? " Joined across "
			 "an axis one run lacks, at its default:" : ";", x->probe, x->axis, x->value, s->joined_meas[k],
			 s->joined_meas[k] == 1 ? "" : "s");
		first = 0;
	}
	n = strlen(b);
	if (quiet)
		snprintf(b + n, sizeof(b) - n, "%s%d %sax%s one run lacks joined only points neither run ran "
			 "(`tcprobe compare` names them)", first ? " " : "; ", quiet, first ? "" : "more ",
			 quiet == 1 ? "is" : "es");
	n = strlen(b);
	if (b[n - 1] != '.')
		snprintf(b + n, sizeof(b) - n, ".");
	rpt_para(o, html, b);
	if (c->nmissing[0]) {
		n = (size_t)snprintf(b, sizeof(b), "%s: %d of the %d rows OK in the baseline have no row here:",
				      c->allow_missing ? "Missing (allowed)" : "INCOMPLETE", c->nmissing[0], c->nbase_ok);
		for (int k = 0; k < s->nmiss && n < sizeof(b); k++)
			n += (size_t)snprintf(b + n, sizeof(b) - n, "%s %s %d row%s (%d point%s)", k ? "," : "",
					      s->miss[k].probe, s->miss[k].rows, s->miss[k].rows == 1 ? "" : "s",
					      s->miss[k].points, s->miss[k].points == 1 ? "" : "s");
		if (n < sizeof(b))
			snprintf(b + n, sizeof(b) - n, ".");
		rpt_para(o, html, b);
	}
	if (!c->nregress[0])
		return;
	snprintf(b, sizeof(b), "Regressions (%d), worst first:", c->nregress[0]);
	rpt_para(o, html, b);
	list_begin(o, html, "bad");
	for (int i = 0; i < c->nrows; i++)
		if (c->rows[i].cells[0].regression)
			regression_item(o, html, &c->rows[i]);
	list_end(o, html);
}

/* The opening sentence: per family, its rate classes' % of peak. */
static void lead(struct out *o, int html, const tcp_run_t *r, const rpt_summary_t *s)
{
	char b[2048], rg[96];
	const char *gpu = tcp_run_prov(r, "gpu_name"), *sms = tcp_run_prov(r, "sm_count");

	snprintf(b, sizeof(b), "%s (%s SMs), %d of %d points run here:", gpu ? gpu : "This GPU", sms ? sms : "?",
		 s->nrun, r->npoints);
	for (int k = 0, first = 1; k < s->nkinds; k++) {
		const char *fam = s->kinds[k].family;
		int seen = 0;
		for (int j = 0; j < k; j++)
			seen |= !strcmp(s->kinds[j].family, fam);
		if (seen)
			continue;
		for (int sp = 0; sp < 2; sp++) {	/* dense forms, then sparse ones (against the sparse peak) */
			double lo = INFINITY, hi = -INFINITY;
			int n = 0;
			for (int j = k; j < s->nkinds; j++)
				if (!strcmp(s->kinds[j].family, fam) && s->kinds[j].sparse == sp) {
					n++;
					if (isfinite(s->kinds[j].pct_peak)) {
						lo = fmin(lo, s->kinds[j].pct_peak);
						hi = fmax(hi, s->kinds[j].pct_peak);
					}
				}
			if (!n)
				continue;
			snprintf(b + strlen(b), sizeof(b) - strlen(b), "%s %s%s %s%% of the published %s peak "
				 "(best point of each of %d %s rate class%s)", first ? "" : ";", fam, sp ? "'s sparse forms reach" :
				 " reaches", isfinite(lo) ? range(lo, hi, "%.2f", rg, sizeof(rg)) : "an unknown share",
				 sp ? "sparse" : "dense", n, sp ? "sparse" : "dense", n == 1 ? "" : "es");
			first = 0;
		}
	}
	if (!s->nkinds)
		snprintf(b + strlen(b), sizeof(b) - strlen(b), " no MMA throughput point was measured");
	snprintf(b + strlen(b), sizeof(b) - strlen(b), ". %d point%s need%s attention (below).",
		 s->nthrottled + s->nbad + s->ncontended + s->nnoisy, s->nthrottled + s->nbad + s->ncontended +
		 s->nnoisy == 1 ? "" : "s", s->nthrottled + s->nbad + s->ncontended + s->nnoisy == 1 ? "s" : "");
	if (html)
		rpt_outf(o, "<p class=\"lead\">");
	rpt_txt(o, html, b);
	rpt_outf(o, html ? "</p>\n" : "\n\n");
	if (s->base)
		baseline_lead(o, html, s);
	clock_power(o, html, s);
}

static void kinds_table(struct out *o, int html, const rpt_summary_t *s)
{
	static const char *const h[] = { "family", "A.B -> D", "FLOP/clk/SM (best)", "% of peak",
					 "published peak", "pattern (points at peak)", "TFLOP/s at peak",
					 "SM MHz under load", "acc. B/clk/SM (K)", "spread %", "best point" };
	char cell[11][200], x[64];
	const char *c[11];

	snprintf(cell[0], sizeof(cell[0]), "%.3g%%", RPT_AT_PEAK_PCT);
	char b[1200];
	snprintf(b, sizeof(b), "Math rate per MMA family and rate class, over every probe of the family: the best OK "
		 "point at the stated input pattern, its share of the chip's published peak (model/peaks.c; a "
		 "sparse form against the sparse figure, twice the dense one), and over the points within %s of "
		 "that rate (which of them wins is noise) the TFLOP/s they reach and the SM clock they ran at "
		 "(measured in the kernel, else in the counter pass; never NVML's sample). acc. B/clk/SM = "
		 "FLOP/clk/SM / (K / accumulator bytes): the K/4 identity for a 32-bit accumulator.", cell[0]);
	rpt_para(o, html, b);
	rpt_tab_begin(o, html, h, 11);
	for (int k = 0; k < s->nkinds; k++) {
		const rpt_kind_row_t *w = &s->kinds[k];
		c[0] = w->family;
		c[1] = w->label;
		c[2] = rpt_num(w->rate, cell[2], sizeof(cell[2]), "%.1f");
		c[3] = rpt_num(w->pct_peak, cell[3], sizeof(cell[3]), "%.2f");
		rpt_num(w->peak, cell[4], sizeof(cell[4]), "%.0f");
		if (w->sparse && isfinite(w->peak))
			snprintf(cell[4] + strlen(cell[4]), sizeof(cell[4]) - strlen(cell[4]), " (sparse)");
		c[4] = cell[4];
		snprintf(cell[5], sizeof(cell[5]), "%s (%d)", w->pattern[0] ? w->pattern : "-", w->npeak);
		c[5] = cell[5];
		c[6] = range(w->tflops_lo, w->tflops_hi, "%.1f", cell[6], sizeof(cell[6]));
		snprintf(cell[7], sizeof(cell[7]), "%s (%s)", range(w->clock_lo, w->clock_hi, "%.0f", x, sizeof(x)),
			 rpt_clock_src_name(w->clock_src));
		c[7] = cell[7];
		snprintf(cell[8], sizeof(cell[8]), "%.1f (K=%d)", w->acc_bw, w->mma_k);
		c[8] = cell[8];
		c[9] = rpt_num(w->spread_pct, cell[9], sizeof(cell[9]), "%.2g");
		snprintf(cell[10], sizeof(cell[10]), "%s: %s", w->probe, w->axes);
		c[10] = cell[10];
		rpt_tab_row(o, html, c, 11);
	}
	rpt_tab_end(o, html);
}

static void lat_table(struct out *o, int html, const rpt_summary_t *s)
{
	static const char *const h[] = { "probe", "form", "N range", "cycles = a + b N", "R^2",
					 "one line over all N (R^2)" };
	char cell[6][160], b[512];
	const char *c[6];
	int shown = 0, split = 0;

	for (int k = 0; k < s->nlat; k++)
		if (s->lat[k].fit.n >= 3) {
			shown++;
			split += s->lat[k].fit.pieces == 2;
		}
	if (!shown) {
		rpt_para(o, html, s->nlat ? "Latency vs N: no form was measured at 3 or more N values." :
			 "Latency vs N: not measured in this run (no OK wgmma_lat / tc_mma_lat point).");
		return;
	}
	snprintf(b, sizeof(b), "Latency of a dependent MMA chain vs N, least squares per form; %d of %d forms "
		 "need two lines (two segments cut the squared error 10x where one line explains less than "
		 "99.9%% of the variance; the breakpoint is the measured N that fits best):", split, shown);
	rpt_para(o, html, b);
	rpt_tab_begin(o, html, h, 6);
	for (int k = 0; k < s->nlat; k++) {
		const rpt_lat_row_t *w = &s->lat[k];
		if (w->fit.n < 3)
			continue;
		for (int g = 0; g < w->fit.pieces; g++) {
			c[0] = g ? "" : w->probe;
			c[1] = g ? "" : w->form;
			snprintf(cell[2], sizeof(cell[2]), "%g-%g", w->fit.x0[g], w->fit.x1[g]);
			c[2] = cell[2];
			snprintf(cell[3], sizeof(cell[3]), "%.2f + %.4f N", w->fit.sa[g], w->fit.sb[g]);
			c[3] = cell[3];
			snprintf(cell[4], sizeof(cell[4]), "%.5f", w->fit.sr2[g]);
			c[4] = cell[4];
			if (g)
				cell[5][0] = 0;
			else
				snprintf(cell[5], sizeof(cell[5]), "%.2f + %.4f N (%.5f)", w->fit.a, w->fit.b, w->fit.r2);
			c[5] = cell[5];
			rpt_tab_row(o, html, c, 6);
		}
	}
	rpt_tab_end(o, html);
	if (s->nlat_short) {
		snprintf(b, sizeof(b), "%d more form%s measured at fewer than 3 N values (not fitted; the "
			 "lat-vs-n plot and the probe's table have them).", s->nlat_short, s->nlat_short == 1 ? "" : "s");
		rpt_para(o, html, b);
	}
}

static void ii_table(struct out *o, int html, const rpt_summary_t *s)
{
	static const char *const h[] = { "probe", "form", "depths", "issue interval (fit a, cycles)",
					 "saturating depth (within 5%)", "R^2", "min issue cycles/MMA" };
	char cell[7][160];
	const char *c[7];

	if (!s->nii) {
		rpt_para(o, html, "Issue interval and saturating depth: not measured in this run (no OK "
			 "tc_mma_ii point).");
		return;
	}
	rpt_para(o, html, "Issue interval vs chain depth D, fitted cycles per MMA = a + b / D:");
	rpt_tab_begin(o, html, h, 7);
	for (int k = 0; k < s->nii; k++) {
		const rpt_ii_row_t *w = &s->ii[k];
		c[0] = w->probe;
		c[1] = w->form;
		snprintf(cell[2], sizeof(cell[2]), "%d", w->n);
		c[2] = cell[2];
		c[3] = rpt_num(w->ii, cell[3], sizeof(cell[3]), "%.2f");
		c[4] = rpt_num(w->sat_depth, cell[4], sizeof(cell[4]), "%.0f");
		c[5] = rpt_num(w->r2, cell[5], sizeof(cell[5]), "%.4f");
		c[6] = rpt_num(w->min_issue, cell[6], sizeof(cell[6]), "%.2f");
		rpt_tab_row(o, html, c, 7);
	}
	rpt_tab_end(o, html);
}

static void tmem_energy(struct out *o, int html, const rpt_summary_t *s)
{
	static const char *const ht[] = { "operation", "peak bytes/clk/SM", "metric", "best point" };
	static const char *const he[] = { "probe, kind -> acc", "pJ/FLOP (random inputs)", "lowest (pattern)",
					  "highest (pattern)" };
	char cell[4][200];
	const char *c[4];

	if (!s->ntmem) {
		rpt_para(o, html, "tcgen05.ld / st / cp bandwidth: not measured in this run (no OK tc_ldst / "
			 "tc_cp point).");
	} else {
		rpt_para(o, html, "Tensor-memory traffic, the best OK point per operation:");
		rpt_tab_begin(o, html, ht, 4);
		for (int k = 0; k < s->ntmem; k++) {
			c[0] = s->tmem[k].what;
			c[1] = rpt_num(s->tmem[k].value, cell[1], sizeof(cell[1]), "%.1f");
			c[2] = s->tmem[k].metric;
			snprintf(cell[3], sizeof(cell[3]), "%s: %s", s->tmem[k].probe, s->tmem[k].axes);
			c[3] = cell[3];
			rpt_tab_row(o, html, c, 4);
		}
		rpt_tab_end(o, html);
	}
	if (!s->nenergy) {
		rpt_para(o, html, "Energy per FLOP: not measured in this run (tcprobe run --energy SEC).");
		return;
	}
	rpt_para(o, html, "Energy per FLOP (NVML energy counter over the point's window):");
	rpt_tab_begin(o, html, he, 4);
	for (int k = 0; k < s->nenergy; k++) {
		const rpt_peak_row_t *e = &s->energy[k];
		char v[48];
		c[0] = e->what;
		c[1] = rpt_num(e->value, cell[1], sizeof(cell[1]), "%.3f");
		snprintf(cell[2], sizeof(cell[2]), "%s (%s)", rpt_num(e->lo, v, sizeof(v), "%.3f"), e->lo_at);
		c[2] = cell[2];
		snprintf(cell[3], sizeof(cell[3]), "%s (%s)", rpt_num(e->hi, v, sizeof(v), "%.3f"), e->hi_at);
		c[3] = cell[3];
		rpt_tab_row(o, html, c, 4);
	}
	rpt_tab_end(o, html);
}

void rpt_sec_summary(struct out *o, int html, const tcp_run_t *r, const rpt_summary_t *s)
{
	lead(o, html, r, s);
	if (s->nkinds)
		kinds_table(o, html, s);
	lat_table(o, html, s);
	ii_table(o, html, s);
	tmem_energy(o, html, s);
}

/* ------------------------------------------------------------ needs attention */

/* The points of one category: up to LIST_MAX, then how many more. */
static void attn_list(struct out *o, int html, const rpt_summary_t *s, int cat, const char *title)
{
	char b[1024];
	int n = 0, shown = 0;

	for (int k = 0; k < s->nattn; k++)
		n += s->attn[k].cat == cat;
	if (!n)
		return;
	snprintf(b, sizeof(b), "%s (%d):", title, n);
	rpt_para(o, html, b);
	list_begin(o, html, "bad");
	for (int k = 0; k < s->nattn && shown < LIST_MAX; k++) {
		const rpt_attn_t *a = &s->attn[k];
		if (a->cat != cat)
			continue;
		snprintf(b, sizeof(b), "%s%s%s %s: %s", cat == RPT_ATTN_STATUS ? a->why : "",
			 cat == RPT_ATTN_STATUS ? " " : "", a->p->probe, a->p->axes, a->detail);
		item(o, html, b);
		shown++;
	}
	if (n > shown) {
		snprintf(b, sizeof(b), "... and %d more (summary.json lists them)", n - shown);
		item(o, html, b);
	}
	list_end(o, html);
}

void rpt_sec_attention(struct out *o, int html, const tcp_run_t *r, const rpt_summary_t *s)
{
	char b[1024], noise[160], cont[160];

	if (!s->has_contended)
		snprintf(cont, sizeof(cont), "contended: not recorded (schema v%d run, before the contended column)",
			 r->schema);
	else
		snprintf(cont, sizeof(cont), "%d contended", s->ncontended);
	if (!s->has_ci)
		snprintf(noise, sizeof(noise), "noise: not recorded (schema v%d run, before ci_pct)", r->schema);
	else if (!isfinite(s->noise_target))
		snprintf(noise, sizeof(noise), "noise: no target recorded (the plan has no noise= option: --reps N)");
	else
		snprintf(noise, sizeof(noise), "%d over the noise target of +-%.3g%%", s->nnoisy, s->noise_target);
	snprintf(b, sizeof(b), "%d throttled, %d FAILED / INVALID / TIMEOUT or other status, %s, %s.",
		 s->nthrottled, s->nbad, cont, noise);
	rpt_para(o, html, b);
	if (r->nunfinished > 0) {
		snprintf(b, sizeof(b), "%d of %d planned points have no row: the run did not finish "
			 "(tcprobe run --resume).", r->nunfinished, r->nplanned);
		rpt_para(o, html, b);
	}
	attn_list(o, html, s, RPT_ATTN_THROTTLED, "Throttled during the point (NVML clock-event reasons)");
	/* every status but OK / SKIPPED / UNSUPPORTED: failures and statuses added later (BLOCKED) alike */
	attn_list(o, html, s, RPT_ATTN_STATUS, "Not OK, with the reason");
	attn_list(o, html, s, RPT_ATTN_CONTENDED, "Contended: other work on the GPU during the point");
	attn_list(o, html, s, RPT_ATTN_NOISY, "Noisier than the target");
	if (s->attn_dropped) {
		snprintf(b, sizeof(b), "%d more point%s need attention than the summary keeps (see measurements.csv).",
			 s->attn_dropped, s->attn_dropped == 1 ? "" : "s");
		rpt_para(o, html, b);
	}
}

/* ------------------------------------------------------------ baseline */

/* compare's own closing lines (INCOMPLETE, contention, Result) as it prints them. */
static void compare_result(struct out *o, int html, const tcp_report_base_t *bl)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return;
	tcp_cmp_print_result(f, bl->cmp, bl->base, bl->cur);
	fclose(f);
	rpt_para(o, html, "tcprobe compare's verdict on the whole comparison:");
	rpt_outf(o, html ? "<pre>" : "```\n");
	if (html)
		rpt_html(o, buf);
	else
		rpt_outf(o, "%s", buf);
	rpt_outf(o, html ? "</pre>\n" : "```\n\n");
	free(buf);
}

void rpt_sec_baseline(struct out *o, int html, const tcp_run_t *r, const rpt_summary_t *s)
{
	static const char *const h[] = { "verdict", "probe", "axes", "metric", "base", "this run", "change %",
					 "noise %" };
	const tcp_report_base_t *bl = s->base;
	const tcp_cmp_t *c = bl->cmp;
	char b[1024], cell[8][64];
	const char *cc[8];
	int listed = 0, more = 0;

	snprintf(b, sizeof(b), "%s against the baseline %s (%s, driver %s, started %s), by `tcprobe compare`'s "
		 "rules (noise band max(%.3g%%, both spreads); regression beyond %.3g%% or OK -> not OK): %d rows "
		 "joined on (probe, axes, metric).", bl->cur->name, bl->base->name,
		 tcp_cmp_prov(bl->base, "gpu_name") ? tcp_cmp_prov(bl->base, "gpu_name") : "?",
		 tcp_cmp_prov(bl->base, "driver_version") ? tcp_cmp_prov(bl->base, "driver_version") : "?",
		 tcp_cmp_prov(bl->base, "started_utc") ? tcp_cmp_prov(bl->base, "started_utc") : "?",
		 c->noise_floor_pct, c->threshold_pct, c->nrows);
	rpt_para(o, html, b);
	b[0] = 0;
	for (int v = 0; v < TCP_V_COUNT; v++)
		if (s->base_all[v])
			snprintf(b + strlen(b), sizeof(b) - strlen(b), "%s%s %d", b[0] ? ", " : "All rows measured on a side: ",
				 tcp_verdict_name((tcp_verdict_t)v), s->base_all[v]);
	snprintf(b + strlen(b), sizeof(b) - strlen(b), "%sregressions %d; %d more SKIPPED or UNSUPPORTED on every "
		 "side (not counted; missing counts rows OK in the baseline only).", b[0] ? "; " : "", c->nregress[0],
		 s->base_notrun);
	rpt_para(o, html, b);
	/* a reviewer's view: each probe's primary metric (the one its table ranks by) */
	const int *prim = s->base_prim;
	b[0] = 0;
	for (int v = 0; v < TCP_V_COUNT; v++)
		if (prim[v])
			snprintf(b + strlen(b), sizeof(b) - strlen(b), "%s%s %d", b[0] ? ", " : "", 
				 tcp_verdict_name((tcp_verdict_t)v), prim[v]);
	rpt_para(o, html, "On each probe's primary metric (FLOP/clk/SM, cycles, ...: what its table ranks by):");
	rpt_para(o, html, b[0] ? b : "no row");
	for (int i = 0; i < c->nrows; i++) {
		const tcp_cmp_row_t *w = &c->rows[i];
		const tcp_cmp_cell_t *x = &w->cells[0];
		int v = rpt_verdict_counted(x);
		if (v < 0 || v == TCP_V_SAME || v == TCP_V_UNMEASURED || !rpt_primary_row(r, w))
			continue;
		if (listed == LIST_MAX) {
			more++;
			continue;
		}
		if (!listed++)
			rpt_tab_begin(o, html, h, 8);
		cc[0] = tcp_verdict_name(x->verdict);
		cc[1] = w->probe;
		cc[2] = w->axes;
		cc[3] = w->metric;
		cc[4] = x->base ? (x->base->median_s && *x->base->median_s ? x->base->median_s : x->base->status) : "-";
		cc[5] = x->cur ? (x->cur->median_s && *x->cur->median_s ? x->cur->median_s : x->cur->status) : "-";
		cc[6] = rpt_num(x->change_pct, cell[6], sizeof(cell[6]), "%+.3g");
		cc[7] = rpt_num(x->noise_pct, cell[7], sizeof(cell[7]), "%.3g");
		rpt_tab_row(o, html, cc, 8);
	}
	if (listed)
		rpt_tab_end(o, html);
	compare_result(o, html, bl);
	if (listed)
		snprintf(b, sizeof(b), "Largest changes first; %d more not listed. `tcprobe compare %s %s` lists "
			 "every row; the ratio plot draws every row with a verdict, one image per probe.", more,
			 bl->base->name, bl->cur->name);
	else
		snprintf(b, sizeof(b), "No primary metric changed beyond the noise band, none went missing.");
	rpt_para(o, html, b);
}

/*
 * The probes whose finding is a rate against a load they sweep: the axis,
 * what one unit of it is, and the metric.  The rest state what their
 * primary metric's rows say (rpt_probe_finding).
 */
static const struct load_rule {
	const char *probe, *axis, *label, *metric;
} load_rules[] = {
	{ "wgmma_epilogue", "epi_ffma", "FFMA per element", "flop_per_clk_sm" },
};

#define FIND_MAX_PTS 4096	/* OK points a finding looks at */
#define FIND_MAX_AXES 16
#define FIND_MAX_VALS 64
#define FIND_MAX_GROUPS 8	/* load curves or categories stated in one sentence */
#define BASELINE_FRAC 0.01	/* a category under this share of the largest is a baseline */

static void cat(char *b, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cat(char *b, size_t len, const char *fmt, ...)
{
	size_t n = strlen(b);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(b + n, len - n, fmt, ap);
	va_end(ap);
}

/* The point's axes less one ("" when none is left). */
static void axes_less(const tcp_run_point_t *p, const char *skip, char *b, size_t len)
{
	b[0] = 0;
	for (int a = 0; a < p->naxes; a++)
		if (!skip || strcmp(p->an[a], skip))
			cat(b, len, "%s%s=%s", b[0] ? ";" : "", p->an[a], p->av[a]);
}

static int is_number(const char *s, double *v)
{
	char *e;

	*v = strtod(s, &e);
	return *s && !*e;
}

/*
 *  load_finding()
 *	Per curve (the other axes), the metric at the smallest and the largest
 *	value of the load axis: "4093 -> 2239 FLOP/clk/SM from 0 to 512 FFMA
 *	per element at N=256;mma_wg=1".  0 when the run has no such curve.
 */
static int load_finding(const tcp_run_t *r, const struct load_rule *lr, const tcp_run_point_t **pt, int n,
			char *b, size_t len)
{
	char key[FIND_MAX_GROUPS][256], k[256];
	const tcp_run_point_t *lo[FIND_MAX_GROUPS], *hi[FIND_MAX_GROUPS];
	double vlo[FIND_MAX_GROUPS], vhi[FIND_MAX_GROUPS], v;
	int ng = 0, more = 0, same = 1;

	(void)r;
	for (int i = 0; i < n; i++) {
		const char *av = tcp_point_axis(pt[i], lr->axis);
		int g;
		if (!av || !is_number(av, &v) || !tcp_point_metric(pt[i], lr->metric))
			continue;
		axes_less(pt[i], lr->axis, k, sizeof(k));
		for (g = 0; g < ng && strcmp(key[g], k); g++)
			;
		if (g == ng) {
			if (ng == FIND_MAX_GROUPS) {
				more++;
				continue;
			}
			snprintf(key[ng++], sizeof(key[0]), "%s", k);
			lo[g] = hi[g] = pt[i];
			vlo[g] = vhi[g] = v;
			continue;
		}
		if (v < vlo[g])
			lo[g] = pt[i], vlo[g] = v;
		if (v > vhi[g])
			hi[g] = pt[i], vhi[g] = v;
	}
	for (int g = 0; g < ng; g++)
		same &= vlo[g] == vlo[0] && vhi[g] == vhi[0];
	int shown = 0;
	for (int g = 0; g < ng; g++) {
		if (vlo[g] == vhi[g])
			continue;
		const tcp_run_row_t *a = tcp_point_metric(lo[g], lr->metric), *z = tcp_point_metric(hi[g], lr->metric);
		if (!shown++ && same)
			cat(b, len, "From %.6g to %.6g %s, %s goes ", vlo[g], vhi[g], lr->label, lr->metric);
		else if (shown == 1)
			cat(b, len, "As the %s grows, %s goes ", lr->label, lr->metric);
		cat(b, len, "%s%.4g -> %.4g %s", shown > 1 ? "; " : "", a->median, z->median, a->unit);
		if (!same)
			cat(b, len, " from %.6g to %.6g", vlo[g], vhi[g]);
		if (key[g][0])
			cat(b, len, " at %s", key[g]);
	}
	if (!shown)
		return 0;
	if (more)
		cat(b, len, " (and %d more curve%s)", more, more == 1 ? "" : "s");
	cat(b, len, ".");
	return 1;
}

/*
 *  category_finding()
 *	A probe whose OK points differ in one non-numeric axis only (the
 *	operations it times): each value's median, a value under BASELINE_FRAC
 *	of the largest named as a baseline rather than as a finding.
 */
static int category_finding(const tcp_run_point_t **pt, int n, const char *metric, char *b, size_t len)
{
	const char *ax = NULL;
	double v;

	if (n < 2 || n > FIND_MAX_GROUPS)
		return 0;
	for (int a = 0; a < pt[0]->naxes; a++) {
		int differs = 0;
		for (int i = 1; i < n; i++) {
			const char *w = tcp_point_axis(pt[i], pt[0]->an[a]);
			differs |= !w || strcmp(w, pt[0]->av[a]);
		}
		if (!differs)
			continue;
		if (ax || is_number(pt[0]->av[a], &v))
			return 0;
		ax = pt[0]->an[a];
	}
	if (!ax)
		return 0;
	double top = 0;
	for (int i = 0; i < n; i++)
		top = fmax(top, fabs(tcp_point_metric(pt[i], metric)->median));
	const char *unit = tcp_point_metric(pt[0], metric)->unit;
	int shown = 0;
	cat(b, len, "%s per %s:", metric, ax);
	for (int i = 0; i < n; i++) {
		const tcp_run_row_t *m = tcp_point_metric(pt[i], metric);
		if (fabs(m->median) >= BASELINE_FRAC * top)
			cat(b, len, "%s %s %.4g", shown++ ? "," : "", tcp_point_axis(pt[i], ax), m->median);
	}
	cat(b, len, " %s", unit);
	for (int i = 0, nb = 0; i < n; i++) {
		const tcp_run_row_t *m = tcp_point_metric(pt[i], metric);
		if (fabs(m->median) < BASELINE_FRAC * top)
			cat(b, len, "%s%s=%s (%.3g %s)", nb++ ? ", " : "; the baseline, under 1% of the largest, is ",
			    ax, tcp_point_axis(pt[i], ax), m->median, unit);
	}
	cat(b, len, ".");
	return 1;
}

/* The axis whose values move the metric most (the span of its per-value means), NULL when none varies. */
static const char *moving_axis(const tcp_run_point_t **pt, int n, const char *metric)
{
	const char *names[FIND_MAX_AXES], *best = NULL;
	int nn = 0;
	double span_best = -1;

	for (int i = 0; i < n; i++)
		for (int a = 0; a < pt[i]->naxes; a++) {
			int j;
			for (j = 0; j < nn && strcmp(names[j], pt[i]->an[a]); j++)
				;
			if (j == nn && nn < FIND_MAX_AXES)
				names[nn++] = pt[i]->an[a];
		}
	for (int j = 0; j < nn; j++) {
		const char *val[FIND_MAX_VALS];
		double sum[FIND_MAX_VALS];
		int cnt[FIND_MAX_VALS], nv = 0;
		for (int i = 0; i < n; i++) {
			const char *w = tcp_point_axis(pt[i], names[j]);
			int k;
			if (!w)
				continue;
			for (k = 0; k < nv && strcmp(val[k], w); k++)
				;
			if (k == nv) {
				if (nv == FIND_MAX_VALS)
					continue;
				val[nv] = w, sum[nv] = 0, cnt[nv++] = 0;
			}
			sum[k] += tcp_point_metric(pt[i], metric)->median;
			cnt[k]++;
		}
		if (nv < 2)
			continue;
		double lo = INFINITY, hi = -INFINITY;
		for (int k = 0; k < nv; k++)
			lo = fmin(lo, sum[k] / cnt[k]), hi = fmax(hi, sum[k] / cnt[k]);
		if (hi - lo > span_best)
			span_best = hi - lo, best = names[j];
	}
	return best;
}

/*
 *  rpt_probe_finding()
 *	The probe's finding in one sentence, from its OK points' rows: a rate
 *	against a swept load (load_rules[]) states the rate at the smallest
 *	and the largest load per curve; one timed operation per point states
 *	each operation's figure, a near-zero one as a baseline; a math rate
 *	states its best point and % of peak; any other metric its range and
 *	the axis it moves with.  0 when no OK point has the primary metric.
 */
int rpt_probe_finding(const tcp_run_t *r, const char *probe, char *b, size_t len)
{
	const tcp_run_point_t *pt[FIND_MAX_PTS];
	int hib, n = 0;
	const char *metric = rpt_primary_metric(r, probe, &hib);

	b[0] = 0;
	if (!metric || !len)
		return 0;
	for (int i = 0; i < r->npoints && n < FIND_MAX_PTS; i++) {
		const tcp_run_point_t *p = &r->points[i];
		const tcp_run_row_t *m;
		if (!strcmp(p->probe, probe) && p->status == TCP_OK && (m = tcp_point_metric(p, metric)) &&
		    isfinite(m->median))
			pt[n++] = p;
	}
	if (!n)
		return 0;
	for (size_t i = 0; i < sizeof(load_rules) / sizeof(load_rules[0]); i++)
		if (!strcmp(load_rules[i].probe, probe) && load_finding(r, &load_rules[i], pt, n, b, len))
			return 1;
	b[0] = 0;
	if (category_finding(pt, n, metric, b, len))
		return 1;
	b[0] = 0;
	const tcp_run_point_t *lo = pt[0], *hi = pt[0];
	for (int i = 1; i < n; i++) {
		double v = tcp_point_metric(pt[i], metric)->median;
		if (v < tcp_point_metric(lo, metric)->median)
			lo = pt[i];
		if (v > tcp_point_metric(hi, metric)->median)
			hi = pt[i];
	}
	const tcp_run_row_t *ml = tcp_point_metric(lo, metric), *mh = tcp_point_metric(hi, metric);
	if (hib && rpt_is_flop_rate(mh->unit)) {
		double pct = rpt_point_pct(hi, mh, rpt_point_peak(r, hi, NULL));
		cat(b, len, "Best %s: %.4g %s", metric, mh->median, mh->unit);
		if (isfinite(pct))
			cat(b, len, " (%.1f%% of peak)", pct);
		cat(b, len, " at %s, of %d OK point%s.", hi->axes, n, n == 1 ? "" : "s");
		return 1;
	}
	char l4[32], h4[32];
	snprintf(l4, sizeof(l4), "%.4g", ml->median);
	snprintf(h4, sizeof(h4), "%.4g", mh->median);
	if (n == 1 || !strcmp(l4, h4)) {	/* flat at the precision stated */
		cat(b, len, "%s is %s %s at %s (%d).", metric, l4, ml->unit, n == 1 ? "its one OK point" : "every OK point", n);
		return 1;
	}
	const char *ax = moving_axis(pt, n, metric);
	cat(b, len, "%s ranges from %.4g %s at %s to %.4g %s at %s", metric, ml->median, ml->unit, lo->axes,
	    mh->median, mh->unit, hi->axes);
	if (ax)
		cat(b, len, "; it moves most with %s", ax);
	cat(b, len, ".");
	return 1;
}
