/*
 * supervisor-rows.c
 *	The row writer: what a sweep puts on disk.  The measurements.csv
 *	header (fixed columns + the axis union), a point's rows in one write,
 *	metrics.csv (the role of every metric the rows carry), probes.csv
 *	(what the plan's probes declare) and provenance.csv.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	if (s->cfg.emu.target)
		return s->cfg.emu.target->name;
	t = s->w.cc > 0 ? tcp_target_by_cc(s->w.cc) : NULL;
	return t ? t->name : "";
}

/* The cells every row of a point shares. */
struct point_cells {
	char fixed[3][64], ts[40], clk[40], temp[40], flop[40];
	char ax[TCP_MAX_AXES][64];
	const char *an[TCP_MAX_AXES], *av[TCP_MAX_AXES];
	tcp_point_desc_t d;
	const char *arch, *sparse;
};

static void point_cells(const struct sup *s, int idx, const struct result *r, struct point_cells *pc)
{
	const tcp_plan_point_t *pp = &s->plan.p[idx];
	const tcp_probe_t *p = pp->probe;
	memset(&pc->d, 0, sizeof(pc->d));
	pc->d.family = p->family;
	snprintf(pc->fixed[0], sizeof(pc->fixed[0]), "%d", TCP_SCHEMA_VERSION);
	snprintf(pc->fixed[1], sizeof(pc->fixed[1]), "%d", s->w.gpu >= 0 ? s->w.gpu : s->cfg.gpu);
	snprintf(pc->fixed[2], sizeof(pc->fixed[2]), "%d", idx);
	tcp_prov_utc_now(pc->ts, sizeof(pc->ts));
	fmt_num(pc->clk, sizeof(pc->clk), r->clock_mhz);
	fmt_num(pc->temp, sizeof(pc->temp), r->temp_c);
	fmt_num(pc->flop, sizeof(pc->flop), r->st == TCP_OK && r->work_flop > 0 ? r->work_flop : NAN);
	for (int a = 0; a < p->naxes; a++) {
		pc->an[a] = p->axes[a].name;
		pc->av[a] = tcp_axis_value_str(&p->axes[a], pp->pt.v[a], pc->ax[a], sizeof(pc->ax[a]));
	}
	tcp_describe_axes(p->naxes, pc->an, pc->av, &pc->d);
	pc->arch = point_arch(s, p);
	pc->sparse = pc->d.sparse < 0 ? "" : pc->d.sparse ? "1" : "0";
}

/* The value cells of one row (k: a counter or energy row, else series `row`). */
static void value_cells(const char **c, char (*num)[40], const struct result *r, int row, const struct krow *k,
			tcp_status_t st)
{
	static const int vcol[6] = { TCP_COL_median, TCP_COL_min, TCP_COL_max, TCP_COL_mean,
				     TCP_COL_stddev, TCP_COL_spread_pct };
	if (k && st == TCP_OK) {
		fmt_num(num[0], 40, k->v);
		c[TCP_COL_median] = c[TCP_COL_min] = c[TCP_COL_max] = c[TCP_COL_mean] = num[0];
		c[TCP_COL_stddev] = "0";
		c[TCP_COL_spread_pct] = "0";
		c[TCP_COL_reps] = "1";
	} else if (!k && st == TCP_OK) {
		tcp_stats_t stt;
		const double *x = r->smp + (size_t)row * (size_t)r->ns;
		tcp_stats_compute(x, r->ns, &stt);
		double vals[6] = { stt.median, stt.min, stt.max, stt.mean, stt.stddev, stt.spread_pct };
		for (int i = 0; i < 6; i++) {
			fmt_num(num[i], 40, stt.n ? vals[i] : NAN);
			c[vcol[i]] = num[i];
		}
		snprintf(num[6], 40, "%d", stt.n);
		c[TCP_COL_reps] = num[6];
		fmt_num(num[8], 40, tcp_stats_median_ci_pct(x, r->ns));
		c[TCP_COL_ci_pct] = num[8];
		c[TCP_COL_reps_stop] = r->stop;
	} else {
		snprintf(num[6], 40, "%d", k ? 0 : r->ns);
		c[TCP_COL_reps] = num[6];
	}
}

/* Row `row` of point idx: its metric and unit, metrics.csv told of them
 * (returns 1 when that is new), its status and value cells. */
