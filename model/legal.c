/*
 * legal.c
 *	The tcgen05.mma legality rules (model/legal.h): the rule table and the
 *	check that explains a rejection.
 */
#include <stdarg.h>
#include <stdio.h>

#include "model/legal.h"

#define T(x)	(1u << TCP_T_##x)
#define F8F6F4	(T(E4M3) | T(E5M2) | T(E2M3) | T(E3M2) | T(E2M1))
#define SV(v)	(1u << (v))

/* PTX kind-shapes table; one row per (kind, cta_group).  i8 cg1 N is special-cased. */
const tcp_mma_rule_t tcp_mma_rules[] = {
	{ TCP_KIND_F16, 1, { 64, 128 }, 8, 256, 8, 16, T(F16) | T(BF16), T(F32) | T(F16), 0, 0, 1, 1 },
	{ TCP_KIND_F16, 2, { 128, 256 }, 16, 256, 16, 16, T(F16) | T(BF16), T(F32) | T(F16), 0, 0, 1, 1 },
	{ TCP_KIND_TF32, 1, { 64, 128 }, 8, 256, 8, 8, T(TF32), T(F32), 0, 0, 1, 1 },
	{ TCP_KIND_TF32, 2, { 128, 256 }, 16, 256, 16, 8, T(TF32), T(F32), 0, 0, 1, 1 },
	{ TCP_KIND_F8F6F4, 1, { 64, 128 }, 8, 256, 8, 32, F8F6F4, T(F32) | T(F16), 0, 0, 1, 1 },
	{ TCP_KIND_F8F6F4, 2, { 128, 256 }, 16, 256, 16, 32, F8F6F4, T(F32) | T(F16), 0, 0, 1, 1 },
	{ TCP_KIND_I8, 1, { 64, 128 }, 8, 256, 16, 32, T(S8) | T(U8), T(S32), 0, 0, 1, 0 },
	{ TCP_KIND_I8, 2, { 128, 256 }, 32, 256, 32, 32, T(S8) | T(U8), T(S32), 0, 0, 1, 0 },
	{ TCP_KIND_MXF8F6F4, 1, { 128 }, 8, 256, 8, 32, F8F6F4, T(F32), T(UE8M0), SV(1), 1, 1 },
	{ TCP_KIND_MXF8F6F4, 2, { 128, 256 }, 16, 256, 16, 32, F8F6F4, T(F32), T(UE8M0), SV(1), 1, 1 },
	{ TCP_KIND_MXF4, 1, { 128 }, 8, 256, 8, 64, T(E2M1), T(F32), T(UE8M0), SV(2), 0, 1 },
	{ TCP_KIND_MXF4, 2, { 128, 256 }, 16, 256, 16, 64, T(E2M1), T(F32), T(UE8M0), SV(2), 0, 1 },
	{ TCP_KIND_MXF4NVF4, 1, { 128 }, 8, 256, 8, 64, T(E2M1), T(F32), T(UE8M0) | T(UE4M3),
	  SV(2) | SV(4), 0, 1 },
	{ TCP_KIND_MXF4NVF4, 2, { 128, 256 }, 16, 256, 16, 64, T(E2M1), T(F32), T(UE8M0) | T(UE4M3),
	  SV(2) | SV(4), 0, 1 },
};
const int tcp_nmma_rules = (int)(sizeof(tcp_mma_rules) / sizeof(tcp_mma_rules[0]));

const tcp_mma_rule_t *tcp_mma_rule(tcp_kind_t kind, int cta_group)
{
	for (int i = 0; i < tcp_nmma_rules; i++)
		if (tcp_mma_rules[i].kind == kind && tcp_mma_rules[i].cta_group == cta_group)
			return &tcp_mma_rules[i];
	return NULL;
}

unsigned tcp_mma_default_scale_vec(const tcp_mma_cfg_t *c)
{
	switch (c->kind) {
	case TCP_KIND_MXF8F6F4: return 1;
	case TCP_KIND_MXF4: return 2;
	case TCP_KIND_MXF4NVF4: return c->sf == TCP_T_UE4M3 ? 4 : 2;
	default: return 0;
	}
}

unsigned tcp_mma_scale_block(const tcp_mma_cfg_t *c)
{
	unsigned v = c->scale_vec ? c->scale_vec : tcp_mma_default_scale_vec(c);

	return v == 4 ? 16 : v ? 32 : 0;
}

int tcp_mma_k96(const tcp_mma_cfg_t *c)
{
	return c->kind == TCP_KIND_MXF4NVF4 && c->k == 96 && !c->sparse;
}

unsigned tcp_mma_k(const tcp_mma_cfg_t *c)
{
	if (tcp_mma_k96(c))
		return 96;
	return (unsigned)tcp_kind_k(c->kind) * (c->sparse ? 2 : 1);
}

