/*
 * test-hopper-ref.c
 *	The host half of every MMA probe's correctness check (probes/common/fill.c):
 *	element conversions (exhaustive round trips, known codes, the standard
 *	bit tricks on random fp32), random fills, the reference GEMM against an
 *	independent integer computation, and the tolerance check, which must
 *	pass honest device-like results and catch a deliberately corrupted one.
 *	Random inputs are fresh each run; the seed is printed for a replay
 *	(TCP_TEST_SEED=<n> pins it).
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

#include "probes/common/fill.h"

static uint64_t seed;

static uint32_t f32_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static float bits_f32(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static uint16_t enc16(tcp_type_t t, double v)
{
	uint16_t h;
	tcp_encode(t, v, &h);
	return h;
}

static uint8_t enc8(tcp_type_t t, double v)
{
	uint8_t b;
	tcp_encode(t, v, &b);
	return b;
}

static void test_f16_known_codes(void **st)
{
	(void)st;
	assert_int_equal(enc16(TCP_T_F16, 1.0), 0x3c00);
	assert_int_equal(enc16(TCP_T_F16, -2.0), 0xc000);
	assert_int_equal(enc16(TCP_T_F16, 65504.0), 0x7bff);
	assert_int_equal(enc16(TCP_T_F16, 65520.0), 0x7c00);		/* tie above max: inf */
	assert_int_equal(enc16(TCP_T_F16, ldexp(1, -24)), 0x0001);	/* smallest subnormal */
	assert_int_equal(enc16(TCP_T_F16, ldexp(1, -25)), 0x0000);	/* tie: to even (0) */
	assert_int_equal(enc16(TCP_T_F16, ldexp(3, -26)), 0x0001);
	assert_int_equal(enc16(TCP_T_F16, 1.0 + ldexp(1, -11)), 0x3c00);	/* tie: to even */
	assert_int_equal(enc16(TCP_T_F16, 1.0 + ldexp(3, -11)), 0x3c02);
	assert_true(isnan(tcp_decode(TCP_T_F16, &(uint16_t){ 0x7e00 })));
	assert_true(isinf(tcp_decode(TCP_T_F16, &(uint16_t){ 0xfc00 })));
}

static void test_fp8_known_codes(void **st)
{
	(void)st;
	assert_int_equal(enc8(TCP_T_E4M3, 1.0), 0x38);
	assert_int_equal(enc8(TCP_T_E4M3, 448.0), 0x7e);
	assert_int_equal(enc8(TCP_T_E4M3, 1000.0), 0x7e);		/* saturates, no inf */
	assert_int_equal(enc8(TCP_T_E4M3, -ldexp(1, -9)), 0x81);	/* smallest subnormal */
	assert_true(isnan(tcp_decode(TCP_T_E4M3, &(uint8_t){ 0x7f })));
	assert_true(tcp_decode(TCP_T_E4M3, &(uint8_t){ 0x7e }) == 448.0);
	assert_int_equal(enc8(TCP_T_E5M2, 1.0), 0x3c);
	assert_int_equal(enc8(TCP_T_E5M2, 57344.0), 0x7b);
	assert_int_equal(enc8(TCP_T_E5M2, 1e6), 0x7c);		/* overflows to inf */
	assert_int_equal(enc8(TCP_T_E5M2, ldexp(1, -16)), 0x01);
	assert_true(isinf(tcp_decode(TCP_T_E5M2, &(uint8_t){ 0x7c })));
}

/* Every non-NaN code decodes to a value that encodes back to the same code. */
static void roundtrip_all(tcp_type_t t, unsigned ncodes)
{
	for (unsigned c = 0; c < ncodes; c++) {
		unsigned char in[2] = { (unsigned char)c, (unsigned char)(c >> 8) }, out[2] = { 0, 0 };
		double v = tcp_decode(t, in);

		if (isnan(v))
			continue;
		tcp_encode(t, v, out);
		if (memcmp(in, out, ncodes > 256 ? 2 : 1)) {
			fail_msg("%s code 0x%x -> %g -> 0x%x", tcp_type_name(t), c, v,
				 out[0] | out[1] << 8);
		}
	}
}

static void test_roundtrip_exhaustive(void **st)
{
	(void)st;
	roundtrip_all(TCP_T_F16, 65536);
	roundtrip_all(TCP_T_BF16, 65536);
	roundtrip_all(TCP_T_E4M3, 256);
	roundtrip_all(TCP_T_E5M2, 256);
	roundtrip_all(TCP_T_S8, 256);
	roundtrip_all(TCP_T_U8, 256);
}

