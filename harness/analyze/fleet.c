/*
 * fleet.c
 *	Merge per-GPU runs, median and spread per point, outlier GPUs.
 *	See fleet.h for the rule.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/analyze/compare.h"
#include "harness/store/csvio.h"
#include "harness/store/exit.h"
#include "harness/store/infile.h"
#include "harness/analyze/fleet.h"
#include "harness/measure/stats.h"

/* One OK value of one GPU at one point. */
typedef struct {
	char *key;	/* "probe\x1f axes\x1f metric" */
	char *unit;
	int run;
	double value;
	double z;	/* robust z against its point, set by analyse() */
	int outlier;	/* the fleet.h rule, set by analyse() */
} fleet_val_t;

/* One point after grouping: vals[first .. first + n) share the key. */
typedef struct {
	int first, n;
	double median, mad;
} fleet_point_t;

struct tcp_fleet {
	tcp_fleet_opts_t opt;
	int nruns;
	tcp_fleet_gpu_t runs[TCP_FLEET_MAX_RUNS];
	fleet_val_t *vals;
	int nvals, capvals;
	fleet_point_t *points;
	int npoints;
	double clock_median;
	int noutliers;
	tcp_run_set_t *set;	/* the completeness rule over the group (run.h) */
};

static void set_err(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Find run directories under path, `depth` levels deep; sorted for stable labels. */
static int find_runs(tcp_fleet_t *f, const char *path, int depth, char *err, size_t errlen)
{
	/* a FIFO in measurements.csv's place would block the reader: refused, not skipped */
	for (int gz = 0; gz < 2; gz++) {
		char csv[1200];
		struct stat st;
		snprintf(csv, sizeof(csv), "%s/measurements.csv%s", path, gz ? ".gz" : "");
		if (stat(csv, &st) == 0 && !S_ISREG(st.st_mode)) {
			set_err(err, errlen, "%s: cannot read CSV: got %s, expected a regular file", csv,
				tcp_infile_kind(st.st_mode));
			return -1;
		}
	}
	if (tcp_run_is_dir(path)) {
		if (f->nruns == TCP_FLEET_MAX_RUNS) {
			set_err(err, errlen, "%s: more than %d runs", path, TCP_FLEET_MAX_RUNS);
			return -1;
		}
		snprintf(f->runs[f->nruns++].dir, sizeof(f->runs[0].dir), "%s", path);
		return 0;
	}
	if (depth == 0)
		return 0;
	struct dirent **list;
	int n = scandir(path, &list, NULL, alphasort);
	if (n < 0)
		return 0;
	int rc = 0;
	for (int i = 0; i < n; i++) {
		if (rc == 0 && list[i]->d_name[0] != '.') {
			char sub[1200];
			snprintf(sub, sizeof(sub), "%s/%s", path, list[i]->d_name);
			if (is_dir(sub))
				rc = find_runs(f, sub, depth - 1, err, errlen);
		}
		free(list[i]);
	}
	free(list);
	return rc;
}

static int push_val(tcp_fleet_t *f, const char *key, const char *unit, int run, double v)
{
	if (f->nvals == f->capvals) {
		int cap = f->capvals ? 2 * f->capvals : 1024;
		fleet_val_t *nv = realloc(f->vals, (size_t)cap * sizeof(*nv));
		if (!nv)
			return -1;
		f->vals = nv;
		f->capvals = cap;
	}
	fleet_val_t *x = &f->vals[f->nvals++];
	x->key = strdup(key);
	x->unit = strdup(unit);
	x->run = run;
	x->value = v;
	return x->key && x->unit ? 0 : -1;
}

/* A provenance value of a loaded run, "NA" when absent. */
static void prov_copy(const tcp_cmp_run_t *r, const char *key, char *out, size_t len)
{
	const char *v = tcp_cmp_prov(r, key);
	snprintf(out, len, "%s", v && *v ? v : "NA");
}

/* The rows fleet compares: counter rows only when asked for (see load_run). */
static int counted_metric(const tcp_fleet_opts_t *o, const char *metric)
{
	return o->metric || o->with_counters || strncmp(metric, "cupti/", 6) != 0;
}

/* A tcp_run_keep_fn: compare's filter, then counted_metric. */
struct fleet_keep {
	const tcp_fleet_opts_t *o;
	const tcp_cmp_filter_t *flt;
};

static int fleet_keep(const tcp_run_t *run, const tcp_run_row_t *w, void *ctx)
{
	const struct fleet_keep *k = ctx;
	return counted_metric(k->o, w->metric) && tcp_cmp_keep(run, w, (void *)k->flt);
}

/*
 * load_run()
 *	One run through compare's loader (the same checks and messages as
 *	`tcprobe compare`): provenance for its label, OK medians as values.
 */
static int load_run(tcp_fleet_t *f, int i, char *err, size_t errlen)
{
	tcp_fleet_gpu_t *g = &f->runs[i];
	const char *metric_pat[1] = { f->opt.metric };
	tcp_cmp_filter_t flt = { .probes = NULL, .nprobes = 0, .metrics = metric_pat,
				 .nmetrics = f->opt.metric ? 1 : 0, .gpu = -1 };
	tcp_cmp_run_t r;
	char host[64], idx[16];

	if (tcp_cmp_run_load(g->dir, &flt, &r, err, errlen) != 0) {
		tcp_cmp_run_free(&r);
		return -1;
	}
	if (r.emulated) {	/* the fleet's spread is of times: an emulated run has none */
		set_err(err, errlen, "%s is an EMULATED run (%s): got an emulated run, expected hardware runs "
			"only (an emulated run has statuses and validation, no times)", g->dir, r.emulated);
		tcp_cmp_run_free(&r);
		return -1;
	}
	prov_copy(&r, "gpu_uuid", g->uuid, sizeof(g->uuid));
	prov_copy(&r, "gpu_name", g->name, sizeof(g->name));
	prov_copy(&r, "driver_version", g->driver, sizeof(g->driver));
	prov_copy(&r, "host", host, sizeof(host));
	if (r.has_prov)
		prov_copy(&r, "gpu_index", idx, sizeof(idx));
	else
		snprintf(idx, sizeof(idx), "%d", i);
	snprintf(g->label, sizeof(g->label), "%s:gpu%s", host, idx);
	g->clock_mhz = r.clock_mean_mhz;
	/* compare's status slots: tcp_status_t order, then other */
	g->bad_points = r.nstatus[TCP_FAILED] + r.nstatus[TCP_TIMEOUT] + r.nstatus[TCP_INVALID] +
			r.nstatus[TCP_BLOCKED] + r.nstatus[TCP_NSTATUS];
	g->contended_points = r.ncontended;
	tcp_run_torn_files(r.run, g->torn, sizeof(g->torn));
	struct fleet_keep keep = { &f->opt, &flt };
	if (tcp_run_set_add(f->set, i, 1, r.run, fleet_keep, &keep) != 0) {
		set_err(err, errlen, "out of memory");
		tcp_cmp_run_free(&r);
		return -1;
	}

	for (int k = 0; k < r.npoints; k++) {
		const tcp_cmp_point_t *p = &r.pts[k];
		if (strcmp(p->status, "OK") != 0)
			continue;
		/* Counter rows are the hardware's account of a point, for cross-checks;
		 * tiny ones (DRAM bytes of an smem-resident kernel) are run-to-run noise. */
		if (!counted_metric(&f->opt, p->metric))
			continue;
		char key[2048];
		snprintf(key, sizeof(key), "%s\x1f%s\x1f%s", p->probe, p->axes, p->metric);
		if (push_val(f, key, p->unit, i, p->median) != 0) {
			set_err(err, errlen, "out of memory");
			tcp_cmp_run_free(&r);
			return -1;
		}
		g->ok_points++;
	}
	tcp_cmp_run_free(&r);
	return 0;
}

static int val_cmp(const void *a, const void *b)
{
	const fleet_val_t *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : x->run - y->run;
}

static double median_of(const double *x, int n)
{
	tcp_stats_t st;
	tcp_stats_compute(x, n, &st);
	return st.median;
}

/* Median and MAD of xs[0..n) (n >= 1). */
static void robust(const double *xs, int n, double *med, double *mad)
{
	double *tmp = malloc((size_t)(n ? n : 1) * sizeof(*tmp));
	if (!tmp) {
		*med = *mad = NAN;
		return;
	}
	*med = median_of(xs, n);
	for (int i = 0; i < n; i++)
		tmp[i] = fabs(xs[i] - *med);
	*mad = median_of(tmp, n);
	free(tmp);
}

/* The outlier rule of fleet.h; z is returned for the CSV. */
static int is_outlier(const tcp_fleet_opts_t *o, int n, double x, double med, double mad, double *z)
{
	double dev = fabs(x - med);
	double rel = med != 0 ? 100.0 * dev / fabs(med) : (dev > 0 ? INFINITY : 0);
	*z = mad > 0 ? (x - med) / (1.4826 * mad) : (dev > 0 ? copysign(INFINITY, x - med) : 0);
	return n >= 3 && fabs(*z) > o->mad_k && rel > o->floor_pct;
}

static void analyse(tcp_fleet_t *f)
{
	if (f->nvals > 1)	/* qsort(NULL, 0, ...) is UB (UBSan, make test SANITIZE=1) */
		qsort(f->vals, (size_t)f->nvals, sizeof(*f->vals), val_cmp);
	f->points = calloc((size_t)(f->nvals ? f->nvals : 1), sizeof(*f->points));
	double *xs = malloc((size_t)(f->nruns ? f->nruns : 1) * sizeof(*xs));
	if (!f->points || !xs) {
		free(xs);
		return;
	}
	for (int i = 0; i < f->nvals;) {
		fleet_point_t *p = &f->points[f->npoints++];
		p->first = i;
		while (i < f->nvals && strcmp(f->vals[i].key, f->vals[p->first].key) == 0)
			xs[p->n++] = f->vals[i++].value;
		robust(xs, p->n, &p->median, &p->mad);
		for (int k = p->first; k < p->first + p->n; k++) {
			fleet_val_t *v = &f->vals[k];
			v->outlier = is_outlier(&f->opt, p->n, v->value, p->median, p->mad, &v->z);
			if (v->outlier) {
				f->runs[v->run].outlier_points++;
				f->noutliers++;
			}
		}
	}
	int nc = 0;
	for (int r = 0; r < f->nruns; r++)
		if (isfinite(f->runs[r].clock_mhz))
			xs[nc++] = f->runs[r].clock_mhz;
	double mad = NAN, z;
	f->clock_median = NAN;
	if (nc)
		robust(xs, nc, &f->clock_median, &mad);
	for (int r = 0; r < f->nruns; r++)
		if (isfinite(f->runs[r].clock_mhz) &&
		    is_outlier(&f->opt, nc, f->runs[r].clock_mhz, f->clock_median, mad, &z)) {
			f->runs[r].clock_outlier = 1;
			f->noutliers++;
		}
	free(xs);
}

tcp_fleet_t *tcp_fleet_load(char *const *paths, int npaths, const tcp_fleet_opts_t *o,
			    char *err, size_t errlen)
{
	tcp_fleet_t *f = calloc(1, sizeof(*f));
	if (!f) {
		set_err(err, errlen, "out of memory");
		return NULL;
	}
	f->opt = *o;
	for (int i = 0; i < npaths; i++) {
		if (!is_dir(paths[i])) {
			set_err(err, errlen, "%s: not a directory", paths[i]);
			goto fail;
		}
		int before = f->nruns;
		if (find_runs(f, paths[i], 3, err, errlen) != 0)
			goto fail;
		if (f->nruns == before) {
			set_err(err, errlen, "%s: no run directory (measurements.csv) found, 3 levels deep",
				paths[i]);
			goto fail;
		}
	}
	if (!(f->set = tcp_run_set_new(f->nruns))) {
		set_err(err, errlen, "out of memory");
		goto fail;
	}
	for (int i = 0; i < f->nruns; i++)
		if (load_run(f, i, err, errlen) != 0)
			goto fail;
	for (int i = 0; i < f->nruns; i++)
		f->runs[i].missing_points = tcp_run_set_missing(f->set, i, NULL, NULL);
	/* Labels must be unique: two runs of one GPU keep both, numbered. */
	for (int i = 0; i < f->nruns; i++)
		for (int j = i + 1, k = 2; j < f->nruns; j++)
			if (strcmp(f->runs[i].label, f->runs[j].label) == 0) {
				size_t l = strlen(f->runs[j].label);
				snprintf(f->runs[j].label + l, sizeof(f->runs[j].label) - l, "#%d", k++);
			}
	analyse(f);
	return f;
fail:
	tcp_fleet_free(f);
	return NULL;
}

int tcp_fleet_ngpus(const tcp_fleet_t *f)
{
	return f->nruns;
}

const tcp_fleet_gpu_t *tcp_fleet_gpu(const tcp_fleet_t *f, int i)
{
	return i >= 0 && i < f->nruns ? &f->runs[i] : NULL;
}

int tcp_fleet_npoints(const tcp_fleet_t *f)
{
	return f->npoints;
}

int tcp_fleet_noutliers(const tcp_fleet_t *f)
{
	return f->noutliers;
}

int tcp_fleet_nmissing(const tcp_fleet_t *f)
{
	int n = 0;
	for (int r = 0; r < f->nruns; r++)
		n += f->runs[r].missing_points;
	return n;
}

int tcp_fleet_status(const tcp_fleet_t *f)
{
	if (tcp_fleet_nmissing(f) && !f->opt.allow_missing)
		return TCP_EXIT_INCOMPLETE;
	return f->noutliers ? TCP_EXIT_POINTS : TCP_EXIT_OK;
}

/* "probe axes metric" for printing: the key with its separators as spaces. */
static void key_text(const char *key, char *out, size_t len)
{
	snprintf(out, len, "%s", key);
	for (char *c = out; *c; c++)
		if (*c == '\x1f')
			*c = ' ';
}

typedef struct {
	int v;		/* index into vals */
	double dev;	/* |deviation| in % of the fleet median */
} flagged_t;

static int flagged_cmp(const void *a, const void *b)
{
	const flagged_t *x = a, *y = b;
	return (y->dev > x->dev) - (y->dev < x->dev);
}

int tcp_fleet_incomplete(const tcp_fleet_t *f, int i, char *buf, size_t len)
{
	const tcp_fleet_gpu_t *g = &f->runs[i];

	if (!g->missing_points)
		return 0;
	snprintf(buf, len, "%s (%s) lacks %d of the %d rows OK somewhere in the group%s%s%s", g->label, g->dir,
		 g->missing_points, tcp_run_set_nref(f->set), *g->torn ? " (torn: " : "", g->torn,
		 *g->torn ? ")" : "");
	return g->missing_points;
}

/* The first few rows a run lacks, under its INCOMPLETE line. */
struct shown {
	FILE *out;
	int n;
};

static void show_missing(const char *probe, const char *axes, const char *metric, void *ctx)
{
	struct shown *sh = ctx;
	if (sh->n++ < 3)
		fprintf(sh->out, "    lacks %s [%s] %s\n", probe, axes, metric);
}

void tcp_fleet_print(const tcp_fleet_t *f, FILE *out)
{
	fprintf(out, "fleet: %d GPU run(s), %d point(s); outlier rule |robust z| > %.1f and |dev| > %.1f%%\n\n",
		f->nruns, f->npoints, f->opt.mad_k, f->opt.floor_pct);
	fprintf(out, "%-24s %-28s %-44s %9s %6s %6s %9s\n", "gpu", "name", "uuid", "clock MHz", "ok",
		"bad", "outliers");
	for (int r = 0; r < f->nruns; r++) {
		const tcp_fleet_gpu_t *g = &f->runs[r];
		fprintf(out, "%-24s %-28.28s %-44.44s %9.1f %6d %6d %9d%s\n", g->label, g->name, g->uuid,
			g->clock_mhz, g->ok_points, g->bad_points, g->outlier_points,
			g->clock_outlier ? "  CLOCK OUTLIER" : "");
	}
	fprintf(out, "\nfleet median SM clock: %.1f MHz\n", f->clock_median);
	for (int r = 0; r < f->nruns; r++) {
		const tcp_fleet_gpu_t *g = &f->runs[r];
		char line[4000];
		if (tcp_fleet_incomplete(f, r, line, sizeof(line))) {
			fprintf(out, "%s: %s\n", f->opt.allow_missing ? "allowed (--allow-missing)" : "INCOMPLETE",
				line);
			struct shown sh = { out, 0 };
			tcp_run_set_missing(f->set, r, show_missing, &sh);
		} else if (*g->torn)
			fprintf(out, "note: %s ended in a torn line (dropped); no row OK elsewhere is lost\n",
				g->torn);
		if (g->contended_points)
			fprintf(out, "WARNING: %s: %d point%s ran beside other work on the GPU (contended=1)\n",
				g->label, g->contended_points, g->contended_points == 1 ? "" : "s");
	}
	if (f->nruns < 3) {
		fprintf(out, "fewer than 3 GPUs: no GPU can be singled out as an outlier; "
			     "largest pairwise differences below\n");
	}

	flagged_t *fl = malloc((size_t)(f->nvals ? f->nvals : 1) * sizeof(*fl));
	if (!fl)
		return;
	int nf = 0;
	for (int p = 0; p < f->npoints; p++) {
		const fleet_point_t *pt = &f->points[p];
		for (int k = pt->first; k < pt->first + pt->n; k++) {
			double dev = pt->median ? 100.0 * fabs(f->vals[k].value - pt->median) / fabs(pt->median) : 0;
			if (f->vals[k].outlier || (f->nruns < 3 && dev > f->opt.floor_pct))
				fl[nf++] = (flagged_t){ k, dev };
		}
	}
	qsort(fl, (size_t)nf, sizeof(*fl), flagged_cmp);
	fprintf(out, "\n%d flagged value(s)%s\n", nf, nf > 40 ? " (largest 40 shown)" : "");
	for (int i = 0; i < nf && i < 40; i++) {
		const fleet_val_t *v = &f->vals[fl[i].v];
		char kt[2048];
		key_text(v->key, kt, sizeof(kt));
		fprintf(out, "  %-24s %-70.70s %12.4g %-12s %+7.2f%%\n", f->runs[v->run].label, kt, v->value,
			v->unit, fl[i].dev);
	}
	free(fl);
}

int tcp_fleet_write_csv(const tcp_fleet_t *f, const char *path, char *err, size_t errlen)
{
	static const char *const hdr[] = { "probe", "axes", "metric", "unit", "gpu", "gpu_uuid", "value",
					   "fleet_median", "mad", "dev_pct", "robust_z", "outlier" };
	enum { NC = sizeof(hdr) / sizeof(hdr[0]) };
	tcp_csv_writer_t *w = tcp_csv_open(path, hdr, NC, 0, err, errlen);
	if (!w)
		return -1;
	/* One write per point: its rows, one per GPU. */
	char (*txt)[9][1024] = malloc((size_t)(f->nruns ? f->nruns : 1) * sizeof(*txt));
	const char **cells = malloc((size_t)(f->nruns ? f->nruns : 1) * NC * sizeof(*cells));
	if (!txt || !cells) {
		free(txt);
		free(cells);
		tcp_csv_close(w);
		set_err(err, errlen, "out of memory");
		return -1;
	}
	for (int p = 0; p < f->npoints; p++) {
		const fleet_point_t *pt = &f->points[p];
		for (int k = pt->first; k < pt->first + pt->n; k++) {
			const fleet_val_t *v = &f->vals[k];
			char (*t)[1024] = txt[k - pt->first];
			const char *s = v->key;
			for (int q = 0; q < 3; q++) {	/* probe, axes, metric */
				const char *e = strchr(s, '\x1f');
				size_t l = e ? (size_t)(e - s) : strlen(s);
				snprintf(t[q], sizeof(t[q]), "%.*s", (int)l, s);
				s = e ? e + 1 : s + l;
			}
			snprintf(t[3], sizeof(t[3]), "%.9g", v->value);
			snprintf(t[4], sizeof(t[4]), "%.9g", pt->median);
			snprintf(t[5], sizeof(t[5]), "%.9g", pt->mad);
			snprintf(t[6], sizeof(t[6]), "%.4f",
				 pt->median ? 100.0 * (v->value - pt->median) / fabs(pt->median) : 0.0);
			snprintf(t[7], sizeof(t[7]), "%.4g", v->z);
			snprintf(t[8], sizeof(t[8]), "%d", v->outlier);
			const char *row[NC] = { t[0], t[1], t[2], v->unit, f->runs[v->run].label,
						f->runs[v->run].uuid, t[3], t[4], t[5], t[6], t[7], t[8] };
			memcpy(&cells[(size_t)(k - pt->first) * NC], row, sizeof(row));
		}
		if (tcp_csv_write_rows(w, cells, pt->n) != 0) {
			set_err(err, errlen, "%s: write failed: %s", path, strerror(errno));
			free(txt);
			free(cells);
			tcp_csv_close(w);
			return -1;
		}
	}
	free(txt);
	free(cells);
	return tcp_csv_close(w) == 0 ? 0 : (set_err(err, errlen, "%s: close failed", path), -1);
}

int tcp_fleet_write_gpus_csv(const tcp_fleet_t *f, const char *path, char *err, size_t errlen)
{
	static const char *const hdr[] = { "gpu", "gpu_uuid", "name", "driver", "clock_mhz", "ok_points",
					   "bad_points", "outlier_points", "clock_outlier", "missing_points",
					   "contended_points", "dir" };
	enum { NC = sizeof(hdr) / sizeof(hdr[0]) };
	tcp_csv_writer_t *w = tcp_csv_open(path, hdr, NC, 0, err, errlen);
	if (!w)
		return -1;
	for (int r = 0; r < f->nruns; r++) {
		const tcp_fleet_gpu_t *g = &f->runs[r];
		char n[7][32];
		snprintf(n[0], sizeof(n[0]), "%.1f", g->clock_mhz);
		snprintf(n[1], sizeof(n[1]), "%d", g->ok_points);
		snprintf(n[2], sizeof(n[2]), "%d", g->bad_points);
		snprintf(n[3], sizeof(n[3]), "%d", g->outlier_points);
		snprintf(n[4], sizeof(n[4]), "%d", g->clock_outlier);
		snprintf(n[5], sizeof(n[5]), "%d", g->missing_points);
		snprintf(n[6], sizeof(n[6]), "%d", g->contended_points);
		const char *row[NC] = { g->label, g->uuid, g->name, g->driver, n[0], n[1], n[2], n[3], n[4],
					n[5], n[6], g->dir };
		if (tcp_csv_write_rows(w, row, 1) != 0) {
			set_err(err, errlen, "%s: write failed: %s", path, strerror(errno));
			tcp_csv_close(w);
			return -1;
		}
	}
	return tcp_csv_close(w) == 0 ? 0 : (set_err(err, errlen, "%s: close failed", path), -1);
}

void tcp_fleet_free(tcp_fleet_t *f)
{
	if (!f)
		return;
	for (int i = 0; i < f->nvals; i++) {
		free(f->vals[i].key);
		free(f->vals[i].unit);
	}
	free(f->vals);
	free(f->points);
	tcp_run_set_free(f->set);
	free(f);
}
