/*
 * csvio.c
 *	CSV reader (libcsv, strict) and crash-safe row writer.
 *
 *	The reader feeds libcsv one physical line at a time so that every record
 *	and every error knows its line number, and so that the byte offset where
 *	the last complete record ends is known: that offset is where a torn tail
 *	starts, for readers (drop it) and for append (cut it off).
 */
#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "harness/store/csvio.h"
#include "harness/store/infile.h"

struct tcp_csv_writer {
	int fd;
	int ncols;
	long rows;
};

/* A growable byte buffer (strings arena, output buffer). */
typedef struct {
	char *p;
	size_t len, cap;
	int oom;
} buf_t;

static int buf_reserve(buf_t *b, size_t more)
{
	if (b->oom)
		return -1;
	if (b->len + more <= b->cap)
		return 0;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < b->len + more)
		cap *= 2;
	char *p = realloc(b->p, cap);
	if (!p) {
		b->oom = 1;
		return -1;
	}
	b->p = p;
	b->cap = cap;
	return 0;
}

static void buf_add(buf_t *b, const void *s, size_t n)
{
	if (buf_reserve(b, n) == 0) {
		memcpy(b->p + b->len, s, n);
		b->len += n;
	}
}

int tcp_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

int tcp_csv_long(const char *s, long *v)
{
	char *end;

	if (!s || !*s)
		return -1;
	errno = 0;
	*v = strtol(s, &end, 10);
	return (*end || errno) ? -1 : 0;
}

double tcp_csv_num(const char *s)
{
	char *end;
	double v;

	if (!s || !*s)
		return NAN;
	errno = 0;
	v = strtod(s, &end);
	while (*end == ' ')
		end++;
	return (*end || errno) ? NAN : v;
}

/*
 * Parser state shared with the libcsv callbacks.  Field strings are appended,
 * NUL-terminated, to `arena`; `offs` holds their offsets (pointers are only
 * made at the end, as the arena moves while it grows).  `rec_first` is the
 * index in offs of the current record's first field.
 */
typedef struct {
	buf_t arena;
	size_t *offs;
	size_t noffs, capoffs;
	size_t rec_first;
	int ncols;		/* header width once the header is read, else -1 */
	int nrows;
	long line;		/* physical line being fed (1-based) */
	long rec_line;		/* line the current record started on */
	int rec_done;		/* a record ended in the current line */
	int bad;		/* ragged row seen: line and widths below */
	long bad_line;
	int bad_n;
	int oom;
} scan_t;

static void on_field(void *s, size_t n, void *data)
{
	scan_t *sc = data;

	if (sc->bad)
		return;
	if (sc->noffs == sc->capoffs) {
		size_t cap = sc->capoffs ? sc->capoffs * 2 : 1024;
		size_t *o = realloc(sc->offs, cap * sizeof(*o));
		if (!o) {
			sc->oom = 1;
			return;
		}
		sc->offs = o;
		sc->capoffs = cap;
	}
	sc->offs[sc->noffs++] = sc->arena.len;
	if (s && n)
		buf_add(&sc->arena, s, n);
	buf_add(&sc->arena, "", 1);
}

static void on_record(int c, void *data)
{
	scan_t *sc = data;
	int n = (int)(sc->noffs - sc->rec_first);

	(void)c;
	if (sc->bad)
		return;
	if (sc->ncols < 0) {
		sc->ncols = n;
	} else if (n != sc->ncols) {
		sc->bad = 1;
		sc->bad_line = sc->rec_line;
		sc->bad_n = n;
		return;
	} else {
		sc->nrows++;
	}
	sc->rec_first = sc->noffs;
	sc->rec_done = 1;
}

static int no_space(unsigned char c)
{
	(void)c;
	return 0;	/* keep spaces: a field reads back exactly as written */
}

/* The end of buf[0..len)'s last complete line (just past its '\n'; 0 when
 * none), and how many lines end there: only lines that end in '\n' count,
 * the rest is a torn tail. */
static size_t complete_lines_end(const char *buf, size_t len, long *nlines)
{
	size_t end = 0;

	*nlines = 0;
	for (size_t i = 0; i < len; i++)
		if (buf[i] == '\n') {
			end = i + 1;
			(*nlines)++;
		}
	return end;
}

/* buf[0..end) as text: no control byte but tab and CR.  -1 with
 * "path:line: ..." in err. */
static int check_text(const char *path, const char *buf, size_t end, char *err, size_t errlen)
{
	for (size_t i = 0, ln = 1; i < end; i++) {
		unsigned char c = (unsigned char)buf[i];
		if (c == '\n')
			ln++;
		else if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
			tcp_errf(err, errlen, "%s:%zu: control byte 0x%02x: binary data, not CSV",
			       path, ln, c);
			return -1;
		}
	}
	return 0;
}

