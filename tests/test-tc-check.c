/*
 * test-tc-check.c
 *	The CPU side of the Blackwell MMA probes (probes/sm100/tc-check.h) and
 *	the host side of the bounded-wait plumbing (probes/common/tcgen05.cuh):
 *	operands built through the model re-read identically, a correct TMEM
 *	dump passes for every kind and layout, corrupted, swapped or
 *	mis-mapped dumps are caught (INVALID), and a device timeout word turns
 *	into a reason naming the wait.  Fresh random inputs every run (seed
 *	printed so a failure can be replayed with TCP_TEST_SEED).
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

#include <cmocka.h>

#include "probes/common/tcgen05.cuh"
#include "model/ref-interp.h"
#include "probes/sm100/tc-check.h"

static uint64_t seed;

static uint64_t next_seed(void)
{
	seed = seed * 6364136223846793005ull + 1442695040888963407ull;
	return seed;
}

/* One configuration a probe would run. */
static tcp_mma_cfg_t cfg_of(tcp_kind_t kind, tcp_type_t a, tcp_type_t b, int cg, unsigned m, unsigned n)
{
	tcp_mma_cfg_t c;
	tcp_mma_cfg_default(kind, &c);
	c.a = a;
	c.b = b;
	c.cta_group = cg;
	c.m = m;
	c.n = n;
	return c;
}

static const struct {
	tcp_kind_t kind;
	tcp_type_t a, b, sf;
	int cg;
	unsigned m, n, scale_vec;
} cases[] = {
	{ TCP_KIND_F16, TCP_T_BF16, TCP_T_BF16, TCP_T_UE8M0, 1, 128, 64, 0 },
	{ TCP_KIND_F16, TCP_T_F16, TCP_T_F16, TCP_T_UE8M0, 1, 64, 24, 0 },
	{ TCP_KIND_TF32, TCP_T_TF32, TCP_T_TF32, TCP_T_UE8M0, 1, 128, 32, 0 },
	{ TCP_KIND_F8F6F4, TCP_T_E4M3, TCP_T_E5M2, TCP_T_UE8M0, 1, 128, 48, 0 },
	{ TCP_KIND_F8F6F4, TCP_T_E2M1, TCP_T_E3M2, TCP_T_UE8M0, 1, 128, 16, 0 },
	{ TCP_KIND_F8F6F4, TCP_T_E2M3, TCP_T_E2M1, TCP_T_UE8M0, 2, 256, 32, 0 },
	{ TCP_KIND_I8, TCP_T_S8, TCP_T_U8, TCP_T_UE8M0, 1, 128, 32, 0 },
	{ TCP_KIND_I8, TCP_T_S8, TCP_T_S8, TCP_T_UE8M0, 2, 128, 64, 0 },
	{ TCP_KIND_MXF8F6F4, TCP_T_E4M3, TCP_T_E2M1, TCP_T_UE8M0, 1, 128, 32, 1 },
	{ TCP_KIND_MXF4, TCP_T_E2M1, TCP_T_E2M1, TCP_T_UE8M0, 2, 128, 32, 2 },
	{ TCP_KIND_MXF4NVF4, TCP_T_E2M1, TCP_T_E2M1, TCP_T_UE4M3, 1, 128, 16, 4 },
	{ TCP_KIND_MXF4NVF4, TCP_T_E2M1, TCP_T_E2M1, TCP_T_UE8M0, 2, 256, 16, 2 },
};

static tcp_mma_cfg_t case_cfg(int i)
{
	tcp_mma_cfg_t c = cfg_of(cases[i].kind, cases[i].a, cases[i].b, cases[i].cg, cases[i].m, cases[i].n);
	c.sf = cases[i].sf;
	c.scale_vec = cases[i].scale_vec;
	return c;
}

/* Columns per CTA the dump holds for a configuration. */
static unsigned dump_cols(const tcp_mma_cfg_t *c)
{
	tcp_acc_cfg_t a = { c->cta_group, c->m, c->n, 0, 0, 0 };
	return tcp_acc_cols(&a);
}

