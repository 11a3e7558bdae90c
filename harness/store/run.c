/*
 * run.c
 *	tcp_run_open(): a run directory into the typed run of run.h.  Order of
 *	the file: the schema versions this build reads, row typing and the
 *	strict checks, grouping rows into points, provenance, metric roles
 *	(metrics.csv), plan, the open itself, accessors, the --resume rewrite.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/store/describe.h"
#include "harness/store/run.h"

/*
 * Schema versions this binary reads: the columns a measurements.csv of that
 * version must have.  A new version adds a line (and keeps the old ones, so
 * results written by older builds still read); a column it adds that a
 * reader needs typed gets a field in tcp_run_row_t, filled in type_row().
 */
static const char *const req_v1[] = { "schema", "probe", "axes", "metric", "unit", "median", "status", NULL };
static const struct {
	int version;
	const char *const *required;
} schemas[] = {
	{ 1, req_v1 },
	{ 2, req_v1 },	/* v2 adds columns (docs/results.md "version 2"), requires the same */
	{ 3, req_v1 },	/* v3 adds the point's description and gives `arch` one meaning
			 * (docs/results.md "version 3"); older rows get both in describe_points() */
};

static const char *const *schema_required(int version)
{
	for (size_t i = 0; i < sizeof(schemas) / sizeof(schemas[0]); i++)
		if (schemas[i].version == version && version <= TCP_SCHEMA_VERSION)
			return schemas[i].required;
	return NULL;
}

/* A whole-string finite number; 0 on success. */
static int parse_num(const char *s, double *v)
{
	*v = tcp_csv_num(s);
	return isfinite(*v) ? 0 : -1;
}


static int status_parse(const char *s)
{
	for (int i = 0; i < TCP_NSTATUS; i++)
		if (s && !strcmp(s, tcp_status_name((tcp_status_t)i)))
			return i;
	return -1;
}

/* Cell of a column index, "" when the column is absent. */
static const char *cell(const tcp_table_t *t, int row, int col)
{
	return col >= 0 ? tcp_table_cell(t, row, col) : "";
}

/* ------------------------------------------------------------------ rows */

/* Column indices of the typed columns, -1 when absent. */
struct cols {
	int schema, probe, arch, axes, metric, unit, status, reason, point;
	int median, min, max, spread, clock, throttle, contended;
};

static void cols_find(const tcp_table_t *t, struct cols *c)
{
	c->schema = tcp_table_col(t, TCP_COL_NAME(schema));
	c->probe = tcp_table_col(t, TCP_COL_NAME(probe));
	c->arch = tcp_table_col(t, TCP_COL_NAME(arch));
	c->axes = tcp_table_col(t, TCP_COL_NAME(axes));
	c->metric = tcp_table_col(t, TCP_COL_NAME(metric));
	c->unit = tcp_table_col(t, TCP_COL_NAME(unit));
	c->status = tcp_table_col(t, TCP_COL_NAME(status));
	c->reason = tcp_table_col(t, TCP_COL_NAME(reason));
	c->point = tcp_table_col(t, TCP_COL_NAME(point));
	c->median = tcp_table_col(t, TCP_COL_NAME(median));
	c->min = tcp_table_col(t, TCP_COL_NAME(min));
	c->max = tcp_table_col(t, TCP_COL_NAME(max));
	c->spread = tcp_table_col(t, TCP_COL_NAME(spread_pct));
	c->clock = tcp_table_col(t, TCP_COL_NAME(sm_clock_mhz));
	c->throttle = tcp_table_col(t, TCP_COL_NAME(throttle));
	c->contended = tcp_table_col(t, TCP_COL_NAME(contended));
}

/* The cells of `name` of a point (its first row), "" when the column is absent. */
static const char *point_cell(const tcp_run_t *r, const tcp_run_point_t *p, const char *name)
{
	int col = tcp_table_col(&r->meas, name);

	return col >= 0 && p->nm ? tcp_table_cell(&r->meas, p->m[0]->line - 2, col) : "";
}

/*
 *  describe_points()
 *	Each point's description (describe.h): a version 3 run's own columns;
 *	for an older run (no `family` column), derived here once from what it
 *	holds: its `arch` cell as the probe's targets and the one target it ran
 *	on derived from it, the family by probe name, the kind and types from
 *	the axes, no FLOP per run.
 */
