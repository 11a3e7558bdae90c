/*
 * test-energy.c
 *	harness/measure/energy.c: counter differences with and without wrap-around
 *	(64-bit and narrower counters), mJ -> pJ/FLOP and W, FLOP accounting of
 *	MMAs, NaN-aware means; and the --energy window end to end through the
 *	supervisor and a forked worker with a host-only fake probe (no GPU, no
 *	NVML: the energy rows must say NA with the reason, the run count and
 *	window must be real, the probe's own rows untouched).  Readings are
 *	drawn from a fresh seed every run (printed; TCP_TEST_SEED=<n> pins it).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/store/csvio.h"
#include "harness/measure/energy.h"
#include "harness/sweep/supervisor.h"
#include "test-util.h"

static void test_delta_plain(void **st)
{
	(void)st;
	for (int i = 0; i < 1000; i++) {
		uint64_t e0 = next_u64() >> 2, d = next_u64() >> 40;

		assert_int_equal(tcp_energy_delta_mj(e0, e0 + d, 64), (int64_t)d);
	}
	assert_int_equal(tcp_energy_delta_mj(5, 5, 64), 0);
}

static void test_delta_wrap(void **st)
{
	(void)st;
	for (int i = 0; i < 1000; i++) {
		uint64_t d = (next_u64() >> 44) + 1, before = next_u64() % d;
		/* e0 sits `before` below the wrap, e1 the rest of d above it */
		uint64_t e0 = 0 - before - 1, e1 = d - before - 1;

		assert_int_equal(tcp_energy_delta_mj(e0, e1, 64), (int64_t)d);
		/* a 32-bit counter wraps the same way */
		uint64_t f0 = 0xFFFFFFFFull - (before % 0xFFFF), f1 = (f0 + d) & 0xFFFFFFFFull;
		if (d < 0xFFFFFFFFull)
			assert_int_equal(tcp_energy_delta_mj(f0, f1, 32), (int64_t)d);
	}
	/* readings wider than the counter, or a bad width, are refused */
	assert_int_equal(tcp_energy_delta_mj(1ull << 40, 3, 32), -1);
	assert_int_equal(tcp_energy_delta_mj(1, 3, 0), -1);
	assert_int_equal(tcp_energy_delta_mj(1, 3, 65), -1);
	/* more than 2^63 apart: not one wrap of a 64-bit counter we can trust */
	assert_int_equal(tcp_energy_delta_mj(0, 1ull << 63, 64), -1);
}

static void test_units(void **st)
{
	(void)st;
	for (int i = 0; i < 1000; i++) {
		double mj = (double)(next_u64() % 2000000) + 1;	/* up to 2 kJ */
		long long runs = (long long)(next_u64() % 100000) + 1;
		double flop = (double)(next_u64() % 1000000 + 1) * 1e6;
		double pj = tcp_energy_pj_per_flop(mj, runs, flop);

		/* back to joules: pJ x FLOP x 1e-12 = J = mJ / 1000 */
		assert_true(fabs(pj * (double)runs * flop * 1e-12 - mj * 1e-3) <= 1e-12 * mj);
		double s = (double)(next_u64() % 10000 + 1) / 1000.0;
		assert_true(fabs(tcp_energy_power_w(mj, s) * s - mj / 1000.0) <= 1e-12 * mj);
	}
	/* an H200 at 700 W for 2 s over 1000 runs of 1 TFLOP: 1400 J / 1e15 FLOP = 1.4 pJ */
	assert_true(fabs(tcp_energy_pj_per_flop(1400000.0, 1000, 1e12) - 1.4) < 1e-12);
	assert_true(fabs(tcp_energy_power_w(1400000.0, 2.0) - 700.0) < 1e-9);
	assert_true(isnan(tcp_energy_pj_per_flop(10, 0, 1e9)));
	assert_true(isnan(tcp_energy_pj_per_flop(10, 5, -1)));	/* probe says n/a */
	assert_true(isnan(tcp_energy_pj_per_flop(-1, 5, 1e9)));
	assert_true(isnan(tcp_energy_power_w(10, 0)));
}

static void test_flop(void **st)
{
	(void)st;
	/* wgmma m64n256k16 f16: 2 x 64 x 256 x 16 = 524288 FLOP */
	assert_true(tcp_energy_mma_flop(64, 256, 16, 1) == 524288.0);
	for (int i = 0; i < 200; i++) {
		int m = 64, n = 8 * (int)(next_u64() % 32 + 1), k = 8 << (next_u64() % 3);
		double cnt = (double)(next_u64() % 1000000);
		double sum = 0;

		/* the same work counted one MMA at a time */
		for (int j = 0; j < 4; j++)
			sum += tcp_energy_mma_flop(m, n, k, cnt / 4);
		assert_true(fabs(sum - tcp_energy_mma_flop(m, n, k, cnt)) <= 1e-9 * (sum + 1));
	}
}

