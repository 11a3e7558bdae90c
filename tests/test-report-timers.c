/*
 * test-report-timers.c
 *	The "Kernel timers (--timer cupti)" part of tcprobe report: per point
 *	Activity / profiler ratio, calib's three spans, a timed loop's share of
 *	the CUPTI span, the spread over reps (tcp_report_timers), the per-point
 *	RUN_DIR/timer-compare.csv and the section in report.md / report.html.
 *	Runs are synthetic, written through csvio.h with values drawn fresh per
 *	test (seed printed; TCP_TEST_SEED replays), and every expectation is
 *	computed here from the drawn values.  Zero, empty and malformed
 *	durations must be skipped, never divided by.
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
#include <unistd.h>

#include <cmocka.h>

#include "harness/store/csvio.h"
#include "harness/analyze/report.h"
#include "test-rows.h"
#include "test-util.h"

static double urand(void)	/* uniform in [0, 1) from test-util.h's splitmix64 */
{
	return (double)(next_u64() >> 11) / 9007199254740992.0;
}

static double uniform(double lo, double hi)
{
	return lo + (hi - lo) * urand();
}

/* One metric row of a point: median as text (may be empty or malformed), min, max. */
struct mrow {
	const char *metric;
	char median[40];
	double lo, hi;
};

/* What the test expects of one point (NaN: column empty). */
struct want {
	int id;
	char probe[32], axes[64];
	int in_rows;			/* 1: OK with a positive CUPTI span */
	double cu, spread, dur, ratio, ik, share, outside, event;
};

#define MAXP 96
struct fixture {
	char dir[256];
	tcp_rows_t *w;
	struct want want[MAXP];
	int n;
};

static void fx_open(struct fixture *f)
{
	char err[512], path[400];

	assert_int_equal(test_mkdtemp(f->dir, sizeof(f->dir), "report-timers"), 0);
	snprintf(path, sizeof(path), "%s/measurements.csv", f->dir);
	f->w = tcp_rows_open(path, NULL, 0, 0, err, sizeof(err));
	if (!f->w)
		fail_msg("%s", err);
	f->n = 0;
}

static void fx_point(struct fixture *f, int id, const char *probe, const char *axes, const char *status,
		     const struct mrow *m, int nm)
{
	char id_s[16], lo[16][40], hi[16][40];
	tcp_row_t rows[16];
	test_row_buf_t buf[16];

	assert_true(nm <= 16);
	snprintf(id_s, sizeof(id_s), "%d", id);
	for (int k = 0; k < nm; k++) {
		const char **c = rows[k].c;
		memset(&rows[k], 0, sizeof(rows[k]));
		snprintf(lo[k], sizeof(lo[k]), "%.17g", m[k].lo);
		snprintf(hi[k], sizeof(hi[k]), "%.17g", m[k].hi);
		c[TCP_COL_point] = id_s;
		c[TCP_COL_probe] = probe;
		c[TCP_COL_arch] = "sm_90a";
		c[TCP_COL_axes] = axes;
		c[TCP_COL_metric] = m[k].metric;
		c[TCP_COL_unit] = "x";
		c[TCP_COL_median] = m[k].median;
		c[TCP_COL_min] = lo[k];
		c[TCP_COL_max] = hi[k];
		c[TCP_COL_spread_pct] = "1";
		c[TCP_COL_status] = status;
		c[TCP_COL_sm_clock_mhz] = "1755";
		test_row_finish(&rows[k], &buf[k]);
	}
	assert_int_equal(tcp_rows_write(f->w, rows, nm), 0);
}

static void fx_close(struct fixture *f)
{
	assert_int_equal(tcp_rows_close(f->w), 0);
}

static struct mrow mr(const char *metric, double median)
{
	struct mrow m = { metric, "", median, median };

	snprintf(m.median, sizeof(m.median), "%.17g", median);
	return m;
}

static struct want *want_new(struct fixture *f, int id, const char *probe, const char *axes)
{
	struct want *w = &f->want[f->n++];

	assert_true(f->n <= MAXP);
	memset(w, 0, sizeof(*w));
	w->id = id;
	snprintf(w->probe, sizeof(w->probe), "%s", probe);
	snprintf(w->axes, sizeof(w->axes), "%s", axes);
	w->in_rows = 1;
	w->dur = w->ratio = w->ik = w->share = w->outside = w->event = NAN;
	return w;
}