static uint32_t *dump_new(const tcp_mma_cfg_t *c, unsigned cols)
{
	uint32_t *t = calloc((size_t)c->cta_group * 128 * cols, sizeof(uint32_t));
	assert_non_null(t);
	/* Unwritten cells hold a NaN pattern so a hole in the mapping shows. */
	for (size_t i = 0; i < (size_t)c->cta_group * 128 * cols; i++)
		t[i] = 0x7fc00bad;
	return t;
}

/* A correct dump passes, for every kind, cta_group and both layouts. */
static void test_correct_dump_passes(void **st)
{
	(void)st;
	for (int i = 0; i < (int)(sizeof(cases) / sizeof(cases[0])); i++) {
		for (int sw = 0; sw < 2; sw++) {
			tcp_tc_mma_data_t d;
			char why[512];
			tcp_mma_cfg_t c = case_cfg(i);
			tcp_swizzle_t lay = sw ? TCP_SW_128B : TCP_SW_NONE;
			if (tcp_tc_mma_data_build(&d, &c, lay, next_seed(), TCP_TC_FILL_RANDOM, why, sizeof(why)) != 0)
				fail_msg("case %d (%s) layout %d: build failed: %s", i, tcp_kind_name(c.kind), lay, why);
			unsigned cols = dump_cols(&c);
			uint32_t *t = dump_new(&c, cols);
			assert_int_equal(tcp_tc_fill_tmem(&d, t, cols, 0), 0);
			long bad = tcp_tc_check_tmem(&d, t, cols, 0, why, sizeof(why));
			if (bad != 0)
				fail_msg("case %d: correct dump rejected: %s", i, why);
			/* The reference is not trivially zero. */
			double s = 0;
			for (unsigned k = 0; k < c.m * c.n; k++)
				s += fabs(d.ref[k]);
			assert_true(s > 0);
			free(t);
			tcp_tc_mma_data_free(&d);
		}
	}
}

/* One corrupted cell anywhere is caught and named. */
static void test_corrupted_cell_caught(void **st)
{
	(void)st;
	for (int i = 0; i < (int)(sizeof(cases) / sizeof(cases[0])); i++) {
		tcp_tc_mma_data_t d;
		char why[512];
		tcp_mma_cfg_t c = case_cfg(i);
		assert_int_equal(tcp_tc_mma_data_build(&d, &c, TCP_SW_NONE, next_seed(), TCP_TC_FILL_RANDOM, why,
						       sizeof(why)), 0);
		unsigned cols = dump_cols(&c);
		uint32_t *t = dump_new(&c, cols);
		assert_int_equal(tcp_tc_fill_tmem(&d, t, cols, 0), 0);
		/* Pick a random element; push it well outside the tolerance. */
		unsigned m = (unsigned)(next_seed() >> 33) % c.m, n = (unsigned)(next_seed() >> 33) % c.n;
		tcp_acc_cfg_t ac = { c.cta_group, c.m, c.n, 0, 0, 0 };
		tcp_tmem_cell_t cell = { 0, 0, 0 };
		assert_int_equal(tcp_acc_map(&ac, m, n, &cell), 0);
		uint32_t *w = &t[((size_t)cell.cta * 128 + cell.lane) * cols + cell.col];
		if (c.kind == TCP_KIND_I8) {
			*w += 1;	/* exact kind: off by one is wrong */
		} else {
			float f;
			memcpy(&f, w, sizeof(f));
			f += (float)(d.mag[(size_t)m * c.n + n] * 0.01 + 1.0);
			memcpy(w, &f, sizeof(f));
		}
		long bad = tcp_tc_check_tmem(&d, t, cols, 0, why, sizeof(why));
		assert_int_equal(bad, 1);
		char want[64];
		snprintf(want, sizeof(want), "D[%u][%u]", m, n);
		if (!strstr(why, want))
			fail_msg("case %d: reason does not name %s: %s", i, want, why);
		free(t);
		tcp_tc_mma_data_free(&d);
	}
}

/* A dump read with the wrong layout (M=64 alignment 16 vs 0, or swapped
 * lanes) fails: the unique fill makes every cell distinct. */