static void describe_points(tcp_run_t *r)
{
	int v3 = tcp_table_col(&r->meas, TCP_COL_NAME(family)) >= 0;
	const char *cc = v3 ? NULL : tcp_run_prov(r, "compute_capability");

	for (int i = 0; i < r->npoints; i++) {
		tcp_run_point_t *p = &r->points[i];
		tcp_point_desc_t d = { .family = "" };
		tcp_probe_info_t pi;
		if (v3) {
			/* without probes.csv, the one target the point ran on is all it says */
			p->targets = tcp_probes_find(&r->pfile, p->probe, &pi) ? p->arch ? p->arch : "" : pi.targets;
			d.family = point_cell(r, p, TCP_COL_NAME(family));
			d.mma_kind = point_cell(r, p, TCP_COL_NAME(mma_kind));
			d.a_type = point_cell(r, p, TCP_COL_NAME(a_type));
			d.b_type = point_cell(r, p, TCP_COL_NAME(b_type));
			d.acc_type = point_cell(r, p, TCP_COL_NAME(acc_type));
			p->sparse = !strcmp(point_cell(r, p, TCP_COL_NAME(mma_sparse)), "1");
			p->flop_per_run = tcp_csv_num(point_cell(r, p, TCP_COL_NAME(flop_per_run)));
		} else {
			p->targets = p->arch ? p->arch : "";	/* what `arch` meant then */
			d.family = tcp_probes_find(NULL, p->probe, &pi) ? "" : pi.family;
			tcp_describe_axes(p->naxes, p->an, p->av, &d);
			p->arch = tcp_describe_old_arch(p->arch, p->probe, cc);
			p->sparse = d.sparse == 1;
			p->flop_per_run = NAN;
		}
		p->family = d.family;
		p->mma_kind = d.mma_kind;
		p->a_type = d.a_type;
		p->b_type = d.b_type;
		p->acc_type = d.acc_type;
		p->gen = tcp_describe_gen(p->arch);
	}
	for (int i = 0; i < r->nrows; i++)	/* a row says what its point says */
		r->rows[i].arch = r->points[r->rows[i].point].arch;
}

static void type_row(const tcp_table_t *t, const struct cols *c, int i, tcp_run_row_t *w)
{
	long sv;

	w->probe = cell(t, i, c->probe);
	w->arch = c->arch >= 0 ? tcp_table_cell(t, i, c->arch) : NULL;
	w->axes = cell(t, i, c->axes);
	w->metric = tcp_meta_current_name(cell(t, i, c->metric));
	w->unit = cell(t, i, c->unit);
	w->status_word = cell(t, i, c->status);
	w->status = status_parse(w->status_word);
	w->reason = cell(t, i, c->reason);
	w->id = cell(t, i, c->point);
	w->median_s = cell(t, i, c->median);
	w->median = tcp_csv_num(w->median_s);
	w->min = tcp_csv_num(cell(t, i, c->min));
	w->max = tcp_csv_num(cell(t, i, c->max));
	w->spread_pct = tcp_csv_num(cell(t, i, c->spread));
	w->clock_mhz = tcp_csv_num(cell(t, i, c->clock));
	w->throttle = cell(t, i, c->throttle);
	const char *ct = cell(t, i, c->contended);
	w->contended = !strcmp(ct, "1") ? 1 : !strcmp(ct, "0") ? 0 : -1;
	w->schema = c->schema >= 0 && tcp_csv_long(cell(t, i, c->schema), &sv) == 0 && sv > 0 &&
		    sv < 1000000 ? (int)sv : 0;
	w->line = i + 2;	/* header = line 1; tcprobe's writers never put a newline in a field */
	w->point = -1;
}

/*
 *  check_row()
 *	TCP_RUN_STRICT: the row holds what a join needs; -1 with path:line.
 *	An emulated run's OK rows may have an empty median (the emulator's times
 *	are not written: compare joins emulated runs on status alone).
 */
static int check_row(const tcp_run_t *r, const tcp_run_row_t *w, int emulated, char *err, size_t len)
{
	const char *path = r->meas_path, *s = tcp_run_cell(r, w->line - 2, "schema");
	long sv;

	if (tcp_csv_long(s, &sv) != 0 || sv < 1)
		return tcp_errf(err, len, "%s:%d: schema: got '%s', expected an integer 1..%d",
			    path, w->line, s, TCP_SCHEMA_VERSION);
	if (sv > TCP_SCHEMA_VERSION)
		return tcp_errf(err, len, "%s:%d: schema version %ld is newer than this tcprobe reads (1..%d); "
			    "read it with a tcprobe built from a newer checkout",
			    path, w->line, sv, TCP_SCHEMA_VERSION);
	if (sv != r->schema)
		return tcp_errf(err, len, "%s:%d: schema %ld differs from schema %d on line 2 "
			    "(rows from two tcprobe versions in one file)", path, w->line, sv, r->schema);
	if (!*w->probe || !*w->metric)
		return tcp_errf(err, len, "%s:%d: %s is empty, expected a name", path, w->line,
			    *w->probe ? "metric" : "probe");
	if (!*w->status_word)
		return tcp_errf(err, len, "%s:%d: status is empty, expected one of OK, FAILED, "
			    "TIMEOUT, INVALID, SKIPPED, UNSUPPORTED, BLOCKED", path, w->line);
	if (strcmp(w->status_word, "OK") != 0)
		return 0;	/* values are empty (or meaningless) unless OK */
	if (emulated)
		return 0;	/* an emulated run writes no times: its OK rows join on status alone */
	if (!isfinite(w->median))
		return tcp_errf(err, len, "%s:%d: median: got '%s', expected a number (status is OK)",
			    path, w->line, w->median_s);
	s = tcp_run_cell(r, w->line - 2, "spread_pct");
	double sp;
	if (s && *s && (parse_num(s, &sp) != 0 || sp < 0))
		return tcp_errf(err, len, "%s:%d: spread_pct: got '%s', expected a number >= 0",
			    path, w->line, s);
	return 0;
}

