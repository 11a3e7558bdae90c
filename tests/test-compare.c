/*
 * test-compare.c
 *	harness/compare.{h,c} and `tcprobe compare`: joining, noise-band
 *	verdicts in both directions, missing/new points, status changes, N-way,
 *	sorting, the CSV, the gate's exit codes, and every malformed input
 *	(exit 2 with one line naming the file and line).
 *
 *	Run directories are written by the test into a fresh temp dir, with
 *	values drawn from a fresh seed (printed, so a failure can be replayed
 *	with TCP_TEST_SEED=...).  tests/fixtures/compare/ holds two small
 *	static synthetic runs as a readable example and a fixed-point check.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/cmd/cmd-list.h"
#include "harness/analyze/compare.h"
#include "harness/store/csvio.h"
#include "test-rows.h"
#include "test-util.h"

/* ---- randomness: fresh per run, replayable ------------------------------ */

static double urand(double lo, double hi)
{
	return lo + (hi - lo) * (double)(next_u64() >> 11) / 9007199254740992.0;
}

/* ---- writing run directories -------------------------------------------- */

typedef struct {
	const char *probe, *axes, *metric, *unit, *status;
	double median, spread;	/* spread in percent */
} pt_t;

static char tmproot[64];
static int ndirs_made;

/* A fresh directory under the test's temp root. */
static char *new_dir(char *buf, size_t len, const char *tag)
{
	snprintf(buf, len, "%.63s/%.40s-%d", tmproot, tag, ndirs_made++);
	assert_int_equal(mkdir(buf, 0755), 0);
	return buf;
}

static void write_file(const char *dir, const char *name, const char *text)
{
	assert_int_equal(test_write_file(dir, name, text), 0);
}

/* The version 1 header of the malformed files below and of the schema-1 runs
 * (test_header: from the column table), set up by group_setup. */
static char meas_header[1024];

/* measurements.csv through the production writer (harness/store/rows.h), at
 * this schema version. */
static void write_rows(const char *path, const char *dir, const pt_t *p, int n)
{
	static const char *const axcols[] = { "N", "kind" };
	char err[512], id[16], v[6][40];
	tcp_rows_t *w = tcp_rows_open(path, axcols, 2, 0, err, sizeof(err));
	assert_non_null(w);
	for (int i = 0; i < n; i++) {
		tcp_row_t row = { 0 };
		test_row_buf_t buf;
		const char **c = row.c;
		snprintf(id, sizeof(id), "%d", i);
		c[TCP_COL_run_id] = strrchr(dir, '/') + 1;
		c[TCP_COL_gpu] = "0";
		c[TCP_COL_point] = id;
		c[TCP_COL_probe] = p[i].probe;
		c[TCP_COL_arch] = "sm_90a";
		c[TCP_COL_axes] = p[i].axes;
		c[TCP_COL_metric] = p[i].metric;
		c[TCP_COL_unit] = p[i].unit;
		c[TCP_COL_reps] = "20";
		c[TCP_COL_status] = p[i].status;
		c[TCP_COL_throttle] = "none";
		c[TCP_COL_timestamp] = "2026-11-29T18:00:00Z";
		if (!strcmp(p[i].status, "OK")) {
			double m = p[i].median, h = m * p[i].spread / 200.0;
			const double x[6] = { m, m - h, m + h, m, h / 2, p[i].spread };
			static const int col[6] = { TCP_COL_median, TCP_COL_min, TCP_COL_max, TCP_COL_mean,
						    TCP_COL_stddev, TCP_COL_spread_pct };
			for (int k = 0; k < 6; k++) {
				snprintf(v[k], sizeof(v[k]), "%.17g", x[k]);
				c[col[k]] = v[k];
			}
			c[TCP_COL_sm_clock_mhz] = "1980";
			c[TCP_COL_ci_pct] = "0.01";
			c[TCP_COL_reps_stop] = "noise";
		} else {
			snprintf(v[0], sizeof(v[0]), "synthetic %s reason", p[i].status);
			c[TCP_COL_reason] = v[0];
		}
		test_row_finish(&row, &buf);
		/* the axis columns: N from the key, kind as the rows of older files carry it */
		row.an[row.naxes] = "kind";
		row.av[row.naxes++] = "f16";
		assert_int_equal(tcp_rows_write(w, &row, 1), 0);
	}
	assert_int_equal(tcp_rows_close(w), 0);
}

/* measurements.csv + provenance.csv: schema 3 through the production writer;
 * 1 and 2 as older tcprobe builds wrote them (2: ci_pct and reps_stop after
 * timestamp), for the readers of every version. */
static void write_run_schema(const char *dir, const char *gpu_name, const char *driver,
			     const pt_t *p, int n, int schema)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/measurements.csv", dir);
	FILE *f = NULL;
	if (schema == TCP_SCHEMA_VERSION)
		write_rows(path, dir, p, n);
	else
		assert_non_null(f = fopen(path, "w"));
	if (f)
		fputs(test_header(path, sizeof(path), schema, "N,kind"), f);
	for (int i = 0; f && i < n; i++) {
		int ok = !strcmp(p[i].status, "OK");
		fprintf(f, "%d,%s,0,%d,%s,sm_90a,%s,%s,%s,", schema, strrchr(dir, '/') + 1, i, p[i].probe,
			p[i].axes, p[i].metric, p[i].unit);
		if (ok) {
			double m = p[i].median, h = m * p[i].spread / 200.0;
			fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,20,OK,,1980,none,", m, m - h,
				m + h, m, h / 2, p[i].spread);
		} else {
			fprintf(f, ",,,,,,20,%s,synthetic %s reason,,none,", p[i].status, p[i].status);
		}
		fprintf(f, "2026-11-29T18:00:00Z,%s,f16\n", schema == 2 ? (ok ? "0.01,noise,,,," : ",,,,,") : "");
	}
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "%s/provenance.csv", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "key,value\nschema_version,%d\ngpu_name,%s\ndriver_version,%s\n"
		"cuda_toolkit_version,13.0\ncompute_capability,9.0\n", schema, gpu_name, driver);
	fclose(f);
	assert_int_equal(test_write_declared_roles(dir), 0);
}

static void write_run(const char *dir, const char *gpu_name, const char *driver,
		      const pt_t *p, int n)
{
	write_run_schema(dir, gpu_name, driver, p, n, TCP_SCHEMA_VERSION);
}

