/*
 * metrics.c
 *	DIR/metrics.csv, the metric metadata of a run (metrics.h): the rules
 *	that derive a role from a unit, the harness's own rows, the set and
 *	its lookup, writing and reading the file.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/store/csvio.h"
#include "harness/store/metrics.h"

/* ------------------------------------------------------------ derivation */

tcp_role_t tcp_meta_role_of_unit(const char *unit)
{
	static const char *const time_units[] = { "ns", "us", "ms", "s", "Hz", "kHz", "MHz", "GHz", NULL };
	size_t n = unit ? strlen(unit) : 0;

	for (int i = 0; n && time_units[i]; i++)
		if (!strcmp(unit, time_units[i]))
			return TCP_ROLE_TIME;
	if (n > 2 && !strcmp(unit + n - 2, "/s"))	/* TFLOP/s, TB/s: a rate per second */
		return TCP_ROLE_TIME;
	return TCP_ROLE_GATED;
}

int tcp_meta_better_of_unit(const char *unit)
{
	static const char *const lower[] = {
		"cycles", "cycle", "clk", "ns", "us", "ms", "s", "J", "mJ", "uJ", "nJ", "pJ",
		"pJ/FLOP", "J/FLOP", NULL
	};
	static const char *const higher[] = { "MHz", "GHz", "FLOP", NULL };

	if (!unit || !*unit)
		return -1;
	for (int i = 0; lower[i]; i++)
		if (!strcmp(unit, lower[i]))
			return 0;
	for (int i = 0; higher[i]; i++)
		if (!strcmp(unit, higher[i]))
			return 1;
	/* rates: FLOP/clk/SM, TFLOP/s, B/clk/SM, TB/s, inst/clk ... */
	if (strstr(unit, "/s") || strstr(unit, "/clk"))
		return 1;
	return -1;
}

void tcp_meta_from_metric(const char *probe, const tcp_metric_t *m, tcp_meta_t *out)
{
	*out = (tcp_meta_t){
		.probe = probe, .metric = m->name, .unit = m->unit ? m->unit : "",
		.better = m->higher_is_better ? 1 : 0, .doc = m->help ? m->help : "",
		.quantum = m->quantum > 0 ? m->quantum : 0, .abs_floor = m->abs_floor > 0 ? m->abs_floor : 0,
	};
	switch (m->role) {
	case TCP_ROLE_CLOCK:
		out->role = TCP_ROLE_TIME;
		out->clock = TCP_CLOCK_KERNEL;
		break;
	case TCP_ROLE_GATED:
	case TCP_ROLE_TIME:
	case TCP_ROLE_INFO:
		out->role = m->role;
		break;
	default:
		out->role = tcp_meta_role_of_unit(out->unit);
		break;
	}
}

/*
 * The rows the harness adds to a probe's points, where their role is not
 * the one their unit implies (or the unit alone cannot say it is a clock).
 * Counter names as harness/measure/counters.cc spells them, "cupti/" added.
 */