/* The CUPTI span of a point: median and a min/max around it; sets cu and spread. */
static struct mrow cupti_row(struct want *w)
{
	double cu = uniform(1e3, 6e6), lo = cu * (1 - uniform(0, 0.02)), hi = cu * (1 + uniform(0, 0.03));
	struct mrow m = mr("cupti_kernel_ns", cu);

	m.lo = lo;
	m.hi = hi;
	w->cu = cu;
	w->spread = 100 * (hi - lo) / cu;
	return m;
}

/* A profiler duration near the CUPTI span; sets dur and ratio. */
static struct mrow duration_row(struct want *w)
{
	double d = w->cu * uniform(0.95, 1.05);

	w->dur = d;
	w->ratio = w->cu / d;
	return mr("cupti/gpu__time_duration.sum", d);
}

static int want_by_id(const void *a, const void *b)
{
	const struct want *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/*
 * A --timer cupti run: calib points (kernel_ns, event_ns), wgmma_tput
 * points (cycles, sm_clock_mhz), wgmma_lat points with no in-kernel span,
 * in shuffled point order, plus points that must be skipped or partly
 * skipped: a FAILED point, a zero CUPTI span, zero / empty / malformed
 * durations, a zero clock.
 */
static void build_run(struct fixture *f)
{
	int ids[MAXP], nid = 3 + 5 + (int)(urand() * 20) + 3 + 2 + 6;
	int k = 0;
	char axes[64];

	for (int i = 0; i < nid; i++)
		ids[i] = i * 7 + (int)(urand() * 7);
	for (int i = nid - 1; i > 0; i--) {	/* shuffle: rows out of point order */
		int j = (int)(urand() * (i + 1)), t = ids[i];
		ids[i] = ids[j];
		ids[j] = t;
	}
	fx_open(f);
	for (int s = 0; s < 3; s++) {
		struct mrow m[4];
		snprintf(axes, sizeof(axes), "spin_kcycles=%d", s == 0 ? 100 : s == 1 ? 1000 : 10000);
		struct want *w = want_new(f, ids[k], "calib", axes);
		m[0] = cupti_row(w);
		m[1] = duration_row(w);
		w->ik = w->cu - uniform(500, 900);
		w->event = w->cu + uniform(1e5, 3e5);
		m[2] = mr("kernel_ns", w->ik);
		m[3] = mr("event_ns", w->event);
		w->share = 100 * w->ik / w->cu;
		w->outside = w->cu - w->ik;
		fx_point(f, ids[k++], "calib", axes, "OK", m, 4);
	}
	int ntput = nid - 3 - 3 - 2 - 6;	/* calib, wgmma_lat, skipped, partly skipped */
	for (int i = 0; i < ntput; i++) {
		struct mrow m[5];
		snprintf(axes, sizeof(axes), "kind=f16;N=%d", 8 * (i + 1));
		struct want *w = want_new(f, ids[k], "wgmma_tput", axes);
		m[0] = mr("flop_per_clk_sm", uniform(1000, 4096));
		m[1] = cupti_row(w);
		m[2] = duration_row(w);
		double mhz = uniform(1500, 1980), ns = w->cu * uniform(0.95, 0.9999);
		m[3] = mr("cycles", ns * mhz * 1e-3);
		m[4] = mr("sm_clock_mhz", mhz);
		w->ik = ns * mhz * 1e-3 / (mhz * 1e-3);
		w->share = 100 * w->ik / w->cu;
		w->outside = w->cu - w->ik;
		fx_point(f, ids[k++], "wgmma_tput", axes, "OK", m, 5);
	}
	for (int i = 0; i < 3; i++) {
		struct mrow m[2];
		snprintf(axes, sizeof(axes), "depth=%d", i + 1);
		struct want *w = want_new(f, ids[k], "wgmma_lat", axes);
		m[0] = cupti_row(w);
		m[1] = duration_row(w);
		fx_point(f, ids[k++], "wgmma_lat", axes, "OK", m, 2);
	}
	/* Skipped entirely: a FAILED point and a zero CUPTI span. */
	{
		struct mrow m[2];
		struct want *w = want_new(f, ids[k], "wgmma_lat", "depth=99");
		m[0] = cupti_row(w);
		m[1] = duration_row(w);
		w->in_rows = 0;
		fx_point(f, ids[k++], "wgmma_lat", "depth=99", "FAILED", m, 2);
		w = want_new(f, ids[k], "wgmma_lat", "depth=98");
		m[0] = mr("cupti_kernel_ns", 0);
		m[1] = mr("cupti/gpu__time_duration.sum", uniform(1e3, 1e6));
		w->in_rows = 0;
		fx_point(f, ids[k++], "wgmma_lat", "depth=98", "OK", m, 2);
	}
	/* Kept, with the bad column left empty: zero, empty, malformed duration; zero clock; zero cycles. */
	{
		static const char *const bad[] = { "0", "", "abc", "-5" };
		struct mrow m[4];
		for (int i = 0; i < 4; i++) {
			snprintf(axes, sizeof(axes), "depth=%d", 50 + i);
			struct want *w = want_new(f, ids[k], "wgmma_lat", axes);
			m[0] = cupti_row(w);
			m[1] = mr("cupti/gpu__time_duration.sum", 0);
			snprintf(m[1].median, sizeof(m[1].median), "%s", bad[i]);
			fx_point(f, ids[k++], "wgmma_lat", axes, "OK", m, 2);
		}
		struct want *w = want_new(f, ids[k], "wgmma_tput", "kind=f16;N=4096");
		m[0] = cupti_row(w);
		m[1] = duration_row(w);
		m[2] = mr("cycles", uniform(1e5, 1e6));
		m[3] = mr("sm_clock_mhz", 0);
		fx_point(f, ids[k++], "wgmma_tput", "kind=f16;N=4096", "OK", m, 4);
		w = want_new(f, ids[k], "wgmma_tput", "kind=f16;N=4097");
		m[0] = cupti_row(w);
		m[1] = duration_row(w);
		m[2] = mr("cycles", 0);
		m[3] = mr("sm_clock_mhz", uniform(1500, 1980));
		fx_point(f, ids[k++], "wgmma_tput", "kind=f16;N=4097", "OK", m, 4);
	}
	assert_int_equal(k, nid);
	fx_close(f);
	qsort(f->want, (size_t)f->n, sizeof(f->want[0]), want_by_id);
}

/* NaN-aware: both NaN, or close. */
static void check_opt(double got, double want, const char *what)
{
	if (isnan(want)) {
		if (!isnan(got))
			fail_msg("%s = %.17g, expected an empty column", what, got);
		return;
	}
	if (!(fabs(got - want) <= 1e-9 * fabs(want)))
		fail_msg("%s = %.17g, expected %.17g", what, got, want);
}

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), dcmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static char *slurp_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* No "nan" or "inf" between the timers heading and the next h2 (a division by zero shows). */
static void assert_section_finite(const char *doc, const char *start)
{
	const char *a = strstr(doc, start), *e;

	assert_non_null(a);
	e = strstr(a + strlen(start), "<h2");
	if (!e)
		e = strstr(a + strlen(start), "\n## ");
	if (!e)
		e = a + strlen(a);
	for (const char *p = a; p + 3 <= e; p++)
		if (!strncmp(p, "nan", 3) || !strncmp(p, "inf", 3))
			fail_msg("timers section prints a non-number: ...%.40s", p);
}