/* bf16 and tf32 rounding agree with the round-to-nearest-even bit trick on random fp32. */
static void test_bf16_tf32_vs_bit_trick(void **st)
{
	tcp_rng_t r;

	(void)st;
	tcp_rng_seed(&r, seed);
	for (int i = 0; i < 200000; i++) {
		uint32_t u = (uint32_t)tcp_rng_u64(&r);
		float f = bits_f32(u);
		uint32_t t32, want;

		if (!isfinite(f) || fabsf(f) > 3e38f)
			continue;
		want = (u + 0x7fff + ((u >> 16) & 1)) >> 16;
		if (enc16(TCP_T_BF16, f) != (uint16_t)want)
			fail_msg("bf16(0x%08x) = 0x%04x, want 0x%04x", u, enc16(TCP_T_BF16, f), want);
		tcp_encode(TCP_T_TF32, f, &t32);
		want = (u + 0xfff + ((u >> 13) & 1)) & ~0x1fffu;
		if (t32 != want)
			fail_msg("tf32(0x%08x) = 0x%08x, want 0x%08x", u, t32, want);
		assert_true(tcp_round_to(TCP_T_TF32, f) == (double)bits_f32(want));
	}
	assert_int_equal(f32_bits((float)tcp_round_to(TCP_T_BF16, 1.0)), 0x3f800000);
}

static void test_fill_random(void **st)
{
	static const tcp_type_t types[] = { TCP_T_F16, TCP_T_BF16, TCP_T_TF32, TCP_T_E4M3,
					    TCP_T_E5M2, TCP_T_S8, TCP_T_U8 };
	enum { n = 4096 };
	unsigned char buf[n * 4], buf2[n * 4];
	double val[n];
	tcp_rng_t r;

	(void)st;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		tcp_type_t t = types[i];
		size_t b = tcp_type_bytes(t);
		int distinct = 0, nonzero = 0;

		tcp_rng_seed(&r, seed + i);
		assert_int_equal(tcp_fill_random(t, n, &r, buf, val), 0);
		for (int j = 0; j < n; j++) {
			assert_true(tcp_decode(t, buf + j * b) == val[j]);
			if (tcp_type_is_float(t))
				assert_true(val[j] >= -1.0 && val[j] <= 1.0);
			else if (t == TCP_T_S8)
				assert_true(val[j] >= -128 && val[j] <= 127);
			else
				assert_true(val[j] >= 0 && val[j] <= 255);
			nonzero += val[j] != 0;
			distinct += j && val[j] != val[j - 1];
		}
		assert_true(nonzero > n / 2 && distinct > n / 2);
		/* same seed, same data; next seed, different data */
		tcp_rng_seed(&r, seed + i);
		tcp_fill_random(t, n, &r, buf2, NULL);
		assert_memory_equal(buf, buf2, n * b);
		tcp_rng_seed(&r, seed + i + 1000);
		tcp_fill_random(t, n, &r, buf2, NULL);
		assert_memory_not_equal(buf, buf2, n * b);
	}
}

/* Reference GEMM against an independent int64 computation (s8 x u8, alpha 3). */
static void test_ref_gemm_exact_int(void **st)
{
	enum { M = 64, N = 40, K = 32 };
	int8_t a[M * K];
	uint8_t b[N * K];
	double A[M * K], B[N * K], C[M * N], mag[M * N];
	tcp_rng_t r;

	(void)st;
	tcp_rng_seed(&r, seed ^ 0x1234);
	tcp_fill_random(TCP_T_S8, M * K, &r, a, A);
	tcp_fill_random(TCP_T_U8, N * K, &r, b, B);
	for (int i = 0; i < M * N; i++)
		C[i] = mag[i] = 7;	/* accumulates onto what is there */
	tcp_ref_gemm(M, N, K, A, B, 3.0, C, mag);
	for (int m = 0; m < M; m++)
		for (int n = 0; n < N; n++) {
			int64_t s = 0, abs_s = 0;
			for (int k = 0; k < K; k++) {
				s += (int64_t)a[m * K + k] * b[n * K + k];
				abs_s += llabs((int64_t)a[m * K + k] * b[n * K + k]);
			}
			assert_true(C[m * N + n] == 7.0 + 3.0 * (double)s);
			assert_true(mag[m * N + n] == 7.0 + 3.0 * (double)abs_s);
		}
}

/*
 * An f16-accumulator tile, summed the way the device may (rounding to f16
 * after every product), passes; the same tile with one element corrupted,
 * or one NaN, or two elements swapped, fails and names the element.
 */
