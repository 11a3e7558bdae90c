/*
 * test-emu-decode.c
 *	probes/emu/emu-decode.h, the emulation's descriptor decoders: fields
 *	round-trip from random bit patterns, illegal fields are refused, and
 *	the decoders agree with model/'s encoders (model/idesc.h,
 *	model/sdesc.h, model/smem-layout.h), the other side of the comparison:
 *	every legal instruction descriptor the model encodes decodes to the
 *	same fields, and for every tile configuration the model builds, every
 *	element's chunk address from the decoded descriptor plus its place in
 *	the chunk equals the model's tcp_tile_place().  Where the two sides'
 *	legality differs, the differences are listed with their sources.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "model/legal.h"
#include "model/sdesc.h"
#include "model/smem-layout.h"
#include "probes/emu/emu-decode.h"
#include "emu-model-map.h"

static uint64_t rng_state;

static uint64_t rnd64(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static unsigned rnd(unsigned n)
{
	return (unsigned)(rnd64() % n);
}

static int setup_seed(void **state)
{
	(void)state;
	rng_state = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
	printf("# seed %llu\n", (unsigned long long)rng_state);
	return 0;
}

static const unsigned layouts[] = { 0, 1, 2, 4, 6 };

/* A legal descriptor with random fields, packed by the PTX table's bit positions. */
static uint64_t rand_sdesc(unsigned *start, unsigned *lbo, unsigned *sbo, unsigned *bo, unsigned *abs_, unsigned *lay)
{
	*start = rnd(1u << 14);
	*lbo = rnd(1u << 14);
	*sbo = rnd(1u << 14);
	*lay = layouts[rnd(5)];
	*abs_ = *lay == 2 && rnd(2);
	*bo = *abs_ ? 0 : rnd(8);
	return (uint64_t)*start | (uint64_t)*lbo << 16 | (uint64_t)*sbo << 32 | 1ull << 46 |
	       (uint64_t)*bo << 49 | (uint64_t)*abs_ << 52 | (uint64_t)*lay << 61;
}

/* Fields of random legal descriptors come back, and model/sdesc.h reads the same. */
static void test_sdesc_roundtrip(void **state)
{
	(void)state;
	for (int it = 0; it < 200000; it++) {
		unsigned start, lbo, sbo, bo, ab, lay;
		uint64_t v = rand_sdesc(&start, &lbo, &sbo, &bo, &ab, &lay);
		tcp_emu_sdesc_t d;
		tcp_sdesc_t m;

		assert_int_equal(tcp_emu_sdesc_decode(v, &d), TCP_EMU_OK);
		assert_int_equal(d.start, start << 4);
		assert_int_equal(d.lbo, lbo << 4);
		assert_int_equal(d.sbo, sbo << 4);
		assert_int_equal(d.fixed, 1);
		assert_int_equal(d.base_off, bo);
		assert_int_equal(d.lbo_abs, ab);
		assert_int_equal(d.layout, lay);
		assert_int_equal(d.swz, lay == 0 ? 0 : lay == 6 ? 32 : lay == 4 ? 64 : 128);
		assert_int_equal(d.swz_atom32, lay == 1);
		assert_int_equal(tcp_sdesc_decode(v, &m), 0);
		assert_int_equal(m.start, d.start);
		assert_int_equal(m.lbo, d.lbo);
		assert_int_equal(m.sbo, d.sbo);
		assert_int_equal(m.base_offset, d.base_off);
		assert_int_equal(m.lbo_mode, d.lbo_abs);
		assert_int_equal((unsigned)m.layout, d.layout);
	}
}