/* ---- running the command, capturing its output --------------------------- */

typedef test_cmd_t cmd_result_t;

/* tcp_cmd_compare(argv...) with stdout and stderr captured. */
static void run_compare(cmd_result_t *res, ...)
{
	char *argv[64];
	int argc = 0;
	va_list ap;
	va_start(ap, res);
	argv[argc++] = "compare";
	for (char *a; (a = va_arg(ap, char *)) != NULL && argc < 63;)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	test_run_cmd(res, tcp_cmd_compare, argc, argv);
}

/* Exit 2, exactly one stderr line, and it contains `needle` (file:line). */
static void expect_input_error(const cmd_result_t *r, const char *needle)
{
	if (r->rc != 2 || r->err_lines != 1 || !strstr(r->err, needle))
		print_error("rc=%d lines=%d want '%s' in: %s\n", r->rc, r->err_lines, needle, r->err);
	assert_int_equal(r->rc, 2);
	assert_int_equal(r->err_lines, 1);
	assert_non_null(strstr(r->err, needle));
	/* a bad option or argument: "tcprobe: compare: "; a bad run: "tcprobe compare: " */
	assert_true(strstr(r->err, "tcprobe: compare: ") || strstr(r->err, "tcprobe compare: "));
}

/* ---- setup ------------------------------------------------------------- */

static int group_setup(void **state)
{
	(void)state;
	test_seed("test-compare");
	test_header(meas_header, sizeof(meas_header), 1, "N,kind");
	return test_mkdtemp(tmproot, sizeof(tmproot), "compare");
}

static int group_teardown(void **state)
{
	(void)state;
	return test_rm_tree(tmproot);
}

/* ---- the verdict of one point ------------------------------------------- */

static tcp_cmp_point_t mkpt(const char *status, double median, double spread)
{
	tcp_cmp_point_t p = {
		.probe = "p", .axes = "N=8", .metric = "m", .unit = "u", .status = status,
		.reason = "", .median = median, .spread_pct = spread, .line = 2,
	};
	return p;
}

/* Inside the band: same; outside: faster/slower by direction, both directions. */
static void test_verdict_noise_band(void **state)
{
	(void)state;
	for (int trial = 0; trial < 2000; trial++) {
		double b = urand(1.0, 1e5);
		double sb = urand(0, 6), sn = urand(0, 6);
		double floor_pct = urand(0.5, 2.0);
		double noise = fmax(floor_pct, fmax(sb, sn));
		int better = (int)(next_u64() % 2);		/* 1 higher, 0 lower is better */
		int up = (int)(next_u64() % 2);		/* value goes up or down */
		int inside = (int)(next_u64() % 2);
		double d = inside ? urand(0, 0.95) * noise : noise * urand(1.05, 5.0);
		double n = b * (1 + (up ? d : -d) / 100.0);
		tcp_cmp_point_t pb = mkpt("OK", b, sb), pn = mkpt("OK", n, sn);
		tcp_cmp_cell_t c;

		tcp_cmp_cell(&pb, &pn, better, floor_pct, 3.0, &c);
		assert_float_equal(c.noise_pct, noise, 1e-9);
		assert_float_equal(c.ratio, n / b, 1e-12);
		assert_float_equal(c.change_pct, (n - b) / b * 100, 1e-6);
		if (inside) {
			assert_int_equal(c.verdict, TCP_V_SAME);
			assert_int_equal(c.regression, 0);
			continue;
		}
		int improves = better ? up : !up;
		assert_int_equal(c.verdict, improves ? TCP_V_FASTER : TCP_V_SLOWER);
		assert_true(improves ? c.effect_pct > 0 : c.effect_pct < 0);
		/* the gate: only slower points beyond the threshold regress */
		assert_int_equal(c.regression, !improves && d > 3.0);
	}
}

/* Direction unknown: outside the band is `changed`, never a regression. */
static void test_verdict_unknown_direction(void **state)
{
	(void)state;
	double b = urand(10, 1000);
	tcp_cmp_point_t pb = mkpt("OK", b, 0), pn = mkpt("OK", b * urand(0.5, 0.8), 0);
	tcp_cmp_cell_t c;
	tcp_cmp_cell(&pb, &pn, -1, 1.0, 3.0, &c);
	assert_int_equal(c.verdict, TCP_V_CHANGED);
	assert_int_equal(c.regression, 0);

	/* a unit that changed between runs: no ratio at all */
	pn = mkpt("OK", b, 0);
	pn.unit = "other";
	tcp_cmp_cell(&pb, &pn, 1, 1.0, 3.0, &c);
	assert_int_equal(c.verdict, TCP_V_CHANGED);
	assert_true(isnan(c.ratio));
}

/* Spread missing in the CSV (NaN) falls back to the floor. */
static void test_verdict_floor(void **state)
{
	(void)state;
	double b = urand(100, 200);
	tcp_cmp_point_t pb = mkpt("OK", b, NAN), pn = mkpt("OK", b * 1.015, NAN);
	tcp_cmp_cell_t c;
	tcp_cmp_cell(&pb, &pn, 1, 1.0, 3.0, &c);
	assert_float_equal(c.noise_pct, 1.0, 1e-12);
	assert_int_equal(c.verdict, TCP_V_FASTER);
	tcp_cmp_cell(&pb, &pn, 1, 2.0, 3.0, &c);
	assert_int_equal(c.verdict, TCP_V_SAME);
}

