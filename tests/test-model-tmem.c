/*
 * test-model-tmem.c
 *	model/tmem.h and model/tmem-plan.h: accumulator layouts at their corner
 *	points and as full bijections into the allocation, tcgen05.ld/st maps,
 *	and the budget planner against the seed figures.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/tmem-plan.h"
#include "model/tmem.h"

static tcp_tmem_cell_t at(int cg, unsigned m, unsigned n, unsigned ws, unsigned sparse, unsigned a,
			  unsigned mm, unsigned nn)
{
	tcp_acc_cfg_t c = { cg, m, n, ws, sparse, a };
	tcp_tmem_cell_t o = { 99, 999, 999 };

	assert_int_equal(tcp_acc_map(&c, mm, nn, &o), 0);
	return o;
}

#define CELL(o, want_cta, want_lane, want_col)		\
	do {							\
		tcp_tmem_cell_t o_ = (o);			\
		assert_int_equal(o_.cta, want_cta);		\
		assert_int_equal(o_.lane, want_lane);		\
		assert_int_equal(o_.col, want_col);		\
	} while (0)

static void test_tmem_addr(void **state)
{
	(void)state;
	assert_int_equal(tcp_tmem_addr(0, 0), 0);
	assert_int_equal(tcp_tmem_addr(96, 17), (96u << 16) | 17u);
	assert_int_equal(tcp_tmem_lane(tcp_tmem_addr(127, 511)), 127);
	assert_int_equal(tcp_tmem_col(tcp_tmem_addr(127, 511)), 511);
	assert_int_equal(tcp_tmem_alloc_cols(1), 32);
	assert_int_equal(tcp_tmem_alloc_cols(33), 64);
	assert_int_equal(tcp_tmem_alloc_cols(256), 256);
	assert_int_equal(tcp_tmem_alloc_cols(257), 512);
	assert_int_equal(tcp_tmem_alloc_cols(513), 0);
}

/* Corner points of every layout (seed text: layouts F and B; PTX data-path layouts). */
static void test_acc_corners(void **state)
{
	(void)state;
	/* D: cta_group::1, M = 128 */
	CELL(at(1, 128, 256, 0, 0, 0, 0, 0), 0, 0, 0);
	CELL(at(1, 128, 256, 0, 0, 0, 127, 255), 0, 127, 255);
	/* F, alignment 0: rows 0-15 -> lanes 0-15, 16-31 -> 32-47, 48-63 -> 96-111 */
	CELL(at(1, 64, 8, 0, 0, 0, 0, 0), 0, 0, 0);
	CELL(at(1, 64, 8, 0, 0, 0, 15, 7), 0, 15, 7);
	CELL(at(1, 64, 8, 0, 0, 0, 16, 0), 0, 32, 0);
	CELL(at(1, 64, 8, 0, 0, 0, 63, 0), 0, 111, 0);
	/* F, alignment 16: the complementary lanes */
	CELL(at(1, 64, 8, 0, 0, 16, 0, 0), 0, 16, 0);
	CELL(at(1, 64, 8, 0, 0, 16, 63, 7), 0, 127, 7);
	/* A: cta_group::2, M = 256: even CTA rows 0-127, odd 128-255 */
	CELL(at(2, 256, 64, 0, 0, 0, 127, 63), 0, 127, 63);
	CELL(at(2, 256, 64, 0, 0, 0, 128, 0), 1, 0, 0);
	CELL(at(2, 256, 64, 0, 0, 0, 255, 63), 1, 127, 63);
	/* B: the seed example, N = 16: C[10,3] even CTA lane 10; C[10,11] even CTA lane 74 */
	CELL(at(2, 128, 16, 0, 0, 0, 10, 3), 0, 10, 3);
	CELL(at(2, 128, 16, 0, 0, 0, 10, 11), 0, 74, 3);
	CELL(at(2, 128, 16, 0, 0, 0, 64, 0), 1, 0, 0);
	CELL(at(2, 128, 16, 0, 0, 0, 127, 15), 1, 127, 7);
	CELL(at(2, 128, 16, 0, 0, 0, 63, 8), 0, 127, 0);
	/* C: sparse A, rows as layout F per CTA */
	CELL(at(2, 128, 32, 0, 1, 0, 16, 0), 0, 32, 0);
	CELL(at(2, 128, 32, 0, 1, 0, 64, 31), 1, 0, 31);
	/* .ws: M = 128 (D), 64 (E), 32 (G) */
	CELL(at(1, 128, 64, 1, 0, 0, 127, 63), 0, 127, 63);
	CELL(at(1, 64, 64, 1, 0, 0, 0, 32), 0, 64, 0);
	CELL(at(1, 64, 64, 1, 0, 0, 63, 31), 0, 63, 31);
	CELL(at(1, 32, 64, 1, 0, 0, 0, 16), 0, 32, 0);
	CELL(at(1, 32, 64, 1, 0, 0, 31, 63), 0, 127, 15);
	/* out of the tile, or no layout */
	{
		tcp_acc_cfg_t c = { 1, 128, 64, 0, 0, 0 };
		tcp_tmem_cell_t o;

		assert_int_equal(tcp_acc_map(&c, 128, 0, &o), -1);
		assert_int_equal(tcp_acc_map(&c, 0, 64, &o), -1);
		c.m = 256;
		assert_int_equal(tcp_acc_map(&c, 0, 0, &o), -1);
		c.cta_group = 2;
		c.m = 64;
		assert_int_equal(tcp_acc_layout(&c), 0);
	}
}