static void test_wrong_layout_caught(void **st)
{
	(void)st;
	tcp_tc_mma_data_t d;
	char why[512];
	tcp_mma_cfg_t c = cfg_of(TCP_KIND_F16, TCP_T_F16, TCP_T_F16, 1, 64, 64);
	assert_int_equal(tcp_tc_mma_data_build(&d, &c, TCP_SW_NONE, next_seed(), TCP_TC_FILL_UNIQUE, why,
					       sizeof(why)), 0);
	/* Every reference value distinct. */
	for (unsigned i = 0; i < c.m * c.n; i++)
		for (unsigned j = i + 1; j < c.m * c.n; j += 97)
			assert_true(d.ref[i] != d.ref[j]);
	assert_true(d.ref[0] == 1 + 256 && d.ref[(size_t)5 * c.n + 7] == 6 + 256 * 8);
	unsigned cols = dump_cols(&c);
	uint32_t *t = dump_new(&c, cols);
	assert_int_equal(tcp_tc_fill_tmem(&d, t, cols, 16), 0);
	assert_int_equal(tcp_tc_check_tmem(&d, t, cols, 16, why, sizeof(why)), 0);
	long bad = tcp_tc_check_tmem(&d, t, cols, 0, why, sizeof(why));
	assert_int_equal(bad, (long)(c.m * c.n));
	/* Two rows swapped: exactly their cells are bad. */
	assert_int_equal(tcp_tc_fill_tmem(&d, t, cols, 0), 0);
	for (unsigned col = 0; col < cols; col++) {
		uint32_t x = t[(size_t)1 * cols + col];
		t[(size_t)1 * cols + col] = t[(size_t)2 * cols + col];
		t[(size_t)2 * cols + col] = x;
	}
	assert_int_equal(tcp_tc_check_tmem(&d, t, cols, 0, why, sizeof(why)), (long)(2 * c.n));
	free(t);
	tcp_tc_mma_data_free(&d);
}

/* Illegal shapes never build; FLOP uses the PTX K (fp4 under f8f6f4: 32). */
static void test_legality_and_flop(void **st)
{
	(void)st;
	tcp_tc_mma_data_t d;
	char why[256];
	tcp_mma_cfg_t c = cfg_of(TCP_KIND_I8, TCP_T_S8, TCP_T_S8, 2, 128, 48);
	assert_int_equal(tcp_tc_mma_data_build(&d, &c, TCP_SW_NONE, 1, TCP_TC_FILL_RANDOM, why, sizeof(why)), -1);
	assert_true(strlen(why) > 0);
	c = cfg_of(TCP_KIND_MXF4, TCP_T_E2M1, TCP_T_E2M1, 1, 64, 64);
	assert_int_equal(tcp_tc_mma_data_build(&d, &c, TCP_SW_NONE, 1, TCP_TC_FILL_RANDOM, why, sizeof(why)), -1);
	c = cfg_of(TCP_KIND_F8F6F4, TCP_T_E2M1, TCP_T_E2M1, 1, 128, 128);
	assert_true(tcp_tc_mma_flop(&c) == 2.0 * 128 * 128 * 32);
	c = cfg_of(TCP_KIND_MXF4, TCP_T_E2M1, TCP_T_E2M1, 1, 128, 128);
	assert_true(tcp_tc_mma_flop(&c) == 2.0 * 128 * 128 * 64);
	c = cfg_of(TCP_KIND_TF32, TCP_T_TF32, TCP_T_TF32, 2, 256, 256);
	assert_true(tcp_tc_mma_flop(&c) == 2.0 * 256 * 256 * 8);
}

/* Block scales are applied per K block: the reference of D[0][0] is
 * sum_k A[0][k] B[0][k] sa[0][k / block] sb[0][k / block]. */