static void write_report(const char *dir, tcp_run_t **run)
{
	char err[512];
	tcp_plot_state_t st[TCP_PLOTS_MAX];

	if (tcp_run_open(dir, 0, run, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(tcp_report_extract(*run, NULL, NULL, st, err, sizeof(err)), 0);
	if (tcp_report_write(*run, dir, st, err, sizeof(err)))
		fail_msg("%s", err);
}

/* Rows, timer-compare.csv and the report section against the drawn values. */
static void test_timer_rows_csv_and_section(void **state)
{
	static struct fixture f;
	tcp_run_t *run;
	tcp_timer_row_t *t;
	char path[400], what[160], line[200];
	int nin = 0;

	(void)state;
	test_seed("test_timer_rows_csv_and_section");
	build_run(&f);
	write_report(f.dir, &run);
	for (int i = 0; i < f.n; i++)
		nin += f.want[i].in_rows;

	int n = tcp_report_timers(run, &t);
	assert_int_equal(n, nin);
	for (int i = 0, k = 0; i < f.n; i++) {
		const struct want *w = &f.want[i];
		if (!w->in_rows)
			continue;
		const tcp_timer_row_t *g = &t[k++];
		assert_int_equal(atoi(g->point), w->id);
		assert_string_equal(g->probe, w->probe);
		assert_string_equal(g->axes, w->axes);
		snprintf(what, sizeof(what), "point %d %s", w->id, w->axes);
		check_opt(g->cupti_ns, w->cu, what);
		check_opt(g->spread_pct, w->spread, what);
		check_opt(g->duration_ns, w->dur, what);
		check_opt(g->activity_over_profiler, w->ratio, what);
		check_opt(g->inkernel_ns, w->ik, what);
		check_opt(g->inkernel_share_pct, w->share, what);
		check_opt(g->outside_ns, w->outside, what);
		check_opt(g->event_ns, w->event, what);
	}

	/* timer-compare.csv: the same rows, %.6g. */
	tcp_table_t tab;
	char err[512];
	snprintf(path, sizeof(path), "%s/timer-compare.csv", f.dir);
	if (tcp_table_load(path, &tab, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(tab.nrows, nin);
	for (int i = 0, k = 0; i < f.n; i++) {
		const struct want *w = &f.want[i];
		static const char *const col[] = { "cupti_kernel_ns", "cupti_spread_pct", "gpu_time_duration_ns",
						   "activity_over_profiler", "inkernel_ns", "inkernel_share_pct",
						   "outside_ns", "event_ns" };
		if (!w->in_rows)
			continue;
		const double v[8] = { w->cu, w->spread, w->dur, w->ratio, w->ik, w->share, w->outside, w->event };
		assert_int_equal(atoi(tcp_table_get(&tab, k, "point")), w->id);
		assert_string_equal(tcp_table_get(&tab, k, "axes"), w->axes);
		for (int c = 0; c < 8; c++) {
			const char *cell = tcp_table_get(&tab, k, col[c]);
			if (isnan(v[c])) {
				assert_string_equal(cell, "");
			} else {
				snprintf(what, sizeof(what), "csv point %d %s", w->id, col[c]);
				assert_true(*cell);
				if (!(fabs(strtod(cell, NULL) - v[c]) <= 1e-5 * fabs(v[c])))
					fail_msg("%s = %s, expected %.17g", what, cell, v[c]);
			}
		}
		k++;
	}
	tcp_table_free(&tab);

	/* The section: wgmma_tput's median share and the Activity/profiler row of wgmma_lat. */
	double v[MAXP];
	int nv = 0;
	for (int i = 0; i < f.n; i++)
		if (f.want[i].in_rows && !strcmp(f.want[i].probe, "wgmma_tput") && !isnan(f.want[i].share))
			v[nv++] = f.want[i].share;
	snprintf(path, sizeof(path), "%s/report.md", f.dir);
	char *md = slurp_text(path);
	assert_non_null(strstr(md, "## Kernel timers (--timer cupti)"));
	assert_non_null(strstr(md, "(#kernel-timers---timer-cupti)"));
	assert_non_null(strstr(md, "timer-compare.csv"));
	assert_non_null(strstr(md, "not comparable with those of an events run"));
	snprintf(line, sizeof(line), "as a share of the CUPTI kernel span, %d points:", nv);
	assert_non_null(strstr(md, line));
	snprintf(line, sizeof(line), "| share %% | %.4g |", median_of(v, nv));
	assert_non_null(strstr(md, line));
	nv = 0;
	double lo = INFINITY, hi = -INFINITY;
	for (int i = 0; i < f.n; i++)
		if (f.want[i].in_rows && !strcmp(f.want[i].probe, "wgmma_lat") && !isnan(f.want[i].ratio)) {
			v[nv++] = f.want[i].ratio;
			lo = fmin(lo, f.want[i].ratio);
			hi = fmax(hi, f.want[i].ratio);
		}
	double med = median_of(v, nv);
	snprintf(line, sizeof(line), "| wgmma_lat | %d | %.4g | %.4g | %.4g |", nv, med, lo, hi);
	assert_non_null(strstr(md, line));
	for (int i = 0; i < f.n; i++)
		if (!strcmp(f.want[i].probe, "calib")) {
			snprintf(line, sizeof(line), "| %s | %.0f | %.0f | %.0f | %.0f | %.0f |", f.want[i].axes,
				 f.want[i].ik, f.want[i].cu, f.want[i].event, f.want[i].outside,
				 f.want[i].event - f.want[i].cu);
			assert_non_null(strstr(md, line));
		}
	assert_section_finite(md, "## Kernel timers");
	free(md);
	snprintf(path, sizeof(path), "%s/report.html", f.dir);
	char *html = slurp_text(path);
	assert_non_null(strstr(html, "<h2 id=\"timers\">Kernel timers (--timer cupti)</h2>"));
	assert_non_null(strstr(html, "<a href=\"#timers\">"));
	assert_section_finite(html, "<h2 id=\"timers\">");
	free(html);

	free(t);
	tcp_run_free(run);
	assert_int_equal(test_rm_tree(f.dir), 0);
}

/* A run without cupti_kernel_ns rows: no rows, no section, no timer-compare.csv. */
static void test_no_cupti_no_section(void **state)
{
	static struct fixture f;
	tcp_run_t *run;
	tcp_timer_row_t *t = (tcp_timer_row_t *)&f;	/* must be reset to NULL */
	char path[400];
	struct stat sb;

	(void)state;
	test_seed("test_no_cupti_no_section");
	fx_open(&f);
	int np = 2 + (int)(urand() * 10);
	for (int i = 0; i < np; i++) {
		struct mrow m[3];
		char axes[40];
		snprintf(axes, sizeof(axes), "spin_kcycles=%d", 100 * (i + 1));
		m[0] = mr("kernel_ns", uniform(1e4, 1e6));
		m[1] = mr("event_ns", uniform(1e4, 1e6));
		m[2] = mr("cupti/gpu__time_duration.sum", uniform(1e4, 1e6));
		fx_point(&f, i, "calib", axes, "OK", m, 3);
	}
	fx_close(&f);
	write_report(f.dir, &run);
	assert_int_equal(tcp_report_timers(run, &t), 0);
	assert_null(t);
	snprintf(path, sizeof(path), "%s/timer-compare.csv", f.dir);
	assert_int_not_equal(stat(path, &sb), 0);
	snprintf(path, sizeof(path), "%s/report.md", f.dir);
	char *md = slurp_text(path);
	assert_null(strstr(md, "Kernel timers"));
	assert_null(strstr(md, "kernel timers"));
	free(md);
	snprintf(path, sizeof(path), "%s/report.html", f.dir);
	char *html = slurp_text(path);
	assert_null(strstr(html, "Kernel timers"));
	assert_null(strstr(html, "#timers"));
	free(html);
	tcp_run_free(run);
	assert_int_equal(test_rm_tree(f.dir), 0);
}

/*
 * Every duration bad (zero, negative, empty, malformed) and no in-kernel
 * span: the rows stay, every ratio is empty, and the section says so
 * instead of printing inf or nan.
 */
static void test_bad_durations_not_divided(void **state)
{
	static const char *const bad[] = { "0", "-1", "", "x1", "0.0" };
	static struct fixture f;
	tcp_run_t *run;
	tcp_timer_row_t *t;
	char path[400];

	(void)state;
	test_seed("test_bad_durations_not_divided");
	fx_open(&f);
	int np = 5 + (int)(urand() * 5);
	for (int i = 0; i < np; i++) {
		struct mrow m[4];
		char axes[40];
		snprintf(axes, sizeof(axes), "N=%d", 8 * (i + 1));
		m[0] = mr("cupti_kernel_ns", uniform(1e3, 1e6));
		m[1] = mr("cupti/gpu__time_duration.sum", 0);
		snprintf(m[1].median, sizeof(m[1].median), "%s", bad[i % 5]);
		m[2] = mr("cycles", uniform(1e3, 1e6));
		m[3] = mr("sm_clock_mhz", 0);
		snprintf(m[3].median, sizeof(m[3].median), "%s", bad[(i + 1) % 5]);
		fx_point(&f, i, "wgmma_tput", axes, "OK", m, 4);
	}
	fx_close(&f);
	write_report(f.dir, &run);
	int n = tcp_report_timers(run, &t);
	assert_int_equal(n, np);
	for (int i = 0; i < n; i++) {
		assert_true(isnan(t[i].duration_ns) && isnan(t[i].activity_over_profiler));
		assert_true(isnan(t[i].inkernel_ns) && isnan(t[i].inkernel_share_pct) && isnan(t[i].outside_ns));
		assert_true(isfinite(t[i].cupti_ns) && t[i].cupti_ns > 0);
	}
	snprintf(path, sizeof(path), "%s/report.md", f.dir);
	char *md = slurp_text(path);
	assert_non_null(strstr(md, "## Kernel timers (--timer cupti)"));
	assert_non_null(strstr(md, "No point has a positive cupti/gpu__time_duration.sum"));
	assert_null(strstr(md, "as a share of the CUPTI kernel span"));
	assert_section_finite(md, "## Kernel timers");
	free(md);
	free(t);
	tcp_run_free(run);
	assert_int_equal(test_rm_tree(f.dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timer_rows_csv_and_section),
		cmocka_unit_test(test_no_cupti_no_section),
		cmocka_unit_test(test_bad_durations_not_divided),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
