/*
 * rows.h
 *	measurements.csv's writer: the header (the fixed columns of columns.h,
 *	then the axis columns) and rows placed by column id and axis name, the
 *	rows of one call in one write (csvio.h: flushed, a short write undone).
 *	The sweep writes every run through it (harness/sweep/supervisor-rows.c),
 *	and the tests build their runs through it, so that the column order is
 *	spelled in one place.
 */
#ifndef TCP_ROWS_H
#define TCP_ROWS_H

#include <stddef.h>

#include "harness/store/columns.h"
#include "probes/common/probe.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tcp_rows tcp_rows_t;

/* One row: cells by TCP_COL_* id (NULL = empty) and the point's axes, whose
 * values go into the axis columns of the same names (an axis without a
 * column is not written: open with every axis the rows carry). */
typedef struct {
	const char *c[TCP_NCOLS];
	int naxes;
	const char *an[TCP_MAX_AXES], *av[TCP_MAX_AXES];
} tcp_row_t;

/*
 * tcp_rows_open()
 *	Open path for rows whose axis columns are axcols[0..naxcols), in that
 *	order (the sweep: the union of its probes' axis names, sorted).  append
 *	as tcp_csv_open (an existing file's header must be this one).  NULL with
 *	the reason in err.
 */
tcp_rows_t *tcp_rows_open(const char *path, const char *const *axcols, int naxcols, int append, char *err,
			  size_t len);
/* Write rows[0..n) in one write.  0, or -1 with errno set. */
int tcp_rows_write(tcp_rows_t *w, const tcp_row_t *rows, int n);
/* Close (and free) w; 0, or -1 with errno set when the file did not close. */
int tcp_rows_close(tcp_rows_t *w);

/* The axes of key "name=value;name=value" into r (pointers into buf, which
 * must outlive the row); the naxes it holds. */
int tcp_row_axes_from_key(tcp_row_t *r, const char *key, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* TCP_ROWS_H */
