/*
 * test-report.c
 *	tcprobe report: a run read back from CSV, best points and % of peak,
 *	status counts, the per-plot data files (values, fits, manifest), the
 *	"no data" path, report.md / report.html (escaping, inlined PNG), and
 *	bad input.  Every run is written fresh through csvio.h with values drawn
 *	from a new seed, so nothing here is a hard-coded result.
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
#include "model/kinds.h"

static const char *const header[] = {
	"schema", "run_id", "gpu", "point", "probe", "arch", "axes", "metric", "unit", "median",
	"min", "max", "mean", "stddev", "spread_pct", "reps", "status", "reason", "sm_clock_mhz",
	"throttle", "timestamp", "depth", "N", "kind",
};
#define NCOLS ((int)(sizeof(header) / sizeof(header[0])))

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
	tcp_csv_writer_t *w;
	int point;
};

static void run_open(struct run *r)
{
	char err[512];

	snprintf(r->dir, sizeof(r->dir), "/tmp/tcp-test-report-XXXXXX");
	assert_non_null(mkdtemp(r->dir));
	char path[512];
	snprintf(path, sizeof(path), "%s/measurements.csv", r->dir);
	r->w = tcp_csv_open(path, header, NCOLS, 0, err, sizeof(err));
	assert_non_null(r->w);
	r->point = 0;
}

/* One point's rows: metrics[i] with unit[i] and value v[i] (NaN: empty). */
static void run_point(struct run *r, const char *probe, const char *arch, const char *kind, int n, int d,
		      const char *status, const char *reason, int nm, const char *const *metrics,
		      const char *const *units, const double *v)
{
	char axes[60] = "", cells[8][NCOLS][64];
	const char *rows[8 * NCOLS];

	if (kind)
		snprintf(axes, sizeof(axes), "kind=%s", kind);
	if (n)
		snprintf(axes + strlen(axes), sizeof(axes) - strlen(axes), "%sN=%d", *axes ? ";" : "", n);
	if (d)
		snprintf(axes + strlen(axes), sizeof(axes) - strlen(axes), "%sdepth=%d", *axes ? ";" : "", d);
	for (int m = 0; m < nm; m++) {
		for (int c = 0; c < NCOLS; c++)
			cells[m][c][0] = 0;
		snprintf(cells[m][0], 64, "1");
		snprintf(cells[m][1], 64, "test-run");
		snprintf(cells[m][2], 64, "0");
		snprintf(cells[m][3], 64, "%d", r->point);
		snprintf(cells[m][4], 64, "%s", probe);
		snprintf(cells[m][5], 64, "%s", arch);
		snprintf(cells[m][6], 64, "%s", axes);
		snprintf(cells[m][7], 64, "%s", metrics[m]);
		snprintf(cells[m][8], 64, "%s", units[m]);
		if (!strcmp(status, "OK") && isfinite(v[m])) {
			snprintf(cells[m][9], 64, "%.17g", v[m]);
			snprintf(cells[m][14], 64, "%.17g", 0.5);
			snprintf(cells[m][18], 64, "1755");
		}
		snprintf(cells[m][15], 64, "5");
		snprintf(cells[m][16], 64, "%s", status);
		snprintf(cells[m][17], 64, "%s", reason ? reason : "");
		if (d)
			snprintf(cells[m][21], 64, "%d", d);
		if (n)
			snprintf(cells[m][22], 64, "%d", n);
		if (kind)
			snprintf(cells[m][23], 64, "%s", kind);
		for (int c = 0; c < NCOLS; c++)
			rows[m * NCOLS + c] = cells[m][c];
	}
	assert_int_equal(tcp_csv_write_rows(r->w, rows, nm), 0);
	r->point++;
}

