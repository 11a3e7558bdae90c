/*
 * test-stats.c
 *	harness/measure/stats.c: summary statistics against hand-computed values (odd
 *	and even n, NaN samples, n = 1, nothing finite, the heap path for large
 *	n) and the two fits on exact synthetic data and on data with Gaussian
 *	noise.  The noise is drawn from a fresh seed every run; it is printed
 *	for a replay (TCP_TEST_SEED=<n> pins it).
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

#include "harness/measure/stats.h"
#include "test-util.h"

static double uniform(double lo, double hi)
{
	return lo + (hi - lo) * ((next_u64() >> 11) * 0x1.0p-53);
}

static double gauss(void)	/* Box-Muller */
{
	double u = uniform(1e-12, 1.0), v = uniform(0.0, 1.0);

	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void test_odd(void **state)
{
	const double x[] = { 3, 1, 2 };
	tcp_stats_t s;

	(void)state;
	tcp_stats_compute(x, 3, &s);
	assert_int_equal(s.n, 3);
	near(s.median, 2, 0);
	near(s.min, 1, 0);
	near(s.max, 3, 0);
	near(s.mean, 2, 1e-15);
	near(s.stddev, 1, 1e-15);			/* sqrt((1+0+1)/2) */
	near(s.spread_pct, 100, 1e-12);			/* (3-1)/2 */
}

static void test_even(void **state)
{
	const double x[] = { 4, 1, 3, 2 };
	tcp_stats_t s;

	(void)state;
	tcp_stats_compute(x, 4, &s);
	assert_int_equal(s.n, 4);
	near(s.median, 2.5, 0);
	near(s.mean, 2.5, 1e-15);
	near(s.stddev, sqrt(5.0 / 3.0), 1e-15);		/* (2.25+.25+.25+2.25)/3 */
	near(s.spread_pct, 120, 1e-12);			/* 3 / 2.5 */
	near(s.min, 1, 0);
	near(s.max, 4, 0);
}

static void test_nan_samples(void **state)
{
	const double x[] = { NAN, 5, NAN, 1 };
	tcp_stats_t s;

	(void)state;
	tcp_stats_compute(x, 4, &s);
	assert_int_equal(s.n, 2);
	near(s.median, 3, 0);
	near(s.mean, 3, 0);
	near(s.stddev, sqrt(8.0), 1e-15);
	near(s.spread_pct, 400.0 / 3.0, 1e-12);
}

static void test_one(void **state)
{
	const double x[] = { 123.5 };
	tcp_stats_t s;

	(void)state;
	tcp_stats_compute(x, 1, &s);
	assert_int_equal(s.n, 1);
	near(s.median, 123.5, 0);
	near(s.min, 123.5, 0);
	near(s.max, 123.5, 0);
	near(s.mean, 123.5, 0);
	near(s.stddev, 0, 0);
	near(s.spread_pct, 0, 0);
}

static void test_nothing_finite(void **state)
{
	const double x[] = { NAN, NAN };
	const double z[] = { 0, 0, 0 };
	tcp_stats_t s;

	(void)state;
	tcp_stats_compute(x, 2, &s);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.median) && isnan(s.min) && isnan(s.max) && isnan(s.mean) &&
		    isnan(s.stddev) && isnan(s.spread_pct));
	tcp_stats_compute(x, 0, &s);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.median));
	tcp_stats_compute(NULL, 5, &s);
	assert_int_equal(s.n, 0);
	/* a zero median has no relative spread */
	tcp_stats_compute(z, 3, &s);
	assert_int_equal(s.n, 3);
	assert_true(isnan(s.spread_pct));
	near(s.stddev, 0, 0);
}

/* 1..n in a random order (n > the on-stack scratch): exact closed forms. */
static void test_large_shuffled(void **state)
{
	enum { N = 1001 };
	double *x = malloc(N * sizeof(*x));
	tcp_stats_t s;

	(void)state;
	assert_non_null(x);
	for (int i = 0; i < N; i++)
		x[i] = i + 1;
	for (int i = N - 1; i > 0; i--) {
		int j = (int)(next_u64() % (uint64_t)(i + 1));
		double t = x[i];
		x[i] = x[j];
		x[j] = t;
	}
	tcp_stats_compute(x, N, &s);
	assert_int_equal(s.n, N);
	near(s.median, 501, 0);
	near(s.mean, 501, 1e-9);
	near(s.min, 1, 0);
	near(s.max, N, 0);
	near(s.stddev, sqrt(N * (N + 1) / 12.0), 1e-9);	/* variance of 1..n */
	/* the input is not reordered */
	int sorted = 1;
	for (int i = 1; i < N; i++)
		sorted &= x[i] > x[i - 1];
	assert_false(sorted);
	free(x);
}

