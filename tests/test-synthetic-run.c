/*
 * test-synthetic-run.c
 *	tests/fixtures/synthetic-run/, a SYNTHETIC results directory (invented
 *	numbers, not a measurement) in the docs/results.md format, so the
 *	plots and the report can be rendered and checked without hardware: every
 *	probe the plots read (Hopper and tcgen05), a few non-OK points of every
 *	status, a reason with quotes and commas, and a compare.csv of its wgmma
 *	probes for the ratio plot.  It is written by the production writers: measurements.csv by the
 *	rows writer (harness/store/rows.h), provenance.csv by csvio, compare.csv
 *	by `tcprobe compare --csv`'s code against a second synthetic run of the
 *	wgmma probes.  The numbers come from a fixed seed, so the test writes
 *	the fixture again and checks the committed one is byte for byte what the
 *	writers make today.
 *	    build/tests/test-synthetic-run --write tests/fixtures/synthetic-run
 *	writes it (after a change to the writers or the schema).
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

#include <cmocka.h>

#include "harness/analyze/compare.h"
#include "harness/store/csvio.h"
#include "test-rows.h"
#include "test-util.h"

#define RUN "synthetic-run"
#define MAXPTS 512
#define MAXM 6

static uint64_t fx_rng;

static double fx_uniform(double lo, double hi)	/* splitmix64, fixed seed: the same fixture every time */
{
	uint64_t z = (fx_rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return lo + (hi - lo) * (double)(z >> 11) / 9007199254740992.0;
}

struct fxpoint {
	const char *probe, *arch, *status, *reason;
	char axes[160];
	int nm;
	const char *metric[MAXM], *unit[MAXM];
	double v[MAXM];		/* NaN: no value */
};

static struct fxpoint pts[MAXPTS];
static int npts;

/* A point: axes "a=1;b=2", then nm (metric, unit, value) triples. */
static void add(const char *probe, const char *arch, const char *axes, const char *status, const char *reason,
		int nm, ...)
{
	struct fxpoint *p = &pts[npts++];
	va_list ap;

	assert_true(npts <= MAXPTS && nm <= MAXM);
	*p = (struct fxpoint){ .probe = probe, .arch = arch, .status = status, .reason = reason, .nm = nm };
	snprintf(p->axes, sizeof(p->axes), "%s", axes);
	va_start(ap, nm);
	for (int m = 0; m < nm; m++) {
		p->metric[m] = va_arg(ap, const char *);
		p->unit[m] = va_arg(ap, const char *);
		p->v[m] = va_arg(ap, double);
	}
	va_end(ap);
}

static void make_points(void)
{
	static const char *const k90[] = { "f16", "bf16", "tf32", "e4m3", "s8" };
	static const double pk90[] = { 4096, 4096, 2048, 8192, 8192 };
	static const char *const acc90[] = { "f32", "f32", "f32", "f32", "s32" };
	static const int ns[] = { 8, 16, 32, 64, 96, 128, 192, 256 };
	char ax[160];

	npts = 0;
	fx_rng = 20261129;
	for (int k = 0; k < 5; k++)
		for (int src = 0; src < 2; src++)
			for (int wg = 1; wg <= 3; wg++)
				for (int i = 0; i < 8; i++) {
					int n = ns[i];
					double eff = fmin(0.995, (n / (n + 24.0)) * (0.8 + 0.07 * wg)) * (src ? 0.97 : 1);
					double v = pk90[k] * eff * (1 + fx_uniform(-0.002, 0.002));
					snprintf(ax, sizeof(ax), "kind=%s;acc=%s;N=%d;a_src=%s;wg=%d", k90[k], acc90[k], n,
						 src ? "rs" : "ss", wg);
					add("wgmma_tput", "sm_90a", ax, "OK", NULL, 5, "flop_per_clk_sm", "FLOP/clk/SM", v,
					    "tflops", "TFLOP/s", v * 132 * 1.755e9 / 1e12, "pct_peak", "%", 100 * v / pk90[k],
					    "sm_clock_mhz", "MHz", 1755.0, "cycles", "cycles", 1e6);
				}
	add("wgmma_tput", "sm_90a", "kind=e5m2;acc=f32;N=256;a_src=ss;wg=2", "INVALID",
	    "e5m2 tile: D[3,17] = 1.5, expected 2.25 (tolerance 0.0625)", 1, "flop_per_clk_sm", "FLOP/clk/SM", NAN);
	add("wgmma_tput", "sm_90a", "kind=tf32;acc=f16;N=256;a_src=ss;wg=1", "SKIPPED",
	    "wgmma has no tf32 form with an f16 accumulator", 1, "flop_per_clk_sm", "FLOP/clk/SM", NAN);
	static const char *const klat[] = { "f16", "tf32", "e4m3", "s8" };
	static const char *const acclat[] = { "f32", "f32", "f32", "s32" };
	static const int nlat[] = { 8, 16, 32, 64, 128, 256 };
	for (int k = 0; k < 4; k++)
		for (int i = 0; i < 6; i++) {
			double v = 13 + 0.45 * nlat[i] + fx_uniform(-1.5, 1.5);
			snprintf(ax, sizeof(ax), "kind=%s;acc=%s;N=%d", klat[k], acclat[k], nlat[i]);
			add("wgmma_lat", "sm_90a", ax, "OK", NULL, 3, "cycles_per_mma", "cycles", v, "ns_per_mma", "ns",
			    v / 1.755, "sm_clock_mhz", "MHz", 1755.0);
		}
	add("wgmma_lat", "sm_90a", "kind=bf16;acc=f32;N=256", "TIMEOUT", "point exceeded 30 s, worker killed", 1,
	    "cycles_per_mma", "cycles", NAN);
	static const char *const kms[] = { "f16", "tf32", "s8" };
	static const double rms[] = { 1024, 512, 2048 };
	static const int warps[] = { 1, 4, 16 };
	for (int k = 0; k < 3; k++)
		for (int w = 0; w < 3; w++) {
			snprintf(ax, sizeof(ax), "kind=%s;warps=%d;ilp=4", kms[k], warps[w]);
			add("mma_sync", "sm_90a", ax, "OK", NULL, 2, "cycles_per_mma", "cycles", 33.0, "flop_per_clk_sm",
			    "FLOP/clk/SM", rms[k] * fmin(0.97, warps[w] / 8.0));
		}
	add("mma_sync", "sm_90a", "kind=bf16;warps=32;ilp=4", "FAILED",
	    "worker killed by SIGSEGV, \"quoted\" and, with commas", 1, "flop_per_clk_sm", "FLOP/clk/SM", NAN);
	/* tcgen05 probes: synthetic, to exercise the Blackwell plots */
	static const char *const kii[] = { "f16", "f8f6f4" };
	static const int kk[] = { 16, 32 };
	for (int k = 0; k < 2; k++)
		for (int d = 1; d <= 64; d *= 2) {
			double v = 64 + 128.0 / d + fx_uniform(-0.5, 0.5);
			snprintf(ax, sizeof(ax), "kind=%s;N=128;depth=%d;chain=indep", kii[k], d);
			add("tc_mma_ii", "sm_100a", ax, "OK", NULL, 3, "issue_cycles_per_mma", "cycles", v / 4,
			    "cycles_per_mma", "cycles", v, "flop_per_clk_sm", "FLOP/clk/SM", 2.0 * 128 * 128 * kk[k] / v);
		}
	static const char *const shapes[] = { "32x32b", "16x256b" };
	for (int op = 0; op < 2; op++)
		for (int s = 0; s < 2; s++)
			for (int num = 1; num <= 128; num *= 2) {
				double v = 512 * num / (num + 3.0) * (op ? 0.8 : 1);
				snprintf(ax, sizeof(ax), "shape=%s;num=%d;pack=0;warpgroups=1;op=%s", shapes[s], num,
					 op ? "st" : "ld");
				add("tc_ldst", "sm_100a", ax, "OK", NULL, 2, "reg_bytes_per_clk_sm", "B/clk/SM", v,
				    "ld_latency_cycles", "cycles", 500 / v);
			}
	static const char *const fmts[] = { "plain", "b6x16_p32", "b4x16_p64" };
	static const char *const cps[] = { "128x256b", "4x256b", "128x128b", "64x128b.warpx2::02_13", "32x128b.warpx4" };
	static const double cpv[] = { 900, 100, 700, 500, 300 };
	for (int f = 0; f < 3; f++)
		for (int s = 0; s < 5; s++) {
			snprintf(ax, sizeof(ax), "shape=%s;fmt=%s;cta_group=1", cps[s], fmts[f]);
			add("tc_cp", "sm_100a", ax, "OK", NULL, 3, "smem_bytes_per_clk_sm", "B/clk/SM", cpv[s] * 0.5,
			    "tmem_bytes_per_clk_sm", "B/clk/SM", cpv[s] * (f ? 0.8 : 1), "cycles_per_cp", "cycles",
			    4096 / cpv[s]);
		}
	for (int n = 64; n <= 256; n *= 2) {
		snprintf(ax, sizeof(ax), "kind=f16;cta_group=1;M=128;N=%d;ab=ss", n);
		add("tc_mma_tput", "sm_100a", ax, "UNSUPPORTED", "unsupported on sm_90: probe needs sm_100a", 1,
		    "flop_per_clk_sm", "FLOP/clk/SM", NAN);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* dir/measurements.csv of pts (only probes starting with `only`, when set), each
 * value times ratio(point, metric) when given, as run `run`. */
static void write_meas(const char *dir, const char *run, const char *only, double (*ratio)(const struct fxpoint *))
{
	const char *axc[64];
	char names[64][32], path[600], err[512];
	int na = 0;

	for (int i = 0; i < npts; i++) {
		tcp_row_t r = { 0 };
		test_row_buf_t b;
		r.c[TCP_COL_axes] = pts[i].axes;
		tcp_row_axes_from_key(&r, pts[i].axes, b.axes, sizeof(b.axes));
		for (int a = 0; a < r.naxes; a++) {
			int dup = 0;
			for (int j = 0; j < na && !dup; j++)
				dup = !strcmp(names[j], r.an[a]);
			if (!dup) {
				assert_true(na < 64);
				snprintf(names[na], sizeof(names[na]), "%s", r.an[a]);
				axc[na] = names[na];
				na++;
			}
		}
	}
	qsort(axc, (size_t)na, sizeof(*axc), cmp_str);
	snprintf(path, sizeof(path), "%s/measurements.csv", dir);
	tcp_rows_t *w = tcp_rows_open(path, axc, na, 0, err, sizeof(err));
	if (!w)
		fail_msg("%s", err);
	for (int i = 0; i < npts; i++) {
		const struct fxpoint *p = &pts[i];
		char id[16], v[MAXM][6][32];
		tcp_row_t rows[MAXM];
		test_row_buf_t buf[MAXM];
		if (only && strncmp(p->probe, only, strlen(only)))
			continue;
		double k = ratio ? ratio(p) : 1;
		snprintf(id, sizeof(id), "%d", i);
		memset(rows, 0, sizeof(rows));
		for (int m = 0; m < p->nm; m++) {
			const char **c = rows[m].c;
			c[TCP_COL_run_id] = run;
			c[TCP_COL_gpu] = "0";
			c[TCP_COL_point] = id;
			c[TCP_COL_probe] = p->probe;
			c[TCP_COL_arch] = p->arch;
			c[TCP_COL_axes] = p->axes;
			c[TCP_COL_metric] = p->metric[m];
			c[TCP_COL_unit] = p->unit[m];
			c[TCP_COL_reps] = "5";
			c[TCP_COL_status] = p->status;
			c[TCP_COL_reason] = p->reason;
			c[TCP_COL_throttle] = "none";
			c[TCP_COL_timestamp] = "2026-11-29T18:00:00Z";
			if (!strcmp(p->status, "OK") && isfinite(p->v[m])) {
				double x = p->v[m] * k, sp = fx_uniform(0.05, 0.6);
				snprintf(v[m][0], 32, "%.6g", x);
				snprintf(v[m][1], 32, "%.6g", x * (1 - sp / 200));
				snprintf(v[m][2], 32, "%.6g", x * (1 + sp / 200));
				snprintf(v[m][3], 32, "%.4g", x * sp / 400);
				snprintf(v[m][4], 32, "%.4g", sp);
				c[TCP_COL_median] = c[TCP_COL_mean] = v[m][0];
				c[TCP_COL_min] = v[m][1];
				c[TCP_COL_max] = v[m][2];
				c[TCP_COL_stddev] = v[m][3];
				c[TCP_COL_spread_pct] = v[m][4];
				c[TCP_COL_sm_clock_mhz] = "1755";
			}
			test_row_finish(&rows[m], &buf[m]);
		}
		assert_int_equal(tcp_rows_write(w, rows, p->nm), 0);
	}
	assert_int_equal(tcp_rows_close(w), 0);
}

static void write_prov(const char *dir)
{
	static const char *const k[] = { "schema_version", "tcprobe_version", "git_commit", "command_line", "gpu_name",
					  "compute_capability", "sm_count", "driver_version", "cuda_runtime_version",
					  "sm_clock_max_mhz" };
	static const char *const v[] = { "3", "synthetic", "synthetic", "build/tests/test-synthetic-run --write",
					  "SYNTHETIC fixture, not a measurement", "9.0", "132", "synthetic", "13.0",
					  "1980" };
	char path[600], err[512];

	assert_int_equal(atoi(v[0]), TCP_SCHEMA_VERSION);
	snprintf(path, sizeof(path), "%s/provenance.csv", dir);
	assert_int_equal(tcp_csv_write_kv(path, k, v, 10, err, sizeof(err)), 0);
}

/* The second run's ratio: noise, and wg=3 N=64 points 5% slower. */
static double second_run(const struct fxpoint *p)
{
	double u1 = fx_uniform(1e-12, 1), u2 = fx_uniform(0, 1);
	double g = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);	/* Box-Muller */

	return 1 + 0.006 * g + (strstr(p->axes, "N=64;") && strstr(p->axes, "wg=3") ? -0.05 : 0);
}

/* The fixture into dir: the run, then compare.csv against a second run of its wgmma points. */
static void write_fixture(const char *dir)
{
	char tmp[256], run2[400], path[600], err[TCP_CMP_ERRLEN];
	tcp_cmp_run_t base, cur;
	tcp_cmp_t cmp;

	make_points();
	mkdir(dir, 0755);
	write_meas(dir, RUN, NULL, NULL);
	write_prov(dir);
	assert_int_equal(test_mkdtemp(tmp, sizeof(tmp), "synthetic-run"), 0);
	snprintf(run2, sizeof(run2), "%s/synthetic-run-2", tmp);
	mkdir(run2, 0755);
	write_meas(run2, "synthetic-run-2", "wgmma", second_run);
	write_prov(run2);
	static const char *const wgmma[] = { "wgmma_*" };
	const tcp_cmp_filter_t only = { .probes = wgmma, .nprobes = 1, .gpu = -1 };
	assert_int_equal(tcp_cmp_run_load(dir, &only, &base, err, sizeof(err)), 0);
	assert_int_equal(tcp_cmp_run_load(run2, &only, &cur, err, sizeof(err)), 0);
	assert_int_equal(tcp_cmp_join(&base, &cur, 1, TCP_CMP_NOISE_FLOOR, TCP_CMP_THRESHOLD, &cmp, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/compare.csv", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(tcp_cmp_write_csv(f, &cmp, &base, &cur), 0);
	assert_int_equal(fclose(f), 0);
	tcp_cmp_free(&cmp);
	tcp_cmp_run_free(&base);
	tcp_cmp_run_free(&cur);
	snprintf(path, sizeof(path), "rm -rf '%s'", tmp);
	assert_int_equal(system(path), 0);
}

static char *slurp(const char *dir, const char *name, size_t *n)
{
	char path[600], err[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	char *s = tcp_file_read(path, n, err, sizeof(err));
	if (!s)
		fail_msg("%s", err);
	return s;
}

static void test_fixture_is_current(void **state)
{
	static const char *const files[] = { "measurements.csv", "provenance.csv", "compare.csv" };
	const char *fix = "tests/fixtures/synthetic-run";
	char dir[256], sub[300];
	(void)state;

	assert_int_equal(test_mkdtemp(dir, sizeof(dir), "synthetic-fixture"), 0);
	snprintf(sub, sizeof(sub), "%s/" RUN, dir);
	write_fixture(sub);
	for (int i = 0; i < 3; i++) {
		size_t a, b;
		char *want = slurp(sub, files[i], &a), *have = slurp(fix, files[i], &b);
		if (a != b || memcmp(want, have, a))
			fail_msg("%s/%s is not what the writers make today: "
				 "build/tests/test-synthetic-run --write %s", fix, files[i], fix);
		free(want);
		free(have);
	}
	/* the fixture reads as a version 3 run, its points described by the writer */
	tcp_run_t *r;
	char err[512];
	assert_int_equal(tcp_run_open(fix, TCP_RUN_STRICT, &r, err, sizeof(err)), 0);
	assert_int_equal(r->schema, TCP_SCHEMA_VERSION);
	const tcp_run_point_t *p = tcp_run_find(r, "wgmma_tput", "kind=s8;acc=s32;N=8;a_src=ss;wg=1");
	assert_non_null(p);
	assert_string_equal(p->mma_kind, "i8");
	assert_string_equal(p->acc_type, "s32");
	tcp_run_free(r);
	snprintf(sub, sizeof(sub), "rm -rf '%s'", dir);
	assert_int_equal(system(sub), 0);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--write")) {
		write_fixture(argv[2]);
		printf("wrote %s: %d points\n", argv[2], npts);
		return 0;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_is_current),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