static const struct {
	const char *metric;
	tcp_role_t role;
	tcp_clock_src_t clock;
	const char *doc;
} harness_rows[] = {
	{ "cupti/gpc__cycles_elapsed.avg.per_second", TCP_ROLE_TIME, TCP_CLOCK_CUPTI,
	  "CUPTI: SM (GPC) clock during the counter pass's kernels" },
	{ "cupti/gpu__time_duration.sum", TCP_ROLE_TIME, TCP_CLOCK_NONE,
	  "CUPTI: kernel duration, summed over the kernels of one run()" },
	{ "cupti/gpc__cycles_elapsed.max", TCP_ROLE_GATED, TCP_CLOCK_NONE,
	  "CUPTI: elapsed cycles (busiest GPC), as ncu's Elapsed Cycles" },
	{ "cupti/sm__cycles_active.avg", TCP_ROLE_GATED, TCP_CLOCK_NONE,
	  "CUPTI: cycles with a warp resident, mean over SMs (a one-SM kernel's jitter / the SM count)" },
	{ "cupti/check/sm_clock_ratio", TCP_ROLE_INFO, TCP_CLOCK_NONE,
	  "counter SM clock / the timing pass's sm_clock_mhz: two passes, two clocks" },
	{ "cupti/check/tensor_insts_delta", TCP_ROLE_GATED, TCP_CLOCK_NONE,
	  "counted - issued tensor (MMA) warp instructions; must be 0" },
	{ "cupti_kernel_ns", TCP_ROLE_TIME, TCP_CLOCK_NONE,
	  "--timer cupti: first kernel start to last kernel end of one run() (CUPTI Activity)" },
	{ "emu_poison_words", TCP_ROLE_GATED, TCP_CLOCK_NONE,
	  "emulation build: poison words tcgen05.ld / ld.red returned per run()" },
	/* --energy / --sustain: NVML counters and samples (harness/energy.c) */
	{ "energy_mj", TCP_ROLE_INFO, TCP_CLOCK_NONE, "NVML total-energy counter over the window" },
	{ "energy_window_s", TCP_ROLE_INFO, TCP_CLOCK_NONE, "the energy window, between the two counter reads" },
	{ "energy_runs", TCP_ROLE_INFO, TCP_CLOCK_NONE, "run() calls in the energy window" },
	{ "power_w_mean", TCP_ROLE_INFO, TCP_CLOCK_NONE, "NVML power samples, mean over the window" },
	{ "pj_per_flop", TCP_ROLE_INFO, TCP_CLOCK_NONE, "energy / (runs x the probe's FLOP per run)" },
	{ "tflops_energy", TCP_ROLE_INFO, TCP_CLOCK_NONE, "runs x FLOP / the worker's window, launch gaps included" },
	{ "sm_clock_mhz_energy", TCP_ROLE_INFO, TCP_CLOCK_NONE, "NVML SM clock, mean over the window" },
	{ "throttle_mask_energy", TCP_ROLE_INFO, TCP_CLOCK_NONE, "NVML clock-event bits OR-ed over the window" },
	{ "power_w_counter", TCP_ROLE_INFO, TCP_CLOCK_NONE, "energy_mj / energy_window_s" },
	{ "power_agree_pct", TCP_ROLE_INFO, TCP_CLOCK_NONE, "|counter - sampled power| / counter" },
	{ "settle_s", TCP_ROLE_INFO, TCP_CLOCK_NONE, "seconds the load was held before the window" },
	{ "energy_update_ms", TCP_ROLE_INFO, TCP_CLOCK_NONE, "the energy counter's update period" },
	{ "gpu_temp_c_energy", TCP_ROLE_INFO, TCP_CLOCK_NONE, "NVML GPU temperature, mean over the window" },
};
#define NHARNESS ((int)(sizeof(harness_rows) / sizeof(harness_rows[0])))

/*
 * Absolute floors of harness rows.  A counter row is one run() (no spread
 * to set a band by), and a nearly empty kernel's duration and cycles move by
 * launch and timestamp jitter: on H200, wgmma_sync op=none read 1568..1920
 * ns, 3051..3779 elapsed cycles and 2.2..3.4 active cycles (a mean over
 * SMs of a one-SM kernel) across 12 default runs.  About 1 us (2000 cycles)
 * of it is noise, whatever the kernel.
 */
static const struct {
	const char *metric;
	double abs_floor;
} harness_floors[] = {
	{ "cupti/gpu__time_duration.sum", 1000 },
	{ "cupti/gpc__cycles_elapsed.max", 2000 },
	{ "cupti/sm__cycles_active.avg", 16 },
};