/* Write the reason, return 0 (illegal). */
static int why(char *reason, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (reason && len) {
		va_start(ap, fmt);
		vsnprintf(reason, len, fmt, ap);
		va_end(ap);
	}
	return 0;
}

static int fp6_or_fp4(tcp_type_t t)
{
	return t == TCP_T_E2M3 || t == TCP_T_E3M2 || t == TCP_T_E2M1;
}

/*
 *  tcp_mma_legal()
 *	Checks in the order a reader would: cta_group, .ws, M, N, K, types,
 *	majors, negate/saturate, scale vectors.  The first failing rule wins.
 */
int tcp_mma_legal(const tcp_mma_cfg_t *c, char *reason, size_t len)
{
	const char *kn = tcp_kind_name(c->kind);
	const tcp_mma_rule_t *r;
	unsigned k, sv;
	int mok = 0;

	if ((unsigned)c->kind >= TCP_KIND_COUNT)
		return why(reason, len, "unknown kind %d", (int)c->kind);
	if (c->cta_group != 1 && c->cta_group != 2)
		return why(reason, len, "cta_group must be 1 or 2; got %d", c->cta_group);
	r = tcp_mma_rule(c->kind, c->cta_group);
	if (c->ws) {
		if (c->cta_group != 1)
			return why(reason, len, "tcgen05.mma.ws exists only with cta_group::1");
		if (tcp_kind_block_scaled(c->kind))
			return why(reason, len, "tcgen05.mma.ws has no kind::%s (f16, tf32, f8f6f4, i8 only)", kn);
		if (c->m != 32 && c->m != 64 && c->m != 128)
			return why(reason, len, "kind::%s .ws needs M in {32, 64, 128}; got %u", kn, c->m);
		if (c->n != 64 && c->n != 128 && c->n != 256)
			return why(reason, len, "kind::%s .ws needs N in {64, 128, 256}; got %u", kn, c->n);
	} else {
		for (int i = 0; i < 3 && r->m[i]; i++)
			mok |= r->m[i] == c->m;
		if (!mok) {
			if (r->m[1])
				return why(reason, len, "kind::%s with cta_group::%d needs M in {%u, %u}; got %u",
					   kn, c->cta_group, r->m[0], r->m[1], c->m);
			return why(reason, len, "kind::%s with cta_group::%d needs M = %u; got %u",
				   kn, c->cta_group, r->m[0], c->m);
		}
		if (c->n < r->n_min || c->n > r->n_max)
			return why(reason, len, "kind::%s with cta_group::%d needs N in [%u, %u]; got %u",
				   kn, c->cta_group, r->n_min, r->n_max, c->n);
		if (c->kind == TCP_KIND_I8 && c->cta_group == 1) {
			/* 8, 16, 24, 32, then step 16 */
			int ok = c->n % 16 == 0 || c->n == 8 || (c->n == 24 && TCP_LEGAL_I8_N24);

			if (!ok)
				return why(reason, len, "kind::i8 with cta_group::1 needs N in {8, 16, 24, 32} or a multiple of 16; got %u",
					   c->n);
		} else if (c->n % r->n_step) {
			return why(reason, len, "kind::%s with cta_group::%d needs N a multiple of %u; got %u",
				   kn, c->cta_group, r->n_step, c->n);
		}
	}
	k = tcp_mma_k(c);
	if (c->k == 96 && !c->sparse && c->kind == TCP_KIND_MXF4)
		return why(reason, len, "kind::mxf4 has no K = 96 form: MXF4 at K = 96 is kind::mxf4nvf4 with "
			   "ue8m0 scales and scale_vec::2X (CUTLASS SM103 atoms)");
	if (c->k == 96 && c->kind == TCP_KIND_MXF4NVF4) {
		/* sm_103a "ultra" K (idesc bit 31), CUTLASS SM103_MXF4_ULTRA_{SS,2x1SM_SS}_VS:
		 * dense, A and B from shared memory, N a multiple of 16; which target has it
		 * is model/arch.c's (tcp_mma_legal_on). */
		if (c->sparse)
			return why(reason, len, "kind::mxf4nvf4 K = 96 has no sparse form");
		if (c->a_tmem)
			return why(reason, len, "kind::mxf4nvf4 K = 96 takes A from shared memory only (CUTLASS has SS atoms only)");
		if (c->n < 16 || c->n % 16)
			return why(reason, len, "kind::mxf4nvf4 K = 96 needs N a multiple of 16 in [16, 256]; got %u", c->n);
	} else if (c->k && c->k != k) {
		return why(reason, len, "kind::%s%s has K = %u; got %u", kn, c->sparse ? " (sparse)" : "", k, c->k);
	}
	if (!(r->ab_types & (1u << c->a)) || (unsigned)c->a >= TCP_T_COUNT)
		return why(reason, len, "kind::%s does not take A of type %s", kn, tcp_type_name(c->a));
	if (!(r->ab_types & (1u << c->b)) || (unsigned)c->b >= TCP_T_COUNT)
		return why(reason, len, "kind::%s does not take B of type %s", kn, tcp_type_name(c->b));
	if ((c->kind == TCP_KIND_F16) && c->a != c->b)
		return why(reason, len, "kind::f16 needs A and B of the same type; got %s and %s",
			   tcp_type_name(c->a), tcp_type_name(c->b));
	if (!(r->d_types & (1u << c->d)) || (unsigned)c->d >= TCP_T_COUNT)
		return why(reason, len, "kind::%s cannot accumulate into %s", kn, tcp_type_name(c->d));
	/* PTX kind::f16: an f16 accumulator only for f16 inputs (facts s.3) */
	if (c->kind == TCP_KIND_F16 && c->d == TCP_T_F16 && c->a == TCP_T_BF16)
		return why(reason, len, "kind::f16 with bf16 inputs needs an f32 accumulator; got f16");
	if (c->a_major > 1 || c->b_major > 1)
		return why(reason, len, "major must be 0 (K) or 1 (MN)");
	if (c->a_tmem && c->a_major)
		return why(reason, len, "A in TMEM has no MN-major form");
	if ((c->a_major || c->b_major) && !r->mn_major)
		return why(reason, len, "kind::%s needs K-major A and B", kn);
	if (c->a_major && fp6_or_fp4(c->a))
		return why(reason, len, "MN-major A of type %s is not supported (fp6/fp4 must be K-major)",
			   tcp_type_name(c->a));
	if (c->b_major && fp6_or_fp4(c->b))
		return why(reason, len, "MN-major B of type %s is not supported (fp6/fp4 must be K-major)",
			   tcp_type_name(c->b));
	if ((c->neg_a || c->neg_b) && !r->negate)
		return why(reason, len, "kind::%s has no negate", kn);
	if (c->neg_a > 1 || c->neg_b > 1)
		return why(reason, len, "negate must be 0 or 1");
	if (c->scale_d && c->kind != TCP_KIND_F16 && c->kind != TCP_KIND_TF32)
		return why(reason, len, "scale-input-d exists only for kind::f16 and kind::tf32; got kind::%s", kn);
	if (c->saturate && c->kind != TCP_KIND_I8)
		return why(reason, len, "saturate exists only for kind::i8; got kind::%s", kn);
	if (!tcp_kind_block_scaled(c->kind)) {
		if (c->scale_vec)
			return why(reason, len, "kind::%s has no scale_vec (block-scaled kinds only)", kn);
		return 1;
	}
	if (!(r->sf_types & (1u << c->sf)) || (unsigned)c->sf >= TCP_T_COUNT)
		return why(reason, len, "kind::%s does not take scale factors of type %s", kn,
			   tcp_type_name(c->sf));
	sv = c->scale_vec ? c->scale_vec : tcp_mma_default_scale_vec(c);
	if (sv > 4 || !(r->scale_vecs & (1u << sv)))
		return why(reason, len, "kind::%s does not take scale_vec::%uX", kn, sv);
	/* [?] PTX: ue4m3 scales only with scale_vec::4X (block 16, NVFP4). */
	if (c->sf == TCP_T_UE4M3 && sv != 4)
		return why(reason, len, "kind::%s with ue4m3 scales needs scale_vec::4X; got %uX", kn, sv);
	return 1;
}