/* Every illegal field is refused: fixed bits, reserved bits, layout codes, absolute LBO misuse. */
static void test_sdesc_illegal(void **state)
{
	(void)state;
	for (int it = 0; it < 50000; it++) {
		unsigned start, lbo, sbo, bo, ab, lay;
		uint64_t v = rand_sdesc(&start, &lbo, &sbo, &bo, &ab, &lay), w = v;
		tcp_emu_sdesc_t d;

		switch (rnd(5)) {
		case 0: {	/* fixed 0b001 changed */
			unsigned f = 1 + rnd(7);

			w = (v & ~(7ull << 46)) | (uint64_t)(f == 1 ? 0 : f) << 46;
			break;
		}
		case 1: {	/* one reserved bit */
			static const unsigned rb[] = { 14, 15, 30, 31, 53, 54, 55, 56, 57, 58, 59, 60 };

			w = v | 1ull << rb[rnd(12)];
			break;
		}
		case 2: {	/* layout 3, 5, 7 */
			static const unsigned bad[] = { 3, 5, 7 };

			w = (v & ~(7ull << 61)) | (uint64_t)bad[rnd(3)] << 61;
			break;
		}
		case 3: {	/* absolute LBO with a layout other than 128B */
			static const unsigned other[] = { 0, 1, 4, 6 };

			w = (v & ~(7ull << 61 | 7ull << 49)) | 1ull << 52 | (uint64_t)other[rnd(4)] << 61;
			break;
		}
		default:	/* absolute LBO with a base offset */
			w = (v & ~(7ull << 61 | 7ull << 49)) | 1ull << 52 | 2ull << 61 | (uint64_t)(1 + rnd(7)) << 49;
			break;
		}
		assert_int_equal(tcp_emu_sdesc_decode(w, &d), TCP_EMU_BAD_SDESC);
	}
}

/*
 * The swizzle with a base offset: a pattern that starts b rows past its
 * boundary (base offset b) swizzles its rows as an aligned pattern does
 * (the PTX base-offset formula, tcp_emu_sdesc_swizzle's reading of it).
 */
static void test_swizzle_base_offset(void **state)
{
	(void)state;
	for (int it = 0; it < 20000; it++) {
		unsigned lay = layouts[1 + rnd(4)], b = rnd(8);
		uint32_t p = rnd(64) * 1024, r = rnd(8) * 128 + rnd(8) * 16, q = p + b * 128;
		tcp_emu_sdesc_t d0, db;
		uint64_t v0 = 1ull << 46 | (uint64_t)lay << 61, vb = v0 | (uint64_t)b << 49;

		assert_int_equal(tcp_emu_sdesc_decode(v0, &d0), 0);
		assert_int_equal(tcp_emu_sdesc_decode(vb, &db), 0);
		assert_int_equal(tcp_emu_sdesc_swizzle(&db, q + r) - q, tcp_emu_sdesc_swizzle(&d0, p + r) - p);
	}
}

/* ---- instruction descriptor ---- */


static const tcp_type_t ab_types[] = {
	TCP_T_F16, TCP_T_BF16, TCP_T_TF32, TCP_T_E4M3, TCP_T_E5M2, TCP_T_E2M3, TCP_T_E3M2,
	TCP_T_E2M1, TCP_T_S8, TCP_T_U8,
};
#define NAB (sizeof(ab_types) / sizeof(ab_types[0]))
static const tcp_type_t acc_types[] = { TCP_T_F32, TCP_T_F16, TCP_T_S32 };

/*
 * Every configuration model/legal.c calls legal (non-.ws), encoded by
 * model/idesc.h with random scale-factor ids and sparsity selectors,
 * decodes to the same fields, except block-scaled sparse cta_group::2 at
 * M = 128, which the PTX kind-shapes table does not list (counted).
 */
