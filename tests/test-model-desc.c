/*
 * test-model-desc.c
 *	model/idesc.h and model/sdesc.h: round trips over the whole legal space
 *	and hand-derived descriptor values from the PTX ISA tables.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "model/legal.h"
#include "model/sdesc.h"

static const tcp_type_t all_types[] = {
	TCP_T_F16, TCP_T_BF16, TCP_T_TF32, TCP_T_E4M3, TCP_T_E5M2, TCP_T_E2M3, TCP_T_E3M2,
	TCP_T_E2M1, TCP_T_S8, TCP_T_U8,
};
static const tcp_type_t acc_types[] = { TCP_T_F32, TCP_T_F16, TCP_T_S32 };

static void assert_same_idesc(const tcp_idesc_t *x, const tcp_idesc_t *y)
{
	assert_int_equal(x->kind, y->kind);
	assert_int_equal(x->a, y->a);
	assert_int_equal(x->b, y->b);
	assert_int_equal(x->m, y->m);
	assert_int_equal(x->n, y->n);
	assert_int_equal(x->a_major, y->a_major);
	assert_int_equal(x->b_major, y->b_major);
	assert_int_equal(x->neg_a, y->neg_a);
	assert_int_equal(x->neg_b, y->neg_b);
	assert_int_equal(x->sparse, y->sparse);
	assert_int_equal(x->sparse_sel, y->sparse_sel);
	if (tcp_kind_block_scaled(x->kind)) {
		assert_int_equal(x->sf, y->sf);
		assert_int_equal(x->a_sf_id, y->a_sf_id);
		assert_int_equal(x->b_sf_id, y->b_sf_id);
		assert_int_equal(x->k96, y->k96);
	} else {
		assert_int_equal(x->d, y->d);
		assert_int_equal(x->saturate, y->saturate);
		assert_int_equal(x->max_shift, y->max_shift);
	}
}

/* Every legal (kind, cta_group, M, N, A, B, D, majors, negate, sparse, sat, sf) round-trips. */
static void test_idesc_roundtrip_legal_space(void **state)
{
	long n_legal = 0;

	(void)state;
	for (int kind = 0; kind < TCP_KIND_COUNT; kind++)
	for (int cg = 1; cg <= 2; cg++)
	for (unsigned m = 64; m <= 256; m *= 2)
	for (unsigned n = 8; n <= 256; n += 8)
	for (size_t ia = 0; ia < sizeof(all_types) / sizeof(all_types[0]); ia++)
	for (size_t ib = 0; ib < sizeof(all_types) / sizeof(all_types[0]); ib++)
	for (size_t id = 0; id < 3; id++)
	for (unsigned bits = 0; bits < 64; bits++) {
		tcp_mma_cfg_t c;
		tcp_idesc_t d, e;
		uint32_t v = 0;

		tcp_mma_cfg_default((tcp_kind_t)kind, &c);
		c.cta_group = cg;
		c.m = m;
		c.n = n;
		c.a = all_types[ia];
		c.b = all_types[ib];
		c.d = tcp_kind_block_scaled((tcp_kind_t)kind) ? TCP_T_F32 : acc_types[id];
		if (tcp_kind_block_scaled((tcp_kind_t)kind) && id)
			continue;
		c.a_major = bits & 1;
		c.b_major = (bits >> 1) & 1;
		c.neg_a = (bits >> 2) & 1;
		c.neg_b = (bits >> 3) & 1;
		c.sparse = (bits >> 4) & 1;
		c.saturate = (bits >> 5) & 1;
		if (kind == TCP_KIND_MXF4NVF4 && c.saturate) {
			/* reuse the bit: ue4m3 scales */
			c.saturate = 0;
			c.sf = TCP_T_UE4M3;
			c.scale_vec = 4;
		}
		if (!tcp_mma_legal(&c, NULL, 0))
			continue;
		n_legal++;
		tcp_mma_to_idesc(&c, &d);
		d.sparse_sel = c.sparse ? (n / 8) % 4 : 0;
		if (tcp_kind_block_scaled(c.kind)) {
			d.a_sf_id = (n / 8) % 4;
			d.b_sf_id = (n / 16) % 4;
		}
		assert_int_equal(tcp_idesc_encode(&d, &v), 0);
		assert_int_equal(tcp_idesc_decode(v, c.kind, &e), 0);
		assert_same_idesc(&d, &e);
	}
	/* the space is not empty and spans every kind: at least a few thousand points */
	assert_true(n_legal > 5000);
}