static void test_scales_applied(void **st)
{
	(void)st;
	tcp_tc_mma_data_t d;
	char why[256];
	tcp_mma_cfg_t c = cfg_of(TCP_KIND_MXF4NVF4, TCP_T_E2M1, TCP_T_E2M1, 1, 128, 16);
	c.sf = TCP_T_UE4M3;
	c.scale_vec = 4;
	for (int rep = 0; rep < 8; rep++) {
		assert_int_equal(tcp_tc_mma_data_build(&d, &c, TCP_SW_NONE, next_seed(), TCP_TC_FILL_RANDOM, why,
						       sizeof(why)), 0);
		assert_int_equal(d.nblk, 4);	/* K = 64, block 16 */
		double want = 0;
		int distinct = 0;
		for (unsigned k = 0; k < d.k; k++) {
			want += tcp_ref_decode(c.a, d.a_raw[k]) * tcp_ref_decode(c.b, d.b_raw[k]) *
				tcp_tc_sf(&d, 0, 0, k / 16) * tcp_tc_sf(&d, 1, 0, k / 16);
			assert_true(tcp_tc_sf(&d, 0, 0, k / 16) > 0);
		}
		assert_true(fabs(d.ref[0] - want) <= 1e-9 * (fabs(want) + 1));
		/* The scales vary from block to block and row to row (not one replicated code). */
		for (unsigned r = 0; r < c.m && !distinct; r++)
			for (unsigned j = 1; j < d.nblk; j++)
				distinct |= d.sfa[r * d.nblk + j] != d.sfa[0];
		assert_true(distinct);
		tcp_tc_mma_data_free(&d);
	}
	c = cfg_of(TCP_KIND_F16, TCP_T_BF16, TCP_T_BF16, 1, 128, 16);
	assert_int_equal(tcp_tc_mma_data_build(&d, &c, TCP_SW_NONE, next_seed(), TCP_TC_FILL_RANDOM, why, sizeof(why)), 0);
	assert_int_equal(d.nblk, 0);
	assert_true(tcp_tc_sf(&d, 1, 3, 0) == 1.0);
	tcp_tc_mma_data_free(&d);
}

/*
 * The scale factors' TMEM image (model/tmem-plan.h tcp_tmem_sf_cell) read
 * back gives every row's codes; a device that reads them from anywhere else
 * (a wrong layout) or a corrupted scale changes the accumulator and the
 * check fails: the per-block layout is exercised, not assumed.
 */
static const struct {
	tcp_kind_t kind;
	int cg;
	unsigned m, n, sv;
	tcp_type_t sf;
	unsigned k;	/* 96: sm_103a's K = 96 (mxf4nvf4) */
} sf_cases[] = {
	{ TCP_KIND_MXF8F6F4, 1, 128, 64, 1, TCP_T_UE8M0, 0 },	/* 1 block per MMA, B 2 columns */
	{ TCP_KIND_MXF4, 1, 128, 256, 2, TCP_T_UE8M0, 0 },	/* 2 blocks, B 8 columns */
	{ TCP_KIND_MXF4NVF4, 1, 128, 96, 4, TCP_T_UE4M3, 0 },	/* 4 blocks, B 3 columns */
	{ TCP_KIND_MXF4NVF4, 2, 256, 128, 2, TCP_T_UE8M0, 0 },	/* pair: A per CTA, all of B in each */
	{ TCP_KIND_MXF8F6F4, 2, 128, 128, 1, TCP_T_UE8M0, 0 },	/* 2x2 data path: B at lanes +64 */
	{ TCP_KIND_MXF4NVF4, 1, 128, 256, 4, TCP_T_UE4M3, 96 },	/* K = 96 block16: 6 blocks, 2 words */
	{ TCP_KIND_MXF4NVF4, 1, 128, 64, 4, TCP_T_UE8M0, 96 },	/* ... B's word 1 at column 4 of 6 */
	{ TCP_KIND_MXF4NVF4, 2, 256, 192, 4, TCP_T_UE4M3, 96 },	/* ... pair, B's word stride 8 */
	{ TCP_KIND_MXF4NVF4, 2, 128, 128, 4, TCP_T_UE4M3, 96 },	/* ... 2x2 data path */
	{ TCP_KIND_MXF4NVF4, 1, 128, 128, 2, TCP_T_UE8M0, 96 },	/* K = 96 block32: 3 blocks, 1 word */
};

/* The accumulator a device would produce from these images (each CTA of a
 * pair computes its own rows of D with the scales in its own TMEM), checked
 * against the reference. */