/* Every accumulator element lands on a distinct cell inside the allocation. */
static void check_bijection(const tcp_acc_cfg_t *c)
{
	static uint8_t used[2][TCP_TMEM_LANES][TCP_TMEM_COLS];
	unsigned cols = tcp_acc_cols(c), alloc = tcp_tmem_alloc_cols(cols);

	assert_true(cols > 0 && alloc >= cols && alloc <= TCP_TMEM_COLS);
	memset(used, 0, sizeof(used));
	for (unsigned m = 0; m < c->m; m++)
		for (unsigned n = 0; n < c->n; n++) {
			tcp_tmem_cell_t o = { 0, 0, 0 };

			assert_int_equal(tcp_acc_map(c, m, n, &o), 0);
			assert_true(o.cta < (unsigned)c->cta_group);
			assert_true(o.lane < TCP_TMEM_LANES);
			assert_true(o.col < cols);
			assert_int_equal(used[o.cta][o.lane][o.col], 0);
			used[o.cta][o.lane][o.col] = 1;
		}
}

static void test_acc_bijections(void **state)
{
	long configs = 0;

	(void)state;
	for (unsigned n = 8; n <= 256; n += 8) {
		for (unsigned a = 0; a <= 16; a += 16) {
			tcp_acc_cfg_t f = { 1, 64, n, 0, 0, a };

			check_bijection(&f);
			configs++;
		}
		tcp_acc_cfg_t d = { 1, 128, n, 0, 0, 0 };

		check_bijection(&d);
		configs++;
		if (n % 16)
			continue;
		for (unsigned sp = 0; sp <= 1; sp++) {
			tcp_acc_cfg_t a2 = { 2, 256, n, 0, sp, 0 }, b2 = { 2, 128, n, 0, sp, 0 };

			check_bijection(&a2);
			check_bijection(&b2);
			configs += 2;
		}
	}
	for (unsigned m = 32; m <= 128; m *= 2)
		for (unsigned n = 64; n <= 256; n *= 2) {
			tcp_acc_cfg_t w = { 1, m, n, 1, 0, 0 };

			check_bijection(&w);
			configs++;
		}
	assert_true(configs > 150);
	/* layout F: alignments 0 and 16 use disjoint lanes */
	for (unsigned m = 0; m < 64; m++)
		for (unsigned m2 = 0; m2 < 64; m2++)
			assert_int_not_equal(at(1, 64, 8, 0, 0, 0, m, 0).lane, at(1, 64, 8, 0, 0, 16, m2, 0).lane);
}

