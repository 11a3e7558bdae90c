/*
 * compare.c
 *	The joining and verdict engine behind `tcprobe compare` (see compare.h
 *	for the definitions of ratio, noise band, verdict, regression and the
 *	roles that judge each row).
 *
 *	Order of the file: loading a run (checks, filters), directions, the
 *	verdict of one point, roles, the join, sorting, CSV output, the printed
 *	report.
 */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/analyze/compare.h"
#include "harness/store/exit.h"

#define NSTATUS TCP_NSTATUS	/* nstatus[NSTATUS]: a status word this build does not know */


static int match_any(const char *s, const char *const *pats, int n)
{
	if (n <= 0)
		return 1;
	for (int i = 0; i < n; i++)
		if (fnmatch(pats[i], s, 0) == 0)
			return 1;
	return 0;
}

static int key_cmp(const tcp_cmp_point_t *a, const tcp_cmp_point_t *b)
{
	int c = strcmp(a->probe, b->probe);
	if (!c)
		c = strcmp(a->axes, b->axes);
	if (!c)
		c = strcmp(a->metric, b->metric);
	return c;
}

static int point_cmp(const void *a, const void *b)
{
	return key_cmp(a, b);
}

/* Add the '|'-separated reasons of `s` to the set in buf (no "none"/"NA"). */
static void throttle_add(char *buf, size_t len, const char *s)
{
	char tok[64];
	while (*s) {
		size_t n = strcspn(s, "|");
		if (n > 0 && n < sizeof(tok)) {
			memcpy(tok, s, n);
			tok[n] = '\0';
			int skip = !strcmp(tok, "none") || !strncmp(tok, "NA", 2);
			/* already in the set? compare whole tokens */
			for (const char *p = buf; !skip && *p;) {
				size_t m = strcspn(p, "|");
				if (m == n && !strncmp(p, tok, n))
					skip = 1;
				p += m + (p[m] == '|');
			}
			if (!skip && strlen(buf) + n + 2 < len) {
				if (*buf)
					strcat(buf, "|");
				strcat(buf, tok);
			}
		}
		s += n + (s[n] == '|');
	}
}

/*
 *  cmp_point()
 *	A row of the run as compare joins it: a value only where OK, the
 *	spread recomputed from min/max when the writer left it empty.
 */
static void cmp_point(const tcp_run_row_t *w, int order, tcp_cmp_point_t *p)
{
	p->probe = w->probe;
	p->axes = w->axes;
	p->metric = w->metric;
	p->unit = w->unit;
	p->status = w->status_word;
	p->reason = w->reason;
	p->median_s = w->median_s;
	p->line = w->line;
	p->order = order;
	p->median = p->spread_pct = NAN;
	if (strcmp(p->status, "OK") != 0)
		return;		/* values are empty (or meaningless) unless OK */
	p->median = w->median;
	p->spread_pct = w->spread_pct;
	if (isnan(p->spread_pct) && isfinite(w->min) && isfinite(w->max) && p->median != 0)
		p->spread_pct = (w->max - w->min) / fabs(p->median) * 100.0;	/* older or foreign writers */
}

int tcp_cmp_keep(const tcp_run_t *run, const tcp_run_row_t *w, void *ctx)
{
	const tcp_cmp_filter_t *f = ctx;
	long g;

	if (!f)
		return 1;
	if (f->gpu >= 0 && (tcp_csv_long(tcp_run_cell(run, w->line - 2, "gpu"), &g) != 0 || g != f->gpu))
		return 0;
	return match_any(w->probe, f->probes, f->nprobes) && match_any(w->metric, f->metrics, f->nmetrics);
}

/* What a run's points add up to as compare loads them: the mean SM clock of
 * its OK points, the set of throttle reasons. */
struct run_acc {
	double clk_sum;
	int clk_n, thr_any;
	const char *prev_probe, *prev_axes;
};

/* Row w's point into acc: its clock and throttle once per point (a point's
 * rows are contiguous). */
static void acc_point(tcp_cmp_run_t *r, struct run_acc *acc, const tcp_run_row_t *w, const tcp_cmp_point_t *p)
{
	if (acc->prev_probe && !strcmp(acc->prev_probe, p->probe) && !strcmp(acc->prev_axes, p->axes))
		return;
	acc->prev_probe = p->probe;
	acc->prev_axes = p->axes;
	if (!strcmp(p->status, "OK") && isfinite(w->clock_mhz) && !r->emulated) {
		acc->clk_sum += w->clock_mhz;
		acc->clk_n++;
	}
	const char *thr = w->throttle;
	if (*thr && strncmp(thr, "NA", 2) != 0) {
		acc->thr_any = 1;
		throttle_add(r->throttle, sizeof(r->throttle), thr);
	}
}

static void acc_finish(tcp_cmp_run_t *r, const struct run_acc *acc)
{
	if (acc->clk_n)
		r->clock_mean_mhz = acc->clk_sum / acc->clk_n;
	if (!acc->thr_any)
		snprintf(r->throttle, sizeof(r->throttle), "NA");
	else if (!r->throttle[0])
		snprintf(r->throttle, sizeof(r->throttle), "none");
}

/* The rows of r->run that f keeps into r->pts, with their status counts,
 * clock and throttle.  -1 with "path:line: ..." in err. */
static int load_points(tcp_cmp_run_t *r, const tcp_cmp_filter_t *f, char *err, size_t errlen)
{
	const tcp_run_t *run = r->run;
	struct run_acc acc = { 0 };

	for (int i = 0; i < run->nrows; i++) {
		const tcp_run_row_t *w = &run->rows[i];
		tcp_cmp_point_t p;
		cmp_point(w, i, &p);
		if (f && f->gpu >= 0) {
			long g;
			const char *gs = tcp_run_cell(run, i, "gpu");
			if (tcp_csv_long(gs, &g) != 0)
				return tcp_errf(err, errlen, "%s:%d: gpu: got '%s', expected a CUDA ordinal",
					    run->meas_path, p.line, gs);
		}
		if (!tcp_cmp_keep(run, w, (void *)f))
			continue;
		if (r->emulated) {	/* the emulator's times are no measurement */
			p.median = p.spread_pct = NAN;
			p.median_s = "";
		}
		r->pts[r->npoints++] = p;
		r->nstatus[w->status >= 0 ? w->status : NSTATUS]++;
		acc_point(r, &acc, w, &p);
	}
	acc_finish(r, &acc);
	return 0;
}

/* r's points, sorted by key, hold each point once.  -1 naming the second row
 * of the first duplicate. */
static int check_unique(const tcp_cmp_run_t *r, const char *path, char *err, size_t errlen)
{
	for (int i = 1; i < r->npoints; i++)
		if (key_cmp(&r->pts[i - 1], &r->pts[i]) == 0) {
			const tcp_cmp_point_t *a = &r->pts[i - 1], *b = &r->pts[i];
			if (a->line > b->line) {
				const tcp_cmp_point_t *x = a;
				a = b;
				b = x;
			}
			return tcp_errf(err, errlen, "%s:%d: duplicate point %s [%s] %s (first on line %d); "
				    "a run holds each point once (rows of several GPUs? pick one with --gpu)",
				    path, b->line, b->probe, b->axes, b->metric, a->line);
		}
	return 0;
}

/*
 *  tcp_cmp_run_load()
 *	One results directory through the run model, strictly checked (see
 *	compare.h), then compare's own filters and its one-row-per-point rule.
 */
int tcp_cmp_run_load(const char *dir, const tcp_cmp_filter_t *f, tcp_cmp_run_t *r,
		     char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->clock_mean_mhz = NAN;
	if (tcp_run_open(dir, TCP_RUN_STRICT, &r->run, err, errlen) != 0)
		return -1;
	const tcp_run_t *run = r->run;
	const char *path = run->meas_path;
	snprintf(r->dir, sizeof(r->dir), "%s", run->dir);
	snprintf(r->name, sizeof(r->name), "%s", run->name);
	r->schema = run->schema;
	r->has_prov = run->has_prov;
	r->emulated = tcp_run_emulated(run);
	r->torn_tail = run->torn_tail;
	if (run->nrows == 0)
		return tcp_errf(err, errlen, "%s:2: no data rows (header only): nothing to compare", path);
	if (f && f->gpu >= 0 && !tcp_run_has_col(run, "gpu"))
		return tcp_errf(err, errlen, "%s:1: no 'gpu' column, so --gpu %d cannot select rows",
			    path, f->gpu);

	if (f)
		r->filter = *f, r->has_filter = 1;
	r->ncontended = tcp_run_contended(run, tcp_cmp_keep, (void *)f);
	r->pts = calloc((size_t)run->nrows, sizeof(*r->pts));
	if (!r->pts)
		return tcp_errf(err, errlen, "%s: out of memory for %d rows", path, run->nrows);
	if (load_points(r, f, err, errlen))
		return -1;
	qsort(r->pts, (size_t)r->npoints, sizeof(*r->pts), point_cmp);
	return check_unique(r, path, err, errlen);
}

void tcp_cmp_run_free(tcp_cmp_run_t *r)
{
	if (!r)
		return;
	tcp_run_free(r->run);
	r->run = NULL;
	free(r->pts);
	r->pts = NULL;
	r->npoints = 0;
}

int tcp_cmp_same_kind(const tcp_cmp_run_t *base, const tcp_cmp_run_t *runs, int nnew, char *err,
		      size_t errlen)
{
	for (int i = 0; i < nnew; i++)
		if (!runs[i].emulated != !base->emulated) {
			const tcp_cmp_run_t *e = base->emulated ? base : &runs[i];
			const tcp_cmp_run_t *h = base->emulated ? &runs[i] : base;
			return tcp_errf(err, errlen, "%s is an EMULATED run (%s) and %s a hardware run: got both, "
				    "expected emulated runs only or hardware runs only (an emulated run has "
				    "statuses and validation, no times)", e->dir, e->emulated, h->dir);
		}
	return 0;
}

