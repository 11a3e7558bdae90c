/*
 * test-inputs.c
 *	Files that are not files: every reader of a file a
 *	user names or a run directory holds refuses a FIFO, a character device
 *	(/dev/zero), a directory, and a sweep file over TCP_SPEC_MAX_BYTES, at
 *	once, with one line and exit 2, never blocking: harness/store/infile.c
 *	directly, then the binary (`run --spec`, `run --resume` with plan.txt,
 *	measurements.csv or log.txt replaced, `compare`, `report`, `fleet`),
 *	each under a time limit so a hang fails the test.  `--spec -` reads
 *	stdin, bounded.  CSV readers take any size: a CSV larger than a Hopper
 *	run (4.8 MB) of fresh random rows reads back whole.
 */
#include <errno.h>
#include <fcntl.h>
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
#include "harness/store/infile.h"
#include "harness/store/run.h"
#include "harness/sweep/spec.h"
#include "test-exec.h"
#include "test-util.h"

static char dir[256];

static const char *path_of(const char *name)
{
	static char p[8][512];
	static int k;

	k = (k + 1) % 8;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

static void put_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* A directory holding a copy of a small committed run, for the file swaps below. */
static void make_run(const char *d)
{
	char cmd[1200];
	mkdir(d, 0755);
	snprintf(cmd, sizeof(cmd), "cp tests/fixtures/synthetic-run/measurements.csv "
		 "tests/fixtures/synthetic-run/provenance.csv '%s'/", d);
	assert_int_equal(system(cmd), 0);
}

/* Replace d/name by a FIFO (nobody ever writes or reads it). */
static void fifo_in(const char *d, const char *name)
{
	char p[600];
	snprintf(p, sizeof(p), "%s/%s", d, name);
	unlink(p);
	assert_int_equal(mkfifo(p, 0644), 0);
}

/* exit 2 within the limit, one stderr line naming `needle` */
#define REFUSED(o, needle)                                                                    \
	do {                                                                                  \
		if ((o)->timed_out || (o)->status != 2 || lines((o)->err) != 1 ||             \
		    !strstr((o)->err, needle))                                                \
			fail_msg("line %d: %s, exit %d, stderr '%s' (want exit 2 at once, one " \
				 "line with '%s')", __LINE__, (o)->timed_out ? "HUNG" : "returned", \
				 (o)->status, (o)->err, needle);                              \
	} while (0)

static void test_infile_refuses_non_regular(void **state)
{
	char err[512];
	size_t n;
	(void)state;

	assert_int_equal(mkfifo(path_of("fifo"), 0644), 0);
	/* a FIFO without a writer: a blocking open would never return */
	assert_null(tcp_infile_read(path_of("fifo"), "sweep file", 1024, 0, &n, err, sizeof(err)));
	assert_non_null(strstr(err, "got a FIFO, expected a regular file"));
	assert_int_equal(tcp_infile_open("/dev/zero", "CSV", 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/dev/zero: cannot read CSV: got a character device"));
	assert_null(tcp_infile_read(dir, "plan", 0, 1, &n, err, sizeof(err)));
	assert_non_null(strstr(err, "got a directory, expected a regular file"));
	assert_null(tcp_infile_read(path_of("missing"), "plan", 0, 0, &n, err, sizeof(err)));
	assert_non_null(strstr(err, "got 'No such file or directory'"));
	/* "-" is a file name unless stdin is allowed */
	assert_null(tcp_infile_read("-", "CSV", 0, 0, &n, err, sizeof(err)));
}

static void test_infile_sizes(void **state)
{
	char err[512], *buf;
	size_t n, len = 1000 + next_u64() % 5000;
	char *text = malloc(len + 1);
	(void)state;

	for (size_t i = 0; i < len; i++)
		text[i] = (char)(' ' + next_u64() % 90);
	text[len] = '\0';
	put_text(path_of("t.sweep"), text);
	buf = tcp_infile_read(path_of("t.sweep"), "sweep file", len, 0, &n, err, sizeof(err));
	assert_non_null(buf);
	assert_int_equal(n, len);
	assert_memory_equal(buf, text, len);
	free(buf);
	/* one byte over the limit: refused by its size, naming the limit */
	assert_null(tcp_infile_read(path_of("t.sweep"), "sweep file", len - 1, 0, &n, err, sizeof(err)));
	assert_non_null(strstr(err, "sweep file too large: got "));
	/* a regular file whose size says 0 (/proc) is bounded while it is read */
	assert_null(tcp_infile_read("/proc/self/status", "sweep file", 64, 0, &n, err, sizeof(err)));
	assert_non_null(strstr(err, "too large: got more than 64 bytes"));
	free(text);
}

static void test_csv_any_size(void **state)
{
	/* bigger than a Hopper default run's 4.8 MB measurements.csv */
	const char *hdr[] = { "probe", "axes", "metric", "median" };
	enum { BATCH = 4000 };	/* rows per write (each write is fdatasync'ed) */
	static char cells[BATCH][4][64];
	static const char *row[BATCH * 4];
	char err[512];
	tcp_table_t t;
	uint64_t first = next_u64();
	int rows = 30 * BATCH;
	(void)state;

	tcp_csv_writer_t *w = tcp_csv_open(path_of("big.csv"), hdr, 4, 0, err, sizeof(err));
	assert_non_null(w);
	rng = first;
	for (int r = 0; r < rows; r++) {
		char (*c)[64] = cells[r % BATCH];
		snprintf(c[0], 64, "probe_%llu", (unsigned long long)(next_u64() % 1000));
		snprintf(c[1], 64, "N=%d;kind=bf16;pattern=random", r);
		snprintf(c[2], 64, "metric_with_a_long_name_%d", r % 7);
		snprintf(c[3], 64, "%.17g", (double)next_u64() / 3.0);
		for (int k = 0; k < 4; k++)
			row[(r % BATCH) * 4 + k] = c[k];
		if (r % BATCH == BATCH - 1)
			assert_int_equal(tcp_csv_write_rows(w, row, BATCH), 0);
	}
	assert_int_equal(tcp_csv_close(w), 0);
	struct stat st;
	assert_int_equal(stat(path_of("big.csv"), &st), 0);
	assert_true(st.st_size > 5 * 1000 * 1000);
	assert_int_equal(tcp_table_load(path_of("big.csv"), &t, err, sizeof(err)), 0);
	assert_int_equal(t.nrows, rows);
	rng = first;
	for (int r = 0; r < rows; r++) {	/* every row back, exactly */
		char want[2][64];
		snprintf(want[0], 64, "probe_%llu", (unsigned long long)(next_u64() % 1000));
		snprintf(want[1], 64, "%.17g", (double)next_u64() / 3.0);
		assert_string_equal(tcp_table_cell(&t, r, 0), want[0]);
		assert_string_equal(tcp_table_cell(&t, r, 3), want[1]);
	}
	tcp_table_free(&t);
	/* and the readers' blind spot: a FIFO in a CSV's place */
	assert_int_equal(mkfifo(path_of("pipe.csv"), 0644), 0);
	assert_int_equal(tcp_table_load(path_of("pipe.csv"), &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "pipe.csv:1: cannot read CSV: got a FIFO, expected a regular file"));
	/* an archived run's CSV (zlib) goes through the same check: a FIFO named
	 * .gz is refused unread, and so is the run model's open of a run holding it */
	assert_int_equal(mkfifo(path_of("measurements.csv.gz"), 0644), 0);
	assert_int_equal(tcp_table_load(path_of("measurements.csv.gz"), &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "measurements.csv.gz:1: cannot read CSV: got a FIFO, expected a regular file"));
	tcp_run_t *run = NULL;
	assert_int_equal(tcp_run_open(path_of(""), TCP_RUN_MAY_BE_EMPTY, &run, err, sizeof(err)), -1);
	assert_null(run);
	assert_non_null(strstr(err, "measurements.csv.gz:1: cannot read CSV: got a FIFO"));
	unlink(path_of("measurements.csv.gz"));
	/* writing into a FIFO's place fails instead of waiting for a reader */
	assert_null(tcp_csv_open(path_of("pipe.csv"), hdr, 4, 0, err, sizeof(err)));
	assert_non_null(strstr(err, "pipe.csv:1: cannot"));
	unlink(path_of("big.csv"));
}

static void test_run_spec_files(void **state)
{
	struct out *o = calloc(1, sizeof(*o));
	char *big = malloc(TCP_SPEC_MAX_BYTES + 2);
	(void)state;

	run(o, NULL, "run", "--spec", "/dev/zero", "--dry-run", (char *)NULL);
	REFUSED(o, "tcprobe: run: /dev/zero: cannot read sweep file: got a character device, expected a regular file");
	assert_int_equal(mkfifo(path_of("s.fifo"), 0644), 0);
	run(o, NULL, "run", "--spec", path_of("s.fifo"), (char *)NULL);
	REFUSED(o, "cannot read sweep file: got a FIFO, expected a regular file");
	run(o, NULL, "run", "--spec", dir, (char *)NULL);
	REFUSED(o, "cannot read sweep file: got a directory");
	/* over the documented size: refused by size, before reading it */
	memset(big, '#', TCP_SPEC_MAX_BYTES + 1);
	big[TCP_SPEC_MAX_BYTES + 1] = '\0';
	put_text(path_of("big.sweep"), big);
	run(o, NULL, "run", "--spec", path_of("big.sweep"), "--dry-run", (char *)NULL);
	REFUSED(o, "sweep file too large: got 1048577 bytes, expected at most 1 MiB");
	/* stdin, explicitly: read to its end, parsed like a file ("stdin:LINE:") */
	char *argv[] = { NULL, "run", "--spec", "-", "--dry-run", NULL };
	run_argv(o, NULL, "[calib]\nspin_kcycles = 1,2,3\n", TEST_RUN_LIMIT_S, argv);
	assert_false(o->timed_out);
	assert_int_equal(o->status, 0);
	assert_non_null(strstr(o->out, "total: 3 points, 3 to run, 0 skipped"));
	run_argv(o, NULL, "[calib]\nM = 1\n", TEST_RUN_LIMIT_S, argv);
	REFUSED(o, "tcprobe: run: stdin:2: unknown axis of probe calib: got 'M'");
	free(big);
	free(o);
}

static void test_run_dir_files(void **state)
{
	struct out *o = calloc(1, sizeof(*o));
	char r1[400], plan[600];
	(void)state;

	/* --resume: each file of the run directory in turn a FIFO */
	snprintf(r1, sizeof(r1), "%s/run1", dir);
	make_run(r1);
	snprintf(plan, sizeof(plan), "%s/plan.txt", r1);
	put_text(plan, "# tcprobe plan v1: point\tprobe\taxes\treps\twarmup\ttimeout_s\n"
		       "0\tcalib\tspin_kcycles=100\t2\t1\t10\n");
	fifo_in(r1, "log.txt");
	run(o, "CUDA_VISIBLE_DEVICES=", "run", "--resume", r1, (char *)NULL);
	REFUSED(o, "cannot write log: got a FIFO at '");
	unlink(path_of("run1/log.txt"));
	fifo_in(r1, "measurements.csv");
	run(o, "CUDA_VISIBLE_DEVICES=", "run", "--resume", r1, (char *)NULL);
	REFUSED(o, "measurements.csv:1: cannot read CSV: got a FIFO, expected a regular file");
	fifo_in(r1, "plan.txt");
	run(o, NULL, "run", "--resume", r1, (char *)NULL);
	REFUSED(o, "plan.txt: cannot read plan: got a FIFO, expected a regular file");

	/* compare, report, fleet on a run whose measurements.csv is a FIFO */
	run(o, NULL, "compare", "tests/fixtures/synthetic-run", r1, (char *)NULL);
	REFUSED(o, "measurements.csv:1: cannot read CSV: got a FIFO");
	run(o, NULL, "report", r1, "--no-plots", (char *)NULL);
	REFUSED(o, "measurements.csv:1: cannot read CSV: got a FIFO");
	run(o, NULL, "fleet", "--no-csv", dir, (char *)NULL);
	REFUSED(o, "measurements.csv: cannot read CSV: got a FIFO, expected a regular file");
	/* a provenance.csv FIFO: compare must not block on it either */
	char r2[400];
	snprintf(r2, sizeof(r2), "%s/run2", dir);
	make_run(r2);
	fifo_in(r2, "provenance.csv");
	run(o, NULL, "compare", "tests/fixtures/synthetic-run", r2, (char *)NULL);
	REFUSED(o, "provenance.csv:1: cannot read CSV: got a FIFO");
	free(o);
}

static int setup(void **state)
{
	(void)state;
	return test_mkdtemp(dir, sizeof(dir), "inputs");
}

static int teardown(void **state)
{
	(void)state;
	return test_rm_tree(dir);
}

int main(void)
{
	test_seed("test-inputs");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_infile_refuses_non_regular),
		cmocka_unit_test(test_infile_sizes),
		cmocka_unit_test(test_csv_any_size),
		cmocka_unit_test(test_run_spec_files),
		cmocka_unit_test(test_run_dir_files),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
