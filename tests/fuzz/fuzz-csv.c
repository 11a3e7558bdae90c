/*
 * fuzz-csv.c
 *	libFuzzer target: the CSV reader and writer (harness/store/csvio.c) and the
 *	provenance reader on top of it (harness/store/provenance.c).  The input is
 *	the bytes of a measurements.csv / provenance.csv as found on disk,
 *	torn, binary or hand-edited.
 *	Properties beyond "no crash, no leak, no UB":
 *	  - a rejected file says why in one line starting "path:line:";
 *	  - an accepted table has no NULL cell and unique header names;
 *	  - write o read = id: the table written back through the writer reads
 *	    back cell for cell, without a torn tail (docs/results.md's CSV rules);
 *	  - reopening for append (what --resume does) cuts a torn tail and
 *	    keeps every complete row.
 *	Seeds: tests/fuzz/corpus/csv/ (committed results, torn and quoted files).
 */
#include <stdint.h>

#include "harness/store/csvio.h"
#include "harness/store/provenance.h"
#include "tests/fuzz/fuzz-util.h"

#define FUZZ_MAX_INPUT	16384

static void same_tables(const tcp_table_t *a, const tcp_table_t *b, const char *what)
{
	FUZZ_CHECK(a->ncols == b->ncols && a->nrows == b->nrows, "%s: %dx%d became %dx%d", what,
		   a->nrows, a->ncols, b->nrows, b->ncols);
	for (int c = 0; c < a->ncols; c++)
		FUZZ_CHECK(strcmp(a->cols[c], b->cols[c]) == 0, "%s: header %d [%s] became [%s]",
			   what, c, a->cols[c], b->cols[c]);
	for (int r = 0; r < a->nrows; r++)
		for (int c = 0; c < a->ncols; c++) {
			const char *x = tcp_table_cell(a, r, c), *y = tcp_table_cell(b, r, c);
			FUZZ_CHECK(strcmp(x, y) == 0, "%s: row %d col %d [%s] became [%s]", what, r,
				   c, x, y);
		}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char in[512], out[512], err[1024];
	tcp_table_t t, back;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	fuzz_path(in, sizeof(in), "in.csv");
	fuzz_path(out, sizeof(out), "out.csv");
	fuzz_write(in, data, size);

	/* provenance reader: any outcome but a crash, errors in one line */
	tcp_prov_t *prov = calloc(1, sizeof(*prov));
	FUZZ_CHECK(prov != NULL, "out of memory");
	err[0] = '\0';
	if (tcp_prov_read(prov, in, err, sizeof(err)) != 0)
		fuzz_check_msg(err);
	free(prov);

	err[0] = '\0';
	if (tcp_table_load(in, &t, err, sizeof(err)) != 0) {
		fuzz_check_msg(err);
		FUZZ_CHECK(strncmp(err, in, strlen(in)) == 0 && err[strlen(in)] == ':',
			   "error without path:line: [%s]", err);
		tcp_table_free(&t);	/* documented safe after -1 */
		return 0;
	}
	FUZZ_CHECK(t.ncols >= 1, "table with %d columns", t.ncols);
	for (int c = 0; c < t.ncols; c++)
		FUZZ_CHECK(tcp_table_col(&t, t.cols[c]) == c, "header [%s] not found at %d",
			   t.cols[c], c);
	for (int r = 0; r < t.nrows; r++)
		for (int c = 0; c < t.ncols; c++)
			FUZZ_CHECK(tcp_table_cell(&t, r, c) != NULL, "NULL cell %d,%d", r, c);
	FUZZ_CHECK(tcp_table_cell(&t, t.nrows, 0) == NULL && tcp_table_cell(&t, 0, t.ncols) == NULL,
		   "cell out of range is not NULL");

	/* write o read = id */
	tcp_csv_writer_t *w = tcp_csv_open(out, (const char *const *)t.cols, t.ncols, 0, err,
					   sizeof(err));
	FUZZ_CHECK(w != NULL, "cannot open writer: %s", err);
	FUZZ_CHECK(tcp_csv_write_rows(w, (const char *const *)t.cells, t.nrows) == 0, "write failed");
	FUZZ_CHECK(tcp_csv_close(w) == 0, "close failed");
	FUZZ_CHECK(tcp_table_load(out, &back, err, sizeof(err)) == 0,
		   "what the writer wrote does not read back: %s", err);
	FUZZ_CHECK(!back.torn_tail, "writer left a torn tail");
	same_tables(&t, &back, "write+read");
	tcp_table_free(&back);

	/* append reopen of the fuzzed file itself: torn tail cut, rows kept */
	w = tcp_csv_open(in, (const char *const *)t.cols, t.ncols, 1, err, sizeof(err));
	if (w) {
		FUZZ_CHECK(tcp_csv_close(w) == 0, "close failed");
		FUZZ_CHECK(tcp_table_load(in, &back, err, sizeof(err)) == 0,
			   "file reopened for append no longer reads: %s", err);
		FUZZ_CHECK(!back.torn_tail, "append reopen kept a torn tail");
		same_tables(&t, &back, "append reopen");
		tcp_table_free(&back);
	} else {
		fuzz_check_msg(err);
	}
	tcp_table_free(&t);
	return 0;
}