static void test_fit_linear_exact(void **state)
{
	double x[20], y[20], a, b, r2;
	double A = uniform(-100, 100), B = uniform(0.1, 10);

	(void)state;
	for (int i = 0; i < 20; i++) {
		x[i] = 8 * (i + 1);
		y[i] = A + B * x[i];
	}
	assert_int_equal(tcp_fit_linear(x, y, 20, &a, &b, &r2), 0);
	near(a, A, 1e-9 * (1 + fabs(A)));
	near(b, B, 1e-12 * (1 + fabs(B)));
	near(r2, 1, 1e-12);
	/* NaN pairs are skipped, not fatal */
	x[3] = NAN;
	y[7] = NAN;
	assert_int_equal(tcp_fit_linear(x, y, 20, &a, &b, &r2), 0);
	near(b, B, 1e-12 * (1 + fabs(B)));
}

/*
 * Noisy line: the estimate must lie within 6 standard errors of the truth
 * (a false alarm once in ~10^9 runs) and r2 must drop below 1.
 */
static void test_fit_linear_noise(void **state)
{
	enum { N = 200 };
	double x[N], y[N], a, b, r2, sx = 0, sxx = 0;
	double A = uniform(50, 500), B = uniform(0.5, 5), sigma = uniform(0.5, 3);

	(void)state;
	for (int i = 0; i < N; i++) {
		x[i] = uniform(1, 256);
		y[i] = A + B * x[i] + sigma * gauss();
		sx += x[i];
	}
	for (int i = 0; i < N; i++)
		sxx += (x[i] - sx / N) * (x[i] - sx / N);
	assert_int_equal(tcp_fit_linear(x, y, N, &a, &b, &r2), 0);
	double se_b = sigma / sqrt(sxx);
	double se_a = sigma * sqrt(1.0 / N + (sx / N) * (sx / N) / sxx);
	near(b, B, 6 * se_b);
	near(a, A, 6 * se_a);
	assert_true(r2 < 1.0 && r2 > 0.98);
}

static void test_fit_inverse(void **state)
{
	enum { N = 64 };
	double x[N], y[N], a, b, r2;
	double A = uniform(8, 64), B = uniform(20, 400);

	(void)state;
	for (int i = 0; i < N; i++) {
		x[i] = i + 1;			/* chain depth 1..64 */
		y[i] = A + B / x[i];
	}
	assert_int_equal(tcp_fit_inverse(x, y, N, &a, &b, &r2), 0);
	near(a, A, 1e-9 * A);
	near(b, B, 1e-9 * B);
	near(r2, 1, 1e-12);

	/* with noise: within 6 standard errors of the truth */
	double sigma = 0.05 * A, su = 0, suu = 0;
	for (int i = 0; i < N; i++) {
		y[i] = A + B / x[i] + sigma * gauss();
		su += 1 / x[i];
	}
	for (int i = 0; i < N; i++)
		suu += (1 / x[i] - su / N) * (1 / x[i] - su / N);
	assert_int_equal(tcp_fit_inverse(x, y, N, &a, &b, &r2), 0);
	near(b, B, 6 * sigma / sqrt(suu));
	near(a, A, 6 * sigma * sqrt(1.0 / N + (su / N) * (su / N) / suu));
	assert_true(r2 < 1.0);

	/* x == 0 has no 1/x: skipped */
	x[0] = 0;
	y[0] = 1e300;
	for (int i = 1; i < N; i++)
		y[i] = A + B / x[i];
	assert_int_equal(tcp_fit_inverse(x, y, N, &a, &b, &r2), 0);
	near(a, A, 1e-9 * A);
}

static void test_fit_degenerate(void **state)
{
	const double x1[] = { 5 }, y1[] = { 7 };
	const double xs[] = { 4, 4, 4 }, ys[] = { 1, 2, 3 };
	const double xn[] = { NAN, 1, NAN }, yn[] = { 1, 2, 3 };
	const double xc[] = { 1, 2, 3 }, yc[] = { 9, 9, 9 };
	double a = 0, b = 0, r2 = 0;

	(void)state;
	assert_int_equal(tcp_fit_linear(x1, y1, 1, &a, &b, &r2), -1);
	assert_true(isnan(a) && isnan(b) && isnan(r2));
	assert_int_equal(tcp_fit_linear(xs, ys, 3, &a, &b, &r2), -1);
	assert_true(isnan(b));
	assert_int_equal(tcp_fit_linear(xn, yn, 3, &a, &b, &r2), -1);
	assert_int_equal(tcp_fit_inverse(xs, ys, 3, &a, &b, &r2), -1);
	assert_int_equal(tcp_fit_linear(NULL, ys, 3, &a, &b, &r2), -1);
	/* constant y fits exactly with slope 0 */
	assert_int_equal(tcp_fit_linear(xc, yc, 3, &a, &b, &r2), 0);
	near(a, 9, 1e-12);
	near(b, 0, 1e-12);
	near(r2, 1, 0);
	/* NULL outputs are allowed */
	assert_int_equal(tcp_fit_linear(xc, yc, 3, NULL, NULL, NULL), 0);
}

