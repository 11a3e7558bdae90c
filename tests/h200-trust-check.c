/*
 * h200-trust-check.c
 *	The two GPU trust cases (contention, energy order), asserted on the committed H200 runs that
 *	scripts/device/trust-h200.sh writes (no GPU needed here; `make
 *	h200-trust-check`, part of `make test`, apart from the unit tests so
 *	that a checkout without those runs still runs every other test):
 *
 *	results/h200-contention/ (a calib sweep with a second tcprobe process
 *	holding a sustained wgmma_tput point on the same GPU in its middle):
 *	  - every point whose whole window lies inside the load (from 3 s after
 *	    the load started to its end; timestamps are whole seconds) says
 *	    contended=1, every point wholly before or after it contended=0, at
 *	    least MIN_POINTS of each; the load's own point is contended=1
 *	  - provenance: gpu_other_processes 0 at the start, contended_points
 *	    "K of N" matching the rows
 *	  - `run --require-idle` beside the load: exit 10 and one stderr line;
 *	    after it, on the idle GPU: exit 0, gpu_busy_at_start "no"
 *	results/h200-energy-order/ (sweeps/energy-order.sweep forward twice,
 *	fwd1 and fwd2, and reversed, rev):
 *	  - the tolerance is derived from the forward runs: T = max(2 x the
 *	    largest relative pj_per_flop difference fwd1 vs fwd2, 1%); every
 *	    point of rev is within T of the forward mean
 *	  - rev really ran the points in the opposite order
 *	  - every energy row is marked as its own numbers say: power_agree_pct
 *	    over TCP_ENERGY_AGREE_PCT <=> energy_check has power_mismatch;
 *	    settle_s within the --settle bound (5 s) unless marked unsettled;
 *	    gpu_temp_c on every row; power_source in provenance
 *	The checks first run on synthetic runs built here, right and wrong, so
 *	a check that cannot fail would fail this test.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/measure/energy.h"
#include "harness/store/csvio.h"
#include "test-rows.h"
#include "test-util.h"

#define MIN_POINTS	10	/* of each kind: before, beside and after the load */
#define SETTLE_BOUND_S	5.0	/* trust-h200.sh's --settle */
#define ORDER_FLOOR_PCT	1.0	/* the derived tolerance is never below this */

static char tmp[256];

/* ---- reading ---------------------------------------------------------------- */

/* Failures found, each printed; the check functions return their count. */
static int fails;
static int quiet;	/* the synthetic runs: failures only */

static void bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void bad(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf(quiet ? "  caught (a wrong run, on purpose): " : "  FAIL: ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	fails++;
}

/* "2026-12-01T10:54:35Z" or "...35.123Z" -> seconds since 1970; NaN when not. */
static double utc_s(const char *s)
{
	struct tm tm;
	double frac = 0;
	memset(&tm, 0, sizeof(tm));
	const char *e = s ? strptime(s, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;
	if (!e)
		return NAN;
	if (*e == '.')
		frac = strtod(e, NULL);
	return (double)timegm(&tm) + frac;
}

static int load(const char *dir, const char *file, tcp_table_t *t)
{
	char path[1200], err[1400];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (tcp_table_load(path, t, err, sizeof(err))) {
		bad("%s", err);
		return -1;
	}
	return 0;
}

static const char *prov(const tcp_table_t *p, const char *key)
{
	for (int r = 0; r < p->nrows; r++)
		if (!strcmp(tcp_table_get(p, r, "key"), key))
			return tcp_table_get(p, r, "value");
	return NULL;
}

/* A value "key VALUE" of timeline.txt; NULL when absent. */
static const char *timeline(const char *dir, const char *key, char *buf, size_t len)
{
	char path[600], line[256];
	snprintf(path, sizeof(path), "%s/timeline.txt", dir);
	FILE *f = fopen(path, "r");
	const char *v = NULL;
	size_t kl = strlen(key);
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, kl) && line[kl] == ' ') {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, len, "%s", line + kl + 1);
			v = buf;
		}
	if (f)
		fclose(f);
	return v;
}

/* One point of a run: its index, end time and contended flag (from its first row). */
struct pt {
	long point;
	double end;
	const char *contended;
	const char *axes;
};

static int pt_cmp(const void *a, const void *b)
{
	const struct pt *x = a, *y = b;
	return (x->point > y->point) - (x->point < y->point);
}

