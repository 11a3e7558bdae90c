/*
 * csvio.h
 *	RFC 4180 CSV in and out, through libcsv, for every file tcprobe writes
 *	(measurements.csv, provenance.csv) and every command that reads them
 *	(compare, report, --resume).
 *
 *	Reading: a whole file into a table of strings, columns selected by header
 *	name.  A torn LAST line (no trailing newline: the writer was killed mid
 *	write()) is dropped and flagged, never an error; anything else malformed
 *	is -1 with "path:line: what is wrong".  A path ending in .gz is inflated
 *	first (an archived run, docs/results.md): the same rules apply to its
 *	text.
 *
 *	Writing: a point's rows go out in ONE write() followed by fdatasync(), so a
 *	killed sweep leaves whole points.  Reopening for append checks the header
 *	and cuts a torn tail first.
 */
#ifndef TCP_CSVIO_H
#define TCP_CSVIO_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	int ncols;		/* columns in the header */
	char **cols;		/* ncols header names */
	int nrows;		/* data rows (header excluded, torn tail excluded) */
	char **cells;		/* nrows * ncols, row-major; "" for empty fields, never NULL */
	int torn_tail;		/* 1 when a last line without '\n' was dropped */
	char *store;		/* owns every string above; private to csvio.c */
} tcp_table_t;

/*
 * tcp_table_load()
 *	Read a whole CSV file (header + rows) into *t.  0 on success; -1 with
 *	"path:line: what is wrong" in err (missing file, empty file, ragged row,
 *	bad quoting, NUL bytes / binary, duplicate header name).  On -1, *t is
 *	left empty (tcp_table_free is still safe).
 */
int tcp_table_load(const char *path, tcp_table_t *t, char *err, size_t errlen);

/*
 * tcp_file_read()
 *	A whole file, inflated when its name ends in .gz, NUL-terminated
 *	(*len excludes the NUL); malloc'd, caller frees.  NULL with
 *	"path:1: what" in err.
 */
char *tcp_file_read(const char *path, size_t *len, char *err, size_t errlen);

/* A cell as a number: the whole field (trailing blanks allowed), NaN when
 * empty or not a number. */
double tcp_csv_num(const char *s);

/* A cell as a whole decimal integer: 0 with *v, -1 when empty or not one. */
int tcp_csv_long(const char *s, long *v);

/* printf into err (one line, "path:line: what"); returns -1, for `return tcp_errf(...)`. */
int tcp_errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Index of the column named `name`, -1 when absent. */
int tcp_table_col(const tcp_table_t *t, const char *name);

/* Cell of `row` (0-based data row) in column `name`; NULL when there is no
 * such column or row.  Empty fields are "". */
const char *tcp_table_get(const tcp_table_t *t, int row, const char *name);

/* Cell by indices; NULL when out of range. */
const char *tcp_table_cell(const tcp_table_t *t, int row, int col);

/* Free everything and zero *t. */
void tcp_table_free(tcp_table_t *t);

typedef struct tcp_csv_writer tcp_csv_writer_t;

/*
 * tcp_csv_open()
 *	Open `path` for writing rows of `ncols` cells under `header`.
 *	append == 0: create or truncate, write the header.
 *	append != 0: if the file exists and is non-empty, its header must equal
 *	`header` exactly (else NULL, "path:1: header mismatch ..."); a torn last
 *	line is cut off first.  A missing or empty file is created as for 0.
 *	NULL with the reason in err on failure.
 */
tcp_csv_writer_t *tcp_csv_open(const char *path, const char *const *header, int ncols,
			       int append, char *err, size_t errlen);

/*
 * tcp_csv_write_rows()
 *	Write nrows rows (cells[r * ncols + c]; NULL = empty field) in ONE
 *	write(), then fdatasync().  Fields with ',', '"', CR or LF (or leading
 *	or trailing spaces) are quoted, quotes doubled.  0 on success, -1 with
 *	errno set (a short write is undone by truncating back).
 */
int tcp_csv_write_rows(tcp_csv_writer_t *w, const char *const *cells, int nrows);

/* Rows written through this writer since open. */
long tcp_csv_rows_written(const tcp_csv_writer_t *w);

/* Close; 0 on success, -1 when the final sync/close failed. NULL is fine. */
int tcp_csv_close(tcp_csv_writer_t *w);

/*
 * tcp_csv_write_kv()
 *	Write a two-column `key,value` file (provenance.csv): header "key,value",
 *	then n rows.  Written to path.tmp and renamed over path, so a reader
 *	never sees half a file.  0 on success, -1 with the reason in err.
 */
int tcp_csv_write_kv(const char *path, const char *const *keys, const char *const *vals,
		     int n, char *err, size_t errlen);

/*
 * tcp_csv_quote()
 *	One field as it would be written (quoted when needed) into buf; returns
 *	buf, truncated to len-1 if too small.  For printers that emit CSV on stdout.
 */
char *tcp_csv_quote(const char *field, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* TCP_CSVIO_H */
