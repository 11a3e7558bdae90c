/*
 * test-gate.c
 *	The completeness gate and the contention warnings of
 *	`tcprobe compare` and `tcprobe fleet`, through the run model's rule
 *	(harness/store/run.h: tcp_run_set_*, tcp_run_torn_files,
 *	tcp_run_contended):
 *	  - the README's committed H200 run, every CSV cut in half mid-record
 *	    (a full disk, a killed copy): exit 9, one stderr line naming both
 *	    torn files and the count; --allow-missing: exit 0;
 *	  - the same run with one probe removed (picked by the fresh seed):
 *	    exit 9; a --probe filter leaving that probe out: exit 0;
 *	  - present-but-not-OK is a status change, not missing; a base row that
 *	    was not OK is never missing; missing + slower exits 9, allowed 1;
 *	  - fleet: missing relative to the union of OK rows over the group;
 *	  - the contended fixture (schema 2): compare, fleet and query say so.
 *	Cut copies are generated from committed runs into a temp dir, never
 *	committed.  TCP_TEST_SEED=<n> replays the random draws.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/analyze/compare.h"
#include "harness/analyze/fleet.h"
#include "harness/cmd/cmd-list.h"
#include "harness/store/csvio.h"
#include "harness/store/run.h"
#include "test-rows.h"
#include "test-util.h"

/* The run README.md shows (archived: measurements.csv.gz, plan.txt.gz). */
static const char readme_run[] = "results/2026-11-29-NVIDIA_H200-580.159.04-vm-4";
static const char fix_base[] = "tests/fixtures/compare/synthetic-base";
static const char fix_contended[] = "tests/fixtures/compare/synthetic-contended";

static char tmproot[64];

static int group_setup(void **state)
{
	(void)state;
	test_seed("test-gate");
	return test_mkdtemp(tmproot, sizeof(tmproot), "gate");
}

static int group_teardown(void **state)
{
	(void)state;
	return test_rm_tree(tmproot);
}

static test_cmd_t res;	/* big: not on the stack */

/* res = tcprobe CMD ARGS... (NULL-terminated), output captured. */
static void run(int (*fn)(int, char **), const char *cmd, ...)
{
	char *argv[80];
	int argc = 0;
	va_list ap;

	argv[argc++] = (char *)cmd;
	va_start(ap, cmd);
	for (char *a; (a = va_arg(ap, char *)) != NULL && argc < 79;)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	test_run_cmd(&res, fn, argc, argv);
}

static void expect(int rc, const char *where)
{
	if (res.rc != rc)
		print_error("%s: rc %d, expected %d\nstdout:\n%.3000s\nstderr:\n%s\n", where, res.rc, rc,
			    res.out, res.err);
	assert_int_equal(res.rc, rc);
}