/* The run's points in plan order; every row of a point must agree on `contended`. */
static int points_of(const tcp_table_t *t, struct pt *out, int max)
{
	int n = 0;
	for (int r = 0; r < t->nrows; r++) {
		long p = atol(tcp_table_get(t, r, "point"));
		const char *c = tcp_table_get(t, r, "contended");
		int k = 0;
		while (k < n && out[k].point != p)
			k++;
		if (k < n) {
			if (strcmp(out[k].contended, c ? c : ""))
				bad("point %ld: rows disagree on contended ('%s' vs '%s')", p, out[k].contended, c);
			continue;
		}
		if (n == max)
			break;
		out[n].point = p;
		out[n].end = utc_s(tcp_table_get(t, r, "timestamp"));
		out[n].contended = c ? c : "(no column)";
		out[n].axes = tcp_table_get(t, r, "axes");
		n++;
	}
	qsort(out, (size_t)n, sizeof(*out), pt_cmp);
	return n;
}

/* ---- the contention check ------------------------------------------------- */

static int check_contention(const char *c)
{
	char tb[128], sub[600];
	tcp_table_t m, p, l, ip;
	struct pt pts[2000];
	int before = 0, beside = 0, after = 0, flagged = 0;

	fails = 0;
	printf("contention: %s\n", c);
	double ls = utc_s(timeline(c, "load_start_utc", tb, sizeof(tb)));
	double le = utc_s(timeline(c, "load_end_utc", tb, sizeof(tb)));
	if (isnan(ls) || isnan(le) || le - ls < 10) {
		bad("%s/timeline.txt: no load_start_utc / load_end_utc 10 s or more apart", c);
		return fails;
	}
	if (!timeline(c, "load_exit", tb, sizeof(tb)) || strcmp(tb, "0"))
		bad("the load process did not exit 0");
	snprintf(sub, sizeof(sub), "%s/main", c);
	if (load(sub, "measurements.csv", &m) || load(sub, "provenance.csv", &p))
		return fails;
	int n = points_of(&m, pts, 2000);
	double start = utc_s(prov(&p, "started_utc"));
	for (int i = 0; i < n; i++) {
		/* the point ran in (previous end, its end]; ends are whole seconds, cut down */
		double s0 = i ? pts[i - 1].end : start, s1 = pts[i].end;
		int is1 = !strcmp(pts[i].contended, "1");
		flagged += is1;
		if (strcmp(pts[i].contended, "0") && !is1)
			bad("point %ld: contended '%s', expected 0 or 1", pts[i].point, pts[i].contended);
		if (s1 + 1 < ls) {
			before++;
			if (is1)
				bad("point %ld ended before the load started (%.0f s before) but says contended=1",
				    pts[i].point, ls - s1);
		} else if (s0 >= le + 1) {
			after++;
			if (is1)
				bad("point %ld began after the load ended (%.0f s after) but says contended=1",
				    pts[i].point, s0 - le);
		} else if (s0 >= ls + 3 && s1 + 1 <= le) {
			beside++;
			if (!is1)
				bad("point %ld ran beside the load (%.0f..%.0f s into it) but says contended=%s",
				    pts[i].point, s0 - ls, s1 - ls, pts[i].contended);
		}
	}
	printf("  %d points: %d before the load, %d beside it, %d after, %d contended=1\n", n, before,
	       beside, after, flagged);
	if (before < MIN_POINTS || beside < MIN_POINTS || after < MIN_POINTS)
		bad("fewer than %d points before (%d), beside (%d) or after (%d) the load", MIN_POINTS,
		    before, beside, after);
	const char *o = prov(&p, "gpu_other_processes"), *k = prov(&p, "contended_points");
	if (!o || strcmp(o, "0"))
		bad("provenance gpu_other_processes '%s', expected 0 (the GPU was idle at the start)", o);
	snprintf(tb, sizeof(tb), "%d of %d", flagged, n);
	if (!k || strcmp(k, tb))
		bad("provenance contended_points '%s', expected '%s' (the rows)", k, tb);
	tcp_table_free(&m);
	tcp_table_free(&p);

	/* the load itself ran beside the main sweep */
	snprintf(sub, sizeof(sub), "%s/load", c);
	if (load(sub, "measurements.csv", &l) == 0) {
		if (points_of(&l, pts, 2000) != 1 || strcmp(pts[0].contended, "1"))
			bad("the load's point says contended=%s, expected 1 (the sweep ran beside it)",
			    pts[0].contended);
		tcp_table_free(&l);
	}
	/* --require-idle: refused beside the load, ran on the idle GPU */
	snprintf(sub, sizeof(sub), "%s/require-idle.txt", c);
	FILE *f = fopen(sub, "r");
	char line[1024], first[1024] = "", last[1024] = "";
	int nl = 0;
	while (f && fgets(line, sizeof(line), f)) {
		if (!nl++)
			snprintf(first, sizeof(first), "%s", line);
		snprintf(last, sizeof(last), "%s", line);
	}
	if (f)
		fclose(f);
	if (nl != 2 || strcmp(last, "exit 10\n") || !strstr(first, "tcprobe: --require-idle: GPU ") ||
	    !strstr(first, "is not idle: got "))
		bad("%s: %d lines, '%s' ... '%s'; expected one refusal line and 'exit 10'", sub, nl, first, last);
	snprintf(sub, sizeof(sub), "%s/idle-refused", c);
	struct stat st;
	if (stat(sub, &st) == 0)
		bad("%s exists: a refused --require-idle run must write nothing", sub);
	if (!timeline(c, "idle_ok_exit", tb, sizeof(tb)) || strcmp(tb, "0"))
		bad("--require-idle on the idle GPU exited %s, expected 0", tb);
	snprintf(sub, sizeof(sub), "%s/idle-ok", c);
	if (load(sub, "provenance.csv", &ip) == 0) {
		const char *b = prov(&ip, "gpu_busy_at_start");
		if (!b || strcmp(b, "no"))
			bad("idle-ok: gpu_busy_at_start '%s', expected 'no'", b);
		tcp_table_free(&ip);
	}
	return fails;
}