static void test_mean(void **st)
{
	tcp_mean_t m = { 0 };
	double sum = 0;
	int n = (int)(next_u64() % 50) + 1;

	(void)st;
	assert_true(isnan(tcp_mean_get(&m)));
	for (int i = 0; i < n; i++) {
		double v = (double)(next_u64() % 100000) / 100.0;

		tcp_mean_add(&m, v);
		tcp_mean_add(&m, NAN);	/* a refused reading does not count */
		sum += v;
	}
	assert_int_equal(m.n, n);
	assert_int_equal(m.nan, n);
	assert_true(fabs(tcp_mean_get(&m) - sum / n) < 1e-9);
}

/* Power that steps from `from` to `to` W at t = 0 and relaxes with time
 * constant tau (a trailing-average sensor after a change of load), plus
 * uniform noise of +-noise W. */
static double power_at(double t, double from, double to, double tau, double noise)
{
	double u = (double)(next_u64() % 2000001) / 1000000.0 - 1.0;
	return to + (from - to) * exp(-t / tau) + noise * u;
}

static void test_settle_flat(void **st)
{
	(void)st;
	for (int trial = 0; trial < 20; trial++) {
		double from = 100 + (double)(next_u64() % 600), to = 100 + (double)(next_u64() % 600);
		double tau = 0.05 + (double)(next_u64() % 1000) / 1000.0;	/* 0.05 .. 1.05 s */
		double noise = to * 0.01;	/* 1% jitter: averaged out over a span */
		tcp_settle_t s;
		double t, flat_at = NAN;

		tcp_settle_init(&s, 0);
		for (t = 0; t < 15.0; t += TCP_ENERGY_PERIOD_S) {
			tcp_settle_power(&s, t, power_at(t, from, to, tau, noise));
			tcp_settle_power(&s, t, NAN);	/* a refused reading is skipped */
			if (tcp_settle_flat(&s, t)) {
				flat_at = t;
				break;
			}
		}
		if (isnan(flat_at))
			fail_msg("never flat: %g -> %g W, tau %g s", from, to, tau);
		/* never before two spans; and once flat, what is left of the step is
		 * small: for a sensor time constant up to ~2 spans the two-span trend
		 * test leaves at most ~1.3 x FLAT_PCT of it (+ the noise's share) */
		assert_true(flat_at >= 2 * TCP_SETTLE_SPAN_S - 1e-9);
		double gap = fabs(from - to) * exp(-flat_at / tau);
		if (gap / to * 100 > 2 * TCP_SETTLE_FLAT_PCT + 100 * noise / to)
			fail_msg("flat at %g s with %g W still to go (%g -> %g, tau %g)", flat_at, gap,
				 from, to, tau);
		/* a slow ramp (10%% per second) is never flat */
		tcp_settle_init(&s, 0);
		for (t = 0; t < 5.0; t += TCP_ENERGY_PERIOD_S) {
			tcp_settle_power(&s, t, to * (1 + 0.1 * t));
			assert_false(tcp_settle_flat(&s, t));
		}
	}
}

static void test_counter_updates(void **st)
{
	(void)st;
	for (int trial = 0; trial < 20; trial++) {
		/* a counter that moves every `per` s, read every 25 ms */
		double per = 0.02 + (double)(next_u64() % 200) / 1000.0;
		unsigned long long mj = next_u64() % 1000000000ull;
		tcp_settle_t s;
		double last = 0;

		tcp_settle_init(&s, 0);
		assert_true(isnan(tcp_settle_update_s(&s)));
		for (double t = 0; t < 3.0; t += 0.001) {
			if (t - last >= per) {
				mj += 100 + next_u64() % 500;
				last = t;
			}
			tcp_settle_counter(&s, t, mj);
		}
		double u = tcp_settle_update_s(&s);
		if (!(fabs(u - per) < 0.0015))
			fail_msg("update period %g s measured as %g s", per, u);
		/* the window covers TCP_ENERGY_MIN_UPDATES of them, or what was asked */
		double w = tcp_energy_window_s(0.1, u);
		assert_true(w >= TCP_ENERGY_MIN_UPDATES * u - 1e-12 && w >= 0.1);
		assert_true(tcp_energy_window_s(30, u) == 30 || TCP_ENERGY_MIN_UPDATES * u > 30);
	}
	assert_true(tcp_energy_window_s(2, NAN) == 2);
	assert_true(tcp_energy_window_s(2, 100) == TCP_ENERGY_MAX_S);
}

static void test_agree(void **st)
{
	(void)st;
	for (int i = 0; i < 1000; i++) {
		double c = 1 + (double)(next_u64() % 700000) / 1000.0;
		double d = ((double)(next_u64() % 2001) - 1000) / 10000.0;	/* -10% .. +10% */
		double a = tcp_energy_agree_pct(c, c * (1 + d));
		assert_true(fabs(a - fabs(d) * 100) < 1e-6);
	}
	assert_true(isnan(tcp_energy_agree_pct(0, 100)));
	assert_true(isnan(tcp_energy_agree_pct(100, NAN)));
	assert_true(isnan(tcp_energy_agree_pct(NAN, 100)));
}

