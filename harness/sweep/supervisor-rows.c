/*
 * supervisor-rows.c
 *	What a sweep puts on disk: the measurements.csv header (fixed columns +
 *	the axis union), a point's rows in one write, metrics.csv (the role of
 *	every metric the rows carry), provenance.csv, and --resume's reading of
 *	the rows already there (through the run model).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/store/columns.h"
#include "harness/store/declared.h"
#include "harness/store/describe.h"
#include "harness/sweep/supervisor-int.h"

static void fmt_num(char *buf, size_t len, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%.10g", v);
	else
		buf[0] = '\0';
}

/*
 *  meta_note()
 *	make sure metrics.csv will describe (probe, metric): a declared metric
 *	of the probe, or a row the harness adds (counters, energy, timer);
 *	1 when it is new to the set, 0 when known, -1 out of memory
 */
static int meta_note(struct sup *s, const tcp_probe_t *p, int row, const char *metric, const char *unit)
{
	tcp_meta_t m;
	if (!s->meta || tcp_meta_find(s->meta, p->name, metric))
		return 0;
	if (row < p->nmetrics)
		tcp_meta_from_metric(p->name, &p->metrics[row], &m);
	else
		tcp_meta_from_harness(metric, unit, &m);
	return tcp_meta_set_add(s->meta, &m);
}

static void meta_flush(struct sup *s)
{
	char path[PATHLEN], err[PATHLEN + 256];
	if (tcp_meta_write(s->meta, sup_path_in(s->dir, TCP_META_FILE, path, sizeof(path)), err, sizeof(err)))
		sup_log(s, "%s: %s (tcprobe compare takes the roles from the other run of a pair)",
			TCP_META_FILE, err);
}

/*
 *  probes_write()
 *	probes.csv: what each probe of the plan declares (family, targets,
 *	axes with their defaults, help), so that a reader of the run needs no
 *	probe registry (harness/store/declared.h).  A write error is logged:
 *	readers then know the run's probes by their rows alone.
 */
static void probes_write(struct sup *s)
{
	tcp_probe_info_t *pi = calloc((size_t)s->plan.n + 1, sizeof(*pi));
	char (*axes)[1024] = calloc((size_t)s->plan.n + 1, sizeof(*axes));
	char path[PATHLEN], err[PATHLEN + 256];
	int n = 0;

	if (!pi || !axes) {
		sup_log(s, "%s: out of memory", TCP_PROBES_FILE);
		goto out;
	}
	for (int i = 0; i < s->plan.n; i++) {
		const tcp_probe_t *p = s->plan.p[i].probe;
		int seen = 0;
		for (int j = 0; j < n && !seen; j++)
			seen = !strcmp(pi[j].probe, p->name);
		if (seen)
			continue;
		size_t o = 0;
		for (int a = 0; a < p->naxes; a++)
			o += (size_t)snprintf(axes[n] + o, o < sizeof(axes[n]) ? sizeof(axes[n]) - o : 0, "%s%s=%s",
					      a ? "; " : "", p->axes[a].name, p->axes[a].def ? p->axes[a].def : "");
		pi[n] = (tcp_probe_info_t){ .probe = p->name, .family = p->family, .targets = tcp_arch_name(p->arch),
					    .axes = axes[n], .help = p->help };
		n++;
	}
	if (tcp_probes_write(pi, n, sup_path_in(s->dir, TCP_PROBES_FILE, path, sizeof(path)), err, sizeof(err)))
		sup_log(s, "%s: %s", TCP_PROBES_FILE, err);
out:
	free(pi);
	free(axes);
}

/*
 *  sup_meta_start()
 *	metrics.csv when the run starts: what --resume found there, and every
 *	declared metric of the plan's probes; rows the harness adds are added
 *	as they are first written (sup_write_rows).  -1 out of memory.
 */
int sup_meta_start(struct sup *s)
{
	if (!s->meta && !(s->meta = tcp_meta_set_new()))
		return -1;
	for (int i = 0; i < s->plan.n; i++) {
		const tcp_probe_t *p = s->plan.p[i].probe;
		for (int m = 0; m < p->nmetrics; m++)
			if (meta_note(s, p, m, p->metrics[m].name, p->metrics[m].unit) < 0)
				return -1;
	}
	meta_flush(s);
	probes_write(s);
	return 0;
}

