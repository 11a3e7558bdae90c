/*
 * test-report.c
 *	tcprobe report: a run read back from CSV, best points and % of peak,
 *	status counts, the per-plot data files (values, fits and their ranges,
 *	one image per kind, accumulator widths, estimates, the ratio plot's
 *	facets, manifest), the "no data" path, report.md / report.html
 *	(escaping, inlined PNG), the findings (one- or two-segment fits,
 *	per-kind rows, what needs attention, summary.json), the plots'
 *	provenance footer, and bad input.  Every
 *	synthetic run is written fresh through csvio.h with values drawn from a
 *	new seed, so nothing here is a hard-coded result.  Committed runs, read
 *	and reported by the production code: the README run's report against
 *	the data it was made from, and its plot data from the report's own
 *	comparison (--extract --baseline); the newest gate run's (unique id, clocks,
 *	one row per family and class, sparse peaks, TFLOP/s ranges, verdict
 *	counts); the energy runs' (the stated pattern, INCOMPLETE named); an
 *	emulated run's (EMULATED first).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/store/csvio.h"
#include "harness/analyze/report.h"
#include "harness/analyze/report-int.h"
#include "harness/store/provenance.h"
#include "model/kinds.h"
#include "model/peaks.h"
#include "test-rows.h"

/* The axis columns of the runs these tests write (other axes are in `axes` only). */
static const char *const axcols[] = { "depth", "N", "kind", "acc" };
/* Cells of the next run_point() its arguments do not cover (NULL: empty). */
static const char *g_acc, *g_contended, *g_ci, *g_throttle, *g_axes;	/* g_axes: more axes, "a=1;b=2" */

static uint64_t rng_state;

/* |a - b| <= tol, with both values in the failure message (cmocka 1.1 has no double assert). */
#define assert_close(a, b, tol) close_check((a), (b), (tol), #a, __FILE__, __LINE__)
static void close_check(double a, double b, double tol, const char *what, const char *file, int line)
{
	if (!(fabs(a - b) <= tol))
		fail_msg("%s:%d: %s = %.17g, expected %.17g (tolerance %g)", file, line, what, a, b, tol);
}