const char *tcp_cmp_prov(const tcp_cmp_run_t *r, const char *key)
{
	return r->run ? tcp_run_prov(r->run, key) : NULL;
}

/*
 *  tcp_cmp_better()
 *	The probe's declaration of the time the run was written (a run with
 *	no metrics.csv: harness/store/declared.h), then the unit
 *	(harness/store/metrics.c: the rule metrics.csv is written by).
 */
int tcp_cmp_better(const char *probe, const char *metric, const char *unit)
{
	const tcp_meta_t *m = probe && metric ? tcp_declared_metric(NULL, probe, metric) : NULL;

	if (m && m->better >= 0)
		return m->better;
	return tcp_meta_better_of_unit(unit);
}

void tcp_cmp_cell(const tcp_cmp_point_t *base, const tcp_cmp_point_t *cur, int better,
		  double noise_floor_pct, double threshold_pct, tcp_cmp_cell_t *out)
{
	const tcp_cmp_judge_t j = { .better = better, .role = TCP_ROLE_GATED, .noise_floor_pct = noise_floor_pct,
				    .threshold_pct = threshold_pct };
	tcp_cmp_cell_judge(base, cur, &j, out);
	if (out->judged == TCP_J_GATED)
		out->judged = TCP_J_NONE;	/* no roles: nothing to say beyond the verdict */
}

/* A clock point usable as a reference: OK, a finite positive median. */
static int clock_ok(const tcp_cmp_point_t *p)
{
	return p && !strcmp(p->status, "OK") && isfinite(p->median) && p->median > 0;
}

/*
 *  judge_time()
 *	A time-domain change outside its band, against the point's own SM
 *	clock (compare.h): explained by it, beyond it, or no clock at all.
 */
static void judge_time(const tcp_cmp_judge_t *j, tcp_cmp_cell_t *out)
{
	if (!clock_ok(j->clk_base) || !clock_ok(j->clk_cur)) {
		out->judged = TCP_J_NO_CLOCK;
		if (!j->gate_all) {
			out->verdict = TCP_V_CHANGED;
			return;
		}
		out->verdict = out->effect_pct > 0 ? TCP_V_FASTER : TCP_V_SLOWER;
		out->regression = out->verdict == TCP_V_SLOWER && -out->effect_pct > j->threshold_pct;
		return;
	}
	double clk = j->clk_cur->median / j->clk_base->median;
	double expl = j->better == 1 ? clk : 1.0 / clk;	/* rates and clocks follow it, times its inverse */
	double beyond = out->ratio / expl;
	double sb = isnan(j->clk_base->spread_pct) ? 0 : j->clk_base->spread_pct;
	double sc = isnan(j->clk_cur->spread_pct) ? 0 : j->clk_cur->spread_pct;
	double band = fmax(out->noise_pct, fmax(sb, sc));

	out->clock_pct = (clk - 1.0) * 100.0;
	out->beyond_pct = (beyond - 1.0) * 100.0;
	if (!isfinite(out->beyond_pct) || fabs(out->beyond_pct) <= band) {
		out->judged = TCP_J_CLOCK;
		out->verdict = out->effect_pct > 0 ? TCP_V_FASTER : TCP_V_SLOWER;
		return;
	}
	double effect = j->better == 0 ? -out->beyond_pct : out->beyond_pct;
	out->judged = TCP_J_BEYOND_CLOCK;
	out->verdict = effect > 0 ? TCP_V_FASTER : TCP_V_SLOWER;
	out->regression = effect < 0 && -effect > j->threshold_pct;
}

/*
 *  tcp_cmp_cell_judge()
 *	The verdict of one point under its role (see compare.h for the rules).
 */
void tcp_cmp_cell_judge(const tcp_cmp_point_t *base, const tcp_cmp_point_t *cur, const tcp_cmp_judge_t *j,
			tcp_cmp_cell_t *out)
{
	int better = j->better;
	double noise_floor_pct = j->noise_floor_pct, threshold_pct = j->threshold_pct;

	memset(out, 0, sizeof(*out));
	out->base = base;
	out->cur = cur;
	out->ratio = out->change_pct = out->noise_pct = out->effect_pct = NAN;
	out->clock_pct = out->beyond_pct = NAN;
	out->gate_all = j->gate_all;

	if (!base && !cur) {
		out->verdict = TCP_V_ABSENT;
		return;
	}
	if (!base) {
		out->verdict = TCP_V_NEW;
		return;
	}
	if (!cur) {
		out->verdict = TCP_V_MISSING;
		return;
	}
	int bok = !strcmp(base->status, "OK"), cok = !strcmp(cur->status, "OK");
	if (!bok || !cok) {
		if (!strcmp(base->status, cur->status)) {
			out->verdict = TCP_V_UNMEASURED;
		} else {
			out->verdict = TCP_V_STATUS;
			out->regression = bok;	/* it worked, now it does not */
		}
		return;
	}
	if (strcmp(base->unit, cur->unit) != 0) {
		out->verdict = TCP_V_CHANGED;	/* apples and oranges: no ratio */
		return;
	}
	if (isnan(base->median) || isnan(cur->median)) {
		out->verdict = TCP_V_SAME;	/* emulated runs: OK in both, no number to compare */
		return;
	}

	double b = base->median, n = cur->median;
	double sb = isnan(base->spread_pct) ? 0 : base->spread_pct;
	double sn = isnan(cur->spread_pct) ? 0 : cur->spread_pct;
	double absband = fmax(j->quantum > 0 ? j->quantum : 0, j->abs_floor > 0 ? j->abs_floor : 0);
	out->noise_pct = fmax(noise_floor_pct, fmax(sb, sn));
	if (absband > 0 && b != 0)	/* one quantum, the absolute floor: in % of this base */
		out->noise_pct = fmax(out->noise_pct, absband / fabs(b) * 100.0);
	out->judged = j->role == TCP_ROLE_INFO ? TCP_J_INFO : j->role == TCP_ROLE_TIME ? TCP_J_CLOCK : TCP_J_GATED;
	if (b != 0) {
		out->ratio = n / b;
		out->change_pct = (n - b) / fabs(b) * 100.0;
	} else {
		out->ratio = n == 0 ? 1.0 : NAN;
		out->change_pct = n == 0 ? 0.0 : copysign(INFINITY, n);
	}
	out->effect_pct = better == 0 ? -out->change_pct : out->change_pct;

	if (fabs(out->change_pct) <= out->noise_pct || (absband > 0 && fabs(n - b) <= absband)) {
		out->verdict = TCP_V_SAME;
		if (j->role == TCP_ROLE_TIME && (!clock_ok(j->clk_base) || !clock_ok(j->clk_cur)))
			out->judged = TCP_J_NO_CLOCK;
	} else if (better < 0) {
		out->verdict = TCP_V_CHANGED;
		if (j->role == TCP_ROLE_TIME && (!clock_ok(j->clk_base) || !clock_ok(j->clk_cur)))
			out->judged = TCP_J_NO_CLOCK;
	} else if (j->role == TCP_ROLE_TIME) {
		judge_time(j, out);
	} else if (out->effect_pct > 0) {
		out->verdict = TCP_V_FASTER;
	} else {
		out->verdict = TCP_V_SLOWER;
		out->regression = -out->effect_pct > threshold_pct && (j->role != TCP_ROLE_INFO || j->gate_all);
	}
}

/* A point of some run, tagged with the run's index (0 = base), and the axes it joins on. */
struct ref {
	const tcp_cmp_point_t *p;
	int run;
	const char *key;
};

/* (probe, join key, metric): the join's order */
static int ref_key_cmp(const struct ref *x, const struct ref *y)
{
	int c = strcmp(x->p->probe, y->p->probe);
	if (!c)
		c = strcmp(x->key, y->key);
	if (!c)
		c = strcmp(x->p->metric, y->p->metric);
	return c;
}

static int ref_cmp(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;
	int c = ref_key_cmp(x, y);
	return c ? c : x->run - y->run;
}

/* ---- join keys: a point across an axis some run lacks ------------------ */

/* One probe of the comparison: one axes string of it per run (NULL: the run has none). */
struct kprobe {
	const char *probe;
	const char **sample;	/* nruns */
	int differs;		/* the runs' axis names differ */
};

struct keyer {
	int nruns, nprobes, cap;
	const tcp_run_t **run;	/* nruns: base, then the new runs (may be NULL) */
	struct kprobe *p;
	char buf[4096];		/* join_key's scratch for the completeness set */
};

/* Length of the name of the first "name=value" entry of s (up to ';'). */
static size_t entry_name_len(const char *s, size_t len)
{
	const char *eq = memchr(s, '=', len);
	return eq ? (size_t)(eq - s) : len;
}

/* Has the axes string `axes` an axis of this name? */
static int axes_has(const char *axes, const char *name, size_t nlen)
{
	for (const char *s = axes; *s;) {
		size_t l = strcspn(s, ";");
		if (entry_name_len(s, l) == nlen && !strncmp(s, name, nlen))
			return 1;
		s += l + (s[l] == ';');
	}
	return 0;
}

/* The axis names of a and b, in order, are the same. */
static int axes_names_equal(const char *a, const char *b)
{
	while (*a && *b) {
		size_t la = strcspn(a, ";"), lb = strcspn(b, ";");
		size_t na = entry_name_len(a, la), nb = entry_name_len(b, lb);
		if (na != nb || strncmp(a, b, na))
			return 0;
		a += la + (a[la] == ';');
		b += lb + (b[lb] == ';');
	}
	return !*a && !*b;
}

/* The single default value of a probe's axis as the newest run that describes
 * the probe declares it (harness/store/declared.h), into buf; NULL when no run
 * describes the probe or axis, or the default is a list. */
