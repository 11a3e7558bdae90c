/*
 * test-model-interp.c
 *	The tile builders (model/smem-layout.h) against the reference
 *	interpreter (model/ref-interp.c) over every layout code x major-ness x
 *	element width x a set of tile shapes x every MMA K step, with sm_100 and
 *	Hopper descriptors; the element decoders against hand values; one MMA of
 *	each kind against an independent sum.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/ref-interp.h"
#include "model/smem-layout.h"

#define SMEM_BASE	0x400u		/* tile address inside the image (1024-aligned) */
#define SMEM_BYTES	(192u * 1024u)

struct fmt {
	unsigned bits, padded;
};

static const struct fmt fmts[] = { { 4, 0 }, { 4, 1 }, { 6, 1 }, { 8, 0 }, { 16, 0 }, { 32, 0 } };
static const tcp_swizzle_t layouts[] = { TCP_SW_NONE, TCP_SW_32B, TCP_SW_64B, TCP_SW_128B, TCP_SW_128B_32B };
static const unsigned rows_set[] = { 8, 16, 24, 32, 64, 96, 128, 256 };

/*
 * Build the tile with element (r, kk) = digit `pass` of its index in base
 * 2^bits, through tcp_tile_place(); read every MMA K step back through the
 * interpreter; accumulate the digits.  After all passes every element must
 * have read back its own index: the placement is exact and injective.
 */
static long check_tile(const tcp_tile_t *t, int hopper, uint8_t *img, uint32_t *idx_rd, uint32_t *raw)
{
	unsigned mk = tcp_tile_mma_k(t), nsteps = t->k / mk, npass;
	uint64_t nelem = (uint64_t)t->rows * t->k;
	char why[256];
	long checked = 0;

	npass = 1;
	while (((uint64_t)1 << (npass * t->bits)) < nelem)
		npass++;
	assert_true(SMEM_BASE + tcp_tile_bytes(t) <= SMEM_BYTES);
	memset(idx_rd, 0, nelem * sizeof(*idx_rd));
	for (unsigned pass = 0; pass < npass; pass++) {
		/* garbage everywhere, so reading outside the tile shows up */
		for (size_t i = 0; i < SMEM_BASE + tcp_tile_bytes(t) + 1024 && i < SMEM_BYTES; i++)
			img[i] = (uint8_t)rand();
		for (unsigned r = 0; r < t->rows; r++) {
			for (unsigned kk = 0; kk < t->k; kk++) {
				uint32_t idx = r * t->k + kk, pos = tcp_tile_place(t, r, kk);
				uint32_t dig = (uint32_t)(((uint64_t)idx >> (pass * t->bits)) & ((1ull << t->bits) - 1));

				assert_true(pos / 8 < tcp_tile_bytes(t));
				tcp_bits_put(img + SMEM_BASE, pos, t->bits, dig);
			}
		}
		for (unsigned s = 0; s < nsteps; s++) {
			tcp_sdesc_t d;
			tcp_ref_operand_t op = { 0, hopper, t->major, t->bits, t->padded, t->rows, mk };

			tcp_tile_desc(t, SMEM_BASE, s, &d);
			if (hopper)
				assert_int_equal(tcp_wgdesc_encode(&d, &op.desc), 0);
			else
				assert_int_equal(tcp_sdesc_encode(&d, &op.desc), 0);
			if (tcp_ref_read(&op, img, 0, SMEM_BYTES, raw, why, sizeof(why))) {
				fail_msg("interpreter refused: %s", why);
			}
			for (unsigned r = 0; r < t->rows; r++)
				for (unsigned kk = 0; kk < mk; kk++)
					idx_rd[r * t->k + s * mk + kk] |= raw[r * mk + kk] << (pass * t->bits);
		}
	}
	for (unsigned r = 0; r < t->rows; r++) {
		for (unsigned kk = 0; kk < t->k; kk++) {
			if (idx_rd[r * t->k + kk] != r * t->k + kk)
				fail_msg("layout %d major %u bits %u%s rows %u k %u %s: element (%u, %u) read back as index %u",
					 t->layout, t->major, t->bits, t->padded ? "p" : "", t->rows, t->k,
					 hopper ? "hopper" : "sm100", r, kk, idx_rd[r * t->k + kk]);
			checked++;
		}
	}
	return checked;
}