/* Student t quantiles: the table, and the series beyond it against published values. */
static void test_t975(void **state)
{
	(void)state;
	assert_true(isnan(tcp_t975(0)));
	near(tcp_t975(1), 12.7062, 1e-4);
	near(tcp_t975(2), 4.3027, 1e-4);
	near(tcp_t975(10), 2.2281, 1e-4);
	near(tcp_t975(30), 2.0423, 1e-4);
	near(tcp_t975(31), 2.0395, 1e-4);
	near(tcp_t975(40), 2.0211, 1e-4);
	near(tcp_t975(60), 2.0003, 1e-4);
	near(tcp_t975(120), 1.9799, 1e-4);
	near(tcp_t975(1000000), 1.95996, 1e-4);
	for (int df = 2; df < 200; df++)	/* decreasing towards the normal quantile */
		assert_true(tcp_t975(df) < tcp_t975(df - 1) && tcp_t975(df) > 1.959963);
}

/* The CI half-width: the formula on random samples, and its edge cases. */
static void test_median_ci(void **state)
{
	(void)state;
	for (int trial = 0; trial < 100; trial++) {
		int n = 2 + (int)(next_u64() % 60);
		double x[64], mu = uniform(-1e6, 1e6), sigma = uniform(1e-6, 0.2) * fabs(mu);
		for (int i = 0; i < n; i++)
			x[i] = mu + sigma * gauss();
		tcp_stats_t s;
		tcp_stats_compute(x, n, &s);
		double want = tcp_t975(n - 1) * sqrt(M_PI / 2) * s.stddev / sqrt(n) / fabs(s.median) * 100;
		near(tcp_stats_median_ci_pct(x, n), want, 1e-9 * want);
	}
	const double eq[] = { 7, 7, 7, 7 }, zero[] = { -1, 0, 1 }, one[] = { 5, NAN, NAN };
	const double withnan[] = { 10, NAN, 12, 11 }, plain[] = { 10, 12, 11 };
	near(tcp_stats_median_ci_pct(eq, 4), 0, 0);
	assert_true(isinf(tcp_stats_median_ci_pct(zero, 3)));
	assert_true(isnan(tcp_stats_median_ci_pct(one, 3)));
	assert_true(isnan(tcp_stats_median_ci_pct(eq, 1)));
	near(tcp_stats_median_ci_pct(withnan, 4), tcp_stats_median_ci_pct(plain, 3), 0);
}

/*
 * Coverage: under normal noise the interval holds the true median in about
 * 95% of fresh samples (the normal-theory SE of a median overstates a small
 * sample's a little: 96-97% by simulation); 4000 trials, so the band is
 * ~9 binomial standard errors wide on each side.
 */
static void test_median_ci_coverage(void **state)
{
	enum { T = 4000 };
	int hit = 0;

	(void)state;
	for (int trial = 0; trial < T; trial++) {
		int n = 3 + (int)(next_u64() % 28);
		double x[32], mu = uniform(1, 1e4), sigma = uniform(1e-4, 0.05) * mu;
		for (int i = 0; i < n; i++)
			x[i] = mu + sigma * gauss();
		tcp_stats_t s;
		tcp_stats_compute(x, n, &s);
		double half = tcp_stats_median_ci_pct(x, n) / 100 * fabs(s.median);
		hit += fabs(s.median - mu) <= half;
	}
	printf("median CI coverage: %.4f over %d trials\n", (double)hit / T, T);
	assert_true(hit >= 0.93 * T && hit <= 0.99 * T);
}

/* Runs until the rule says stop: the count, the reason, the last CI. */
static tcp_stop_t run_rule(const tcp_reps_rule_t *r, double mu, double sigma, double sec_per_rep,
			   int *n, double *ci, double *x, int cap)
{
	tcp_stop_t st = TCP_STOP_NONE;
	for (*n = 0; st == TCP_STOP_NONE; ) {
		assert_true(*n < cap);
		x[*n] = mu + sigma * gauss();
		++*n;
		st = tcp_reps_next(r, x, *n, *n * sec_per_rep, ci);
	}
	return st;
}