static void test_verdict_status(void **state)
{
	(void)state;
	tcp_cmp_point_t ok = mkpt("OK", 5, 1), failed = mkpt("FAILED", NAN, NAN);
	tcp_cmp_point_t failed2 = mkpt("FAILED", NAN, NAN), skipped = mkpt("SKIPPED", NAN, NAN);
	tcp_cmp_point_t timeout = mkpt("TIMEOUT", NAN, NAN);
	tcp_cmp_cell_t c;

	tcp_cmp_cell(&ok, &failed, 1, 1, 3, &c);
	assert_int_equal(c.verdict, TCP_V_STATUS);
	assert_int_equal(c.regression, 1);
	tcp_cmp_cell(&failed, &ok, 1, 1, 3, &c);
	assert_int_equal(c.verdict, TCP_V_STATUS);
	assert_int_equal(c.regression, 0);
	tcp_cmp_cell(&failed, &failed2, 1, 1, 3, &c);
	assert_int_equal(c.verdict, TCP_V_UNMEASURED);
	assert_int_equal(c.regression, 0);
	tcp_cmp_cell(&skipped, &timeout, 0, 1, 3, &c);
	assert_int_equal(c.verdict, TCP_V_STATUS);
	assert_int_equal(c.regression, 0);
	tcp_cmp_cell(NULL, &ok, 1, 1, 3, &c);
	assert_int_equal(c.verdict, TCP_V_NEW);
	tcp_cmp_cell(&ok, NULL, 1, 1, 3, &c);
	assert_int_equal(c.verdict, TCP_V_MISSING);
	assert_int_equal(c.regression, 0);
	tcp_cmp_cell(NULL, NULL, 1, 1, 3, &c);	/* N-way: only another run has it */
	assert_int_equal(c.verdict, TCP_V_ABSENT);
	assert_int_equal(c.regression, 0);
}

static void test_direction(void **state)
{
	(void)state;
	/* the probe's declaration wins: host_timer and calib declare these */
	assert_int_equal(tcp_cmp_better("host_timer", "ns_per_call", "widgets"), 0);
	assert_int_equal(tcp_cmp_better("calib", "sm_clock_mhz", "cycles"), 1);
	/* unknown probe: the unit */
	assert_int_equal(tcp_cmp_better("no_such_probe", "x", "cycles"), 0);
	assert_int_equal(tcp_cmp_better("no_such_probe", "x", "ns"), 0);
	assert_int_equal(tcp_cmp_better("no_such_probe", "x", "FLOP/clk/SM"), 1);
	assert_int_equal(tcp_cmp_better("no_such_probe", "x", "TFLOP/s"), 1);
	assert_int_equal(tcp_cmp_better("no_such_probe", "x", "B/clk/SM"), 1);
	assert_int_equal(tcp_cmp_better("no_such_probe", "x", "MHz"), 1);
	assert_int_equal(tcp_cmp_better("no_such_probe", "x", "pJ/FLOP"), 0);
	assert_int_equal(tcp_cmp_better("no_such_probe", "x", "widgets"), -1);
	/* a registered probe with a metric it does not declare: the unit */
	assert_int_equal(tcp_cmp_better("calib", "renamed_metric", "ns"), 0);
}

/* ---- joining ----------------------------------------------------------- */

#define NPTS 40

static char axes_buf[NPTS][32];

/* NPTS random points of a lower-is-better probe unknown to the binary. */
static void random_points(pt_t *p, int n)
{
	for (int i = 0; i < n; i++) {
		snprintf(axes_buf[i], sizeof(axes_buf[i]), "N=%d;kind=f16", 8 * (i + 1));
		p[i] = (pt_t){ "synthetic_lat", axes_buf[i], "cycles_per_mma", "cycles", "OK",
			       urand(10, 5000), urand(0, 0.5) };
	}
}

static void load_ok(const char *dir, tcp_cmp_run_t *r)
{
	char err[TCP_CMP_ERRLEN] = "";
	int rc = tcp_cmp_run_load(dir, NULL, r, err, sizeof(err));
	if (rc)
		print_error("%s\n", err);
	assert_int_equal(rc, 0);
}

/* Rows in a different order, values perturbed: every point joins its partner. */
static void test_join(void **state)
{
	(void)state;
	pt_t b[NPTS], n[NPTS];
	char db[512], dn[512];
	random_points(b, NPTS);
	for (int i = 0; i < NPTS; i++) {
		n[i] = b[NPTS - 1 - i];	/* reversed file order */
		n[i].median *= urand(0.8, 1.2);
	}
	write_run(new_dir(db, sizeof(db), "join-base"), "NVIDIA H200", "580.1", b, NPTS);
	write_run(new_dir(dn, sizeof(dn), "join-new"), "NVIDIA H200", "590.2", n, NPTS);

	tcp_cmp_run_t runs[2];
	tcp_cmp_t c;
	char err[TCP_CMP_ERRLEN];
	load_ok(db, &runs[0]);
	load_ok(dn, &runs[1]);
	assert_int_equal(runs[0].npoints, NPTS);
	assert_int_equal(tcp_cmp_join(&runs[0], &runs[1], 1, 1.0, 3.0, &c, err, sizeof(err)), 0);
	assert_int_equal(c.nrows, NPTS);
	for (int i = 0; i < NPTS; i++) {
		const tcp_cmp_row_t *row = &c.rows[i];
		/* sweep order = the base's file order */
		assert_string_equal(row->axes, b[i].axes);
		assert_non_null(row->base);
		assert_non_null(row->cells[0].cur);
		assert_string_equal(row->cells[0].cur->axes, row->axes);
		assert_int_equal(row->better, 0);	/* cycles: lower is better */
		double want = n[NPTS - 1 - i].median / b[i].median;
		assert_float_equal(row->cells[0].ratio, want, 1e-12 * want);
	}
	tcp_cmp_free(&c);
	tcp_cmp_run_free(&runs[0]);
	tcp_cmp_run_free(&runs[1]);
}

/* Runs of schema 1, 2 and 3 against each other: each loads, and they join
 * point for point. */
static void test_schema_versions(void **state)
{
	(void)state;
	pt_t b[NPTS];
	char d[3][512], tag[16];
	random_points(b, NPTS);
	for (int v = 1; v <= 3; v++) {
		snprintf(tag, sizeof(tag), "schema-%d", v);
		write_run_schema(new_dir(d[v - 1], sizeof(d[v - 1]), tag), "NVIDIA H200", "580.1", b, NPTS, v);
	}
	for (int x = 1; x <= 3; x++)
		for (int y = 1; y <= 3; y++) {
			tcp_cmp_run_t runs[2];
			tcp_cmp_t c;
			char err[TCP_CMP_ERRLEN];
			if (x == y)
				continue;
			load_ok(d[x - 1], &runs[0]);
			load_ok(d[y - 1], &runs[1]);
			assert_int_equal(runs[0].schema, x);
			assert_int_equal(runs[1].schema, y);
			assert_int_equal(tcp_cmp_join(&runs[0], &runs[1], 1, 1.0, 3.0, &c, err, sizeof(err)), 0);
			assert_int_equal(c.nrows, NPTS);
			for (int i = 0; i < NPTS; i++)
				assert_true(c.rows[i].cells[0].verdict == TCP_V_SAME ||
					    c.rows[i].cells[0].verdict == TCP_V_UNMEASURED);
			tcp_cmp_free(&c);
			tcp_cmp_run_free(&runs[0]);
			tcp_cmp_run_free(&runs[1]);
		}
}

