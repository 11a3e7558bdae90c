/*
 * test-csvio.c
 *	harness/store/csvio.c: write -> read round trips (commas, quotes, embedded
 *	newlines, empty and NULL cells, blanks at the ends, UTF-8, and fresh
 *	random fields), the torn tail a SIGKILL leaves (reader drops and flags
 *	it, append cuts it), header checks on append, every malformed-input
 *	class of the reader (each -1 with "path:line:"), key,value files.
 *	Random content comes from a fresh seed, printed for a replay
 *	(TCP_TEST_SEED=<n> pins it).  Files live in a fresh mkdtemp directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
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
#include "test-util.h"

static char dir[256];

static const char *path_of(const char *name)
{
	static char p[4][512];
	static int k;

	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

static void put_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static long file_size(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return (long)st.st_size;
}

/* err must be "<path>:<line>: <something>" with the given line (0 = any). */
static void assert_err_at(const char *err, const char *path, int line)
{
	char want[600];
	size_t n = strlen(path);

	if (strncmp(err, path, n) != 0 || err[n] != ':') {
		print_error("error '%s' does not start with '%s:'\n", err, path);
		fail();
	}
	char *end;
	long l = strtol(err + n + 1, &end, 10);
	if (end == err + n + 1 || *end != ':' || end[1] != ' ' || !end[2]) {
		print_error("error '%s' lacks 'line: what'\n", err);
		fail();
	}
	if (line) {
		snprintf(want, sizeof(want), "line %d", line);
		if (l != line) {
			print_error("error '%s': expected %s\n", err, want);
			fail();
		}
	}
}

static const char *const hdr[] = { "probe", "axes", "metric", "unit", "reason", "µ_name" };
enum { NC = 6 };

/* Fixed awkward content: every quoting case libcsv and RFC 4180 know. */
static const char *const awkward[] = {
	"wgmma_tput", "M=64;N=256;kind=f16", "cycles,per,mma", "µs", "say \"hi\"", NULL,
	"", "a\nb", "a\r\nb", " lead", "trail ", "\"",
	"ünïcödé ✓", ",", "\"\"", "x\"y\"z", "\t", "line1\nline2\n",
	"plain", "", "", "", "", "",
};

static void check_table(const tcp_table_t *t, const char *const *cells, int nrows)
{
	assert_int_equal(t->ncols, NC);
	assert_int_equal(t->nrows, nrows);
	for (int c = 0; c < NC; c++)
		assert_string_equal(t->cols[c], hdr[c]);
	for (int r = 0; r < nrows; r++)
		for (int c = 0; c < NC; c++) {
			const char *want = cells[r * NC + c] ? cells[r * NC + c] : "";
			assert_string_equal(tcp_table_cell(t, r, c), want);
		}
}