static const char *axis_default(const struct keyer *k, const char *probe, const char *name, size_t nlen,
				char *buf, size_t len)
{
	tcp_probe_info_t pi;

	for (int x = k->nruns - 1; x >= 0; x--)
		if (k->run[x] && !tcp_run_probe_info(k->run[x], probe, &pi))
			return tcp_probe_axis_default(&pi, name, nlen, buf, len);
	return NULL;
}

static const struct kprobe *kprobe_find(const struct keyer *k, const char *probe)
{
	for (int i = 0; i < k->nprobes; i++)
		if (!strcmp(k->p[i].probe, probe))
			return &k->p[i];
	return NULL;
}

/*
 *  keyer_build()
 *	Per probe, one axes string of it from every run that has it, and
 *	whether their axis names differ.  0, or -1 out of memory.
 */
static int keyer_build(struct keyer *k, const tcp_cmp_run_t *base, const tcp_cmp_run_t *runs, int nnew)
{
	memset(k, 0, sizeof(*k));
	k->nruns = nnew + 1;
	if (!(k->run = calloc((size_t)k->nruns, sizeof(*k->run))))
		return -1;
	for (int x = 0; x < k->nruns; x++) {
		const tcp_cmp_run_t *run = x ? &runs[x - 1] : base;
		k->run[x] = run->run;
		for (int i = 0; i < run->npoints; i++) {
			const tcp_cmp_point_t *pt = &run->pts[i];
			if (i && !strcmp(pt->probe, run->pts[i - 1].probe))
				continue;	/* sorted by probe: its first point stands for it */
			struct kprobe *kp = (struct kprobe *)kprobe_find(k, pt->probe);
			if (!kp) {
				if (k->nprobes == k->cap) {
					int cap = k->cap ? 2 * k->cap : 32;
					struct kprobe *np = realloc(k->p, (size_t)cap * sizeof(*np));
					if (!np)
						return -1;
					k->p = np;
					k->cap = cap;
				}
				kp = &k->p[k->nprobes];
				kp->probe = pt->probe;
				kp->differs = 0;
				if (!(kp->sample = calloc((size_t)k->nruns, sizeof(*kp->sample))))
					return -1;
				k->nprobes++;
			}
			kp->sample[x] = pt->axes;
		}
	}
	for (int i = 0; i < k->nprobes; i++) {
		const char *first = NULL;
		for (int x = 0; x < k->nruns; x++)
			if (k->p[i].sample[x]) {
				if (!first)
					first = k->p[i].sample[x];
				else if (!axes_names_equal(first, k->p[i].sample[x]))
					k->p[i].differs = 1;
			}
	}
	return 0;
}

static void keyer_free(struct keyer *k)
{
	for (int i = 0; i < k->nprobes; i++)
		free(k->p[i].sample);
	free(k->p);
	free(k->run);
	memset(k, 0, sizeof(*k));
}

/*
 *  join_key()
 *	The axes a point joins on (compare.h, "axes"): axes itself where every
 *	run of the probe has the same axes, else axes less each axis some run
 *	of the probe lacks, when the point sits at that axis's single default;
 *	axes itself when it sits elsewhere on one (nothing can join it).  The
 *	shortened key goes into buf (len); axes when it does not fit.
 */
static const char *join_key(const struct keyer *k, const char *probe, const char *axes, char *buf, size_t len)
{
	const struct kprobe *kp = kprobe_find(k, probe);
	size_t n = 0;

	if (!kp || !kp->differs)
		return axes;
	buf[0] = 0;
	for (const char *s = axes; *s;) {
		size_t l = strcspn(s, ";"), nl = entry_name_len(s, l);
		int common = 1;
		for (int x = 0; x < k->nruns && common; x++)
			common = !kp->sample[x] || axes_has(kp->sample[x], s, nl);
		if (common) {
			if (n + l + 2 > len)
				return axes;
			if (n)
				buf[n++] = ';';
			memcpy(buf + n, s, l);
			buf[n += l] = 0;
		} else {
			char db[128];
			const char *def = axis_default(k, probe, s, nl, db, sizeof(db));
			if (!def || nl == l || strlen(def) != l - nl - 1 || strncmp(def, s + nl + 1, l - nl - 1))
				return axes;
		}
		s += l + (s[l] == ';');
	}
	return buf;
}

/* A row's join key for the completeness set (tcp_run_set_add_keyed). */
static const char *set_key(const tcp_run_row_t *w, void *ctx)
{
	struct keyer *k = ctx;
	return join_key(k, w->probe, w->axes, k->buf, sizeof(k->buf));
}

/*
 *  keyer_axes()
 *	The axes of each probe that some of its runs lack (its default, and
 *	whether BASE has it) into out->axes_joined.  0, or -1 out of memory.
 */
static int keyer_axes(const struct keyer *k, tcp_cmp_t *out)
{
	for (int i = 0; i < k->nprobes; i++) {
		const struct kprobe *kp = &k->p[i];
		if (!kp->differs)
			continue;
		for (int x = 0; x < k->nruns; x++) {
			if (!kp->sample[x])
				continue;
			for (const char *s = kp->sample[x]; *s;) {
				size_t l = strcspn(s, ";"), nl = entry_name_len(s, l);
				int common = 1, known = 0;
				for (int y = 0; y < k->nruns && common; y++)
					common = !kp->sample[y] || axes_has(kp->sample[y], s, nl);
				for (int j = 0; j < out->naxes_joined && !known; j++)
					known = out->axes_joined[j].probe == kp->probe && strlen(out->axes_joined[j].axis) == nl &&
						!strncmp(out->axes_joined[j].axis, s, nl);
				if (!common && !known) {
					tcp_cmp_axis_t *a = realloc(out->axes_joined, (size_t)(out->naxes_joined + 1) * sizeof(*a));
					if (!a)
						return -1;
					out->axes_joined = a;
					a = &a[out->naxes_joined++];
					memset(a, 0, sizeof(*a));
					a->probe = kp->probe;
					snprintf(a->axis, sizeof(a->axis), "%.*s", (int)nl, s);
					char db[128];
					const char *def = axis_default(k, kp->probe, s, nl, db, sizeof(db));
					snprintf(a->value, sizeof(a->value), "%s", def ? def : "");
					a->in_base = kp->sample[0] && axes_has(kp->sample[0], s, nl);
				}
				s += l + (s[l] == ';');
			}
		}
	}
	return 0;
}

static int row_order_cmp(const void *a, const void *b)
{
	const tcp_cmp_row_t *x = a, *y = b;
	return (x->order > y->order) - (x->order < y->order);
}

/*
 *  join_missing()
 *	The completeness rule (harness/store/run.h): per NEW run, the rows OK
 *	in BASE that it has no row of, among the rows the filters keep, each
 *	row keyed as the join keys it (join_key).  -1 out of memory.
 */
static int join_missing(const tcp_cmp_run_t *base, const tcp_cmp_run_t *runs, int nnew, struct keyer *k,
			tcp_cmp_t *out)
{
	void *f = base->has_filter ? (void *)&base->filter : NULL;
	tcp_run_set_t *s = tcp_run_set_new(nnew + 1);
	int rc = !s || !base->run || tcp_run_set_add_keyed(s, 0, 1, base->run, tcp_cmp_keep, f, set_key, k);

	for (int r = 0; !rc && r < nnew; r++)
		rc = !runs[r].run || tcp_run_set_add_keyed(s, r + 1, 0, runs[r].run, tcp_cmp_keep, f, set_key, k);
	for (int r = 0; !rc && r < nnew; r++)
		out->nmissing[r] = tcp_run_set_missing(s, r + 1, NULL, NULL);
	if (!rc)
		out->nbase_ok = tcp_run_set_nref(s);
	tcp_run_set_free(s);
	return rc ? -1 : 0;
}

/* ---- roles ------------------------------------------------------------- */

/* The metrics.csv a pair is judged by: --roles, else BASE's, else NEW's. */
static const tcp_meta_set_t *pair_roles(const tcp_cmp_run_t *base, const tcp_cmp_run_t *cur,
					const tcp_cmp_opts_t *o, const char **from)
{
	const tcp_meta_set_t *b = base->run ? base->run->meta : NULL, *n = cur->run ? cur->run->meta : NULL;
	if (o && o->roles) {
		*from = o->roles_path ? o->roles_path : "--roles";
		return o->roles;
	}
	*from = b ? base->dir : n ? cur->dir : NULL;
	return b ? b : n;
}

int tcp_cmp_roles_check(const tcp_cmp_run_t *base, const tcp_cmp_run_t *runs, int nnew, const tcp_cmp_opts_t *o,
			char *err, size_t errlen)
{
	for (int r = 0; r < nnew; r++) {
		const char *from;
		if (pair_roles(base, &runs[r], o, &from) || (base->emulated && runs[r].emulated))
			continue;
		return tcp_errf(err, errlen, "neither %s nor %s has a %s (the metric roles compare judges by; "
				"runs written before tcprobe recorded them have none): got two such runs, expected one "
				"run with it, or --roles FILE (`tcprobe list --metrics` writes this binary's)",
				base->dir, runs[r].dir, TCP_META_FILE);
	}
	return 0;
}

/*
 *  meta_of()
 *	The role of (probe, metric) in one pair: the chosen metrics.csv's, else
 *	the other run's, else the unit's.  0 when the pair has no roles at all.
 */
static int meta_of(const tcp_meta_set_t *roles, const tcp_cmp_run_t *base, const tcp_cmp_run_t *cur,
		   const char *probe, const char *metric, const char *unit, tcp_meta_t *m)
{
	if (!roles)
		return 0;
	const tcp_meta_t *f = tcp_meta_find(roles, probe, metric);
	if (!f && base->run)
		f = tcp_meta_find(base->run->meta, probe, metric);
	if (!f && cur->run)
		f = tcp_meta_find(cur->run->meta, probe, metric);
	if (f)
		*m = *f;
	else
		tcp_meta_from_unit(metric, unit, m);
	return 1;
}