static void test_reps_fixed(void **state)
{
	double x[64], ci;
	int n;

	(void)state;
	for (int trial = 0; trial < 20; trial++) {
		int max = 1 + (int)(next_u64() % 50);
		tcp_reps_rule_t r = { 0, max, 0.5, 0.001 };
		/* noise, quiet, slow: fixed runs exactly max whatever the samples say */
		assert_int_equal(run_rule(&r, 100, uniform(0, 50), uniform(0, 10), &n, &ci, x, 64),
				 TCP_STOP_FIXED);
		assert_int_equal(n, max);
	}
	assert_string_equal(tcp_stop_name(TCP_STOP_FIXED), "fixed");
	assert_string_equal(tcp_stop_name(TCP_STOP_NONE), "");
}

/* Quiet samples (tensor-core loops: 1e-6 relative): stop at the minimum, 3. */
static void test_reps_quiet(void **state)
{
	double x[64], ci;
	int n;

	(void)state;
	for (int trial = 0; trial < 50; trial++) {
		double mu = uniform(1, 1e5);
		tcp_reps_rule_t r = { 1, 10 + (int)(next_u64() % 50), 0.5, 1e9 };
		assert_int_equal(run_rule(&r, mu, uniform(0, 1e-5) * mu, 1e-3, &n, &ci, x, 64),
				 TCP_STOP_NOISE);
		assert_int_equal(n, TCP_REPS_AUTO_MIN);
		assert_true(ci <= 0.5);
	}
	/* every sample equal: converged too */
	tcp_reps_rule_t r = { 1, 10, 0.5, 1e9 };
	assert_int_equal(run_rule(&r, 42, 0, 1e-3, &n, &ci, x, 64), TCP_STOP_NOISE);
	assert_int_equal(n, 3);
	near(ci, 0, 0);
}

/*
 * Noisy samples (5% relative) do not converge to 0.5% in 10 runs: MAX at 10.
 * Three close samples can still stop a point early by chance (an
 * optional-stopping rule does that): about 1.3e-3 per point here by
 * simulation, so over 200 points more than 5 early stops (expected 0.26)
 * would be a broken rule, not bad luck (p ~ 1e-7).
 */
static void test_reps_noisy(void **state)
{
	enum { T = 200 };
	double x[64], ci;
	int n, early = 0;

	(void)state;
	for (int trial = 0; trial < T; trial++) {
		double mu = uniform(1, 1e5);
		tcp_reps_rule_t r = { 1, 10, 0.5, 1e9 };
		tcp_stop_t st = run_rule(&r, mu, 0.05 * mu, 1e-3, &n, &ci, x, 64);
		if (st == TCP_STOP_NOISE) {
			early++;
			assert_true(ci <= 0.5);
			continue;
		}
		assert_int_equal(st, TCP_STOP_MAX);
		assert_int_equal(n, 10);
		assert_true(ci > 0.5);
	}
	assert_true(early <= 5);
}

/*
 * 1% noise and a 0.5% target: the CI shrinks as 1/sqrt(n), so the rule
 * stops near n = (1.96 x 1.2533 x 1 / 0.5)^2 = 24 (simulated median 25), with
 * the CI under the target -- while spread_pct, (max - min) / median, only
 * grows (about 4% by then) and would never have stopped it.
 */
static void test_reps_converge(void **state)
{
	enum { T = 400, CAP = 100000 };
	static double x[CAP];
	int stops[T], n;
	double ci;

	(void)state;
	for (int trial = 0; trial < T; trial++) {
		double mu = uniform(10, 1e5);
		tcp_reps_rule_t r = { 1, CAP, 0.5, 1e9 };
		assert_int_equal(run_rule(&r, mu, 0.01 * mu, 1e-3, &n, &ci, x, CAP), TCP_STOP_NOISE);
		assert_true(n >= TCP_REPS_AUTO_MIN && ci <= 0.5);
		stops[trial] = n;
		if (n >= 20) {
			tcp_stats_t s;
			tcp_stats_compute(x, n, &s);
			assert_true(s.spread_pct > 0.5);
		}
	}
	int below = 0;
	for (int i = 0; i < T; i++)
		below += stops[i] <= 25;
	/* the median stop lies in 15..40: at most half stop by 15, at least half by 40 */
	int by15 = 0, by40 = 0;
	for (int i = 0; i < T; i++) {
		by15 += stops[i] <= 15;
		by40 += stops[i] <= 40;
	}
	printf("1%% noise: %d of %d stopped by 25 runs\n", below, T);
	assert_true(by15 < T / 2 && by40 > T / 2);
}