static double urand(void)	/* xorshift64*, uniform in [0, 1) */
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (double)((rng_state * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

struct run {
	char dir[256];
	tcp_rows_t *w;
	int point;
};

static void run_open(struct run *r)
{
	char err[512];

	snprintf(r->dir, sizeof(r->dir), "/tmp/tcp-test-report-XXXXXX");
	assert_non_null(mkdtemp(r->dir));
	char path[512];
	snprintf(path, sizeof(path), "%s/measurements.csv", r->dir);
	r->w = tcp_rows_open(path, axcols, 4, 0, err, sizeof(err));
	assert_non_null(r->w);
	r->point = 0;
}

/* One point's rows: metrics[i] with unit[i] and value v[i] (NaN: empty). */
static void run_point(struct run *r, const char *probe, const char *arch, const char *kind, int n, int d,
		      const char *status, const char *reason, int nm, const char *const *metrics,
		      const char *const *units, const double *v)
{
	char axes[80] = "", point[16], med[8][40];
	tcp_row_t rows[8];
	test_row_buf_t buf[8];

	if (kind)
		snprintf(axes, sizeof(axes), "kind=%s", kind);
	if (n)
		snprintf(axes + strlen(axes), sizeof(axes) - strlen(axes), "%sN=%d", *axes ? ";" : "", n);
	if (d)
		snprintf(axes + strlen(axes), sizeof(axes) - strlen(axes), "%sdepth=%d", *axes ? ";" : "", d);
	if (g_acc)
		snprintf(axes + strlen(axes), sizeof(axes) - strlen(axes), "%sacc=%s", *axes ? ";" : "", g_acc);
	if (g_axes)
		snprintf(axes + strlen(axes), sizeof(axes) - strlen(axes), "%s%s", *axes ? ";" : "", g_axes);
	snprintf(point, sizeof(point), "%d", r->point);
	for (int m = 0; m < nm; m++) {
		const char **c = rows[m].c;
		memset(&rows[m], 0, sizeof(rows[m]));
		c[TCP_COL_run_id] = "test-run";
		c[TCP_COL_gpu] = "0";
		c[TCP_COL_point] = point;
		c[TCP_COL_probe] = probe;
		c[TCP_COL_arch] = arch;
		c[TCP_COL_axes] = axes;
		c[TCP_COL_metric] = metrics[m];
		c[TCP_COL_unit] = units[m];
		if (!strcmp(status, "OK") && isfinite(v[m])) {
			snprintf(med[m], sizeof(med[m]), "%.17g", v[m]);
			c[TCP_COL_median] = med[m];
			c[TCP_COL_spread_pct] = "0.5";
			c[TCP_COL_sm_clock_mhz] = "1755";
		}
		c[TCP_COL_reps] = "5";
		c[TCP_COL_status] = status;
		c[TCP_COL_reason] = reason;
		c[TCP_COL_contended] = g_contended;
		c[TCP_COL_ci_pct] = g_ci && m == 0 ? g_ci : NULL;
		c[TCP_COL_reps_stop] = g_ci && m == 0 ? "max" : NULL;
		c[TCP_COL_throttle] = g_throttle ? g_throttle : "none";
		test_row_finish(&rows[m], &buf[m]);
	}
	assert_int_equal(tcp_rows_write(r->w, rows, nm), 0);
	r->point++;
}

static void run_close(struct run *r, int with_prov)
{
	char err[512], path[512];

	assert_int_equal(tcp_rows_close(r->w), 0);
	if (with_prov) {
		static const char *const k[] = { "gpu_name", "driver_version", "compute_capability" };
		static const char *const v[] = { "Test GPU <b>&", "999.1", "9.0" };
		snprintf(path, sizeof(path), "%s/provenance.csv", r->dir);
		assert_int_equal(tcp_csv_write_kv(path, k, v, 3, err, sizeof(err)), 0);
	}
}

static void rm_rf(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static char *slurp(const char *dir, const char *name)
{
	char path[600];
	FILE *f;
	long n;
	char *buf;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

/* Value of `name = <number>` or `name[idx] = <number>` in a .gpvars file. */
static double gpvar(const char *text, const char *name)
{
	char pat[96];
	const char *s;

	snprintf(pat, sizeof(pat), "%s = ", name);
	for (s = text; (s = strstr(s, pat)); s++)
		if (s == text || s[-1] == '\n' || s[-1] == ' ')
			return strtod(s + strlen(pat), NULL);
	fail_msg("%s not in gpvars", name);
	return NAN;
}

/* The tab-separated row of a .dat whose column 2 (label) equals label; fields into f. */
static int dat_row(const char *text, const char *label, char f[16][64])
{
	char line[1024];
	const char *s = text;

	while (*s) {
		size_t n = strcspn(s, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)n, s);
		s += n + (s[n] == '\n');
		int nf = 0;
		char *save = NULL;
		for (char *t = strtok_r(line, "\t", &save); t && nf < 16; t = strtok_r(NULL, "\t", &save))
			snprintf(f[nf++], 64, "%s", t);
		if (nf > 1 && !strcmp(f[1], label))
			return nf;
	}
	return 0;
}

static const char *const rate_m[] = { "flop_per_clk_sm", "sm_clock_mhz" };
static const char *const rate_u[] = { "FLOP/clk/SM", "MHz" };

/*
 * Best points, % of peak and status counts on a random run: the best per
 * kind is the maximum drawn, % of peak is median / model peak, and every
 * status is counted per point, not per row.  The clock is the point's
 * in-kernel one (wgmma_tput declares sm_clock_mhz its clock), NVML's sampled
 * column beside it with its difference.
 */
static void test_best_and_counts(void **state)
{
	static const char *const kinds[] = { "f16", "tf32", "e4m3" };
	static const int kk[] = { TCP_KIND_F16, TCP_KIND_TF32, TCP_KIND_F8F6F4 };
	static const char *const st[] = { "FAILED", "INVALID", "TIMEOUT", "SKIPPED", "UNSUPPORTED" };
	struct run r;
	double best[3] = { -1, -1, -1 }, bclk[3] = { 0 };
	int count[6] = { 0 };
	char err[512];
	tcp_run_t *run;

	(void)state;
	run_open(&r);
	for (int i = 0; i < 60; i++) {
		int k = (int)(urand() * 3), n = 8 * (i + 1);	/* unique axes: one point each */
		double v[2] = { 100 + urand() * 8000, 1700 + urand() * 200 };
		int s = urand() < 0.7 ? -1 : (int)(urand() * 5);
		run_point(&r, "wgmma_tput", "sm_90a", kinds[k], n, 0, s < 0 ? "OK" : st[s], s < 0 ? "" : "why",
			  2, rate_m, rate_u, v);
		count[s + 1]++;
		if (s < 0 && v[0] > best[k]) {
			best[k] = v[0];
			bclk[k] = v[1];
		}
	}
	run_close(&r, 1);
	assert_int_equal(tcp_run_open(r.dir, 0, &run, err, sizeof(err)), 0);
	assert_int_equal(run->npoints, 60);
	assert_int_equal(run->nprobes, 1);
	assert_string_equal(run->probes[0], "wgmma_tput");
	assert_null(run->probes[1]);
	assert_string_equal(tcp_run_prov(run, "driver_version"), "999.1");
	assert_int_equal(tcp_run_count(run, "wgmma_tput", TCP_OK), count[0]);
	assert_int_equal(tcp_run_count(run, "wgmma_tput", TCP_FAILED), count[1]);
	assert_int_equal(tcp_run_count(run, "wgmma_tput", TCP_INVALID), count[2]);
	assert_int_equal(tcp_run_count(run, "wgmma_tput", TCP_TIMEOUT), count[3]);
	assert_int_equal(tcp_run_count(run, "wgmma_tput", TCP_SKIPPED), count[4]);
	assert_int_equal(tcp_run_count(run, "wgmma_tput", TCP_UNSUPPORTED), count[5]);

	tcp_best_t b[8];
	int nb = tcp_run_best(run, "wgmma_tput", b, 8), seen = 0;
	for (int i = 0; i < nb; i++) {
		assert_string_equal(b[i].metric, "flop_per_clk_sm");
		for (int k = 0; k < 3; k++)
			if (!strncmp(b[i].axes, "kind=", 5) && !strncmp(b[i].axes + 5, kinds[k], strlen(kinds[k])) &&
			    b[i].axes[5 + strlen(kinds[k])] == ';') {
				double peak = tcp_kind_flop_clk_sm((tcp_kind_t)kk[k], TCP_GEN_SM90);
				assert_close(b[i].median, best[k], 1e-9 * best[k]);
				assert_close(b[i].peak, peak, 0);
				assert_close(b[i].pct_peak, best[k] / peak * 100, 1e-9);
				assert_close(b[i].clock_mhz, bclk[k], 0);	/* the clock measured under load */
				assert_int_equal(b[i].clock_src, RPT_CLK_KERNEL);
				assert_close(b[i].nvml_mhz, 1755, 0);		/* the NVML column, apart */
				assert_close(b[i].nvml_off_pct, (1755 - bclk[k]) / bclk[k] * 100, 1e-9);
				seen++;
			}
	}
	assert_int_equal(seen, (best[0] > 0) + (best[1] > 0) + (best[2] > 0));
	assert_int_equal(nb, seen);
	tcp_run_free(run);
	rm_rf(r.dir);
}

/* A probe's own pct_peak metric wins over the computed one; lower-is-better ranks by min. */
static void test_pct_peak_metric_and_latency(void **state)
{
	static const char *const m3[] = { "flop_per_clk_sm", "pct_peak" };
	static const char *const u3[] = { "FLOP/clk/SM", "%" };
	static const char *const ml[] = { "cycles" };
	static const char *const ul[] = { "cycles" };
	struct run r;
	char err[512];
	tcp_run_t *run;
	double pct = urand() * 100, lo = INFINITY;

	(void)state;
	run_open(&r);
	double v[2] = { 1000 + urand() * 1000, pct };
	run_point(&r, "test_rate2", "sm_90a", "f16", 128, 0, "OK", NULL, 2, m3, u3, v);
	for (int i = 0; i < 10; i++) {
		double c = 20 + urand() * 200;
		run_point(&r, "test_lat", "sm_90a", NULL, 8 * (i + 1), 0, "OK", NULL, 1, ml, ul, &c);
		lo = fmin(lo, c);
	}
	run_close(&r, 0);
	assert_int_equal(tcp_run_open(r.dir, 0, &run, err, sizeof(err)), 0);
	assert_null(tcp_run_prov(run, "gpu_name"));
	tcp_best_t b[4];
	assert_int_equal(tcp_run_best(run, "test_rate2", b, 4), 1);
	assert_close(b[0].pct_peak, pct, 1e-9);
	assert_int_equal(tcp_run_best(run, "test_lat", b, 4), 1);
	assert_close(b[0].median, lo, 1e-9);
	assert_true(isnan(b[0].pct_peak));
	tcp_run_free(run);
	rm_rf(r.dir);
}

/*
 * Plot data: latency fit recovers a random line, the II fit a random
 * a + b/D and its saturating depth, the accumulator-bandwidth table uses the
 * measured best, and the manifest says which plots have data.
 */
static void test_extract(void **state)
{
	static const char *const ml[] = { "cycles_per_mma" }, *const ul[] = { "cycles" };
	static const char *const mi[] = { "cycles_per_mma" }, *const ui[] = { "cycles" };
	struct run r;
	char err[512], f[16][64];
	tcp_run_t *run;
	tcp_plot_state_t st[TCP_PLOTS_MAX];
	double a = 5 + urand() * 100, b = 0.1 + urand(), ia = 20 + urand() * 60, ib = 50 + urand() * 200;
	double best = 0;

	(void)state;
	run_open(&r);
	for (int n = 8; n <= 256; n += 8) {
		double c = a + b * n;
		run_point(&r, "wgmma_lat", "sm_90a", "f16", n, 0, "OK", NULL, 1, ml, ul, &c);
	}
	for (int d = 1; d <= 64; d *= 2) {
		double c = ia + ib / d;
		run_point(&r, "tc_mma_ii", "sm_100a", "f16", 128, d, "OK", NULL, 1, mi, ui, &c);
	}
	for (int n = 64; n <= 256; n += 64) {
		double v[2] = { 3000 + urand() * 1000, 1755 };
		run_point(&r, "wgmma_tput", "sm_90a", "bf16", n, 0, "OK", NULL, 2, rate_m, rate_u, v);
		best = fmax(best, v[0]);
	}
	double huge[2] = { 1e9, 1755 };	/* a FAILED point's value must never be used */
	run_point(&r, "wgmma_tput", "sm_90a", "bf16", 8, 0, "FAILED", "boom", 2, rate_m, rate_u, huge);
	/* tcgen05 f16 accumulating (enable_input_d = 1) and overwriting (0, the higher
	 * rate: it must not become the accumulate bar) */
	double acc[2] = { 7000 + urand() * 1000, 90 }, over[2] = { 8100 + urand() * 50, 99 };
	g_axes = "enable_input_d=1";
	run_point(&r, "tc_mma_tput", "sm_100a", "f16", 256, 0, "OK", NULL, 2, rate_m, rate_u, acc);
	g_axes = "enable_input_d=0";
	run_point(&r, "tc_mma_tput", "sm_100a", "f16", 256, 0, "OK", NULL, 2, rate_m, rate_u, over);
	g_axes = NULL;
	run_close(&r, 1);

	assert_int_equal(tcp_run_open(r.dir, 0, &run, err, sizeof(err)), 0);
	assert_int_equal(tcp_report_extract(run, NULL, r.dir, st, err, sizeof(err)), 0);
	assert_true(st[tcp_plot_find("lat-vs-n")].has_data);
	assert_true(st[tcp_plot_find("ii-vs-depth")].has_data);
	assert_true(st[tcp_plot_find("tput-vs-n")].has_data);
	assert_true(st[tcp_plot_find("k4-identity")].has_data);
	assert_false(st[tcp_plot_find("tmem-bw")].has_data);
	assert_false(st[tcp_plot_find("compare-ratio")].has_data);
	assert_non_null(strstr(st[tcp_plot_find("tmem-bw")].note, "no OK points"));

	char *g = slurp(r.dir, "lat-vs-n.gpvars");
	assert_non_null(g);
	assert_close(gpvar(g, "fa[1]"), a, 1e-6 * a);
	assert_close(gpvar(g, "fb[1]"), b, 1e-6 * b);
	assert_close(gpvar(g, "NP"), 1, 0);
	free(g);
	g = slurp(r.dir, "ii-vs-depth.gpvars");
	assert_close(gpvar(g, "fa[1]"), ia, 1e-6 * ia);
	assert_close(gpvar(g, "fb[1]"), ib, 1e-6 * ib);
	assert_close(gpvar(g, "fsat[1]"), ceil(ib / (0.05 * ia)), 0);
	free(g);
	g = slurp(r.dir, "tput-vs-n.gpvars");
	assert_close(gpvar(g, "ppeak[1]"), tcp_kind_flop_clk_sm(TCP_KIND_F16, TCP_GEN_SM90), 0);
	free(g);

	g = slurp(r.dir, "acc-bandwidth.dat");
	assert_int_equal(dat_row(g, "wgmma f16", f), 16);
	assert_string_equal(f[7], "measured");
	assert_close(strtod(f[6], NULL), best, 1e-9 * best);
	assert_close(strtod(f[9], NULL), best / 4, 1e-9 * best);	/* K = 16: rate / 4 */
	assert_true(isnan(strtod(f[13], NULL)));	/* wgmma has no overwrite form here */
	assert_string_equal(f[15], "32");
	assert_int_equal(dat_row(g, "tcgen05 mxf4", f), 16);
	assert_string_equal(f[7], "published");
	assert_close(strtod(f[5], NULL), tcp_kind_k(TCP_KIND_MXF4) / 4.0, 0);
	/* the bar is the accumulating point, the overwrite columns the other */
	assert_int_equal(dat_row(g, "tcgen05 f16", f), 16);
	assert_string_equal(f[7], "measured");
	assert_close(strtod(f[6], NULL), acc[0], 1e-9 * acc[0]);
	assert_close(strtod(f[13], NULL), over[0], 1e-9 * over[0]);
	assert_close(strtod(f[14], NULL), over[0] / 4, 1e-9 * over[0]);	/* K = 16 */
	free(g);
	g = slurp(r.dir, "acc-bandwidth.gpvars");
	assert_close(gpvar(g, "noverwrite"), 1, 0);
	free(g);
	/* the summary's best tcgen05 f16 rate is the accumulating one too */
	rpt_summary_t *sm = rpt_summary_build(run, NULL);
	assert_non_null(sm);
	int tc_rows = 0;
	for (int i = 0; i < sm->nkinds; i++)
		if (!strcmp(sm->kinds[i].probe, "tc_mma_tput")) {
			assert_close(sm->kinds[i].rate, acc[0], 1e-9 * acc[0]);
			tc_rows++;
		}
	assert_int_equal(tc_rows, 1);
	free(sm);
	g = slurp(r.dir, "k4-identity.dat");
	assert_int_equal(dat_row(g, "wgmma f16", f), 13);	/* the model table: no measured columns */
	free(g);
	g = slurp(r.dir, "manifest.tsv");
	assert_non_null(strstr(g, "lat-vs-n\t1\t"));
	assert_non_null(strstr(g, "tmem-bw\t0\tno OK points"));
	free(g);
	/* no stale files for plots without data */
	char path[600];
	snprintf(path, sizeof(path), "%s/tmem-bw.dat", r.dir);
	assert_int_not_equal(access(path, F_OK), 0);
	tcp_run_free(run);
	rm_rf(r.dir);
}

/* report.md / report.html: escaping, the "not drawn" reasons, the inlined PNG. */
static void test_write(void **state)
{
	static const char *const ml[] = { "flop_per_clk_sm" }, *const ul[] = { "FLOP/clk/SM" };
	struct run r;
	char err[512], path[600];
	tcp_run_t *run;
	tcp_plot_state_t st[TCP_PLOTS_MAX];
	unsigned char png[64];
	char b64[128];

	(void)state;
	run_open(&r);
	double v = 1000 + urand() * 1000;
	run_point(&r, "test_x", "sm_90a", "f16", 64, 0, "OK", NULL, 1, ml, ul, &v);
	run_point(&r, "test_x", "sm_90a", "f16", 72, 0, "INVALID", "D[1,2] = <3> | expected 4", 1, ml, ul, &v);
	run_close(&r, 1);
	for (size_t i = 0; i < sizeof(png); i++)
		png[i] = (unsigned char)(urand() * 256);
	snprintf(path, sizeof(path), "%s/k4-identity.png", r.dir);
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(png, 1, sizeof(png), fp), sizeof(png));
	fclose(fp);
	snprintf(path, sizeof(path), "%s/k4-identity.svg", r.dir);
	fp = fopen(path, "w");
	fputs("<svg/>", fp);
	fclose(fp);
	tcp_base64(png, sizeof(png), b64);

	assert_int_equal(tcp_run_open(r.dir, 0, &run, err, sizeof(err)), 0);
	assert_int_equal(tcp_report_extract(run, NULL, NULL, st, err, sizeof(err)), 0);
	assert_int_equal(tcp_report_write(run, r.dir, st, err, sizeof(err)), 0);
	char *md = slurp(r.dir, "report.md"), *html = slurp(r.dir, "report.html");
	assert_non_null(md);
	assert_non_null(html);
	assert_non_null(strstr(md, "](k4-identity.svg)"));
	assert_non_null(strstr(md, "D[1,2] = <3> \\| expected 4"));
	assert_non_null(strstr(md, "Not drawn: no OK points of wgmma_lat"));
	assert_non_null(strstr(md, "| test_x | sm_90a | 2 | 1 | 0 | 1 | 0 | 0 | 0 |"));
	assert_non_null(strstr(md, "Points: 2 (OK 1, INVALID 1)."));
	assert_non_null(strstr(html, b64));
	assert_non_null(strstr(html, "data:image/png;base64,"));
	assert_non_null(strstr(html, "D[1,2] = &lt;3&gt; | expected 4"));
	assert_non_null(strstr(html, "Test GPU &lt;b&gt;&amp;"));
	assert_null(strstr(html, "<b>&"));
	assert_non_null(strstr(html, "</html>"));
	/* acc-bandwidth has data (published peaks) but no image: says how to render */
	assert_non_null(strstr(md, "make plots RUN="));
	free(md);
	free(html);
	tcp_run_free(run);
	rm_rf(r.dir);
}

/* The fields of a tab-separated line into f (up to nmax); their count. */
static int tab_fields(const char *line, char f[][200], int nmax)
{
	char buf[2048], *save = NULL;
	int nf = 0;

	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(line, "\n"), line);
	for (char *t = strtok_r(buf, "\t", &save); t && nf < nmax; t = strtok_r(NULL, "\t", &save))
		snprintf(f[nf++], 200, "%s", t);
	return nf;
}

/*
 * The ratio plot from compare's CSV as `tcprobe report --baseline` writes it
 * (tcp_cmp_write_csv on two runs written through csvio): one facet per probe,
 * every row with a verdict on numbers in its probe's facet with its ratio and
 * verdict (not only a primary metric), the regression numbered first, the
 * rows only one run measured in the strip, and an image per facet and one
 * for the strip.
 */
static void test_compare_ratio(void **state)
{
	static const char *const mc[] = { "cycles" }, *const uc[] = { "cycles" };
	struct run rb, rn;
	char err[512], path[600], f[20][200];
	tcp_run_t *run;
	tcp_plot_state_t st[TCP_PLOTS_MAX];
	int reg_n = 3 + (int)(urand() * 10);		/* the point that regresses */
	double c0 = 50 + urand() * 50;			/* test_b: cycles = c0 + N / 4 in the base, within 2.5% in the new run */

	(void)state;
	run_open(&rb);
	run_open(&rn);
	for (int n = 1; n <= 16; n++) {
		double v[2] = { 1000 + urand() * 1000, 1700 + urand() * 100 }, w[2], c = c0 + 2.0 * n, d;
		d = c * (1 + 0.05 * (urand() - 0.5));
		w[0] = v[0] * (n == reg_n ? 0.8 : 1 + 0.004 * (urand() - 0.5));	/* 20% fewer FLOP/clk: slower */
		w[1] = v[1] * (1 + 0.02 * (urand() - 0.5));
		run_point(&rb, "test_a", "sm_90a", "f16", 8 * n, 0, "OK", NULL, 2, rate_m, rate_u, v);
		run_point(&rn, "test_a", "sm_90a", "f16", 8 * n, 0, "OK", NULL, 2, rate_m, rate_u, w);
		if (n != 16)		/* N = 8 only in the base: missing; N = 128 only in the new run: new */
			run_point(&rb, "test_b", "sm_90a", NULL, 8 * n, 0, "OK", NULL, 1, mc, uc, &c);
		if (n != 1)
			run_point(&rn, "test_b", "sm_90a", NULL, 8 * n, 0, "OK", NULL, 1, mc, uc, &d);
	}
	run_close(&rb, 1);
	run_close(&rn, 1);
	tcp_cmp_run_t base, cur;
	tcp_cmp_t cmp;
	assert_int_equal(tcp_cmp_run_load(rb.dir, NULL, &base, err, sizeof(err)), 0);
	assert_int_equal(tcp_cmp_run_load(rn.dir, NULL, &cur, err, sizeof(err)), 0);
	assert_int_equal(tcp_cmp_join(&base, &cur, 1, TCP_CMP_NOISE_FLOOR, TCP_CMP_THRESHOLD, &cmp, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/compare.csv", rn.dir);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(tcp_cmp_write_csv(fp, &cmp, &base, &cur), 0);
	fclose(fp);

	assert_int_equal(tcp_run_open(rn.dir, 0, &run, err, sizeof(err)), 0);
	assert_int_equal(tcp_report_extract(run, path, rn.dir, st, err, sizeof(err)), 0);
	const tcp_plot_state_t *ps = &st[tcp_plot_find("compare-ratio")];
	assert_true(ps->has_data);
	assert_int_equal(ps->nimages, 3);		/* test_a, test_b, the strip */
	assert_string_equal(ps->image[0], "compare-ratio-test_a");
	assert_string_equal(ps->image[1], "compare-ratio-test_b");
	assert_string_equal(ps->image[2], "compare-ratio-new-missing");
	char *g = slurp(rn.dir, "compare-ratio.gpvars"), *d = slurp(rn.dir, "compare-ratio.dat");
	assert_close(gpvar(g, "NF"), 2, 0);
	assert_close(gpvar(g, "NSR"), 1, 0);
	assert_close(gpvar(g, "fnm[1]"), 2, 0);		/* test_a: flop_per_clk_sm and sm_clock_mhz */
	assert_non_null(strstr(g, "ltext[1] = \"1  flop_per_clk_sm: -20%, REGRESSION"));

	/* every row of the CSV with a verdict on numbers is in its probe's facet, once */
	tcp_table_t t;
	assert_int_equal(tcp_table_load(path, &t, err, sizeof(err)), 0);
	int numeric = 0, strip = 0, regressions = 0;
	for (int i = 0; i < t.nrows; i++) {
		const char *v = tcp_table_get(&t, i, "verdict");
		if (!strcmp(v, "missing") || !strcmp(v, "new")) {
			strip++;
			continue;
		}
		numeric++;
		int found = 0;
		for (const char *l = d; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
			if (tab_fields(l, f, 20) != 18 || strcmp(f[0], tcp_table_get(&t, i, "probe")) ||
			    strcmp(f[2], tcp_table_get(&t, i, "metric")) || strcmp(f[3], tcp_table_get(&t, i, "axes")))
				continue;
			found++;
			assert_string_equal(f[9], v);
			assert_close(strtod(f[6], NULL), tcp_csv_num(tcp_table_get(&t, i, "ratio")), 0);
			assert_string_equal(f[11], tcp_table_get(&t, i, "regression"));
			if (!strcmp(f[11], "1")) {
				regressions++;
							assert_string_equal(f[15], "1");	/* numbered first */
				assert_string_equal(f[16], "4");	/* the regression colour */
			}
		}
		assert_int_equal(found, 1);
	}
	assert_int_equal(regressions, 1);
	assert_int_equal(strip, 2);
	/* the strip: test_b's missing (N = 8, OK in the base) and new (N = 128) rows and their counts */
	int in_strip = 0;
	for (const char *l = d; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n'))
		if (tab_fields(l, f, 20) == 9 && !strcmp(f[0], "new-missing")) {
			assert_string_equal(f[2], "test_b");
			assert_true((!strcmp(f[5], "missing") && !strcmp(f[4], "N=8")) ||
				    (!strcmp(f[5], "new") && !strcmp(f[4], "N=128")));
			in_strip++;
		}
	assert_int_equal(in_strip, 2);
	assert_non_null(strstr(d, "\n0\ttest_b\t1\t1\t0\t0\n"));
	int rows = 0;
	for (const char *l = d; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n'))
		rows += tab_fields(l, f, 20) == 18 && strcmp(f[0], "facet");
	assert_int_equal(rows, numeric);
	char *man = slurp(rn.dir, "manifest.tsv");
	assert_non_null(strstr(man, "\tcompare-ratio-test_a compare-ratio-test_b compare-ratio-new-missing\n"));
	free(man);
	tcp_table_free(&t);
	free(g);
	free(d);
	tcp_cmp_free(&cmp);
	tcp_cmp_run_free(&base);
	tcp_cmp_run_free(&cur);
	tcp_run_free(run);
	rm_rf(rb.dir);
	rm_rf(rn.dir);
}

/*
 * lat-vs-n: a form measured at two N is drawn and not fitted (the line through
 * two points has R^2 = 1 whatever they are), in the plot and in summary.json; a
 * bent form gets two segments, each over its own N range with its own points.
 */
static void test_lat_fits(void **state)
{
	static const char *const ml[] = { "cycles_per_mma" }, *const ul[] = { "cycles" };
	static const int ns[] = { 8, 16, 32, 64, 96, 128, 192, 256 };
	struct run r;
	char err[512];
	tcp_run_t *run;
	tcp_plot_state_t st[TCP_PLOTS_MAX];
	double a = 40 + urand() * 20, b = 0.4 + urand() * 0.2, b2 = b * (1.2 + urand() * 0.3);

	(void)state;
	run_open(&r);
	for (int i = 0; i < 2; i++) {			/* e5m2: N = 64 and 256 only */
		double c = 50 + urand() * 150;
		run_point(&r, "wgmma_lat", "sm_90a", "e5m2", i ? 256 : 64, 0, "OK", NULL, 1, ml, ul, &c);
	}
	for (int i = 0; i < 8; i++) {			/* f16: a + b N, steeper above N = 128 */
		double c = ns[i] <= 128 ? a + b * ns[i] : a + b * 128 + b2 * (ns[i] - 128);
		run_point(&r, "wgmma_lat", "sm_90a", "f16", ns[i], 0, "OK", NULL, 1, ml, ul, &c);
	}
	run_close(&r, 1);
	assert_int_equal(tcp_run_open(r.dir, 0, &run, err, sizeof(err)), 0);
	assert_int_equal(tcp_report_extract(run, NULL, r.dir, st, err, sizeof(err)), 0);
	char *g = slurp(r.dir, "lat-vs-n.gpvars");
	assert_non_null(g);
	assert_close(gpvar(g, "NP"), 2, 0);
	assert_close(gpvar(g, "fn[1]"), 0, 0);		/* e5m2: not fitted */
	assert_close(gpvar(g, "fn2[1]"), 0, 0);
	assert_close(gpvar(g, "fn[2]"), 6, 0);		/* f16: N 8-128 ... */
	assert_close(gpvar(g, "fx0[2]"), 8, 0);
	assert_close(gpvar(g, "fx1[2]"), 128, 0);
	assert_close(gpvar(g, "fb[2]"), b, 1e-9 * b);
	assert_close(gpvar(g, "fn2[2]"), 3, 0);		/* ... and 128-256, each its own range */
	assert_close(gpvar(g, "fbrk[2]"), 128, 0);
	assert_close(gpvar(g, "fx2[2]"), 256, 0);
	assert_close(gpvar(g, "fb2[2]"), b2, 1e-9 * b2);
	free(g);
	/* the summary: the two-point form has no fit, and summary.json says so */
	rpt_summary_t *sm = rpt_summary_build(run, NULL);
	assert_non_null(sm);
	assert_int_equal(sm->nlat, 2);
	assert_int_equal(sm->nlat_short, 1);
	for (int k = 0; k < sm->nlat; k++)
		if (!strcmp(sm->lat[k].form, "kind=e5m2")) {
			assert_int_equal(sm->lat[k].fit.pieces, 0);
			assert_true(isnan(sm->lat[k].fit.r2));
		} else {
			assert_int_equal(sm->lat[k].fit.pieces, 2);
		}
	assert_int_equal(rpt_summary_json(sm, run, r.dir, err, sizeof(err)), 0);
	char *json = slurp(r.dir, "summary.json");
	assert_non_null(strstr(json, "\"form\": \"kind=e5m2\",\n\t\t\"n_points\": 2,\n\t\t\"a\": null,\n\t\t\"b\": null,\n"
				     "\t\t\"r2\": null,\n\t\t\"segments\": []}"));
	free(json);
	free(sm);
	tcp_run_free(run);
	rm_rf(r.dir);
}

/*
 * tput-vs-n and lat-vs-n: one image per probe and kind, named in the state,
 * the manifest and each with its own SVG title; a plot of one image names none.
 */
static void test_per_kind_images(void **state)
{
	static const char *const kinds[] = { "f16", "bf16", "tf32", "e4m3", "s8" };
	struct run r;
	char err[512], name[128];
	tcp_run_t *run;
	tcp_plot_state_t st[TCP_PLOTS_MAX];
	int nk = 2 + (int)(urand() * 4);		/* 2 to 5 kinds */

	(void)state;
	run_open(&r);
	for (int k = 0; k < nk; k++)
		for (int n = 64; n <= 256; n += 64) {
			double v[2] = { 1000 + urand() * 3000, 1700 };
			run_point(&r, "wgmma_tput", "sm_90a", kinds[k], n, 0, "OK", NULL, 2, rate_m, rate_u, v);
		}
	run_close(&r, 1);
	assert_int_equal(tcp_run_open(r.dir, 0, &run, err, sizeof(err)), 0);
	assert_int_equal(tcp_report_extract(run, NULL, r.dir, st, err, sizeof(err)), 0);
	const tcp_plot_state_t *t = &st[tcp_plot_find("tput-vs-n")];
	assert_true(t->has_data);
	assert_int_equal(t->nimages, nk);
	char *man = slurp(r.dir, "manifest.tsv"), *g = slurp(r.dir, "tput-vs-n.gpvars");
	assert_close(gpvar(g, "NP"), nk, 0);
	for (int k = 0; k < nk; k++) {
		snprintf(name, sizeof(name), "tput-vs-n-wgmma_tput-%s", kinds[k]);
		assert_string_equal(t->image[k], name);
		assert_non_null(strstr(t->image_title[k], kinds[k]));
		assert_non_null(strstr(man, name));
		snprintf(name, sizeof(name), "tput-vs-n-wgmma_tput-%s.svgmeta", kinds[k]);
		char *m = slurp(r.dir, name);
		assert_non_null(m);
		assert_non_null(strstr(m, t->image_title[k]));
		free(m);
	}
	assert_int_equal(st[tcp_plot_find("k4-identity")].nimages, 0);
	assert_non_null(strstr(man, "k4-identity\t1\tMMA-K per kind from model/kinds.h (PTX ISA)\t\n"));
	free(man);
	free(g);
	tcp_run_free(run);
	rm_rf(r.dir);
}

/*
 * acc-bandwidth: a kind's bar is its best 32-bit-accumulator point (rate /
 * (K/4)) even where a 16-bit accumulator runs faster; 16-bit accumulators are
 * bars of their own at rate / (K/2), as the summary counts them; the B300 K=96
 * figure is an estimate, in both K/4 plots, its derivation in the footnote.
 */
static void test_acc_width(void **state)
{
	struct run r;
	char err[512], f[16][64];
	tcp_run_t *run;
	tcp_plot_state_t st[TCP_PLOTS_MAX];
	double r32 = 3000 + urand() * 500, r16 = 3600 + urand() * 400, w16 = 4000 + urand() * 1000;

	(void)state;
	run_open(&r);
	double v[2] = { r32, 1700 };
	g_acc = "f32";
	run_point(&r, "wgmma_tput", "sm_90a", "f16", 256, 0, "OK", NULL, 2, rate_m, rate_u, v);
	v[0] = r16;
	g_acc = "f16";
	run_point(&r, "wgmma_tput", "sm_90a", "f16", 128, 0, "OK", NULL, 2, rate_m, rate_u, v);
	v[0] = w16;		/* warp-level fp8 with an f16 accumulator: K = 32 */
	run_point(&r, "warp_mma", "sm_90a", "f8f6f4", 0, 0, "OK", NULL, 2, rate_m, rate_u, v);
	g_acc = NULL;
	run_close(&r, 1);
	assert_int_equal(tcp_run_open(r.dir, 0, &run, err, sizeof(err)), 0);
	assert_int_equal(tcp_report_extract(run, NULL, r.dir, st, err, sizeof(err)), 0);
	char *d = slurp(r.dir, "acc-bandwidth.dat");
	assert_int_equal(dat_row(d, "wgmma f16", f), 16);
	assert_close(strtod(f[6], NULL), r32, 1e-9 * r32);	/* the 32-bit point, not the faster 16-bit one */
	assert_close(strtod(f[9], NULL), r32 / 4, 1e-9 * r32);	/* K = 16: K/4 */
	assert_string_equal(f[15], "32");
	assert_int_equal(dat_row(d, "wgmma f16 -> f16", f), 16);
	assert_string_equal(f[7], "measured");
	assert_close(strtod(f[5], NULL), 8, 0);			/* K/2 FLOP per accumulator byte */
	assert_close(strtod(f[9], NULL), r16 / 8, 1e-9 * r16);
	assert_string_equal(f[15], "16");
	assert_int_equal(dat_row(d, "mma.sync fp8 (registers)", f), 0);	/* no 32-bit point */
	assert_int_equal(dat_row(d, "mma.sync fp8 -> f16 (registers)", f), 16);
	double w16_bw = strtod(f[9], NULL);
	assert_close(w16_bw, w16 / 16, 1e-9 * w16);			/* K = 32: K/2 */
	assert_int_equal(dat_row(d, "B300 mxf4nvf4 K=96", f), 16);
	assert_string_equal(f[7], "estimate");
	free(d);
	d = slurp(r.dir, "k4-identity.dat");
	assert_int_equal(dat_row(d, "B300 mxf4nvf4 K=96", f), 13);
	assert_string_equal(f[7], "estimate");
	free(d);
	assert_non_null(strstr(st[tcp_plot_find("acc-bandwidth")].footnote, "B300 K=96 rate: an ESTIMATE"));
	assert_non_null(strstr(st[tcp_plot_find("k4-identity")].footnote, "B300 K=96 rate: an ESTIMATE"));
	/* the summary's accumulator bandwidth of the warp-level row is the plot's */
	rpt_summary_t *sm = rpt_summary_build(run, NULL);
	int seen = 0;
	for (int i = 0; i < sm->nkinds; i++)
		if (!strcmp(sm->kinds[i].probe, "warp_mma")) {
			assert_close(sm->kinds[i].acc_bw, w16_bw, 1e-9 * w16_bw);
			seen++;
		}
	assert_int_equal(seen, 1);
	free(sm);
	tcp_run_free(run);
	rm_rf(r.dir);
}

/* ------------------------------------------------------------ findings */

/* Every string of want (NULL-terminated) occurs in doc. */
static void has_all(const char *doc, const char *const *want)
{
	for (int i = 0; want[i]; i++)
		if (!strstr(doc, want[i]))
			fail_msg("not in the document: %s", want[i]);
}

/*
 * rpt_fit_lines: a random two-segment line with a little noise is split at
 * its true breakpoint with both lines recovered; a random straight line with
 * the same noise stays one line; fewer than 5 points never split.
 */
static void test_fit_lines(void **state)
{
	(void)state;
	for (int trial = 0; trial < 50; trial++) {
		double x[12], y[12], a = 20 + urand() * 80, b = 0.2 + urand(), b2 = b * (1.3 + urand());
		int n = 8 + (int)(urand() * 5), brk = 2 + (int)(urand() * (n - 4));	/* 3+ points each side */
		rpt_fit_t f;
		for (int i = 0; i < n; i++) {
			x[i] = 8.0 * (i + 1) + (i ? 8.0 * i : 0);
			double yb = a + b * x[brk];
			y[i] = (i <= brk ? a + b * x[i] : yb + b2 * (x[i] - x[brk])) * (1 + 1e-5 * (urand() - 0.5));
		}
		assert_int_equal(rpt_fit_lines(x, y, n, &f), 0);
		assert_int_equal(f.pieces, 2);
		assert_close(f.x0[1], x[brk], 0);
		assert_close(f.x1[0], x[brk], 0);
		assert_close(f.sb[0], b, 1e-3 * b);
		assert_close(f.sb[1], b2, 1e-3 * b2);
		assert_close(f.sa[0], a, 1e-2 * a);
		assert_true(f.sr2[0] > 0.9999 && f.sr2[1] > 0.9999 && f.r2 < f.sr2[0]);
		for (int i = 0; i < n; i++)	/* one straight line with the same noise */
			y[i] = (a + b * x[i]) * (1 + 1e-5 * (urand() - 0.5));
		assert_int_equal(rpt_fit_lines(x, y, n, &f), 0);
		assert_int_equal(f.pieces, 1);
		assert_close(f.b, b, 1e-3 * b);
		assert_int_equal(rpt_fit_lines(x, y, 4, &f), 0);
		assert_int_equal(f.pieces, 1);
		/* two points: a line through them has R^2 = 1 whatever they are: not fitted */
		assert_int_equal(rpt_fit_lines(x, y, 2, &f), -1);
		assert_int_equal(f.pieces, 0);
		assert_true(isnan(f.a) && isnan(f.b) && isnan(f.r2));
	}
	rpt_fit_t f;
	double one = 1;
	assert_int_equal(rpt_fit_lines(&one, &one, 1, &f), -1);
}

/*
 * The findings of a random run on a chip of model/peaks.c: per rate class the
 * best point (f16 with f32 and with f16 accumulators apart), % of the chip's
 * peak, TFLOP/s from the tflops metric, the accumulator bandwidth; and what
 * needs attention: a throttled point, a FAILED and a BLOCKED (a status this
 * build does not know) point with reasons, a contended one, a noisy one
 * against the plan's noise target.  summary.json carries the same numbers.
 */
static void test_findings(void **state)
{
	static const char *const mt[] = { "flop_per_clk_sm", "sm_clock_mhz", "tflops" };
	static const char *const ut[] = { "FLOP/clk/SM", "MHz", "TFLOP/s" };
	static const char *const accs[] = { "f32", "f16" };
	struct run r;
	char err[512], path[600];
	tcp_run_t *run;
	double best[2] = { -1, -1 }, bclk[2] = { 0 }, pts[30][3];
	double noise = 0.5 + urand();

	(void)state;
	run_open(&r);
	for (int i = 0; i < 30; i++) {
		int a = i & 1;
		/* a few points within 1% of the best rate: the clock and TFLOP/s become ranges */
		double v[3] = { i >= 26 ? best[a] * (1 - urand() * 0.008) : 1000 + urand() * 3000, 1600 + urand() * 300, 0 };
		v[2] = v[0] * 132 * v[1] * 1e-6;
		memcpy(pts[i], v, sizeof(v));
		g_acc = accs[a];
		run_point(&r, "wgmma_tput", "sm_90a", urand() < 0.5 ? "f16" : "bf16", 8 * (i + 1), 0, "OK", NULL, 3,
			  mt, ut, v);
		if (v[0] > best[a]) {
			best[a] = v[0];
			bclk[a] = v[1];
		}
	}
	g_acc = NULL;
	double v[3] = { 500, 1700, 100 };
	g_throttle = "sw_power_cap";
	run_point(&r, "wgmma_tput", "sm_90a", "tf32", 64, 0, "OK", NULL, 3, mt, ut, v);
	g_throttle = NULL;
	run_point(&r, "wgmma_tput", "sm_90a", "tf32", 72, 0, "FAILED", "launch failed: <boom>", 3, mt, ut, v);
	run_point(&r, "wgmma_tput", "sm_90a", "tf32", 80, 0, "BLOCKED", "another helper's status", 3, mt, ut, v);
	g_contended = "1";
	run_point(&r, "wgmma_tput", "sm_90a", "tf32", 88, 0, "OK", NULL, 3, mt, ut, v);
	g_contended = NULL;
	char ci[32];
	snprintf(ci, sizeof(ci), "%.6g", noise * 2);
	g_ci = ci;
	run_point(&r, "wgmma_tput", "sm_90a", "tf32", 96, 0, "OK", NULL, 3, mt, ut, v);
	snprintf(ci, sizeof(ci), "%.6g", noise / 2);		/* within the target: not listed */
	run_point(&r, "wgmma_tput", "sm_90a", "tf32", 104, 0, "OK", NULL, 3, mt, ut, v);
	g_ci = NULL;
	assert_int_equal(tcp_rows_close(r.w), 0);
	static const char *const k[] = { "gpu_name", "sm_count", "driver_version" };
	static const char *const pv[] = { "NVIDIA H200", "132", "580.1" };
	snprintf(path, sizeof(path), "%s/provenance.csv", r.dir);
	assert_int_equal(tcp_csv_write_kv(path, k, pv, 3, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/plan.txt", r.dir);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fprintf(fp, "# tcprobe plan v1\n#option reps=auto\n#option noise=%.6g\n", noise);
	for (int i = 0; i < r.point; i++)
		fprintf(fp, "%d\twgmma_tput\tx=%d\t5\t1\t60\n", i, i);
	fclose(fp);

	assert_int_equal(tcp_run_open(r.dir, 0, &run, err, sizeof(err)), 0);
	rpt_summary_t *sm = rpt_summary_build(run, NULL);
	assert_non_null(sm);
	const tcp_peak_chip_t *h200 = tcp_peak_find(0, "NVIDIA H200");
	assert_non_null(h200);
	int seen = 0;
	for (int i = 0; i < sm->nkinds; i++) {
		const rpt_kind_row_t *w = &sm->kinds[i];
		assert_string_equal(w->family, "wgmma");
		if (w->cls == TCP_PK_TF32)
			continue;
		int a = w->cls == TCP_PK_F16_F16;
		assert_int_equal(w->cls, a ? TCP_PK_F16_F16 : TCP_PK_F16_F32);
		assert_close(w->rate, best[a], 1e-9 * best[a]);
		assert_close(w->peak, h200->rate[w->cls], 0);
		assert_close(w->pct_peak, best[a] / h200->rate[w->cls] * 100, 1e-9);
		/* TFLOP/s and clock: ranges over the points within 1% of the best rate */
		double clo = INFINITY, chi = -INFINITY, tlo = INFINITY, thi = -INFINITY;
		int npeak = 0;
		for (int q = a; q < 30; q += 2)
			if (pts[q][0] >= best[a] * 0.99) {
				npeak++;
				clo = fmin(clo, pts[q][1]);
				chi = fmax(chi, pts[q][1]);
				tlo = fmin(tlo, pts[q][2]);
				thi = fmax(thi, pts[q][2]);
			}
		assert_true(npeak >= 3);
		assert_int_equal(w->npeak, npeak);
		assert_close(w->clock_lo, clo, 0);
		assert_close(w->clock_hi, chi, 0);
		assert_close(w->tflops_lo, tlo, 0);
		assert_close(w->tflops_hi, thi, 0);
		assert_true(w->clock_mhz >= clo && w->clock_mhz <= chi && w->tflops >= tlo && w->tflops <= thi);
		assert_int_equal(w->clock_src, RPT_CLK_KERNEL);
		assert_string_equal(w->pattern, "");		/* no pattern axis */
		assert_close(w->acc_bw, best[a] / (16.0 / (a ? 2 : 4)), 1e-9 * best[a]);	/* K / acc bytes */
		assert_non_null(strstr(w->label, a ? "-> f16" : "-> f32"));
		/* the probe's table beneath has the same point and numbers */
		tcp_best_t b[8];
		int nb = tcp_run_best(run, "wgmma_tput", b, 8), found = 0;
		for (int j = 0; j < nb; j++)
			if (!strcmp(b[j].axes, w->axes)) {
				found = 1;
				assert_close(b[j].median, w->rate, 0);
				assert_close(b[j].pct_peak, w->pct_peak, 0);
				assert_close(b[j].clock_mhz, bclk[a], 0);	/* the best point's own clock */
			}
		assert_true(found);
		seen++;
	}
	assert_int_equal(seen, 2);
	assert_int_equal(sm->nthrottled, 1);
	assert_int_equal(sm->nbad, 2);
	assert_int_equal(sm->ncontended, 1);
	assert_int_equal(sm->nnoisy, 1);
	assert_close(sm->noise_target, noise, 1e-5 * noise);
	int blocked = 0, failed = 0;
	for (int i = 0; i < sm->nattn; i++) {
		const rpt_attn_t *a = &sm->attn[i];
		if (a->cat == RPT_ATTN_STATUS && !strcmp(a->why, "BLOCKED")) {
			blocked++;
			assert_string_equal(a->detail, "another helper's status");
		}
		if (a->cat == RPT_ATTN_STATUS && !strcmp(a->why, "FAILED"))
			failed++;
		if (a->cat == RPT_ATTN_NOISY)
			assert_non_null(strstr(a->p->axes, "N=96"));
		if (a->cat == RPT_ATTN_CONTENDED)
			assert_non_null(strstr(a->p->axes, "N=88"));
		if (a->cat == RPT_ATTN_THROTTLED)
			assert_string_equal(a->detail, "sw_power_cap");
	}
	assert_int_equal(blocked, 1);
	assert_int_equal(failed, 1);

	/* the document: findings first, provenance last; summary.json with the same numbers */
	tcp_plot_state_t st[TCP_PLOTS_MAX];
	assert_int_equal(tcp_report_extract(run, NULL, NULL, st, err, sizeof(err)), 0);
	assert_int_equal(tcp_report_write(run, r.dir, st, err, sizeof(err)), 0);
	char *md = slurp(r.dir, "report.md"), *json = slurp(r.dir, "summary.json"), *html = slurp(r.dir, "report.html");
	assert_non_null(md);
	assert_non_null(json);
	assert_true(strstr(md, "## Summary") < strstr(md, "## Needs attention"));
	assert_true(strstr(md, "## Needs attention") < strstr(md, "## Plots"));
	assert_true(strstr(md, "## Plots") < strstr(md, "## Probes"));
	assert_true(strstr(md, "## Probes") < strstr(md, "## Provenance"));
	static const char *const want_md[] = { "BLOCKED wgmma_tput kind=tf32;N=80: another helper's status",
					       "FAILED wgmma_tput kind=tf32;N=72: launch failed: <boom>", NULL };
	static const char *const want_html[] = { "launch failed: &lt;boom&gt;", "<details class=\"prov\">",
						 "@media print", NULL };
	static const char *const want_json[] = { "\"summary_version\": 3", "\"throttled\": 1", "\"not_ok\": 2",
						 "\"contended\": 1", "\"noisy\": 1", "\"why\": \"BLOCKED\"",
						 "\"baseline\": null", NULL };
	has_all(md, want_md);
	has_all(html, want_html);
	has_all(json, want_json);
	for (int i = 0; i < sm->nkinds; i++) {
		char want[96];
		snprintf(want, sizeof(want), "\"flop_per_clk_sm\": %.10g", sm->kinds[i].rate);
		assert_non_null(strstr(json, want));
		snprintf(want, sizeof(want), "\"pct_peak\": %.10g", sm->kinds[i].pct_peak);
		assert_non_null(strstr(json, want));
	}
	free(md);
	free(json);
	free(html);
	free(sm);
	tcp_run_free(run);
	rm_rf(r.dir);
}

/* Issue interval (a + b / D and its saturating depth), tcgen05.cp's peak bytes and energy
 * per FLOP, from random points of the probes that measure them. */
static void test_findings_ii_tmem_energy(void **state)
{
	static const char *const mi[] = { "cycles_per_mma", "issue_cycles_per_mma" }, *const ui[] = { "cycles", "cycles" };
	static const char *const mc[] = { "tmem_bytes_per_clk_sm" }, *const uc[] = { "B/clk/SM" };
	static const char *const me[] = { "pj_per_flop" }, *const ue[] = { "pJ/FLOP" };
	struct run r;
	char err[512];
	tcp_run_t *run;
	double ia = 20 + urand() * 60, ib = 50 + urand() * 200, mis = INFINITY, cp = 0, elo = INFINITY, ehi = 0;

	(void)state;
	run_open(&r);
	for (int d = 1; d <= 64; d *= 2) {
		double v[2] = { ia + ib / d, 5 + urand() * 10 };
		run_point(&r, "tc_mma_ii", "sm_100a", "f16", 128, d, "OK", NULL, 2, mi, ui, v);
		mis = fmin(mis, v[1]);
	}
	for (int n = 1; n <= 8; n++) {
		double v = 100 + urand() * 400, e = 0.1 + urand();
		run_point(&r, "tc_cp", "sm_100a", NULL, n, 0, "OK", NULL, 1, mc, uc, &v);
		run_point(&r, "wgmma_tput", "sm_90a", "bf16", n * 8, 0, "OK", NULL, 1, me, ue, &e);
		cp = fmax(cp, v);
		elo = fmin(elo, e);
		ehi = fmax(ehi, e);
	}
	run_close(&r, 1);
	assert_int_equal(tcp_run_open(r.dir, 0, &run, err, sizeof(err)), 0);
	rpt_summary_t *sm = rpt_summary_build(run, NULL);
	assert_non_null(sm);
	assert_int_equal(sm->nii, 1);
	assert_close(sm->ii[0].ii, ia, 1e-6 * ia);
	assert_close(sm->ii[0].b, ib, 1e-6 * ib);
	assert_close(sm->ii[0].sat_depth, ceil(ib / (0.05 * ia)), 0);
	assert_close(sm->ii[0].min_issue, mis, 0);
	assert_int_equal(sm->ntmem, 1);
	assert_string_equal(sm->tmem[0].what, "tcgen05.cp");
	assert_close(sm->tmem[0].value, cp, 0);
	assert_int_equal(sm->nenergy, 1);
	assert_close(sm->energy[0].lo, elo, 0);
	assert_close(sm->energy[0].hi, ehi, 0);
	assert_true(isnan(sm->energy[0].value));		/* no pattern=random point */
	free(sm);
	tcp_run_free(run);
	rm_rf(r.dir);
}

/*
 * The plots' provenance: footer.gpvars names the GPU, driver and run; each
 * plot's gpvars has its footnote (published parts named); the SVG title and
 * desc lines are XML-escaped.
 */
static void test_footer(void **state)
{
	static const char *const ml[] = { "cycles_per_mma" }, *const ul[] = { "cycles" };
	struct run r;
	char err[512];
	tcp_run_t *run;
	tcp_plot_state_t st[TCP_PLOTS_MAX];

	(void)state;
	run_open(&r);
	for (int n = 8; n <= 64; n += 8) {
		double c = 50 + urand() * n;
		run_point(&r, "wgmma_lat", "sm_90a", "f16", n, 0, "OK", NULL, 1, ml, ul, &c);
	}
	run_close(&r, 1);
	assert_int_equal(tcp_run_open(r.dir, 0, &run, err, sizeof(err)), 0);
	assert_int_equal(tcp_report_extract(run, NULL, r.dir, st, err, sizeof(err)), 0);
	char *f = slurp(r.dir, "footer.gpvars"), *g = slurp(r.dir, "acc-bandwidth.gpvars");
	char *m = slurp(r.dir, "lat-vs-n-wgmma_lat-f16.svgmeta");
	assert_non_null(f);
	/* no started_utc: the run's id is its directory's name; no git_dirty: said so; the drawing tcprobe last */
	char want[600];
	const char *name = strrchr(r.dir, '/') + 1;
	snprintf(want, sizeof(want), "footer = \"Test GPU <b>& | driver 999.1 | CUDA ? | run %s (%s) | measured by "
		 "tcprobe ? ? (git_dirty not recorded) | drawn by tcprobe %s%s\"", name, name, tcp_build_commit(),
		 tcp_build_dirty() ? " (dirty)" : "");
	if (!strstr(f, want))
		fail_msg("footer.gpvars: %s\nexpected %s", f, want);
	assert_non_null(strstr(g, "footnote = \"Hatched bars and circles: PUBLISHED peaks"));
	assert_non_null(m);
	assert_non_null(strstr(m, "MMA latency vs N, one plot per kind"));
	assert_non_null(strstr(m, ": wgmma_lat kind=f16"));		/* what this image shows */
	assert_non_null(strstr(m, "Test GPU &lt;b&gt;&amp; | driver 999.1"));
	assert_null(strstr(m, "<b>"));
	assert_int_equal((int)(strchr(m, '\n') - m) > 0, 1);
	free(f);
	free(g);
	free(m);
	tcp_run_free(run);
	rm_rf(r.dir);
}

/* ------------------------------------------------------------ committed runs */

#define README_RUN "results/2026-11-29-NVIDIA_H200-580.159.04-vm-4"
#define README_BASE "results/2026-11-29-NVIDIA_H200-580.159.04-vm-3"
#define GATE_RUN "tests/fixtures/h200-gate-9e01830/default-run"
#define ENERGY_RUN "results/h200-energy"
#define SUSTAIN_RUN "results/h200-energy-sustain"
#define EMU_RUN "tests/fixtures/h200-emulation-call7-c4b6d31/ldred-sm_103a"

/* A copy of a committed run in a fresh temp dir, as dir/<name>; the report writes into it. */
static void copy_run(const char *run, const char *name, char *dir, size_t len, char *tmp, size_t tlen)
{
	char cmd[1400];

	snprintf(tmp, tlen, "/tmp/tcp-test-report-XXXXXX");
	assert_non_null(mkdtemp(tmp));
	snprintf(dir, len, "%s/%s", tmp, name);
	snprintf(cmd, sizeof(cmd), "cp -r '%s' '%s'", run, dir);
	assert_int_equal(system(cmd), 0);
}

/* The summary.json text without its "report" object (the tcprobe that wrote it). */
static void drop_report_key(char *json)
{
	char *a = strstr(json, "\n\t\"report\": {");
	const char *end = a ? strstr(a, "\n\t},") : NULL;
	size_t n;

	assert_non_null(end);
	end += 4;	/* past "\n\t}," */
	n = strlen(end);
	memmove(a, end, n + 1);
}

/* The comparison `tcprobe report RUN --baseline BASE [--roles]` makes (cmd-report.c). */
static void join_like_report(const char *base, const char *run, tcp_meta_set_t *roles, tcp_cmp_run_t *b,
			     tcp_cmp_run_t *c, tcp_cmp_t *cmp)
{
	char err[512];
	const tcp_cmp_opts_t o = { .noise_floor_pct = TCP_CMP_NOISE_FLOOR, .threshold_pct = TCP_CMP_THRESHOLD,
				   .roles = roles, .roles_path = roles ? "build/roles.csv" : NULL };

	assert_int_equal(tcp_cmp_run_load(base, NULL, b, err, sizeof(err)), 0);
	assert_int_equal(tcp_cmp_run_load(run, NULL, c, err, sizeof(err)), 0);
	assert_int_equal(tcp_cmp_join_opts(b, c, 1, &o, cmp, err, sizeof(err)), 0);
	tcp_cmp_sort(cmp);
}

/*
 * The committed README run (results/...-vm-4), reported with --baseline
 * results/...-vm-3 --roles build/roles.csv (neither run has metrics.csv):
 * its report.md opens with the summary, whose every per-kind row is the best
 * point of the probe's table beneath with the same numbers; the summary names
 * every regression row and the axis it joined across (wgmma_epilogue's
 * pacing, added since vm-3: 24 points, so nothing is missing); and its
 * summary.json is exactly what this code derives from the run but for the
 * "report" key (the tcprobe that wrote it).
 */
static void test_committed_run(void **state)
{
	char err[512], line[1200], c[9][64], tmp[] = "/tmp/tcp-test-report-XXXXXX";
	tcp_run_t *run;
	tcp_cmp_run_t base, cur;
	tcp_cmp_t cmp;
	tcp_meta_set_t *roles = test_declared_roles();	/* --roles: neither run has metrics.csv */

	(void)state;
	assert_non_null(roles);
	assert_int_equal(tcp_run_open(README_RUN, 0, &run, err, sizeof(err)), 0);
	join_like_report(README_BASE, README_RUN, roles, &base, &cur, &cmp);
	tcp_report_base_t rb = { &base, &cur, &cmp };
	rpt_summary_t *sm = rpt_summary_build(run, &rb);
	assert_non_null(sm);
	char *md = slurp(README_RUN, "report.md"), *json = slurp(README_RUN, "summary.json");
	assert_non_null(md);
	assert_non_null(json);
	const char *sum = strstr(md, "\n## Summary"), *attn = strstr(md, "\n## Needs attention");
	const char *probes = strstr(md, "\n## Probes");
	assert_non_null(sum);
	assert_non_null(probes);
	assert_true(sum < attn && attn < strstr(md, "\n## Plots") && sum < probes && probes < strstr(md, "\n## Provenance"));
	assert_true(sm->nkinds >= 6);
	for (int i = 0; i < sm->nkinds; i++) {
		const rpt_kind_row_t *w = &sm->kinds[i];
		snprintf(line, sizeof(line), "| %s | %s | %.1f | %.2f | %.0f | %s (%d) |", w->family, w->label, w->rate,
			 w->pct_peak, w->peak, w->pattern, w->npeak);
		const char *at = strstr(md, line);
		if (!at)
			fail_msg("not in report.md: %s", line);
		assert_true(at > sum && at < attn);		/* in the summary, the first screen */
		/* ... and the probe's table beneath: the same point, median, % of peak, peak */
		tcp_best_t b[32];
		int nb = tcp_run_best(run, w->probe, b, 32), found = 0;
		for (int j = 0; j < nb; j++) {
			if (strcmp(b[j].axes, w->axes))
				continue;
			found = 1;
			snprintf(line, sizeof(line), "| %s | %s | %s | %s | %s | %s | %s | %s |", b[j].axes,
				 rpt_num(b[j].median, c[1], 64, "%.6g"), b[j].unit, rpt_num(b[j].spread_pct, c[3], 64, "%.3g"),
				 rpt_num(b[j].pct_peak, c[4], 64, "%.2f"), rpt_num(b[j].peak, c[5], 64, "%.6g"),
				 rpt_num(b[j].clock_mhz, c[6], 64, "%.0f"), rpt_clock_src_name(b[j].clock_src));
			at = strstr(probes, line);
			if (!at)
				fail_msg("not in the probe table: %s", line);
			assert_close(b[j].median, w->rate, 0);
			assert_close(b[j].pct_peak, w->pct_peak, 0);
			assert_close(b[j].peak, w->peak, 0);
			assert_int_equal(b[j].clock_src, RPT_CLK_KERNEL);	/* every rate point has its in-kernel clock */
			assert_true(b[j].clock_mhz >= w->clock_lo && b[j].clock_mhz <= w->clock_hi);
		}
		assert_true(found);
		snprintf(line, sizeof(line), "\"best_axes\": \"%s\",\n\t\t\"flop_per_clk_sm\": %.10g", w->axes, w->rate);
		assert_non_null(strstr(json, line));
	}
	/* Hopper's wgmma latency bends above N = 128: the committed summary says so */
	int bent = 0;
	for (int i = 0; i < sm->nlat; i++)
		if (!strcmp(sm->lat[i].form, "kind=f16;acc=f32")) {
			assert_int_equal(sm->lat[i].fit.pieces, 2);
			assert_close(sm->lat[i].fit.x0[1], 128, 0);
			snprintf(line, sizeof(line), "| wgmma_lat | kind=f16;acc=f32 | 8-128 | %.2f + %.4f N |",
				 sm->lat[i].fit.sa[0], sm->lat[i].fit.sb[0]);
			assert_non_null(strstr(md, line));
			bent = 1;
		}
	assert_true(bent);
	/* every regression by name on the first screen and in summary.json; the joined axis; nothing missing */
	assert_true(cmp.nregress[0] > 0);
	int listed = 0;
	for (int i = 0; i < cmp.nrows; i++) {
		const tcp_cmp_row_t *w = &cmp.rows[i];
		if (!w->cells[0].regression)
			continue;
		snprintf(line, sizeof(line), "- %s %s [%s]: %s -> %s %s (", w->probe, w->metric, w->axes,
			 w->cells[0].base->median_s, w->cells[0].cur->median_s, w->unit);
		const char *at = strstr(md, line);
		if (!at || at > attn)
			fail_msg("regression not named in the summary: %s", line);
		snprintf(line, sizeof(line), "{\"probe\": \"%s\", \"axes\": \"%s\", \"metric\": \"%s\",", w->probe, w->axes,
			 w->metric);
		assert_non_null(strstr(json, line));
		listed++;
	}
	assert_int_equal(listed, cmp.nregress[0]);
	snprintf(line, sizeof(line), "\"regressions\": %d,", cmp.nregress[0]);
	assert_non_null(strstr(json, line));
	assert_int_equal(cmp.naxes_joined, 1);
	assert_int_equal(cmp.axes_joined[0].points, 24);
	const char *joined = strstr(md, "wgmma_epilogue pacing=relaxed (24 points measured on a side)");
	assert_true(joined && joined < attn);
	assert_int_equal(cmp.nmissing[0], 0);
	assert_null(strstr(md, "INCOMPLETE"));
	/* summary.json: byte for byte what this code writes for the run, but for the writer's commit */
	assert_non_null(mkdtemp(tmp));
	assert_int_equal(rpt_summary_json(sm, run, tmp, err, sizeof(err)), 0);
	char *fresh = slurp(tmp, "summary.json");
	assert_non_null(fresh);
	drop_report_key(fresh);
	drop_report_key(json);
	assert_string_equal(fresh, json);
	free(fresh);
	rm_rf(tmp);
	free(md);
	free(json);
	free(sm);
	tcp_cmp_free(&cmp);
	tcp_cmp_run_free(&base);
	tcp_cmp_run_free(&cur);
	tcp_run_free(run);
	tcp_meta_set_free(roles);
}

/* Ascending order of two doubles, for qsort. */
static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/*
 * `tcprobe report --extract OUT RUN --baseline BASE --roles FILE`: the plot
 * data of the comparison the report makes itself, the README pair's, are
 * what --extract writes from that comparison as `tcprobe compare --csv`
 * writes it, file for file; only compare-ratio.dat's first line differs: it
 * names BASE, not a CSV file.
 */
static void test_extract_baseline(void **state)
{
	char own[] = "/tmp/tcp-test-report-XXXXXX", csv[] = "/tmp/tcp-test-report-XXXXXX", err[512];
	char roles[600], path[600];
	tcp_cmp_run_t base, cur;
	tcp_cmp_t cmp;
	tcp_run_t *run;
	tcp_plot_state_t st[TCP_PLOTS_MAX];
	tcp_meta_set_t *m = test_declared_roles();
	FILE *f;

	(void)state;
	assert_non_null(m);
	assert_non_null(mkdtemp(own));
	assert_non_null(mkdtemp(csv));
	snprintf(roles, sizeof(roles), "%s/roles.csv", csv);
	assert_int_equal(tcp_meta_write(m, roles, err, sizeof(err)), 0);
	char *argv[] = { "report", "--extract", own, README_RUN, "--baseline", README_BASE, "--roles", roles, NULL };
	assert_int_equal(tcp_cmd_report(8, argv), 0);

	/* the same join through compare's CSV, as reports.sh drew it before */
	const tcp_cmp_opts_t o = { .noise_floor_pct = TCP_CMP_NOISE_FLOOR, .threshold_pct = TCP_CMP_THRESHOLD,
				   .roles = m, .roles_path = roles };
	assert_int_equal(tcp_cmp_run_load(README_BASE, NULL, &base, err, sizeof(err)), 0);
	assert_int_equal(tcp_cmp_run_load(README_RUN, NULL, &cur, err, sizeof(err)), 0);
	assert_int_equal(tcp_cmp_join_opts(&base, &cur, 1, &o, &cmp, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/compare.csv", csv);
	assert_non_null(f = fopen(path, "w"));
	assert_int_equal(tcp_cmp_write_csv(f, &cmp, &base, &cur), 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(tcp_run_open(README_RUN, 0, &run, err, sizeof(err)), 0);
	assert_int_equal(tcp_report_extract(run, path, csv, st, err, sizeof(err)), 0);

	for (int i = 0; i < tcp_nplots(); i++) {
		char name[200];
		for (int k = 0; k < 2 && st[i].has_data; k++) {
			snprintf(name, sizeof(name), "%s.%s", tcp_plot_stem(i), k ? "gpvars" : "dat");
			char *a = slurp(own, name), *b = slurp(csv, name);
			assert_non_null(a);
			assert_non_null(b);
			if (!strcmp(name, "compare-ratio.dat")) {
				char first[300];
				snprintf(first, sizeof(first), "# compare-ratio: from the comparison with %s (tcprobe "
					 "report --baseline, as tcprobe compare --csv writes it); ", README_BASE);
				assert_int_equal(strncmp(a, first, strlen(first)), 0);
				assert_string_equal(strchr(a, '\n'), strchr(b, '\n'));
			} else {
				assert_string_equal(a, b);
			}
			free(a);
			free(b);
		}
	}
	char *a = slurp(own, "manifest.tsv"), *b = slurp(csv, "manifest.tsv");
	assert_non_null(a);
	assert_non_null(b);
	assert_string_equal(a, b);
	free(a);
	free(b);
	assert_true(st[tcp_plot_find("compare-ratio")].has_data);
	tcp_run_free(run);
	tcp_cmp_free(&cmp);
	tcp_cmp_run_free(&base);
	tcp_cmp_run_free(&cur);
	tcp_meta_set_free(m);
	rm_rf(own);
	rm_rf(csv);
}

/*
 * The newest committed gate run (tests/fixtures/h200-gate-9e01830/default-run,
 * with metrics.csv), reported by `tcprobe report` against the README run:
 * a unique run id, not "default-run", and a clean build in the footer and
 * summary.json; the SM clock under load is the in-kernel one (recomputed
 * here from the rows metrics.csv marks as the kernel clock), NVML's sample
 * stated apart and counted where it is more than 2% off; one row per
 * (family, rate class, sparse form), mma_sync and warp_mma merged, sparse
 * rows against the sparse peak; TFLOP/s as a range over the points within 1%
 * of the best rate at pattern=random; verdicts counted without the rows
 * neither run ran.
 */
static void test_committed_gate(void **state)
{
	char err[512], line[1400], dir[600], tmp[64], ex[700];
	tcp_run_t *run;
	tcp_cmp_run_t base, cur;
	tcp_cmp_t cmp;

	(void)state;
	copy_run(GATE_RUN, "default-run", dir, sizeof(dir), tmp, sizeof(tmp));
	char *av[] = { "report", dir, "--no-plots", "--baseline", README_RUN, NULL };
	assert_int_equal(tcp_cmd_report(5, av), 0);
	assert_int_equal(tcp_run_open(dir, 0, &run, err, sizeof(err)), 0);
	assert_non_null(run->meta);
	join_like_report(README_RUN, dir, NULL, &base, &cur, &cmp);
	tcp_report_base_t rb = { &base, &cur, &cmp };
	rpt_summary_t *sm = rpt_summary_build(run, &rb);
	assert_non_null(sm);
	char *md = slurp(dir, "report.md"), *json = slurp(dir, "summary.json");
	assert_non_null(md);
	assert_non_null(json);
	assert_non_null(strstr(md, "\nFinding: "));	/* each probe section states its finding */
	const char *attn = strstr(md, "\n## Needs attention");
	assert_non_null(attn);

	/* the run's unique id, its clean build, the tcprobe that drew it */
	char uid[128];
	assert_string_equal(tcp_run_uid(run, uid, sizeof(uid)), "20261202T074305Z-b1f238da");
	assert_non_null(strstr(json, "\"id\": \"default-run\",\n\t\t\"uid\": \"20261202T074305Z-b1f238da\""));
	assert_non_null(strstr(json, "\"git_commit\": \"9e018306a07b\""));
	assert_non_null(strstr(json, "\"git_dirty\": false,"));
	assert_non_null(strstr(md, "# tcprobe report: default-run (run 20261202T074305Z-b1f238da)"));
	tcp_plot_state_t st[TCP_PLOTS_MAX];
	snprintf(ex, sizeof(ex), "%s/extract", tmp);
	assert_int_equal(mkdir(ex, 0755), 0);
	assert_int_equal(tcp_report_extract(run, NULL, ex, st, err, sizeof(err)), 0);
	char *foot = slurp(ex, "footer.gpvars");
	snprintf(line, sizeof(line), "NVIDIA H200 | driver 580.159.04 | CUDA 13.0 | run 20261202T074305Z-b1f238da "
		 "(default-run) | measured by tcprobe 0.1.0 9e018306a07b | drawn by tcprobe %s%s\"", tcp_build_commit(),
		 tcp_build_dirty() ? " (dirty)" : "");
	if (!foot || !strstr(foot, line))
		fail_msg("footer.gpvars: %s\nexpected %s", foot ? foot : "(none)", line);
	free(foot);

	/* the SM clock under load: the in-kernel metric, recomputed from metrics.csv's marks */
	double *k = calloc((size_t)run->npoints, sizeof(*k));
	int nk = 0, ncmp = 0, noff = 0;
	assert_non_null(k);
	for (int i = 0; i < run->npoints; i++) {
		const tcp_run_point_t *p = &run->points[i];
		double clk = NAN, cu = NAN;
		if (p->status != TCP_OK)
			continue;
		for (int m = 0; m < p->nm; m++) {
			const tcp_meta_t *mt = tcp_meta_find(run->meta, p->probe, p->m[m]->metric);
			if (mt && mt->clock == TCP_CLOCK_KERNEL && p->m[m]->status == TCP_OK && isnan(clk))
				clk = p->m[m]->median;
			if (mt && mt->clock == TCP_CLOCK_CUPTI && p->m[m]->status == TCP_OK && isnan(cu))
				cu = p->m[m]->median;
		}
		if (isfinite(clk))
			k[nk++] = clk;
		double ref = isfinite(clk) ? clk : cu;
		if (isfinite(ref) && isfinite(p->clock_mhz)) {
			ncmp++;
			noff += fabs(p->clock_mhz - ref) / ref * 100 > 2;
		}
	}
	qsort(k, (size_t)nk, sizeof(*k), dbl_cmp);
	assert_true(nk > 400);
	assert_int_equal(sm->clk_kernel.n, nk);
	assert_close(sm->clk_kernel.lo, k[0], 0);
	assert_close(sm->clk_kernel.hi, k[nk - 1], 0);
	assert_int_equal(sm->nvml_cmp, ncmp);
	assert_int_equal(sm->nvml_off, noff);
	assert_true(noff > ncmp / 2);		/* NVML reads 1980 MHz where the kernels ran at 1650-1810 */
	snprintf(line, sizeof(line), "SM clock under load: %.0f-%.0f MHz (median %.0f) measured in the kernel", k[0],
		 k[nk - 1], sm->clk_kernel.med);
	assert_true(strstr(md, line) && strstr(md, line) < attn);
	snprintf(line, sizeof(line), "NVML's sampled clock read 1980 MHz and is more than 2%% off the measured clock "
		 "on %d of %d points", noff, ncmp);
	assert_true(strstr(md, line) && strstr(md, line) < attn);
	assert_non_null(strstr(md, "board power limit 700 W"));
	assert_non_null(strstr(json, "\"power_limit_w\": 700,"));
	free(k);

	/* one row per (family, class, kind, sparse); mma.sync over both probes; sparse against the sparse peak */
	const tcp_peak_chip_t *h200 = tcp_peak_find(0, "NVIDIA H200");
	int merged = 0, sparse = 0;
	for (int i = 0; i < sm->nkinds; i++) {
		const rpt_kind_row_t *w = &sm->kinds[i];
		for (int j = 0; j < i; j++)
			if (!strcmp(sm->kinds[j].family, w->family) && !strcmp(sm->kinds[j].label, w->label))
				fail_msg("two rows %s %s", w->family, w->label);
		merged += !strcmp(w->family, "mma.sync") && strstr(w->probes, "mma_sync") && strstr(w->probes, "warp_mma");
		if (w->sparse) {
			sparse++;
			assert_close(w->peak, 2 * h200->rate[w->cls], 0);
			assert_close(w->pct_peak, w->rate / w->peak * 100, 1e-9);
			assert_true(w->pct_peak < 100);
			assert_non_null(strstr(w->label, "(sparse)"));
		}
		assert_string_equal(w->pattern, "random");
		assert_int_equal(w->clock_src, RPT_CLK_KERNEL);
		assert_true(w->npeak >= 1 && w->tflops_lo <= w->tflops && w->tflops <= w->tflops_hi);
		assert_true(w->clock_lo <= w->clock_mhz && w->clock_mhz <= w->clock_hi);
		/* the TFLOP/s and clock ranges, recomputed over the points within 1% of the best rate */
		double tlo = INFINITY, thi = -INFINITY, clo = INFINITY, chi = -INFINITY;
		int n = 0;
		for (int q = 0; q < run->npoints; q++) {
			const tcp_run_point_t *p = &run->points[q];
			const tcp_run_row_t *f = tcp_point_metric(p, "flop_per_clk_sm"), *t = tcp_point_metric(p, "tflops");
			const tcp_run_row_t *ck = tcp_point_metric(p, "sm_clock_mhz");
			const char *pat = tcp_point_axis(p, "pattern");
			if (p->status != TCP_OK || !f || !t || !ck || !pat || strcmp(pat, "random") ||
			    !strstr(w->probes, p->probe) || rpt_point_kind(p) != w->kind || rpt_point_sparse(p) != w->sparse ||
			    tcp_peak_class((tcp_kind_t)w->kind, TCP_T_COUNT, (tcp_type_t)rpt_point_acc(p)) != w->cls ||
			    f->median < w->rate * 0.99)
				continue;
			n++;
			tlo = fmin(tlo, t->median);
			thi = fmax(thi, t->median);
			clo = fmin(clo, ck->median);
			chi = fmax(chi, ck->median);
		}
		assert_int_equal(w->npeak, n);
		assert_close(w->tflops_lo, tlo, 0);
		assert_close(w->tflops_hi, thi, 0);
		assert_close(w->clock_lo, clo, 0);
		assert_close(w->clock_hi, chi, 0);
		snprintf(line, sizeof(line), "\"label\": \"%s %s\"", w->family, w->label);
		assert_non_null(strstr(json, line));
	}
	assert_true(merged >= 3);		/* f16/bf16, tf32, s8 -> s32 */
	assert_int_equal(sparse, 3);
	/* the wgmma f16 -> f32 TFLOP/s spans the clocks its peak points ran at (895-978 in this run) */
	assert_true(sm->kinds[0].tflops_hi > sm->kinds[0].tflops_lo * 1.05);

	/* verdicts: the rows neither run ran are out, missing only over rows OK in the base */
	int counted = 0;
	for (int v = 0; v < TCP_V_COUNT; v++)
		counted += sm->base_all[v];
	assert_int_equal(counted + sm->base_notrun, cmp.nrows);
	assert_true(sm->base_notrun > 30000);
	assert_int_equal(sm->base_all[TCP_V_MISSING], cmp.nmissing[0]);
	assert_true(cmp.count[0][TCP_V_MISSING] > 8000);	/* compare's own count: rows of every status */
	snprintf(line, sizeof(line), "%d rows SKIPPED or UNSUPPORTED on every side are not counted", sm->base_notrun);
	assert_true(strstr(md, line) && strstr(md, line) < attn);
	snprintf(line, sizeof(line), "\"rows_not_run\": %d,", sm->base_notrun);
	assert_non_null(strstr(json, line));
	free(md);
	free(json);
	free(sm);
	tcp_cmp_free(&cmp);
	tcp_cmp_run_free(&base);
	tcp_cmp_run_free(&cur);
	tcp_run_free(run);
	rm_rf(tmp);
}


/*
 * Each probe's finding sentence on the Hopper gate run: the epilogue's
 * rates at the smallest and the largest FFMA load are the run's medians,
 * and wgmma_sync states its operations, the empty loop only as a baseline.
 */
#define FINDING_RUN "tests/fixtures/h200-gate-73900b6/default-run"
static void test_probe_findings(void **state)
{
	char err[512], s[1024], want[128];
	tcp_run_t *run;

	(void)state;
	assert_int_equal(tcp_run_open(FINDING_RUN, 0, &run, err, sizeof(err)), 0);
	for (int i = 0; i < run->nprobes; i++) {
		if (!rpt_probe_finding(run, run->probes[i], s, sizeof(s))) {	/* an sm_100 probe on sm_90 */
			assert_int_equal(tcp_run_count(run, run->probes[i], TCP_OK), 0);
			continue;
		}
		print_message("%s: %s\n", run->probes[i], s);
		assert_non_null(strchr(s, '.'));
	}
	assert_int_equal(rpt_probe_finding(run, "wgmma_epilogue", s, sizeof(s)), 1);
	assert_non_null(strstr(s, "From 0 to 512 FFMA per element"));
	static const char *const curves[] = { "N=128;mma_wg=1", "N=128;mma_wg=2", "N=256;mma_wg=1",
					      "N=256;mma_wg=2" };
	for (int c = 0; c < 4; c++) {
		char a0[96], a1[96];
		snprintf(a0, sizeof(a0), "%s;epi_ffma=0;pacing=relaxed", curves[c]);
		snprintf(a1, sizeof(a1), "%s;epi_ffma=512;pacing=relaxed", curves[c]);
		const tcp_run_point_t *p0 = tcp_run_find(run, "wgmma_epilogue", a0),
				      *p1 = tcp_run_find(run, "wgmma_epilogue", a1);
		assert_non_null(p0);
		assert_non_null(p1);
		snprintf(want, sizeof(want), "%.4g -> %.4g FLOP/clk/SM at %s;pacing=relaxed",
			 tcp_point_metric(p0, "flop_per_clk_sm")->median,
			 tcp_point_metric(p1, "flop_per_clk_sm")->median, curves[c]);
		assert_non_null(strstr(s, want));
	}
	assert_non_null(strstr(s, "4094 -> 2239 FLOP/clk/SM at N=256;mma_wg=1"));
	assert_int_equal(rpt_probe_finding(run, "wgmma_sync", s, sizeof(s)), 1);
	assert_non_null(strstr(s, "fence 9.019"));
	assert_non_null(strstr(s, "commit 13"));
	assert_non_null(strstr(s, "wait 2.097"));
	const char *base = strstr(s, "baseline"), *none = strstr(s, "none");
	assert_non_null(base);
	assert_true(none > base);	/* the empty loop is named only as the baseline */
	assert_int_equal(rpt_probe_finding(run, "no_such_probe", s, sizeof(s)), 0);
	tcp_run_free(run);
}
/*
 * The energy runs: rates stated at pattern=random though another pattern's
 * point wins FLOP/clk/SM by a hair (results/h200-energy); and the sustained
 * run against it, INCOMPLETE, naming the probe and the points it lacks.
 */
static void test_committed_energy(void **state)
{
	char err[512], line[600], dir[600], tmp[64];
	tcp_run_t *run;
	tcp_cmp_run_t base, cur;
	tcp_cmp_t cmp;
	int beaten = 0;

	(void)state;
	assert_int_equal(tcp_run_open(ENERGY_RUN, 0, &run, err, sizeof(err)), 0);
	rpt_summary_t *sm = rpt_summary_build(run, NULL);
	assert_non_null(sm);
	assert_true(sm->nkinds > 0);
	for (int i = 0; i < sm->nkinds; i++) {
		const rpt_kind_row_t *w = &sm->kinds[i];
		assert_string_equal(w->pattern, "random");
		assert_non_null(strstr(w->axes, "pattern=random"));
		for (int q = 0; q < run->npoints; q++) {	/* a point of another pattern with a higher rate */
			const tcp_run_point_t *p = &run->points[q];
			const tcp_run_row_t *f = tcp_point_metric(p, "flop_per_clk_sm");
			if (p->status == TCP_OK && f && !strcmp(p->probe, w->probe) && rpt_point_kind(p) == w->kind &&
			    tcp_peak_class((tcp_kind_t)w->kind, TCP_T_COUNT, (tcp_type_t)rpt_point_acc(p)) == w->cls &&
			    f->median > w->rate) {
				assert_null(strstr(p->axes, "pattern=random"));
				beaten++;
				break;
			}
		}
	}
	assert_true(beaten > 0);
	assert_true(isfinite(sm->power.lo) && sm->power.n > 0);	/* power under load from the energy rows */
	free(sm);
	tcp_run_free(run);

	copy_run(SUSTAIN_RUN, "sustain", dir, sizeof(dir), tmp, sizeof(tmp));
	char *av[] = { "report", dir, "--no-plots", "--baseline", ENERGY_RUN, NULL };
	assert_int_equal(tcp_cmd_report(5, av), 0);
	assert_int_equal(tcp_run_open(dir, 0, &run, err, sizeof(err)), 0);
	join_like_report(ENERGY_RUN, dir, NULL, &base, &cur, &cmp);
	tcp_report_base_t rb = { &base, &cur, &cmp };
	sm = rpt_summary_build(run, &rb);
	assert_non_null(sm);
	assert_true(cmp.nmissing[0] > 0);
	int rows = 0;
	for (int i = 0; i < sm->nmiss; i++)
		rows += sm->miss[i].rows;
	assert_int_equal(rows, cmp.nmissing[0]);
	assert_int_equal(sm->nmiss, 1);
	char *md = slurp(dir, "report.md"), *json = slurp(dir, "summary.json");
	snprintf(line, sizeof(line), "INCOMPLETE: %d of the %d rows OK in the baseline have no row here: %s %d rows "
		 "(%d points).", cmp.nmissing[0], cmp.nbase_ok, sm->miss[0].probe, sm->miss[0].rows, sm->miss[0].points);
	const char *at = strstr(md, line);
	if (!at || at > strstr(md, "\n## Needs attention"))
		fail_msg("not on the first screen: %s", line);
	snprintf(line, sizeof(line), "\"missing_by_probe\": [{\"probe\": \"%s\", \"rows\": %d, \"points\": %d}]",
		 sm->miss[0].probe, sm->miss[0].rows, sm->miss[0].points);
	assert_non_null(strstr(json, line));
	/* no roles in either run: the summary says every row was gated */
	assert_non_null(strstr(md, "every row gated: neither run has metrics.csv"));
	free(md);
	free(json);
	free(sm);
	tcp_cmp_free(&cmp);
	tcp_cmp_run_free(&base);
	tcp_cmp_run_free(&cur);
	tcp_run_free(run);
	rm_rf(tmp);
}

/* A committed emulated run (provenance `emulated`): EMULATED first in report.md and in the
 * HTML's title and heading, and no summary.json (its rates would be the emulator's). */
static void test_committed_emulated(void **state)
{
	char err[512], dir[600], tmp[64], first[512];
	tcp_run_t *run;

	(void)state;
	copy_run(EMU_RUN, "emu", dir, sizeof(dir), tmp, sizeof(tmp));
	assert_int_equal(tcp_run_open(dir, 0, &run, err, sizeof(err)), 0);
	const char *emu = tcp_run_emulated(run);
	assert_non_null(emu);
	char *av[] = { "report", dir, "--no-plots", NULL };
	assert_int_equal(tcp_cmd_report(3, av), 0);
	char *md = slurp(dir, "report.md"), *html = slurp(dir, "report.html"), *json = slurp(dir, "summary.json");
	assert_non_null(md);
	assert_non_null(html);
	assert_null(json);
	snprintf(first, sizeof(first), "# EMULATED %s run, statuses and validation only: tcprobe report: emu (run ", emu);
	if (strncmp(md, first, strlen(first)))
		fail_msg("report.md's first line: %.200s", md);
	snprintf(first, sizeof(first), "<title>EMULATED %s: tcprobe report: emu</title>", emu);
	assert_non_null(strstr(html, first));
	snprintf(first, sizeof(first), "<h1 id=\"top\">EMULATED %s run", emu);
	assert_non_null(strstr(html, first));
	assert_null(strstr(md, "## Summary"));
	free(md);
	free(html);
	tcp_run_free(run);
	rm_rf(tmp);
}

/* --baseline with --compare is refused; --pdf without a Chromium: report written, exit 8. */
static void test_cmd_options(void **state)
{
	static const char *const ml[] = { "flop_per_clk_sm" }, *const ul[] = { "FLOP/clk/SM" };
	struct run r;
	double v = 1000 + urand() * 1000;

	(void)state;
	run_open(&r);
	run_point(&r, "test_x", "sm_90a", "f16", 64, 0, "OK", NULL, 1, ml, ul, &v);
	run_close(&r, 1);
	char *a1[] = { "report", r.dir, "--baseline", r.dir, "--compare", "x.csv", NULL };
	char *a2[] = { "report", r.dir, "--baseline", NULL };
	char *a3[] = { "report", r.dir, "--baseline", "/nonexistent/base", "--no-plots", NULL };
	assert_int_equal(tcp_cmd_report(6, a1), 2);
	assert_int_equal(tcp_cmd_report(3, a2), 2);
	assert_int_equal(tcp_cmd_report(5, a3), 2);
	setenv("CHROMIUM", "/nonexistent/chromium", 1);
	char *a4[] = { "report", r.dir, "--no-plots", "--pdf", NULL };
	assert_int_equal(tcp_cmd_report(4, a4), 8);
	unsetenv("CHROMIUM");
	char *md = slurp(r.dir, "report.md"), *json = slurp(r.dir, "summary.json"), *pdf = slurp(r.dir, "report.pdf");
	assert_non_null(md);
	assert_non_null(json);
	assert_null(pdf);
	free(md);
	free(json);
	/* against itself: every row the same, nothing listed */
	char *a5[] = { "report", r.dir, "--no-plots", "--baseline", r.dir, NULL };
	assert_int_equal(tcp_cmd_report(5, a5), 0);
	md = slurp(r.dir, "report.md");
	json = slurp(r.dir, "summary.json");
	assert_non_null(strstr(md, "## Against the baseline"));
	assert_non_null(strstr(md, "No primary metric changed beyond the noise band"));
	assert_non_null(strstr(json, "\"same\": 1"));
	assert_non_null(strstr(json, "\"missing_ok_rows\": 0"));
	assert_non_null(strstr(json, "\"compare_exit_status\": 0"));
	assert_non_null(strstr(md, "Result: "));		/* compare's own closing line */
	free(md);
	free(json);
	rm_rf(r.dir);
}

static void test_base64(void **state)
{
	static const char *const in[] = { "", "f", "fo", "foo", "foob", "fooba", "foobar" };
	static const char *const out[] = { "", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy" };
	char buf[32];

	(void)state;
	for (int i = 0; i < 7; i++) {	/* RFC 4648 section 10 test vectors */
		tcp_base64((const unsigned char *)in[i], strlen(in[i]), buf);
		assert_string_equal(buf, out[i]);
	}
}

/* Bad input: one line naming the bad value; the command exits 2. */
static void test_bad_input(void **state)
{
	char err[512], path[600];
	tcp_run_t *run = NULL;
	struct run r;

	(void)state;
	assert_int_equal(tcp_run_open("/nonexistent/run", 0, &run, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/run"));
	assert_null(run);

	snprintf(r.dir, sizeof(r.dir), "/tmp/tcp-test-report-XXXXXX");
	assert_non_null(mkdtemp(r.dir));
	assert_int_equal(tcp_run_open(r.dir, 0, &run, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "measurements.csv"));
	snprintf(path, sizeof(path), "%s/measurements.csv", r.dir);
	FILE *f = fopen(path, "w");
	fputs("probe,axes,metric,unit,median\nx,a=1,m,u,1\n", f);
	fclose(f);
	assert_int_equal(tcp_run_open(r.dir, 0, &run, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "missing required column 'status'"));
	f = fopen(path, "w");
	fputs("probe,axes,metric,unit,median,status\nx,a=1,m,u,1,OK\n", f);
	fclose(f);
	assert_int_equal(tcp_run_open(r.dir, 0, &run, err, sizeof(err)), 0);
	tcp_plot_state_t st[TCP_PLOTS_MAX];
	snprintf(path, sizeof(path), "%s/bad-compare.csv", r.dir);
	f = fopen(path, "w");
	fputs("probe,axes\nx,a=1\n", f);
	fclose(f);
	assert_int_equal(tcp_report_extract(run, path, NULL, st, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "column 'metric' missing"));
	tcp_run_free(run);

	char *a1[] = { "report", NULL };
	char *a2[] = { "report", "--bogus", r.dir, NULL };
	char *a3[] = { "report", "/nonexistent/run", NULL };
	char *a4[] = { "report", r.dir, "extra", NULL };
	char *a5[] = { "report", "--extract", NULL };
	char *a6[] = { "report", "--extract", "/nonexistent/out", r.dir, NULL };
	assert_int_equal(tcp_cmd_report(1, a1), 2);
	assert_int_equal(tcp_cmd_report(3, a2), 2);
	assert_int_equal(tcp_cmd_report(2, a3), 2);
	assert_int_equal(tcp_cmd_report(3, a4), 2);
	assert_int_equal(tcp_cmd_report(2, a5), 2);
	assert_int_equal(tcp_cmd_report(4, a6), 2);
	rm_rf(r.dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_best_and_counts),
		cmocka_unit_test(test_pct_peak_metric_and_latency),
		cmocka_unit_test(test_extract),
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_compare_ratio),
		cmocka_unit_test(test_lat_fits),
		cmocka_unit_test(test_per_kind_images),
		cmocka_unit_test(test_acc_width),
		cmocka_unit_test(test_fit_lines),
		cmocka_unit_test(test_findings),
		cmocka_unit_test(test_findings_ii_tmem_energy),
		cmocka_unit_test(test_footer),
		cmocka_unit_test(test_committed_run),
		cmocka_unit_test(test_extract_baseline),
		cmocka_unit_test(test_committed_gate),
		cmocka_unit_test(test_probe_findings),
		cmocka_unit_test(test_committed_energy),
		cmocka_unit_test(test_committed_emulated),
		cmocka_unit_test(test_cmd_options),
		cmocka_unit_test(test_base64),
		cmocka_unit_test(test_bad_input),
	};

	rng_state = (((uint64_t)time(NULL) * 2654435761u) ^ ((uint64_t)getpid() << 16)) | 1;
	printf("test-report: seed %llu\n", (unsigned long long)rng_state);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