void tcp_mma_to_idesc(const tcp_mma_cfg_t *c, tcp_idesc_t *d)
{
	*d = (tcp_idesc_t){ 0 };
	d->kind = c->kind;
	d->a = c->a;
	d->b = c->b;
	d->d = c->d;
	d->m = c->m;
	d->n = c->n;
	d->a_major = c->a_major;
	d->b_major = c->b_major;
	d->neg_a = c->neg_a;
	d->neg_b = c->neg_b;
	d->sparse = c->sparse;
	d->saturate = c->saturate;
	d->sf = tcp_kind_block_scaled(c->kind) ? c->sf : TCP_T_UE8M0;
	d->k96 = (unsigned)tcp_mma_k96(c);
}

void tcp_mma_cfg_default(tcp_kind_t kind, tcp_mma_cfg_t *c)
{
	*c = (tcp_mma_cfg_t){ 0 };
	c->kind = kind;
	c->cta_group = 1;
	c->m = 128;
	c->n = 128;
	c->sf = TCP_T_UE8M0;
	c->d = TCP_T_F32;
	switch (kind) {
	case TCP_KIND_F16: c->a = c->b = TCP_T_BF16; break;
	case TCP_KIND_TF32: c->a = c->b = TCP_T_TF32; break;
	case TCP_KIND_I8: c->a = c->b = TCP_T_S8; c->d = TCP_T_S32; break;
	case TCP_KIND_MXF4: case TCP_KIND_MXF4NVF4: c->a = c->b = TCP_T_E2M1; break;
	default: c->a = c->b = TCP_T_E4M3; break;
	}
}