static void test_round_trip_awkward(void **state)
{
	const char *p = path_of("awkward.csv");
	char err[512] = "";
	tcp_table_t t;
	int nrows = (int)(sizeof(awkward) / sizeof(awkward[0])) / NC;

	(void)state;
	tcp_csv_writer_t *w = tcp_csv_open(p, hdr, NC, 0, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(tcp_csv_write_rows(w, awkward, 1), 0);
	assert_int_equal(tcp_csv_write_rows(w, awkward + NC, nrows - 1), 0);
	assert_int_equal(tcp_csv_rows_written(w), nrows);
	assert_int_equal(tcp_csv_close(w), 0);

	assert_int_equal(tcp_table_load(p, &t, err, sizeof(err)), 0);
	assert_int_equal(t.torn_tail, 0);
	check_table(&t, awkward, nrows);
	assert_int_equal(tcp_table_col(&t, "metric"), 2);
	assert_int_equal(tcp_table_col(&t, "µ_name"), 5);
	assert_int_equal(tcp_table_col(&t, "nope"), -1);
	assert_string_equal(tcp_table_get(&t, 0, "reason"), "say \"hi\"");
	assert_null(tcp_table_get(&t, 0, "nope"));
	assert_null(tcp_table_get(&t, nrows, "probe"));
	assert_null(tcp_table_get(&t, -1, "probe"));
	assert_null(tcp_table_cell(&t, 0, NC));
	tcp_table_free(&t);
	assert_int_equal(t.nrows, 0);
	tcp_table_free(&t);	/* twice is harmless */

	/* Plain fields are not quoted; quoted ones double their quotes. */
	char q[64];
	assert_string_equal(tcp_csv_quote("abc", q, sizeof(q)), "abc");
	assert_string_equal(tcp_csv_quote("a,b", q, sizeof(q)), "\"a,b\"");
	assert_string_equal(tcp_csv_quote("a\"b", q, sizeof(q)), "\"a\"\"b\"");
	assert_string_equal(tcp_csv_quote("", q, sizeof(q)), "");
	assert_string_equal(tcp_csv_quote(NULL, q, sizeof(q)), "");
	assert_string_equal(tcp_csv_quote("abcdef", q, 4), "abc");
}

/* A random field over an alphabet dense in the characters that need care. */
static void random_field(char *buf, size_t cap)
{
	static const char *const atoms[] = {
		"a", "Z", "0", "9", ",", "\"", "\n", "\r\n", " ", "\t", ";", "=", "µ", "é", "✓", "—", "'",
	};
	size_t n = 0, len = next_u64() % 12;

	for (size_t i = 0; i < len; i++) {
		const char *a = atoms[next_u64() % (sizeof(atoms) / sizeof(atoms[0]))];
		size_t l = strlen(a);
		if (n + l + 1 >= cap)
			break;
		memcpy(buf + n, a, l);
		n += l;
	}
	buf[n] = '\0';
}

/*
 * A field that begins with a UTF-8 BOM, as the file's first field: readers drop
 * a BOM at offset 0, so the writer must quote it (found by tests/fuzz/fuzz-csv,
 * input tests/fuzz/corpus/csv/regress-bom-first-field).
 */
static void test_round_trip_bom_field(void **state)
{
	const char *p = path_of("bom.csv");
	const char *h[] = { "\xef\xbb\xbfkey", "value" };
	const char *row[] = { "\xef\xbb\xbfv", "x" };
	char err[512] = "", q[32];
	tcp_table_t t;

	(void)state;
	tcp_csv_writer_t *w = tcp_csv_open(p, h, 2, 0, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(tcp_csv_write_rows(w, row, 1), 0);
	assert_int_equal(tcp_csv_close(w), 0);
	assert_int_equal(tcp_table_load(p, &t, err, sizeof(err)), 0);
	assert_string_equal(t.cols[0], h[0]);
	assert_string_equal(tcp_table_cell(&t, 0, 0), row[0]);
	tcp_table_free(&t);
	assert_string_equal(tcp_csv_quote("\xef\xbb\xbfk", q, sizeof(q)), "\"\xef\xbb\xbfk\"");
}

/*
 * A one-column file with empty fields (header or rows): an unquoted empty
 * field alone is a blank line, which readers skip; it must be written "" (found
 * by tests/fuzz/fuzz-csv, input tests/fuzz/corpus/csv/regress-empty-lone-field).
 */
static void test_round_trip_lone_empty_field(void **state)
{
	const char *p = path_of("lone.csv");
	const char *h[] = { "" };
	const char *rows[] = { "", "x", NULL };
	char err[512] = "";
	tcp_table_t t;

	(void)state;
	tcp_csv_writer_t *w = tcp_csv_open(p, h, 1, 0, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(tcp_csv_write_rows(w, rows, 3), 0);
	assert_int_equal(tcp_csv_close(w), 0);
	if (tcp_table_load(p, &t, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(t.ncols, 1);
	assert_int_equal(t.nrows, 3);
	assert_string_equal(t.cols[0], "");
	assert_string_equal(tcp_table_cell(&t, 0, 0), "");
	assert_string_equal(tcp_table_cell(&t, 1, 0), "x");
	assert_string_equal(tcp_table_cell(&t, 2, 0), "");
	tcp_table_free(&t);
}

static void test_round_trip_random(void **state)
{
	enum { ROWS = 400, CAP = 64 };
	const char *p = path_of("random.csv");
	char err[512] = "";
	static char store[ROWS * NC][CAP];
	static const char *cells[ROWS * NC];
	tcp_table_t t;

	(void)state;
	for (int i = 0; i < ROWS * NC; i++) {
		random_field(store[i], CAP);
		cells[i] = (next_u64() % 17 == 0) ? NULL : store[i];
	}
	tcp_csv_writer_t *w = tcp_csv_open(p, hdr, NC, 0, err, sizeof(err));
	assert_non_null(w);
	for (int r = 0; r < ROWS;) {
		int k = 1 + (int)(next_u64() % 7);	/* points of 1..7 metric rows */
		if (k > ROWS - r)
			k = ROWS - r;
		assert_int_equal(tcp_csv_write_rows(w, cells + r * NC, k), 0);
		r += k;
	}
	assert_int_equal(tcp_csv_close(w), 0);
	assert_int_equal(tcp_table_load(p, &t, err, sizeof(err)), 0);
	check_table(&t, cells, ROWS);
	tcp_table_free(&t);
}

/* Offsets where each row of the file ends (just past its '\n'). */
static int row_ends(const char *path, long *ends, int max)
{
	FILE *f = fopen(path, "rb");
	int c, inq = 0, n = 0;
	long off = 0;

	assert_non_null(f);
	while ((c = fgetc(f)) != EOF) {
		off++;
		if (c == '"')
			inq = !inq;
		else if (c == '\n' && !inq && n < max)
			ends[n++] = off;
	}
	fclose(f);
	return n;
}

/*
 * A SIGKILL mid-write leaves a prefix of the last write(): every cut inside
 * the last row (none of this file's fields spans lines) must drop exactly
 * that row and flag it; append must cut it off and continue cleanly.
 */
static void test_torn_tail(void **state)
{
	const char *p = path_of("torn.csv");
	char err[512] = "", f[8][32];
	const char *cells[8 * NC];
	long ends[16];
	tcp_table_t t;

	(void)state;
	for (int r = 0; r < 8; r++)
		for (int c = 0; c < NC; c++) {
			snprintf(f[r], sizeof(f[r]), "v%d,%llu", r, (unsigned long long)(next_u64() % 1000));
			cells[r * NC + c] = c == 4 ? "a \"quoted\" reason" : f[r];
		}
	tcp_csv_writer_t *w = tcp_csv_open(p, hdr, NC, 0, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(tcp_csv_write_rows(w, cells, 5), 0);
	assert_int_equal(tcp_csv_close(w), 0);
	int n = row_ends(p, ends, 16);
	assert_int_equal(n, 6);			/* header + 5 rows */

	/* every cut strictly inside the last row */
	for (long cut = ends[4] + 1; cut < ends[5]; cut++) {
		assert_int_equal(truncate(p, cut), 0);
		assert_int_equal(tcp_table_load(p, &t, err, sizeof(err)), 0);
		assert_int_equal(t.torn_tail, 1);
		check_table(&t, cells, 4);
		tcp_table_free(&t);
		/* restore the full last row for the next cut */
		w = tcp_csv_open(p, hdr, NC, 1, err, sizeof(err));
		assert_non_null(w);
		assert_int_equal(file_size(p), ends[4]);	/* tail cut on open */
		assert_int_equal(tcp_csv_write_rows(w, cells + 4 * NC, 1), 0);
		assert_int_equal(tcp_csv_close(w), 0);
		assert_int_equal(file_size(p), ends[5]);
	}

	/* cut exactly at a row boundary: nothing torn */
	assert_int_equal(truncate(p, ends[3]), 0);
	assert_int_equal(tcp_table_load(p, &t, err, sizeof(err)), 0);
	assert_int_equal(t.torn_tail, 0);
	check_table(&t, cells, 3);
	tcp_table_free(&t);

	/* torn, then appended: the new rows follow the last whole one */
	assert_int_equal(truncate(p, ends[3] + 3), 0);
	w = tcp_csv_open(p, hdr, NC, 1, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(tcp_csv_write_rows(w, cells + 3 * NC, 5), 0);
	assert_int_equal(tcp_csv_close(w), 0);
	assert_int_equal(tcp_table_load(p, &t, err, sizeof(err)), 0);
	assert_int_equal(t.torn_tail, 0);
	check_table(&t, cells, 8);
	tcp_table_free(&t);

	/* torn inside the header itself: reader refuses, append starts afresh */
	assert_int_equal(truncate(p, 7), 0);
	assert_int_equal(tcp_table_load(p, &t, err, sizeof(err)), -1);
	assert_err_at(err, p, 1);
	w = tcp_csv_open(p, hdr, NC, 1, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(tcp_csv_write_rows(w, cells, 2), 0);
	assert_int_equal(tcp_csv_close(w), 0);
	assert_int_equal(tcp_table_load(p, &t, err, sizeof(err)), 0);
	check_table(&t, cells, 2);
	tcp_table_free(&t);
}

/* A torn row whose cut falls inside a quoted multi-line field. */
static void test_torn_multiline(void **state)
{
	const char *p = path_of("torn-ml.csv");
	const char *data = "a,b\n1,2\n3,\"x\ny";
	char err[512];
	tcp_table_t t;

	(void)state;
	put_file(p, data, strlen(data));
	assert_int_equal(tcp_table_load(p, &t, err, sizeof(err)), 0);
	assert_int_equal(t.nrows, 1);
	assert_int_equal(t.torn_tail, 1);
	assert_string_equal(tcp_table_get(&t, 0, "b"), "2");
	tcp_table_free(&t);
}

static void test_append_header(void **state)
{
	const char *p = path_of("hdr.csv");
	const char *const other[] = { "probe", "axes", "metric", "unit", "reason", "other" };
	const char *row[NC] = { "1", "2", "3", "4", "5", "6" };
	char err[512] = "";
	tcp_table_t t;

	(void)state;
	tcp_csv_writer_t *w = tcp_csv_open(p, hdr, NC, 0, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(tcp_csv_write_rows(w, row, 1), 0);
	assert_int_equal(tcp_csv_close(w), 0);
	long size = file_size(p);

	/* different name in the last column */
	assert_null(tcp_csv_open(p, other, NC, 1, err, sizeof(err)));
	assert_err_at(err, p, 1);
	assert_non_null(strstr(err, "header mismatch"));
	/* fewer columns */
	assert_null(tcp_csv_open(p, hdr, NC - 1, 1, err, sizeof(err)));
	assert_non_null(strstr(err, "header mismatch"));
	assert_int_equal(file_size(p), size);	/* refused appends touch nothing */

	/* same header: rows accumulate */
	w = tcp_csv_open(p, hdr, NC, 1, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(tcp_csv_write_rows(w, row, 1), 0);
	assert_int_equal(tcp_csv_close(w), 0);
	assert_int_equal(tcp_table_load(p, &t, err, sizeof(err)), 0);
	assert_int_equal(t.nrows, 2);
	tcp_table_free(&t);

	/* append to a missing file creates it with the header */
	const char *q = path_of("new.csv");
	unlink(q);
	w = tcp_csv_open(q, hdr, NC, 1, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(tcp_csv_close(w), 0);
	assert_int_equal(tcp_table_load(q, &t, err, sizeof(err)), 0);
	assert_int_equal(t.nrows, 0);
	assert_int_equal(t.ncols, NC);
	tcp_table_free(&t);

	/* append to a malformed file is refused with the reader's message */
	const char *m = path_of("bad-append.csv");
	put_file(m, "probe,axes\n1,2,3\n", 17);
	assert_null(tcp_csv_open(m, hdr, NC, 1, err, sizeof(err)));
	assert_err_at(err, m, 2);
	/* and open for writing in a missing directory fails with a reason */
	assert_null(tcp_csv_open(path_of("no/such/dir.csv"), hdr, NC, 0, err, sizeof(err)));
	assert_non_null(strstr(err, "No such file"));
}

/* Each malformed-input class: -1, "path:line: what". */
static void test_malformed(void **state)
{
	static const struct {
		const char *name, *data;
		int line;		/* expected line in the message */
		const char *what;	/* substring of the message */
	} cases[] = {
		{ "empty.csv", "", 1, "empty" },
		{ "blank.csv", "\n\n", 1, "header" },
		{ "ragged-long.csv", "a,b,c\n1,2,3\n4,5,6\n7,8,9,10\n", 4, "ragged" },
		{ "ragged-short.csv", "a,b,c\n1,2,3\n4,5\n", 3, "ragged" },
		{ "ragged-ml.csv", "a,b\n\"x\ny\",2\n\"p\nq\"\n", 4, "ragged" },
		{ "unterminated.csv", "a,b\n1,2\n3,\"oops\n4,5\n", 3, "unterminated" },
		{ "quote-in-field.csv", "a,b\n1,2\n3,x\"y\n", 3, "malformed" },
		{ "after-quote.csv", "a,b\n\"1\"x,2\n", 2, "malformed" },
		{ "dup-header.csv", "a,b,a\n1,2,3\n", 1, "duplicate" },
	};
	char err[512];
	tcp_table_t t;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *p = path_of(cases[i].name);
		put_file(p, cases[i].data, strlen(cases[i].data));
		err[0] = '\0';
		if (tcp_table_load(p, &t, err, sizeof(err)) != -1) {
			print_error("%s: loaded, expected an error\n", cases[i].name);
			fail();
		}
		assert_err_at(err, p, cases[i].line);
		if (!strstr(err + strlen(p), cases[i].what)) {	/* not in the path */
			print_error("%s: '%s' lacks '%s'\n", cases[i].name, err, cases[i].what);
			fail();
		}
		assert_int_equal(t.nrows, 0);
		assert_null(t.cells);
		tcp_table_free(&t);
	}

	/* missing file */
	const char *miss = path_of("does-not-exist.csv");
	assert_int_equal(tcp_table_load(miss, &t, err, sizeof(err)), -1);
	assert_err_at(err, miss, 1);
	assert_non_null(strstr(err, "No such file"));

	/* binary: fresh random bytes with a NUL on line 2 */
	unsigned char bin[4096];
	for (size_t i = 0; i < sizeof(bin); i++)
		bin[i] = (unsigned char)next_u64();
	memcpy(bin, "a,b\nx", 5);
	for (size_t i = 5; i < sizeof(bin); i++)
		if (bin[i] == '\n')
			bin[i] = 'n';
	bin[6] = 0;
	bin[sizeof(bin) - 1] = '\n';
	const char *bp = path_of("binary.csv");
	put_file(bp, bin, sizeof(bin));
	assert_int_equal(tcp_table_load(bp, &t, err, sizeof(err)), -1);
	assert_err_at(err, bp, 2);
	assert_non_null(strstr(err, "binary"));

	/* a directory is not a file */
	assert_int_equal(tcp_table_load(dir, &t, err, sizeof(err)), -1);
	assert_err_at(err, dir, 1);
}

/* What other tools write: CRLF, a BOM, a header only, no rows. */
static void test_foreign_input(void **state)
{
	const char *p = path_of("crlf.csv");
	const char *crlf = "\xef\xbb\xbfk,v\r\n1,\"a\r\nb\"\r\n2,\r\n";
	char err[512];
	tcp_table_t t;

	(void)state;
	put_file(p, crlf, strlen(crlf));
	assert_int_equal(tcp_table_load(p, &t, err, sizeof(err)), 0);
	assert_int_equal(t.ncols, 2);
	assert_string_equal(t.cols[0], "k");
	assert_int_equal(t.nrows, 2);
	assert_string_equal(tcp_table_get(&t, 0, "v"), "a\r\nb");
	assert_string_equal(tcp_table_get(&t, 1, "k"), "2");
	assert_string_equal(tcp_table_get(&t, 1, "v"), "");
	assert_int_equal(t.torn_tail, 0);
	tcp_table_free(&t);

	/* blanks are data (RFC 4180), not trimmed */
	p = path_of("blanks.csv");
	put_file(p, "k, v\n a ,b\t\n", 12);
	assert_int_equal(tcp_table_load(p, &t, err, sizeof(err)), 0);
	assert_int_equal(tcp_table_col(&t, " v"), 1);
	assert_string_equal(tcp_table_cell(&t, 0, 0), " a ");
	assert_string_equal(tcp_table_cell(&t, 0, 1), "b\t");
	tcp_table_free(&t);

	p = path_of("header-only.csv");
	put_file(p, "x,y,z\n", 6);
	assert_int_equal(tcp_table_load(p, &t, err, sizeof(err)), 0);
	assert_int_equal(t.ncols, 3);
	assert_int_equal(t.nrows, 0);
	tcp_table_free(&t);
}

static void test_kv(void **state)
{
	const char *p = path_of("prov.csv");
	const char *keys[] = { "gpu_name", "command_line", "empty", "multi" };
	const char *vals[] = { "NVIDIA H200", "tcprobe run --set 'N=[8,16]' \"x\"", "", "a\nb" };
	char err[512], tmp[600];
	tcp_table_t t;

	(void)state;
	assert_int_equal(tcp_csv_write_kv(p, keys, vals, 4, err, sizeof(err)), 0);
	snprintf(tmp, sizeof(tmp), "%s.tmp", p);
	assert_int_equal(access(tmp, F_OK), -1);	/* renamed away */
	assert_int_equal(tcp_table_load(p, &t, err, sizeof(err)), 0);
	assert_int_equal(t.ncols, 2);
	assert_string_equal(t.cols[0], "key");
	assert_string_equal(t.cols[1], "value");
	assert_int_equal(t.nrows, 4);
	for (int i = 0; i < 4; i++) {
		assert_string_equal(tcp_table_cell(&t, i, 0), keys[i]);
		assert_string_equal(tcp_table_cell(&t, i, 1), vals[i]);
	}
	tcp_table_free(&t);
	/* rewriting replaces, never appends */
	assert_int_equal(tcp_csv_write_kv(p, keys, vals, 1, err, sizeof(err)), 0);
	assert_int_equal(tcp_table_load(p, &t, err, sizeof(err)), 0);
	assert_int_equal(t.nrows, 1);
	tcp_table_free(&t);
	assert_int_equal(tcp_csv_write_kv(path_of("no/dir/p.csv"), keys, vals, 1, err, sizeof(err)), -1);
}

static int rm_tree(void **state)
{
	(void)state;
	return test_rm_tree(dir);
}

int main(void)
{
	test_seed("test-csvio");
	if (test_mkdtemp(dir, sizeof(dir), "csvio"))
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_awkward),
		cmocka_unit_test(test_round_trip_random),
		cmocka_unit_test(test_round_trip_bom_field),
		cmocka_unit_test(test_round_trip_lone_empty_field),
		cmocka_unit_test(test_torn_tail),
		cmocka_unit_test(test_torn_multiline),
		cmocka_unit_test(test_append_header),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_foreign_input),
		cmocka_unit_test(test_kv),
	};
	return cmocka_run_group_tests(tests, NULL, rm_tree);
}