static void test_idesc_model_legal_space(void **state)
{
	long n = 0, bs_sparse_m128 = 0;

	(void)state;
	for (int kind = 0; kind < TCP_KIND_COUNT; kind++)
	for (int cg = 1; cg <= 2; cg++)
	for (unsigned m = 64; m <= 256; m *= 2)
	for (unsigned nn = 8; nn <= 256; nn += 8)
	for (size_t ia = 0; ia < NAB; ia++)
	for (size_t ib = 0; ib < NAB; ib++)
	for (size_t id = 0; id < 3; id++)
	for (unsigned bits = 0; bits < 128; bits++) {
		int bs = tcp_kind_block_scaled((tcp_kind_t)kind);
		tcp_mma_cfg_t c;
		tcp_idesc_t d;
		tcp_emu_idesc_t f;
		uint32_t v = 0;
		const char *why;

		if (bs && id)
			continue;
		tcp_mma_cfg_default((tcp_kind_t)kind, &c);
		c.cta_group = cg;
		c.m = m;
		c.n = nn;
		c.a = ab_types[ia];
		c.b = ab_types[ib];
		c.d = bs ? TCP_T_F32 : acc_types[id];
		c.a_major = bits & 1;
		c.b_major = (bits >> 1) & 1;
		c.neg_a = (bits >> 2) & 1;
		c.neg_b = (bits >> 3) & 1;
		c.sparse = (bits >> 4) & 1;
		c.saturate = (bits >> 5) & 1;
		if (kind == TCP_KIND_MXF4NVF4 && c.saturate) {
			c.saturate = 0;
			c.sf = TCP_T_UE4M3;
			c.scale_vec = 4;
		}
		if ((bits >> 6) & 1) {
			if (kind != TCP_KIND_MXF4NVF4 || c.sparse)
				continue;
			c.k = 96;
		}
		if (!tcp_mma_legal(&c, NULL, 0))
			continue;
		tcp_mma_to_idesc(&c, &d);
		/* bits 0-1 are the dense kinds' sparsity selector; reserved for the block-scaled kinds */
		d.sparse_sel = c.sparse && !bs ? rnd(4) : 0;
		if (bs) {
			d.a_sf_id = kind == TCP_KIND_MXF8F6F4 ? rnd(4) : 2 * rnd(2);
			d.b_sf_id = kind == TCP_KIND_MXF8F6F4 ? rnd(4) : 2 * rnd(2);
		}
		assert_int_equal(tcp_idesc_encode(&d, &v), 0);
		why = tcp_emu_idesc_why((unsigned)kind, (unsigned)cg, v);
		if (why && !strcmp(why, "block-scaled sparse cta_group::2 needs M = 256")) {
			bs_sparse_m128++;	/* a finding: see test_idesc_legality_vs_model */
			continue;
		}
		if (why)
			fail_msg("model-legal idesc 0x%08x (kind %d cg %d M %u N %u) refused: %s", v, kind, cg, m,
				 nn, why);
		assert_int_equal(tcp_emu_idesc_decode((unsigned)kind, (unsigned)cg, v, &f), TCP_EMU_OK);
		assert_int_equal(f.kind, kind);
		assert_int_equal(f.cta_group, cg);
		assert_int_equal(f.a_fmt, emu_fmt(c.a));
		assert_int_equal(f.b_fmt, emu_fmt(c.b));
		assert_int_equal(f.d_fmt, emu_fmt(c.d));
		assert_int_equal(f.m, m);
		assert_int_equal(f.n, nn);
		assert_int_equal(f.k, tcp_mma_k(&c));
		assert_int_equal(f.a_mn_major, c.a_major);
		assert_int_equal(f.b_mn_major, c.b_major);
		assert_int_equal(f.neg_a, c.neg_a);
		assert_int_equal(f.neg_b, c.neg_b);
		assert_int_equal(f.sat, c.saturate);
		assert_int_equal(f.sparse, c.sparse);
		assert_int_equal(f.sparse_sel, d.sparse_sel);
		assert_int_equal(f.max_shift, 0);
		if (bs) {
			assert_int_equal(f.sf_fmt, emu_fmt(c.sf));
			assert_int_equal(f.sfa_id, d.a_sf_id);
			assert_int_equal(f.sfb_id, d.b_sf_id);
			assert_int_equal(f.k96, c.k == 96);
		}
		n++;
	}
	printf("# %ld model-legal instruction descriptors decoded; %ld block-scaled sparse cta_group::2 M = 128 "
	       "ones refused (PTX: M = 256 only)\n", n, bs_sparse_m128);
	assert_true(n > 5000);
}

/*
 * Legality, decoder against model (tcp_idesc_decode + tcp_mma_legal) over
 * random descriptors of plausible fields.  The differences allowed are the
 * ones the two sides document, each a finding with its source:
 *  - block-scaled bits 0-1: PTX "Instruction descriptor" tables mark them
 *    reserved; model/idesc.h decodes them as a sparsity selector (CUTLASS
 *    InstrDescriptorBlockScaled sparse_id2_);
 *  - a sparsity selector on a dense MMA: the decoder refuses it, the
 *    model takes it;
 *  - kind::mxf4 / mxf4nvf4 scale-factor ids 1 and 3: PTX allows "0 or 2",
 *    the model checks ids only for range;
 *  - kind::mxf4 with bit 31 (K = 96): the PTX table has the bit for both
 *    mxf4 and mxf4nvf4, model/legal.c refuses K = 96 for kind::mxf4;
 *  - block-scaled sparse cta_group::2 at M = 128: the PTX kind-shapes table
 *    lists M = 256 only, model/legal.c takes M = 128.
 * Anything else fails the test.
 */