/* The schema of the file (row 2) and its required columns. */
static int check_schema(tcp_run_t *r, int flags, char *err, size_t len)
{
	const char *path = r->meas_path;
	const char *const *need;

	if (tcp_table_col(&r->meas, "schema") < 0) {
		if (flags & TCP_RUN_STRICT)
			return tcp_errf(err, len, "%s:1: missing required column 'schema'", path);
		need = req_v1 + 1;	/* a foreign or hand-made file: the v1 columns but schema */
	} else if (r->meas.nrows == 0) {
		need = req_v1;		/* header only: nothing to type */
	} else {
		const char *s0 = tcp_run_cell(r, 0, "schema");
		long sv;
		if (tcp_csv_long(s0, &sv) != 0 || sv < 1) {
			if (flags & TCP_RUN_STRICT)
				return tcp_errf(err, len, "%s:2: schema: got '%s', expected an integer 1..%d",
					    path, s0, TCP_SCHEMA_VERSION);
			sv = 1;
		}
		if (sv > TCP_SCHEMA_VERSION && (flags & TCP_RUN_STRICT))
			return tcp_errf(err, len, "%s:2: schema version %ld is newer than this tcprobe reads (1..%d); "
				    "read it with a tcprobe built from a newer checkout",
				    path, sv, TCP_SCHEMA_VERSION);
		r->schema = (int)(sv < 1000000 ? sv : 0);
		need = schema_required(r->schema);
		if (!need)
			need = req_v1;	/* lenient: a newer file read as far as it goes */
	}
	for (const char *const *c = need; *c; c++)
		if (tcp_table_col(&r->meas, *c) < 0)
			return tcp_errf(err, len, "%s:1: missing required column '%s' (schema %d)", path, *c,
				    r->schema ? r->schema : 1);
	if ((flags & TCP_RUN_NEED_POINT) && tcp_table_col(&r->meas, "point") < 0)
		return tcp_errf(err, len, "%s:1: missing required column 'point' (schema %d)", path,
			    r->schema ? r->schema : 1);
	return 0;
}

/* ---------------------------------------------------------------- points */