static long sf_check_images(tcp_tc_mma_data_t *d, uint32_t *const img[2][2], const unsigned cols[2], char *why,
			    size_t len)
{
	const tcp_mma_cfg_t *c = &d->cfg;
	uint32_t *sfa = calloc((size_t)c->m * d->nblk, sizeof(uint32_t));
	uint32_t *sfb = calloc((size_t)c->n * d->nblk, sizeof(uint32_t));
	double *dref[2] = { calloc((size_t)c->m * c->n, sizeof(double)), calloc((size_t)c->m * c->n, sizeof(double)) };
	unsigned rows_a = tcp_tmem_sf_rows(c->cta_group, c->m, c->n, 0), acols = dump_cols(c);
	uint32_t *t = dump_new(c, acols);
	long bad = -1;
	assert_true(sfa && sfb && dref[0] && dref[1]);
	for (unsigned cta = 0; cta < (unsigned)c->cta_group; cta++)
		if (tcp_tc_sf_readback(d, cta, 0, img[cta][0], cols[0], sfa + (size_t)cta * rows_a * d->nblk, why, len))
			goto out;
	for (unsigned cta = 0; cta < (unsigned)c->cta_group; cta++) {
		if (tcp_tc_sf_readback(d, cta, 1, img[cta][1], cols[1], sfb, why, len))
			goto out;
		tcp_tc_ref_with_sf(d, sfa, sfb, dref[cta]);
	}
	tcp_acc_cfg_t ac = { c->cta_group, c->m, c->n, 0, 0, 0 };
	for (unsigned m = 0; m < c->m; m++)
		for (unsigned n = 0; n < c->n; n++) {
			tcp_tmem_cell_t cell = { 0 };
			assert_int_equal(tcp_acc_map(&ac, m, n, &cell), 0);
			float f = (float)dref[cell.cta][(size_t)m * c->n + n];
			memcpy(&t[((size_t)cell.cta * 128 + cell.lane) * acols + cell.col], &f, sizeof(f));
		}
	bad = tcp_tc_check_tmem(d, t, acols, 0, why, len);
out:
	free(t);
	free(sfa);
	free(sfb);
	free(dref[0]);
	free(dref[1]);
	return bad;
}