static void test_idesc_legality_vs_model(void **state)
{
	static const char *const allowed[] = {
		"reserved bit 0-1, 3, 6 or 24-26 set",
		"sparsity selector (bits 0-1) set on a dense MMA",
		"kind::mxf4/mxf4nvf4 scale-factor ids must be 0 or 2",
		"block-scaled sparse cta_group::2 needs M = 256",
	};
	long agree = 0, differ[8] = { 0 }, mxf4_k96 = 0;

	(void)state;
	for (int it = 0; it < 3000000; it++) {
		unsigned kind = rnd(TCP_EMU_NKINDS), cg = 1 + rnd(2);
		int bs = tcp_emu_kind_block_scaled(kind);
		uint32_t v = 0;
		tcp_idesc_t d;
		tcp_mma_cfg_t c;
		const char *why;
		int model_ok;

		v |= rnd(4) == 0 ? rnd(4) : 0;		/* bits 0-1 */
		v |= rnd(2) << 2;			/* sparse */
		v |= (rnd(8) == 0) << 3;
		v |= (bs ? rnd(4) : rnd(4)) << 4;	/* D type / B sf id */
		v |= (rnd(16) == 0) << 6;
		v |= rnd(8) << 7 | rnd(8) << 10;
		v |= rnd(4) << 13 | rnd(4) << 15;
		v |= rnd(64) << 17;
		v |= rnd(2) << 23;
		v |= (bs ? (rnd(4) == 0 ? rnd(32) : rnd(4) << 3) : rnd(32)) << 24;	/* M */
		v |= (rnd(16) == 0) << 29;
		v |= (uint32_t)(bs ? rnd(8) : rnd(8) == 0 ? rnd(4) : 0) << 29;
		why = tcp_emu_idesc_why(kind, cg, v);
		model_ok = tcp_idesc_decode(v, (tcp_kind_t)kind, &d) == 0 && d.max_shift == 0;
		if (model_ok) {
			c = (tcp_mma_cfg_t){ 0 };
			c.kind = d.kind;
			c.cta_group = (int)cg;
			c.m = d.m;
			c.n = d.n;
			c.k = d.k96 ? 96 : 0;
			c.a = d.a;
			c.b = d.b;
			c.d = d.d;
			c.a_major = d.a_major;
			c.b_major = d.b_major;
			c.neg_a = d.neg_a;
			c.neg_b = d.neg_b;
			c.saturate = d.saturate;
			c.sparse = d.sparse;
			c.sf = bs ? d.sf : TCP_T_UE8M0;
			c.scale_vec = bs && d.sf == TCP_T_UE4M3 ? 4 : 0;
			model_ok = tcp_mma_legal(&c, NULL, 0);
		}
		if ((why == NULL) == model_ok) {
			agree++;
			continue;
		}
		if (!why && kind == TCP_EMU_KIND_MXF4 && (v >> 31)) {
			mxf4_k96++;
			continue;
		}
		if (why) {
			size_t i;

			for (i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
				if (!strcmp(why, allowed[i]))
					break;
			if (i < sizeof(allowed) / sizeof(allowed[0])) {
				differ[i]++;
				continue;
			}
		}
		fail_msg("idesc 0x%08x kind %u cg %u: decoder %s, model %s%s", v, kind, cg,
			 why ? "refuses" : "accepts", model_ok ? "accepts" : "refuses", why ? why : "");
	}
	printf("# legality: %ld agree; differences: block-scaled bits 0-1 %ld, dense selector %ld, "
	       "mxf4 sf id %ld, bs sparse cg2 M128 %ld, mxf4 K96 %ld\n",
	       agree, differ[0], differ[1], differ[2], differ[3], mxf4_k96);
	assert_true(agree > 1000000);
}

/* Each refusal rule fires on a descriptor that breaks only it. */
static void test_idesc_refusals(void **state)
{
	/* kind::f16, bf16 x bf16 -> f32, M 128, N 128, cta_group::1 */
	const uint32_t good = 1u << 4 | 1u << 7 | 1u << 10 | 16u << 17 | 8u << 24;
	/* kind::mxf4nvf4, e2m1, ue8m0, M 128, N 128 */
	const uint32_t bsgood = 1u << 7 | 1u << 10 | 16u << 17 | 1u << 23 | 1u << 27;
	tcp_emu_idesc_t f;

	(void)state;
	assert_int_equal(tcp_emu_idesc_decode(TCP_EMU_KIND_F16, 1, good, &f), 0);
	assert_int_equal(f.a_fmt, TCP_EMU_FMT_BF16);
	assert_int_equal(f.m, 128);
	assert_int_equal(f.n, 128);
	assert_int_equal(f.k, 16);
	assert_int_equal(tcp_emu_idesc_decode(TCP_EMU_KIND_MXF4NVF4, 1, bsgood, &f), 0);
	assert_int_equal(f.k, 64);
	assert_int_equal(f.sf_fmt, TCP_EMU_FMT_UE8M0);
	assert_int_equal(tcp_emu_idesc_decode(TCP_EMU_KIND_MXF4NVF4, 1, bsgood | 1u << 31, &f), 0);
	assert_int_equal(f.k, 96);
	assert_int_equal(f.k96, 1);
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_F16, 1, good | 1u << 6));
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_F16, 1, good | 1u << 23));
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_F16, 1, good | 1u << 29));
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_F16, 1, good | 1u << 3));	/* saturate */
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_F16, 1, good | 1u << 30));	/* max shift */
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_F16, 1, good | 1u));		/* selector, dense */
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_F16, 1, (good & ~(7u << 10))));	/* f16 x bf16 */
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_F16, 1, good & ~(3u << 4)));	/* bf16 -> f16 */
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_F16, 1, good | 3u << 4));	/* D code 3 */
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_F16, 1, (good & ~(31u << 24)) | 2u << 24));	/* M 32 */
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_F16, 2, (good & ~(31u << 24)) | 4u << 24));	/* cg2 M 64 */
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_F16, 2, (good & ~(63u << 17)) | 3u << 17));	/* cg2 N 24 */
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_F16, 1, good & ~(63u << 17)));	/* N 0 */
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_TF32, 1, good));	/* bf16 code under tf32 */
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_I8, 1, (good & ~(3u << 4)) | 2u << 4 | 1u << 13));
	assert_null(tcp_emu_idesc_why(TCP_EMU_KIND_I8, 1, (good & ~(3u << 4)) | 2u << 4));
	assert_null(tcp_emu_idesc_why(TCP_EMU_KIND_I8, 1, (good & ~(3u << 4 | 63u << 17)) | 2u << 4 | 3u << 17));
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_I8, 1, (good & ~(3u << 4 | 63u << 17)) | 2u << 4 | 5u << 17));
	/* f8f6f4: e2m1 MN-major refused, e4m3 MN-major taken */
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_F8F6F4, 1, (good & ~(63u << 7)) | 5u << 7 | 1u << 15));
	assert_null(tcp_emu_idesc_why(TCP_EMU_KIND_F8F6F4, 1, (good & ~(63u << 7)) | 1u << 15));
	/* block-scaled */
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_MXF4NVF4, 1, bsgood | 1u << 15));	/* transpose */
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_MXF4NVF4, 1, bsgood | 1u << 29));	/* sf id 1 */
	assert_null(tcp_emu_idesc_why(TCP_EMU_KIND_MXF4NVF4, 1, bsgood | 2u << 29 | 2u << 4));
	assert_null(tcp_emu_idesc_why(TCP_EMU_KIND_MXF4NVF4, 1, bsgood & ~(1u << 23)));	/* ue4m3 */
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_MXF4, 1, bsgood & ~(1u << 23)));
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_MXF4NVF4, 1, bsgood | 1u << 12));
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_MXF4NVF4, 1, bsgood | 1u << 24));	/* CUTLASS M=64 */
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_MXF4NVF4, 1, bsgood | 1u << 31 | 1u << 2));
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_MXF4NVF4, 1, (bsgood & ~(63u << 17)) | 3u << 17 | 1u << 31));
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_MXF4NVF4, 1, (bsgood & ~(3u << 27)) | 2u << 27));
	assert_null(tcp_emu_idesc_why(TCP_EMU_KIND_MXF4NVF4, 2, (bsgood & ~(3u << 27)) | 2u << 27));
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_MXF8F6F4, 1, (bsgood & ~(63u << 7)) | 1u << 31));
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_KIND_F16, 3, good));
	assert_non_null(tcp_emu_idesc_why(TCP_EMU_NKINDS, 1, good));
}

