/*
 * test-run.c
 *	The run model (harness/store/run.h) on fresh random runs: rows typed as
 *	written, grouped into points with their axes and metrics, provenance,
 *	the plan's unfinished points; the same run read from measurements.csv.gz
 *	(archived, docs/results.md) gives the same model, the torn-tail rule
 *	included; a cut archive is an error, not a torn tail; strict and lenient
 *	reading of a newer schema; --resume's empty run and row rewrite.
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
#include <zlib.h>

#include <cmocka.h>

#include "harness/store/run.h"
#include "test-rows.h"
#include "test-util.h"

static const char *const axcols[] = { "K", "N", "kind" };
static const char *const kinds[] = { "f16", "tf32", "e4m3" };
static const char *const words[] = { "OK", "FAILED", "SKIPPED", "UNSUPPORTED" };

/* What was written, to check the model against. */
struct truth {
	int npoints, nrows, nplanned;
	int status[64];
	double value[64];	/* median of metric "rate" */
	int kind[64], n[64];
};

static char g_dir[256];

static void put(const char *name, const char *text)
{
	assert_int_equal(test_write_file(g_dir, name, text), 0);
}

static char *get(const char *name, size_t *n)
{
	char path[700];
	struct stat sb;
	snprintf(path, sizeof(path), "%s/%s", g_dir, name);
	assert_int_equal(stat(path, &sb), 0);
	char *b = malloc((size_t)sb.st_size + 1);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	*n = fread(b, 1, (size_t)sb.st_size, f);
	fclose(f);
	b[*n] = 0;
	return b;
}

/* gzip DIR/name into DIR/name.gz (only keep_pct % of the stream when >= 0), remove the plain file. */
static void gzip_file(const char *name, long keep_pct)
{
	char path[700];
	size_t n;
	char *b = get(name, &n);
	snprintf(path, sizeof(path), "%s/%s.gz", g_dir, name);
	gzFile z = gzopen(path, "wb9");
	assert_non_null(z);
	assert_int_equal(gzwrite(z, b, (unsigned)n), (int)n);
	gzclose(z);
	free(b);
	if (keep_pct >= 0) {
		struct stat sb;
		assert_int_equal(stat(path, &sb), 0);
		assert_int_equal(truncate(path, sb.st_size * keep_pct / 100), 0);
	}
	snprintf(path, sizeof(path), "%s/%s", g_dir, name);
	unlink(path);
}

/* A random run: points of rate_probe (two metrics) and lat_probe (one), one point
 * unplanned-finished; measurements.csv written by the rows writer, its text into csv. */