static void test_sf_layout(void **st)
{
	(void)st;
	for (size_t i = 0; i < sizeof(sf_cases) / sizeof(sf_cases[0]); i++) {
		tcp_tc_mma_data_t d;
		char why[512];
		tcp_mma_cfg_t c = cfg_of(sf_cases[i].kind, TCP_T_E2M1, TCP_T_E2M1, sf_cases[i].cg, sf_cases[i].m,
					 sf_cases[i].n);
		if (c.kind == TCP_KIND_MXF8F6F4)
			c.a = c.b = TCP_T_E4M3;
		c.scale_vec = sf_cases[i].sv;
		c.sf = sf_cases[i].sf;
		c.k = sf_cases[i].k;
		if (tcp_tc_mma_data_build(&d, &c, TCP_SW_NONE, next_seed(), TCP_TC_FILL_RANDOM, why, sizeof(why)))
			fail_msg("sf case %zu: %s", i, why);
		unsigned cols[2] = { tcp_tc_sf_region_cols(&c, 0), tcp_tc_sf_region_cols(&c, 1) };
		unsigned words = tcp_tc_sf_words(&c), n128 = (c.n + 127) / 128 * 128;
		assert_int_equal(words, d.nblk > 4 ? 2 : 1);
		if (c.cta_group == 2 && c.m == 128)
			assert_int_equal(cols[1], c.n / 64 + (words - 1) * n128 / 64);
		else
			assert_int_equal(cols[1], (c.n + 31) / 32 + (words - 1) * n128 / 32);
		assert_int_equal(cols[0], (c.m / c.cta_group / 32) * words);
		uint32_t *img[2][2] = { { NULL, NULL }, { NULL, NULL } };
		for (int cta = 0; cta < c.cta_group; cta++)
			for (int op = 0; op < 2; op++) {
				img[cta][op] = calloc((size_t)cols[op] * 128, sizeof(uint32_t));
				assert_non_null(img[cta][op]);
				tcp_tc_sf_image(&d, (unsigned)cta, op, img[cta][op], cols[op]);
			}
		/* As laid out: exact. */
		if (sf_check_images(&d, img, cols, why, sizeof(why)) != 0)
			fail_msg("sf case %zu: the model's own layout fails: %s", i, why);
		/* One corrupted scale (another valid code): caught; with two words
		 * per row, one in each word (block 5: the second word's). */
		for (int pass = 0; pass < (words > 1 ? 2 : 1); pass++) {
			int cta = (int)(next_seed() % (uint64_t)c.cta_group), op = (int)(next_seed() % 2);
			unsigned row = (unsigned)(next_seed() % tcp_tmem_sf_rows(c.cta_group, c.m, c.n, op));
			unsigned blk = pass ? d.nblk - 1 : (unsigned)(next_seed() % d.nblk), lane, col, by = 8 * (blk % 4);
			assert_int_equal(tcp_tc_sf_cell(&d, op, row, blk, 0, &lane, &col), 0);
			uint32_t keep[4] = { 0 };
			for (unsigned rep = 0; !tcp_tc_sf_cell(&d, op, row, blk, rep, &lane, &col); rep++) {
				uint32_t *w = &img[cta][op][col * 128 + lane];
				keep[rep] = *w;
				uint32_t b = (*w >> by) & 0xff, nb = c.sf == TCP_T_UE4M3 ? (b == 56 ? 57 : 56) : (b == 127 ? 128 : 127);
				*w = (*w & ~(0xffu << by)) | (nb << by);
			}
			if (sf_check_images(&d, img, cols, why, sizeof(why)) <= 0)
				fail_msg("sf case %zu: a corrupted scale (cta %d %s row %u block %u) passes", i, cta,
					 op ? "B" : "A", row, blk);
			for (unsigned rep = 0; !tcp_tc_sf_cell(&d, op, row, blk, rep, &lane, &col); rep++)
				img[cta][op][col * 128 + lane] = keep[rep];
			/* A corrupted replica alone: the readback names it. */
			assert_int_equal(tcp_tc_sf_cell(&d, op, row, blk, 1, &lane, &col), 0);
			img[cta][op][col * 128 + lane] ^= 0x1;
			assert_int_equal(sf_check_images(&d, img, cols, why, sizeof(why)), -1);
			assert_non_null(strstr(why, "replicas"));
			img[cta][op][col * 128 + lane] ^= 0x1;
		}
		if (words > 1) {
			/* The word stride matters: a device that stepped one column per
			 * word would read rows 0-31's word 1 from column 1 (rows
			 * 32-63's word 0).  Exchanging columns 1 and `stride` of A's
			 * region (rows 0-31's word 1) is caught, and undone passes. */
			unsigned stride = tcp_tmem_sf_word_stride(c.cta_group, c.m, c.n, 0);
			uint32_t *a0 = img[0][0];
			assert_true(stride > 1);
			for (unsigned l = 0; l < 128; l++) {
				uint32_t x = a0[1 * 128 + l];
				a0[1 * 128 + l] = a0[stride * 128 + l];
				a0[stride * 128 + l] = x;
			}
			if (sf_check_images(&d, img, cols, why, sizeof(why)) <= 0)
				fail_msg("sf case %zu: A's word 1 read from the adjacent column passes", i);
			for (unsigned l = 0; l < 128; l++) {
				uint32_t x = a0[1 * 128 + l];
				a0[1 * 128 + l] = a0[stride * 128 + l];
				a0[stride * 128 + l] = x;
			}
			assert_int_equal(sf_check_images(&d, img, cols, why, sizeof(why)), 0);
		}
		/* A wrong layout: B's 32-row groups in reverse column order (every
		 * replica consistent, so only the values can tell). */
		uint32_t *rev = calloc((size_t)cols[1] * 128, sizeof(uint32_t));
		assert_non_null(rev);
		for (int ct = 0; ct < c.cta_group; ct++) {
			for (unsigned cc = 0; cc < cols[1]; cc++)
				memcpy(rev + (size_t)cc * 128, img[ct][1] + (size_t)(cols[1] - 1 - cc) * 128, 128 * sizeof(uint32_t));
			memcpy(img[ct][1], rev, (size_t)cols[1] * 128 * sizeof(uint32_t));
		}
		free(rev);
		if (sf_check_images(&d, img, cols, why, sizeof(why)) <= 0)
			fail_msg("sf case %zu: B's scale columns reversed pass validation", i);
		for (int ct = 0; ct < c.cta_group; ct++)
			for (int o = 0; o < 2; o++)
				free(img[ct][o]);
		tcp_tc_mma_data_free(&d);
	}
}

