/*
 * test-energy.c
 *	harness/energy.c: counter differences with and without wrap-around
 *	(64-bit and narrower counters), mJ -> pJ/FLOP and W, FLOP accounting of
 *	MMAs, NaN-aware means.  Readings are drawn from a fresh seed every run
 *	(printed; TCP_TEST_SEED=<n> pins it).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/energy.h"

static uint64_t rng;

static uint64_t next_u64(void)	/* splitmix64 */
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

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

int main(void)
{
	const char *pin = getenv("TCP_TEST_SEED");
	uint64_t seed = pin ? strtoull(pin, NULL, 0) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta_plain),
		cmocka_unit_test(test_delta_wrap),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_flop),
		cmocka_unit_test(test_mean),
	};

	rng = seed;
	printf("test-energy: seed %llu (TCP_TEST_SEED pins it)\n", (unsigned long long)seed);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