static void test_check_catches_corruption(void **st)
{
	enum { M = 64, N = 64, K = 16 };
	uint16_t a[M * K], b[N * K];
	double A[M * K], B[N * K], ref[M * N], mag[M * N], got[M * N];
	double tol = tcp_tolerance(TCP_T_F16, TCP_T_F16, TCP_T_F16);
	char reason[256];
	tcp_rng_t r;

	(void)st;
	tcp_rng_seed(&r, seed ^ 0xabcd);
	tcp_fill_random(TCP_T_F16, M * K, &r, a, A);
	tcp_fill_random(TCP_T_F16, N * K, &r, b, B);
	memset(ref, 0, sizeof(ref));
	memset(mag, 0, sizeof(mag));
	tcp_ref_gemm(M, N, K, A, B, 1.0, ref, mag);
	for (int m = 0; m < M; m++)
		for (int n = 0; n < N; n++) {
			double s = 0;
			for (int k = 0; k < K; k++)
				s = tcp_round_to(TCP_T_F16, s + A[m * K + k] * B[n * K + k]);
			got[m * N + n] = s;
		}
	assert_int_equal(tcp_check(M * N, N, got, ref, mag, tol, reason, sizeof(reason)), -1);

	/* one element off by 5% of its scale, at a random place */
	size_t bad = (size_t)(tcp_rng_u64(&r) % (M * N));
	double keep = got[bad];
	char want[64];
	got[bad] += 0.05 * mag[bad] + 1e-3;
	assert_int_equal(tcp_check(M * N, N, got, ref, mag, tol, reason, sizeof(reason)), (long)bad);
	snprintf(want, sizeof(want), "C[%zu][%zu] =", bad / N, bad % N);
	assert_non_null(strstr(reason, want));
	got[bad] = NAN;
	assert_int_equal(tcp_check(M * N, N, got, ref, mag, tol, reason, sizeof(reason)), (long)bad);
	got[bad] = keep;

	/* a layout bug: two columns swapped in one row */
	size_t row = bad / N, c0 = bad % N, c1 = (c0 + 1 + tcp_rng_u64(&r) % (N - 1)) % N;
	size_t i0 = row * N + c0, i1 = row * N + c1, first = i0 < i1 ? i0 : i1;
	double t = got[i0];
	got[i0] = got[i1];
	got[i1] = t;
	if (fabs(got[i0] - got[i1]) > tol * (mag[i0] + mag[i1]))	/* equal values: no bug to see */
		assert_int_equal(tcp_check(M * N, N, got, ref, mag, tol, reason, sizeof(reason)),
				 (long)first);
}

/* Integers are exact: an off-by-one anywhere fails; tf32 and fp8 tolerances are sane. */
static void test_tolerances(void **st)
{
	double ref[4] = { 5, -3, 0, 1 << 20 }, mag[4] = { 9, 9, 9, 1 << 20 }, got[4];
	char reason[256];

	(void)st;
	assert_true(tcp_tolerance(TCP_T_S8, TCP_T_U8, TCP_T_S32) == 0);
	assert_true(tcp_tolerance(TCP_T_TF32, TCP_T_TF32, TCP_T_F32) == 1e-3);
	assert_true(tcp_tolerance(TCP_T_BF16, TCP_T_BF16, TCP_T_F32) == 1e-2);
	assert_true(tcp_tolerance(TCP_T_E4M3, TCP_T_E5M2, TCP_T_F32) == 0x1p-3);
	assert_true(tcp_tolerance(TCP_T_E4M3, TCP_T_E4M3, TCP_T_F16) > 0x1p-4);
	memcpy(got, ref, sizeof(got));
	assert_int_equal(tcp_check(4, 2, got, ref, mag, 0, reason, sizeof(reason)), -1);
	got[3] += 1;
	assert_int_equal(tcp_check(4, 2, got, ref, mag, 0, reason, sizeof(reason)), 3);
	assert_non_null(strstr(reason, "C[1][1]"));
}

int main(void)
{
	const char *s = getenv("TCP_TEST_SEED");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_f16_known_codes),
		cmocka_unit_test(test_fp8_known_codes),
		cmocka_unit_test(test_roundtrip_exhaustive),
		cmocka_unit_test(test_bf16_tf32_vs_bit_trick),
		cmocka_unit_test(test_fill_random),
		cmocka_unit_test(test_ref_gemm_exact_int),
		cmocka_unit_test(test_check_catches_corruption),
		cmocka_unit_test(test_tolerances),
	};

	seed = s ? strtoull(s, NULL, 0) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	printf("test-hopper-ref: seed %llu (TCP_TEST_SEED to replay)\n", (unsigned long long)seed);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