/* A in TMEM (ab = ts): 8 columns for every kind, fp4/fp6 under (mx)f8f6f4
 * staged through tcgen05.cp's 8-bit-container forms. */
static void test_a_in_tmem(void **st)
{
	(void)st;
	static const struct { tcp_kind_t k; tcp_type_t a; unsigned fmt; } t[] = {
		{ TCP_KIND_F16, TCP_T_BF16, 0 }, { TCP_KIND_TF32, TCP_T_TF32, 0 }, { TCP_KIND_F8F6F4, TCP_T_E4M3, 0 },
		{ TCP_KIND_F8F6F4, TCP_T_E2M3, 1 }, { TCP_KIND_F8F6F4, TCP_T_E3M2, 1 }, { TCP_KIND_F8F6F4, TCP_T_E2M1, 2 },
		{ TCP_KIND_MXF8F6F4, TCP_T_E2M1, 2 }, { TCP_KIND_I8, TCP_T_S8, 0 }, { TCP_KIND_MXF4, TCP_T_E2M1, 0 },
		{ TCP_KIND_MXF4NVF4, TCP_T_E2M1, 0 },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		tcp_mma_cfg_t c = cfg_of(t[i].k, t[i].a, t[i].a, 1, 128, 64);
		assert_int_equal(tcp_tc_a_tmem_cols(&c), 8);
		assert_int_equal(tcp_tc_a_cp_fmt(&c), t[i].fmt);
	}
}

/* Pipeline depth, issue-bound mark, the throughput loop's size. */
static void test_tput_helpers(void **st)
{
	(void)st;
	assert_true(tcp_tc_pipeline_depth(200, 64) == 3.125);	/* unrounded: write-ups quote 4 */
	assert_true(tcp_tc_pipeline_depth(128, 64) == 2);
	assert_true(fabs(tcp_tc_pipeline_depth(129, 64) - 2.015625) < 1e-12);
	assert_true(isnan(tcp_tc_pipeline_depth(0, 64)) && isnan(tcp_tc_pipeline_depth(100, NAN)));
	/* issue-bound against the issue cost: II within 25% of it */
	assert_int_equal(tcp_tc_issue_bound(16, 20), 1);
	assert_int_equal(tcp_tc_issue_bound(16, 20.1), 0);
	assert_int_equal(tcp_tc_issue_bound(4, 128), 0);
	assert_int_equal(tcp_tc_issue_bound(5, 0), -1);
	assert_int_equal(tcp_tc_issue_bound(NAN, 20), -1);
	/* >= 2^20 cycles at peak: f16 M=128 N=256 is 128 cycles per MMA. */
	tcp_mma_cfg_t c = cfg_of(TCP_KIND_F16, TCP_T_BF16, TCP_T_BF16, 1, 128, 256);
	assert_int_equal(tcp_tc_tput_iters(&c, 1048576.0, 0), 8192);
	c.n = 32;
	assert_int_equal(tcp_tc_tput_iters(&c, 1048576.0, 0), 65536);
	c = cfg_of(TCP_KIND_F16, TCP_T_BF16, TCP_T_BF16, 2, 256, 256);	/* pair: 2 SMs */
	assert_int_equal(tcp_tc_tput_iters(&c, 1048576.0, 0), 8192);
	c = cfg_of(TCP_KIND_TF32, TCP_T_TF32, TCP_T_TF32, 1, 64, 8);
	assert_int_equal(tcp_tc_tput_iters(&c, 1048576.0, 0), TCP_TC_TPUT_MAX_MMAS);
	c = cfg_of(TCP_KIND_F16, TCP_T_BF16, TCP_T_BF16, 1, 128, 256);
	assert_int_equal(tcp_tc_tput_iters(&c, 1000.0, 0), 2048);
	for (int k = 1; k <= 4096; k *= 4) {
		int n = tcp_tc_tput_iters(&c, 1048576.0, k);
		assert_true(n % k == 0 && n % 2 == 0 && n >= 8192);
	}
}