/* Points only in one side: missing / new, never a regression. */
static void test_missing_and_new(void **state)
{
	(void)state;
	pt_t b[NPTS];
	char db[512], dn[512];
	random_points(b, NPTS);
	int drop = (int)(next_u64() % NPTS);
	pt_t n[NPTS + 1];
	int k = 0;
	for (int i = 0; i < NPTS; i++)
		if (i != drop)
			n[k++] = b[i];
	n[k++] = (pt_t){ "synthetic_lat", "N=99999;kind=f16", "cycles_per_mma", "cycles", "OK",
			 urand(1, 100), 0.1 };
	write_run(new_dir(db, sizeof(db), "mn-base"), "NVIDIA H200", "580.1", b, NPTS);
	write_run(new_dir(dn, sizeof(dn), "mn-new"), "NVIDIA H200", "580.1", n, k);

	tcp_cmp_run_t runs[2];
	tcp_cmp_t c;
	char err[TCP_CMP_ERRLEN];
	load_ok(db, &runs[0]);
	load_ok(dn, &runs[1]);
	assert_int_equal(tcp_cmp_join(&runs[0], &runs[1], 1, 1.0, 3.0, &c, err, sizeof(err)), 0);
	assert_int_equal(c.nrows, NPTS + 1);
	assert_int_equal(c.count[0][TCP_V_MISSING], 1);
	assert_int_equal(c.count[0][TCP_V_NEW], 1);
	assert_int_equal(c.count[0][TCP_V_SAME], NPTS - 1);
	assert_int_equal(tcp_cmp_regressions(&c), 0);
	for (int i = 0; i < c.nrows; i++) {
		if (c.rows[i].cells[0].verdict == TCP_V_MISSING)
			assert_string_equal(c.rows[i].axes, b[drop].axes);
		if (c.rows[i].cells[0].verdict == TCP_V_NEW) {
			assert_null(c.rows[i].base);
			assert_string_equal(c.rows[i].axes, "N=99999;kind=f16");
			assert_int_equal(i, c.nrows - 1);	/* new points after the base's */
		}
	}
	tcp_cmp_free(&c);
	tcp_cmp_run_free(&runs[0]);
	tcp_cmp_run_free(&runs[1]);
}

/* Sorted: worst regression first, improvements after regressions, same last. */
static void test_sort(void **state)
{
	(void)state;
	pt_t b[NPTS], n[NPTS];
	char db[512], dn[512];
	random_points(b, NPTS);
	for (int i = 0; i < NPTS; i++) {
		b[i].spread = 0;
		n[i] = b[i];
		/* cycles: up is slower.  Some same, most well outside the 1% floor */
		n[i].median = b[i].median * (1 + urand(-0.3, 0.3));
		n[i].spread = 0;
	}
	n[3].status = "FAILED";
	write_run(new_dir(db, sizeof(db), "sort-base"), "NVIDIA H200", "580.1", b, NPTS);
	write_run(new_dir(dn, sizeof(dn), "sort-new"), "NVIDIA H200", "580.1", n, NPTS);
	tcp_cmp_run_t runs[2];
	tcp_cmp_t c;
	char err[TCP_CMP_ERRLEN];
	load_ok(db, &runs[0]);
	load_ok(dn, &runs[1]);
	assert_int_equal(tcp_cmp_join(&runs[0], &runs[1], 1, 1.0, 3.0, &c, err, sizeof(err)), 0);
	tcp_cmp_sort(&c);
	/* OK -> FAILED leads */
	assert_int_equal(c.rows[0].cells[0].verdict, TCP_V_STATUS);
	int stage = 0;	/* 0 slower, 1 faster, 2 same */
	double prev = -INFINITY;
	for (int i = 1; i < c.nrows; i++) {
		const tcp_cmp_cell_t *cl = &c.rows[i].cells[0];
		int s = cl->verdict == TCP_V_SLOWER ? 0 : cl->verdict == TCP_V_FASTER ? 1 : 2;
		assert_true(s >= stage);
		if (s != stage)
			prev = -INFINITY;
		stage = s;
		/* slower: most negative effect first; faster: largest effect first */
		double key = s == 0 ? cl->effect_pct : s == 1 ? -cl->effect_pct : -fabs(cl->change_pct);
		assert_true(key >= prev);
		prev = key;
	}
	tcp_cmp_free(&c);
	tcp_cmp_run_free(&runs[0]);
	tcp_cmp_run_free(&runs[1]);
}