/*
 * feed_lines()
 *	Hand buf[pos..end) to the parser p one line at a time, so that an
 *	error names its line and *complete_end follows the last complete
 *	record.  -1 with "path:line: ..." in err.
 */
static int feed_lines(const char *path, struct csv_parser *p, const char *buf, size_t pos, size_t end,
		      scan_t *sc, size_t *complete_end, char *err, size_t errlen)
{
	sc->line = 1;
	sc->rec_line = 1;
	while (pos < end) {
		const char *nl = memchr(buf + pos, '\n', end - pos);
		size_t n = (size_t)(nl - (buf + pos)) + 1;

		sc->rec_done = 0;
		if (csv_parse(p, buf + pos, n, on_field, on_record, sc) != n) {
			tcp_errf(err, errlen, "%s:%ld: malformed CSV (%s): a quote inside an unquoted "
			       "field or text after a closing quote", path, sc->line,
			       csv_strerror(csv_error(p)));
			return -1;
		}
		if (sc->oom || sc->arena.oom) {
			tcp_errf(err, errlen, "%s:%ld: out of memory", path, sc->line);
			return -1;
		}
		if (sc->bad) {
			tcp_errf(err, errlen, "%s:%ld: ragged row: %d fields, the header has %d",
			       path, sc->bad_line, sc->bad_n, sc->ncols);
			return -1;
		}
		pos += n;
		sc->line++;
		if (sc->rec_done) {
			*complete_end = pos;
			sc->rec_line = sc->line;
		}
	}
	return 0;
}

/*
 * scan_csv()
 *	Parse buf[0..len) as CSV.  On success fills *sc (fields of the header
 *	and of every complete record), *complete_end (offset just past the last
 *	complete record) and *torn (a partial last record without its newline).
 *	-1 with "path:line: ..." in err.
 */
static int scan_csv(const char *path, const char *buf, size_t len, scan_t *sc,
		    size_t *complete_end, int *torn, char *err, size_t errlen)
{
	struct csv_parser p;
	long nl_count;
	size_t end_last_nl = complete_lines_end(buf, len, &nl_count);

	memset(sc, 0, sizeof(*sc));
	sc->ncols = -1;
	*complete_end = 0;
	*torn = 0;

	if (len == 0) {
		tcp_errf(err, errlen, "%s:1: empty file, expected a header line", path);
		return -1;
	}
	if (check_text(path, buf, end_last_nl, err, errlen))
		return -1;
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
		tcp_errf(err, errlen, "%s:1: out of memory", path);
		return -1;
	}
	csv_set_space_func(&p, no_space);
	/* A UTF-8 byte order mark is not part of the first column's name. */
	size_t pos = end_last_nl >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	if (feed_lines(path, &p, buf, pos, end_last_nl, sc, complete_end, err, errlen))
		goto fail;
	if (end_last_nl < len) {
		/* Killed mid-write: the partial record is not handed to libcsv. */
		*torn = 1;
	} else if (*complete_end < end_last_nl &&
		   csv_fini(&p, on_field, on_record, sc) != 0) {
		tcp_errf(err, errlen, "%s:%ld: unterminated quoted field (the record runs to line %ld, "
		       "the end of the file)", path, sc->rec_line, nl_count);
		goto fail;
	}
	csv_free(&p);
	if (sc->ncols < 0) {
		tcp_errf(err, errlen, *torn ? "%s:1: no complete header line (torn write)"
					  : "%s:1: no header line", path);
		return -1;
	}
	return 0;
fail:
	csv_free(&p);
	return -1;
}

static void scan_free(scan_t *sc)
{
	free(sc->arena.p);
	free(sc->offs);
	memset(sc, 0, sizeof(*sc));
}

static int has_gz_suffix(const char *path)
{
	size_t n = strlen(path);
	return n > 3 && strcmp(path + n - 3, ".gz") == 0;
}

/* infile.h says "path: cannot read CSV: ..."; CSV errors are "path:1: ...". */
static void infile_err(const char *path, const char *why, char *err, size_t errlen)
{
	size_t pl = strlen(path);
	tcp_errf(err, errlen, "%s:1:%s", path,
		 strncmp(why, path, pl) == 0 && why[pl] == ':' ? why + pl + 1 : why);
}

/* A .gz file inflated (zlib): an archived run's CSV (docs/results.md).
 * Opened through infile.h like a plain one: a FIFO is refused unread. */
