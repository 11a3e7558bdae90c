/*
 * test-model-legal.c
 *	model/legal.h: every rule with a legal and an illegal neighbour, and the
 *	exact wording of the reasons users see.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/legal.h"

enum { F_NONE, F_CG, F_M, F_N, F_K, F_A, F_B, F_D, F_AMAJ, F_BMAJ, F_NEG, F_SAT, F_SPARSE, F_WS, F_ATMEM,
       F_SV, F_SF };

struct lcase {
	tcp_kind_t kind;
	int f1;
	long v1;
	int f2;
	long v2;
	int legal;
	const char *why;	/* substring of the reason (illegal cases) */
};

static void set(tcp_mma_cfg_t *c, int f, long v)
{
	switch (f) {
	case F_CG: c->cta_group = (int)v; break;
	case F_M: c->m = (unsigned)v; break;
	case F_N: c->n = (unsigned)v; break;
	case F_K: c->k = (unsigned)v; break;
	case F_A: c->a = (tcp_type_t)v; break;
	case F_B: c->b = (tcp_type_t)v; break;
	case F_D: c->d = (tcp_type_t)v; break;
	case F_AMAJ: c->a_major = (unsigned)v; break;
	case F_BMAJ: c->b_major = (unsigned)v; break;
	case F_NEG: c->neg_a = (unsigned)v; break;
	case F_SAT: c->saturate = (unsigned)v; break;
	case F_SPARSE: c->sparse = (unsigned)v; break;
	case F_WS: c->ws = (unsigned)v; break;
	case F_ATMEM: c->a_tmem = (unsigned)v; break;
	case F_SV: c->scale_vec = (unsigned)v; break;
	case F_SF: c->sf = (tcp_type_t)v; break;
	default: break;
	}
}