static int metric_cells(struct sup *s, int idx, const struct result *r, int row, const char **c, char (*num)[40])
{
	const tcp_probe_t *p = s->plan.p[idx].probe;
	const struct krow *k = row >= r->nm ? &r->k[row - r->nm] : NULL;
	int is_x = !k && row >= p->nmetrics;
	tcp_status_t st = k ? k->st : r->st;
	if (k) {
		c[TCP_COL_metric] = k->metric;
		c[TCP_COL_unit] = k->unit;
	} else if (is_x) {
		tcp_config_extra_name(&s->cfg, row - p->nmetrics, &c[TCP_COL_metric], &c[TCP_COL_unit]);
	} else {
		c[TCP_COL_metric] = p->metrics[row].name;
		c[TCP_COL_unit] = p->metrics[row].unit;
	}
	/* (out of memory: written, the row just lacks its role) */
	int meta_new = meta_note(s, p, k || is_x ? p->nmetrics : row, c[TCP_COL_metric], c[TCP_COL_unit]) != 0;
	value_cells(c, num, r, row, k, st);
	c[TCP_COL_status] = tcp_status_name(st);
	c[TCP_COL_reason] = st == TCP_OK ? "" : k ? k->reason : r->reason;
	return meta_new;
}

/* The cells of a row that come from the point, not its metric. */
static void shared_cells(const struct sup *s, int idx, const struct result *r, const struct point_cells *pc,
			 const char **c)
{
	const tcp_plan_point_t *pp = &s->plan.p[idx];
	c[TCP_COL_schema] = pc->fixed[0];
	c[TCP_COL_run_id] = s->run_id;
	c[TCP_COL_gpu] = pc->fixed[1];
	c[TCP_COL_point] = pc->fixed[2];
	c[TCP_COL_probe] = pp->probe->name;
	c[TCP_COL_arch] = pc->arch;
	c[TCP_COL_axes] = pp->key;
	c[TCP_COL_sm_clock_mhz] = pc->clk;
	c[TCP_COL_throttle] = r->throttle;
	c[TCP_COL_timestamp] = pc->ts;
	c[TCP_COL_contended] = r->contended < 0 ? "" : r->contended ? "1" : "0";
	c[TCP_COL_gpu_temp_c] = pc->temp;
	c[TCP_COL_energy_check] = r->en.seen ? r->en.check : "";
	c[TCP_COL_family] = pc->d.family;
	c[TCP_COL_mma_kind] = pc->d.mma_kind;
	c[TCP_COL_a_type] = pc->d.a_type;
	c[TCP_COL_b_type] = pc->d.b_type;
	c[TCP_COL_acc_type] = pc->d.acc_type;
	c[TCP_COL_mma_sparse] = pc->sparse;
	c[TCP_COL_flop_per_run] = pc->flop;
}

/*
 *  sup_write_rows()
 *	one row per declared metric (and per counter) of point idx, in ONE
 *	write through the rows writer (harness/store/rows.h: cells by column
 *	id, axis columns by name); values only for OK points
 */
int sup_write_rows(struct sup *s, int idx, const struct result *r)
{
	const tcp_probe_t *p = s->plan.p[idx].probe;
	int nrows = r->nm + r->nk, meta_new = 0;
	tcp_row_t *rows = calloc((size_t)nrows + 1, sizeof(*rows));
	char (*num)[9][40] = calloc((size_t)nrows + 1, sizeof(*num));
	struct point_cells pc;
	if (!rows || !num) {
		free(rows);
		free(num);
		return -1;
	}
	point_cells(s, idx, r, &pc);
	for (int row = 0; row < nrows; row++) {
		rows[row].naxes = p->naxes;
		memcpy(rows[row].an, pc.an, sizeof(pc.an[0]) * (size_t)p->naxes);
		memcpy(rows[row].av, pc.av, sizeof(pc.av[0]) * (size_t)p->naxes);
		shared_cells(s, idx, r, &pc, rows[row].c);
		meta_new |= metric_cells(s, idx, r, row, rows[row].c, num[row]);
	}
	if (meta_new)		/* described before the rows that carry it */
		meta_flush(s);
	int rc = tcp_rows_write(s->rows, rows, nrows);
	free(rows);
	free(num);
	return rc;
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

/* Write provenance.csv: host part + the worker's GPU part + run facts. */
void sup_write_provenance(struct sup *s, tcp_prov_t *prov)
{
	char path[PATHLEN], err[512];
	if (tcp_prov_write(prov, sup_path_in(s->dir, "provenance.csv", path, sizeof(path)), err,
			   sizeof(err)))
		sup_log(s, "provenance.csv: %s", err);
}