static void test_builders_vs_interpreter(void **state)
{
	uint8_t *img = malloc(SMEM_BYTES);
	uint32_t *idx = malloc(256 * 512 * sizeof(uint32_t)), *raw = malloc(256 * 512 * sizeof(uint32_t));
	int combos[2][5][6] = { { { 0 } } };
	long tiles = 0, elems = 0;

	(void)state;
	srand(777);
	for (int hopper = 0; hopper <= 1; hopper++)
	for (size_t li = 0; li < 5; li++)
	for (unsigned major = 0; major <= 1; major++)
	for (size_t fi = 0; fi < 6; fi++)
	for (size_t ri = 0; ri < sizeof(rows_set) / sizeof(rows_set[0]); ri++)
	for (unsigned ksteps = 1; ksteps <= 8; ksteps *= 2) {
		tcp_tile_t t = { layouts[li], major, fmts[fi].bits, fmts[fi].padded, rows_set[ri], 0, 0 };

		if (hopper && (t.layout == TCP_SW_128B_32B || t.bits < 8))
			continue;	/* wgmma has neither */
		t.k = ksteps * tcp_tile_mma_k(&t);
		if (tcp_tile_check(&t))
			continue;
		if (tcp_tile_bytes(&t) + SMEM_BASE > SMEM_BYTES)
			continue;
		elems += check_tile(&t, hopper, img, idx, raw);
		tiles++;
		combos[hopper][li][fi] |= 1 << major;
	}
	/* every layout x width the hardware has was exercised, both majors where legal */
	for (size_t li = 0; li < 5; li++) {
		for (size_t fi = 0; fi < 6; fi++) {
			int want = fmts[fi].bits >= 8 ? 3 : 1;

			if (layouts[li] == TCP_SW_128B_32B)	/* MN-major only */
				want = fmts[fi].bits >= 8 ? 2 : 0;

			assert_int_equal(combos[0][li][fi], want);
			if (li != 4 && fmts[fi].bits >= 8)
				assert_int_equal(combos[1][li][fi], 3);
		}
	}
	printf("  builders vs interpreter: %ld tiles, %ld elements, all exact\n", tiles, elems);
	free(img);
	free(idx);
	free(raw);
}

/* The builder's tile is not the only one the interpreter reads: a hand-made no-swizzle K-major tile. */
static void test_interpreter_hand_tile(void **state)
{
	/* 16-bit, 8 rows x 16 K, K-major, no swizzle, LBO = 256, SBO = 128 chosen by hand:
	 * row r, k in [0,8) at r*16 + 2k; k in [8,16) at 256 + r*16 + 2(k-8). */
	uint8_t img[1024];
	uint32_t out[16 * 32];	/* the largest operand below: 16 rows x 32 K (ASan: was 8 x 16) */
	tcp_sdesc_t d = { 0, 256, 128, 0, 0, TCP_SW_NONE };
	tcp_ref_operand_t op = { 0, 0, TCP_MAJOR_K, 16, 0, 8, 16 };
	char why[128];

	(void)state;
	memset(img, 0, sizeof(img));
	for (unsigned r = 0; r < 8; r++)
		for (unsigned k = 0; k < 16; k++) {
			unsigned off = (k < 8 ? 0 : 256) + r * 16 + 2 * (k % 8);

			img[off] = (uint8_t)(r * 16 + k);
			img[off + 1] = 0xA0;
		}
	assert_int_equal(tcp_sdesc_encode(&d, &op.desc), 0);
	assert_int_equal(tcp_ref_read(&op, img, 0, sizeof(img), out, why, sizeof(why)), 0);
	for (unsigned i = 0; i < 128; i++)
		assert_int_equal(out[i], 0xA000u | i);
	/* 128B swizzle, one row-group: row 1's chunk 0 lives at byte 128 + 16 (chunk 0 ^ 1) */
	memset(img, 0, sizeof(img));
	img[128 + 16] = 0x5A;
	d = (tcp_sdesc_t){ 0, 16, 1024, 0, 0, TCP_SW_128B };
	op = (tcp_ref_operand_t){ 0, 1, TCP_MAJOR_K, 8, 0, 8, 32 };
	assert_int_equal(tcp_wgdesc_encode(&d, &op.desc), 0);
	assert_int_equal(tcp_ref_read(&op, img, 0, sizeof(img), out, why, sizeof(why)), 0);
	assert_int_equal(out[1 * 32 + 0], 0x5A);
	/* an address outside the image is refused, not read */
	op.rows = 16;
	assert_int_equal(tcp_ref_read(&op, img, 0, 1024, out, why, sizeof(why)), -1);
}