/* The one target the point runs on (columns.h `arch`): the emulated target,
 * else the GPU's; `host` for a host-only probe; "" when no GPU was found. */
static const char *point_arch(const struct sup *s, const tcp_probe_t *p)
{
	const tcp_target_info_t *t;

	if (p->arch == TCP_ARCH_HOST)
		return "host";
	if (s->emu.target)
		return s->emu.target->name;
	t = s->w.cc > 0 ? tcp_target_by_cc(s->w.cc) : NULL;
	return t ? t->name : "";
}

/*
 *  sup_write_rows()
 *	one row per declared metric (and per counter) of point idx, in ONE
 *	write through the rows writer (harness/store/rows.h: cells by column
 *	id, axis columns by name); values only for OK points
 */
int sup_write_rows(struct sup *s, int idx, const struct result *r)
{
	const tcp_plan_point_t *pp = &s->plan.p[idx];
	const tcp_probe_t *p = pp->probe;
	int nrows = r->nm + r->nk;
	tcp_row_t *rows = calloc((size_t)nrows + 1, sizeof(*rows));
	char (*num)[9][40] = calloc((size_t)nrows + 1, sizeof(*num));
	char fixed[3][64], ts[40], clk[40], ax[TCP_MAX_AXES][64], temp[40], flop[40];
	tcp_point_desc_t d = { .family = p->family };
	if (!rows || !num) {
		free(rows);
		free(num);
		return -1;
	}
	snprintf(fixed[0], sizeof(fixed[0]), "%d", TCP_SCHEMA_VERSION);
	snprintf(fixed[1], sizeof(fixed[1]), "%d", s->w.gpu >= 0 ? s->w.gpu : s->gpu);
	snprintf(fixed[2], sizeof(fixed[2]), "%d", idx);
	tcp_prov_utc_now(ts, sizeof(ts));
	fmt_num(clk, sizeof(clk), r->clock_mhz);
	fmt_num(temp, sizeof(temp), r->temp_c);
	fmt_num(flop, sizeof(flop), r->st == TCP_OK && r->work_flop > 0 ? r->work_flop : NAN);
	for (int a = 0; a < p->naxes; a++)
		tcp_axis_value_str(&p->axes[a], pp->pt.v[a], ax[a], sizeof(ax[a]));
	for (int row = 0; row < nrows; row++) {
		rows[row].naxes = p->naxes;
		for (int a = 0; a < p->naxes; a++) {
			rows[row].an[a] = p->axes[a].name;
			rows[row].av[a] = ax[a];
		}
	}
	tcp_describe_axes(p->naxes, rows[0].an, rows[0].av, &d);
	const char *arch = point_arch(s, p), *sparse = d.sparse < 0 ? "" : d.sparse ? "1" : "0";
	int meta_new = 0;
	for (int row = 0; row < nrows; row++) {
		const char **c = rows[row].c;
		int is_k = row >= r->nm, is_x = !is_k && row >= p->nmetrics;
		const struct krow *k = is_k ? &r->k[row - r->nm] : NULL;
		tcp_status_t st = is_k ? k->st : r->st;
		c[TCP_COL_schema] = fixed[0];
		c[TCP_COL_run_id] = s->run_id;
		c[TCP_COL_gpu] = fixed[1];
		c[TCP_COL_point] = fixed[2];
		c[TCP_COL_probe] = p->name;
		c[TCP_COL_arch] = arch;
		c[TCP_COL_axes] = pp->key;
		const char *xname = NULL, *xunit = NULL;
		if (is_x)
			sup_extra_name(s, row - p->nmetrics, &xname, &xunit);
		c[TCP_COL_metric] = is_k ? k->metric : is_x ? xname : p->metrics[row].name;
		c[TCP_COL_unit] = is_k ? k->unit : is_x ? xunit : p->metrics[row].unit;
		if (meta_note(s, p, is_k || is_x ? p->nmetrics : row, c[TCP_COL_metric], c[TCP_COL_unit]) != 0)
			meta_new = 1;	/* (out of memory: written, the row just lacks its role) */
		if (is_k && st == TCP_OK) {
			fmt_num(num[row][0], 40, k->v);
			c[TCP_COL_median] = c[TCP_COL_min] = c[TCP_COL_max] = c[TCP_COL_mean] = num[row][0];
			c[TCP_COL_stddev] = "0";
			c[TCP_COL_spread_pct] = "0";
			c[TCP_COL_reps] = "1";
		} else if (!is_k && st == TCP_OK) {
			static const int vcol[6] = { TCP_COL_median, TCP_COL_min, TCP_COL_max, TCP_COL_mean,
						     TCP_COL_stddev, TCP_COL_spread_pct };
			tcp_stats_t stt;
			tcp_stats_compute(r->smp + (size_t)row * (size_t)r->ns, r->ns, &stt);
			double vals[6] = { stt.median, stt.min, stt.max, stt.mean, stt.stddev, stt.spread_pct };
			for (int i = 0; i < 6; i++) {
				fmt_num(num[row][i], 40, stt.n ? vals[i] : NAN);
				c[vcol[i]] = num[row][i];
			}
			snprintf(num[row][6], 40, "%d", stt.n);
			c[TCP_COL_reps] = num[row][6];
			fmt_num(num[row][8], 40, tcp_stats_median_ci_pct(r->smp + (size_t)row * (size_t)r->ns, r->ns));
			c[TCP_COL_ci_pct] = num[row][8];
			c[TCP_COL_reps_stop] = r->stop;
		} else {
			snprintf(num[row][6], 40, "%d", is_k ? 0 : r->ns);
			c[TCP_COL_reps] = num[row][6];
		}
		c[TCP_COL_status] = tcp_status_name(st);
		c[TCP_COL_reason] = st == TCP_OK ? "" : is_k ? k->reason : r->reason;
		c[TCP_COL_sm_clock_mhz] = clk;
		c[TCP_COL_throttle] = r->throttle;
		c[TCP_COL_timestamp] = ts;
		c[TCP_COL_contended] = r->contended < 0 ? "" : r->contended ? "1" : "0";
		c[TCP_COL_gpu_temp_c] = temp;
		c[TCP_COL_energy_check] = r->en.seen ? r->en.check : "";
		c[TCP_COL_family] = d.family;
		c[TCP_COL_mma_kind] = d.mma_kind;
		c[TCP_COL_a_type] = d.a_type;
		c[TCP_COL_b_type] = d.b_type;
		c[TCP_COL_acc_type] = d.acc_type;
		c[TCP_COL_mma_sparse] = sparse;
		c[TCP_COL_flop_per_run] = flop;
	}
	if (meta_new)		/* described before the rows that carry it */
		meta_flush(s);
	int rc = tcp_rows_write(s->rows, rows, nrows);
	free(rows);
	free(num);
	return rc;
}

