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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
