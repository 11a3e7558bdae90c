/*
 * test-patterns.c
 *	probes/common/fill.c input patterns (the `pattern` axis): zeros, ones,
 *	random (the very draws of tcp_fill_random), sparse50, smallexp and
 *	maxfinite for every wgmma / mma.sync input type and accumulator; the
 *	maxfinite magnitude is the largest exact all-ones-mantissa value whose
 *	worst-case sum stays finite in the accumulator; and the tcgen05 operand
 *	codes of tc_mma_tput's pattern axis (probes/sm100/tc-check.c) for every
 *	operand family, fp6/fp4 and block-scaled ones included.  Fresh seed each run
 *	(printed; TCP_TEST_SEED=<n> pins it).
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

#include "model/legal.h"
#include "model/ref-interp.h"
#include "probes/common/fill.h"
#include "probes/sm100/tc-check.h"

static uint64_t seed;

#define NEL 4096

static const struct {
	tcp_type_t t, acc;
	long terms;
} combos[] = {
	{ TCP_T_F16, TCP_T_F32, 64 },  { TCP_T_F16, TCP_T_F16, 64 },  { TCP_T_BF16, TCP_T_F32, 64 },
	{ TCP_T_TF32, TCP_T_F32, 32 }, { TCP_T_E4M3, TCP_T_F32, 128 }, { TCP_T_E5M2, TCP_T_F32, 128 },
	{ TCP_T_E4M3, TCP_T_F16, 128 }, { TCP_T_E5M2, TCP_T_F16, 128 }, { TCP_T_S8, TCP_T_S32, 128 },
	{ TCP_T_U8, TCP_T_S32, 128 },
};
#define NCOMBO (sizeof(combos) / sizeof(combos[0]))

static void fill(int c, tcp_pattern_t p, uint64_t s, unsigned char *enc, double *val)
{
	tcp_rng_t r;

	tcp_rng_seed(&r, s);
	assert_int_equal(tcp_fill_pattern(combos[c].t, p, combos[c].acc, combos[c].terms, NEL, &r, enc,
					  val), 0);
	/* val is what the encoded bytes decode to */
	for (int i = 0; i < NEL; i++)
		assert_true(tcp_decode(combos[c].t, enc + (size_t)i * tcp_type_bytes(combos[c].t)) == val[i]);
}

static void test_names(void **st)
{
	(void)st;
	assert_string_equal(tcp_pattern_names[TCP_PAT_RANDOM], "random");
	assert_string_equal(tcp_pattern_names[TCP_PAT_MAXFINITE], "maxfinite");
	assert_null(tcp_pattern_names[TCP_PAT_COUNT]);
}

static void test_constant(void **st)
{
	static unsigned char enc[NEL * 4];
	static double val[NEL];

	(void)st;
	for (size_t c = 0; c < NCOMBO; c++) {
		fill((int)c, TCP_PAT_ZEROS, seed + c, enc, val);
		for (int i = 0; i < NEL; i++)
			assert_true(val[i] == 0);
		fill((int)c, TCP_PAT_ONES, seed + c, enc, val);
		for (int i = 0; i < NEL; i++)
			assert_true(val[i] == 1);
	}
}

static void test_random_sparse(void **st)
{
	static unsigned char enc[NEL * 4], enc2[NEL * 4];
	static double val[NEL], ref[NEL];

	(void)st;
	for (size_t c = 0; c < NCOMBO; c++) {
		tcp_rng_t r;
		int zeros = 0, refzeros = 0;

		/* random: exactly tcp_fill_random's draws, so default sweeps do not change */
		tcp_rng_seed(&r, seed + c);
		tcp_fill_random(combos[c].t, NEL, &r, enc2, ref);
		fill((int)c, TCP_PAT_RANDOM, seed + c, enc, val);
		assert_memory_equal(enc, enc2, NEL * tcp_type_bytes(combos[c].t));
		/* sparse50: each element the random one or 0, about half 0 */
		fill((int)c, TCP_PAT_SPARSE50, seed + c, enc, val);
		for (int i = 0; i < NEL; i++) {
			assert_true(val[i] == 0 || val[i] == ref[i]);
			zeros += val[i] == 0;
			refzeros += ref[i] == 0;
		}
		/* binomial(4096, 1/2): 5 sigma is 160 */
		assert_true(zeros - refzeros / 2 > NEL / 2 - 160 && zeros < NEL / 2 + 160 + refzeros);
	}
}