/* A host-only probe: each run() sleeps 2 ms and "does" 1e6 FLOP. */
static const tcp_axis_t burn_axes[] = { { "i", "index", NULL, "0" } };
static const tcp_metric_t burn_metrics[] = { { "value", "x", 1, "always 1", TCP_ROLE_AUTO, 0, 0 } };

static tcp_status_t burn_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	(void)p;
	*state = NULL;
	c->work_flop = 1e6;
	return TCP_OK;
}

static tcp_status_t burn_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct timespec ts = { 0, 2000000 };
	(void)state;
	(void)c;
	nanosleep(&ts, NULL);
	out->v[0] = 1;
	return TCP_OK;
}

static const tcp_probe_t burn = {
	.name = "burn", .family = "test", .help = "sleeps", .arch = TCP_ARCH_HOST,
	.axes = burn_axes, .naxes = 1, .metrics = burn_metrics, .nmetrics = 1,
	.setup = burn_setup, .run = burn_run,
};

static double row_value(const tcp_table_t *t, const char *metric, const char **status,
			const char **reason)
{
	for (int r = 0; r < t->nrows; r++)
		if (strcmp(tcp_table_get(t, r, "metric"), metric) == 0) {
			*status = tcp_table_get(t, r, "status");
			*reason = tcp_table_get(t, r, "reason");
			const char *v = tcp_table_get(t, r, "median");
			return *v ? strtod(v, NULL) : NAN;
		}
	fail_msg("no row for metric %s", metric);
	return NAN;
}

static void test_window_end_to_end(void **st)
{
	const tcp_probe_t *const probes[] = { &burn };
	char tmpl[] = "/tmp/test-energy-XXXXXX", dir[256], path[512], err[1024];
	const char *status, *reason;
	double win = 0.2 + (double)(next_u64() % 200) / 1000.0;	/* 0.2 .. 0.4 s */
	tcp_spec_t s;
	tcp_table_t t;

	(void)st;
	assert_non_null(mkdtemp(tmpl));
	snprintf(dir, sizeof(dir), "%s/run", tmpl);
	tcp_spec_init(&s);
	assert_int_equal(tcp_spec_add_probe(&s, "burn", "--probe", probes, 1, err, sizeof(err)), 0);
	tcp_sweep_opts_t o = {
		.spec = &s, .reps = 2, .warmup = 0, .timeout = 5, .gpu = -1, .counters = "none",
		.out_dir = dir, .quiet = 1, .seed_set = 1, .seed = 1, .energy_s = win,
	};
	assert_int_equal(tcp_sweep_run(probes, 1, &o), 0);
	snprintf(path, sizeof(path), "%s/measurements.csv", dir);
	if (tcp_table_load(path, &t, err, sizeof(err)))
		fail_msg("%s", err);
	/* the probe's own row, as without --energy */
	assert_true(row_value(&t, "value", &status, &reason) == 1);
	assert_string_equal(status, "OK");
	/* every row of the point carries the FLOP one run() does, as the probe counted it */
	for (int i = 0; i < t.nrows; i++)
		assert_true(tcp_csv_num(tcp_table_get(&t, i, "flop_per_run")) == 1e6);
	/* the window really ran: the supervisor's (EW sent to EX sent) lasted about
	 * win; the worker counted its run() calls of >= 2 ms each from EW seen to EX
	 * seen, and tflops_energy (runs x 1e6 FLOP over the worker's seconds) gives
	 * those seconds back: the two windows differ only by scheduling */
	double runs = row_value(&t, "energy_runs", &status, &reason);
	assert_string_equal(status, "OK");
	double ws = row_value(&t, "energy_window_s", &status, &reason);
	assert_true(ws >= win && ws < win + 2.0);
	double tf = row_value(&t, "tflops_energy", &status, &reason);
	assert_string_equal(status, "OK");
	double wk = runs * 1e6 / (tf * 1e12);
	if (!(runs >= 10 && runs <= wk / 0.002 + 1 && fabs(wk - ws) < 0.1))
		fail_msg("%g runs in the worker's %g s, the supervisor's window %g s (asked %g)", runs, wk,
			 ws, win);
	/* no GPU: energy, power, pJ/FLOP, clock say NA with the reason */
	static const char *const na[] = { "energy_mj", "power_w_mean", "pj_per_flop",
					  "sm_clock_mhz_energy", "throttle_mask_energy", NULL };
	for (int i = 0; na[i]; i++) {
		assert_true(isnan(row_value(&t, na[i], &status, &reason)));
		assert_string_equal(status, "UNSUPPORTED");
		assert_non_null(strstr(reason, "no GPU"));
	}
	tcp_table_free(&t);
	tcp_spec_free(&s);
	snprintf(path, sizeof(path), "rm -rf '%s'", tmpl);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta_plain),
		cmocka_unit_test(test_delta_wrap),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_flop),
		cmocka_unit_test(test_mean),
		cmocka_unit_test(test_settle_flat),
		cmocka_unit_test(test_counter_updates),
		cmocka_unit_test(test_agree),
		cmocka_unit_test(test_window_end_to_end),
	};

	test_seed("test-energy");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