/* Slow points: the budget stops them after the minimum, not before. */
static void test_reps_budget(void **state)
{
	/* spread out enough (50%) that a chance convergence is ~1e-5 */
	double x[64], ci;
	int n;

	(void)state;
	/* each run takes the whole budget: still the minimum 3 */
	tcp_reps_rule_t r = { 1, 50, 0.5, 0.1 };
	assert_int_equal(run_rule(&r, 100, 50, 1.0, &n, &ci, x, 64), TCP_STOP_BUDGET);
	assert_int_equal(n, 3);
	for (int trial = 0; trial < 20; trial++) {
		int k = 3 + (int)(next_u64() % 20);	/* the budget runs out after run k */
		tcp_reps_rule_t b = { 1, 50, 0.5, k - 0.5 };
		assert_int_equal(run_rule(&b, 100, 50, 1.0, &n, &ci, x, 64), TCP_STOP_BUDGET);
		assert_int_equal(n, k);
	}
	assert_string_equal(tcp_stop_name(TCP_STOP_BUDGET), "budget");
}

/* No finite sample never converges; a cap under the minimum is the count. */
static void test_reps_edges(void **state)
{
	const double nan3[] = { NAN, NAN, NAN }, eq2[] = { 100, 100 }, far2[] = { 100, 130 };
	const double zero4[] = { -1, 0, 1, 0 };
	double ci = 0;

	(void)state;
	tcp_reps_rule_t r = { 1, 8, 0.5, 1e9 };
	assert_int_equal(tcp_reps_next(&r, nan3, 3, 0, &ci), TCP_STOP_NONE);
	assert_true(isnan(ci));
	assert_int_equal(tcp_reps_next(&r, nan3, 2, 0, &ci), TCP_STOP_NONE);	/* below 3 */
	tcp_reps_rule_t three = { 1, 3, 0.5, 1e9 };
	assert_int_equal(tcp_reps_next(&three, nan3, 3, 0, &ci), TCP_STOP_MAX);
	/* a cap of 2 under auto: stop at 2, converged or not */
	tcp_reps_rule_t two = { 1, 2, 0.5, 1e9 };
	assert_int_equal(tcp_reps_next(&two, eq2, 1, 0, &ci), TCP_STOP_NONE);
	assert_int_equal(tcp_reps_next(&two, eq2, 2, 0, &ci), TCP_STOP_NOISE);
	assert_int_equal(tcp_reps_next(&two, far2, 2, 0, &ci), TCP_STOP_MAX);
	assert_true(ci > 0.5);
	tcp_reps_rule_t one = { 1, 1, 0.5, 1e9 };
	assert_int_equal(tcp_reps_next(&one, far2, 1, 0, &ci), TCP_STOP_MAX);	/* one sample: no CI */
	/* a zero median that moves has an infinite relative CI: never "noise" */
	tcp_reps_rule_t z = { 1, 6, 0.5, 1e9 };
	assert_int_equal(tcp_reps_next(&z, zero4, 4, 0, &ci), TCP_STOP_NONE);
	assert_true(isinf(ci));
	/* the budget only counts from the minimum on */
	tcp_reps_rule_t b = { 1, 6, 0.5, 1 };
	assert_int_equal(tcp_reps_next(&b, far2, 2, 100, &ci), TCP_STOP_NONE);
}

int main(void)
{
	test_seed("test-stats");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_odd),
		cmocka_unit_test(test_even),
		cmocka_unit_test(test_nan_samples),
		cmocka_unit_test(test_one),
		cmocka_unit_test(test_nothing_finite),
		cmocka_unit_test(test_large_shuffled),
		cmocka_unit_test(test_fit_linear_exact),
		cmocka_unit_test(test_fit_linear_noise),
		cmocka_unit_test(test_fit_inverse),
		cmocka_unit_test(test_fit_degenerate),
		cmocka_unit_test(test_t975),
		cmocka_unit_test(test_median_ci),
		cmocka_unit_test(test_median_ci_coverage),
		cmocka_unit_test(test_reps_fixed),
		cmocka_unit_test(test_reps_quiet),
		cmocka_unit_test(test_reps_noisy),
		cmocka_unit_test(test_reps_converge),
		cmocka_unit_test(test_reps_budget),
		cmocka_unit_test(test_reps_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