static void write_bytes(const char *path, const char *buf, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* A file of a run (plain or .gz), inflated. */
static char *read_run_file(const char *dir, const char *name, size_t *n)
{
	char path[1200], err[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (access(path, F_OK) != 0)
		snprintf(path, sizeof(path), "%s/%s.gz", dir, name);
	char *b = tcp_file_read(path, n, err, sizeof(err));
	if (!b)
		print_error("%s\n", err);
	assert_non_null(b);
	return b;
}

/* Where to cut a text in half: mid-record (the byte before is not a newline). */
static size_t mid_record(const char *b, size_t n)
{
	size_t at = n / 2;

	while (at < n && (b[at - 1] == '\n' || b[at] == '\n'))
		at++;
	assert_true(at < n);
	return at;
}

/* Data rows wholly before offset `at` (header excluded). */
static int rows_before(const char *b, size_t at)
{
	int nl = 0;

	for (size_t i = 0; i < at; i++)
		nl += b[i] == '\n';
	return nl - 1;
}

/* OK rows of a table from row `from` on, not of probe `skip` (NULL: any). */
static int ok_rows(const tcp_table_t *t, int from, const char *only)
{
	int n = 0;

	for (int i = from; i < t->nrows; i++)
		n += !strcmp(tcp_table_get(t, i, "status"), "OK") &&
		     (!only || !strcmp(tcp_table_get(t, i, "probe"), only));
	return n;
}

static void load_table(const char *dir, tcp_table_t *t)
{
	char path[1200], err[512];

	snprintf(path, sizeof(path), "%s/measurements.csv", dir);
	if (access(path, F_OK) != 0)
		snprintf(path, sizeof(path), "%s/measurements.csv.gz", dir);
	assert_int_equal(tcp_table_load(path, t, err, sizeof(err)), 0);
}

/* ---- the README run cut in half --------------------------------------------- */

static void test_cut_in_half(void **state)
{
	(void)state;
	char cut[256], want[600], path[400];
	size_t n, np;

	snprintf(cut, sizeof(cut), "%s/cut", tmproot);
	assert_int_equal(mkdir(cut, 0755), 0);
	char *meas = read_run_file(readme_run, "measurements.csv", &n);
	char *prov = read_run_file(readme_run, "provenance.csv", &np);
	size_t at = mid_record(meas, n), atp = mid_record(prov, np);
	snprintf(path, sizeof(path), "%s/measurements.csv", cut);
	write_bytes(path, meas, at);
	snprintf(path, sizeof(path), "%s/provenance.csv", cut);
	write_bytes(path, prov, atp);
	assert_int_equal(test_write_declared_roles(cut), 0);	/* the README run predates them: the cut's count */

	/* what must be missing: every OK row of the original from the first one cut */
	tcp_table_t t;
	load_table(readme_run, &t);
	int kept = rows_before(meas, at), nok = ok_rows(&t, 0, NULL), miss = ok_rows(&t, kept, NULL);
	tcp_table_free(&t);
	free(meas);
	free(prov);
	assert_true(miss > 1000);	/* half a default run */

	/* the run model: both files torn, the rule's count */
	tcp_run_t *b, *c;
	char err[512], torn[2400];
	assert_int_equal(tcp_run_open(readme_run, TCP_RUN_STRICT, &b, err, sizeof(err)), 0);
	assert_int_equal(tcp_run_open(cut, TCP_RUN_STRICT, &c, err, sizeof(err)), 0);
	assert_int_equal(tcp_run_torn_files(b, torn, sizeof(torn)), 0);
	assert_string_equal(torn, "");
	assert_int_equal(tcp_run_torn_files(c, torn, sizeof(torn)), 2);
	snprintf(want, sizeof(want), "%s/measurements.csv, %s/provenance.csv", cut, cut);
	assert_string_equal(torn, want);
	tcp_run_set_t *s = tcp_run_set_new(2);
	assert_non_null(s);
	assert_int_equal(tcp_run_set_add(s, 0, 1, b, NULL, NULL), 0);
	assert_int_equal(tcp_run_set_add(s, 1, 0, c, NULL, NULL), 0);
	assert_int_equal(tcp_run_set_nref(s), nok);
	assert_int_equal(tcp_run_set_missing(s, 1, NULL, NULL), miss);
	assert_int_equal(tcp_run_set_missing(s, 0, NULL, NULL), 0);
	tcp_run_set_free(s);
	tcp_run_free(b);
	tcp_run_free(c);

	/* the command: exit 9, one line naming the torn files and the count */
	run(tcp_cmd_compare, "compare", readme_run, cut, "--top", "3", NULL);
	expect(9, "cut in half");
	assert_int_equal(res.err_lines, 1);
	char count[128];
	snprintf(count, sizeof(count), "%d of the %d rows OK in", miss, nok);
	assert_non_null(strstr(res.err, count));
	assert_non_null(strstr(res.err, want));
	assert_non_null(strstr(res.err, "--allow-missing"));
	assert_non_null(strstr(res.out, "INCOMPLETE"));
	assert_non_null(strstr(res.out, "(exit 9)"));
	run(tcp_cmd_compare, "compare", readme_run, cut, "--quiet", NULL);
	expect(9, "cut in half, --quiet");
	assert_non_null(strstr(res.out, count));
	/* the rows both have are the same numbers: allowed, nothing to act on */
	run(tcp_cmd_compare, "compare", readme_run, cut, "--allow-missing", "--top", "3", NULL);
	expect(0, "cut in half, --allow-missing");
	assert_int_equal(res.err_lines, 0);
	assert_non_null(strstr(res.out, "allowed (--allow-missing)"));
	assert_non_null(strstr(res.out, "(exit 0)"));
}

/* ---- the README run without one probe ----------------------------------------- */

static void test_missing_one_probe(void **state)
{
	(void)state;
	char dir[256], path[400], err[512];
	tcp_table_t t;

	load_table(readme_run, &t);
	/* the probes, in order, and their OK rows; one with some dropped (fresh seed) */
	const char *probes[64], *withok[64];
	int np = 0, nok[64] = { 0 }, nw = 0;
	for (int i = 0; i < t.nrows; i++) {
		const char *p = tcp_table_get(&t, i, "probe");
		int k = 0;
		while (k < np && strcmp(probes[k], p))
			k++;
		if (k == np) {
			assert_true(np < 64);
			probes[np++] = p;
		}
		nok[k] += !strcmp(tcp_table_get(&t, i, "status"), "OK");
	}
	for (int k = 0; k < np; k++)
		if (nok[k])
			withok[nw++] = probes[k];
	assert_true(nw >= 3);
	const char *drop = withok[next_u64() % (uint64_t)nw];
	printf("test-gate: dropping probe %s\n", drop);
	int miss = ok_rows(&t, 0, drop);

	snprintf(dir, sizeof(dir), "%s/no-%s", tmproot, drop);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/measurements.csv", dir);
	tcp_csv_writer_t *w = tcp_csv_open(path, (const char *const *)t.cols, t.ncols, 0, err, sizeof(err));
	assert_non_null(w);
	for (int i = 0; i < t.nrows; i++)
		if (strcmp(tcp_table_get(&t, i, "probe"), drop))
			assert_int_equal(tcp_csv_write_rows(w, (const char *const *)&t.cells[(size_t)i * (size_t)t.ncols], 1), 0);
	assert_int_equal(tcp_csv_close(w), 0);
	size_t n;
	char *prov = read_run_file(readme_run, "provenance.csv", &n);
	snprintf(path, sizeof(path), "%s/provenance.csv", dir);
	write_bytes(path, prov, n);
	free(prov);
	assert_int_equal(test_write_declared_roles(dir), 0);

	run(tcp_cmd_compare, "compare", readme_run, dir, "--top", "3", NULL);
	expect(9, "one probe missing");
	char count[64];
	snprintf(count, sizeof(count), ": %d of the", miss);
	assert_non_null(strstr(res.err, count));
	assert_null(strstr(res.err, "torn"));

	/* the join agrees: its `missing` cells whose base row is OK */
	tcp_cmp_run_t runs[2];
	tcp_cmp_t c;
	assert_int_equal(tcp_cmp_run_load(readme_run, NULL, &runs[0], err, sizeof(err)), 0);
	assert_int_equal(tcp_cmp_run_load(dir, NULL, &runs[1], err, sizeof(err)), 0);
	assert_int_equal(tcp_cmp_join(&runs[0], &runs[1], 1, 1.0, 3.0, &c, err, sizeof(err)), 0);
	int joined = 0;
	for (int i = 0; i < c.nrows; i++)
		joined += c.rows[i].cells[0].verdict == TCP_V_MISSING && !strcmp(c.rows[i].base->status, "OK");
	assert_int_equal(joined, miss);
	assert_int_equal(c.nmissing[0], miss);
	assert_int_equal(tcp_cmp_status(&c), 9);
	c.allow_missing = 1;
	assert_int_equal(tcp_cmp_status(&c), 0);
	tcp_cmp_free(&c);
	tcp_cmp_run_free(&runs[0]);
	tcp_cmp_run_free(&runs[1]);

	/* filtered out is not missing: --probe naming every other probe */
	char list[4096] = "";
	for (int k = 0; k < np; k++)
		if (strcmp(probes[k], drop))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", *list ? "," : "",
				 probes[k]);
	run(tcp_cmd_compare, "compare", readme_run, dir, "--probe", list, "--quiet", NULL);
	expect(0, "--probe without the dropped probe");
	run(tcp_cmd_compare, "compare", readme_run, dir, "--allow-missing", "--quiet", NULL);
	expect(0, "one probe missing, --allow-missing");
	tcp_table_free(&t);
}

/* ---- small synthetic runs: what is and is not missing ------------------------------ */

/* A run of rows "axes:status:median" (median ignored unless OK) of probe synthetic_lat. */
static void small_run(const char *dir, const char *const *rows, int n)
{
	char path[400], err[512];

	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/measurements.csv", dir);
	tcp_rows_t *w = tcp_rows_open(path, NULL, 0, 0, err, sizeof(err));
	assert_non_null(w);
	for (int i = 0; i < n; i++) {
		char ax[64], st[16], id[16], med[40];
		double m;
		tcp_row_t row = { 0 };
		test_row_buf_t buf;
		assert_int_equal(sscanf(rows[i], "%63[^:]:%15[^:]:%lf", ax, st, &m), 3);
		snprintf(id, sizeof(id), "%d", i);
		snprintf(med, sizeof(med), "%.9g", m);
		row.c[TCP_COL_run_id] = "r";
		row.c[TCP_COL_gpu] = "0";
		row.c[TCP_COL_point] = id;
		row.c[TCP_COL_probe] = "synthetic_lat";
		row.c[TCP_COL_arch] = "sm_90a";
		row.c[TCP_COL_axes] = ax;
		row.c[TCP_COL_metric] = "cycles_per_mma";
		row.c[TCP_COL_unit] = "cycles";
		row.c[TCP_COL_reps] = "20";
		row.c[TCP_COL_status] = st;
		if (!strcmp(st, "OK")) {
			row.c[TCP_COL_median] = row.c[TCP_COL_min] = row.c[TCP_COL_max] = med;
			row.c[TCP_COL_spread_pct] = "0.1";
		} else {
			row.c[TCP_COL_reason] = "why";
		}
		test_row_finish(&row, &buf);
		assert_int_equal(tcp_rows_write(w, &row, 1), 0);
	}
	assert_int_equal(tcp_rows_close(w), 0);
	assert_int_equal(test_write_declared_roles(dir), 0);
}

static void test_what_is_missing(void **state)
{
	(void)state;
	char b[300], n1[300], n2[300], n3[300], row[6][64];
	double v[5];
	for (int i = 0; i < 5; i++)
		v[i] = 20 + 200 * (double)(next_u64() >> 11) / 9007199254740992.0;
	/* base: a..d OK, e SKIPPED */
	for (int i = 0; i < 4; i++)
		snprintf(row[i], sizeof(row[i]), "N=%d:OK:%.6f", i + 1, v[i]);
	snprintf(row[4], sizeof(row[4]), "N=5:SKIPPED:0");
	const char *base[5] = { row[0], row[1], row[2], row[3], row[4] };
	snprintf(b, sizeof(b), "%s/small-base", tmproot);
	small_run(b, base, 5);

	/* b FAILED (present: a status change), c absent (missing), d 50% slower, e absent */
	char slow[64], fail[64] = "N=2:FAILED:0";
	snprintf(slow, sizeof(slow), "N=4:OK:%.6f", v[3] * 1.5);
	const char *r1[3] = { row[0], fail, slow };
	snprintf(n1, sizeof(n1), "%s/small-new1", tmproot);
	small_run(n1, r1, 3);
	run(tcp_cmd_compare, "compare", b, n1, NULL);
	expect(9, "missing and slower");	/* incomplete takes precedence */
	assert_non_null(strstr(res.err, "1 of the 4 rows OK in"));
	assert_non_null(strstr(res.out, "Result: REGRESSION: 2 points"));
	run(tcp_cmd_compare, "compare", b, n1, "--allow-missing", NULL);
	expect(1, "missing and slower, --allow-missing");

	/* every OK row present, one FAILED: a regression, not incomplete; e (not OK in base) absent */
	const char *r2[4] = { row[0], fail, row[2], row[3] };
	snprintf(n2, sizeof(n2), "%s/small-new2", tmproot);
	small_run(n2, r2, 4);
	run(tcp_cmd_compare, "compare", b, n2, NULL);
	expect(1, "status change only");
	assert_null(strstr(res.out, "INCOMPLETE"));

	/* the same rows: clean; --probe of a probe neither has leaves no rows (exit 2) */
	const char *r3[4] = { row[0], row[1], row[2], row[3] };
	snprintf(n3, sizeof(n3), "%s/small-new3", tmproot);
	small_run(n3, r3, 4);
	run(tcp_cmd_compare, "compare", b, n3, NULL);
	expect(0, "same rows, base's SKIPPED row absent");
	/* N-way: the incomplete run is named, the complete one is not */
	run(tcp_cmd_compare, "compare", b, n3, n1, NULL);
	expect(9, "N-way");
	assert_non_null(strstr(res.err, n1));
	assert_null(strstr(res.err, "small-new3"));
}

/* The set's presence bits past one 64-bit word (a fleet of many GPUs). */
static void test_set_many_members(void **state)
{
	(void)state;
	char a[300], b[300], err[512];
	const char *ra[3] = { "N=1:OK:1", "N=2:OK:2", "N=3:OK:3" }, *rb[2] = { "N=1:OK:1", "N=2:OK:2" };
	tcp_run_t *A, *B;

	snprintf(a, sizeof(a), "%s/set-a", tmproot);
	snprintf(b, sizeof(b), "%s/set-b", tmproot);
	small_run(a, ra, 3);
	small_run(b, rb, 2);
	assert_int_equal(tcp_run_open(a, TCP_RUN_STRICT, &A, err, sizeof(err)), 0);
	assert_int_equal(tcp_run_open(b, TCP_RUN_STRICT, &B, err, sizeof(err)), 0);
	tcp_run_set_t *s = tcp_run_set_new(130);
	assert_non_null(s);
	assert_int_equal(tcp_run_set_add(s, 0, 1, A, NULL, NULL), 0);
	assert_int_equal(tcp_run_set_add(s, 65, 0, B, NULL, NULL), 0);
	assert_int_equal(tcp_run_set_add(s, 129, 0, B, NULL, NULL), 0);
	assert_int_equal(tcp_run_set_add(s, 100, 0, A, NULL, NULL), 0);
	assert_int_equal(tcp_run_set_add(s, 130, 0, A, NULL, NULL), -1);	/* no such member */
	assert_int_equal(tcp_run_set_nref(s), 3);
	assert_int_equal(tcp_run_set_missing(s, 65, NULL, NULL), 1);
	assert_int_equal(tcp_run_set_missing(s, 129, NULL, NULL), 1);
	assert_int_equal(tcp_run_set_missing(s, 100, NULL, NULL), 0);
	assert_int_equal(tcp_run_set_missing(s, 5, NULL, NULL), 3);	/* never added: lacks all */
	tcp_run_set_free(s);
	tcp_run_free(A);
	tcp_run_free(B);
}

/* ---- fleet: the union of OK rows across the group ----------------------------------- */

static void test_fleet_union(void **state)
{
	(void)state;
	char grp[300], d[3][400], row[12][64];
	double v[12];

	snprintf(grp, sizeof(grp), "%s/fleet", tmproot);
	assert_int_equal(mkdir(grp, 0755), 0);
	for (int i = 0; i < 12; i++) {
		v[i] = 100 + 900 * (double)(next_u64() >> 11) / 9007199254740992.0;
		snprintf(row[i], sizeof(row[i]), "N=%d:OK:%.6f", i, v[i]);
	}
	/* g0: N=0..9; g1: N=3 absent, N=4 FAILED (present); g2: N=0..10 */
	const char *g0[10], *g1[9], *g2[11];
	char fail[32] = "N=4:FAILED:0";
	int k = 0;
	for (int i = 0; i < 10; i++) {
		g0[i] = row[i];
		if (i != 3)
			g1[k++] = i == 4 ? fail : row[i];
	}
	for (int i = 0; i < 11; i++)
		g2[i] = row[i];
	for (int i = 0; i < 3; i++)
		snprintf(d[i], sizeof(d[i]), "%s/gpu%d", grp, i);
	small_run(d[0], g0, 10);
	small_run(d[1], g1, 9);
	small_run(d[2], g2, 11);

	char *paths[1] = { grp }, err[1400];
	tcp_fleet_opts_t o = { .mad_k = 3, .floor_pct = 2 };
	tcp_fleet_t *f = tcp_fleet_load(paths, 1, &o, err, sizeof(err));
	if (!f)
		print_error("%s\n", err);
	assert_non_null(f);
	assert_int_equal(tcp_fleet_ngpus(f), 3);
	assert_int_equal(tcp_fleet_gpu(f, 0)->missing_points, 1);	/* N=10 */
	assert_int_equal(tcp_fleet_gpu(f, 1)->missing_points, 2);	/* N=3, N=10 */
	assert_int_equal(tcp_fleet_gpu(f, 2)->missing_points, 0);
	assert_int_equal(tcp_fleet_noutliers(f), 0);
	assert_int_equal(tcp_fleet_status(f), 9);
	tcp_fleet_free(f);
	o.allow_missing = 1;
	f = tcp_fleet_load(paths, 1, &o, err, sizeof(err));
	assert_non_null(f);
	assert_int_equal(tcp_fleet_status(f), 0);
	tcp_fleet_free(f);

	run(tcp_cmd_fleet, "fleet", "--no-csv", grp, NULL);
	expect(9, "fleet with an incomplete run");
	assert_int_equal(res.err_lines, 1);
	assert_non_null(strstr(res.err, d[0]));
	assert_non_null(strstr(res.out, "INCOMPLETE"));
	assert_non_null(strstr(res.out, "lacks synthetic_lat [N=3] cycles_per_mma\n"));
	run(tcp_cmd_fleet, "fleet", "--no-csv", "--allow-missing", grp, NULL);
	expect(0, "fleet --allow-missing");

	/* g2 cut mid-record: its lost rows are missing, the torn file named */
	char path[500];
	size_t n;
	char *t = read_run_file(d[2], "measurements.csv", &n);
	snprintf(path, sizeof(path), "%s/measurements.csv", d[2]);
	write_bytes(path, t, n - 5);	/* into the last row, N=10 */
	free(t);
	run(tcp_cmd_fleet, "fleet", "--no-csv", grp, NULL);
	expect(9, "fleet with a torn run");
	assert_non_null(strstr(res.out, "ended in a torn line"));
	assert_non_null(strstr(res.out, path));
	o.allow_missing = 0;
	f = tcp_fleet_load(paths, 1, &o, err, sizeof(err));
	assert_non_null(f);
	assert_int_equal(tcp_fleet_gpu(f, 0)->missing_points, 0);	/* nobody has N=10 OK now */
	assert_int_equal(tcp_fleet_gpu(f, 1)->missing_points, 1);
	assert_int_equal(tcp_fleet_gpu(f, 2)->missing_points, 0);
	tcp_fleet_free(f);
}

/* ---- contention: the schema-2 fixture ---------------------------------------------- */

/* A tcp_run_keep_fn: rows of probe ctx only. */
static int keep_probe(const tcp_run_t *r, const tcp_run_row_t *w, void *ctx)
{
	(void)r;
	return !strcmp(w->probe, ctx);
}

static void test_contended(void **state)
{
	(void)state;
	tcp_run_t *r;
	char err[512];

	assert_int_equal(tcp_run_open(fix_contended, TCP_RUN_STRICT, &r, err, sizeof(err)), 0);
	assert_int_equal(tcp_run_contended(r, NULL, NULL), 2);	/* points, not rows (3 rows) */
	assert_int_equal(tcp_run_contended(r, keep_probe, "synthetic_tput"), 1);
	assert_int_equal(tcp_run_contended(r, keep_probe, "host_timer"), 0);
	tcp_run_free(r);
	assert_int_equal(tcp_run_open(fix_base, TCP_RUN_STRICT, &r, err, sizeof(err)), 0);
	assert_int_equal(tcp_run_contended(r, NULL, NULL), 0);	/* schema 1: no column */
	tcp_run_free(r);

	run(tcp_cmd_compare, "compare", fix_base, fix_contended, NULL);
	expect(0, "contended, same numbers");
	assert_non_null(strstr(res.out, "2 points ran beside other work on the GPU"));
	assert_non_null(strstr(res.out, "WARNING: 2 contended points (base 0, new 2)"));
	assert_non_null(strstr(res.out, "NA (schema 1)"));
	run(tcp_cmd_compare, "compare", fix_base, fix_contended, "--quiet", NULL);
	assert_non_null(strstr(res.out, "WARNING: 2 contended points"));
	run(tcp_cmd_compare, "compare", fix_contended, fix_base, "--probe", "host_timer", NULL);
	expect(0, "contended filtered out");
	assert_null(strstr(res.out, "WARNING"));

	run(tcp_cmd_query, "query", "--summary", fix_contended, NULL);
	expect(0, "query --summary");
	assert_non_null(strstr(res.out, "\ncontended,2\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cut_in_half),
		cmocka_unit_test(test_missing_one_probe),
		cmocka_unit_test(test_what_is_missing),
		cmocka_unit_test(test_set_many_members),
		cmocka_unit_test(test_fleet_union),
		cmocka_unit_test(test_contended),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