const char *sup_path_in(const char *dir, const char *file, char *buf, size_t len)
{
	if (snprintf(buf, len, "%s/%s", dir, file) >= (int)len)
		buf[0] = '\0';	/* too long: the open fails and names the problem */
	return buf;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The axis columns: the union of `probes`' axis names, sorted (after the fixed
 * columns of harness/store/columns.h; the rows writer puts them together). */
int sup_build_header(struct sup *s)
{
	int na = 0, cap = 0;
	for (int i = 0; i < s->nprobes; i++)
		cap += s->probes[i]->naxes;
	if (!(s->axcols = calloc((size_t)cap + 1, sizeof(*s->axcols))))
		return -1;
	for (int i = 0; i < s->nprobes; i++)
		for (int a = 0; a < s->probes[i]->naxes; a++) {
			const char *n = s->probes[i]->axes[a].name;
			int dup = 0;
			for (int j = 0; j < na && !dup; j++)
				dup = strcmp(s->axcols[j], n) == 0;
			if (!dup)
				s->axcols[na++] = n;
		}
	qsort(s->axcols, (size_t)na, sizeof(*s->axcols), cmp_str);
	s->naxcols = na;
	return 0;
}

/* A tcp_run_keep_fn: rows of the points --resume keeps (ctx = s->done). */
static int keep_done(const tcp_run_t *r, const tcp_run_row_t *w, void *ctx)
{
	(void)r;
	return ((const unsigned char *)ctx)[atoll(w->id)];
}