/* A baseline against three runs: one cell per run, CSV groups _2, _3. */
static void test_nway(void **state)
{
	(void)state;
	pt_t b[NPTS], n[3][NPTS + 1];
	char db[512], dn[3][512], csv[300];
	double factor[3] = { 1.0, urand(1.1, 1.5), urand(0.6, 0.9) };	/* same, slower, faster */
	random_points(b, NPTS);
	write_run(new_dir(db, sizeof(db), "nway-base"), "NVIDIA H200", "580.1", b, NPTS);
	for (int r = 0; r < 3; r++) {
		for (int i = 0; i < NPTS; i++) {
			n[r][i] = b[i];
			n[r][i].median = b[i].median * factor[r];
		}
		/* the third run has one point nobody else has */
		n[r][NPTS] = (pt_t){ "synthetic_lat", "N=77777;kind=f16", "cycles_per_mma", "cycles",
				     "OK", urand(1, 100), 0.1 };
		write_run(new_dir(dn[r], sizeof(dn[r]), "nway-new"), "NVIDIA H200", "590", n[r],
			  r == 2 ? NPTS + 1 : NPTS);
	}
	snprintf(csv, sizeof(csv), "%s/nway.csv", tmproot);

	cmd_result_t *res = calloc(1, sizeof(*res));
	assert_non_null(res);
	run_compare(res, db, dn[0], dn[1], dn[2], "--csv", csv, NULL);
	assert_int_equal(res->rc, 1);	/* run 2 is 10-50% slower in cycles */
	assert_non_null(strstr(res->out, "[3]"));
	assert_non_null(strstr(res->out, "SLOWER"));
	assert_non_null(strstr(res->out, "Result: REGRESSION"));

	tcp_table_t t;
	char err[TCP_CMP_ERRLEN];
	assert_int_equal(tcp_table_load(csv, &t, err, sizeof(err)), 0);
	assert_int_equal(t.nrows, NPTS + 1);
	const char *need[] = { "probe", "axes", "metric", "unit", "base_median", "new_median",
			       "ratio", "noise_pct", "verdict", "base_status", "new_status",
			       "new_median_2", "ratio_2", "verdict_2", "new_run_3", "verdict_3" };
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		assert_true(tcp_table_col(&t, need[i]) >= 0);
	/* rows in sweep order: the base's, then the point only run 3 has */
	assert_string_equal(tcp_table_get(&t, NPTS, "axes"), "N=77777;kind=f16");
	assert_string_equal(tcp_table_get(&t, NPTS, "verdict"), "absent");
	assert_string_equal(tcp_table_get(&t, NPTS, "verdict_2"), "absent");
	assert_string_equal(tcp_table_get(&t, NPTS, "verdict_3"), "new");
	assert_string_equal(tcp_table_get(&t, NPTS, "base_status"), "");
	for (int i = 0; i < NPTS; i++) {
		assert_string_equal(tcp_table_get(&t, i, "verdict"), "same");
		assert_string_equal(tcp_table_get(&t, i, "verdict_2"), "slower");
		assert_string_equal(tcp_table_get(&t, i, "verdict_3"), "faster");
		assert_string_equal(tcp_table_get(&t, i, "regression_2"), "1");
		double ratio = strtod(tcp_table_get(&t, i, "ratio_2"), NULL);
		assert_float_equal(ratio, factor[1], 1e-6);
		/* the base median is copied exactly as the run wrote it */
		assert_float_equal(strtod(tcp_table_get(&t, i, "base_median"), NULL), b[i].median, 0);
		assert_string_equal(tcp_table_get(&t, i, "axes"), b[i].axes);
	}
	tcp_table_free(&t);
	free(res);
}

/* The gate: exit 1 only beyond --threshold, and only for regressions. */
static void test_threshold_exit(void **state)
{
	(void)state;
	pt_t b[NPTS], n[NPTS];
	char db[512], dn[512], dn2[512];
	random_points(b, NPTS);
	for (int i = 0; i < NPTS; i++) {
		b[i].spread = 0.2;
		n[i] = b[i];
	}
	int k = (int)(next_u64() % NPTS);
	double slow = urand(4.5, 9.0);	/* percent more cycles at one point */
	n[k].median = b[k].median * (1 + slow / 100);
	write_run(new_dir(db, sizeof(db), "gate-base"), "NVIDIA H200", "580.1", b, NPTS);
	write_run(new_dir(dn, sizeof(dn), "gate-new"), "NVIDIA H200", "580.1", n, NPTS);

	cmd_result_t *res = calloc(1, sizeof(*res));
	assert_non_null(res);
	run_compare(res, db, dn, NULL);	/* default gate 3% */
	assert_int_equal(res->rc, 1);
	assert_non_null(strstr(res->out, b[k].axes));
	run_compare(res, db, dn, "--threshold", "10", NULL);
	assert_int_equal(res->rc, 0);
	run_compare(res, db, dn, "--threshold=4", "--quiet", NULL);
	assert_int_equal(res->rc, 1);
	assert_non_null(strstr(res->out, "REGRESSION: 1 point"));
	/* the band covers it: a noise floor above the change says same */
	run_compare(res, db, dn, "--noise-floor", "10", NULL);
	assert_int_equal(res->rc, 0);
	/* filtered away: another metric only */
	run_compare(res, db, dn, "--metric", "nope*", NULL);
	expect_input_error(res, "no rows left after the --probe/--metric/--gpu filters");
	run_compare(res, db, dn, "--probe", "synthetic_*", "--metric", "cycles_*,x", NULL);
	assert_int_equal(res->rc, 1);

	/* the same change the other way is an improvement: exit 0 */
	n[k].median = b[k].median * (1 - slow / 100);
	write_run(new_dir(dn2, sizeof(dn2), "gate-faster"), "NVIDIA H200", "580.1", n, NPTS);
	run_compare(res, db, dn2, NULL);
	assert_int_equal(res->rc, 0);
	assert_non_null(strstr(res->out, "faster"));
	assert_non_null(strstr(res->out, "Result: no regression"));

	/* OK -> FAILED fails the gate whatever the threshold */
	n[k] = b[k];
	n[k].status = "FAILED";
	char dn3[512];
	write_run(new_dir(dn3, sizeof(dn3), "gate-failed"), "NVIDIA H200", "580.1", n, NPTS);
	run_compare(res, db, dn3, "--threshold", "1000", NULL);
	assert_int_equal(res->rc, 1);
	assert_non_null(strstr(res->out, "OK->FAILED"));
	assert_non_null(strstr(res->out, "synthetic FAILED reason"));
	free(res);
}

/* The report: provenance diff marks the driver, warns on another GPU model. */
static void test_report(void **state)
{
	(void)state;
	pt_t b[NPTS];
	char db[512], dn[512];
	random_points(b, NPTS);
	write_run(new_dir(db, sizeof(db), "rep-base"), "NVIDIA H200", "580.95.05", b, NPTS);
	write_run(new_dir(dn, sizeof(dn), "rep-new"), "NVIDIA B200", "590.44.01", b, NPTS);
	cmd_result_t *res = calloc(1, sizeof(*res));
	assert_non_null(res);
	run_compare(res, db, dn, "--all", NULL);
	assert_int_equal(res->rc, 0);
	assert_non_null(strstr(res->out, "*  driver_version"));
	assert_non_null(strstr(res->out, "590.44.01"));
	assert_non_null(strstr(res->out, "WARNING: new is not comparable"));
	assert_non_null(strstr(res->out, "  cuda_toolkit_version"));	/* equal: no star */
	/* --all lists every point */
	for (int i = 0; i < NPTS; i++)
		assert_non_null(strstr(res->out, b[i].axes));
	/* --top cuts the table, says so */
	run_compare(res, db, dn, "--all", "--top", "3", NULL);
	assert_int_equal(res->rc, 0);
	assert_non_null(strstr(res->out, "... 37 more rows not shown (--top 3)"));
	run_compare(res, db, dn, "--top", "0", NULL);
	expect_input_error(res, "--top: got '0', expected a row count");
	run_compare(res, db, dn, "--help", NULL);
	assert_int_equal(res->rc, 0);
	assert_non_null(strstr(res->out, "noise"));
	free(res);
}