/* ---- tiles: decoder against model/smem-layout.h ---- */

struct tile_count {
	long tiles, elems;
};

/* Every element of every MMA's slice of tile t at base: chunk address + in-chunk bits = model's place. */
static void check_tile(const tcp_tile_t *t, uint32_t base, struct tile_count *n)
{
	unsigned te = tcp_tile_t_elems(t), mk = tcp_tile_mma_k(t);

	for (unsigned ks = 0; ks < t->k / mk; ks++) {
		tcp_sdesc_t s;
		tcp_emu_sdesc_t d;
		uint64_t v = 0;

		tcp_tile_desc(t, base, ks, &s);
		assert_int_equal(tcp_sdesc_encode(&s, &v), 0);
		assert_int_equal(tcp_emu_sdesc_decode(v, &d), TCP_EMU_OK);
		for (unsigned r = 0; r < t->rows; r++)
			for (unsigned kr = 0; kr < mk; kr++) {
				unsigned kk = ks * mk + kr, i, j, e;
				uint32_t a, got, want = tcp_tile_place(t, r, kk);

				if (t->major == TCP_MAJOR_K) {
					i = r;
					j = kr / te;
					e = kr % te;
				} else {
					i = kr;
					j = r / te;
					e = r % te;
				}
				a = tcp_emu_sdesc_chunk(&d, t->major == TCP_MAJOR_MN, i, j);
				got = (a - base) * 8 + e * t->bits;
				if (got != want)
					fail_msg("tile layout %u major %u bits %u%s rows %u k %u mma_k %u base 0x%x kstep %u: "
						 "element (%u, %u) decoder bit %u, model bit %u",
						 (unsigned)t->layout, t->major, t->bits, t->padded ? " padded" : "",
						 t->rows, t->k, mk, base, ks, r, kk, got, want);
				n->elems++;
			}
	}
	n->tiles++;
}