/* ---- the energy-order check ------------------------------------------------- */

/* Per point (axes) of one run: pj_per_flop, and its order in the run. */
struct epoint {
	char axes[256];
	double pj;
	long order;
};

static int energy_run(const char *e, const char *run, struct epoint *out, int max)
{
	char sub[600];
	tcp_table_t t, p;
	int n = 0;

	snprintf(sub, sizeof(sub), "%s/%s", e, run);
	if (load(sub, "measurements.csv", &t))
		return 0;
	if (load(sub, "provenance.csv", &p) == 0) {
		const char *ps = prov(&p, "power_source");
		if (!ps || (strncmp(ps, "instant", 7) && strncmp(ps, "average", 7)))
			bad("%s: provenance power_source '%s', expected instant: or average:", run, ps);
		tcp_table_free(&p);
	}
	for (int r = 0; r < t.nrows; r++) {
		const char *metric = tcp_table_get(&t, r, "metric"), *st = tcp_table_get(&t, r, "status");
		const char *chk = tcp_table_get(&t, r, "energy_check"), *med = tcp_table_get(&t, r, "median");
		const char *temp = tcp_table_get(&t, r, "gpu_temp_c");
		double v = med && *med ? strtod(med, NULL) : NAN;
		if (!temp || !*temp)
			bad("%s line %d: no gpu_temp_c", run, r + 2);
		if (!chk || !*chk) {
			bad("%s line %d: empty energy_check on an --energy run", run, r + 2);
			continue;
		}
		if (!strcmp(metric, "power_agree_pct") && !strcmp(st, "OK") &&
		    (v > TCP_ENERGY_AGREE_PCT) != (strstr(chk, "power_mismatch") != NULL))
			bad("%s line %d: power_agree_pct %.2f%% but energy_check '%s' (tolerance %.0f%%)", run,
			    r + 2, v, chk, TCP_ENERGY_AGREE_PCT);
		if (!strcmp(metric, "settle_s") && v > SETTLE_BOUND_S + 0.2 && !strstr(chk, "unsettled"))
			bad("%s line %d: settle_s %.2f over the %.0f s bound, not marked unsettled", run, r + 2,
			    v, SETTLE_BOUND_S);
		if (strcmp(metric, "pj_per_flop"))
			continue;
		if (strcmp(st, "OK") || !(v > 0)) {
			bad("%s line %d: pj_per_flop %s '%s'", run, r + 2, st, med);
			continue;
		}
		if (n < max) {
			snprintf(out[n].axes, sizeof(out[n].axes), "%s", tcp_table_get(&t, r, "axes"));
			out[n].pj = v;
			out[n].order = atol(tcp_table_get(&t, r, "point"));
			n++;
		}
	}
	tcp_table_free(&t);
	return n;
}