/* Rows of two GPUs in one run: a duplicate unless --gpu picks one. */
static void test_gpu_filter(void **state)
{
	(void)state;
	char db[512], dn[512], path[600], err[512], med[2][40];
	double v0 = urand(100, 200), v1 = v0 * urand(1.2, 1.5);	/* GPU 1 is much slower */
	static const char *const axcols[] = { "N", "kind" };
	tcp_row_t rows[2];
	test_row_buf_t buf[2];
	new_dir(db, sizeof(db), "gpu-base");
	snprintf(path, sizeof(path), "%s/measurements.csv", db);
	tcp_rows_t *w = tcp_rows_open(path, axcols, 2, 0, err, sizeof(err));
	assert_non_null(w);
	memset(rows, 0, sizeof(rows));
	for (int g = 0; g < 2; g++) {
		const char **c = rows[g].c;
		snprintf(med[g], sizeof(med[g]), "%.17g", g ? v1 : v0);
		c[TCP_COL_run_id] = "r";
		c[TCP_COL_gpu] = g ? "1" : "0";
		c[TCP_COL_point] = "0";
		c[TCP_COL_probe] = "synthetic_lat";
		c[TCP_COL_arch] = "sm_90a";
		c[TCP_COL_axes] = "N=8";
		c[TCP_COL_metric] = "cycles_per_mma";
		c[TCP_COL_unit] = "cycles";
		c[TCP_COL_median] = med[g];
		c[TCP_COL_spread_pct] = "0.1";
		c[TCP_COL_reps] = "20";
		c[TCP_COL_status] = "OK";
		c[TCP_COL_sm_clock_mhz] = "1980";
		c[TCP_COL_throttle] = "none";
		c[TCP_COL_timestamp] = "t";
		test_row_finish(&rows[g], &buf[g]);
	}
	assert_int_equal(tcp_rows_write(w, rows, 2), 0);
	assert_int_equal(tcp_rows_close(w), 0);
	pt_t p = { "synthetic_lat", "N=8", "cycles_per_mma", "cycles", "OK", v0, 0.1 };
	write_run(new_dir(dn, sizeof(dn), "gpu-new"), "NVIDIA H200", "580.1", &p, 1);

	cmd_result_t *res = calloc(1, sizeof(*res));
	assert_non_null(res);
	char want[700];
	snprintf(want, sizeof(want), "%s/measurements.csv:3: duplicate point", db);
	run_compare(res, db, dn, NULL);
	expect_input_error(res, want);
	run_compare(res, db, dn, "--gpu", "0", NULL);
	assert_int_equal(res->rc, 0);
	/* --gpu applies to every run: the new run has no GPU 1 rows */
	snprintf(want, sizeof(want), "%s/measurements.csv: no rows left after", dn);
	run_compare(res, db, dn, "--gpu=1", NULL);
	expect_input_error(res, want);
	/* GPU 0 of the two-GPU run against the one-GPU run: the same values */
	run_compare(res, dn, db, "--gpu=0", "--csv", "-", NULL);
	assert_int_equal(res->rc, 0);
	assert_non_null(strstr(res->out, "base_run,probe,axes"));	/* CSV on stdout */
	assert_non_null(strstr(res->out, ",same,0"));
	assert_non_null(strstr(res->err, "Result: no regression"));	/* report on stderr */
	free(res);
}

/* ---- malformed input: exit 2, one line, file:line ----------------------- */

static void bad_run(const char *tag, const char *meas, const char *prov, char *dir, size_t len)
{
	new_dir(dir, len, tag);
	if (meas)
		write_file(dir, "measurements.csv", meas);
	if (prov)
		write_file(dir, "provenance.csv", prov);
}