static void test_smallexp(void **st)
{
	static unsigned char enc[NEL * 4];
	static double val[NEL];

	(void)st;
	for (size_t c = 0; c < NCOMBO; c++) {
		int neg = 0, distinct = 0;

		fill((int)c, TCP_PAT_SMALLEXP, seed + c, enc, val);
		for (int i = 0; i < NEL; i++) {
			if (tcp_type_is_float(combos[c].t))
				assert_true(fabs(val[i]) >= 1 && fabs(val[i]) < 2);
			else
				assert_true(fabs(val[i]) <= 3);
			neg += val[i] < 0;
			distinct += i && val[i] != val[0];
		}
		if (combos[c].t != TCP_T_U8)
			assert_true(neg > NEL / 4 && neg < 3 * NEL / 4);
		assert_true(distinct > 0);	/* random, not constant */
	}
}

static void test_maxfinite(void **st)
{
	static unsigned char enc[NEL * 4];
	static double val[NEL];

	(void)st;
	/* the documented examples */
	assert_true(tcp_pattern_max(TCP_T_E4M3, TCP_T_F16, 128) == 15.0);
	assert_true(tcp_pattern_max(TCP_T_F16, TCP_T_F32, 64) == 65504.0);
	assert_true(tcp_pattern_max(TCP_T_E4M3, TCP_T_F32, 128) == 448.0);
	assert_true(tcp_pattern_max(TCP_T_S8, TCP_T_S32, 128) == 127.0);
	assert_true(tcp_pattern_max(TCP_T_U8, TCP_T_S32, 128) == 255.0);
	assert_true(tcp_pattern_max(TCP_T_F16, TCP_T_F16, 64) == 15.9921875);	/* (2 - 2^-10) 2^3 */
	assert_true(tcp_pattern_max(TCP_T_F16, TCP_T_F32, 0) == 0);
	for (size_t c = 0; c < NCOMBO; c++) {
		tcp_type_t t = combos[c].t, acc = combos[c].acc;
		double m = tcp_pattern_max(t, acc, combos[c].terms), amax = tcp_type_max(acc);
		double ref[1] = { 0 }, mag[1] = { 0 }, a[128], b[128];

		assert_true(m > 0 && m <= tcp_type_max(t));
		assert_true(tcp_round_to(t, m) == m);	/* exact in the type */
		/* the worst case (every product the same sign) stays finite and in range */
		assert_true((double)combos[c].terms * m * m <= amax / 2);
		for (long k = 0; k < combos[c].terms && k < 128; k++)
			a[k] = b[k] = m;
		tcp_ref_gemm(1, 1, (int)(combos[c].terms < 128 ? combos[c].terms : 128), a, b, 1.0, ref, mag);
		assert_true(isfinite(tcp_round_to(acc == TCP_T_S32 ? TCP_T_F32 : acc, ref[0])));
		/* and it is the largest such: the next value of the type would not fit
		 * (or m is the type's own maximum) */
		if (m < tcp_type_max(t)) {
			/* the next candidate: the all-ones mantissa one binade up, or m + 1 */
			double next = tcp_type_is_float(t) ? 2 * m : m + 1;

			assert_true((double)combos[c].terms * next * next > amax / 2);
		}
		fill((int)c, TCP_PAT_MAXFINITE, seed + c, enc, val);
		for (int i = 0; i < NEL; i++)
			assert_true(fabs(val[i]) == m);
	}
}

static const struct {
	tcp_kind_t kind;
	tcp_type_t a, b;
	unsigned m, n;
} tc_cases[] = {
	{ TCP_KIND_F16, TCP_T_BF16, TCP_T_BF16, 128, 64 }, { TCP_KIND_F16, TCP_T_F16, TCP_T_F16, 128, 32 },
	{ TCP_KIND_TF32, TCP_T_TF32, TCP_T_TF32, 128, 32 }, { TCP_KIND_F8F6F4, TCP_T_E4M3, TCP_T_E5M2, 128, 48 },
	{ TCP_KIND_F8F6F4, TCP_T_E2M1, TCP_T_E3M2, 128, 16 }, { TCP_KIND_I8, TCP_T_S8, TCP_T_U8, 128, 32 },
	{ TCP_KIND_MXF8F6F4, TCP_T_E4M3, TCP_T_E2M1, 128, 32 }, { TCP_KIND_MXF4, TCP_T_E2M1, TCP_T_E2M1, 128, 32 },
};