static const struct epoint *find(const struct epoint *v, int n, const char *axes)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i].axes, axes))
			return &v[i];
	return NULL;
}

/* The derived tolerance (%) is returned in *tol_pct. */
static int check_energy_order(const char *e, double *tol_pct)
{
	struct epoint f1[64], f2[64], rv[64];

	fails = 0;
	printf("energy order: %s\n", e);
	int n1 = energy_run(e, "fwd1", f1, 64), n2 = energy_run(e, "fwd2", f2, 64),
	    nr = energy_run(e, "rev", rv, 64);
	if (n1 < 12 || n2 != n1 || nr != n1) {
		bad("pj_per_flop points: fwd1 %d, fwd2 %d, rev %d; expected the same 12 or more", n1, n2, nr);
		return fails;
	}
	double dff = 0;
	for (int i = 0; i < n1; i++) {
		const struct epoint *b = find(f2, n2, f1[i].axes), *r = find(rv, nr, f1[i].axes);
		if (!b || !r) {
			bad("%s: not in every run", f1[i].axes);
			continue;
		}
		double d = fabs(f1[i].pj - b->pj) / ((f1[i].pj + b->pj) / 2) * 100;
		dff = fmax(dff, d);
		/* reversed order: rev's k-th point is forward's (n-1-k)-th */
		if (r->order != (long)(n1 - 1) - f1[i].order)
			bad("%s: point %ld in fwd1 but %ld in rev, expected %ld (reversed)", f1[i].axes,
			    f1[i].order, r->order, (long)(n1 - 1) - f1[i].order);
	}
	double tol = fmax(2 * dff, ORDER_FLOOR_PCT), worst = 0;
	*tol_pct = tol;
	printf("  forward vs forward: largest pj_per_flop difference %.3f%% -> tolerance %.3f%%\n", dff, tol);
	for (int i = 0; i < n1; i++) {
		const struct epoint *b = find(f2, n2, f1[i].axes), *r = find(rv, nr, f1[i].axes);
		if (!b || !r)
			continue;
		double fm = (f1[i].pj + b->pj) / 2, d = fabs(r->pj - fm) / fm * 100;
		worst = fmax(worst, d);
		if (!quiet)
			printf("  %-60s fwd %.4f %.4f rev %.4f pJ/FLOP: %+.3f%%\n", f1[i].axes, f1[i].pj, b->pj,
			       r->pj, (r->pj - fm) / fm * 100);
		if (d > tol)
			bad("%s: reversed %.4f pJ/FLOP is %.2f%% from the forward mean %.4f, tolerance %.2f%%",
			    f1[i].axes, r->pj, d, fm, tol);
	}
	printf("  reversed vs forward: largest difference %.3f%% (tolerance %.3f%%)\n", worst, tol);
	return fails;
}

/* ---- synthetic runs: the checks must pass the right ones, fail the wrong ---- */

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void fmt_utc(double t, char *buf, size_t len, int ms)
{
	time_t s = (time_t)floor(t);
	struct tm tm;
	gmtime_r(&s, &tm);
	size_t n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	if (ms)
		snprintf(buf + n, len - n, ".%03dZ", (int)((t - floor(t)) * 1000));
	else
		snprintf(buf + n, len - n, "Z");
}

/* A run directory with one calib row per point: ends[] and flags[]. */
static void fake_calib(const char *d, const double *ends, const char *const *flags, int n, double start,
		       const char *extra_prov)
{
	char path[600], ts[40], pt[16], err[512], pv[2048];
	mkdir(d, 0755);
	snprintf(path, sizeof(path), "%s/measurements.csv", d);
	tcp_rows_t *w = tcp_rows_open(path, NULL, 0, 0, err, sizeof(err));
	assert_non_null(w);
	for (int i = 0; i < n; i++) {
		tcp_row_t row = { 0 };
		test_row_buf_t buf;
		fmt_utc(ends[i], ts, sizeof(ts), 0);
		snprintf(pt, sizeof(pt), "%d", i);
		row.c[TCP_COL_point] = pt;
		row.c[TCP_COL_probe] = "calib";
		row.c[TCP_COL_axes] = "spin_kcycles=10000";
		row.c[TCP_COL_metric] = "kernel_ns";
		row.c[TCP_COL_status] = "OK";
		row.c[TCP_COL_median] = "5e6";
		row.c[TCP_COL_timestamp] = ts;
		row.c[TCP_COL_contended] = flags[i];
		test_row_finish(&row, &buf);
		assert_int_equal(tcp_rows_write(w, &row, 1), 0);
	}
	assert_int_equal(tcp_rows_close(w), 0);
	fmt_utc(start, ts, sizeof(ts), 0);
	int k = 0;
	for (int i = 0; i < n; i++)
		k += !strcmp(flags[i], "1");
	snprintf(path, sizeof(path), "%s/provenance.csv", d);
	snprintf(pv, sizeof(pv), "key,value\nstarted_utc,%s\ngpu_other_processes,0\ncontended_points,%d of %d\n%s",
		 ts, k, n, extra_prov);
	put(path, pv);
}