static void make_run(struct truth *t, char *csv, size_t len)
{
	char plan[8192] = "# tcprobe plan v1: point\tprobe\taxes\treps\twarmup\ttimeout_s\n";
	char path[700], err[512], prov[256];
	size_t n;
	snprintf(path, sizeof(path), "%s/measurements.csv", g_dir);
	tcp_rows_t *w = tcp_rows_open(path, axcols, 3, 0, err, sizeof(err));
	assert_non_null(w);
	memset(t, 0, sizeof(*t));
	t->npoints = 8 + (int)(next_u64() % 20);
	for (int i = 0; i < t->npoints; i++) {
		int lat = i % 3 == 2;
		int st = (int)(next_u64() % 4);
		t->status[i] = st == 0 ? TCP_OK : st == 1 ? TCP_FAILED : st == 2 ? TCP_SKIPPED : TCP_UNSUPPORTED;
		t->kind[i] = (int)(next_u64() % 3);
		t->n[i] = 8 * (1 + i);
		t->value[i] = 1.0 + (double)(next_u64() % 100000) / 7.0;
		char axes[64], med[64] = "", reason[64] = "", id[16];
		snprintf(axes, sizeof(axes), "kind=%s;N=%d", kinds[t->kind[i]], t->n[i]);
		snprintf(id, sizeof(id), "%d", i);
		if (t->status[i] == TCP_OK)
			snprintf(med, sizeof(med), "%.17g", t->value[i]);
		else
			snprintf(reason, sizeof(reason), "why, %d", i);
		const char *probe = lat ? "lat_probe" : "rate_probe";
		const char *metrics[] = { lat ? "cycles" : "rate", "aux" };
		for (int m = 0; m < (lat ? 1 : 2); m++) {
			tcp_row_t row = { 0 };
			test_row_buf_t buf;
			const char **c = row.c;
			c[TCP_COL_run_id] = "r";
			c[TCP_COL_gpu] = "0";
			c[TCP_COL_point] = id;
			c[TCP_COL_probe] = probe;
			c[TCP_COL_arch] = "sm_90a";
			c[TCP_COL_axes] = axes;
			c[TCP_COL_metric] = metrics[m];
			c[TCP_COL_unit] = "u";
			c[TCP_COL_median] = c[TCP_COL_min] = c[TCP_COL_max] = med;
			c[TCP_COL_spread_pct] = *med ? "0.5" : "";
			c[TCP_COL_reps] = "3";
			c[TCP_COL_status] = words[st];
			c[TCP_COL_reason] = reason;
			c[TCP_COL_sm_clock_mhz] = "1980";
			c[TCP_COL_throttle] = "none";
			c[TCP_COL_timestamp] = "t";
			test_row_finish(&row, &buf);
			assert_int_equal(tcp_rows_write(w, &row, 1), 0);
			t->nrows++;
		}
		snprintf(plan + strlen(plan), sizeof(plan) - strlen(plan), "%d\t%s\t%s\t3\t1\t30\n", i, probe, axes);
	}
	assert_int_equal(tcp_rows_close(w), 0);
	char *text = get("measurements.csv", &n);
	assert_true(n < len);
	memcpy(csv, text, n + 1);
	free(text);
	t->nplanned = t->npoints + 1;	/* one more planned point never ran */
	snprintf(plan + strlen(plan), sizeof(plan) - strlen(plan), "%d\trate_probe\tkind=f16;N=1\t3\t1\t30\n",
		 t->npoints);
	put("plan.txt", plan);
	snprintf(prov, sizeof(prov), "key,value\nschema_version,%d\ngpu_name,\"NVIDIA H200, test\"\n",
		 TCP_SCHEMA_VERSION);
	put("provenance.csv", prov);
}

static void check_model(const tcp_run_t *r, const struct truth *t)
{
	assert_int_equal(r->nrows, t->nrows);
	assert_int_equal(r->npoints, t->npoints);
	assert_int_equal(r->schema, TCP_SCHEMA_VERSION);
	assert_int_equal(r->nprobes, 2);
	assert_string_equal(r->probes[0], "rate_probe");
	assert_string_equal(r->probes[1], "lat_probe");
	assert_null(r->probes[2]);
	assert_string_equal(tcp_run_prov(r, "gpu_name"), "NVIDIA H200, test");
	assert_int_equal(r->nplanned, t->nplanned);
	assert_int_equal(r->nunfinished, 1);
	assert_false(tcp_run_complete(r));
	for (int i = 0; i < t->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		int lat = i % 3 == 2;
		assert_string_equal(p->probe, lat ? "lat_probe" : "rate_probe");
		assert_int_equal(p->status, t->status[i]);
		assert_int_equal(p->nm, lat ? 1 : 2);
		assert_int_equal(p->naxes, 2);
		assert_string_equal(tcp_point_axis(p, "kind"), kinds[t->kind[i]]);
		assert_int_equal(atoi(tcp_point_axis(p, "N")), t->n[i]);
		assert_null(tcp_point_axis(p, "M"));
		const tcp_run_row_t *w = tcp_point_metric(p, lat ? "cycles" : "rate");
		assert_non_null(w);
		assert_int_equal(w->point, i);
		assert_string_equal(w->status_word, words[t->status[i] == TCP_OK ? 0 : t->status[i] == TCP_FAILED ? 1 :
							 t->status[i] == TCP_SKIPPED ? 2 : 3]);
		if (t->status[i] == TCP_OK) {
			assert_true(w->median == t->value[i]);	/* %.17g round-trips exactly */
			assert_true(w->spread_pct == 0.5);
			assert_true(w->clock_mhz == 1980);
		} else {
			assert_true(isnan(w->median) && isnan(w->spread_pct));
			assert_non_null(strstr(w->reason, "why, "));
		}
		assert_string_equal(tcp_run_cell(r, w->line - 2, "N"), tcp_point_axis(p, "N"));
	}
}