static void test_tcgen05_codes(void **st)
{
	(void)st;
	for (size_t ci = 0; ci < sizeof(tc_cases) / sizeof(tc_cases[0]); ci++)
		for (int pat = 0; pat < TCP_PAT_COUNT; pat++) {
			tcp_mma_cfg_t c;
			tcp_tc_mma_data_t d;
			char why[256];

			if (pat == TCP_PAT_RANDOM)
				continue;	/* the probe uses TCP_TC_FILL_RANDOM itself */
			tcp_mma_cfg_default(tc_cases[ci].kind, &c);
			c.a = tc_cases[ci].a;
			c.b = tc_cases[ci].b;
			c.cta_group = 1;
			c.m = tc_cases[ci].m;
			c.n = tc_cases[ci].n;
			if (tcp_tc_mma_data_build(&d, &c, TCP_SW_NONE, seed + ci, TCP_TC_FILL_PATTERN + pat, why,
						  sizeof(why)))
				fail_msg("case %zu pattern %s: %s", ci, tcp_pattern_names[pat], why);
			size_t na = (size_t)c.m * d.k, zeros = 0;
			double m0 = fabs(tcp_ref_decode(c.a, d.a_raw[0]));
			for (size_t i = 0; i < na; i++) {
				double v = tcp_ref_decode(c.a, d.a_raw[i]);
				assert_true(isfinite(v));
				zeros += v == 0;
				switch (pat) {
				case TCP_PAT_ZEROS: assert_true(v == 0); break;
				case TCP_PAT_ONES: assert_true(v == 1); break;
				case TCP_PAT_SMALLEXP:
					if (tcp_type_is_float(c.a))
						assert_true(fabs(v) >= 1 && fabs(v) < 2);
					else
						assert_true(fabs(v) <= 3);
					break;
				case TCP_PAT_MAXFINITE: assert_true(fabs(v) == m0 && m0 > 0); break;
				default: break;
				}
			}
			if (pat == TCP_PAT_SPARSE50)
				assert_true(zeros > na / 4 && zeros < 3 * na / 4 + na / 8);
			/* the reference: zeros give 0, ones K x the block scales; all finite */
			for (size_t i = 0; i < (size_t)c.m * c.n; i++) {
				assert_true(isfinite(d.ref[i]));
				if (pat == TCP_PAT_ZEROS)
					assert_true(d.ref[i] == 0);
				if (pat == TCP_PAT_ONES) {	/* K products of 1, each with its blocks' scales */
					double want = 0;
					for (unsigned kk = 0; kk < d.k; kk++) {
						unsigned blk = d.nblk ? kk * d.nblk / d.k : 0;
						want += tcp_tc_sf(&d, 0, (unsigned)(i / c.n), blk) *
							tcp_tc_sf(&d, 1, (unsigned)(i % c.n), blk);
					}
					assert_true(fabs(d.ref[i] - want) <= 1e-9 * want);
				}
			}
			if (pat == TCP_PAT_MAXFINITE) {
				/* the most MMAs a tput launch accumulates, K products at the largest
				 * scales, stay in half the range */
				double mb = fabs(tcp_ref_decode(c.b, d.b_raw[0]));
				double sc = tcp_kind_block_scaled(c.kind) ? 64.0 : 1.0;
				assert_true((double)TCP_TC_TPUT_MAX_MMAS * d.k * m0 * mb * sc <= tcp_type_max(c.d) / 2);
			}
			tcp_tc_mma_data_free(&d);
		}
}

int main(void)
{
	const char *pin = getenv("TCP_TEST_SEED");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_constant),
		cmocka_unit_test(test_random_sparse),
		cmocka_unit_test(test_smallexp),
		cmocka_unit_test(test_maxfinite),
		cmocka_unit_test(test_tcgen05_codes),
	};

	seed = pin ? strtoull(pin, NULL, 0) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
	printf("test-patterns: seed %llu (TCP_TEST_SEED pins it)\n", (unsigned long long)seed);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