/* tcgen05.ld/st: every (thread, register) of a warp hits a distinct cell of the access footprint. */
static void test_ld_maps(void **state)
{
	static uint8_t used[32][1024];
	unsigned lane = 0, col = 0;

	(void)state;
	for (int s = 0; s < TCP_LD_SHAPE_COUNT; s++) {
		for (unsigned num = 1; num <= 128; num *= 2) {
			unsigned nr = tcp_ld_regs((tcp_ld_shape_t)s, num), half = num;
			unsigned lanes = tcp_ld_lanes((tcp_ld_shape_t)s);
			unsigned cols = tcp_ld_cols((tcp_ld_shape_t)s, num) * (s == TCP_LD_16X32BX2 ? 2 : 1);

			if (!nr) {
				/* only when num x base registers exceeds 128 */
				assert_true(tcp_ld_base_regs((tcp_ld_shape_t)s) * num > 128);
				continue;
			}
			/* 32 threads x nr registers fill the lanes x cols footprint exactly */
			assert_int_equal(32 * nr, lanes * cols);
			memset(used, 0, sizeof(used));
			for (unsigned t = 0; t < 32; t++)
				for (unsigned r = 0; r < nr; r++) {
					assert_int_equal(tcp_ld_map((tcp_ld_shape_t)s, num, half, t, r, &lane, &col), 0);
					assert_true(lane < lanes && col < cols);
					assert_int_equal(used[lane][col], 0);
					used[lane][col] = 1;
				}
		}
	}
	/* the facts: 32x32b thread t = lane t, register j = column j */
	assert_int_equal(tcp_ld_map(TCP_LD_32X32B, 64, 0, 17, 40, &lane, &col), 0);
	assert_true(lane == 17 && col == 40);
	/* 16x256b: r0, r1 at lane t/4, columns 2(t%4), 2(t%4)+1; r2, r3 at lane t/4 + 8 */
	assert_int_equal(tcp_ld_map(TCP_LD_16X256B, 1, 0, 13, 0, &lane, &col), 0);
	assert_true(lane == 3 && col == 2);
	assert_int_equal(tcp_ld_map(TCP_LD_16X256B, 1, 0, 13, 1, &lane, &col), 0);
	assert_true(lane == 3 && col == 3);
	assert_int_equal(tcp_ld_map(TCP_LD_16X256B, 1, 0, 13, 3, &lane, &col), 0);
	assert_true(lane == 11 && col == 3);
	/* limits: 128 registers per thread, thread < 32 */
	assert_int_equal(tcp_ld_regs(TCP_LD_16X256B, 32), 128);
	assert_int_equal(tcp_ld_regs(TCP_LD_16X256B, 64), 0);
	assert_int_equal(tcp_ld_regs(TCP_LD_32X32B, 3), 0);
	assert_int_equal(tcp_ld_map(TCP_LD_32X32B, 1, 0, 32, 0, &lane, &col), -1);
}

/*
 * Cells of one packed (.pack::16b / .unpack::16b) access with half-split
 * offset `half`: register r of thread t holds the two 16-bit columns 2c and
 * 2c + 1 where c is its unpacked column; 16x32bx2's second half (t >= 16)
 * starts at `half`.  Returns 1 when two (thread, register, 16-bit part)
 * land on the same cell or a cell lies outside [0, footprint).
 */
static int packed_overlaps(tcp_ld_shape_t s, unsigned num, unsigned half, unsigned footprint)
{
	static uint8_t used[32][2048];
	unsigned nr = tcp_ld_regs(s, num), lane = 0, col = 0;

	memset(used, 0, sizeof(used));
	for (unsigned t = 0; t < 32; t++)
		for (unsigned r = 0; r < nr; r++)
			for (unsigned part = 0; part < 2; part++) {
				assert_int_equal(tcp_ld_map(s, num, 0, t, r, &lane, &col), 0);
				unsigned c = 2 * col + part + (s == TCP_LD_16X32BX2 && t >= 16 ? half : 0);
				if (c >= footprint || c >= 2048 || used[lane][c])
					return 1;
				used[lane][c] = 1;
			}
	return 0;
}

/* Defect 16.3: with pack the footprint doubles and 16x32bx2's halves sit 2 x num apart. */
static void test_ld_pack_footprint(void **state)
{
	(void)state;
	for (int s = 0; s < TCP_LD_SHAPE_COUNT; s++)
		for (unsigned num = 1; num <= 128; num *= 2) {
			tcp_ld_shape_t sh = (tcp_ld_shape_t)s;
			if (!tcp_ld_regs(sh, num))
				continue;
			unsigned lanes = tcp_ld_lanes(sh), fp = tcp_ld_footprint(sh, num, 1);
			/* every cell of the packed footprint is touched exactly once */
			assert_int_equal(packed_overlaps(sh, num, tcp_ld_half_offset(num, 1), fp), 0);
			assert_int_equal(32u * tcp_ld_regs(sh, num) * 2u, lanes * fp);
			/* twice the unpacked footprint, which is the register count's */
			assert_int_equal(fp, 2 * tcp_ld_footprint(sh, num, 0));
			assert_int_equal(32u * tcp_ld_regs(sh, num), lanes * tcp_ld_footprint(sh, num, 0));
			if (sh == TCP_LD_16X32BX2) {
				/* the old offset (num) makes the packed halves overlap */
				assert_int_equal(packed_overlaps(sh, num, num, fp), 1);
				assert_int_equal(tcp_ld_half_offset(num, 0), num);
				assert_int_equal(tcp_ld_half_offset(num, 1), 2 * num);
			}
		}
	/* CUTLASS copy_sm100.hpp: 16x32bx2.x1.pack::16b passes 2, .x4.pack::16b 8 */
	assert_int_equal(tcp_ld_half_offset(1, 1), 2);
	assert_int_equal(tcp_ld_half_offset(4, 1), 8);
	/* the largest packed shapes of the shipped sweeps fill exactly 512 columns */
	assert_int_equal(tcp_ld_footprint(TCP_LD_16X32BX2, 128, 1), 512);
	assert_int_equal(tcp_ld_footprint(TCP_LD_16X256B, 32, 1), 512);
	assert_int_equal(tcp_ld_footprint(TCP_LD_16X128B, 64, 1), 512);
	assert_int_equal(tcp_ld_footprint(TCP_LD_32X32B, 128, 1), 256);
	assert_int_equal(tcp_ld_footprint(TCP_LD_SHAPE_COUNT, 1, 0), 0);
}