/* The roles of one NEW run's pair, for judge_point. */
struct pair {
	const tcp_meta_set_t *roles;
	const tcp_cmp_run_t *base, *cur;
};

/*
 *  run_clock()
 *	The clock row (clock source src) of point (probe, axes) of run x, read
 *	from the whole run: a --metric filter that left it out of the join
 *	must not leave the point without its clock (--probe and --gpu still
 *	apply).  1 with *out filled, 0 when the run has none OK.
 */
static int run_clock(const struct pair *pr, const tcp_cmp_run_t *x, const char *probe, const char *axes,
		     tcp_clock_src_t src, tcp_cmp_point_t *out)
{
	const tcp_run_point_t *p = x->run && !x->emulated ? tcp_run_find(x->run, probe, axes) : NULL;
	tcp_cmp_filter_t f = x->filter;

	f.metrics = NULL;
	f.nmetrics = 0;
	for (int k = 0; p && k < p->nm; k++) {
		const tcp_run_row_t *w = p->m[k];
		tcp_meta_t m;
		if (!tcp_cmp_keep(x->run, w, x->has_filter ? &f : NULL) ||
		    !meta_of(pr->roles, pr->base, pr->cur, probe, w->metric, w->unit, &m) || m.clock != src)
			continue;
		cmp_point(w, 0, out);
		if (clock_ok(out))
			return 1;
	}
	return 0;
}

/* Same (probe, join key): rows of one point. */
static int same_point(const tcp_cmp_row_t *a, const tcp_cmp_row_t *b)
{
	return !strcmp(a->probe, b->probe) && !strcmp(a->key, b->key);
}

/*
 *  judge_point()
 *	The cells of NEW run r for rows [i0, i1), one point's rows: its SM
 *	clocks first (the in-kernel and the CUPTI clock metric, each OK in both
 *	runs; from the whole runs where a --metric filter left them out), then
 *	every row under its role, a time row against the clock of its own pass
 *	(a counter row: CUPTI's; any other: the kernel's), else the other.
 */
static void judge_point(tcp_cmp_t *out, int r, int i0, int i1, const tcp_meta_t *metas, const int *has,
			const tcp_cmp_opts_t *o, const struct pair *pr)
{
	tcp_cmp_cell_t own[TCP_CLOCK_CUPTI + 1];
	tcp_cmp_point_t ob[TCP_CLOCK_CUPTI + 1], oc[TCP_CLOCK_CUPTI + 1];
	const tcp_cmp_cell_t *clk[TCP_CLOCK_CUPTI + 1] = { NULL };
	for (int i = i0; i < i1; i++) {
		const tcp_cmp_cell_t *c = &out->rows[i].cells[r];
		if (has[i] && metas[i].clock != TCP_CLOCK_NONE && !clk[metas[i].clock] && clock_ok(c->base) &&
		    clock_ok(c->cur))
			clk[metas[i].clock] = c;
	}
	const char *bax = NULL, *cax = NULL;	/* the point's axes in each run (they may differ: join_key) */
	for (int i = i0; i < i1; i++) {
		const tcp_cmp_cell_t *c = &out->rows[i].cells[r];
		if (!bax && c->base)
			bax = c->base->axes;
		if (!cax && c->cur)
			cax = c->cur->axes;
	}
	for (int src = TCP_CLOCK_KERNEL; pr->roles && bax && cax && src <= TCP_CLOCK_CUPTI; src++)
		if (!clk[src] && run_clock(pr, pr->base, out->rows[i0].probe, bax, src, &ob[src]) &&
		    run_clock(pr, pr->cur, out->rows[i0].probe, cax, src, &oc[src])) {
			own[src].base = &ob[src];
			own[src].cur = &oc[src];
			clk[src] = &own[src];
		}
	for (int i = i0; i < i1; i++) {
		tcp_cmp_row_t *row = &out->rows[i];
		tcp_cmp_cell_t *c = &row->cells[r];
		/* the clock of the same pass first: a counter row's is the counter
		 * pass's, a timed row's the kernel's own */
		int cupti_first = tcp_meta_counter_row(row->metric);
		const tcp_cmp_cell_t *ck = clk[cupti_first ? TCP_CLOCK_CUPTI : TCP_CLOCK_KERNEL];
		if (!ck)
			ck = clk[cupti_first ? TCP_CLOCK_KERNEL : TCP_CLOCK_CUPTI];
		tcp_cmp_judge_t j = { .role = TCP_ROLE_GATED, .gate_all = o->gate_all,
				      .noise_floor_pct = o->noise_floor_pct, .threshold_pct = o->threshold_pct };
		if (!has[i]) {
			j.better = tcp_cmp_better(row->probe, row->metric, row->unit);
		} else {
			j.better = metas[i].better;
			j.role = metas[i].role;
			j.quantum = metas[i].quantum;
			j.abs_floor = metas[i].abs_floor;
			j.clk_base = ck ? ck->base : NULL;
			j.clk_cur = ck ? ck->cur : NULL;
			if (r == 0) {
				row->better = metas[i].better;
				row->role = metas[i].role;
			}
		}
		tcp_cmp_cell_judge(c->base, c->cur, &j, c);
		if (!has[i])
			c->judged = TCP_J_NONE;	/* no roles: every row gated, nothing more to say */
		out->count[r][c->verdict]++;
		out->nregress[r] += c->regression;
	}
}

/* out's per-NEW-run arrays and room for total rows.  0, or -1 out of memory. */
static int join_alloc(tcp_cmp_t *out, int nnew, size_t total)
{
	size_t n = (size_t)(nnew ? nnew : 1);

	out->rows = calloc(total ? total : 1, sizeof(*out->rows));
	out->count = calloc(n, sizeof(*out->count));
	out->nregress = calloc(n, sizeof(*out->nregress));
	out->nmissing = calloc(n, sizeof(*out->nmissing));
	out->roles_from = calloc(n, sizeof(*out->roles_from));
	return out->rows && out->count && out->nregress && out->nmissing && out->roles_from ? 0 : -1;
}

/* The room every shortened join key of the runs' points needs (0: no probe's
 * axes differ between the runs, every key is a point's own axes). */
static size_t key_arena_size(const struct keyer *ky, const tcp_cmp_run_t *base, const tcp_cmp_run_t *runs,
			     int nnew)
{
	size_t arena = 0;

	for (int x = 0; x <= nnew; x++) {
		const tcp_cmp_run_t *run = x ? &runs[x - 1] : base;
		for (int i = 0; i < run->npoints; i++) {
			const struct kprobe *kp = kprobe_find(ky, run->pts[i].probe);
			arena += kp && kp->differs ? strlen(run->pts[i].axes) + 1 : 0;
		}
	}
	return arena;
}

/* Every run's points into refs, each with the key it joins on (a shortened
 * key written into out->key_arena, of arena bytes). */
static void collect_refs(const struct keyer *ky, const tcp_cmp_run_t *base, const tcp_cmp_run_t *runs, int nnew,
			 tcp_cmp_t *out, size_t arena, struct ref *refs)
{
	size_t k = 0, used = 0;

	for (int x = 0; x <= nnew; x++) {
		const tcp_cmp_run_t *run = x ? &runs[x - 1] : base;
		for (int i = 0; i < run->npoints; i++) {
			const tcp_cmp_point_t *pt = &run->pts[i];
			const char *key = pt->axes;
			if (out->key_arena) {
				size_t room = arena - used;
				key = join_key(ky, pt->probe, pt->axes, out->key_arena + used, room);
				if (key != pt->axes)
					used += strlen(key) + 1;
			}
			refs[k++] = (struct ref){ pt, x, key };
		}
	}
}

/*
 *  fill_row()
 *	The row of refs[i..j) (one key: a point's metric in each run that has
 *	it), the last of out->rows: its names, BASE's point and every NEW
 *	run's cell, its sweep order and the default direction and role.
 */
static void fill_row(tcp_cmp_t *out, tcp_cmp_row_t *row, const struct ref *refs, size_t i, size_t j, int nnew)
{
	const tcp_cmp_point_t *in[nnew + 1];

	memset(in, 0, sizeof(in));
	for (size_t x = i; x < j; x++)
		in[refs[x].run] = refs[x].p;
	const tcp_cmp_point_t *first = refs[i].p;
	row->probe = first->probe;
	row->axes = first->axes;
	row->key = refs[i].key;
	for (int r = 0; r < nnew && row->key != first->axes; r++)	/* joined across an axis: the point as it runs now */
		if (in[r + 1]) {
			row->axes = in[r + 1]->axes;
			break;
		}
	/* a point joined across an axis: counted once, on its first row */
	if (in[0] && strcmp(in[0]->axes, row->axes) &&
	    (out->nrows == 1 || !same_point(&out->rows[out->nrows - 2], row)))
		for (int a = 0; a < out->naxes_joined; a++)
			out->axes_joined[a].points += !strcmp(out->axes_joined[a].probe, row->probe);
	row->metric = first->metric;
	row->unit = first->unit;
	row->base = in[0];
	/* sweep order: base row index, else after every base row */
	row->order = (refs[i].run) * (1 << 24) + first->order;
	row->better = tcp_cmp_better(row->probe, row->metric, row->unit);
	row->role = TCP_ROLE_GATED;
	for (int r = 0; r < nnew; r++) {
		row->cells[r].base = in[0];
		row->cells[r].cur = in[r + 1];
	}
}

/* One row per key of the sorted refs[0..total), in key order: every
 * point's rows are neighbours.  0, or -1 out of memory. */
static int join_rows(tcp_cmp_t *out, const struct ref *refs, size_t total, int nnew)
{
	for (size_t i = 0; i < total;) {
		size_t j = i;
		tcp_cmp_row_t *row = &out->rows[out->nrows];
		row->cells = calloc((size_t)(nnew ? nnew : 1), sizeof(*row->cells));
		if (!row->cells)
			return -1;
		out->nrows++;
		while (j < total && ref_key_cmp(&refs[j], &refs[i]) == 0)
			j++;
		fill_row(out, row, refs, i, j, nnew);
		i = j;
	}
	return 0;
}

