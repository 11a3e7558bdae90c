/*
 * rows.c
 *	measurements.csv's header and rows by column id (rows.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness/store/csvio.h"
#include "harness/store/rows.h"

struct tcp_rows {
	tcp_csv_writer_t *csv;
	int naxcols, ncols;
	const char **header;	/* ncols: the fixed columns, then the axis columns */
	char *names;		/* the axis column names' storage */
};

tcp_rows_t *tcp_rows_open(const char *path, const char *const *axcols, int naxcols, int append, char *err,
			  size_t len)
{
	tcp_rows_t *w = calloc(1, sizeof(*w));
	size_t nlen = 1;

	for (int j = 0; j < naxcols; j++)
		nlen += strlen(axcols[j]) + 1;
	if (!w || !(w->header = calloc((size_t)(TCP_NCOLS + naxcols), sizeof(*w->header))) ||
	    !(w->names = malloc(nlen))) {
		tcp_errf(err, len, "%s: out of memory", path);
		goto fail;
	}
	w->naxcols = naxcols;
	w->ncols = TCP_NCOLS + naxcols;
	for (int i = 0; i < TCP_NCOLS; i++)
		w->header[i] = tcp_columns[i].name;
	char *p = w->names;
	for (int j = 0; j < naxcols; j++) {
		size_t l = strlen(axcols[j]) + 1;
		memcpy(p, axcols[j], l);
		w->header[TCP_NCOLS + j] = p;
		p += l;
	}
	if (!(w->csv = tcp_csv_open(path, w->header, w->ncols, append, err, len)))
		goto fail;
	return w;
fail:
	if (w) {
		free(w->header);
		free(w->names);
		free(w);
	}
	return NULL;
}

int tcp_rows_write(tcp_rows_t *w, const tcp_row_t *rows, int n)
{
	const char **cells = calloc((size_t)n * (size_t)w->ncols + 1, sizeof(*cells));

	if (!cells) {
		errno = ENOMEM;
		return -1;
	}
	for (int r = 0; r < n; r++) {
		const char **c = cells + (size_t)r * (size_t)w->ncols;
		memcpy(c, rows[r].c, sizeof(rows[r].c));
		for (int a = 0; a < rows[r].naxes; a++)
			for (int j = 0; j < w->naxcols; j++)
				if (!strcmp(w->header[TCP_NCOLS + j], rows[r].an[a]))
					c[TCP_NCOLS + j] = rows[r].av[a];
	}
	int rc = tcp_csv_write_rows(w->csv, cells, n);
	free(cells);
	return rc;
}

int tcp_rows_close(tcp_rows_t *w)
{
	int rc = 0;

	if (!w)
		return 0;
	rc = tcp_csv_close(w->csv);
	free(w->header);
	free(w->names);
	free(w);
	return rc;
}

int tcp_row_axes_from_key(tcp_row_t *r, const char *key, char *buf, size_t len)
{
	char *s, *save = NULL;

	r->naxes = 0;
	if (snprintf(buf, len, "%s", key ? key : "") >= (int)len)
		return 0;
	for (s = strtok_r(buf, ";", &save); s && r->naxes < TCP_MAX_AXES; s = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(s, '=');
		if (!eq)
			continue;
		*eq = 0;
		r->an[r->naxes] = s;
		r->av[r->naxes++] = eq + 1;
	}
	return r->naxes;
}