/*
 * sm_103a's K = 96 mxf4nvf4 (model/smem-layout.h mma_k = 96): packed fp4,
 * 48 bytes of K per MMA, K-major, no swizzle or 128B swizzle.  Every MMA
 * step of tiles up to K = 768 (8 MMAs, three 128-byte K atoms: MMAs 2 and 5
 * run into the next atom through the absolute LBO) reads back exactly
 * through the interpreter; the descriptors are CUTLASS SM103's; every other
 * layout, width or major-ness is refused.
 */
static void test_k96_tiles(void **state)
{
	uint8_t *img = malloc(SMEM_BYTES);
	uint32_t *idx = malloc(256 * 768 * sizeof(uint32_t)), *raw = malloc(256 * 768 * sizeof(uint32_t));
	const tcp_swizzle_t ok[] = { TCP_SW_NONE, TCP_SW_128B };
	long tiles = 0, elems = 0;
	char why[256];

	(void)state;
	assert_true(img && idx && raw);
	srand(96);
	for (size_t li = 0; li < 2; li++)
		for (size_t ri = 0; ri < sizeof(rows_set) / sizeof(rows_set[0]); ri++)
			for (unsigned ksteps = 1; ksteps <= 8; ksteps++) {
				tcp_tile_t t = { ok[li], TCP_MAJOR_K, 4, 0, rows_set[ri], 96 * ksteps, TCP_MMA_K96 };

				assert_int_equal(tcp_tile_check(&t), 0);
				assert_int_equal(tcp_tile_mma_k(&t), 96);
				assert_int_equal(tcp_tile_mma_bytes(&t), 48);
				if (tcp_tile_bytes(&t) + SMEM_BASE > SMEM_BYTES)
					continue;
				elems += check_tile(&t, 0, img, idx, raw);
				tiles++;
			}
	printf("  K = 96 tiles vs interpreter: %ld tiles, %ld elements, all exact\n", tiles, elems);

	/* Refused: other swizzles, MN-major, padded or wider elements, another K, K not a multiple of 96. */
	const tcp_tile_t bad[] = {
		{ TCP_SW_32B, TCP_MAJOR_K, 4, 0, 128, 96, TCP_MMA_K96 },
		{ TCP_SW_64B, TCP_MAJOR_K, 4, 0, 128, 96, TCP_MMA_K96 },
		{ TCP_SW_128B_32B, TCP_MAJOR_K, 4, 0, 128, 96, TCP_MMA_K96 },
		{ TCP_SW_128B, TCP_MAJOR_MN, 4, 0, 128, 96, TCP_MMA_K96 },
		{ TCP_SW_128B, TCP_MAJOR_K, 4, 1, 128, 96, TCP_MMA_K96 },
		{ TCP_SW_128B, TCP_MAJOR_K, 8, 0, 128, 96, TCP_MMA_K96 },
		{ TCP_SW_128B, TCP_MAJOR_K, 4, 0, 128, 96, 64 },
		{ TCP_SW_128B, TCP_MAJOR_K, 4, 0, 128, 64, TCP_MMA_K96 },
		{ TCP_SW_NONE, TCP_MAJOR_K, 4, 0, 128, 160, TCP_MMA_K96 },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (tcp_tile_check(&bad[i]) != -1)
			fail_msg("K = 96 tile %zu (layout %d major %u bits %u%s k %u mma_k %u) accepted", i, bad[i].layout,
				 bad[i].major, bad[i].bits, bad[i].padded ? "p" : "", bad[i].k, bad[i].mma_k);
	/* ... and without mma_k the builder still refuses K = 96 (32-byte steps): nothing else moved. */
	tcp_tile_t t64 = { TCP_SW_NONE, TCP_MAJOR_K, 4, 0, 128, 96, 0 };
	assert_int_equal(tcp_tile_check(&t64), -1);

	/* Descriptors of the 8 MMAs of a 128 x 768 128B tile, as CUTLASS's SM103
	 * mainloop issues them (sm103_blockscaled_mma_warpspecialized.hpp: MMA i
	 * at buffer b + o bytes, "next" buffer nb; buffers are the K atoms,
	 * 128 rows x 128 B = 16 KiB apart here). */
	static const unsigned cut[8][3] = { { 0, 0, 0 }, { 0, 48, 0 }, { 0, 96, 1 }, { 1, 16, 1 },
					    { 1, 64, 1 }, { 1, 112, 2 }, { 2, 32, 2 }, { 2, 80, 2 } };
	tcp_tile_t t = { TCP_SW_128B, TCP_MAJOR_K, 4, 0, 128, 768, TCP_MMA_K96 };
	assert_int_equal(tcp_tile_bytes(&t), 3 * 16384);
	for (unsigned s = 0; s < 8; s++) {
		tcp_sdesc_t d, back;
		uint64_t v = 0;
		tcp_tile_desc(&t, SMEM_BASE, s, &d);
		assert_int_equal(d.start, SMEM_BASE + cut[s][0] * 16384 + cut[s][1]);
		assert_int_equal(d.lbo_mode, 1);
		assert_int_equal(d.lbo, SMEM_BASE + cut[s][2] * 16384);
		assert_int_equal(d.sbo, 1024);
		assert_int_equal(d.layout, TCP_SW_128B);
		assert_int_equal(tcp_sdesc_encode(&d, &v), 0);
		assert_int_equal(tcp_sdesc_decode(v, &back), 0);
		assert_int_equal((v >> 52) & 1, 1);
		assert_int_equal((v >> 16) & 0x3FFF, (SMEM_BASE + cut[s][2] * 16384) >> 4);
		assert_int_equal(back.start, d.start);
	}
	/* No swizzle: three core matrices per MMA, LBO relative (128), SBO 24 chunks of 8 rows. */
	t.layout = TCP_SW_NONE;
	for (unsigned s = 0; s < 8; s++) {
		tcp_sdesc_t d;
		tcp_tile_desc(&t, SMEM_BASE, s, &d);
		assert_int_equal(d.start, SMEM_BASE + 3 * s * 128);
		assert_int_equal(d.lbo_mode, 0);
		assert_int_equal(d.lbo, 128);
		assert_int_equal(d.sbo, 128 * 24);
	}
	/* The crossing MMA needs the absolute LBO: the same descriptor with bit 52
	 * cleared reads the wrong bytes (garbage past the swizzle row). */
	t.layout = TCP_SW_128B;
	memset(img, 0, SMEM_BYTES);
	for (unsigned r = 0; r < 128; r++)
		for (unsigned kk = 0; kk < 768; kk++)
			tcp_bits_put(img + SMEM_BASE, tcp_tile_place(&t, r, kk), 4, (r * 7 + kk * 3) & 15);
	tcp_sdesc_t d2;
	tcp_ref_operand_t op = { 0, 0, TCP_MAJOR_K, 4, 0, 128, 96 };
	tcp_tile_desc(&t, SMEM_BASE, 2, &d2);
	assert_int_equal(tcp_sdesc_encode(&d2, &op.desc), 0);
	assert_int_equal(tcp_ref_read(&op, img, 0, SMEM_BYTES, raw, why, sizeof(why)), 0);
	for (unsigned r = 0; r < 128; r++)
		for (unsigned kk = 0; kk < 96; kk++)
			assert_int_equal(raw[r * 96 + kk], (r * 7 + (192 + kk) * 3) & 15);
	op.desc &= ~(1ull << 52);
	assert_int_equal(tcp_ref_read(&op, img, 0, SMEM_BYTES, raw, why, sizeof(why)), 0);
	long diff = 0;
	for (unsigned r = 0; r < 128; r++)
		for (unsigned kk = 64; kk < 96; kk++)	/* the last chunk: past the row without bit 52 */
			diff += raw[r * 96 + kk] != ((r * 7 + (192 + kk) * 3) & 15);
	assert_true(diff > 0);
	/* Absolute LBO outside K-major swizzled operands: refused, not guessed. */
	t.layout = TCP_SW_NONE;
	tcp_tile_desc(&t, SMEM_BASE, 0, &d2);
	d2.lbo_mode = 1;
	assert_int_equal(tcp_sdesc_encode(&d2, &op.desc), 0);
	assert_int_equal(tcp_ref_read(&op, img, 0, SMEM_BYTES, raw, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "absolute LBO"));
	free(img);
	free(idx);
	free(raw);
}

/* The absolute LBO as the interpreter reads it, on a hand-made tile (not the
 * builder's): 8 rows of 128B swizzle, start at byte 96 of the atom, the
 * third chunk of every row taken from chunk 0 of the same row of an atom at
 * an unrelated address (0x2000), swizzled there. */
static void test_k96_hand_tile(void **state)
{
	uint8_t img[0x3000];
	uint32_t out[8 * 96];
	tcp_sdesc_t d = { 0x400 + 96, 0x2000, 1024, 0, 1, TCP_SW_128B };
	tcp_ref_operand_t op = { 0, 0, TCP_MAJOR_K, 4, 0, 8, 96 };
	char why[128];

	(void)state;
	memset(img, 0, sizeof(img));
	for (unsigned r = 0; r < 8; r++) {
		/* chunks 6, 7 of row r at 0x400 (swizzled: chunk ^ r), chunk 0 at 0x2000 (chunk 0 ^ r) */
		img[0x400 + r * 128 + ((6 ^ r) * 16)] = (uint8_t)(0x10 | r);
		img[0x400 + r * 128 + ((7 ^ r) * 16)] = (uint8_t)(0x20 | r);
		img[0x2000 + r * 128 + ((0 ^ r) * 16)] = (uint8_t)(0x30 | r);
	}
	assert_int_equal(tcp_sdesc_encode(&d, &op.desc), 0);
	assert_int_equal(tcp_ref_read(&op, img, 0, sizeof(img), out, why, sizeof(why)), 0);
	for (unsigned r = 0; r < 8; r++) {
		/* element 0 of each chunk: the low nibble of its first byte; element 1 the high one */
		assert_int_equal(out[r * 96 + 0], r & 15);
		assert_int_equal(out[r * 96 + 1], 1);
		assert_int_equal(out[r * 96 + 32 + 1], 2);
		assert_int_equal(out[r * 96 + 64 + 1], 3);
	}
}

struct dv {
	tcp_type_t t;
	uint32_t raw;
	double want;	/* NAN: expect NaN */
};

static void test_decoders(void **state)
{
	static const struct dv v[] = {
		{ TCP_T_F16, 0x3C00, 1.0 }, { TCP_T_F16, 0xC000, -2.0 }, { TCP_T_F16, 0x0001, 0x1p-24 },
		{ TCP_T_F16, 0x7BFF, 65504.0 }, { TCP_T_F16, 0x7C00, INFINITY }, { TCP_T_F16, 0x7E00, NAN },
		{ TCP_T_BF16, 0x3F80, 1.0 }, { TCP_T_BF16, 0x4049, 3.140625 }, { TCP_T_BF16, 0xFF80, -INFINITY },
		{ TCP_T_TF32, 0x3F800000, 1.0 }, { TCP_T_TF32, 0x3F801FFF, 1.0 },
		{ TCP_T_TF32, 0x3F802000, 1.0 + 0x1p-10 }, { TCP_T_TF32, 0xC0400000, -3.0 },
		{ TCP_T_E4M3, 0x38, 1.0 }, { TCP_T_E4M3, 0x7E, 448.0 }, { TCP_T_E4M3, 0x01, 0x1p-9 },
		{ TCP_T_E4M3, 0xFF, NAN }, { TCP_T_E4M3, 0xB8, -1.0 },
		{ TCP_T_E5M2, 0x3C, 1.0 }, { TCP_T_E5M2, 0x7B, 57344.0 }, { TCP_T_E5M2, 0x7C, INFINITY },
		{ TCP_T_E5M2, 0x01, 0x1p-16 },
		{ TCP_T_E2M3, 0x08, 1.0 }, { TCP_T_E2M3, 0x1F, 7.5 }, { TCP_T_E2M3, 0x01, 0.125 },
		{ TCP_T_E2M3, 0x3F, -7.5 },
		{ TCP_T_E3M2, 0x0C, 1.0 }, { TCP_T_E3M2, 0x1F, 28.0 }, { TCP_T_E3M2, 0x01, 0.0625 },
		{ TCP_T_E2M1, 0x2, 1.0 }, { TCP_T_E2M1, 0x7, 6.0 }, { TCP_T_E2M1, 0x1, 0.5 },
		{ TCP_T_E2M1, 0xF, -6.0 }, { TCP_T_E2M1, 0x5, 3.0 },
		{ TCP_T_S8, 0x80, -128.0 }, { TCP_T_S8, 0x7F, 127.0 }, { TCP_T_U8, 0xFF, 255.0 },
		{ TCP_T_UE8M0, 127, 1.0 }, { TCP_T_UE8M0, 130, 8.0 }, { TCP_T_UE8M0, 0, 0x1p-127 },
		{ TCP_T_UE8M0, 0xFF, NAN },
		{ TCP_T_UE4M3, 0x38, 1.0 }, { TCP_T_UE4M3, 0x7E, 448.0 }, { TCP_T_UE4M3, 0x7F, NAN },
		{ TCP_T_F32, 0x3F800000, 1.0 }, { TCP_T_S32, 0xFFFFFFFF, -1.0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		double got = tcp_ref_decode(v[i].t, v[i].raw);

		if (isnan(v[i].want)) {
			if (!isnan(got))
				fail_msg("%s 0x%x: want NaN, got %g", tcp_type_name(v[i].t), v[i].raw, got);
		} else if (got != v[i].want) {
			fail_msg("%s 0x%x: want %g, got %g", tcp_type_name(v[i].t), v[i].raw, v[i].want, got);
		}
	}
}

/* Every e2m1 / e2m3 / e3m2 / e4m3 code agrees with a brute-force value table built from its definition. */
static void test_decoders_exhaustive_minifloats(void **state)
{
	(void)state;
	/* e2m1 magnitudes by code 0..7, OCP MX spec table */
	static const double e2m1[8] = { 0, 0.5, 1, 1.5, 2, 3, 4, 6 };

	for (uint32_t c = 0; c < 16; c++)
		assert_true(tcp_ref_decode(TCP_T_E2M1, c) == (c & 8 ? -e2m1[c & 7] : e2m1[c & 7]));
	for (uint32_t c = 0; c < 256; c++) {
		double v = tcp_ref_decode(TCP_T_E4M3, c);

		if ((c & 0x7F) == 0x7F) {
			assert_true(isnan(v));
			continue;
		}
		/* e4m3 value = (-1)^s * 2^(e-7) * (1 + m/8), subnormals 2^-6 * m/8 */
		{
			unsigned e = (c >> 3) & 15, m = c & 7;
			double w = e ? ldexp(1.0 + m / 8.0, (int)e - 7) : ldexp(m / 8.0, -6);

			assert_true(v == ((c & 0x80) ? -w : w));
		}
	}
}

/* One MMA per kind: the interpreter's D against an independent integer/float sum. */
static void test_mma_small(void **state)
{
	enum { M = 4, N = 3, K = 32 };
	uint32_t a[M * K], b[N * K], sfa[M * 2], sfb[N * 2];
	double d[M * N];
	tcp_ref_mma_t c = { TCP_KIND_I8, M, N, K, TCP_T_S8, TCP_T_U8, 0, 0, 0, TCP_T_UE8M0 };

	(void)state;
	srand(99);
	for (int i = 0; i < M * K; i++)
		a[i] = (uint32_t)rand() & 0xFF;
	for (int i = 0; i < N * K; i++)
		b[i] = (uint32_t)rand() & 0xFF;
	tcp_ref_mma(&c, a, b, NULL, NULL, d, 0);
	for (int m = 0; m < M; m++)
		for (int n = 0; n < N; n++) {
			long s = 0;

			for (int k = 0; k < K; k++)
				s += (long)(int8_t)a[m * K + k] * (long)(uint8_t)b[n * K + k];
			assert_true(d[m * N + n] == (double)s);
		}
	/* accumulate adds to D; negate flips the sign */
	c.neg_a = 1;
	tcp_ref_mma(&c, a, b, NULL, NULL, d, 1);
	for (int i = 0; i < M * N; i++)
		assert_true(d[i] == 0.0);
	/* mxf4 with ue8m0 block-32 scales: e2m1 1.0 (code 2) everywhere; row m's scale 2^m,
	 * column n's 2^-n for block 0 and 1 for block 1: D = 32*2^(m-n) + 32 */
	c = (tcp_ref_mma_t){ TCP_KIND_MXF4, M, N, 64, TCP_T_E2M1, TCP_T_E2M1, 0, 0, 32, TCP_T_UE8M0 };
	{
		uint32_t a4[M * 64], b4[N * 64];

		for (int i = 0; i < M * 64; i++)
			a4[i] = 2;
		for (int i = 0; i < N * 64; i++)
			b4[i] = 2;
		for (int m = 0; m < M; m++) {
			sfa[m * 2] = 127u + (uint32_t)m;
			sfa[m * 2 + 1] = 127;
		}
		for (int n = 0; n < N; n++) {
			sfb[n * 2] = 127u - (uint32_t)n;
			sfb[n * 2 + 1] = 127;
		}
		tcp_ref_mma(&c, a4, b4, sfa, sfb, d, 0);
		for (int m = 0; m < M; m++)
			for (int n = 0; n < N; n++)
				assert_true(d[m * N + n] == 32.0 * ldexp(1.0, m - n) + 32.0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builders_vs_interpreter),
		cmocka_unit_test(test_interpreter_hand_tile),
		cmocka_unit_test(test_k96_tiles),
		cmocka_unit_test(test_k96_hand_tile),
		cmocka_unit_test(test_decoders),
		cmocka_unit_test(test_decoders_exhaustive_minifloats),
		cmocka_unit_test(test_mma_small),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