/* Each NEW run's cells, one point at a time, under its pair's roles
 * (metas, has: room for a row each). */
static void judge_runs(tcp_cmp_t *out, const tcp_cmp_run_t *base, const tcp_cmp_run_t *runs, int nnew,
		       const tcp_cmp_opts_t *o, tcp_meta_t *metas, int *has)
{
	for (int r = 0; r < nnew; r++) {
		const tcp_meta_set_t *roles = pair_roles(base, &runs[r], o, &out->roles_from[r]);
		out->roles |= roles != NULL;
		const struct pair pr = { roles, base, &runs[r] };
		for (int i = 0; i < out->nrows; i++)
			has[i] = meta_of(roles, base, &runs[r], out->rows[i].probe, out->rows[i].metric,
					 out->rows[i].unit, &metas[i]);
		for (int i0 = 0, i1; i0 < out->nrows; i0 = i1) {
			for (i1 = i0 + 1; i1 < out->nrows && same_point(&out->rows[i0], &out->rows[i1]); i1++)
				;
			judge_point(out, r, i0, i1, metas, has, o, &pr);
		}
	}
}

/*
 *  tcp_cmp_join_opts()
 *	Union of every run's keys; one row each, in sweep order (the base's
 *	file order, then points only the NEW runs have); then each NEW run's
 *	cells, point by point, under the roles of its pair.
 */
int tcp_cmp_join_opts(const tcp_cmp_run_t *base, const tcp_cmp_run_t *runs, int nnew, const tcp_cmp_opts_t *o,
		      tcp_cmp_t *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	out->nnew = nnew;
	out->threshold_pct = o->threshold_pct;
	out->noise_floor_pct = o->noise_floor_pct;
	out->gate_all = o->gate_all;

	size_t total = (size_t)base->npoints;
	for (int i = 0; i < nnew; i++)
		total += (size_t)runs[i].npoints;
	struct ref *refs = calloc(total ? total : 1, sizeof(*refs));
	tcp_meta_t *metas = calloc(total ? total : 1, sizeof(*metas));
	int *has = calloc(total ? total : 1, sizeof(*has));
	int oom = join_alloc(out, nnew, total);
	struct keyer ky;
	int kyrc = keyer_build(&ky, base, runs, nnew);
	size_t arena = kyrc ? 0 : key_arena_size(&ky, base, runs, nnew);
	if (!kyrc && arena && !(out->key_arena = malloc(arena)))
		kyrc = -1;
	if (kyrc || oom || !refs || !metas || !has || keyer_axes(&ky, out) || join_missing(base, runs, nnew, &ky, out)) {
		keyer_free(&ky);
		oom = 1;
	} else {
		collect_refs(&ky, base, runs, nnew, out, arena, refs);
		keyer_free(&ky);
		qsort(refs, total, sizeof(*refs), ref_cmp);
		oom = join_rows(out, refs, total, nnew);
	}
	free(refs);
	if (!oom)
		judge_runs(out, base, runs, nnew, o, metas, has);
	free(metas);
	free(has);
	if (oom) {
		tcp_cmp_free(out);
		return tcp_errf(err, errlen, "compare: out of memory joining %zu points", total);
	}
	qsort(out->rows, (size_t)out->nrows, sizeof(*out->rows), row_order_cmp);
	return 0;
}

int tcp_cmp_join(const tcp_cmp_run_t *base, const tcp_cmp_run_t *runs, int nnew,
		 double noise_floor_pct, double threshold_pct, tcp_cmp_t *out,
		 char *err, size_t errlen)
{
	const tcp_cmp_opts_t o = { .noise_floor_pct = noise_floor_pct, .threshold_pct = threshold_pct };
	return tcp_cmp_join_opts(base, runs, nnew, &o, out, err, errlen);
}

int tcp_cmp_regressions(const tcp_cmp_t *c)
{
	int n = 0;
	for (int i = 0; i < c->nnew; i++)
		n += c->nregress[i];
	return n;
}

int tcp_cmp_missing(const tcp_cmp_t *c)
{
	int n = 0;
	for (int i = 0; !c->allow_missing && i < c->nnew; i++)
		n += c->nmissing[i];
	return n;
}

int tcp_cmp_status(const tcp_cmp_t *c)
{
	return tcp_cmp_missing(c) ? TCP_EXIT_INCOMPLETE : tcp_cmp_regressions(c) ? TCP_EXIT_POINTS : TCP_EXIT_OK;
}

void tcp_cmp_free(tcp_cmp_t *c)
{
	if (!c)
		return;
	for (int i = 0; c->rows && i < c->nrows; i++)
		free(c->rows[i].cells);
	free(c->rows);
	free(c->count);
	free(c->nregress);
	free(c->nmissing);
	free(c->roles_from);
	free(c->axes_joined);
	free(c->key_arena);
	memset(c, 0, sizeof(*c));
}

const char *tcp_judged_name(tcp_judged_t j)
{
	static const char *const names[] = { "", "gated", "clock", "beyond_clock", "no_clock", "info" };
	return (unsigned)j < sizeof(names) / sizeof(names[0]) ? names[j] : "?";
}

const char *tcp_verdict_name(tcp_verdict_t v)
{
	static const char *const names[] = {
		"same", "faster", "slower", "changed", "status_changed", "new", "missing",
		"unmeasured", "absent"
	};
	return (unsigned)v < sizeof(names) / sizeof(names[0]) ? names[v] : "?";
}

/*
 *  sort_key()
 *	Severity rank of a cell, and within a rank the size of the effect
 *	(smaller sorts first): the worst regression leads the table.
 */
static void sort_key(const tcp_cmp_cell_t *c, int *rank, double *sec)
{
	double mag = isnan(c->change_pct) ? 0 : -fabs(c->change_pct);
	/* slower, but not by the gate's rule: the clock explains it, or an
	 * informational row (its role does not gate it): after changed rows */
	int ungated = c->judged == TCP_J_CLOCK || (c->judged == TCP_J_INFO && !c->gate_all);
	*sec = 0;
	switch (c->verdict) {
	case TCP_V_STATUS:
		*rank = c->regression ? 0 : 5;
		break;
	case TCP_V_SLOWER:
		*rank = ungated ? 3 : 1;
		*sec = c->effect_pct;
		break;
	case TCP_V_CHANGED:
		*rank = 2;
		*sec = mag;
		break;
	case TCP_V_FASTER:
		*rank = 4;
		*sec = -c->effect_pct;
		break;
	case TCP_V_MISSING:	/* the rows the completeness gate counts first */
		*rank = !strcmp(c->base->status, "OK") ? 6 : 7;
		break;
	case TCP_V_NEW:
		*rank = 7;
		break;
	case TCP_V_UNMEASURED:
		*rank = 8;
		break;
	case TCP_V_ABSENT:
		*rank = 10;
		break;
	default:
		*rank = 9;
		*sec = mag;
		break;
	}
}

struct skey {
	int rank;
	double sec;
	int order;
	int idx;
};