/*
 * Every tile configuration model/smem-layout.h builds: every layout code,
 * major, element width (4 packed and padded, 6 padded, 8, 16, 32), row
 * counts up to 256, several MMAs along K (crossing swizzle atoms), K = 96
 * with no swizzle (relative LBO) and 128B swizzle (absolute LBO), at
 * random aligned bases.
 */
static void test_tiles_vs_model(void **state)
{
	static const unsigned widths[][2] = { { 4, 0 }, { 4, 1 }, { 6, 1 }, { 8, 0 }, { 16, 0 }, { 32, 0 } };
	static const unsigned rowsv[] = { 8, 16, 32, 64, 128, 256 };
	struct tile_count n = { 0, 0 };
	long k96 = 0;

	(void)state;
	for (size_t li = 0; li < 5; li++)
	for (unsigned major = 0; major < 2; major++)
	for (size_t wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++)
	for (size_t ri = 0; ri < sizeof(rowsv) / sizeof(rowsv[0]); ri++)
	for (unsigned mma_k = 0; mma_k <= TCP_MMA_K96; mma_k += TCP_MMA_K96)
	for (unsigned nk = 1; nk <= 8; nk *= 2) {
		tcp_tile_t t = { (tcp_swizzle_t)layouts[li], major, widths[wi][0], widths[wi][1], rowsv[ri], 0, mma_k };
		uint32_t align, base;

		t.k = nk * tcp_tile_mma_k(&t);
		if (tcp_tile_check(&t))
			continue;
		align = tcp_tile_align(&t);
		base = (rnd(64 * 1024) / align) * align;
		if (base + tcp_tile_bytes(&t) > 0x3FFF0)
			base = 0;
		check_tile(&t, base, &n);
		k96 += mma_k != 0;
	}
	printf("# %ld tiles (%ld with K = 96), %ld elements: decoder = model\n", n.tiles, k96, n.elems);
	assert_true(n.tiles > 200);
	assert_true(k96 >= 8);
}

static void test_taddr(void **state)
{
	(void)state;
	for (int it = 0; it < 10000; it++) {
		unsigned lane = rnd(128), col = rnd(512);
		uint32_t a = tcp_emu_taddr(lane, col);

		assert_int_equal(a, (uint32_t)lane << 16 | col);
		assert_int_equal(tcp_emu_taddr_lane(a), lane);
		assert_int_equal(tcp_emu_taddr_col(a), col);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sdesc_roundtrip),
		cmocka_unit_test(test_sdesc_illegal),
		cmocka_unit_test(test_swizzle_base_offset),
		cmocka_unit_test(test_idesc_model_legal_space),
		cmocka_unit_test(test_idesc_legality_vs_model),
		cmocka_unit_test(test_idesc_refusals),
		cmocka_unit_test(test_tiles_vs_model),
		cmocka_unit_test(test_taddr),
	};

	return cmocka_run_group_tests(tests, setup_seed, NULL);
}