/* The II fit recovers a + b/D from exact and from noisy chains. */
static void test_ii_fit(void **st)
{
	(void)st;
	double d[7], y[7], a, b, dsat;
	double ta = 64 + (double)(next_seed() % 128), tb = 50 + (double)(next_seed() % 400);
	for (int j = 0; j < 7; j++) {
		d[j] = (double)(1 << j);
		y[j] = ta + tb / d[j];
	}
	assert_int_equal(tcp_tc_fit_ii(d, y, 7, &a, &b, &dsat), 0);
	assert_true(fabs(a - ta) < 1e-9 * ta && fabs(b - tb) < 1e-9 * tb);
	assert_true(fabs(dsat - tb / (0.05 * ta)) < 1e-6 * dsat);
	/* 1% noise: within a few percent. */
	for (int j = 0; j < 7; j++)
		y[j] *= 1 + 0.01 * ((double)(next_seed() % 2001) / 1000.0 - 1.0);
	assert_int_equal(tcp_tc_fit_ii(d, y, 7, &a, &b, &dsat), 0);
	assert_true(fabs(a - ta) < 0.05 * ta);
	/* Flat curve: saturated at once. */
	for (int j = 0; j < 7; j++)
		y[j] = ta;
	assert_int_equal(tcp_tc_fit_ii(d, y, 7, &a, &b, &dsat), 0);
	assert_true(dsat == 1.0);
	/* Too little data, or nonsense. */
	assert_int_equal(tcp_tc_fit_ii(d, y, 1, &a, &b, &dsat), -1);
	assert_true(isnan(a));
	y[0] = NAN;
	y[1] = -5;
	for (int j = 2; j < 7; j++)
		y[j] = NAN;
	assert_int_equal(tcp_tc_fit_ii(d, y, 7, &a, &b, &dsat), -1);
}

/* The device status word: packing and the host reason. */
static void test_status_word(void **st)
{
	(void)st;
	static const char *const sites[] = { "mma done", "peer ready" };
	char why[256];
	assert_int_equal(tcp_tc_status_reason(0, sites, 2, why, sizeof(why)), 0);
	uint64_t w = tcp_tc_status_pack(TCP_TC_MBAR_TIMEOUT, 1, 77, 123456789ull);
	assert_int_equal(w & 0xff, TCP_TC_MBAR_TIMEOUT);
	assert_int_equal(tcp_tc_status_reason(w, sites, 2, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "mbarrier wait timed out"));
	assert_non_null(strstr(why, "peer ready"));
	assert_non_null(strstr(why, "CTA 77"));
	assert_non_null(strstr(why, "123456789"));
	/* Saturation: a huge CTA index and cycle count do not wrap into other fields. */
	w = tcp_tc_status_pack(TCP_TC_ALLOC_TIMEOUT, 0, 1u << 20, 1ull << 40);
	assert_int_equal(w & 0xff, TCP_TC_ALLOC_TIMEOUT);
	assert_int_equal((w >> 16) & 0xffff, 0xffff);
	assert_int_equal(w >> 32, 0xffffffffull);
	assert_int_equal(tcp_tc_status_reason(w, NULL, 0, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "alloc"));
}

int main(void)
{
	const char *env = getenv("TCP_TEST_SEED");
	seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
	printf("test-tc-check: seed %llu (TCP_TEST_SEED to replay)\n", (unsigned long long)seed);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_correct_dump_passes),
		cmocka_unit_test(test_corrupted_cell_caught),
		cmocka_unit_test(test_wrong_layout_caught),
		cmocka_unit_test(test_legality_and_flop),
		cmocka_unit_test(test_scales_applied),
		cmocka_unit_test(test_sf_layout),
		cmocka_unit_test(test_a_in_tmem),
		cmocka_unit_test(test_tput_helpers),
		cmocka_unit_test(test_ii_fit),
		cmocka_unit_test(test_status_word),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