/* .ws max shift round-trips for every value, and bits 23/29/6 are rejected as reserved. */
static void test_idesc_ws_and_reserved(void **state)
{
	tcp_mma_cfg_t c;
	tcp_idesc_t d, e;
	uint32_t v = 0;

	(void)state;
	tcp_mma_cfg_default(TCP_KIND_F16, &c);
	c.ws = 1;
	c.m = 32;
	c.n = 64;
	assert_true(tcp_mma_legal(&c, NULL, 0));
	tcp_mma_to_idesc(&c, &d);
	for (unsigned s = 0; s < 4; s++) {
		d.max_shift = s;
		assert_int_equal(tcp_idesc_encode(&d, &v), 0);
		assert_int_equal(v >> 30, s);
		assert_int_equal(tcp_idesc_decode(v, TCP_KIND_F16, &e), 0);
		assert_same_idesc(&d, &e);
	}
	assert_int_equal(tcp_idesc_decode(v | 1u << 23, TCP_KIND_F16, &e), -1);
	assert_int_equal(tcp_idesc_decode(v | 1u << 29, TCP_KIND_F16, &e), -1);
	assert_int_equal(tcp_idesc_decode(v | 1u << 6, TCP_KIND_F16, &e), -1);
	/* D code 3 is undefined */
	assert_int_equal(tcp_idesc_decode(v | 3u << 4, TCP_KIND_F16, &e), -1);
	/* A type code 2 (tf32) is not a kind::f16 type */
	assert_int_equal(tcp_idesc_decode((v & ~(7u << 7)) | 2u << 7, TCP_KIND_F16, &e), -1);
	/* block-scaled: bits 24-26 below the M>>7 field are reserved */
	assert_int_equal(tcp_idesc_decode(0x08A00480u | 1u << 24, TCP_KIND_MXF4, &e), -1);
	assert_int_equal(tcp_idesc_decode(0x08A00480u, TCP_KIND_MXF4, &e), 0);
	/* encode refuses what it cannot represent */
	d.n = 12;
	assert_int_equal(tcp_idesc_encode(&d, &v), -1);
	d.n = 64;
	d.m = 40;
	assert_int_equal(tcp_idesc_encode(&d, &v), -1);
}

struct hand {
	tcp_kind_t kind;
	tcp_type_t a, b, d, sf;
	unsigned m, n, a_major, b_major, neg_a, neg_b, sat, a_sf_id, b_sf_id;
	uint32_t want;
};

/*
 * Hand-derived values.  Field positions from the PTX instruction-descriptor
 * tables (tcgen05-facts.md s.1); each line's sum is spelled out.
 */