/* The units the harness table's rows are written with (for `list --metrics`). */
static const char *harness_unit(const char *metric)
{
	static const struct { const char *metric, *unit; } units[] = {
		{ "cupti/gpc__cycles_elapsed.avg.per_second", "MHz" }, { "cupti/gpu__time_duration.sum", "ns" },
		{ "cupti/gpc__cycles_elapsed.max", "cycles" }, { "cupti/sm__cycles_active.avg", "cycles" },
		{ "cupti/check/sm_clock_ratio", "ratio" }, { "cupti/check/tensor_insts_delta", "insts" },
		{ "cupti_kernel_ns", "ns" }, { "emu_poison_words", "words" }, { "energy_mj", "mJ" },
		{ "energy_window_s", "s" }, { "energy_runs", "runs" }, { "power_w_mean", "W" },
		{ "pj_per_flop", "pJ/FLOP" }, { "tflops_energy", "TFLOP/s" }, { "sm_clock_mhz_energy", "MHz" },
		{ "throttle_mask_energy", "mask" }, { "power_w_counter", "W" }, { "power_agree_pct", "%" },
		{ "settle_s", "s" }, { "energy_update_ms", "ms" }, { "gpu_temp_c_energy", "C" },
	};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(units[i].metric, metric))
			return units[i].unit;
	return "";
}

void tcp_meta_from_harness(const char *metric, const char *unit, tcp_meta_t *out)
{
	*out = (tcp_meta_t){
		.probe = TCP_META_ANY, .metric = metric, .unit = unit ? unit : "",
		.role = tcp_meta_role_of_unit(unit), .better = tcp_meta_better_of_unit(unit), .doc = "",
	};
	for (int i = 0; i < NHARNESS; i++)
		if (!strcmp(harness_rows[i].metric, metric)) {
			out->role = harness_rows[i].role;
			out->clock = harness_rows[i].clock;
			out->doc = harness_rows[i].doc;
			break;
		}
	for (size_t i = 0; i < sizeof(harness_floors) / sizeof(harness_floors[0]); i++)
		if (!strcmp(harness_floors[i].metric, metric))
			out->abs_floor = harness_floors[i].abs_floor;
}

/* -------------------------------------------------------------- the set */

struct tcp_meta_set {
	int n, cap;
	tcp_meta_t *e;
	char **strs;		/* every string the entries point to (owned) */
	int nstrs, capstrs;
	int *hash;		/* open addressing over entries, -1 empty */
	size_t hsize;
};