static int skey_cmp(const void *a, const void *b)
{
	const struct skey *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

void tcp_cmp_sort(tcp_cmp_t *c)
{
	if (c->nrows < 2)
		return;
	struct skey *k = calloc((size_t)c->nrows, sizeof(*k));
	tcp_cmp_row_t *tmp = calloc((size_t)c->nrows, sizeof(*tmp));
	if (!k || !tmp) {	/* out of memory: keep sweep order */
		free(k);
		free(tmp);
		return;
	}
	for (int i = 0; i < c->nrows; i++) {
		k[i].rank = 99;
		k[i].order = c->rows[i].order;
		k[i].idx = i;
		for (int r = 0; r < c->nnew; r++) {
			int rank;
			double sec;
			sort_key(&c->rows[i].cells[r], &rank, &sec);
			if (rank < k[i].rank || (rank == k[i].rank && sec < k[i].sec)) {
				k[i].rank = rank;
				k[i].sec = sec;
			}
		}
	}
	qsort(k, (size_t)c->nrows, sizeof(*k), skey_cmp);
	for (int i = 0; i < c->nrows; i++)
		tmp[i] = c->rows[k[i].idx];
	memcpy(c->rows, tmp, (size_t)c->nrows * sizeof(*tmp));
	free(tmp);
	free(k);
}

/* ---- CSV ---------------------------------------------------------------- */

static void put_field(FILE *f, const char *s, int first)
{
	char buf[1024];
	if (!first)
		fputc(',', f);
	fputs(tcp_csv_quote(s ? s : "", buf, sizeof(buf)), f);
}

static void put_num(FILE *f, double v)
{
	fputc(',', f);
	if (isfinite(v))
		fprintf(f, "%.9g", v);
	else if (isinf(v))
		fputs(v > 0 ? "inf" : "-inf", f);
}

int tcp_cmp_write_csv(FILE *f, const tcp_cmp_t *c, const tcp_cmp_run_t *base,
		      const tcp_cmp_run_t *runs)
{
	static const char *const common[] = {
		"base_run", "probe", "axes", "metric", "unit", "better", "base_median",
		"base_spread_pct", "base_status"
	};
	static const char *const group[] = {
		"new_run", "new_median", "new_spread_pct", "new_status", "ratio", "change_pct",
		"noise_pct", "verdict", "regression"
	};
	for (size_t i = 0; i < sizeof(common) / sizeof(common[0]); i++)
		put_field(f, common[i], i == 0);
	for (int r = 0; r < c->nnew; r++)
		for (size_t i = 0; i < sizeof(group) / sizeof(group[0]); i++) {
			char name[64];
			if (r == 0)
				snprintf(name, sizeof(name), "%s", group[i]);
			else
				snprintf(name, sizeof(name), "%s_%d", group[i], r + 1);
			put_field(f, name, 0);
		}
	if (c->roles) {		/* the roles' columns after every earlier one: a reader by name sees both */
		put_field(f, "role", 0);
		for (int r = 0; r < c->nnew; r++) {
			char name[64];
			snprintf(name, sizeof(name), r ? "judged_%d" : "judged", r + 1);
			put_field(f, name, 0);
			snprintf(name, sizeof(name), r ? "clock_pct_%d" : "clock_pct", r + 1);
			put_field(f, name, 0);
		}
	}
	fputc('\n', f);

	for (int i = 0; i < c->nrows; i++) {
		const tcp_cmp_row_t *row = &c->rows[i];
		const tcp_cmp_point_t *b = row->base;
		put_field(f, base->name, 1);
		put_field(f, row->probe, 0);
		put_field(f, row->axes, 0);
		put_field(f, row->metric, 0);
		put_field(f, row->unit, 0);
		put_field(f, row->better == 1 ? "higher" : row->better == 0 ? "lower" : "unknown", 0);
		/* the base's own text: exact, not re-rounded */
		put_field(f, b && !isnan(b->median) ? b->median_s : "", 0);
		put_num(f, b ? b->spread_pct : NAN);
		put_field(f, b ? b->status : "", 0);
		for (int r = 0; r < c->nnew; r++) {
			const tcp_cmp_cell_t *cl = &row->cells[r];
			const tcp_cmp_point_t *n = cl->cur;
			put_field(f, runs[r].name, 0);
			put_field(f, n && !isnan(n->median) ?
				  n->median_s : "", 0);
			put_num(f, n ? n->spread_pct : NAN);
			put_field(f, n ? n->status : "", 0);
			put_num(f, cl->ratio);
			put_num(f, cl->change_pct);
			put_num(f, cl->noise_pct);
			put_field(f, tcp_verdict_name(cl->verdict), 0);
			put_field(f, cl->regression ? "1" : "0", 0);
		}
		if (c->roles) {
			put_field(f, tcp_role_name(row->role), 0);
			for (int r = 0; r < c->nnew; r++) {
				put_field(f, tcp_judged_name(row->cells[r].judged), 0);
				put_num(f, row->cells[r].clock_pct);
			}
		}
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

/* ---- the printed report ----------------------------------------------- */

/* Numbers as a person reads them: up to 7 significant digits, no exponent
 * in the range a tcprobe metric lives in. */
static const char *fmt_num(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (isinf(v))
		snprintf(buf, len, v > 0 ? "inf" : "-inf");
	else
		snprintf(buf, len, "%.7g", v);
	return buf;
}

static const char *fmt_pct(double v, int sign, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (isinf(v))
		snprintf(buf, len, v > 0 ? "+inf%%" : "-inf%%");
	else if (fabs(v) >= 999.5)
		snprintf(buf, len, sign ? "%+.0f%%" : "%.0f%%", v);
	else
		snprintf(buf, len, sign ? "%+.1f%%" : "%.1f%%", v);
	return buf;
}

/* The verdict as printed: regressions in capitals so they catch the eye. */
static const char *fmt_verdict(const tcp_cmp_cell_t *c, char *buf, size_t len)
{
	const char *v = c->verdict == TCP_V_SLOWER ? (c->regression ? "SLOWER" : "slower") : "faster";
	if (c->verdict == TCP_V_SLOWER || c->verdict == TCP_V_FASTER || c->verdict == TCP_V_CHANGED)
		switch (c->judged) {
		case TCP_J_CLOCK:	/* the point's own SM clock explains it */
			snprintf(buf, len, "%s (clock %+.1f%%)", v, c->clock_pct);
			return buf;
		case TCP_J_BEYOND_CLOCK:
			snprintf(buf, len, "%s (clock %+.1f%%, %+.1f%% beyond)", v, c->clock_pct, c->beyond_pct);
			return buf;
		case TCP_J_NO_CLOCK:
			snprintf(buf, len, "%s (no clock)", c->verdict == TCP_V_CHANGED ? "changed" : v);
			return buf;
		case TCP_J_INFO:
			if (c->verdict != TCP_V_CHANGED) {
				snprintf(buf, len, "%s (info)", v);
				return buf;
			}
			break;
		default:
			break;
		}
	switch (c->verdict) {
	case TCP_V_SLOWER:
		snprintf(buf, len, c->regression ? "SLOWER" : "slower");
		break;
	case TCP_V_STATUS:
		snprintf(buf, len, "%s->%s", c->base->status, c->cur->status);
		break;
	case TCP_V_CHANGED:
		snprintf(buf, len, isnan(c->change_pct) ? "unit changed" : "changed");
		break;
	case TCP_V_NEW:
		snprintf(buf, len, "new point");
		break;
	case TCP_V_MISSING:
		snprintf(buf, len, "missing");
		break;
	case TCP_V_UNMEASURED:
		snprintf(buf, len, "both %s", c->base->status);
		break;
	case TCP_V_ABSENT:
		snprintf(buf, len, "-");
		break;
	default:
		snprintf(buf, len, "%s", tcp_verdict_name(c->verdict));
		break;
	}
	return buf;
}

/* A text table: cells as strings, widths measured, printed aligned. */
typedef struct {
	int ncols, nrows, cap;
	char **cell;		/* nrows * ncols */
	const char *align;	/* per column 'l' or 'r' */
} text_table_t;

static void tt_add(text_table_t *t, const char *const *cells)
{
	if (t->nrows == t->cap) {
		int cap = t->cap ? 2 * t->cap : 64;
		char **nc = realloc(t->cell, (size_t)cap * (size_t)t->ncols * sizeof(*nc));
		if (!nc)
			return;	/* out of memory: the table is cut short, not corrupted */
		t->cell = nc;
		t->cap = cap;
	}
	for (int i = 0; i < t->ncols; i++)
		t->cell[t->nrows * t->ncols + i] = strdup(cells[i] ? cells[i] : "");
	t->nrows++;
}

static void tt_print(FILE *f, const text_table_t *t, const char *indent)
{
	int w[64] = { 0 };
	for (int r = 0; r < t->nrows; r++)
		for (int i = 0; i < t->ncols && i < 64; i++) {
			int n = (int)strlen(t->cell[r * t->ncols + i]);
			if (n > w[i])
				w[i] = n;
		}
	for (int r = 0; r < t->nrows; r++) {
		fputs(indent, f);
		for (int i = 0; i < t->ncols && i < 64; i++) {
			const char *s = t->cell[r * t->ncols + i];
			int last = i == t->ncols - 1;
			if (t->align[i] == 'r')
				fprintf(f, "%*s", w[i], s);
			else if (last)
				fputs(s, f);	/* no trailing blanks */
			else
				fprintf(f, "%-*s", w[i], s);
			if (!last)
				fputs("  ", f);
		}
		fputc('\n', f);
	}
}

static void tt_free(text_table_t *t)
{
	for (int i = 0; i < t->nrows * t->ncols; i++)
		free(t->cell[i]);
	free(t->cell);
	t->cell = NULL;
}

/* Keys of the provenance diff, in the order a reviewer asks about them. */
static const char *const prov_keys[] = {
	"gpu_name", "compute_capability", "sm_count", "driver_version", "cuda_driver_version",
	"cuda_runtime_version", "cuda_toolkit_version", "sm_clock_max_mhz", "sm_clock_app_mhz",
	"mem_clock_max_mhz", "power_limit_w", "ecc", "persistence_mode", "schema_version",
	"tcprobe_version", "git_commit", "git_dirty", "command_line", "counters", "nvml", "host",
	"os", "gpu_uuid", "started_utc",
};

/* A provenance value shortened for the table. */
static const char *prov_show(const tcp_cmp_run_t *r, const char *key, char *buf, size_t len)
{
	const char *v = tcp_cmp_prov(r, key);
	if (!v)
		v = r->has_prov ? "(absent)" : "(no provenance.csv)";
	size_t n = strlen(v);
	if (n > 40)	/* keep both ends: paths and versions differ at either */
		snprintf(buf, len, "%.18s...%s", v, v + n - 19);
	else
		snprintf(buf, len, "%s", v);
	return buf;
}

static void run_label(int r, int nnew, char *buf, size_t len)
{
	if (r < 0)
		snprintf(buf, len, "base");
	else if (nnew == 1)
		snprintf(buf, len, "new");
	else
		snprintf(buf, len, "[%d]", r + 1);
}

#define PROV_CELL 128		/* a provenance table cell */

/* The provenance table's header and one row per key any run records, '*'
 * where a run's value differs from the base's. */
static void prov_key_rows(text_table_t *t, char **cells, char (*bufs)[PROV_CELL], const tcp_cmp_t *c,
			  const tcp_cmp_run_t *base, const tcp_cmp_run_t *runs)
{
	snprintf(bufs[0], PROV_CELL, " ");
	snprintf(bufs[1], PROV_CELL, "key");
	for (int r = -1; r < c->nnew; r++)
		run_label(r, c->nnew, bufs[r + 3], PROV_CELL);
	tt_add(t, (const char *const *)cells);
	for (size_t k = 0; k < sizeof(prov_keys) / sizeof(prov_keys[0]); k++) {
		int any = 0, differs = 0;
		const char *bv = tcp_cmp_prov(base, prov_keys[k]);
		any |= bv != NULL;
		for (int r = 0; r < c->nnew; r++) {
			const char *v = tcp_cmp_prov(&runs[r], prov_keys[k]);
			any |= v != NULL;
			if ((v == NULL) != (bv == NULL) || (v && strcmp(v, bv)))
				differs = 1;
		}
		if (!any)
			continue;
		snprintf(bufs[0], PROV_CELL, "%s", differs ? "*" : " ");
		snprintf(bufs[1], PROV_CELL, "%s", prov_keys[k]);
		prov_show(base, prov_keys[k], bufs[2], PROV_CELL);
		for (int r = 0; r < c->nnew; r++)
			prov_show(&runs[r], prov_keys[k], bufs[r + 3], PROV_CELL);
		tt_add(t, (const char *const *)cells);
	}
}

/* A row of what the runs all[0..n] saw: its mark and name, the cells filled. */
static void seen_row(text_table_t *t, char **cells, char (*bufs)[PROV_CELL], int differs, const char *name)
{
	snprintf(bufs[0], PROV_CELL, "%s", differs ? "*" : " ");
	snprintf(bufs[1], PROV_CELL, "%s", name);
	tt_add(t, (const char *const *)cells);
}

/*
 *  prov_seen_rows()
 *	What the runs all[0..n] themselves saw, from measurements.csv: rows
 *	compared, the SM clock, throttle reasons, contended points.  1 when
 *	the SM clock differs from the base's by more than 1%.
 */
static int prov_seen_rows(text_table_t *t, char **cells, char (*bufs)[PROV_CELL], const tcp_cmp_run_t *const *all,
			  int n)
{
	int clk_differs = 0, thr_differs = 0, any_contended = 0;

	for (int r = 0; r <= n; r++)
		snprintf(bufs[r + 2], PROV_CELL, "%d (OK %d, not OK %d)%s", all[r]->npoints, all[r]->nstatus[0],
			 all[r]->npoints - all[r]->nstatus[0], all[r]->torn_tail ? " +torn tail" : "");
	seen_row(t, cells, bufs, 0, "rows compared");
	for (int r = 0; r <= n; r++) {
		double a = all[0]->clock_mean_mhz, b = all[r]->clock_mean_mhz;
		if (isnan(a) != isnan(b) || (!isnan(a) && fabs(a - b) > 0.01 * a))
			clk_differs = 1;
		if (isnan(b))
			snprintf(bufs[r + 2], PROV_CELL, "NA");
		else
			snprintf(bufs[r + 2], PROV_CELL, "%.0f MHz", b);
	}
	seen_row(t, cells, bufs, clk_differs, "SM clock during points");
	for (int r = 0; r <= n; r++) {
		if (strcmp(all[r]->throttle, all[0]->throttle))
			thr_differs = 1;
		snprintf(bufs[r + 2], PROV_CELL, "%.127s", all[r]->throttle);
	}
	seen_row(t, cells, bufs, thr_differs, "throttle reasons seen");
	for (int r = 0; r <= n; r++) {
		any_contended |= all[r]->ncontended > 0;
		if (tcp_run_has_col(all[r]->run, "contended"))
			snprintf(bufs[r + 2], PROV_CELL, "%d", all[r]->ncontended);
		else
			snprintf(bufs[r + 2], PROV_CELL, "NA (schema %d)", all[r]->schema);
	}
	seen_row(t, cells, bufs, any_contended, "contended points");
	return clk_differs;
}

/* Per NEW run: a GPU that differs from the base's, a schema that differs. */
static void comparability_notes(FILE *f, const tcp_cmp_t *c, const tcp_cmp_run_t *base, const tcp_cmp_run_t *runs)
{
	for (int r = 0; r < c->nnew; r++) {
		char lab[16];
		run_label(r, c->nnew, lab, sizeof(lab));
		const char *keys[] = { "gpu_name", "compute_capability" };
		for (int k = 0; k < 2; k++) {
			const char *a = tcp_cmp_prov(base, keys[k]), *b = tcp_cmp_prov(&runs[r], keys[k]);
			if (a && b && strcmp(a, b)) {
				fprintf(f, "WARNING: %s is not comparable with base: %s differs (%s vs %s); "
					"ratios compare the GPUs, not the software\n", lab, keys[k], a, b);
				break;
			}
		}
		if (runs[r].schema != base->schema)
			fprintf(f, "note: %s has schema %d, base has schema %d (columns are read by name)\n",
				lab, runs[r].schema, base->schema);
	}
}

/* Per run all[0..n]: no provenance, a torn tail, contended points. */
static void run_notes(FILE *f, const tcp_cmp_run_t *const *all, int n)
{
	for (int r = 0; r <= n; r++) {
		if (!all[r]->has_prov)
			fprintf(f, "note: %s has no provenance.csv\n", all[r]->dir);
		char torn[2400];
		int nt = tcp_run_torn_files(all[r]->run, torn, sizeof(torn));
		if (nt)
			fprintf(f, "note: %s ended in a torn line (a killed sweep or a cut copy); "
				"the torn line was dropped\n", torn);
		if (all[r]->ncontended > 0)
			fprintf(f, "WARNING: %s: %d point%s ran beside other work on the GPU (contended=1): "
				"not a clean comparison; their time-based numbers are not an idle GPU's\n",
				all[r]->dir, all[r]->ncontended, all[r]->ncontended == 1 ? "" : "s");
	}
}

/* Per NEW run where its pair's roles come from, when not from the base. */
static void roles_notes(FILE *f, const tcp_cmp_t *c, const tcp_cmp_run_t *base, const tcp_cmp_run_t *runs)
{
	for (int r = 0; r < c->nnew; r++) {
		char lab[16];
		const char *from = c->roles_from[r];
		run_label(r, c->nnew, lab, sizeof(lab));
		if (!from)
			fprintf(f, "note: neither base nor %s has %s: every row is gated (no metric roles)\n", lab,
				TCP_META_FILE);
		else if (from == runs[r].dir)
			fprintf(f, "note: roles from %s/%s (base has none: it predates them)\n", from, TCP_META_FILE);
		else if (from != base->dir)
			fprintf(f, "note: roles from %s (--roles)\n", from);
	}
}

/* Each axis some runs lack, and how its points were joined. */
static void axes_notes(FILE *f, const tcp_cmp_t *c)
{
	for (int k = 0; k < c->naxes_joined; k++) {
		const tcp_cmp_axis_t *a = &c->axes_joined[k];
		if (a->value[0])
			fprintf(f, "note: %s: axis %s is %s; %d point%s at its default (%s=%s) joined with the points "
				"%s without it\n", a->probe, a->axis, a->in_base ? "in base, not in every new run" :
				"new since base", a->points, a->points == 1 ? "" : "s", a->axis, a->value,
				a->in_base ? "of the runs" : "base took");
		else
			fprintf(f, "note: %s: axis %s is %s and has no single default: its points are joined with "
				"none\n", a->probe, a->axis, a->in_base ? "in base, not in every new run" : "new since base");
	}
}

/*
 *  print_provenance()
 *	Where and how each run was taken, '*' on keys that differ from the
 *	base, and the warnings that decide whether the ratios mean anything.
 */
static void print_provenance(FILE *f, const tcp_cmp_t *c, const tcp_cmp_run_t *base,
			     const tcp_cmp_run_t *runs)
{
	int ncols = c->nnew + 3;
	char *cells[ncols];
	char bufs[ncols][PROV_CELL];
	char align[ncols + 1];
	text_table_t t = { .ncols = ncols, .align = align };
	const tcp_cmp_run_t *all[c->nnew + 1];

	memset(align, 'l', (size_t)ncols);
	align[ncols] = '\0';
	for (int i = 0; i < ncols; i++)
		cells[i] = bufs[i];
	all[0] = base;
	for (int r = 0; r < c->nnew; r++)
		all[r + 1] = &runs[r];
	prov_key_rows(&t, cells, bufs, c, base, runs);
	int clk_differs = prov_seen_rows(&t, cells, bufs, all, c->nnew);
	fprintf(f, "Provenance (* = differs from base)\n");
	tt_print(f, &t, "");
	tt_free(&t);

	comparability_notes(f, c, base, runs);
	run_notes(f, all, c->nnew);
	if (clk_differs)
		fprintf(f, "note: the SM clock differed by more than 1%%: compare cycle and "
			"per-clock metrics (clock-independent) before time-based ones\n");
	roles_notes(f, c, base, runs);
	axes_notes(f, c);
}

#define POINT_CELL 160		/* a points table cell */

/* The points table's header: probe, metric, unit, base, per NEW run its
 * group of `per` columns (after a '|' when bar), axes. */
static void points_header(text_table_t *t, char **cells, const tcp_cmp_t *c, int per, int bar)
{
	int ncols = t->ncols;

	snprintf(cells[0], POINT_CELL, "probe");
	snprintf(cells[1], POINT_CELL, "metric");
	snprintf(cells[2], POINT_CELL, "unit");
	snprintf(cells[3], POINT_CELL, "base");
	for (int r = 0; r < c->nnew; r++) {
		char *const *g = &cells[4 + per * r + bar];
		if (bar)
			snprintf(cells[4 + per * r], POINT_CELL, "|");
		if (c->nnew == 1)
			snprintf(g[0], POINT_CELL, "new");
		else
			snprintf(g[0], POINT_CELL, "[%d]", r + 1);
		snprintf(g[1], POINT_CELL, "ratio");
		snprintf(g[2], POINT_CELL, "change");
		snprintf(g[3], POINT_CELL, "noise");
		snprintf(g[4], POINT_CELL, "verdict");
	}
	snprintf(cells[ncols - 1], POINT_CELL, "axes");
	tt_add(t, (const char *const *)cells);
}

/* The points table's line of row. */
static void points_row(text_table_t *t, char **cells, const tcp_cmp_t *c, const tcp_cmp_row_t *row, int per,
		       int bar)
{
	snprintf(cells[0], POINT_CELL, "%s", row->probe);
	snprintf(cells[1], POINT_CELL, "%s", row->metric);
	snprintf(cells[2], POINT_CELL, "%s", row->unit);
	fmt_num(row->base ? row->base->median : NAN, cells[3], POINT_CELL);
	for (int r = 0; r < c->nnew; r++) {
		const tcp_cmp_cell_t *cl = &row->cells[r];
		char *const *g = &cells[4 + per * r + bar];
		fmt_num(cl->cur ? cl->cur->median : NAN, g[0], POINT_CELL);
		if (isnan(cl->ratio))
			snprintf(g[1], POINT_CELL, "-");
		else
			snprintf(g[1], POINT_CELL, "%.3f", cl->ratio);
		fmt_pct(cl->change_pct, 1, g[2], POINT_CELL);
		fmt_pct(cl->noise_pct, 0, g[3], POINT_CELL);
		fmt_verdict(cl, g[4], POINT_CELL);
	}
	snprintf(cells[t->ncols - 1], POINT_CELL, "%s", *row->axes ? row->axes : "-");
	tt_add(t, (const char *const *)cells);
}

/* Why points stopped (or started) working: the first 20 reasons. */
static void print_status_reasons(FILE *f, const tcp_cmp_t *c)
{
	int nreason = 0;

	for (int i = 0; i < c->nrows; i++)
		for (int r = 0; r < c->nnew; r++) {
			const tcp_cmp_cell_t *cl = &c->rows[i].cells[r];
			if (cl->verdict != TCP_V_STATUS || !cl->cur || !*cl->cur->reason)
				continue;
			if (nreason++ == 0)
				fprintf(f, "\nStatus changes:\n");
			if (nreason > 20)
				continue;
			char lab[16];
			run_label(r, c->nnew, lab, sizeof(lab));
			fprintf(f, "  %s %s [%s] (%s): %s -> %s: %s\n", c->rows[i].probe,
				c->rows[i].metric, c->rows[i].axes, lab, cl->base->status, cl->cur->status,
				cl->cur->reason);
		}
	if (nreason > 20)
		fprintf(f, "  ... and %d more (see the CSV)\n", nreason - 20);
}

/*
 *  print_table()
 *	One line per joined point: probe, metric, unit, base value, then per
 *	NEW run its value, ratio, change, noise band and verdict; axes last.
 */
static void print_table(FILE *f, const tcp_cmp_t *c, int all, int top)
{
	/* N-way: a '|' column opens each run's group */
	int bar = c->nnew > 1, per = 5 + bar, ncols = 4 + per * c->nnew + 1;
	char *cells[ncols];
	char bufs[ncols][POINT_CELL];
	char align[ncols + 1];
	text_table_t t = { .ncols = ncols, .align = align };

	for (int i = 0; i < ncols; i++)
		cells[i] = bufs[i];
	memcpy(align, "lllr", 4);
	for (int r = 0; r < c->nnew; r++)
		memcpy(align + 4 + per * r, bar ? "lrrrrl" : "rrrrl", (size_t)per);
	align[ncols - 1] = 'l';
	align[ncols] = '\0';
	points_header(&t, cells, c, per, bar);

	int shown = 0, cut = 0;
	for (int i = 0; i < c->nrows; i++) {
		const tcp_cmp_row_t *row = &c->rows[i];
		int interesting = 0;
		for (int r = 0; r < c->nnew; r++)
			interesting |= row->cells[r].verdict != TCP_V_SAME &&
				       row->cells[r].verdict != TCP_V_ABSENT;
		if (!all && !interesting)
			continue;
		if (top > 0 && shown >= top) {
			cut++;
			continue;
		}
		shown++;
		points_row(&t, cells, c, row, per, bar);
	}
	if (shown)
		tt_print(f, &t, "");
	if (cut)
		fprintf(f, "... %d more row%s not shown (--top %d); every row is in the --csv output\n",
			cut, cut == 1 ? "" : "s", top);
	if (!shown)
		fprintf(f, "Every joined point is inside its noise band (use --all to list them).\n");
	tt_free(&t);
	print_status_reasons(f, c);
}

void tcp_cmp_print(FILE *f, const tcp_cmp_t *c, const tcp_cmp_run_t *base,
		   const tcp_cmp_run_t *runs, int all, int top)
{
	char lab[16];

	fprintf(f, "tcprobe compare\n  base  %s\n", base->dir);
	for (int r = 0; r < c->nnew; r++) {
		run_label(r, c->nnew, lab, sizeof(lab));
		fprintf(f, "  %-4s  %s\n", lab, runs[r].dir);
	}
	fputc('\n', f);
	print_provenance(f, c, base, runs);

	fprintf(f, "\nPoints%s, worst regression first.  noise = max(%.1f%%, base spread, new "
		"spread), spread = (max-min)/median over a point's reps.\n"
		"SLOWER = worse by more than the %.1f%% gate and outside the noise band; "
		"slower = outside the band, within the gate.\n",
		all ? "" : " outside their noise band", c->noise_floor_pct, c->threshold_pct);
	if (c->roles)
		fprintf(f, "Roles (metrics.csv): cycle-domain and per-clock rows are gated, their band at least "
			"one quantum and their floor; time-domain rows (ns, TFLOP/s, MHz) are set against the "
			"point's own SM clock: \"slower (clock -3.2%%)\" = the clock explains it, not a "
			"regression; \"changed (no clock)\" = the point has no clock; \"(info)\" = host or "
			"launch latency, timer resolution, NVML: shown, %s.\n",
			c->gate_all ? "gated (--gate-all)" : "not gated (--gate-all gates them)");
	fputc('\n', f);
	print_table(f, c, all, top);

	fprintf(f, "\nSummary (joined on probe, axes, metric)\n");
	for (int r = 0; r < c->nnew; r++) {
		const int *n = c->count[r];
		int slower_within = 0, status_bad = 0;
		for (int i = 0; i < c->nrows; i++) {
			const tcp_cmp_cell_t *cl = &c->rows[i].cells[r];
			slower_within += cl->verdict == TCP_V_SLOWER && !cl->regression;
			status_bad += cl->verdict == TCP_V_STATUS && cl->regression;
		}
		run_label(r, c->nnew, lab, sizeof(lab));
		fprintf(f, "  %-4s  %d SLOWER beyond %.1f%%, %d slower within, %d faster, %d same, "
			"%d changed (direction unknown), %d status changed (%d OK->not OK), "
			"%d new, %d missing (%d OK in base), %d unmeasured in both\n",
			lab, n[TCP_V_SLOWER] - slower_within, c->threshold_pct, slower_within,
			n[TCP_V_FASTER], n[TCP_V_SAME], n[TCP_V_CHANGED], n[TCP_V_STATUS], status_bad,
			n[TCP_V_NEW], n[TCP_V_MISSING], c->nmissing[r], n[TCP_V_UNMEASURED]);
		if (n[TCP_V_ABSENT])
			fprintf(f, "        (%d point%s only in other NEW runs)\n", n[TCP_V_ABSENT],
				n[TCP_V_ABSENT] == 1 ? "" : "s");
		int clk_s = 0, clk_f = 0, beyond = 0, noclk = 0, info = 0;
		for (int i = 0; c->roles_from[r] && i < c->nrows; i++) {
			const tcp_cmp_cell_t *cl = &c->rows[i].cells[r];
			int moved = cl->verdict == TCP_V_SLOWER || cl->verdict == TCP_V_FASTER ||
				    cl->verdict == TCP_V_CHANGED;
			clk_s += moved && cl->judged == TCP_J_CLOCK && cl->verdict == TCP_V_SLOWER;
			clk_f += moved && cl->judged == TCP_J_CLOCK && cl->verdict == TCP_V_FASTER;
			beyond += moved && cl->judged == TCP_J_BEYOND_CLOCK;
			noclk += moved && cl->judged == TCP_J_NO_CLOCK;
			info += moved && cl->judged == TCP_J_INFO;
		}
		if (c->roles_from[r])
			fprintf(f, "        roles: %d slower and %d faster the SM clock explains, %d beyond the clock, "
				"%d changed without a clock, %d informational outside the band (%s)\n", clk_s, clk_f,
				beyond, noclk, info, c->gate_all ? "gated: --gate-all" : "not gated");
	}
	tcp_cmp_print_result(f, c, base, runs);
}

int tcp_cmp_incomplete(const tcp_cmp_t *c, const tcp_cmp_run_t *base, const tcp_cmp_run_t *runs, int r,
		       char *buf, size_t len)
{
	char torn[2400];

	if (!c->nmissing[r])
		return 0;
	tcp_run_torn_files(runs[r].run, torn, sizeof(torn));
	snprintf(buf, len, "%s: %d of the %d rows OK in %s are missing%s%s%s", runs[r].dir, c->nmissing[r],
		 c->nbase_ok, base->dir, *torn ? " (torn: " : "", torn, *torn ? ")" : "");
	return c->nmissing[r];
}

int tcp_cmp_print_result(FILE *f, const tcp_cmp_t *c, const tcp_cmp_run_t *base, const tcp_cmp_run_t *runs)
{
	int reg = tcp_cmp_regressions(c), nc = base->ncontended;
	char line[3000];

	for (int r = 0; r < c->nnew; r++) {
		nc += runs[r].ncontended;
		if (tcp_cmp_incomplete(c, base, runs, r, line, sizeof(line)))
			fprintf(f, "%s: %s%s\n", c->allow_missing ? "allowed (--allow-missing)" : "INCOMPLETE",
				line, c->allow_missing ? "" : "; " TCP_CMP_SUBSET_HINT);
	}
	if (nc)
		fprintf(f, "WARNING: %d contended point%s (base %d, new %d): another process was on the GPU; "
			"not a clean comparison\n", nc, nc == 1 ? "" : "s", base->ncontended, nc - base->ncontended);
	int st = tcp_cmp_status(c);
	if (reg)
		fprintf(f, "Result: REGRESSION: %d point%s slower beyond the %.1f%% gate or OK->not OK",
			reg, reg == 1 ? "" : "s", c->threshold_pct);
	else
		fprintf(f, "Result: no regression beyond the %.1f%% gate", c->threshold_pct);
	if (st == TCP_EXIT_INCOMPLETE)
		fprintf(f, " among the rows both runs have; INCOMPLETE: %d row%s OK in base missing (exit %d)\n",
			tcp_cmp_missing(c), tcp_cmp_missing(c) == 1 ? "" : "s", st);
	else
		fprintf(f, " (exit %d)\n", st);
	return st;
}