static void run_close(struct run *r, int with_prov)
{
	char err[512], path[512];

	assert_int_equal(tcp_csv_close(r->w), 0);
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
 * status is counted per point, not per row.
 */
static void test_best_and_counts(void **state)
{
	static const char *const kinds[] = { "f16", "tf32", "e4m3" };
	static const int kk[] = { TCP_KIND_F16, TCP_KIND_TF32, TCP_KIND_F8F6F4 };
	static const char *const st[] = { "FAILED", "INVALID", "TIMEOUT", "SKIPPED", "UNSUPPORTED" };
	struct run r;
	double best[3] = { -1, -1, -1 };
	int count[6] = { 0 };
	char err[512];
	tcp_run_t *run;

	(void)state;
	run_open(&r);
	for (int i = 0; i < 60; i++) {
		int k = (int)(urand() * 3), n = 8 * (i + 1);	/* unique axes: one point each */
		double v[2] = { 100 + urand() * 8000, 1700 + urand() * 200 };
		int s = urand() < 0.7 ? -1 : (int)(urand() * 5);
		run_point(&r, "test_rate", "sm_90a", kinds[k], n, 0, s < 0 ? "OK" : st[s], s < 0 ? "" : "why",
			  2, rate_m, rate_u, v);
		count[s + 1]++;
		if (s < 0 && v[0] > best[k])
			best[k] = v[0];
	}
	run_close(&r, 1);
	assert_int_equal(tcp_run_open(r.dir, 0, &run, err, sizeof(err)), 0);
	assert_int_equal(run->npoints, 60);
	assert_int_equal(run->nprobes, 1);
	assert_string_equal(run->probes[0], "test_rate");
	assert_null(run->probes[1]);
	assert_string_equal(tcp_run_prov(run, "driver_version"), "999.1");
	assert_int_equal(tcp_run_count(run, "test_rate", TCP_OK), count[0]);
	assert_int_equal(tcp_run_count(run, "test_rate", TCP_FAILED), count[1]);
	assert_int_equal(tcp_run_count(run, "test_rate", TCP_INVALID), count[2]);
	assert_int_equal(tcp_run_count(run, "test_rate", TCP_TIMEOUT), count[3]);
	assert_int_equal(tcp_run_count(run, "test_rate", TCP_SKIPPED), count[4]);
	assert_int_equal(tcp_run_count(run, "test_rate", TCP_UNSUPPORTED), count[5]);

	tcp_best_t b[8];
	int nb = tcp_run_best(run, "test_rate", b, 8), seen = 0;
	for (int i = 0; i < nb; i++) {
		assert_string_equal(b[i].metric, "flop_per_clk_sm");
		for (int k = 0; k < 3; k++)
			if (!strncmp(b[i].axes, "kind=", 5) && !strncmp(b[i].axes + 5, kinds[k], strlen(kinds[k])) &&
			    b[i].axes[5 + strlen(kinds[k])] == ';') {
				double peak = tcp_kind_flop_clk_sm((tcp_kind_t)kk[k], TCP_GEN_SM90);
				assert_close(b[i].median, best[k], 1e-9 * best[k]);
				assert_close(b[i].peak, peak, 0);
				assert_close(b[i].pct_peak, best[k] / peak * 100, 1e-9);
				assert_close(b[i].clock_mhz, 1755, 0);
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
	assert_int_equal(dat_row(g, "wgmma f16", f), 13);
	assert_string_equal(f[7], "measured");
	assert_close(strtod(f[6], NULL), best, 1e-9 * best);
	assert_close(strtod(f[9], NULL), best / 4, 1e-9 * best);	/* K = 16: rate / 4 */
	assert_int_equal(dat_row(g, "tcgen05 mxf4", f), 13);
	assert_string_equal(f[7], "published");
	assert_close(strtod(f[5], NULL), tcp_kind_k(TCP_KIND_MXF4) / 4.0, 0);
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

/*
 * The ratio plot from a two-run (N-way) compare CSV: one dataset per NEW run,
 * only the primary metric's rows, band = 1 +- noise_pct / 100, verdict colours.
 */
static void test_compare_ratio(void **state)
{
	static const char *const verdicts[] = { "same", "faster", "slower", "changed" };
	struct run r;
	char err[512], path[600], f[16][64];
	tcp_run_t *run;
	tcp_plot_state_t st[TCP_PLOTS_MAX];
	double ratio[2][20], noise[2][20];
	int verdict[2][20];

	(void)state;
	run_open(&r);
	double v[2] = { 1000, 1755 };
	run_point(&r, "test_x", "sm_90a", "f16", 64, 0, "OK", NULL, 2, rate_m, rate_u, v);
	run_close(&r, 0);
	snprintf(path, sizeof(path), "%s/cmp.csv", r.dir);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("base_run,probe,axes,metric,unit,better,base_median,base_spread_pct,base_status,"
	      "new_run,new_median,new_spread_pct,new_status,ratio,change_pct,noise_pct,verdict,regression,"
	      "new_run_2,new_median_2,new_spread_pct_2,new_status_2,ratio_2,change_pct_2,noise_pct_2,verdict_2,regression_2\n", fp);
	for (int i = 0; i < 20; i++) {
		for (int g = 0; g < 2; g++) {
			ratio[g][i] = 0.9 + urand() * 0.2;
			noise[g][i] = 1 + urand() * 3;
			verdict[g][i] = (int)(urand() * 4);
		}
		/* each point: its rate row (plotted) and a clock row (not the primary metric) */
		fprintf(fp, "base,test_x,N=%d,flop_per_clk_sm,FLOP/clk/SM,higher,1000,0.5,OK,"
			"runA,1,0.5,OK,%.17g,0,%.17g,%s,0,runB,1,0.5,OK,%.17g,0,%.17g,%s,0\n", i,
			ratio[0][i], noise[0][i], verdicts[verdict[0][i]], ratio[1][i], noise[1][i],
			verdicts[verdict[1][i]]);
		fprintf(fp, "base,test_x,N=%d,sm_clock_mhz,MHz,higher,1755,0.5,OK,"
			"runA,1,0.5,OK,7,0,1,slower,0,runB,1,0.5,OK,7,0,1,slower,0\n", i);
	}
	fclose(fp);
	assert_int_equal(tcp_run_open(r.dir, 0, &run, err, sizeof(err)), 0);
	assert_int_equal(tcp_report_extract(run, path, r.dir, st, err, sizeof(err)), 0);
	assert_true(st[tcp_plot_find("compare-ratio")].has_data);
	char *g = slurp(r.dir, "compare-ratio.gpvars"), *d = slurp(r.dir, "compare-ratio.dat");
	assert_close(gpvar(g, "NR"), 2, 0);
	assert_close(gpvar(g, "NPTS"), 20, 0);
	assert_non_null(strstr(g, "runB / base"));
	assert_null(strstr(d, "\t7\t"));		/* the clock rows are not plotted */
	/* rows in order: dataset 1 then dataset 2, columns i probe ratio lo hi verdict color */
	const char *s = d;
	for (int gi = 0; gi < 2; gi++)
		for (int i = 0; i < 20; i++) {
			char want[16];
			snprintf(want, sizeof(want), "%d\ttest_x\t", i + 1);
			s = strstr(s, want);
			assert_non_null(s);
			int nf = 0;
			char line[512], *save = NULL;
			snprintf(line, sizeof(line), "%.*s", (int)strcspn(s, "\n"), s);
			for (char *t = strtok_r(line, "\t", &save); t && nf < 16; t = strtok_r(NULL, "\t", &save))
				snprintf(f[nf++], 64, "%s", t);
			assert_int_equal(nf, 7);
			assert_close(strtod(f[2], NULL), ratio[gi][i], 1e-12);
			assert_close(strtod(f[3], NULL), 1 - noise[gi][i] / 100, 1e-12);
			assert_close(strtod(f[4], NULL), 1 + noise[gi][i] / 100, 1e-12);
			assert_string_equal(f[5], verdicts[verdict[gi][i]]);
			assert_int_equal(atoi(f[6]), verdict[gi][i]);
			s += strlen(want);
		}
	free(g);
	free(d);
	tcp_run_free(run);
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
		cmocka_unit_test(test_base64),
		cmocka_unit_test(test_bad_input),
	};

	rng_state = (((uint64_t)time(NULL) * 2654435761u) ^ ((uint64_t)getpid() << 16)) | 1;
	printf("test-report: seed %llu\n", (unsigned long long)rng_state);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