static tcp_tmem_plan_t plan(unsigned m, unsigned n, unsigned stages)
{
	tcp_tmem_req_t r;
	tcp_tmem_plan_t p;
	char why[128];

	tcp_tmem_req_default(&r, m, n);
	r.stages = stages;
	assert_int_equal(tcp_tmem_plan(&r, &p, why, sizeof(why)), 0);
	return p;
}

/* Seed: a 128x256 fp32 accumulator takes 256 columns; double-buffered all 512. */
static void test_plan_seed_figures(void **state)
{
	tcp_tmem_plan_t p;
	tcp_tmem_req_t r;
	char why[128];

	(void)state;
	p = plan(128, 256, 1);
	assert_int_equal(p.total, 256);
	assert_int_equal(p.alloc, 256);
	assert_true(p.fits);
	assert_int_equal(p.ctas, 2);
	p = plan(128, 256, 2);
	assert_int_equal(p.total, 512);
	assert_int_equal(p.alloc, 512);
	assert_true(p.fits);
	assert_int_equal(p.ctas, 1);
	p = plan(128, 256, 3);
	assert_int_equal(p.total, 768);
	assert_false(p.fits);
	assert_int_equal(p.ctas, 0);
	/* 192 columns allocate 256; 128x64 leaves room for 8 CTAs */
	p = plan(128, 192, 1);
	assert_int_equal(p.total, 192);
	assert_int_equal(p.alloc, 256);
	p = plan(128, 64, 1);
	assert_int_equal(p.ctas, 8);
	/* cta_group::2: M = 256 -> each CTA N columns; M = 128 (layout B) -> N / 2 */
	p = plan(256, 256, 2);
	assert_int_equal(p.total, 512);
	tcp_tmem_req_default(&r, 128, 256);
	r.cta_group = 2;
	assert_int_equal(tcp_tmem_plan(&r, &p, why, sizeof(why)), 0);
	assert_int_equal(p.total, 128);
	/* block scales: 128x256, block 32, 128 K per buffer -> 4 scale bytes per row:
	 * A 128 rows = 4 replicas x 1 column; B 256 rows = 8 x 1; each rounded to 32 */
	tcp_tmem_req_default(&r, 128, 256);
	r.sf_block = 32;
	r.sf_k = 128;
	assert_int_equal(tcp_tmem_plan(&r, &p, why, sizeof(why)), 0);
	assert_int_equal(p.nparts, 3);
	assert_int_equal(p.part[1].cols, 4);
	assert_int_equal(p.part[2].cols, 8);
	assert_int_equal(p.total, 256 + 32 + 32);
	assert_int_equal(p.alloc, 512);
	/* A in TMEM: 64 bf16 of K = 32 columns per buffer */
	tcp_tmem_req_default(&r, 128, 128);
	r.a_tmem = 1;
	r.a_k = 64;
	r.a_stages = 2;
	assert_int_equal(tcp_tmem_plan(&r, &p, why, sizeof(why)), 0);
	assert_int_equal(p.part[1].cols, 64);
	assert_int_equal(p.total, 192);
	/* bad requests */
	tcp_tmem_req_default(&r, 96, 128);
	assert_int_equal(tcp_tmem_plan(&r, &p, why, sizeof(why)), -1);
	tcp_tmem_req_default(&r, 128, 260);
	assert_int_equal(tcp_tmem_plan(&r, &p, why, sizeof(why)), -1);
	tcp_tmem_req_default(&r, 128, 128);
	r.stages = 0;
	assert_int_equal(tcp_tmem_plan(&r, &p, why, sizeof(why)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tmem_addr),
		cmocka_unit_test(test_acc_corners),
		cmocka_unit_test(test_acc_bijections),
		cmocka_unit_test(test_ld_maps),
		cmocka_unit_test(test_ld_pack_footprint),
		cmocka_unit_test(test_plan_seed_figures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