static size_t hash_key(const char *probe, const char *axes)
{
	size_t h = 1469598103934665603ull;

	for (const char *s = probe; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	h = (h ^ 0x1f) * 1099511628211ull;
	for (const char *s = axes; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* Index of the point (probe, axes), added when new; -1 out of memory. */
static int point_find_or_add(tcp_run_t *r, const tcp_run_row_t *w)
{
	size_t h = hash_key(w->probe, w->axes) & (r->hsize - 1);

	for (;; h = (h + 1) & (r->hsize - 1)) {
		int i = r->hash[h];
		if (i < 0)
			break;
		if (!strcmp(r->points[i].probe, w->probe) && !strcmp(r->points[i].axes, w->axes))
			return i;
	}
	r->points[r->npoints] = (tcp_run_point_t){ .probe = w->probe, .axes = w->axes, .arch = w->arch,
						   .id = w->id, .reason = w->reason, .status = w->status,
						   .clock_mhz = NAN };
	r->hash[h] = r->npoints;
	for (int k = 0; k < r->nprobes; k++)
		if (!strcmp(r->probes[k], w->probe))
			return r->npoints++;
	r->probes[r->nprobes++] = w->probe;
	return r->npoints++;
}

/* Split "a=1;b=x" into the point's axis names and values. */
static int point_split_axes(tcp_run_point_t *p)
{
	char *s, *save = NULL;

	if (!(p->axbuf = strdup(p->axes)))
		return -1;
	for (s = strtok_r(p->axbuf, ";", &save); s && p->naxes < TCP_MAX_AXES * 2;
	     s = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(s, '=');
		if (!eq)
			continue;
		*eq = 0;
		p->an[p->naxes] = s;
		p->av[p->naxes++] = eq + 1;
	}
	return 0;
}

/* Rows into points: per point its rows in file order, one allocation for all. */
static int group_points(tcp_run_t *r)
{
	int n = r->nrows;

	r->hsize = 64;
	while (r->hsize < (size_t)n * 2 + 2)
		r->hsize <<= 1;
	r->hash = malloc(r->hsize * sizeof(*r->hash));
	r->points = calloc((size_t)n + 1, sizeof(*r->points));
	r->probes = calloc((size_t)n + 1, sizeof(*r->probes));
	r->mstore = calloc((size_t)n + 1, sizeof(*r->mstore));
	int *fill = calloc((size_t)n + 1, sizeof(*fill));
	if (!r->hash || !r->points || !r->probes || !r->mstore || !fill) {
		free(fill);
		return -1;
	}
	memset(r->hash, 0xff, r->hsize * sizeof(*r->hash));
	for (int i = 0; i < n; i++) {
		tcp_run_row_t *w = &r->rows[i];
		if ((w->point = point_find_or_add(r, w)) < 0) {
			free(fill);
			return -1;
		}
		tcp_run_point_t *p = &r->points[w->point];
		p->nm++;
		if (isnan(p->clock_mhz))
			p->clock_mhz = w->clock_mhz;
	}
	int off = 0;
	for (int i = 0; i < r->npoints; i++) {
		fill[i] = off;
		r->points[i].m = r->mstore + off;
		off += r->points[i].nm;
		if (point_split_axes(&r->points[i])) {
			free(fill);
			return -1;
		}
	}
	for (int i = 0; i < n; i++)
		r->mstore[fill[r->rows[i].point]++] = &r->rows[i];
	free(fill);
	return 0;
}

/* ------------------------------------------------------ provenance, plan */

/*
 *  load_prov()
 *	provenance.csv is optional (a run from a foreign tool may lack it).
 *	Strict: well formed when present, and of the rows' schema version.
 */
static int load_prov(tcp_run_t *r, int flags, char *err, size_t len)
{
	char path[1100], perr[512];

	snprintf(path, sizeof(path), "%s/provenance.csv", r->dir);
	if (access(path, F_OK) != 0)
		return 0;
	if (!(flags & TCP_RUN_STRICT)) {
		if (tcp_table_load(path, &r->prov, perr, sizeof(perr)) == 0 &&
		    tcp_table_col(&r->prov, "key") >= 0 && tcp_table_col(&r->prov, "value") >= 0)
			r->has_prov = 1, r->prov_torn = r->prov.torn_tail;
		else
			tcp_table_free(&r->prov);
		return 0;
	}
	if (tcp_table_load(path, &r->prov, err, len) != 0)
		return -1;
	if (tcp_table_col(&r->prov, "key") < 0 || tcp_table_col(&r->prov, "value") < 0)
		return tcp_errf(err, len, "%s:1: missing required column '%s' (expected header key,value)",
			    path, tcp_table_col(&r->prov, "key") < 0 ? "key" : "value");
	r->has_prov = 1;
	r->prov_torn = r->prov.torn_tail;
	long v;
	const char *sv = tcp_run_prov(r, "schema_version");
	if (!sv || tcp_csv_long(sv, &v) != 0)
		return 0;
	int line = 0;
	for (int i = 0; i < r->prov.nrows; i++)
		if (!strcmp(tcp_table_get(&r->prov, i, "key"), "schema_version"))
			line = i + 2;
	if (v > TCP_SCHEMA_VERSION)
		return tcp_errf(err, len, "%s:%d: schema version %ld is newer than this tcprobe reads (1..%d); "
			    "read it with a tcprobe built from a newer checkout", path, line, v,
			    TCP_SCHEMA_VERSION);
	if (r->nrows && v != r->schema)
		return tcp_errf(err, len, "%s:%d: schema_version %ld but measurements.csv rows are schema %d "
			    "(mixed results directory)", path, line, v, r->schema);
	return 0;
}

/*
 *  load_meta()
 *	metrics.csv is optional (runs written before it have none).  Strict: a
 *	file that is there must read; otherwise one that does not is ignored.
 */
static int load_meta(tcp_run_t *r, int flags, char *err, size_t len)
{
	char path[1100], merr[512];

	snprintf(path, sizeof(path), "%s/%s", r->dir, TCP_META_FILE);
	if (access(path, F_OK) != 0)
		return 0;
	if (flags & TCP_RUN_STRICT)
		return tcp_meta_load(path, &r->meta, err, len);
	if (tcp_meta_load(path, &r->meta, merr, sizeof(merr)))
		r->meta = NULL;
	return 0;
}

/*
 *  load_probes()
 *	probes.csv is optional (runs written before version 3 have none: the
 *	lookups answer from the frozen declarations, declared.h).  Strict: a
 *	file that is there must read.
 */
static int load_probes(tcp_run_t *r, int flags, char *err, size_t len)
{
	char path[1100], perr[512];

	snprintf(path, sizeof(path), "%s/%s", r->dir, TCP_PROBES_FILE);
	if (flags & TCP_RUN_STRICT)
		return tcp_probes_load(path, &r->pfile, err, len);
	if (tcp_probes_load(path, &r->pfile, perr, sizeof(perr)))
		memset(&r->pfile, 0, sizeof(r->pfile));
	return 0;
}

/* The path of dir/name, or of dir/name.gz when only that exists; "" when neither. */
static void find_file(const char *dir, const char *name, char *buf, size_t len, int *gz)
{
	snprintf(buf, len, "%s/%s", dir, name);
	*gz = 0;
	if (access(buf, F_OK) == 0)
		return;
	snprintf(buf, len, "%s/%s.gz", dir, name);
	if (access(buf, F_OK) == 0) {
		*gz = 1;
		return;
	}
	snprintf(buf, len, "%s/%s", dir, name);	/* named in the "missing" message */
	*gz = -1;
}

/*
 *  load_plan()
 *	plan.txt (sweep/plan.c writes it): how many points were planned, and
 *	which of them have no row yet.  A plan this cannot read leaves the run
 *	without one (nplanned -1): only --resume needs it whole, and reads it
 *	itself against the probe registry.
 */
static void load_plan(tcp_run_t *r)
{
	char path[1100], err[256];
	size_t len;
	int gz;

	r->nplanned = -1;
	find_file(r->dir, "plan.txt", path, sizeof(path), &gz);
	char *buf = gz < 0 ? NULL : tcp_file_read(path, &len, err, sizeof(err));
	if (!buf)
		return;
	int n = 0;
	for (char *l = buf; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		n += *l != '#' && *l != '\n';
		if (!strncmp(l, "#option noise=", 14))	/* the report's noise target */
			r->plan_noise_pct = strtod(l + 14, NULL);
	}
	unsigned char *seen = calloc((size_t)n + 1, 1);
	if (!seen) {
		free(buf);
		return;
	}
	for (int i = 0; i < r->nrows; i++) {
		long v;
		if (tcp_csv_long(r->rows[i].id, &v) == 0 && v >= 0 && v < n)
			seen[v] = 1;
	}
	r->nplanned = n;
	for (int i = 0; i < n; i++)
		r->nunfinished += !seen[i];
	free(seen);
	free(buf);
}

/* ------------------------------------------------------------------ open */

int tcp_run_is_dir(const char *dir)
{
	char path[1100];
	struct stat st;
	int gz;

	find_file(dir, "measurements.csv", path, sizeof(path), &gz);
	return gz >= 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 *  tcp_run_open()
 *	The one builder of a typed run (see run.h).
 */
int tcp_run_open(const char *dir, int flags, tcp_run_t **out, char *err, size_t len)
{
	struct stat st;
	tcp_run_t *r;
	int gz;

	*out = NULL;
	if (!(r = calloc(1, sizeof(*r))))
		return tcp_errf(err, len, "out of memory");
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	for (size_t n = strlen(r->dir); n > 1 && r->dir[n - 1] == '/'; n--)
		r->dir[n - 1] = '\0';
	const char *slash = strrchr(r->dir, '/');
	snprintf(r->name, sizeof(r->name), "%.255s", slash && slash[1] ? slash + 1 : r->dir);
	r->nplanned = -1;
	r->plan_noise_pct = NAN;

	if (stat(r->dir, &st) != 0) {
		tcp_errf(err, len, "%s: %s (expected a results directory)", r->dir, strerror(errno));
		goto fail;
	}
	if (!S_ISDIR(st.st_mode)) {
		tcp_errf(err, len, "%s: not a directory (expected a results directory)", r->dir);
		goto fail;
	}
	find_file(r->dir, "measurements.csv", r->meas_path, sizeof(r->meas_path), &gz);
	r->compressed = gz > 0;
	/* empty only when a regular file: a FIFO says size 0 too, and the reader
	 * below refuses it (harness/store/infile.h) instead of blocking on it */
	if (gz < 0 || ((flags & TCP_RUN_MAY_BE_EMPTY) && stat(r->meas_path, &st) == 0 &&
		       S_ISREG(st.st_mode) && st.st_size == 0)) {
		if (!(flags & TCP_RUN_MAY_BE_EMPTY)) {
			tcp_errf(err, len, "%s: missing: not a tcprobe results directory", r->meas_path);
			goto fail;
		}
		if (!(r->probes = calloc(1, sizeof(*r->probes))))
			goto oom;
		if (load_meta(r, flags, err, len))
			goto fail;
		*out = r;
		return 0;
	}
	if (tcp_table_load(r->meas_path, &r->meas, err, len) || check_schema(r, flags, err, len))
		goto fail;
	r->torn_tail = r->meas.torn_tail;
	r->nrows = r->meas.nrows;
	if (!(r->rows = calloc((size_t)r->nrows + 1, sizeof(*r->rows))))
		goto oom;
	struct cols c;
	cols_find(&r->meas, &c);
	for (int i = 0; i < r->nrows; i++)
		type_row(&r->meas, &c, i, &r->rows[i]);
	if (group_points(r))
		goto oom;
	if (load_prov(r, flags, err, len))
		goto fail;
	const int emulated = tcp_run_emulated(r) != NULL;	/* the provenance says; asked once */
	for (int i = 0; (flags & TCP_RUN_STRICT) && i < r->nrows; i++)
		if (check_row(r, &r->rows[i], emulated, err, len))
			goto fail;
	if (load_meta(r, flags, err, len) || load_probes(r, flags, err, len))
		goto fail;
	describe_points(r);
	if (!r->schema) {	/* no rows, or no schema column: the provenance's word */
		long v;
		const char *sv = tcp_run_prov(r, "schema_version");
		if (sv && tcp_csv_long(sv, &v) == 0 && v > 0 && v < 1000000)
			r->schema = (int)v;
	}
	load_plan(r);
	*out = r;
	return 0;
oom:
	tcp_errf(err, len, "out of memory reading %s", r->dir);
fail:
	tcp_run_free(r);
	return -1;
}

void tcp_run_free(tcp_run_t *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->npoints; i++)
		free(r->points[i].axbuf);
	free(r->points);
	free(r->rows);
	free(r->mstore);
	free(r->hash);
	free(r->probes);
	tcp_meta_set_free(r->meta);
	tcp_probes_free(&r->pfile);
	tcp_table_free(&r->meas);
	tcp_table_free(&r->prov);
	free(r);
}

/* ------------------------------------------------------------- accessors */

int tcp_run_complete(const tcp_run_t *r)
{
	return r->nplanned >= 0 && r->nunfinished == 0 && !r->torn_tail;
}

const char *tcp_run_prov(const tcp_run_t *r, const char *key)
{
	if (!r->has_prov)
		return NULL;
	for (int i = 0; i < r->prov.nrows; i++)
		if (!strcmp(tcp_table_get(&r->prov, i, "key"), key))
			return tcp_table_get(&r->prov, i, "value");
	return NULL;
}

const char *tcp_run_uid(const tcp_run_t *r, char *buf, size_t len)
{
	const char *t = tcp_run_prov(r, "started_utc"), *u = tcp_run_prov(r, "mig_slice");
	size_t n = 0;

	if (!u || !*u)
		u = tcp_run_prov(r, "gpu_uuid");
	if (!t || !*t || !len) {
		snprintf(buf, len, "%s", r->name);
		return buf;
	}
	for (; *t && n + 1 < len; t++)	/* 2026-12-02T07:43:05Z -> 20261202T074305Z */
		if (*t != '-' && *t != ':')
			buf[n++] = *t;
	buf[n] = 0;
	if (u && !strncmp(u, "GPU-", 4))
		u += 4;
	else if (u && !strncmp(u, "MIG-", 4))
		u += 4;
	if (u && *u && strncmp(u, "NA", 2))
		snprintf(buf + n, len - n, "-%.8s", u);
	return buf;
}

const char *tcp_run_emulated(const tcp_run_t *r)
{
	const char *v = tcp_run_prov(r, "emulated");
	return v && *v ? v : NULL;
}

const char *tcp_run_emulated_banner(const char *target, char *buf, size_t len)
{
	snprintf(buf, len, "EMULATED %s run: the tcgen05 instructions were emulated on a Hopper GPU "
		 "(make EMULATE=1); statuses and validation are the emulator's, no time or rate is %s hardware's",
		 target && *target ? target : "?", target && *target ? target : "the target's");
	return buf;
}

const char *tcp_run_prov_key(const tcp_run_t *r, int i)
{
	return r->has_prov ? tcp_table_get(&r->prov, i, "key") : NULL;
}

const char *tcp_run_prov_value(const tcp_run_t *r, int i)
{
	return r->has_prov ? tcp_table_get(&r->prov, i, "value") : NULL;
}

const char *tcp_run_cell(const tcp_run_t *r, int row, const char *col)
{
	return tcp_table_get(&r->meas, row, col);
}

int tcp_run_has_col(const tcp_run_t *r, const char *col)
{
	return tcp_table_col(&r->meas, col) >= 0;
}

int tcp_run_probe_info(const tcp_run_t *r, const char *probe, tcp_probe_info_t *out)
{
	return tcp_probes_find(&r->pfile, probe, out);
}

const tcp_meta_t *tcp_run_declared_metric(const tcp_run_t *r, const char *probe, const char *metric)
{
	return tcp_declared_metric(r->meta, probe, metric);
}

const tcp_meta_t *tcp_run_first_metric(const tcp_run_t *r, const char *probe)
{
	return tcp_declared_first_metric(r->meta, probe);
}

const char *tcp_point_axis(const tcp_run_point_t *p, const char *name)
{
	for (int i = 0; i < p->naxes; i++)
		if (!strcmp(p->an[i], name))
			return p->av[i];
	return NULL;
}

const tcp_run_row_t *tcp_point_metric(const tcp_run_point_t *p, const char *metric)
{
	for (int i = 0; i < p->nm; i++)
		if (!strcmp(p->m[i]->metric, metric))
			return p->m[i];
	return NULL;
}

int tcp_run_count(const tcp_run_t *r, const char *probe, tcp_status_t s)
{
	int n = 0;

	for (int i = 0; i < r->npoints; i++)
		n += !strcmp(r->points[i].probe, probe) && r->points[i].status == (int)s;
	return n;
}

const tcp_run_point_t *tcp_run_find(const tcp_run_t *r, const char *probe, const char *axes)
{
	if (!r->hsize)
		return NULL;
	for (size_t h = hash_key(probe, axes) & (r->hsize - 1);; h = (h + 1) & (r->hsize - 1)) {
		int i = r->hash[h];
		if (i < 0)
			return NULL;
		if (!strcmp(r->points[i].probe, probe) && !strcmp(r->points[i].axes, axes))
			return &r->points[i];
	}
}

int tcp_run_contended(const tcp_run_t *r, tcp_run_keep_fn keep, void *ctx)
{
	int n = 0;

	for (int i = 0; i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		int c = 0;
		for (int k = 0; k < p->nm && !c; k++)
			c = p->m[k]->contended == 1 && (!keep || keep(r, p->m[k], ctx));
		n += c;
	}
	return n;
}

int tcp_run_torn_files(const tcp_run_t *r, char *buf, size_t len)
{
	if (r->prov_torn)
		snprintf(buf, len, "%s%s%s/provenance.csv", r->torn_tail ? r->meas_path : "",
			 r->torn_tail ? ", " : "", r->dir);
	else
		snprintf(buf, len, "%s", r->torn_tail ? r->meas_path : "");
	return r->torn_tail + r->prov_torn;
}

/* ---------------------------------------------------------- completeness */

/* One (probe, axes, metric) of the set; its strings in one allocation. */
struct set_key {
	const char *probe, *axes, *metric;
	int ok;				/* OK in a reference member */
};

struct tcp_run_set {
	int nmembers, words;		/* presence bits per key: words of 64 */
	int n, cap;
	struct set_key *keys;		/* order of first addition */
	uint64_t *present;		/* n * words */
	int *hash;			/* open addressing over keys, -1 empty */
	size_t hsize;
};

static size_t hash_key3(const char *probe, const char *axes, const char *metric)
{
	size_t h = hash_key(probe, axes);

	h = (h ^ 0x1e) * 1099511628211ull;
	for (const char *s = metric; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

tcp_run_set_t *tcp_run_set_new(int nmembers)
{
	tcp_run_set_t *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->nmembers = nmembers > 0 ? nmembers : 1;
	s->words = (s->nmembers + 63) / 64;
	s->hsize = 1024;
	if (!(s->hash = malloc(s->hsize * sizeof(*s->hash)))) {
		free(s);
		return NULL;
	}
	memset(s->hash, 0xff, s->hsize * sizeof(*s->hash));
	return s;
}

/* Double the table and the key arrays when half full; -1 out of memory. */
static int set_grow(tcp_run_set_t *s)
{
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 1024;
		struct set_key *k = realloc(s->keys, (size_t)cap * sizeof(*k));
		if (!k)
			return -1;
		s->keys = k;
		uint64_t *p = realloc(s->present, (size_t)cap * (size_t)s->words * sizeof(*p));
		if (!p)
			return -1;
		s->present = p;
		s->cap = cap;
	}
	if ((size_t)s->n * 2 < s->hsize)
		return 0;
	size_t hsize = s->hsize * 2;
	int *h = malloc(hsize * sizeof(*h));
	if (!h)
		return -1;
	memset(h, 0xff, hsize * sizeof(*h));
	for (int i = 0; i < s->n; i++) {
		size_t j = hash_key3(s->keys[i].probe, s->keys[i].axes, s->keys[i].metric) & (hsize - 1);
		while (h[j] >= 0)
			j = (j + 1) & (hsize - 1);
		h[j] = i;
	}
	free(s->hash);
	s->hash = h;
	s->hsize = hsize;
	return 0;
}

/* Index of the key (probe, axes, metric), added when new; -1 out of memory. */
static int set_find_or_add(tcp_run_set_t *s, const char *probe, const char *axes, const char *metric)
{
	if (set_grow(s))
		return -1;
	size_t h = hash_key3(probe, axes, metric) & (s->hsize - 1);
	for (;; h = (h + 1) & (s->hsize - 1)) {
		int i = s->hash[h];
		if (i < 0)
			break;
		const struct set_key *k = &s->keys[i];
		if (!strcmp(k->probe, probe) && !strcmp(k->axes, axes) && !strcmp(k->metric, metric))
			return i;
	}
	size_t lp = strlen(probe) + 1, la = strlen(axes) + 1, lm = strlen(metric) + 1;
	char *buf = malloc(lp + la + lm);
	if (!buf)
		return -1;
	memcpy(buf, probe, lp);
	memcpy(buf + lp, axes, la);
	memcpy(buf + lp + la, metric, lm);
	s->keys[s->n] = (struct set_key){ buf, buf + lp, buf + lp + la, 0 };
	memset(&s->present[(size_t)s->n * (size_t)s->words], 0, (size_t)s->words * sizeof(uint64_t));
	s->hash[h] = s->n;
	return s->n++;
}

int tcp_run_set_add_keyed(tcp_run_set_t *s, int m, int ref, const tcp_run_t *r, tcp_run_keep_fn keep, void *ctx,
			  const char *(*key)(const tcp_run_row_t *w, void *kctx), void *kctx)
{
	if (m < 0 || m >= s->nmembers)
		return -1;
	for (int i = 0; i < r->nrows; i++) {
		const tcp_run_row_t *w = &r->rows[i];
		if (keep && !keep(r, w, ctx))
			continue;
		const char *axes = key ? key(w, kctx) : w->axes;
		int k = set_find_or_add(s, w->probe, axes ? axes : w->axes, w->metric);
		if (k < 0)
			return -1;
		s->present[(size_t)k * (size_t)s->words + (size_t)m / 64] |= 1ull << (m % 64);
		s->keys[k].ok |= ref && w->status == TCP_OK;
	}
	return 0;
}

int tcp_run_set_add(tcp_run_set_t *s, int m, int ref, const tcp_run_t *r, tcp_run_keep_fn keep, void *ctx)
{
	return tcp_run_set_add_keyed(s, m, ref, r, keep, ctx, NULL, NULL);
}

int tcp_run_set_nref(const tcp_run_set_t *s)
{
	int n = 0;

	for (int i = 0; i < s->n; i++)
		n += s->keys[i].ok;
	return n;
}

int tcp_run_set_missing(const tcp_run_set_t *s, int m,
			void (*each)(const char *probe, const char *axes, const char *metric, void *ctx),
			void *ctx)
{
	int n = 0;

	if (m < 0 || m >= s->nmembers)
		return 0;
	for (int i = 0; i < s->n; i++) {
		const struct set_key *k = &s->keys[i];
		if (!k->ok || (s->present[(size_t)i * (size_t)s->words + (size_t)m / 64] >> (m % 64) & 1))
			continue;
		n++;
		if (each)
			each(k->probe, k->axes, k->metric, ctx);
	}
	return n;
}

void tcp_run_set_free(tcp_run_set_t *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->n; i++)
		free((char *)s->keys[i].probe);
	free(s->keys);
	free(s->present);
	free(s->hash);
	free(s);
}

/* ---------------------------------------------------------------- resume */

int tcp_run_keep_rows(const tcp_run_t *r, const unsigned char *keep, char *err, size_t len)
{
	char tmp[1200];

	if (r->compressed)
		return tcp_errf(err, len, "%s: an archived (compressed) run cannot be rewritten; gunzip it first",
			    r->meas_path);
	snprintf(tmp, sizeof(tmp), "%s.tmp", r->meas_path);
	tcp_csv_writer_t *w = tcp_csv_open(tmp, (const char *const *)r->meas.cols, r->meas.ncols, 0,
					   err, len);
	if (!w)
		return -1;
	for (int i = 0; i < r->meas.nrows; i++)
		if (keep[i] && tcp_csv_write_rows(w, (const char *const *)&r->meas.cells[(size_t)i *
						  (size_t)r->meas.ncols], 1)) {
			tcp_errf(err, len, "cannot rewrite %s: %s", tmp, strerror(errno));
			tcp_csv_close(w);
			return -1;
		}
	if (tcp_csv_close(w) || rename(tmp, r->meas_path))
		return tcp_errf(err, len, "cannot rewrite %s: %s", r->meas_path, strerror(errno));
	return 0;
}