static int slurp_gz(const char *path, buf_t *b, char *err, size_t errlen)
{
	char chunk[65536], why[1024];
	int n, zerr;
	int fd = tcp_infile_open(path, "CSV", 0, why, sizeof(why));

	if (fd < 0) {
		infile_err(path, why, err, errlen);
		return -1;
	}
	gzFile z = (errno = 0, gzdopen(fd, "rb"));
	if (!z) {
		tcp_errf(err, errlen, "%s:1: cannot open: %s", path, errno ? strerror(errno) : "out of memory");
		close(fd);
		return -1;
	}
	while ((n = gzread(z, chunk, sizeof(chunk))) > 0)
		buf_add(b, chunk, (size_t)n);
	const char *msg = gzerror(z, &zerr);
	/* a cut archive is corruption, not a killed writer: never read as a torn tail */
	if (n < 0 || zerr != Z_OK || b->oom) {
		tcp_errf(err, errlen, "%s:1: cannot read: %s", path, b->oom ? "out of memory" :
		       zerr == Z_BUF_ERROR ? "truncated gzip stream" : msg);
		gzclose(z);
		return -1;
	}
	gzclose(z);
	return 0;
}

/*
 * tcp_file_read()
 *	A whole file, any size (soak and Blackwell runs are larger than a
 *	Hopper run's 4.8 MB), inflated when its name ends in .gz; a regular
 *	file only: a FIFO or /dev/zero named measurements.csv is refused
 *	unread (infile.h).  NULL with "path:1: ..." in err.
 */
char *tcp_file_read(const char *path, size_t *len, char *err, size_t errlen)
{
	buf_t b = { 0 };

	if (!has_gz_suffix(path)) {
		char why[1024];
		char *buf = tcp_infile_read(path, "CSV", 0, 0, len, why, sizeof(why));
		if (!buf)
			infile_err(path, why, err, errlen);
		return buf;
	}
	if (slurp_gz(path, &b, err, errlen)) {
		free(b.p);
		return NULL;
	}
	buf_add(&b, "", 1);	/* so an empty file still gives a buffer */
	if (b.oom) {
		tcp_errf(err, errlen, "%s:1: cannot read: out of memory", path);
		free(b.p);
		return NULL;
	}
	*len = b.len - 1;
	return b.p;
}

/*
 * tcp_table_load()
 *	slurp + scan, then turn arena offsets into the table's pointers.
 */
int tcp_table_load(const char *path, tcp_table_t *t, char *err, size_t errlen)
{
	scan_t sc;
	size_t len, complete_end;
	int torn;
	char *buf;

	memset(t, 0, sizeof(*t));
	if (!path) {
		tcp_errf(err, errlen, "(null):1: no path");
		return -1;
	}
	buf = tcp_file_read(path, &len, err, errlen);
	if (!buf)
		return -1;
	if (scan_csv(path, buf, len, &sc, &complete_end, &torn, err, errlen) != 0) {
		free(buf);
		scan_free(&sc);
		return -1;
	}
	free(buf);

	size_t ncells = (size_t)sc.nrows * (size_t)sc.ncols;
	t->cols = malloc(((size_t)sc.ncols + ncells + 1) * sizeof(char *));
	if (!t->cols) {
		tcp_errf(err, errlen, "%s:1: out of memory", path);
		scan_free(&sc);
		return -1;
	}
	t->cells = t->cols + sc.ncols;
	t->store = sc.arena.p;
	for (size_t i = 0; i < (size_t)sc.ncols + ncells; i++)
		t->cols[i] = t->store + sc.offs[i];
	t->ncols = sc.ncols;
	t->nrows = sc.nrows;
	t->torn_tail = torn;
	free(sc.offs);

	for (int i = 0; i < t->ncols; i++)
		for (int j = 0; j < i; j++)
			if (strcmp(t->cols[i], t->cols[j]) == 0) {
				char name[72];	/* one line: a quoted name may hold a newline */
				size_t n = 0;
				for (const char *c = t->cols[i]; *c && n + 1 < sizeof(name); c++)
					name[n++] = (unsigned char)*c < 0x20 ? '?' : *c;
				name[n] = 0;
				tcp_errf(err, errlen, "%s:1: duplicate column name \"%s\" (columns %d and %d)",
				       path, name, j + 1, i + 1);
				tcp_table_free(t);
				return -1;
			}
	return 0;
}

int tcp_table_col(const tcp_table_t *t, const char *name)
{
	if (!t || !name)
		return -1;
	for (int i = 0; i < t->ncols; i++)
		if (strcmp(t->cols[i], name) == 0)
			return i;
	return -1;
}