/* A contention directory: 60 points of 1.3 s from t0, the load in the middle. */
static void fake_contention(const char *c, int corrupt)
{
	double t0 = 1764000000.0 + (double)(next_u64() % 1000000), ends[60];
	const char *flags[60];
	double ls = t0 + 25.4, le = ls + 28.0;
	char path[600], a[40], b[40], txt[512];

	mkdir(c, 0755);
	for (int i = 0; i < 60; i++) {
		ends[i] = t0 + 1.3 * (i + 1);
		double s0 = i ? ends[i - 1] : t0;
		/* the truth: a point overlapping [ls + 0.5, le] saw the load's context */
		flags[i] = ends[i] > ls + 0.5 && s0 < le ? "1" : "0";
	}
	if (corrupt == 1)
		flags[30] = "0";	/* beside the load, says idle */
	if (corrupt == 2)
		flags[5] = "1";		/* long before it, says contended */
	snprintf(path, sizeof(path), "%s/main", c);
	fake_calib(path, ends, flags, 60, t0, "");
	double lend[1] = { le };
	const char *lf[1] = { "1" };
	snprintf(path, sizeof(path), "%s/load", c);
	fake_calib(path, lend, lf, 1, ls, "");
	fmt_utc(ls, a, sizeof(a), 1);
	fmt_utc(le, b, sizeof(b), 1);
	snprintf(txt, sizeof(txt), "load_start_utc %s\nload_end_utc %s\nload_exit 0\nmain_exit 0\nidle_ok_exit 0\n",
		 a, b);
	snprintf(path, sizeof(path), "%s/timeline.txt", c);
	put(path, txt);
	snprintf(path, sizeof(path), "%s/require-idle.txt", c);
	put(path, corrupt == 3 ? "tcprobe: no CUDA GPU visible\nexit 3\n"
			       : "tcprobe: --require-idle: GPU 0 is not idle: got 1 other compute process (NVML), "
				 "expected no other work on it\nexit 10\n");
	snprintf(path, sizeof(path), "%s/idle-ok", c);
	double iend[1] = { le + 60 };
	const char *ifl[1] = { "0" };
	fake_calib(path, iend, ifl, 1, le + 58, "gpu_busy_at_start,no\n");
}

/* An energy-order run: 12 points in order (reversed when rev), pj from pj[]. */
static void fake_energy(const char *e, const char *run, const double *pj, int rev, double agree_bad)
{
	static const char *const metric[3] = { "pj_per_flop", "power_agree_pct", "settle_s" };
	char d[600], path[700], err[512], pt[16], ax[64], v[3][32];
	snprintf(d, sizeof(d), "%s/%s", e, run);
	mkdir(d, 0755);
	snprintf(path, sizeof(path), "%s/measurements.csv", d);
	tcp_rows_t *w = tcp_rows_open(path, NULL, 0, 0, err, sizeof(err));
	assert_non_null(w);
	for (int i = 0; i < 12; i++) {
		int k = rev ? 11 - i : i;
		double ag = (double)(next_u64() % 400) / 100.0;	/* 0 .. 4% */
		if (agree_bad > 0 && k == 4)
			ag = agree_bad;
		snprintf(pt, sizeof(pt), "%d", i);
		snprintf(ax, sizeof(ax), "kind=k%d;pattern=p%d", k / 4, k % 4);
		snprintf(v[0], 32, "%.6f", pj[k]);
		snprintf(v[1], 32, "%.3f", ag);
		snprintf(v[2], 32, "%.2f", 1.0 + (double)(next_u64() % 300) / 100.0);
		const char *chk = ag > TCP_ENERGY_AGREE_PCT && agree_bad > 0 && agree_bad < 50 ? "power_mismatch" : "ok";
		tcp_row_t rows[3];
		test_row_buf_t buf[3];
		memset(rows, 0, sizeof(rows));
		for (int m = 0; m < 3; m++) {
			const char **c = rows[m].c;
			c[TCP_COL_point] = pt;
			c[TCP_COL_probe] = "wgmma_tput";
			c[TCP_COL_axes] = ax;
			c[TCP_COL_metric] = metric[m];
			c[TCP_COL_status] = "OK";
			c[TCP_COL_median] = v[m];
			c[TCP_COL_timestamp] = "2026-12-01T10:00:00Z";
			c[TCP_COL_contended] = "0";
			c[TCP_COL_gpu_temp_c] = "55";
			c[TCP_COL_energy_check] = chk;
			test_row_finish(&rows[m], &buf[m]);
		}
		assert_int_equal(tcp_rows_write(w, rows, 3), 0);
	}
	assert_int_equal(tcp_rows_close(w), 0);
	snprintf(path, sizeof(path), "%s/provenance.csv", d);
	put(path, "key,value\npower_source,instant: NVML_FI_DEV_POWER_INSTANT (nvmlDeviceGetFieldValues)\n");
}

