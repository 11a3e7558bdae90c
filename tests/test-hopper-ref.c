/*
 * test-hopper-ref.c
 *	The host half of every MMA probe's correctness check (probes/common/fill.c):
 *	element conversions (exhaustive round trips, known codes, the standard
 *	bit tricks on random fp32), random fills, the reference GEMM against an
 *	independent integer computation, and the tolerance check, which must
 *	pass honest device-like results and catch a deliberately corrupted one;
 *	and the wgmma tile host code (wgmma-tile.c): shared-memory image against
 *	the descriptor strides, A register fragments, the accumulator fragment
 *	map, and tcp_wg_check() on synthetic dumps, honest and corrupted.
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
#include "probes/common/wgmma-tile.h"

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

/* The m64nN accumulator map hits every (row, col) exactly once. */
static void test_wg_acc_map_bijective(void **st)
{
	static unsigned char seen[64 * 256];

	(void)st;
	for (int packed = 0; packed < 2; packed++)
		for (int n = 8; n <= 256; n += 8) {
			int regs = packed ? n / 4 : n / 2;

			memset(seen, 0, sizeof(seen));
			for (int t = 0; t < 128; t++)
				for (int i = 0; i < regs; i++)
					for (int e = 0; e <= packed; e++) {
						int r, c;

						tcp_wg_acc_pos(t, i, e, packed, &r, &c);
						assert_true(r >= 0 && r < 64 && c >= 0 && c < n);
						seen[r * n + c]++;
					}
			for (int x = 0; x < 64 * n; x++)
				assert_int_equal(seen[x], 1);
		}
}

/* The image holds A and B where the descriptor (LBO/SBO, K-major) says, and
 * the RS fragments hold the same A; B2 = -B0 for signed B. */
static void test_wg_tiles_layout(void **st)
{
	static const int kinds[] = { TCP_WGK_F16_F32, TCP_WGK_TF32_F32, TCP_WGK_E5M2_E4M3_F32, TCP_WGK_S8_U8_S32,
				     TCP_WGK_U8_S8_S32 };
	tcp_wg_tiles_t t;

	(void)st;
	for (size_t ki = 0; ki < sizeof(kinds) / sizeof(kinds[0]); ki++) {
		const tcp_wg_kind_t *k = &tcp_wg_kinds[kinds[ki]];
		size_t ea = tcp_type_bytes(k->a), eb = tcp_type_bytes(k->b);
		int n = 8 * (1 + (int)(seed % 32)), nwg = 1 + (int)((seed >> 8) % 3);

		assert_int_equal(tcp_wg_tiles_make(&t, kinds[ki], n, nwg, seed + ki), 0);
		assert_int_equal(tcp_wg_acc_regs(kinds[ki], n), k->d == TCP_T_F16 ? n / 4 : n / 2);
		for (int w = 0; w < nwg; w++)
			for (int r = 0; r < 64; r++)
				for (int kk = 0; kk < k->k; kk++) {
					size_t kb = (size_t)kk * ea;
					uint32_t off = t.a_off + (uint32_t)w * t.a_stride + (uint32_t)(r / 8) * t.sbo +
						       (uint32_t)(kb / 16) * t.lbo + (uint32_t)(r % 8) * 16 + kb % 16;
					double want = t.A[((size_t)w * 64 + (size_t)r) * (size_t)k->k + (size_t)kk];

					assert_true(tcp_decode(k->a, t.image + off) == want);
					/* fragment register holding (r, kk): warp r/16, lane 4(r%8) + (kb%16)/4 */
					int j = ((r % 16) >= 8) | (int)(kb / 16) << 1;
					int th = 32 * (r / 16) + 4 * (r % 8) + (int)(kb % 16) / 4;
					const uint8_t *fr = (const uint8_t *)&t.afrag[((size_t)w * 128 + (size_t)th) * 4 + (size_t)j];
					assert_true(tcp_decode(k->a, fr + kb % 4) == want);
				}
		for (int r = 0; r < n; r++)
			for (int kk = 0; kk < k->k; kk++) {
				size_t kb = (size_t)kk * eb;
				uint32_t off = (uint32_t)(r / 8) * t.sbo + (uint32_t)(kb / 16) * t.lbo +
					       (uint32_t)(r % 8) * 16 + kb % 16;
				double b0 = t.B0[(size_t)r * (size_t)k->k + (size_t)kk];

				assert_true(tcp_decode(k->b, t.image + t.b0_off + off) == b0);
				assert_true(tcp_decode(k->b, t.image + t.b1_off + off) ==
					    t.B1[(size_t)r * (size_t)k->k + (size_t)kk]);
				if (k->b != TCP_T_U8)
					assert_true(tcp_decode(k->b, t.image + t.b2_off + off) ==
						    tcp_round_to(k->b, -b0));
			}
		tcp_wg_tiles_free(&t);
	}
}