static const struct hand hands[] = {
	/* f16, bf16 x bf16 -> f32, M128 N256: A bf16=1<<7 0x80, B 1<<10 0x400, D f32=1<<4 0x10,
	 * N 256>>3=32<<17 0x400000, M 128>>4=8<<24 0x08000000 -> 0x08400490 */
	{ TCP_KIND_F16, TCP_T_BF16, TCP_T_BF16, TCP_T_F32, 0, 128, 256, 0, 0, 0, 0, 0, 0, 0, 0x08400490 },
	/* f16, f16 x f16 -> f16, M64 N8, A MN-major, negate B: A 0, B 0, D 0, neg B 1<<14 0x4000,
	 * A major 1<<15 0x8000, N 1<<17 0x20000, M 4<<24 0x04000000 -> 0x0402C000 */
	{ TCP_KIND_F16, TCP_T_F16, TCP_T_F16, TCP_T_F16, 0, 64, 8, 1, 0, 0, 1, 0, 0, 0, 0x0402C000 },
	/* tf32 -> f32, M128 N128: A 2<<7 0x100, B 2<<10 0x800, D 0x10, N 16<<17 0x200000, M 0x08000000 */
	{ TCP_KIND_TF32, TCP_T_TF32, TCP_T_TF32, TCP_T_F32, 0, 128, 128, 0, 0, 0, 0, 0, 0, 0, 0x08200910 },
	/* tf32, M64 N64, both MN-major: 0x100|0x800|0x10|A major 0x8000|B major 0x10000|
	 * N 8<<17 0x100000|M 4<<24 0x04000000 -> 0x04118910 */
	{ TCP_KIND_TF32, TCP_T_TF32, TCP_T_TF32, TCP_T_F32, 0, 64, 64, 1, 1, 0, 0, 0, 0, 0, 0x04118910 },
	/* f8f6f4, e4m3 x e5m2 -> f32, M128 N128: A 0, B 1<<10 0x400, D 0x10, N 0x200000, M 0x08000000 */
	{ TCP_KIND_F8F6F4, TCP_T_E4M3, TCP_T_E5M2, TCP_T_F32, 0, 128, 128, 0, 0, 0, 0, 0, 0, 0, 0x08200410 },
	/* f8f6f4, e2m1 x e3m2 -> f16, M64 N256: A 5<<7 0x280, B 4<<10 0x1000, D 0, N 0x400000,
	 * M 0x04000000 -> 0x04401280 */
	{ TCP_KIND_F8F6F4, TCP_T_E2M1, TCP_T_E3M2, TCP_T_F16, 0, 64, 256, 0, 0, 0, 0, 0, 0, 0, 0x04401280 },
	/* i8, s8 x s8 -> s32, saturate, M128 N256: A 1<<7 0x80, B 0x400, D 2<<4 0x20, sat 1<<3 0x8,
	 * N 0x400000, M 0x08000000 -> 0x084004A8 */
	{ TCP_KIND_I8, TCP_T_S8, TCP_T_S8, TCP_T_S32, 0, 128, 256, 0, 0, 0, 0, 1, 0, 0, 0x084004A8 },
	/* i8, u8 x s8, M64 N24: A 0, B 0x400, D 0x20, N 3<<17 0x60000, M 0x04000000 -> 0x04060420 */
	{ TCP_KIND_I8, TCP_T_U8, TCP_T_S8, TCP_T_S32, 0, 64, 24, 0, 0, 0, 0, 0, 0, 0, 0x04060420 },
	/* mxf8f6f4, e4m3 x e4m3, ue8m0, M128 N256: scale type 1<<23 0x800000, N 0x400000,
	 * M 128>>7=1<<27 0x08000000 -> 0x08C00000 */
	{ TCP_KIND_MXF8F6F4, TCP_T_E4M3, TCP_T_E4M3, TCP_T_F32, TCP_T_UE8M0, 128, 256, 0, 0, 0, 0, 0, 0, 0,
	  0x08C00000 },
	/* mxf8f6f4, e2m3 x e2m1, M256 N128, A sf id 2, B sf id 1: A 3<<7 0x180, B 5<<10 0x1400,
	 * 0x800000, N 0x200000, M 2<<27 0x10000000, A sf 2<<29 0x40000000, B sf 1<<4 0x10 -> 0x50A01590 */
	{ TCP_KIND_MXF8F6F4, TCP_T_E2M3, TCP_T_E2M1, TCP_T_F32, TCP_T_UE8M0, 256, 128, 0, 0, 0, 0, 0, 2, 1,
	  0x50A01590 },
	/* mxf4, e2m1 (code 1), ue8m0, M128 N128: A 0x80, B 0x400, 0x800000, N 0x200000, M 0x08000000 */
	{ TCP_KIND_MXF4, TCP_T_E2M1, TCP_T_E2M1, TCP_T_F32, TCP_T_UE8M0, 128, 128, 0, 0, 0, 0, 0, 0, 0,
	  0x08A00480 },
	/* mxf4, M256 N256, negate A: 0x80|0x400|neg A 0x2000|0x800000|N 0x400000|M 0x10000000 */
	{ TCP_KIND_MXF4, TCP_T_E2M1, TCP_T_E2M1, TCP_T_F32, TCP_T_UE8M0, 256, 256, 0, 0, 1, 0, 0, 0, 0,
	  0x10C02480 },
	/* mxf4nvf4, ue4m3 (scale type 0), M128 N64: 0x80|0x400|N 8<<17 0x100000|M 0x08000000 */
	{ TCP_KIND_MXF4NVF4, TCP_T_E2M1, TCP_T_E2M1, TCP_T_F32, TCP_T_UE4M3, 128, 64, 0, 0, 0, 0, 0, 0, 0,
	  0x08100480 },
	/* mxf4nvf4, ue8m0, M256 N16: 0x80|0x400|0x800000|N 2<<17 0x40000|M 0x10000000 -> 0x10840480 */
	{ TCP_KIND_MXF4NVF4, TCP_T_E2M1, TCP_T_E2M1, TCP_T_F32, TCP_T_UE8M0, 256, 16, 0, 0, 0, 0, 0, 0, 0,
	  0x10840480 },
};