static void test_checks_catch_wrong_runs(void **st)
{
	char c[400], e[400];
	double tol;
	(void)st;

	quiet = 1;
	for (int corrupt = 0; corrupt <= 3; corrupt++) {
		snprintf(c, sizeof(c), "%s/contention-%d", tmp, corrupt);
		fake_contention(c, corrupt);
		int f = check_contention(c);
		if (corrupt ? f == 0 : f != 0)
			fail_msg("synthetic contention run (corruption %d): %d failures", corrupt, f);
	}
	/* energy: forward twice within 0.4%, reversed within that; then one point off */
	double pj[12], pj2[12], pjr[12];
	for (int i = 0; i < 12; i++) {
		pj[i] = 0.2 + (double)(next_u64() % 600) / 1000.0;
		pj2[i] = pj[i] * (1 + ((double)(next_u64() % 81) - 40) / 10000.0);	/* +-0.4% */
		pjr[i] = (pj[i] + pj2[i]) / 2 * (1 + ((double)(next_u64() % 61) - 30) / 10000.0);
	}
	for (int variant = 0; variant < 4; variant++) {
		snprintf(e, sizeof(e), "%s/energy-%d", tmp, variant);
		mkdir(e, 0755);
		double r[12];
		memcpy(r, pjr, sizeof(r));
		if (variant == 1)
			r[7] *= 1.16;	/* an order effect of 16% */
		fake_energy(e, "fwd1", pj, 0, 0);
		fake_energy(e, "fwd2", pj2, 0, 0);
		/* 2: a mismatch left unmarked; 3: the order not reversed */
		fake_energy(e, "rev", r, variant != 3, variant == 2 ? 60 : 0);
		int f = check_energy_order(e, &tol);
		if (variant ? f == 0 : f != 0)
			fail_msg("synthetic energy runs (variant %d): %d failures", variant, f);
		assert_true(tol >= ORDER_FLOOR_PCT && tol < 2);
	}
	quiet = 0;
}

/* ---- the committed H200 runs -------------------------------------------------- */

static int committed(const char *d)
{
	struct stat st;
	if (stat(d, &st) == 0 && S_ISDIR(st.st_mode))
		return 1;
	printf("  %s is missing: run scripts/device/trust-h200.sh OUT on the H200 and commit "
	       "OUT/%s as %s\n", d, d + strlen("results/"), d);
	return 0;
}

static void test_h200_contention(void **st)
{
	(void)st;
	assert_true(committed("results/h200-contention"));
	assert_int_equal(check_contention("results/h200-contention"), 0);
}

static void test_h200_energy_order(void **st)
{
	double tol;
	(void)st;
	assert_true(committed("results/h200-energy-order"));
	assert_int_equal(check_energy_order("results/h200-energy-order", &tol), 0);
}

static int setup(void **st)
{
	(void)st;
	return test_mkdtemp(tmp, sizeof(tmp), "h200-trust");
}

static int teardown(void **st)
{
	(void)st;
	return test_rm_tree(tmp);
}

int main(void)
{
	test_seed("h200-trust-check");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checks_catch_wrong_runs),
		cmocka_unit_test(test_h200_contention),
		cmocka_unit_test(test_h200_energy_order),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