/* Encode the reference D of warpgroup wg into a register dump, as the device would. */
static void synth_dump(const tcp_wg_tiles_t *t, int wg, long n0, long n1, uint32_t *dump)
{
	const tcp_wg_kind_t *k = &tcp_wg_kinds[t->kind];
	int n = t->n, R = tcp_wg_acc_regs(t->kind, n), packed = k->d == TCP_T_F16;
	double *ref = calloc((size_t)64 * n, sizeof(double));

	assert_non_null(ref);
	tcp_ref_gemm(64, n, k->k, t->A + (size_t)wg * 64 * (size_t)k->k, t->B0, (double)n0, ref, NULL);
	tcp_ref_gemm(64, n, k->k, t->A + (size_t)wg * 64 * (size_t)k->k, t->B1, (double)n1, ref, NULL);
	for (int th = 0; th < 128; th++)
		for (int i = 0; i < R; i++) {
			uint32_t w = 0;

			for (int e = 0; e <= packed; e++) {
				int r, c;
				uint16_t h;

				tcp_wg_acc_pos(th, i, e, packed, &r, &c);
				if (packed) {
					tcp_encode(TCP_T_F16, ref[r * n + c], &h);
					w |= (uint32_t)h << (16 * e);
				} else {
					tcp_encode(k->d, ref[r * n + c], &w);
				}
			}
			dump[th * R + i] = w;
		}
	free(ref);
}

/* tcp_wg_check(): honest dumps pass; a flipped word, swapped registers, the
 * other warpgroup's result or the wrong B count fail and name the spot. */