static void test_idesc_hand_values(void **state)
{
	int per_kind[TCP_KIND_COUNT] = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(hands) / sizeof(hands[0]); i++) {
		const struct hand *h = &hands[i];
		tcp_idesc_t d = { 0 }, e;
		uint32_t v = 0;

		d.kind = h->kind;
		d.a = h->a;
		d.b = h->b;
		d.d = h->d;
		d.sf = h->sf;
		d.m = h->m;
		d.n = h->n;
		d.a_major = h->a_major;
		d.b_major = h->b_major;
		d.neg_a = h->neg_a;
		d.neg_b = h->neg_b;
		d.saturate = h->sat;
		d.a_sf_id = h->a_sf_id;
		d.b_sf_id = h->b_sf_id;
		assert_int_equal(tcp_idesc_encode(&d, &v), 0);
		assert_int_equal(v, h->want);
		assert_int_equal(tcp_idesc_decode(h->want, h->kind, &e), 0);
		assert_same_idesc(&d, &e);
		per_kind[h->kind]++;
	}
	for (int k = 0; k < TCP_KIND_COUNT; k++)
		assert_true(per_kind[k] >= 2);
}

/* sm_100 and Hopper descriptors: every aligned field value and layout round-trips. */
static void test_sdesc_roundtrip(void **state)
{
	static const tcp_swizzle_t sw[] = { TCP_SW_NONE, TCP_SW_128B_32B, TCP_SW_128B, TCP_SW_64B, TCP_SW_32B };

	(void)state;
	srand(12345);
	for (int it = 0; it < 20000; it++) {
		tcp_sdesc_t d, e;
		uint64_t v = 0;

		d.start = (uint32_t)(rand() % 0x4000) << 4;
		d.lbo = (uint32_t)(rand() % 0x4000) << 4;
		d.sbo = (uint32_t)(rand() % 0x4000) << 4;
		d.base_offset = (unsigned)rand() % 8;
		d.lbo_mode = (unsigned)rand() % 2;
		d.layout = sw[rand() % 5];
		assert_int_equal(tcp_sdesc_encode(&d, &v), 0);
		assert_int_equal((v >> 46) & 7, 1);
		assert_int_equal(tcp_sdesc_decode(v, &e), 0);
		assert_memory_equal(&d, &e, sizeof(d));
		d.lbo_mode = 0;
		if (d.layout == TCP_SW_128B_32B) {
			assert_int_equal(tcp_wgdesc_encode(&d, &v), -1);
			continue;
		}
		assert_int_equal(tcp_wgdesc_encode(&d, &v), 0);
		assert_int_equal((v >> 46) & 7, 0);
		assert_int_equal(tcp_wgdesc_decode(v, &e), 0);
		assert_memory_equal(&d, &e, sizeof(d));
	}
}