#define K(x) TCP_KIND_##x
#define T(x) TCP_T_##x
static const struct lcase cases[] = {
	/* cta_group */
	{ K(F16), F_CG, 3, 0, 0, 0, "cta_group must be 1 or 2; got 3" },
	/* M per kind and cta_group */
	{ K(F16), F_M, 64, 0, 0, 1, NULL },
	{ K(F16), F_M, 256, 0, 0, 0, "kind::f16 with cta_group::1 needs M in {64, 128}; got 256" },
	{ K(F16), F_CG, 2, F_M, 256, 1, NULL },
	{ K(F16), F_CG, 2, F_M, 64, 0, "kind::f16 with cta_group::2 needs M in {128, 256}; got 64" },
	{ K(MXF8F6F4), F_M, 64, 0, 0, 0, "kind::mxf8f6f4 with cta_group::1 needs M = 128; got 64" },
	{ K(MXF4), F_CG, 2, F_M, 256, 1, NULL },
	/* N ranges and steps */
	{ K(F16), F_N, 8, 0, 0, 1, NULL },
	{ K(F16), F_N, 12, 0, 0, 0, "kind::f16 with cta_group::1 needs N a multiple of 8; got 12" },
	{ K(F16), F_N, 264, 0, 0, 0, "kind::f16 with cta_group::1 needs N in [8, 256]; got 264" },
	{ K(TF32), F_CG, 2, F_N, 16, 1, NULL },
	{ K(TF32), F_CG, 2, F_N, 24, 0, "kind::tf32 with cta_group::2 needs N a multiple of 16; got 24" },
	{ K(TF32), F_CG, 2, F_N, 8, 0, "needs N in [16, 256]; got 8" },
	{ K(I8), F_CG, 2, F_N, 32, 1, NULL },
	{ K(I8), F_CG, 2, F_N, 48, 0, "kind::i8 with cta_group::2 needs N a multiple of 32; got 48" },
	{ K(I8), F_CG, 2, F_N, 64, 1, NULL },
	{ K(I8), F_N, 24, 0, 0, 1, NULL },	/* TCP_LEGAL_I8_N24: PTX lists it */
	{ K(I8), F_N, 40, 0, 0, 0, "kind::i8 with cta_group::1 needs N in {8, 16, 24, 32} or a multiple of 16; got 40" },
	{ K(I8), F_N, 48, 0, 0, 1, NULL },
	{ K(MXF8F6F4), F_N, 8, 0, 0, 1, NULL },
	{ K(MXF4NVF4), F_CG, 2, F_N, 40, 0, "kind::mxf4nvf4 with cta_group::2 needs N a multiple of 16; got 40" },
	/* K */
	{ K(F16), F_K, 16, 0, 0, 1, NULL },
	{ K(F16), F_K, 32, 0, 0, 0, "kind::f16 has K = 16; got 32" },
	{ K(F16), F_SPARSE, 1, F_K, 32, 1, NULL },
	{ K(TF32), F_K, 16, 0, 0, 0, "kind::tf32 has K = 8; got 16" },
	{ K(F8F6F4), F_K, 64, 0, 0, 0, "kind::f8f6f4 has K = 32; got 64" },
	{ K(MXF4), F_K, 64, 0, 0, 1, NULL },
	{ K(MXF4), F_K, 96, 0, 0, 0, "kind::mxf4 has no K = 96 form" },
	/* K = 96 (sm_103a; which target has it: test-arch.c) */
	{ K(MXF4NVF4), F_K, 96, 0, 0, 1, NULL },
	{ K(MXF4NVF4), F_K, 96, F_N, 136, 0, "K = 96 needs N a multiple of 16 in [16, 256]; got 136" },
	{ K(MXF4NVF4), F_K, 96, F_ATMEM, 1, 0, "K = 96 takes A from shared memory only" },
	{ K(MXF4NVF4), F_K, 96, F_SPARSE, 1, 0, "K = 96 has no sparse form" },
	{ K(MXF4NVF4), F_K, 128, 0, 0, 0, "kind::mxf4nvf4 has K = 64; got 128" },
	/* types */
	{ K(F16), F_A, T(F16), F_B, T(F16), 1, NULL },
	{ K(F16), F_A, T(TF32), 0, 0, 0, "kind::f16 does not take A of type tf32" },
	{ K(F16), F_A, T(F16), 0, 0, 0, "kind::f16 needs A and B of the same type; got f16 and bf16" },
	{ K(F16), F_D, T(F16), 0, 0, 0, "kind::f16 with bf16 inputs needs an f32 accumulator; got f16" },
	{ K(F16), F_D, T(F16), F_A, T(F16), 0, "same type" },
	{ K(F16), F_D, T(S32), 0, 0, 0, "kind::f16 cannot accumulate into s32" },
	{ K(TF32), F_D, T(F16), 0, 0, 0, "kind::tf32 cannot accumulate into f16" },
	{ K(I8), F_D, T(F32), 0, 0, 0, "kind::i8 cannot accumulate into f32" },
	{ K(I8), F_A, T(U8), 0, 0, 1, NULL },
	{ K(F8F6F4), F_A, T(E2M1), F_B, T(E3M2), 1, NULL },
	{ K(F8F6F4), F_B, T(S8), 0, 0, 0, "kind::f8f6f4 does not take B of type s8" },
	{ K(MXF4), F_A, T(E4M3), 0, 0, 0, "kind::mxf4 does not take A of type e4m3" },
	{ K(MXF8F6F4), F_D, T(F16), 0, 0, 0, "kind::mxf8f6f4 cannot accumulate into f16" },
	/* majors */
	{ K(F16), F_AMAJ, 1, F_BMAJ, 1, 1, NULL },
	{ K(F8F6F4), F_AMAJ, 1, 0, 0, 1, NULL },	/* e4m3 may be MN-major */
	{ K(F8F6F4), F_A, T(E2M1), F_AMAJ, 1, 0, "MN-major A of type e2m1 is not supported" },
	{ K(MXF8F6F4), F_B, T(E3M2), F_BMAJ, 1, 0, "MN-major B of type e3m2 is not supported" },
	{ K(MXF4), F_BMAJ, 1, 0, 0, 0, "kind::mxf4 needs K-major A and B" },
	{ K(F16), F_ATMEM, 1, 0, 0, 1, NULL },
	{ K(F16), F_ATMEM, 1, F_AMAJ, 1, 0, "A in TMEM has no MN-major form" },
	/* negate, saturate */
	{ K(F16), F_NEG, 1, 0, 0, 1, NULL },
	{ K(I8), F_NEG, 1, 0, 0, 0, "kind::i8 has no negate" },
	{ K(I8), F_SAT, 1, 0, 0, 1, NULL },
	{ K(F16), F_SAT, 1, 0, 0, 0, "saturate exists only for kind::i8; got kind::f16" },
	/* scale vectors and scale types */
	{ K(MXF8F6F4), F_SV, 1, 0, 0, 1, NULL },
	{ K(MXF8F6F4), F_SV, 2, 0, 0, 0, "kind::mxf8f6f4 does not take scale_vec::2X" },
	{ K(MXF4), F_SV, 2, 0, 0, 1, NULL },
	{ K(MXF4), F_SV, 4, 0, 0, 0, "kind::mxf4 does not take scale_vec::4X" },
	{ K(MXF4), F_SF, T(UE4M3), 0, 0, 0, "kind::mxf4 does not take scale factors of type ue4m3" },
	{ K(MXF4NVF4), F_SF, T(UE4M3), F_SV, 4, 1, NULL },
	{ K(MXF4NVF4), F_SF, T(UE4M3), F_SV, 2, 0, "with ue4m3 scales needs scale_vec::4X; got 2X" },
	{ K(MXF4NVF4), F_SV, 4, 0, 0, 1, NULL },	/* ue8m0 with 4X */
	{ K(F16), F_SV, 1, 0, 0, 0, "kind::f16 has no scale_vec" },
	/* .ws */
	{ K(F16), F_WS, 1, F_N, 96, 0, "kind::f16 .ws needs N in {64, 128, 256}; got 96" },
	{ K(F16), F_WS, 1, F_N, 64, 1, NULL },
	{ K(F16), F_WS, 1, F_CG, 2, 0, "tcgen05.mma.ws exists only with cta_group::1" },
	{ K(MXF4), F_WS, 1, 0, 0, 0, "tcgen05.mma.ws has no kind::mxf4" },
	{ K(I8), F_WS, 1, F_M, 256, 0, "kind::i8 .ws needs M in {32, 64, 128}; got 256" },
};