static void test_wg_check_catches_corruption(void **st)
{
	static const int kinds[] = { TCP_WGK_F16_F32, TCP_WGK_F16_F16, TCP_WGK_BF16_F32, TCP_WGK_TF32_F32,
				     TCP_WGK_E4M3_E5M2_F32, TCP_WGK_E5M2_E5M2_F16, TCP_WGK_S8_S8_S32,
				     TCP_WGK_U8_S8_S32 };
	char reason[256];
	tcp_wg_tiles_t t;
	tcp_rng_t r;

	(void)st;
	tcp_rng_seed(&r, seed ^ 0x77);
	for (size_t ki = 0; ki < sizeof(kinds) / sizeof(kinds[0]); ki++) {
		int n = 64, R = tcp_wg_acc_regs(kinds[ki], n), ndumps = 3;
		size_t words = (size_t)128 * (size_t)R;
		uint32_t *dump = malloc(words * ndumps * sizeof(uint32_t)), *other = malloc(words * sizeof(uint32_t));

		assert_non_null(dump);
		assert_non_null(other);
		assert_int_equal(tcp_wg_tiles_make(&t, kinds[ki], n, 2, seed + 100 + ki), 0);
		for (int d = 0; d < ndumps; d++)
			synth_dump(&t, 0, 2, 1, dump + (size_t)d * words);
		if (tcp_wg_check(&t, 0, 2, 1, dump, ndumps, words, reason, sizeof(reason)))
			fail_msg("%s: honest dump rejected: %s", tcp_type_name(tcp_wg_kinds[kinds[ki]].a), reason);
		/* wrong iteration count and the other warpgroup's tile are caught */
		assert_int_equal(tcp_wg_check(&t, 0, 1, 1, dump, 1, words, reason, sizeof(reason)), -1);
		synth_dump(&t, 1, 2, 1, other);
		assert_int_equal(tcp_wg_check(&t, 0, 2, 1, other, 1, words, reason, sizeof(reason)), -1);

		/* reference and scale per element, to corrupt beyond the tolerance */
		const tcp_wg_kind_t *k = &tcp_wg_kinds[kinds[ki]];
		double *ref = calloc(64 * 64, sizeof(double)), *mag = calloc(64 * 64, sizeof(double));
		double tol = tcp_tolerance(k->a, k->b, k->d);
		int packed = k->d == TCP_T_F16, row, col;
		assert_non_null(ref);
		assert_non_null(mag);
		tcp_ref_gemm(64, n, k->k, t.A, t.B0, 2.0, ref, mag);
		tcp_ref_gemm(64, n, k->k, t.A, t.B1, 1.0, ref, mag);

		/* one element of the last dump moved by 0.2 x its scale (+1) */
		size_t bad = (size_t)(tcp_rng_u64(&r) % words);
		uint32_t keep = dump[2 * words + bad], w = 0;
		tcp_wg_acc_pos((int)(bad / (size_t)R), (int)(bad % (size_t)R), 0, packed, &row, &col);
		double v = ref[row * n + col] + 0.2 * mag[row * n + col] + 1;
		if (packed) {
			uint16_t h;
			tcp_encode(TCP_T_F16, v, &h);
			w = (keep & 0xffff0000u) | h;
		} else {
			tcp_encode(k->d, v, &w);
		}
		dump[2 * words + bad] = w;
		assert_int_equal(tcp_wg_check(&t, 0, 2, 1, dump, ndumps, words, reason, sizeof(reason)), -1);
		char want[64];
		snprintf(want, sizeof(want), "dump 2: C[%d][%d]", row, col);
		if (!strstr(reason, want))
			fail_msg("expected '%s' in '%s'", want, reason);
		dump[2 * words + bad] = keep;

		/* a fragment-map bug: register i0 of a thread swapped with one whose
		 * value lies outside i0's tolerance (the first such one) */
		size_t th = (size_t)(tcp_rng_u64(&r) % 128), i0 = th * (size_t)R;
		double v0, tolerance0;
		tcp_wg_acc_pos((int)th, 0, 0, packed, &row, &col);
		v0 = ref[row * n + col];
		tolerance0 = tol * mag[row * n + col];
		for (size_t i1 = i0 + 1; i1 < i0 + (size_t)R; i1++) {
			int r1, c1;
			tcp_wg_acc_pos((int)th, (int)(i1 - i0), 0, packed, &r1, &c1);
			if (fabs(ref[r1 * n + c1] - v0) <= 2 * tolerance0 + 1)
				continue;
			uint32_t x = dump[i0];
			dump[i0] = dump[i1];
			dump[i1] = x;
			assert_int_equal(tcp_wg_check(&t, 0, 2, 1, dump, ndumps, words, reason, sizeof(reason)), -1);
			break;
		}
		free(ref);
		free(mag);
		tcp_wg_tiles_free(&t);
		free(dump);
		free(other);
	}
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
		cmocka_unit_test(test_wg_acc_map_bijective),
		cmocka_unit_test(test_wg_tiles_layout),
		cmocka_unit_test(test_wg_check_catches_corruption),
	};

	seed = s ? strtoull(s, NULL, 0) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	printf("test-hopper-ref: seed %llu (TCP_TEST_SEED to replay)\n", (unsigned long long)seed);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