/* Every value of every sdesc field, the others held random: each field decodes to itself. */
static void test_sdesc_every_field_value(void **state)
{
	static const tcp_swizzle_t sw[] = { TCP_SW_NONE, TCP_SW_128B_32B, TCP_SW_128B, TCP_SW_64B, TCP_SW_32B };

	(void)state;
	srand(4242);
	for (int field = 0; field < 5; field++) {
		unsigned n = field < 3 ? 0x4000 : field == 3 ? 8 : 5;

		for (unsigned x = 0; x < n; x++) {
			tcp_sdesc_t d, e;
			uint64_t v = 0;

			d.start = (uint32_t)(rand() % 0x4000) << 4;
			d.lbo = (uint32_t)(rand() % 0x4000) << 4;
			d.sbo = (uint32_t)(rand() % 0x4000) << 4;
			d.base_offset = (unsigned)rand() % 8;
			d.lbo_mode = 0;
			d.layout = sw[rand() % 5];
			switch (field) {
			case 0: d.start = x << 4; break;
			case 1: d.lbo = x << 4; break;
			case 2: d.sbo = x << 4; break;
			case 3: d.base_offset = x; break;
			default: d.layout = sw[x]; break;
			}
			assert_int_equal(tcp_sdesc_encode(&d, &v), 0);
			assert_int_equal(tcp_sdesc_decode(v, &e), 0);
			assert_memory_equal(&d, &e, sizeof(d));
			if (d.layout == TCP_SW_128B_32B)
				continue;
			assert_int_equal(tcp_wgdesc_encode(&d, &v), 0);
			assert_int_equal(tcp_wgdesc_decode(v, &e), 0);
			assert_memory_equal(&d, &e, sizeof(d));
		}
	}
}

/*
 * Hand values.  sm_100, start 0x400, LBO 16, SBO 1024, 128B swizzle:
 *   start 0x400>>4 = 0x40; LBO 1 << 16 = 0x10000; SBO 0x40 << 32; version 1 << 46;
 *   layout 2 << 61 = 0x4000000000000000  ->  0x4000404000010040.
 * Hopper, same fields, 128B = 1 << 62 and no version bit -> 0x4000004000010040.
 * sm_100, start 0x1230, LBO 256, SBO 128, no swizzle, base offset 3:
 *   0x123 | 0x10 << 16 | 0x8 << 32 | 1 << 46 | 3 << 49 -> 0x0006400800100123.
 * Hopper 32B swizzle (3 << 62), start 0x100, LBO 0, SBO 256: 0xC000001000000010.
 */
static void test_sdesc_hand_values(void **state)
{
	tcp_sdesc_t d = { 0x400, 16, 1024, 0, 0, TCP_SW_128B }, e;
	uint64_t v = 0;

	(void)state;
	assert_int_equal(tcp_sdesc_encode(&d, &v), 0);
	assert_true(v == 0x4000404000010040ull);
	assert_int_equal(tcp_wgdesc_encode(&d, &v), 0);
	assert_true(v == 0x4000004000010040ull);
	d = (tcp_sdesc_t){ 0x1230, 256, 128, 3, 0, TCP_SW_NONE };
	assert_int_equal(tcp_sdesc_encode(&d, &v), 0);
	assert_true(v == 0x0006400800100123ull);
	d = (tcp_sdesc_t){ 0x100, 0, 256, 0, 0, TCP_SW_32B };
	assert_int_equal(tcp_wgdesc_encode(&d, &v), 0);
	assert_true(v == 0xC000001000000010ull);
	assert_int_equal(tcp_wgdesc_decode(v, &e), 0);
	assert_int_equal(e.layout, TCP_SW_32B);
	/* invalid: misaligned, out of range, layout codes 3/5/7, version bits wrong */
	d.start = 0x108;
	assert_int_equal(tcp_sdesc_encode(&d, &v), -1);
	d.start = 0x40000;
	assert_int_equal(tcp_sdesc_encode(&d, &v), -1);
	assert_int_equal(tcp_sdesc_decode(0x6000400000000000ull, &e), -1);	/* layout 3 */
	assert_int_equal(tcp_sdesc_decode(0xA000400000000000ull, &e), -1);	/* layout 5 */
	assert_int_equal(tcp_sdesc_decode(0x4000004000010040ull, &e), -1);	/* no version */
	assert_int_equal(tcp_wgdesc_decode(0x4000404000010040ull, &e), -1);	/* bit 46 on Hopper */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idesc_roundtrip_legal_space),
		cmocka_unit_test(test_idesc_ws_and_reserved),
		cmocka_unit_test(test_idesc_hand_values),
		cmocka_unit_test(test_sdesc_roundtrip),
		cmocka_unit_test(test_sdesc_every_field_value),
		cmocka_unit_test(test_sdesc_hand_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