static void test_malformed(void **state)
{
	(void)state;
	pt_t b[4];
	char good[512], d[512], want[700];
	random_points(b, 4);
	write_run(new_dir(good, sizeof(good), "good"), "NVIDIA H200", "580.1", b, 4);
	cmd_result_t *res = calloc(1, sizeof(*res));
	assert_non_null(res);

	char row_ok[256];
	snprintf(row_ok, sizeof(row_ok),
		 "1,r,0,0,synthetic_lat,sm_90a,N=8;kind=f16,cycles_per_mma,cycles,%.6f,1,2,1,0,0.1,"
		 "20,OK,,1980,none,2026-11-29T18:00:00Z,8,f16\n", urand(10, 100));
	struct {
		const char *tag, *meas, *prov, *needle;	/* needle after the dir */
	} cases[] = {
		{ "empty", "", NULL, "/measurements.csv:" },
		{ "header-only", meas_header, NULL, "/measurements.csv:2: no data rows" },
		{ "ragged", NULL, NULL, "/measurements.csv:3:" },
		{ "unterminated-quote", NULL, NULL, "/measurements.csv:3:" },
		{ "missing-column", "schema,probe,axes,metric,unit,status\n"
				    "1,p,N=8,m,cycles,OK\n", NULL,
		  "/measurements.csv:1: missing required column 'median'" },
		{ "unknown-schema", NULL, NULL, "/measurements.csv:2: schema version 99 is newer" },
		{ "bad-median", NULL, NULL, "/measurements.csv:3: median: got 'fast'" },
		{ "empty-median", NULL, NULL, "/measurements.csv:2: median: got ''" },
		{ "bad-schema", NULL, NULL, "/measurements.csv:3: schema: got '0'" },
		{ "duplicate", NULL, NULL, "/measurements.csv:3: duplicate point" },
		{ "prov-newer", NULL, "key,value\nschema_version,7\n", "/provenance.csv:2: schema version 7" },
		{ "prov-nocol", NULL, "name,value\ngpu_name,x\n", "/provenance.csv:1: missing required column 'key'" },
		{ "bad-spread", NULL, NULL, "/measurements.csv:2: spread_pct: got 'wide'" },
	};
	char buf[4096];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *meas = cases[i].meas;
		const char *tag = cases[i].tag;
		if (!strcmp(tag, "ragged")) {
			snprintf(buf, sizeof(buf), "%s%s1,r,0,1,p,sm_90a\n", meas_header, row_ok);
			meas = buf;
		} else if (!strcmp(tag, "unterminated-quote")) {
			snprintf(buf, sizeof(buf), "%s%s1,r,0,1,\"p,sm_90a,N=8\n", meas_header, row_ok);
			meas = buf;
		} else if (!strcmp(tag, "unknown-schema")) {
			snprintf(buf, sizeof(buf), "%s99%s", meas_header, row_ok + 1);
			meas = buf;
		} else if (!strcmp(tag, "bad-median")) {
			snprintf(buf, sizeof(buf), "%s%s1,r,0,1,p,sm_90a,N=16,m,cycles,fast,1,2,1,0,0.1,"
				 "20,OK,,1980,none,t,16,f16\n", meas_header, row_ok);
			meas = buf;
		} else if (!strcmp(tag, "empty-median")) {
			snprintf(buf, sizeof(buf), "%s1,r,0,1,p,sm_90a,N=16,m,cycles,,1,2,1,0,0.1,"
				 "20,OK,,1980,none,t,16,f16\n", meas_header);
			meas = buf;
		} else if (!strcmp(tag, "bad-spread")) {
			snprintf(buf, sizeof(buf), "%s1,r,0,1,p,sm_90a,N=16,m,cycles,5,1,2,1,0,wide,"
				 "20,OK,,1980,none,t,16,f16\n", meas_header);
			meas = buf;
		} else if (!strcmp(tag, "bad-schema")) {
			snprintf(buf, sizeof(buf), "%s%s0%s", meas_header, row_ok,
				 strchr(row_ok, ','));
			meas = buf;
		} else if (!strcmp(tag, "duplicate")) {
			snprintf(buf, sizeof(buf), "%s%s%s", meas_header, row_ok, row_ok);
			meas = buf;
		} else if (!meas) {
			snprintf(buf, sizeof(buf), "%s%s", meas_header, row_ok);
			meas = buf;
		}
		bad_run(tag, meas, cases[i].prov, d, sizeof(d));
		snprintf(want, sizeof(want), "%s%s", d, cases[i].needle);
		/* as NEW and as BASE: both are checked the same way */
		run_compare(res, good, d, NULL);
		expect_input_error(res, want);
		run_compare(res, d, good, NULL);
		expect_input_error(res, want);
	}

	/* missing directory, missing measurements.csv, a file instead of a dir */
	snprintf(d, sizeof(d), "%s/no-such-run", tmproot);
	run_compare(res, good, d, NULL);
	expect_input_error(res, d);
	bad_run("no-measurements", NULL, "key,value\n", d, sizeof(d));
	snprintf(want, sizeof(want), "%s/measurements.csv: missing", d);
	run_compare(res, good, d, NULL);
	expect_input_error(res, want);
	snprintf(d, sizeof(d), "%.400s/measurements.csv", good);
	run_compare(res, good, d, NULL);
	expect_input_error(res, "not a directory");

	/* a torn last line is not an error: a killed sweep still compares */
	bad_run("torn", NULL, NULL, d, sizeof(d));
	snprintf(buf, sizeof(buf), "%s%s1,r,0,1,synthetic_lat,sm_90a,N=16;k", meas_header, row_ok);
	write_file(d, "measurements.csv", buf);
	assert_int_equal(test_write_declared_roles(d), 0);
	run_compare(res, d, d, NULL);
	assert_int_equal(res->rc, 0);
	assert_non_null(strstr(res->out, "torn line"));

	/* usage errors */
	run_compare(res, good, NULL);
	expect_input_error(res, "got 1 argument, expected BASE_DIR NEW_DIR");
	run_compare(res, good, good, "--threshold", "abc", NULL);
	expect_input_error(res, "--threshold: got 'abc', expected a percentage");
	run_compare(res, good, good, "--threshold", "-1", NULL);
	expect_input_error(res, "--threshold: got '-1'");
	run_compare(res, good, good, "--bogus", NULL);
	expect_input_error(res, "unknown option: got '--bogus'");
	run_compare(res, good, good, "--csv", NULL);
	expect_input_error(res, "--csv: got nothing, expected a file name");
	run_compare(res, good, good, "--gpu", "x", NULL);
	expect_input_error(res, "--gpu: got 'x'");
	snprintf(d, sizeof(d), "%s/no-such-dir/out.csv", tmproot);
	run_compare(res, good, good, "--csv", d, NULL);
	expect_input_error(res, "no-such-dir/out.csv");
	free(res);
}

/*
 * An axis added since BASE (committed runs: wgmma_epilogue before `pacing`
 * existed, results/...-vm-3, against results/h200-pacing/run, which sweeps
 * pacing=relaxed,acquire,atomic): the points at pacing's default join BASE's
 * points, the others are new; the other way round they are missing, and
 * only those count against completeness.  A run pair with the same axes
 * joins nothing across an axis.
 */