/*
 *  sup_load_done()
 *	--resume: which points already have all their rows (the run model
 *	reads them); a partial point (a write cut by SIGKILL across pages) is
 *	removed from the CSV so it runs again.  0, or -1 with the message printed.
 */
int sup_load_done(struct sup *s)
{
	char err[1024];
	tcp_run_t *run;
	if (tcp_run_open(s->dir, TCP_RUN_MAY_BE_EMPTY | TCP_RUN_NEED_POINT, &run, err, sizeof(err))) {
		sup_die("--resume %s: %s", s->dir, err);
		return -1;
	}
	int *decl = calloc((size_t)s->plan.n + 1, sizeof(int));
	unsigned char *keep = calloc((size_t)run->nrows + 1, 1);
	int rc = -1, partial = 0;
	if (!decl || !keep) {
		sup_die("--resume %s: out of memory", s->dir);
		goto out;
	}
	for (int r = 0; r < run->nrows; r++) {
		const tcp_run_row_t *w = &run->rows[r];
		long long idx;
		char e[256];
		if (tcp_parse_int("point", w->id, 0, s->plan.n - 1, &idx, e, sizeof(e))) {
			sup_die("--resume %s: measurements.csv row %d: %s", s->dir, w->line, e);
			goto out;
		}
		const tcp_plan_point_t *pp = &s->plan.p[idx];
		if (strcmp(w->probe, pp->probe->name) || strcmp(w->axes, pp->key)) {
			sup_die("--resume %s: measurements.csv row %d does not match plan.txt: got '%s %s', expected '%s %s'",
				s->dir, w->line, w->probe, w->axes, pp->probe->name, pp->key);
			goto out;
		}
		/* count the probe's declared metrics only: counter and other extra
		 * rows may come and go, the declared ones are always written */
		for (int m = 0; m < pp->probe->nmetrics; m++)
			if (strcmp(w->metric, pp->probe->metrics[m].name) == 0)
				decl[idx]++;
		s->pst[idx] = (signed char)w->status;	/* for the probe's verdict line */
		/* a probe BLOCKED before stays BLOCKED (block.h; --no-block runs the rest) */
		if (w->status == TCP_BLOCKED && tcp_block_restore(&s->w.block, w->probe, w->reason)) {
			sup_die("--resume %s: out of memory", s->dir);
			goto out;
		}
	}
	for (int i = 0; i < s->plan.n; i++) {
		if (decl[i] == s->plan.p[i].probe->nmetrics && decl[i] > 0)
			s->done[i] = 1;
		else if (decl[i])
			partial++;
		if (!s->done[i])
			s->pst[i] = -1;	/* runs again */
	}
	if (partial) {
		for (int r = 0; r < run->nrows; r++)
			keep[r] = s->done[atoll(run->rows[r].id)];
		if (tcp_run_keep_rows(run, keep, err, sizeof(err))) {
			sup_die("--resume %s: %s", s->dir, err);
			goto out;
		}
		sup_log(s, "resume: dropped the rows of %d partially written point(s)", partial);
	}
	if (run->torn_tail)
		sup_log(s, "resume: dropped a torn last line of measurements.csv");
	/* the sweep's last line counts every contended point of the run, these too */
	s->resumed_contended = tcp_run_contended(run, keep_done, s->done);
	/* metrics.csv goes on from what the run has described so far */
	s->meta = run->meta;
	run->meta = NULL;
	rc = 0;
out:
	free(decl);
	free(keep);
	tcp_run_free(run);
	return rc;
}

/* Write provenance.csv: host part + the worker's GPU part + run facts. */
void sup_write_provenance(struct sup *s, tcp_prov_t *prov)
{
	char path[PATHLEN], err[512];
	if (tcp_prov_write(prov, sup_path_in(s->dir, "provenance.csv", path, sizeof(path)), err,
			   sizeof(err)))
		sup_log(s, "provenance.csv: %s", err);
}