static void test_plain_and_gz_are_one_model(void **state)
{
	static char csv[1 << 16];
	struct truth t;
	char err[512];
	tcp_run_t *r;
	(void)state;

	for (int rep = 0; rep < 8; rep++) {
		make_run(&t, csv, sizeof(csv));
		assert_int_equal(tcp_run_open(g_dir, 0, &r, err, sizeof(err)), 0);
		assert_false(r->compressed);
		check_model(r, &t);
		tcp_run_free(r);
		assert_int_equal(tcp_run_open(g_dir, TCP_RUN_STRICT, &r, err, sizeof(err)), 0);
		tcp_run_free(r);

		gzip_file("measurements.csv", -1);
		gzip_file("plan.txt", -1);
		assert_true(tcp_run_is_dir(g_dir));
		assert_int_equal(tcp_run_open(g_dir, TCP_RUN_STRICT | TCP_RUN_NEED_POINT, &r, err, sizeof(err)), 0);
		assert_true(r->compressed);
		assert_non_null(strstr(r->meas_path, "measurements.csv.gz"));
		check_model(r, &t);
		/* an archive is never rewritten in place */
		unsigned char keep[1] = { 1 };
		assert_int_equal(tcp_run_keep_rows(r, keep, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "gunzip"));
		tcp_run_free(r);
		char path[700];
		snprintf(path, sizeof(path), "%s/measurements.csv.gz", g_dir);
		unlink(path);
		snprintf(path, sizeof(path), "%s/plan.txt.gz", g_dir);
		unlink(path);
	}
}

/* A killed writer's torn last line is dropped, in a plain file and in its archive alike. */
static void test_torn_tail_plain_and_gz(void **state)
{
	static char csv[1 << 16];
	struct truth t;
	char err[512];
	tcp_run_t *r;
	(void)state;

	make_run(&t, csv, sizeof(csv));
	size_t n = strlen(csv);
	csv[n - 1 - (size_t)(next_u64() % 20)] = 0;	/* cut inside the last line */
	put("measurements.csv", csv);
	for (int gz = 0; gz < 2; gz++) {
		if (gz)
			gzip_file("measurements.csv", -1);
		assert_int_equal(tcp_run_open(g_dir, 0, &r, err, sizeof(err)), 0);
		assert_true(r->torn_tail);
		assert_int_equal(r->nrows, t.nrows - 1);
		assert_false(tcp_run_complete(r));
		tcp_run_free(r);
	}
	/* a cut archive is damage, not a killed sweep: an error naming the file */
	make_run(&t, csv, sizeof(csv));
	gzip_file("measurements.csv", 20 + (long)(next_u64() % 70));
	assert_int_equal(tcp_run_open(g_dir, 0, &r, err, sizeof(err)), -1);
	assert_null(r);
	assert_non_null(strstr(err, "measurements.csv.gz:1: cannot read: truncated gzip stream"));
	char path[700];
	snprintf(path, sizeof(path), "%s/measurements.csv.gz", g_dir);
	unlink(path);
}