static void test_rules_and_neighbours(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct lcase *lc = &cases[i];
		tcp_mma_cfg_t c;
		char why[256] = "";
		int got;

		tcp_mma_cfg_default(lc->kind, &c);
		set(&c, lc->f1, lc->v1);
		set(&c, lc->f2, lc->v2);
		got = tcp_mma_legal(&c, why, sizeof(why));
		if (got != lc->legal)
			fail_msg("case %zu (%s): want %s, got %s (%s)", i, tcp_kind_name(lc->kind),
				 lc->legal ? "legal" : "illegal", got ? "legal" : "illegal", why);
		if (!lc->legal && lc->why && !strstr(why, lc->why))
			fail_msg("case %zu: reason \"%s\" lacks \"%s\"", i, why, lc->why);
	}
}

/* .ws shapes: exactly M in {32, 64, 128} x N in {64, 128, 256}, for the four unscaled kinds. */
static void test_ws_shapes(void **state)
{
	(void)state;
	for (int k = 0; k < TCP_KIND_COUNT; k++)
		for (unsigned m = 16; m <= 256; m += 16)
			for (unsigned n = 8; n <= 256; n += 8) {
				tcp_mma_cfg_t c;
				int want;

				tcp_mma_cfg_default((tcp_kind_t)k, &c);
				c.ws = 1;
				c.m = m;
				c.n = n;
				want = !tcp_kind_block_scaled((tcp_kind_t)k) && (m == 32 || m == 64 || m == 128) &&
				       (n == 64 || n == 128 || n == 256);
				assert_int_equal(tcp_mma_legal(&c, NULL, 0), want);
			}
}

/* The rule table agrees with the check at every N of every (kind, cta_group). */
static void test_table_n_grid(void **state)
{
	(void)state;
	for (int i = 0; i < tcp_nmma_rules; i++) {
		const tcp_mma_rule_t *r = &tcp_mma_rules[i];

		for (unsigned n = 1; n <= 300; n++) {
			tcp_mma_cfg_t c;
			int want;

			tcp_mma_cfg_default(r->kind, &c);
			c.cta_group = r->cta_group;
			c.m = r->m[0];
			c.n = n;
			want = n >= r->n_min && n <= r->n_max && n % r->n_step == 0;
			if (r->kind == TCP_KIND_I8 && r->cta_group == 1)
				want = n >= 8 && n <= 256 && (n % 16 == 0 || n == 8 || n == 24);
			assert_int_equal(tcp_mma_legal(&c, NULL, 0), want);
		}
		assert_int_equal(tcp_mma_rule(r->kind, r->cta_group), r);
		assert_int_equal((int)r->k, tcp_kind_k(r->kind));
	}
	assert_int_equal(tcp_nmma_rules, 2 * TCP_KIND_COUNT);
}

/* kind::f16 accumulates into f16 only for f16 inputs; f8f6f4 into f16 for any input type. */
static void test_f16_accumulator(void **state)
{
	tcp_mma_cfg_t c;
	char why[256];

	(void)state;
	tcp_mma_cfg_default(TCP_KIND_F16, &c);
	c.a = c.b = TCP_T_F16;
	c.d = TCP_T_F16;
	assert_true(tcp_mma_legal(&c, why, sizeof(why)));
	c.a = c.b = TCP_T_BF16;
	assert_false(tcp_mma_legal(&c, why, sizeof(why)));
	tcp_mma_cfg_default(TCP_KIND_F8F6F4, &c);
	c.a = TCP_T_E2M1;
	c.d = TCP_T_F16;
	assert_true(tcp_mma_legal(&c, why, sizeof(why)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules_and_neighbours),
		cmocka_unit_test(test_ws_shapes),
		cmocka_unit_test(test_table_n_grid),
		cmocka_unit_test(test_f16_accumulator),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