const char *tcp_table_cell(const tcp_table_t *t, int row, int col)
{
	if (!t || row < 0 || row >= t->nrows || col < 0 || col >= t->ncols)
		return NULL;
	return t->cells[(size_t)row * (size_t)t->ncols + (size_t)col];
}

const char *tcp_table_get(const tcp_table_t *t, int row, const char *name)
{
	return tcp_table_cell(t, row, tcp_table_col(t, name));
}

void tcp_table_free(tcp_table_t *t)
{
	if (!t)
		return;
	free(t->cols);		/* cells share this allocation */
	free(t->store);
	memset(t, 0, sizeof(*t));
}

/* ---- writer ------------------------------------------------------------ */

static int needs_quotes(const char *s)
{
	size_t n = strlen(s);

	if (n == 0)
		return 0;
	/* Leading/trailing blanks: many readers trim them unless quoted. */
	if (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t')
		return 1;
	/* A leading UTF-8 BOM: as the file's first bytes, readers drop it (fuzz-csv). */
	if (n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		return 1;
	return strpbrk(s, ",\"\r\n") != NULL;
}

/* Append one field, quoted per RFC 4180 when needed (libcsv doubles quotes). */
static void add_field(buf_t *b, const char *s)
{
	if (!s || !*s)
		return;
	size_t n = strlen(s);
	if (!needs_quotes(s)) {
		buf_add(b, s, n);
		return;
	}
	size_t need = csv_write(NULL, 0, s, n);
	if (buf_reserve(b, need) == 0)
		b->len += csv_write(b->p + b->len, need, s, n);
}

static void add_row(buf_t *b, const char *const *cells, int ncols)
{
	/* one empty field alone would be a blank line, which readers skip (fuzz-csv) */
	if (ncols == 1 && (!cells[0] || !cells[0][0])) {
		buf_add(b, "\"\"\n", 3);
		return;
	}
	for (int c = 0; c < ncols; c++) {
		if (c)
			buf_add(b, ",", 1);
		add_field(b, cells[c]);
	}
	buf_add(b, "\n", 1);
}

char *tcp_csv_quote(const char *field, char *buf, size_t len)
{
	buf_t b = { 0 };

	if (!buf || !len)
		return buf;
	add_field(&b, field ? field : "");
	size_t n = b.len < len - 1 ? b.len : len - 1;
	if (n)
		memcpy(buf, b.p, n);
	buf[n] = '\0';
	free(b.p);
	return buf;
}

/* Write all of p[0..n) at the end of fd, or nothing: a short write is cut back. */
static int write_whole(int fd, const char *p, size_t n)
{
	off_t start = lseek(fd, 0, SEEK_END);
	size_t done = 0;

	if (start < 0)
		return -1;
	while (done < n) {
		ssize_t w = write(fd, p + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : ENOSPC;
			if (ftruncate(fd, start) != 0) {
				/* nothing more to do: report the write error */
			}
			errno = e;
			return -1;
		}
		done += (size_t)w;
	}
	return fdatasync(fd);
}

/*
 * check_existing()
 *	For append: the file's header must equal `header`; returns the offset to
 *	cut to (end of the last complete record, 0 when not even the header is
 *	complete), or -1 with err.
 */
static off_t check_existing(const char *path, const char *const *header, int ncols,
			    char *err, size_t errlen)
{
	size_t len, complete_end;
	int torn;
	scan_t sc;
	char *buf = tcp_file_read(path, &len, err, errlen);

	if (!buf)
		return -1;
	if (len == 0) {
		free(buf);
		return 0;
	}
	if (scan_csv(path, buf, len, &sc, &complete_end, &torn, err, errlen) != 0) {
		free(buf);
		scan_free(&sc);
		/* torn is only set on failure when not even the header line is
		 * complete: such a file is started afresh */
		return torn ? 0 : -1;
	}
	free(buf);
	int same = sc.ncols == ncols;
	for (int c = 0; same && c < ncols; c++)
		same = strcmp(sc.arena.p + sc.offs[c], header[c] ? header[c] : "") == 0;
	if (!same) {
		tcp_errf(err, errlen, "%s:1: header mismatch: the file has %d columns (first \"%s\"), "
		       "this run writes %d (first \"%s\"); use a new results directory",
		       path, sc.ncols, sc.ncols > 0 ? sc.arena.p + sc.offs[0] : "",
		       ncols, ncols > 0 && header[0] ? header[0] : "");
		scan_free(&sc);
		return -1;
	}
	scan_free(&sc);
	return (off_t)complete_end;
}

tcp_csv_writer_t *tcp_csv_open(const char *path, const char *const *header, int ncols,
			       int append, char *err, size_t errlen)
{
	tcp_csv_writer_t *w;
	struct stat st = { 0 };
	off_t keep = 0;
	int fd;

	if (!path || !header || ncols <= 0) {
		tcp_errf(err, errlen, "%s:1: no header to write", path ? path : "(null)");
		errno = EINVAL;
		return NULL;
	}
	if (append && stat(path, &st) == 0 && st.st_size > 0) {
		keep = check_existing(path, header, ncols, err, errlen);
		if (keep < 0)
			return NULL;
	}
	/* O_NONBLOCK + fstat: a FIFO in the file's place fails here instead of
	 * blocking the open until some reader appears */
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (keep ? 0 : O_TRUNC), 0644);
	if (fd < 0) {
		tcp_errf(err, errlen, "%s:1: cannot open for writing: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		tcp_errf(err, errlen, "%s:1: cannot write CSV: got %s, expected a regular file", path,
		       tcp_infile_kind(st.st_mode));
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (keep && ftruncate(fd, keep) != 0) {
		tcp_errf(err, errlen, "%s:1: cannot cut the torn tail: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!keep) {
		buf_t b = { 0 };
		add_row(&b, header, ncols);
		if (b.oom || write_whole(fd, b.p, b.len) != 0) {
			tcp_errf(err, errlen, "%s:1: cannot write the header: %s", path,
			       b.oom ? "out of memory" : strerror(errno));
			free(b.p);
			close(fd);
			return NULL;
		}
		free(b.p);
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		tcp_errf(err, errlen, "%s:1: out of memory", path);
		close(fd);
		return NULL;
	}
	w->fd = fd;
	w->ncols = ncols;
	return w;
}

int tcp_csv_write_rows(tcp_csv_writer_t *w, const char *const *cells, int nrows)
{
	buf_t b = { 0 };
	int rc;

	if (!w || nrows < 0 || (nrows > 0 && !cells)) {
		errno = EINVAL;
		return -1;
	}
	if (nrows == 0)
		return 0;
	for (int r = 0; r < nrows; r++)
		add_row(&b, cells + (size_t)r * (size_t)w->ncols, w->ncols);
	if (b.oom) {
		free(b.p);
		errno = ENOMEM;
		return -1;
	}
	rc = write_whole(w->fd, b.p, b.len);
	free(b.p);
	if (rc == 0)
		w->rows += nrows;
	return rc;
}

long tcp_csv_rows_written(const tcp_csv_writer_t *w)
{
	return w ? w->rows : 0;
}

int tcp_csv_close(tcp_csv_writer_t *w)
{
	int rc = 0;

	if (!w)
		return 0;
	if (fsync(w->fd) != 0)
		rc = -1;
	if (close(w->fd) != 0)
		rc = -1;
	free(w);
	return rc;
}

/*
 * tcp_csv_write_kv()
 *	key,value file through a temporary and rename(), so that it is whole.
 */
int tcp_csv_write_kv(const char *path, const char *const *keys, const char *const *vals,
		     int n, char *err, size_t errlen)
{
	static const char *const header[] = { "key", "value" };
	char tmp[4096];
	tcp_csv_writer_t *w;
	const char **cells;
	int rc;

	if (!path || n < 0 || (n > 0 && (!keys || !vals))) {
		tcp_errf(err, errlen, "%s:1: bad arguments", path ? path : "(null)");
		return -1;
	}
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp)) {
		tcp_errf(err, errlen, "%s:1: path too long", path);
		return -1;
	}
	cells = malloc(((size_t)n * 2 + 1) * sizeof(*cells));
	if (!cells) {
		tcp_errf(err, errlen, "%s:1: out of memory", path);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		cells[2 * i] = keys[i];
		cells[2 * i + 1] = vals[i];
	}
	w = tcp_csv_open(tmp, header, 2, 0, err, errlen);
	if (!w) {	/* e.g. the header did not fit on a full disk: leave no .tmp */
		free(cells);
		unlink(tmp);
		return -1;
	}
	rc = tcp_csv_write_rows(w, cells, n);
	if (rc != 0)
		tcp_errf(err, errlen, "%s:1: cannot write: %s", tmp, strerror(errno));
	free(cells);
	if (tcp_csv_close(w) != 0 && rc == 0) {
		tcp_errf(err, errlen, "%s:1: cannot close: %s", tmp, strerror(errno));
		rc = -1;
	}
	if (rc == 0 && rename(tmp, path) != 0) {
		tcp_errf(err, errlen, "%s:1: cannot rename %s over it: %s", path, tmp, strerror(errno));
		rc = -1;
	}
	if (rc != 0)
		unlink(tmp);
	return rc;
}