static void test_axis_added(void **state)
{
	(void)state;
	const char *old = "results/2026-11-29-NVIDIA_H200-580.159.04-vm-3", *pac = "results/h200-pacing/run";
	const char *const probes[] = { "wgmma_epilogue" };
	const tcp_cmp_filter_t f = { .probes = probes, .nprobes = 1, .gpu = -1 };
	char err[TCP_CMP_ERRLEN];
	tcp_cmp_run_t a, b;
	tcp_cmp_t c;

	assert_int_equal(tcp_cmp_run_load(old, &f, &a, err, sizeof(err)), 0);
	assert_int_equal(tcp_cmp_run_load(pac, &f, &b, err, sizeof(err)), 0);
	int old_points = 0, other_ok = 0;
	for (int i = 0; i < a.run->npoints; i++)
		old_points += !strcmp(a.run->points[i].probe, "wgmma_epilogue");
	for (int i = 0; i < b.npoints; i++)
		other_ok += !strstr(b.pts[i].axes, "pacing=relaxed") && !strcmp(b.pts[i].status, "OK");
	assert_true(old_points > 0 && other_ok > 0);
	for (int dir = 0; dir < 2; dir++) {
		const tcp_cmp_run_t *base = dir ? &b : &a, *cur = dir ? &a : &b;
		assert_int_equal(tcp_cmp_join(base, cur, 1, TCP_CMP_NOISE_FLOOR, TCP_CMP_THRESHOLD, &c, err, sizeof(err)), 0);
		assert_int_equal(c.naxes_joined, 1);
		assert_string_equal(c.axes_joined[0].probe, "wgmma_epilogue");
		assert_string_equal(c.axes_joined[0].axis, "pacing");
		assert_string_equal(c.axes_joined[0].value, "relaxed");
		assert_int_equal(c.axes_joined[0].in_base, dir);
		assert_int_equal(c.axes_joined[0].points, old_points);
		int joined = 0;
		for (int i = 0; i < c.nrows; i++) {
			const tcp_cmp_row_t *w = &c.rows[i];
			const tcp_cmp_point_t *withp = dir ? w->base : w->cells[0].cur, *without = dir ? w->cells[0].cur : w->base;
			if (withp && !strstr(withp->axes, "pacing=relaxed")) {
				assert_null(without);		/* another pacing: nothing to join */
				assert_int_equal(w->cells[0].verdict, dir ? TCP_V_MISSING : TCP_V_NEW);
			}
			if (withp && without) {
				assert_non_null(strstr(withp->axes, "pacing=relaxed"));
				assert_string_equal(without->axes, w->key);
				assert_string_equal(w->axes, dir ? without->axes : withp->axes);	/* the NEW run's */
				joined++;
			}
		}
		assert_true(joined >= old_points);
		/* completeness: only the OK rows at another pacing are missing, and only that way round */
		assert_int_equal(c.nmissing[0], dir ? other_ok : 0);
		tcp_cmp_free(&c);
	}
	/* the same axes on both sides: nothing joined across an axis */
	assert_int_equal(tcp_cmp_join(&b, &b, 1, TCP_CMP_NOISE_FLOOR, TCP_CMP_THRESHOLD, &c, err, sizeof(err)), 0);
	assert_int_equal(c.naxes_joined, 0);
	for (int i = 0; i < c.nrows; i++)
		assert_string_equal(c.rows[i].key, c.rows[i].axes);
	tcp_cmp_free(&c);

	/* the command says which axis it joined across */
	cmd_result_t *res = calloc(1, sizeof(*res));
	assert_non_null(res);
	char roles[300], want[200];
	assert_int_equal(test_write_declared_roles(tmproot), 0);	/* both runs predate metrics.csv */
	snprintf(roles, sizeof(roles), "%s/metrics.csv", tmproot);
	run_compare(res, old, pac, "--probe", "wgmma_epilogue", "--roles", roles, NULL);
	snprintf(want, sizeof(want), "note: wgmma_epilogue: axis pacing is new since base; %d points at its default "
		 "(pacing=relaxed) joined", old_points);
	if (!strstr(res->out, want))
		print_error("%s", res->out);
	assert_non_null(strstr(res->out, want));
	free(res);
	tcp_cmp_run_free(&a);
	tcp_cmp_run_free(&b);
}

/* ---- the static synthetic fixtures -------------------------------------- */

static void test_fixtures(void **state)
{
	(void)state;
	const char *base = "tests/fixtures/compare/synthetic-base";
	const char *cur = "tests/fixtures/compare/synthetic-new-driver";
	char csv[300];
	snprintf(csv, sizeof(csv), "%s/fixture.csv", tmproot);
	cmd_result_t *res = calloc(1, sizeof(*res));
	assert_non_null(res);
	/* a slower point and a missing one (OK in base): incomplete wins (exit 9),
	 * the result line still names the regression; allowed, the regression's 1 */
	run_compare(res, base, cur, "--csv", csv, NULL);
	if (res->rc != 9)
		print_error("%s%s", res->out, res->err);
	assert_int_equal(res->rc, 9);
	assert_non_null(strstr(res->out, "Result: REGRESSION"));
	assert_non_null(strstr(res->err, "1 of the 9 rows OK in"));
	run_compare(res, base, cur, "--allow-missing", "--csv", csv, NULL);
	assert_int_equal(res->rc, 1);

	tcp_table_t t;
	char err[TCP_CMP_ERRLEN];
	assert_int_equal(tcp_table_load(csv, &t, err, sizeof(err)), 0);
	/* expected verdicts are written in the fixture's own `expect` column */
	tcp_table_t want;
	char path[300];
	snprintf(path, sizeof(path), "tests/fixtures/compare/expected-verdicts.csv");
	assert_int_equal(tcp_table_load(path, &want, err, sizeof(err)), 0);
	assert_int_equal(t.nrows, want.nrows);
	for (int i = 0; i < want.nrows; i++) {
		int found = 0;
		for (int j = 0; j < t.nrows; j++)
			if (!strcmp(tcp_table_get(&t, j, "probe"), tcp_table_get(&want, i, "probe")) &&
			    !strcmp(tcp_table_get(&t, j, "axes"), tcp_table_get(&want, i, "axes")) &&
			    !strcmp(tcp_table_get(&t, j, "metric"), tcp_table_get(&want, i, "metric"))) {
				found = 1;
				if (strcmp(tcp_table_get(&t, j, "verdict"), tcp_table_get(&want, i, "verdict")))
					print_error("%s %s %s: got %s\n", tcp_table_get(&want, i, "probe"),
						    tcp_table_get(&want, i, "axes"),
						    tcp_table_get(&want, i, "metric"),
						    tcp_table_get(&t, j, "verdict"));
				assert_string_equal(tcp_table_get(&t, j, "verdict"),
						    tcp_table_get(&want, i, "verdict"));
			}
		assert_true(found);
	}
	tcp_table_free(&t);
	tcp_table_free(&want);
	free(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdict_noise_band),
		cmocka_unit_test(test_verdict_unknown_direction),
		cmocka_unit_test(test_verdict_floor),
		cmocka_unit_test(test_verdict_status),
		cmocka_unit_test(test_direction),
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_schema_versions),
		cmocka_unit_test(test_missing_and_new),
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_nway),
		cmocka_unit_test(test_threshold_exit),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_gpu_filter),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_axis_added),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