static size_t hash_pm(const char *probe, const char *metric)
{
	size_t h = 1469598103934665603ull;
	for (const char *s = probe; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	h = (h ^ 0x1f) * 1099511628211ull;
	for (const char *s = metric; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

tcp_meta_set_t *tcp_meta_set_new(void)
{
	return calloc(1, sizeof(tcp_meta_set_t));
}

void tcp_meta_set_free(tcp_meta_set_t *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nstrs; i++)
		free(s->strs[i]);
	free(s->strs);
	free(s->e);
	free(s->hash);
	free(s);
}

int tcp_meta_set_count(const tcp_meta_set_t *s)
{
	return s ? s->n : 0;
}

const tcp_meta_t *tcp_meta_set_get(const tcp_meta_set_t *s, int i)
{
	return s && i >= 0 && i < s->n ? &s->e[i] : NULL;
}

static int find_idx(const tcp_meta_set_t *s, const char *probe, const char *metric)
{
	if (!s || !s->hsize)
		return -1;
	for (size_t h = hash_pm(probe, metric) & (s->hsize - 1);; h = (h + 1) & (s->hsize - 1)) {
		int i = s->hash[h];
		if (i < 0)
			return -1;
		if (!strcmp(s->e[i].probe, probe) && !strcmp(s->e[i].metric, metric))
			return i;
	}
}

const tcp_meta_t *tcp_meta_find(const tcp_meta_set_t *s, const char *probe, const char *metric)
{
	int i = find_idx(s, probe ? probe : TCP_META_ANY, metric ? metric : "");
	if (i < 0)
		i = find_idx(s, TCP_META_ANY, metric ? metric : "");
	return i < 0 ? NULL : &s->e[i];
}

static int rehash(tcp_meta_set_t *s, size_t size)
{
	int *h = malloc(size * sizeof(*h));
	if (!h)
		return -1;
	memset(h, 0xff, size * sizeof(*h));
	for (int i = 0; i < s->n; i++) {
		size_t k = hash_pm(s->e[i].probe, s->e[i].metric) & (size - 1);
		while (h[k] >= 0)
			k = (k + 1) & (size - 1);
		h[k] = i;
	}
	free(s->hash);
	s->hash = h;
	s->hsize = size;
	return 0;
}

static const char *own(tcp_meta_set_t *s, const char *str)
{
	if (s->nstrs == s->capstrs) {
		int cap = s->capstrs ? 2 * s->capstrs : 64;
		char **ns = realloc(s->strs, (size_t)cap * sizeof(*ns));
		if (!ns)
			return NULL;
		s->strs = ns;
		s->capstrs = cap;
	}
	char *d = strdup(str ? str : "");
	if (d)
		s->strs[s->nstrs++] = d;
	return d;
}

int tcp_meta_set_add(tcp_meta_set_t *s, const tcp_meta_t *m)
{
	if (find_idx(s, m->probe, m->metric) >= 0)
		return 0;
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 64;
		tcp_meta_t *ne = realloc(s->e, (size_t)cap * sizeof(*ne));
		if (!ne)
			return -1;
		s->e = ne;
		s->cap = cap;
	}
	if ((size_t)(s->n + 1) * 2 > s->hsize && rehash(s, s->hsize ? 2 * s->hsize : 128))
		return -1;
	tcp_meta_t c = *m;
	if (!(c.probe = own(s, m->probe)) || !(c.metric = own(s, m->metric)) || !(c.unit = own(s, m->unit)) ||
	    !(c.doc = own(s, m->doc)))
		return -1;
	s->e[s->n] = c;
	size_t k = hash_pm(c.probe, c.metric) & (s->hsize - 1);
	while (s->hash[k] >= 0)
		k = (k + 1) & (s->hsize - 1);
	s->hash[k] = s->n++;
	return 1;
}

int tcp_meta_add_probes(tcp_meta_set_t *s, const tcp_probe_t *const *probes, int n)
{
	for (int i = 0; i < n; i++)
		for (int m = 0; m < probes[i]->nmetrics; m++) {
			tcp_meta_t e;
			tcp_meta_from_metric(probes[i]->name, &probes[i]->metrics[m], &e);
			if (tcp_meta_set_add(s, &e) < 0)
				return -1;
		}
	return 0;
}

int tcp_meta_add_harness(tcp_meta_set_t *s)
{
	for (int i = 0; i < NHARNESS; i++) {
		tcp_meta_t e;
		tcp_meta_from_harness(harness_rows[i].metric, harness_unit(harness_rows[i].metric), &e);
		if (tcp_meta_set_add(s, &e) < 0)
			return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ the file */

const char *tcp_role_name(tcp_role_t r)
{
	return r == TCP_ROLE_GATED ? "gated" : r == TCP_ROLE_TIME ? "time" : r == TCP_ROLE_INFO ? "info" : "?";
}

int tcp_meta_counter_row(const char *metric)
{
	return metric && !strncmp(metric, "cupti/", 6);
}

const char *tcp_clock_src_name(tcp_clock_src_t c)
{
	return c == TCP_CLOCK_KERNEL ? "kernel" : c == TCP_CLOCK_CUPTI ? "cupti" : "";
}

static const char *const header[] = {
	"meta_version", "probe", "metric", "unit", "role", "direction", "clock", "quantum", "floor", "doc",
};
#define NCOLS ((int)(sizeof(header) / sizeof(header[0])))

static void put(FILE *f, const char *s, int last)
{
	char buf[2048];
	fputs(tcp_csv_quote(s ? s : "", buf, sizeof(buf)), f);
	fputc(last ? '\n' : ',', f);
}

static const char *num(double v, char *buf, size_t len)
{
	if (v > 0 && isfinite(v))
		snprintf(buf, len, "%.10g", v);
	else
		buf[0] = '\0';
	return buf;
}

int tcp_meta_print(const tcp_meta_set_t *s, FILE *f)
{
	char v[16], q[40], fl[40];

	for (int i = 0; i < NCOLS; i++)
		put(f, header[i], i == NCOLS - 1);
	snprintf(v, sizeof(v), "%d", TCP_META_VERSION);
	for (int i = 0; s && i < s->n; i++) {
		const tcp_meta_t *m = &s->e[i];
		put(f, v, 0);
		put(f, m->probe, 0);
		put(f, m->metric, 0);
		put(f, m->unit, 0);
		put(f, tcp_role_name(m->role), 0);
		put(f, m->better == 1 ? "higher" : m->better == 0 ? "lower" : "unknown", 0);
		put(f, tcp_clock_src_name(m->clock), 0);
		put(f, num(m->quantum, q, sizeof(q)), 0);
		put(f, num(m->abs_floor, fl, sizeof(fl)), 0);
		put(f, m->doc, 1);
	}
	return ferror(f) ? -1 : 0;
}

int tcp_meta_write(const tcp_meta_set_t *s, const char *path, char *err, size_t len)
{
	char tmp[4200];
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return tcp_errf(err, len, "%s: path too long", path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return tcp_errf(err, len, "%s: %s", tmp, strerror(errno));
	int bad = tcp_meta_print(s, f);
	bad |= fflush(f) != 0;
	bad |= fsync(fileno(f)) != 0;
	int e = errno;
	bad |= fclose(f) != 0;
	if (bad) {
		unlink(tmp);
		return tcp_errf(err, len, "%s: write failed: %s", tmp, strerror(e ? e : errno));
	}
	if (rename(tmp, path) != 0) {
		e = errno;
		unlink(tmp);
		return tcp_errf(err, len, "%s: %s", path, strerror(e));
	}
	return 0;
}

/* A quantum or floor cell: empty (none) or a finite number >= 0. */
static int parse_amount(const char *s, double *v)
{
	*v = 0;
	if (!*s)
		return 0;
	*v = tcp_csv_num(s);
	return isfinite(*v) && *v >= 0 ? 0 : -1;
}

const char *tcp_meta_current_name(const char *metric)
{
	return metric && !strcmp(metric, "pct_of_peak") ? "pct_peak" : metric;
}

/* A row's meta_version cell: 1 .. TCP_META_VERSION.  -1 with "path:line: ..." in err. */
static int meta_version(const char *vs, const char *path, int line, char *err, size_t len)
{
	long v;

	if (tcp_csv_long(vs, &v) != 0 || v < 1)
		return tcp_errf(err, len, "%s:%d: meta_version: got '%s', expected an integer 1..%d", path, line, vs,
				TCP_META_VERSION);
	if (v > TCP_META_VERSION)
		return tcp_errf(err, len, "%s:%d: meta_version %ld is newer than this tcprobe reads (1..%d); "
				"read it with a tcprobe built from a newer checkout", path, line, v, TCP_META_VERSION);
	return 0;
}

/* A row's role, direction and clock cells into m.  -1 with "path:line: ..." in err. */
static int meta_judging(const char *role, const char *dir, const char *clk, tcp_meta_t *m, const char *path,
			int line, char *err, size_t len)
{
	if (!strcmp(role, "gated"))
		m->role = TCP_ROLE_GATED;
	else if (!strcmp(role, "time"))
		m->role = TCP_ROLE_TIME;
	else if (!strcmp(role, "info"))
		m->role = TCP_ROLE_INFO;
	else
		return tcp_errf(err, len, "%s:%d: role: got '%s', expected gated, time or info", path, line, role);
	dir = dir ? dir : "";
	m->better = !strcmp(dir, "higher") ? 1 : !strcmp(dir, "lower") ? 0 : -1;
	if (*dir && m->better < 0 && strcmp(dir, "unknown"))
		return tcp_errf(err, len, "%s:%d: direction: got '%s', expected higher, lower or unknown", path, line,
				dir);
	clk = clk ? clk : "";
	m->clock = !strcmp(clk, "kernel") ? TCP_CLOCK_KERNEL : !strcmp(clk, "cupti") ? TCP_CLOCK_CUPTI
										  : TCP_CLOCK_NONE;
	if (*clk && m->clock == TCP_CLOCK_NONE)
		return tcp_errf(err, len, "%s:%d: clock: got '%s', expected kernel, cupti or empty", path, line, clk);
	return 0;
}

/*
 * meta_row()
 *	Row r of a metrics.csv table into m (strings pointing into t).  -1
 *	with "path:line: what is wrong" in err.
 */
static int meta_row(const tcp_table_t *t, int r, const char *path, tcp_meta_t *m, char *err, size_t len)
{
	int line = r + 2;
	const char *qs = tcp_table_get(t, r, "quantum"), *fs = tcp_table_get(t, r, "floor");

	*m = (tcp_meta_t){
		.probe = tcp_table_get(t, r, "probe"),
		.metric = tcp_meta_current_name(tcp_table_get(t, r, "metric")),
		.unit = tcp_table_get(t, r, "unit"), .doc = tcp_table_get(t, r, "doc"),
	};
	if (!m->unit)
		m->unit = "";
	if (!m->doc)
		m->doc = "";
	if (meta_version(tcp_table_get(t, r, "meta_version"), path, line, err, len))
		return -1;
	if (!*m->probe || !*m->metric)
		return tcp_errf(err, len, "%s:%d: %s is empty, expected a name", path, line,
				*m->probe ? "metric" : "probe");
	if (meta_judging(tcp_table_get(t, r, "role"), tcp_table_get(t, r, "direction"),
			 tcp_table_get(t, r, "clock"), m, path, line, err, len))
		return -1;
	if (parse_amount(qs ? qs : "", &m->quantum))
		return tcp_errf(err, len, "%s:%d: quantum: got '%s', expected a number >= 0 or empty", path, line, qs);
	if (parse_amount(fs ? fs : "", &m->abs_floor))
		return tcp_errf(err, len, "%s:%d: floor: got '%s', expected a number >= 0 or empty", path, line, fs);
	return 0;
}

int tcp_meta_load(const char *path, tcp_meta_set_t **out, char *err, size_t len)
{
	static const char *const need[] = { "meta_version", "probe", "metric", "role", NULL };
	tcp_table_t t;
	tcp_meta_set_t *s = NULL;

	*out = NULL;
	if (tcp_table_load(path, &t, err, len))
		return -1;
	for (int i = 0; need[i]; i++)
		if (tcp_table_col(&t, need[i]) < 0) {
			tcp_errf(err, len, "%s:1: missing required column '%s'", path, need[i]);
			goto fail;
		}
	if (!(s = tcp_meta_set_new())) {
		tcp_errf(err, len, "%s: out of memory", path);
		goto fail;
	}
	for (int r = 0; r < t.nrows; r++) {
		tcp_meta_t m;
		if (meta_row(&t, r, path, &m, err, len))
			goto fail;
		int a = tcp_meta_set_add(s, &m);
		if (a < 0) {
			tcp_errf(err, len, "%s: out of memory", path);
			goto fail;
		}
		if (a == 0) {
			tcp_errf(err, len, "%s:%d: %s %s is described twice", path, r + 2, m.probe, m.metric);
			goto fail;
		}
	}
	tcp_table_free(&t);
	*out = s;
	return 0;
fail:
	tcp_meta_set_free(s);
	tcp_table_free(&t);
	return -1;
}