/* Schema dispatch: a newer version is refused strictly, read as far as it goes leniently. */
static void test_schema_versions(void **state)
{
	char err[512];
	tcp_run_t *r;
	(void)state;

	for (int v = 1; v <= TCP_SCHEMA_VERSION + 1; v++) {
		/* the writer's row, of version v (v > this version: a newer build's) */
		char sv[16], path[700], err2[512];
		tcp_row_t row = { 0 };
		test_row_buf_t buf;
		snprintf(sv, sizeof(sv), "%d", v);
		snprintf(path, sizeof(path), "%s/measurements.csv", g_dir);
		tcp_rows_t *w = tcp_rows_open(path, axcols, 3, 0, err2, sizeof(err2));
		assert_non_null(w);
		row.c[TCP_COL_schema] = sv;
		row.c[TCP_COL_run_id] = "r";
		row.c[TCP_COL_probe] = "p";
		row.c[TCP_COL_arch] = "sm_90a";
		row.c[TCP_COL_axes] = "N=8";
		row.c[TCP_COL_metric] = "m";
		row.c[TCP_COL_unit] = "u";
		row.c[TCP_COL_median] = sv;
		row.c[TCP_COL_status] = "OK";
		test_row_finish(&row, &buf);
		assert_int_equal(tcp_rows_write(w, &row, 1), 0);
		assert_int_equal(tcp_rows_close(w), 0);
		put("provenance.csv", "key,value\n");
		int rc = tcp_run_open(g_dir, TCP_RUN_STRICT, &r, err, sizeof(err));
		if (v <= TCP_SCHEMA_VERSION) {
			assert_int_equal(rc, 0);
			assert_int_equal(r->schema, v);
			tcp_run_free(r);
		} else {
			assert_int_equal(rc, -1);
			assert_non_null(strstr(err, "measurements.csv:2: schema version"));
		}
		assert_int_equal(tcp_run_open(g_dir, 0, &r, err, sizeof(err)), 0);
		assert_true(r->rows[0].median == v);
		tcp_run_free(r);
	}
	/* lenient reading needs no schema column (hand-made files); strict does */
	put("measurements.csv", "probe,axes,metric,unit,median,status\np,N=8,m,u,2,OK\n");
	assert_int_equal(tcp_run_open(g_dir, 0, &r, err, sizeof(err)), 0);
	tcp_run_free(r);
	assert_int_equal(tcp_run_open(g_dir, TCP_RUN_STRICT, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "missing required column 'schema'"));
	assert_int_equal(tcp_run_open(g_dir, TCP_RUN_NEED_POINT, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "missing required column 'point'"));
}

/* --resume: no file is an empty run; the rewrite keeps exactly the rows asked for. */
static void test_resume_side(void **state)
{
	static char csv[1 << 16];
	struct truth t;
	char err[512], path[700];
	tcp_run_t *r;
	(void)state;

	snprintf(path, sizeof(path), "%s/measurements.csv", g_dir);
	unlink(path);
	assert_false(tcp_run_is_dir(g_dir));
	assert_int_equal(tcp_run_open(g_dir, 0, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "measurements.csv: missing"));
	assert_int_equal(tcp_run_open(g_dir, TCP_RUN_MAY_BE_EMPTY, &r, err, sizeof(err)), 0);
	assert_int_equal(r->nrows, 0);
	tcp_run_free(r);

	make_run(&t, csv, sizeof(csv));
	assert_int_equal(tcp_run_open(g_dir, TCP_RUN_MAY_BE_EMPTY, &r, err, sizeof(err)), 0);
	unsigned char *keep = calloc((size_t)r->nrows, 1);
	int kept = 0;
	for (int i = 0; i < r->nrows; i++)
		kept += keep[i] = (unsigned char)(next_u64() & 1);
	assert_int_equal(tcp_run_keep_rows(r, keep, err, sizeof(err)), 0);
	tcp_run_t *back;
	assert_int_equal(tcp_run_open(g_dir, 0, &back, err, sizeof(err)), 0);
	assert_int_equal(back->nrows, kept);
	for (int i = 0, k = 0; i < r->nrows; i++)
		if (keep[i]) {
			assert_string_equal(back->rows[k].axes, r->rows[i].axes);
			assert_string_equal(back->rows[k].metric, r->rows[i].metric);
			assert_string_equal(back->rows[k].reason, r->rows[i].reason);
			k++;
		}
	free(keep);
	tcp_run_free(back);
	tcp_run_free(r);
}

static int group_setup(void **state)
{
	(void)state;
	test_seed("test-run");
	return test_mkdtemp(g_dir, sizeof(g_dir), "run");
}

static int group_teardown(void **state)
{
	(void)state;
	return test_rm_tree(g_dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_and_gz_are_one_model),
		cmocka_unit_test(test_torn_tail_plain_and_gz),
		cmocka_unit_test(test_schema_versions),
		cmocka_unit_test(test_resume_side),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
