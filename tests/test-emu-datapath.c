/*
 * test-emu-datapath.c
 *	The tcgen05 emulation's TMEM data paths (probes/emu/emu-datapath.h)
 *	against their independent sources:
 *	  - tcgen05.st then tcgen05.ld of random registers returns them, for
 *	    every shape, .num and .pack::16b, touching exactly the cells the
 *	    form covers and no other;
 *	  - every register bit of every ld/st form lands on the TMEM bit that
 *	    CUTLASS's Copy_Traits<SM100_TMEM_LOAD_*> (and the identical
 *	    STORE_* traits) give, cell by cell;
 *	  - the same mapping and footprint as model/tmem.h tcp_ld_map,
 *	    tcp_ld_footprint, tcp_ld_lanes and tcp_ld_half_offset (the probes'
 *	    side);
 *	  - tcgen05.ld.red's value and reduction (f32 min/max with .abs / .NaN,
 *	    u32, s32) against a reference written from the PTX rules;
 *	  - tcgen05.cp of random source tiles at random LBO/SBO lands where
 *	    CUTLASS's Copy_Traits<SM100_UTCCP_*> say, for every shape and
 *	    source format, and nowhere else;
 *	  - cp of tiles the model builds (model/smem-layout.h, every swizzle,
 *	    8-bit and padded fp4/fp6) puts A where the probes' tc_stage_a
 *	    expects it, and the model's scale-factor placement is what the
 *	    warpx4 / warpx2::01_23 copies write;
 *	  - decompression of random packed data, bit by bit;
 *	  - out-of-range addresses and forms are faults that write nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "model/smem-layout.h"
#include "model/tmem-plan.h"
#include "model/tmem.h"
#include "probes/emu/emu-datapath.h"
#include "test-util.h"

#define NCELLS (TCP_EMU_LANES * TCP_EMU_COLS)

static uint32_t *tm, *tm0;	/* TMEM under test and its copy before the operation */

static int setup(void **st)
{
	(void)st;
	tm = malloc(NCELLS * sizeof(uint32_t));
	tm0 = malloc(NCELLS * sizeof(uint32_t));
	return tm && tm0 ? 0 : -1;
}

static int teardown(void **st)
{
	(void)st;
	free(tm);
	free(tm0);
	return 0;
}

static void fill_random(uint32_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint32_t)next_u64();
}

static void snapshot(void)
{
	fill_random(tm, NCELLS);
	memcpy(tm0, tm, NCELLS * sizeof(uint32_t));
}

static int tmem_same(void)
{
	return !memcmp(tm, tm0, NCELLS * sizeof(uint32_t));
}

static const unsigned nums[] = { 1, 2, 4, 8, 16, 32, 64, 128 };

/* A random legal ld/st address for the form: a lane quarter (and for the
 * 16-lane shapes its first or second half), a column with room. */
static uint32_t rand_taddr(unsigned shape, unsigned num, unsigned pack, unsigned half)
{
	unsigned lanes, cols, lane, col;

	tcp_emu_ldst_extent(shape, num, pack, half, &lanes, &cols);
	lane = 32 * (unsigned)(next_u64() % 4) + (lanes == 16 ? 16 * (unsigned)(next_u64() % 2) : 0);
	col = (unsigned)(next_u64() % (TCP_EMU_COLS - cols + 1));
	return (uint32_t)lane << 16 | col;
}

/* The 16x32bx2 immediate the probes pass (CUTLASS's, model/tmem.h). */
static unsigned std_half(unsigned shape, unsigned num, unsigned pack)
{
	return shape == TCP_EMU_LD_16X32BX2 ? (pack ? 2 * num : num) : 0;
}

/*
 * Round trip: 32 threads store random registers, TMEM changes exactly in
 * the footprint (every covered cell, as often as the form has 16/32-bit
 * pieces), and a load returns the registers.  16x32bx2 also with an
 * immediate beyond the first half (a gap between the halves).
 */
static void test_ldst_roundtrip(void **st)
{
	(void)st;
	static uint32_t r[32][128], back[32][128];
	static unsigned char hit[NCELLS];

	for (unsigned shape = 0; shape < TCP_EMU_LD_NSHAPES; shape++)
		for (unsigned ni = 0; ni < 8; ni++)
			for (unsigned pack = 0; pack < 2; pack++)
				for (unsigned gap = 0; gap < (shape == TCP_EMU_LD_16X32BX2 ? 2u : 1u); gap++) {
					unsigned num = nums[ni], n = tcp_emu_ldst_regs(shape, num);
					unsigned half = std_half(shape, num, pack) + gap * (1 + (unsigned)(next_u64() % 7));
					unsigned lanes, cols, changed = 0, lane0, col0;
					uint32_t taddr;

					if (!n)
						continue;
					if (shape == TCP_EMU_LD_16X32BX2 && 2 * (pack ? 2 * num : num) + half > TCP_EMU_COLS)
						continue;
					taddr = rand_taddr(shape, num, pack, half);
					lane0 = taddr >> 16;
					col0 = taddr & 0xFFFF;
					snapshot();
					memset(hit, 0, sizeof(hit));
					for (unsigned t = 0; t < 32; t++) {
						fill_random(r[t], n);
						assert_int_equal(tcp_emu_st(tm, taddr, shape, num, pack, half, t, r[t]), 0);
						for (unsigned i = 0; i < n; i++)
							for (unsigned part = 0; part <= pack; part++) {
								unsigned l = 0, c = 0;

								assert_int_equal(tcp_emu_ldst_cell(shape, num, pack, half, t, i, part,
												   &l, &c), 0);
								hit[(lane0 + l) * TCP_EMU_COLS + col0 + c]++;
							}
					}
					tcp_emu_ldst_extent(shape, num, pack, half, &lanes, &cols);
					for (unsigned k = 0; k < NCELLS; k++) {
						unsigned l = k / TCP_EMU_COLS, c = k % TCP_EMU_COLS;
						int in = l >= lane0 && l < lane0 + lanes && c >= col0 && c < col0 + cols;

						if (hit[k] > 1)
							fail_msg("shape %u x%u pack %u: cell (%u, %u) written %u times", shape, num,
								 pack, l, c, hit[k]);
						if (hit[k] && !in)
							fail_msg("shape %u x%u pack %u: cell (%u, %u) outside the extent", shape,
								 num, pack, l, c);
						if (hit[k] && pack && tm[k] >> 16)
							fail_msg("shape %u x%u: unpacked cell (%u, %u) has upper bits 0x%04x", shape,
								 num, l, c, tm[k] >> 16);
						if (!hit[k] && tm[k] != tm0[k])
							fail_msg("shape %u x%u pack %u: cell (%u, %u) changed, not covered", shape,
								 num, pack, l, c);
						changed += hit[k];
					}
					assert_int_equal(changed, 32 * n * (pack + 1));
					/* the extent is tight: its first and last columns are covered */
					for (unsigned e = 0; e < 2; e++) {
						unsigned c = col0 + (e ? cols - 1 : 0), any = 0;

						for (unsigned l = lane0; l < lane0 + lanes; l++)
							any |= hit[l * TCP_EMU_COLS + c];
						assert_true(any || shape == TCP_EMU_LD_16X32BX2);
					}
					for (unsigned t = 0; t < 32; t++) {
						assert_int_equal(tcp_emu_ld(tm, taddr, shape, num, pack, half, t, back[t]), 0);
						for (unsigned i = 0; i < n; i++)
							if (back[t][i] != r[t][i])
								fail_msg("shape %u x%u pack %u half %u: thread %u reg %u stored "
									 "0x%08x loaded 0x%08x", shape, num, pack, half, t, i,
									 r[t][i], back[t][i]);
					}
				}
}

/*
 * CUTLASS copy_traits_sm100.hpp (nvidia-cutlass 4.2.0, lines 467-1713 for
 * SM100_TMEM_LOAD_*, 1738-2760 for SM100_TMEM_STORE_*, whose SrcLayout and
 * ValID equal the LOAD DstLayout and ValID for every form below), each
 * Copy_Traits<SM100_TMEM_LOAD_<dp>b<num>x[_16b]> flattened:
 *	shape, num, pack,
 *	DstLayout thread mode (modes, shapes, strides),
 *	DstLayout value mode (modes, shapes, strides),
 *	ValID (modes, shapes, strides; TMEM::DP_b = 2097152).
 * DstLayout maps (thread, value bit) to a logical bit; ValID maps the
 * logical bit to the TMEM offset lane x DP_b + bit in the row.  Printed
 * by flattening the CuTe layouts with the wheel's headers (host g++).
 * Shape codes: 0 32dp32b, 1 16dp64b, 2 16dp128b, 3 16dp256b, 4 16dp32b
 * (= 16x32bx2).
 */
struct cute_tmem {
	unsigned shape, num, pack;
	int nt; long ts[4], td[4];
	int nv; long vs[4], vd[4];
	int ni; long is[4], id[4];
};
#define CUTE_DP_B 2097152L

static const struct cute_tmem cute_tmem[] = {
	{ 0, 1, 0, 1, { 32 }, { 32 }, 1, { 32 }, { 1 }, 2, { 32, 32 }, { 1, 2097152 } }, /* 32dp32b1x */
	{ 0, 1, 1, 1, { 32 }, { 32 }, 1, { 32 }, { 1 }, 3, { 16, 2, 32 }, { 1, 32, 2097152 } }, /* 32dp32b1x_16b */
	{ 0, 2, 0, 1, { 32 }, { 64 }, 1, { 64 }, { 1 }, 2, { 64, 32 }, { 1, 2097152 } }, /* 32dp32b2x */
	{ 0, 2, 1, 1, { 32 }, { 64 }, 1, { 64 }, { 1 }, 3, { 16, 4, 32 }, { 1, 32, 2097152 } }, /* 32dp32b2x_16b */
	{ 0, 4, 0, 1, { 32 }, { 128 }, 1, { 128 }, { 1 }, 2, { 128, 32 }, { 1, 2097152 } }, /* 32dp32b4x */
	{ 0, 4, 1, 1, { 32 }, { 128 }, 1, { 128 }, { 1 }, 3, { 16, 8, 32 }, { 1, 32, 2097152 } }, /* 32dp32b4x_16b */
	{ 0, 8, 0, 1, { 32 }, { 256 }, 1, { 256 }, { 1 }, 2, { 256, 32 }, { 1, 2097152 } }, /* 32dp32b8x */
	{ 0, 8, 1, 1, { 32 }, { 256 }, 1, { 256 }, { 1 }, 3, { 16, 16, 32 }, { 1, 32, 2097152 } }, /* 32dp32b8x_16b */
	{ 0, 16, 0, 1, { 32 }, { 512 }, 1, { 512 }, { 1 }, 2, { 512, 32 }, { 1, 2097152 } }, /* 32dp32b16x */
	{ 0, 16, 1, 1, { 32 }, { 512 }, 1, { 512 }, { 1 }, 3, { 16, 32, 32 }, { 1, 32, 2097152 } }, /* 32dp32b16x_16b */
	{ 0, 32, 0, 1, { 32 }, { 1024 }, 1, { 1024 }, { 1 }, 2, { 1024, 32 }, { 1, 2097152 } }, /* 32dp32b32x */
	{ 0, 32, 1, 1, { 32 }, { 1024 }, 1, { 1024 }, { 1 }, 3, { 16, 64, 32 }, { 1, 32, 2097152 } }, /* 32dp32b32x_16b */
	{ 0, 64, 0, 1, { 32 }, { 2048 }, 1, { 2048 }, { 1 }, 2, { 2048, 32 }, { 1, 2097152 } }, /* 32dp32b64x */
	{ 0, 64, 1, 1, { 32 }, { 2048 }, 1, { 2048 }, { 1 }, 3, { 16, 128, 32 }, { 1, 32, 2097152 } }, /* 32dp32b64x_16b */
	{ 0, 128, 0, 1, { 32 }, { 4096 }, 1, { 4096 }, { 1 }, 2, { 4096, 32 }, { 1, 2097152 } }, /* 32dp32b128x */
	{ 0, 128, 1, 1, { 32 }, { 4096 }, 1, { 4096 }, { 1 }, 3, { 16, 256, 32 }, { 1, 32, 2097152 } }, /* 32dp32b128x_16b */
	{ 1, 1, 0, 3, { 2, 2, 8 }, { 512, 32, 64 }, 1, { 32 }, { 1 }, 2, { 64, 16 }, { 1, 2097152 } }, /* 16dp64b1x */
	{ 1, 1, 1, 3, { 2, 2, 8 }, { 512, 32, 64 }, 1, { 32 }, { 1 }, 3, { 16, 4, 16 }, { 1, 32, 2097152 } }, /* 16dp64b1x_16b */
	{ 1, 2, 0, 3, { 2, 2, 8 }, { 1024, 32, 128 }, 2, { 32, 2 }, { 1, 64 }, 2, { 128, 16 }, { 1, 2097152 } }, /* 16dp64b2x */
	{ 1, 2, 1, 3, { 2, 2, 8 }, { 1024, 32, 128 }, 2, { 32, 2 }, { 1, 64 }, 3, { 16, 8, 16 }, { 1, 32, 2097152 } }, /* 16dp64b2x_16b */
	{ 1, 4, 0, 3, { 2, 2, 8 }, { 2048, 32, 256 }, 2, { 32, 4 }, { 1, 64 }, 2, { 256, 16 }, { 1, 2097152 } }, /* 16dp64b4x */
	{ 1, 4, 1, 3, { 2, 2, 8 }, { 2048, 32, 256 }, 2, { 32, 4 }, { 1, 64 }, 3, { 16, 16, 16 }, { 1, 32, 2097152 } }, /* 16dp64b4x_16b */
	{ 1, 8, 0, 3, { 2, 2, 8 }, { 4096, 32, 512 }, 2, { 32, 8 }, { 1, 64 }, 2, { 512, 16 }, { 1, 2097152 } }, /* 16dp64b8x */
	{ 1, 8, 1, 3, { 2, 2, 8 }, { 4096, 32, 512 }, 2, { 32, 8 }, { 1, 64 }, 3, { 16, 32, 16 }, { 1, 32, 2097152 } }, /* 16dp64b8x_16b */
	{ 1, 16, 0, 3, { 2, 2, 8 }, { 8192, 32, 1024 }, 2, { 32, 16 }, { 1, 64 }, 2, { 1024, 16 }, { 1, 2097152 } }, /* 16dp64b16x */
	{ 1, 16, 1, 3, { 2, 2, 8 }, { 8192, 32, 1024 }, 2, { 32, 16 }, { 1, 64 }, 3, { 16, 64, 16 }, { 1, 32, 2097152 } }, /* 16dp64b16x_16b */
	{ 1, 32, 0, 3, { 2, 2, 8 }, { 16384, 32, 2048 }, 2, { 32, 32 }, { 1, 64 }, 2, { 2048, 16 }, { 1, 2097152 } }, /* 16dp64b32x */
	{ 1, 32, 1, 3, { 2, 2, 8 }, { 16384, 32, 2048 }, 2, { 32, 32 }, { 1, 64 }, 3, { 16, 128, 16 }, { 1, 32, 2097152 } }, /* 16dp64b32x_16b */
	{ 1, 64, 0, 3, { 2, 2, 8 }, { 32768, 32, 4096 }, 2, { 32, 64 }, { 1, 64 }, 2, { 4096, 16 }, { 1, 2097152 } }, /* 16dp64b64x */
	{ 1, 64, 1, 3, { 2, 2, 8 }, { 32768, 32, 4096 }, 2, { 32, 64 }, { 1, 64 }, 3, { 16, 256, 16 }, { 1, 32, 2097152 } }, /* 16dp64b64x_16b */
	{ 1, 128, 0, 3, { 2, 2, 8 }, { 65536, 32, 8192 }, 2, { 32, 128 }, { 1, 64 }, 2, { 8192, 16 }, { 1, 2097152 } }, /* 16dp64b128x */
	{ 1, 128, 1, 3, { 2, 2, 8 }, { 65536, 32, 8192 }, 2, { 32, 128 }, { 1, 64 }, 3, { 16, 512, 16 }, { 1, 32, 2097152 } }, /* 16dp64b128x_16b */
	{ 2, 1, 0, 2, { 4, 8 }, { 32, 128 }, 2, { 32, 2 }, { 1, 1024 }, 2, { 128, 16 }, { 1, 2097152 } }, /* 16dp128b1x */
	{ 2, 1, 1, 2, { 4, 8 }, { 32, 128 }, 2, { 32, 2 }, { 1, 1024 }, 3, { 16, 8, 16 }, { 1, 32, 2097152 } }, /* 16dp128b1x_16b */
	{ 2, 2, 0, 2, { 4, 8 }, { 32, 256 }, 3, { 32, 2, 2 }, { 1, 2048, 128 }, 2, { 256, 16 }, { 1, 2097152 } }, /* 16dp128b2x */
	{ 2, 2, 1, 2, { 4, 8 }, { 32, 256 }, 3, { 32, 2, 2 }, { 1, 2048, 128 }, 3, { 16, 16, 16 }, { 1, 32, 2097152 } }, /* 16dp128b2x_16b */
	{ 2, 4, 0, 2, { 4, 8 }, { 32, 512 }, 3, { 32, 2, 4 }, { 1, 4096, 128 }, 2, { 512, 16 }, { 1, 2097152 } }, /* 16dp128b4x */
	{ 2, 4, 1, 2, { 4, 8 }, { 32, 512 }, 3, { 32, 2, 4 }, { 1, 4096, 128 }, 3, { 16, 32, 16 }, { 1, 32, 2097152 } }, /* 16dp128b4x_16b */
	{ 2, 8, 0, 2, { 4, 8 }, { 32, 1024 }, 3, { 32, 2, 8 }, { 1, 8192, 128 }, 2, { 1024, 16 }, { 1, 2097152 } }, /* 16dp128b8x */
	{ 2, 8, 1, 2, { 4, 8 }, { 32, 1024 }, 3, { 32, 2, 8 }, { 1, 8192, 128 }, 3, { 16, 64, 16 }, { 1, 32, 2097152 } }, /* 16dp128b8x_16b */
	{ 2, 16, 0, 2, { 4, 8 }, { 32, 2048 }, 3, { 32, 2, 16 }, { 1, 16384, 128 }, 2, { 2048, 16 }, { 1, 2097152 } }, /* 16dp128b16x */
	{ 2, 16, 1, 2, { 4, 8 }, { 32, 2048 }, 3, { 32, 2, 16 }, { 1, 16384, 128 }, 3, { 16, 128, 16 }, { 1, 32, 2097152 } }, /* 16dp128b16x_16b */
	{ 2, 32, 0, 2, { 4, 8 }, { 32, 4096 }, 3, { 32, 2, 32 }, { 1, 32768, 128 }, 2, { 4096, 16 }, { 1, 2097152 } }, /* 16dp128b32x */
	{ 2, 32, 1, 2, { 4, 8 }, { 32, 4096 }, 3, { 32, 2, 32 }, { 1, 32768, 128 }, 3, { 16, 256, 16 }, { 1, 32, 2097152 } }, /* 16dp128b32x_16b */
	{ 2, 64, 0, 2, { 4, 8 }, { 32, 8192 }, 3, { 32, 2, 64 }, { 1, 65536, 128 }, 2, { 8192, 16 }, { 1, 2097152 } }, /* 16dp128b64x */
	{ 2, 64, 1, 2, { 4, 8 }, { 32, 8192 }, 3, { 32, 2, 64 }, { 1, 65536, 128 }, 3, { 16, 512, 16 }, { 1, 32, 2097152 } }, /* 16dp128b64x_16b */
	{ 3, 1, 0, 2, { 4, 8 }, { 64, 256 }, 2, { 64, 2 }, { 1, 2048 }, 2, { 256, 16 }, { 1, 2097152 } }, /* 16dp256b1x */
	{ 3, 1, 1, 2, { 4, 8 }, { 64, 256 }, 2, { 64, 2 }, { 1, 2048 }, 3, { 16, 16, 16 }, { 1, 32, 2097152 } }, /* 16dp256b1x_16b */
	{ 3, 2, 0, 2, { 4, 8 }, { 64, 512 }, 3, { 64, 2, 2 }, { 1, 4096, 256 }, 2, { 512, 16 }, { 1, 2097152 } }, /* 16dp256b2x */
	{ 3, 2, 1, 2, { 4, 8 }, { 64, 512 }, 3, { 64, 2, 2 }, { 1, 4096, 256 }, 3, { 16, 32, 16 }, { 1, 32, 2097152 } }, /* 16dp256b2x_16b */
	{ 3, 4, 0, 2, { 4, 8 }, { 64, 1024 }, 3, { 64, 2, 4 }, { 1, 8192, 256 }, 2, { 1024, 16 }, { 1, 2097152 } }, /* 16dp256b4x */
	{ 3, 4, 1, 2, { 4, 8 }, { 64, 1024 }, 3, { 64, 2, 4 }, { 1, 8192, 256 }, 3, { 16, 64, 16 }, { 1, 32, 2097152 } }, /* 16dp256b4x_16b */
	{ 3, 8, 0, 2, { 4, 8 }, { 64, 2048 }, 3, { 64, 2, 8 }, { 1, 16384, 256 }, 2, { 2048, 16 }, { 1, 2097152 } }, /* 16dp256b8x */
	{ 3, 8, 1, 2, { 4, 8 }, { 64, 2048 }, 3, { 64, 2, 8 }, { 1, 16384, 256 }, 3, { 16, 128, 16 }, { 1, 32, 2097152 } }, /* 16dp256b8x_16b */
	{ 3, 16, 0, 2, { 4, 8 }, { 64, 4096 }, 3, { 64, 2, 16 }, { 1, 32768, 256 }, 2, { 4096, 16 }, { 1, 2097152 } }, /* 16dp256b16x */
	{ 3, 16, 1, 2, { 4, 8 }, { 64, 4096 }, 3, { 64, 2, 16 }, { 1, 32768, 256 }, 3, { 16, 256, 16 }, { 1, 32, 2097152 } }, /* 16dp256b16x_16b */
	{ 3, 32, 0, 2, { 4, 8 }, { 64, 8192 }, 3, { 64, 2, 32 }, { 1, 65536, 256 }, 2, { 8192, 16 }, { 1, 2097152 } }, /* 16dp256b32x */
	{ 3, 32, 1, 2, { 4, 8 }, { 64, 8192 }, 3, { 64, 2, 32 }, { 1, 65536, 256 }, 3, { 16, 512, 16 }, { 1, 32, 2097152 } }, /* 16dp256b32x_16b */
	{ 4, 1, 0, 2, { 16, 2 }, { 64, 32 }, 1, { 32 }, { 1 }, 2, { 64, 16 }, { 1, 2097152 } }, /* 16dp32b1x */
	{ 4, 1, 1, 2, { 16, 2 }, { 64, 32 }, 1, { 32 }, { 1 }, 3, { 16, 4, 16 }, { 1, 32, 2097152 } }, /* 16dp32b1x_16b */
	{ 4, 2, 0, 2, { 16, 2 }, { 128, 64 }, 1, { 64 }, { 1 }, 2, { 128, 16 }, { 1, 2097152 } }, /* 16dp32b2x */
	{ 4, 2, 1, 2, { 16, 2 }, { 128, 64 }, 1, { 64 }, { 1 }, 3, { 16, 8, 16 }, { 1, 32, 2097152 } }, /* 16dp32b2x_16b */
	{ 4, 4, 0, 2, { 16, 2 }, { 256, 128 }, 1, { 128 }, { 1 }, 2, { 256, 16 }, { 1, 2097152 } }, /* 16dp32b4x */
	{ 4, 4, 1, 2, { 16, 2 }, { 256, 128 }, 1, { 128 }, { 1 }, 3, { 16, 16, 16 }, { 1, 32, 2097152 } }, /* 16dp32b4x_16b */
	{ 4, 8, 0, 2, { 16, 2 }, { 512, 256 }, 1, { 256 }, { 1 }, 2, { 512, 16 }, { 1, 2097152 } }, /* 16dp32b8x */
	{ 4, 8, 1, 2, { 16, 2 }, { 512, 256 }, 1, { 256 }, { 1 }, 3, { 16, 32, 16 }, { 1, 32, 2097152 } }, /* 16dp32b8x_16b */
	{ 4, 16, 0, 2, { 16, 2 }, { 1024, 512 }, 1, { 512 }, { 1 }, 2, { 1024, 16 }, { 1, 2097152 } }, /* 16dp32b16x */
	{ 4, 16, 1, 2, { 16, 2 }, { 1024, 512 }, 1, { 512 }, { 1 }, 3, { 16, 64, 16 }, { 1, 32, 2097152 } }, /* 16dp32b16x_16b */
	{ 4, 32, 0, 2, { 16, 2 }, { 2048, 1024 }, 1, { 1024 }, { 1 }, 2, { 2048, 16 }, { 1, 2097152 } }, /* 16dp32b32x */
	{ 4, 32, 1, 2, { 16, 2 }, { 2048, 1024 }, 1, { 1024 }, { 1 }, 3, { 16, 128, 16 }, { 1, 32, 2097152 } }, /* 16dp32b32x_16b */
	{ 4, 64, 0, 2, { 16, 2 }, { 4096, 2048 }, 1, { 2048 }, { 1 }, 2, { 4096, 16 }, { 1, 2097152 } }, /* 16dp32b64x */
	{ 4, 64, 1, 2, { 16, 2 }, { 4096, 2048 }, 1, { 2048 }, { 1 }, 3, { 16, 256, 16 }, { 1, 32, 2097152 } }, /* 16dp32b64x_16b */
	{ 4, 128, 0, 2, { 16, 2 }, { 8192, 4096 }, 1, { 4096 }, { 1 }, 2, { 8192, 16 }, { 1, 2097152 } }, /* 16dp32b128x */
	{ 4, 128, 1, 2, { 16, 2 }, { 8192, 4096 }, 1, { 4096 }, { 1 }, 3, { 16, 512, 16 }, { 1, 32, 2097152 } }, /* 16dp32b128x_16b */
};

static long cute_eval(int n, const long *s, const long *d, long x)
{
	long o = 0;

	for (int i = 0; i < n; i++) {
		o += (x % s[i]) * d[i];
		x /= s[i];
	}
	return o;
}

static void test_ldst_vs_cutlass(void **st)
{
	(void)st;
	unsigned seen[TCP_EMU_LD_NSHAPES] = { 0 };

	for (size_t k = 0; k < sizeof(cute_tmem) / sizeof(cute_tmem[0]); k++) {
		const struct cute_tmem *c = &cute_tmem[k];
		long nval = 1;
		unsigned n = tcp_emu_ldst_regs(c->shape, c->num);
		/* CuTe models 16x32bx2 as one row of both halves: half = the first half's columns */
		unsigned half = std_half(c->shape, c->num, c->pack);

		for (int i = 0; i < c->nv; i++)
			nval *= c->vs[i];
		assert_int_equal(nval, 32L * n);
		seen[c->shape]++;
		for (unsigned t = 0; t < 32; t++)
			for (long v = 0; v < nval; v++) {
				long b = cute_eval(c->nt, c->ts, c->td, t) + cute_eval(c->nv, c->vs, c->vd, v);
				long phys = cute_eval(c->ni, c->is, c->id, b);
				unsigned lane = (unsigned)(phys / CUTE_DP_B), bit = (unsigned)(phys % CUTE_DP_B);
				unsigned reg = (unsigned)(v / 32), rbit = (unsigned)(v % 32), l = 0, col = 0;
				unsigned part = c->pack ? rbit / 16 : 0, cbit = c->pack ? rbit % 16 : rbit;

				assert_int_equal(tcp_emu_ldst_cell(c->shape, c->num, c->pack, half, t, reg, part, &l, &col), 0);
				if (l != lane || col != bit / 32 || cbit != bit % 32)
					fail_msg("shape %u x%u pack %u: thread %u reg %u bit %u: emulator lane %u col %u bit %u, "
						 "CUTLASS lane %u col %u bit %u", c->shape, c->num, c->pack, t, reg, rbit, l,
						 col, cbit, lane, bit / 32, bit % 32);
			}
	}
	/* every legal (num, pack) of every shape was compared: 16, 16, 14, 12, 16 forms */
	assert_int_equal(seen[0], 16);
	assert_int_equal(seen[1], 16);
	assert_int_equal(seen[2], 14);
	assert_int_equal(seen[3], 12);
	assert_int_equal(seen[4], 16);
}

/* model/tmem.h: the map the probes use, their footprint and 16x32bx2 offset. */
static void test_ldst_vs_model(void **st)
{
	(void)st;
	for (unsigned shape = 0; shape < TCP_EMU_LD_NSHAPES; shape++) {
		assert_int_equal(tcp_emu_ldst_base(shape), tcp_ld_base_regs((tcp_ld_shape_t)shape));
		for (unsigned num = 0; num <= 260; num++) {
			unsigned n = tcp_emu_ldst_regs(shape, num);

			assert_int_equal(n, tcp_ld_regs((tcp_ld_shape_t)shape, num));
			if (!n)
				continue;
			for (unsigned pack = 0; pack < 2; pack++) {
				unsigned half = tcp_ld_half_offset(num, (int)pack), lanes, cols;

				tcp_emu_ldst_extent(shape, num, pack, shape == TCP_EMU_LD_16X32BX2 ? half : 0, &lanes, &cols);
				assert_int_equal(lanes, tcp_ld_lanes((tcp_ld_shape_t)shape));
				assert_int_equal(cols, tcp_ld_footprint((tcp_ld_shape_t)shape, num, (int)pack));
			}
			for (unsigned t = 0; t < 32; t++)
				for (unsigned i = 0; i < n; i++) {
					unsigned ml = 0, mc = 0, el = 0, ec = 0;

					assert_int_equal(tcp_ld_map((tcp_ld_shape_t)shape, num, num, t, i, &ml, &mc), 0);
					assert_int_equal(tcp_emu_ldst_cell(shape, num, 0, num, t, i, 0, &el, &ec), 0);
					if (ml != el || mc != ec)
						fail_msg("shape %u x%u thread %u reg %u: model (%u, %u), emulator (%u, %u)", shape,
							 num, t, i, ml, mc, el, ec);
				}
		}
	}
}

/* ---- ld.red ---- */

static uint32_t f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static float u2f(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* PTX min/max over floats: NaN skipped (any NaN -> NaN with .NaN), -0 < +0, .abs on |x|. */
static uint32_t ref_red_f32(const uint32_t *v, unsigned n, unsigned op, unsigned flags)
{
	int have = 0, nan = 0;
	float best = 0;

	for (unsigned i = 0; i < n; i++) {
		float x = u2f(v[i]);

		if (flags & TCP_EMU_RED_ABS)
			x = x < 0 || (x == 0 && signbit(x)) ? -x : x;
		if (x != x) {
			nan = 1;
			continue;
		}
		if (!have) {
			best = x;
			have = 1;
			continue;
		}
		if (x == best && x == 0) {
			/* +0.0 > -0.0 */
			if (op == TCP_EMU_RED_MAX ? !signbit(x) : signbit(x))
				best = x;
		} else if (op == TCP_EMU_RED_MAX ? x > best : x < best) {
			best = x;
		}
	}
	if (!have || (nan && (flags & TCP_EMU_RED_NAN)))
		return 0x7FFFFFFFu;
	return f2u(best);
}

static uint32_t rand_f32(void)
{
	switch (next_u64() % 16) {
	case 0: return 0x7FC00000u | (uint32_t)(next_u64() & 0xFFFF);	/* NaN */
	case 1: return 0xFF800001u;					/* negative-signed NaN */
	case 2: return 0x80000000u;					/* -0 */
	case 3: return 0;						/* +0 */
	case 4: return next_u64() & 1 ? 0x7F800000u : 0xFF800000u;	/* inf */
	default: return f2u((float)((double)(int64_t)next_u64() / 9.2e15));
	}
}

static void test_ld_red(void **st)
{
	(void)st;
	uint32_t r[128], red, ld[128];
	static const unsigned shapes[2] = { TCP_EMU_LD_32X32B, TCP_EMU_LD_16X32BX2 };

	for (int rep = 0; rep < 40; rep++)
		for (unsigned si = 0; si < 2; si++)
			for (unsigned ni = 1; ni < 8; ni++) {
				unsigned shape = shapes[si], num = nums[ni], half = std_half(shape, num, 0);
				uint32_t taddr = rand_taddr(shape, num, 0, half);

				for (unsigned k = 0; k < NCELLS; k++)
					tm[k] = rep % 2 ? rand_f32() : (uint32_t)next_u64();
				for (unsigned t = 0; t < 32; t++) {
					unsigned type = rep % 2 ? TCP_EMU_RED_F32 : 1 + (unsigned)(next_u64() % 2);
					unsigned op = (unsigned)(next_u64() % 2);
					unsigned flags = type == TCP_EMU_RED_F32 ? (unsigned)(next_u64() % 4) : 0;
					uint32_t want;

					assert_int_equal(tcp_emu_ld_red(tm, taddr, shape, num, half, t, op, type, flags, r, &red), 0);
					assert_int_equal(tcp_emu_ld(tm, taddr, shape, num, 0, half, t, ld), 0);
					assert_memory_equal(r, ld, num * sizeof(uint32_t));
					if (type == TCP_EMU_RED_F32) {
						want = ref_red_f32(r, num, op, flags);
					} else {
						want = r[0];
						for (unsigned i = 1; i < num; i++) {
							int less = type == TCP_EMU_RED_S32 ? (int32_t)r[i] < (int32_t)want : r[i] < want;

							if (op == TCP_EMU_RED_MAX ? !less && r[i] != want : less)
								want = r[i];
						}
					}
					if (red != want)
						fail_msg("ld.red shape %u x%u type %u op %u flags %u thread %u: 0x%08x, want 0x%08x",
							 shape, num, type, op, flags, t, red, want);
				}
			}
	/* forms the ISA does not have */
	assert_int_equal(tcp_emu_ld_red(tm, 0, TCP_EMU_LD_32X32B, 1, 0, 0, 0, 0, 0, r, &red), TCP_EMU_BAD_FORM);
	assert_int_equal(tcp_emu_ld_red(tm, 0, TCP_EMU_LD_16X64B, 4, 0, 0, 0, 0, 0, r, &red), TCP_EMU_BAD_FORM);
	assert_int_equal(tcp_emu_ld_red(tm, 0, TCP_EMU_LD_32X32B, 4, 0, 0, 0, TCP_EMU_RED_U32, TCP_EMU_RED_ABS, r,
					&red), TCP_EMU_BAD_FORM);
	assert_int_equal(tcp_emu_ld_red(tm, 0, TCP_EMU_LD_32X32B, 4, 0, 0, 2, 0, 0, r, &red), TCP_EMU_BAD_FORM);
}

/* ---- tcgen05.cp ---- */

/*
 * CUTLASS copy_traits_sm100.hpp Copy_Traits<SM100_UTCCP_*_1cta> (4.2.0,
 * lines 3551-3738), the value modes with, per mode, the source row / bit
 * strides (from SrcLayout: the source is [rows, 128 or 256 bits] in
 * CuTe's column-major order, blocks of 32 rows for lw0123's repeat mode,
 * stride 0 for a broadcast mode) and the TMEM lane / bit strides (ValID
 * composed with DstLayout; DP_b -> 1 lane):
 *   128dp256bit  ValID (128,256):(DP,1)
 *   4dp256bit    Dst (4,256):(32,128) into ValID (128,256):(DP,1): row i
 *                -> lane 32 i (source row = the i-th of the 4 rows)
 *   128dp128bit  ValID (128,128):(DP,1)
 *   2x64dp128bitlw0213  ValID (64,128,2):(DP,1,64 DP), Src (64,128,2):(1,64,0)
 *   2x64dp128bitlw0123  ValID (32,128,2,2):(DP,1,64 DP,32 DP),
 *                       Src (32,128,2,2):(1,32,4096,0)
 *   4x32dp128bit ValID (32,128,4):(DP,1,32 DP), Src (32,128,4):(1,32,0)
 */
struct cute_cp_mode {
	unsigned n, src_row, src_bit, lane, bit;
};
static const struct {
	unsigned shape, nm;
	struct cute_cp_mode m[4];
} cute_cp[TCP_EMU_CP_NSHAPES] = {
	{ TCP_EMU_CP_128X256B, 2, { { 128, 1, 0, 1, 0 }, { 256, 0, 1, 0, 1 } } },
	{ TCP_EMU_CP_4X256B, 2, { { 4, 1, 0, 32, 0 }, { 256, 0, 1, 0, 1 } } },
	{ TCP_EMU_CP_128X128B, 2, { { 128, 1, 0, 1, 0 }, { 128, 0, 1, 0, 1 } } },
	{ TCP_EMU_CP_64X128B_02_13, 3, { { 64, 1, 0, 1, 0 }, { 128, 0, 1, 0, 1 }, { 2, 0, 0, 64, 0 } } },
	{ TCP_EMU_CP_64X128B_01_23, 4,
	  { { 32, 1, 0, 1, 0 }, { 128, 0, 1, 0, 1 }, { 2, 32, 0, 64, 0 }, { 2, 0, 0, 32, 0 } } },
	{ TCP_EMU_CP_32X128B_X4, 3, { { 32, 1, 0, 1, 0 }, { 128, 0, 1, 0, 1 }, { 4, 0, 0, 32, 0 } } },
};

#define SMEM_BYTES 65536u
static uint8_t smem[SMEM_BYTES] __attribute__((aligned(1024)));

static uint64_t sdesc_bits(uint32_t start, uint32_t lbo, uint32_t sbo, unsigned layout)
{
	return (uint64_t)(start >> 4) | (uint64_t)(lbo >> 4) << 16 | (uint64_t)(sbo >> 4) << 32 | 1ull << 46 |
	       (uint64_t)layout << 61;
}

/* Independent decompression: element e of the packed chunk, where it lands. */
static void ref_decompress(const uint8_t *in, unsigned fmt, uint8_t *out)
{
	for (unsigned e = 0; e < 16; e++) {
		unsigned bits = fmt == TCP_EMU_CP_B4X16_P64 ? 4 : 6, v = 0;

		for (unsigned b = 0; b < bits; b++) {
			unsigned pos = e * bits + b;

			v |= (unsigned)(in[pos / 8] >> (pos % 8) & 1) << b;
		}
		out[e] = (uint8_t)(fmt == TCP_EMU_CP_B4X16_P64 ? v << 2 : v);
	}
}

/* Source bit (row, bit) of the tile as TMEM should see it (decompressed). */
static unsigned src_bit(const uint32_t *addr, unsigned nch, unsigned fmt, unsigned row, unsigned bit)
{
	const uint8_t *c = smem + addr[row * nch + bit / 128];
	uint8_t dec[16];

	if (fmt != TCP_EMU_CP_PLAIN) {
		ref_decompress(c, fmt, dec);
		c = dec;
	}
	bit %= 128;
	return c[bit / 8] >> (bit % 8) & 1;
}

/*
 * Random source tiles: K-major canonical interleaved layout at a random
 * start, LBO and SBO (the 16-byte chunk (i, j) at start + (i/8) SBO +
 * (i%8) 16 + j LBO, PTX "Shared Memory Layout and Swizzling" / canonical
 * layouts); every bit CUTLASS's layout names must be in TMEM, every other
 * cell unchanged.
 */
static void test_cp_vs_cutlass(void **st)
{
	(void)st;
	static uint32_t addr[256];
	static unsigned char hit[NCELLS];

	for (int rep = 0; rep < 12; rep++)
		for (unsigned s = 0; s < TCP_EMU_CP_NSHAPES; s++)
			for (unsigned fmt = 0; fmt < TCP_EMU_CP_NFMTS; fmt++) {
				unsigned rows = tcp_emu_cp_rows(s), nch = tcp_emu_cp_chunks(s);
				/* LBO and SBO wide enough that no two chunks share bytes */
				uint32_t lbo = 128 * (1 + (uint32_t)(next_u64() % 4));
				uint32_t sbo = lbo * nch + 128 * (uint32_t)(next_u64() % 3);
				uint32_t span = ((rows + 7) / 8) * sbo + nch * lbo;
				uint32_t start = 16 * (uint32_t)(next_u64() % ((SMEM_BYTES - span) / 16));
				unsigned lane0 = s == TCP_EMU_CP_4X256B ? (unsigned)(next_u64() % 32) : 0;
				unsigned col0 = (unsigned)(next_u64() % (TCP_EMU_COLS - 4 * nch + 1)), changed = 0;
				uint32_t taddr = (uint32_t)lane0 << 16 | col0;
				unsigned idx[4] = { 0 };

				for (unsigned i = 0; i < sizeof(smem) / 4; i++)
					((uint32_t *)smem)[i] = (uint32_t)next_u64();
				for (unsigned i = 0; i < rows; i++)
					for (unsigned j = 0; j < nch; j++)
						addr[i * nch + j] = start + i / 8 * sbo + i % 8 * 16 + j * lbo;
				snapshot();
				memset(hit, 0, sizeof(hit));
				assert_int_equal(tcp_emu_cp(smem, SMEM_BYTES, tm, taddr, s, fmt, sdesc_bits(start, lbo, sbo, 0)), 0);
				/* walk every value coordinate of the CUTLASS layout */
				for (;;) {
					unsigned row = 0, bit = 0, lane = 0, tbit = 0, m;

					for (m = 0; m < cute_cp[s].nm; m++) {
						row += idx[m] * cute_cp[s].m[m].src_row;
						bit += idx[m] * cute_cp[s].m[m].src_bit;
						lane += idx[m] * cute_cp[s].m[m].lane;
						tbit += idx[m] * cute_cp[s].m[m].bit;
					}
					{
						unsigned k = (lane0 + lane) * TCP_EMU_COLS + col0 + tbit / 32;
						unsigned got = tm[k] >> (tbit % 32) & 1, want = src_bit(addr, nch, fmt, row, bit);

						if (got != want)
							fail_msg("cp shape %u fmt %u: source row %u bit %u -> lane %u col %u bit %u "
								 "reads %u", s, fmt, row, bit, lane0 + lane, col0 + tbit / 32,
								 tbit % 32, got);
						hit[k] = 1;
					}
					for (m = 0; m < cute_cp[s].nm && ++idx[m] == cute_cp[s].m[m].n; m++)
						idx[m] = 0;
					if (m == cute_cp[s].nm)
						break;
				}
				for (unsigned k = 0; k < NCELLS; k++) {
					if (!hit[k] && tm[k] != tm0[k])
						fail_msg("cp shape %u fmt %u: lane %u col %u written outside the copy", s, fmt,
							 k / TCP_EMU_COLS, k % TCP_EMU_COLS);
					changed += hit[k];
				}
				assert_int_equal(changed, rows * tcp_emu_cp_copies(s) * 4 * nch);
				/* the extent boxes every written cell */
				{
					unsigned l0, nl, c0, nc;

					tcp_emu_cp_extent(s, taddr, &l0, &nl, &c0, &nc);
					for (unsigned k = 0; k < NCELLS; k++)
						if (hit[k]) {
							unsigned l = k / TCP_EMU_COLS, c = k % TCP_EMU_COLS;

							assert_true(l >= l0 && l < l0 + nl && c >= c0 && c < c0 + nc);
						}
				}
			}
}

/* Decompression of random packed chunks; padding never reaches TMEM. */
static void test_cp_decompress(void **st)
{
	(void)st;
	uint32_t in[4], out[4], out2[4];
	uint8_t want[16];

	for (int rep = 0; rep < 2000; rep++)
		for (unsigned fmt = 1; fmt < TCP_EMU_CP_NFMTS; fmt++) {
			fill_random(in, 4);
			tcp_emu_cp_decompress(in, fmt, out);
			ref_decompress((const uint8_t *)in, fmt, want);
			assert_memory_equal(out, want, 16);
			for (unsigned b = 0; b < 16; b++)
				assert_int_equal(want[b] & (fmt == TCP_EMU_CP_B4X16_P64 ? 0xC3 : 0xC0), 0);
			/* padding: bytes 8-15 (4-bit) or 12-15 (6-bit) change nothing */
			in[3] = ~in[3];
			if (fmt == TCP_EMU_CP_B4X16_P64)
				in[2] = ~in[2];
			tcp_emu_cp_decompress(in, fmt, out2);
			assert_memory_equal(out, out2, 16);
		}
	/* one hand-made vector each: elements 0..15 */
	{
		uint64_t p4 = 0xFEDCBA9876543210ull;
		uint8_t b6[12] = { 0 };

		memcpy(in, &p4, 8);
		tcp_emu_cp_decompress(in, TCP_EMU_CP_B4X16_P64, out);
		for (unsigned e = 0; e < 16; e++)
			assert_int_equal(((const uint8_t *)out)[e], e << 2);
		for (unsigned e = 0; e < 16; e++)
			for (unsigned b = 0; b < 6; b++)
				if ((e * 4 + 1) >> b & 1)
					b6[(6 * e + b) / 8] |= (uint8_t)(1u << ((6 * e + b) % 8));
		memset(in, 0, sizeof(in));
		memcpy(in, b6, 12);
		tcp_emu_cp_decompress(in, TCP_EMU_CP_B6X16_P32, out);
		for (unsigned e = 0; e < 16; e++)
			assert_int_equal(((const uint8_t *)out)[e], (e * 4 + 1) & 0x3F);
	}
}

/*
 * The probes' A staging (tc-mma.cuh tc_stage_a) from tiles the model
 * builds: 128x256b puts row r's 32 bytes of K on lane r, columns 0-7 in
 * K order; the cta_group::2 M=128 duplicate form (64x128b.warpx2::02_13
 * once per 16-byte K chunk, the second at column 4 with the descriptor of
 * row 0's second chunk) puts rows 0-63 on lanes 0-63 and 64-127.  Every
 * swizzle the model lays K-major tiles in; 8-bit, padded fp6, padded fp4
 * (decompressed into 8-bit containers: fp4 in bits 5-2, fp6 in bits 5-0).
 */
static void test_cp_model_tiles(void **st)
{
	(void)st;
	static const tcp_swizzle_t sw[] = { TCP_SW_NONE, TCP_SW_32B, TCP_SW_64B, TCP_SW_128B };
	static const unsigned bits[] = { 8, 6, 4 };

	for (unsigned si = 0; si < 4; si++)
		for (unsigned bi = 0; bi < 3; bi++)
			for (unsigned dup = 0; dup < 2; dup++) {
				tcp_tile_t t = { sw[si], TCP_MAJOR_K, bits[bi], bits[bi] < 8, dup ? 64u : 128u,
						 bits[bi] < 8 ? 32u : 32u, 0 };
				unsigned fmt = bits[bi] == 8 ? TCP_EMU_CP_PLAIN
							     : bits[bi] == 6 ? TCP_EMU_CP_B6X16_P32 : TCP_EMU_CP_B4X16_P64;
				uint32_t base = tcp_tile_align(&t) * (1 + (uint32_t)(next_u64() % 4));
				static uint8_t val[128][32];
				tcp_sdesc_t d;
				uint64_t desc = 0, desc1 = 0;

				assert_int_equal(tcp_tile_check(&t), 0);
				assert_true(base + tcp_tile_bytes(&t) <= SMEM_BYTES);
				memset(smem, 0, SMEM_BYTES);
				for (unsigned r = 0; r < t.rows; r++)
					for (unsigned kk = 0; kk < t.k; kk++) {
						val[r][kk] = (uint8_t)(next_u64() & ((1u << bits[bi]) - 1));
						tcp_bits_put(smem + base, tcp_tile_place(&t, r, kk), bits[bi], val[r][kk]);
					}
				tcp_tile_desc(&t, base, 0, &d);
				assert_int_equal(tcp_sdesc_encode(&d, &desc), 0);
				snapshot();
				if (!dup) {
					assert_int_equal(tcp_emu_cp(smem, SMEM_BYTES, tm, 0, TCP_EMU_CP_128X256B, fmt, desc), 0);
				} else {
					/* row 0's second chunk: the model's own element address, as the probe computes a_k1 */
					uint32_t k1 = tcp_tile_place(&t, 0, tcp_tile_t_elems(&t)) / 8;

					d.start = base + k1;
					assert_int_equal(tcp_sdesc_encode(&d, &desc1), 0);
					assert_int_equal(tcp_emu_cp(smem, SMEM_BYTES, tm, 0, TCP_EMU_CP_64X128B_02_13, fmt, desc), 0);
					assert_int_equal(tcp_emu_cp(smem, SMEM_BYTES, tm, 4, TCP_EMU_CP_64X128B_02_13, fmt, desc1), 0);
				}
				for (unsigned lane = 0; lane < 128; lane++) {
					unsigned r = dup ? lane % 64 : lane;

					for (unsigned kk = 0; kk < t.k; kk++) {
						unsigned byte = kk, want = val[r][kk];
						uint32_t cell;

						if (bits[bi] == 4)
							want <<= 2;
						cell = tm[lane * TCP_EMU_COLS + byte / 4];
						if ((cell >> (8 * (byte % 4)) & 0xFF) != want)
							fail_msg("swizzle %u bits %u dup %u: lane %u K %u holds 0x%02x, want 0x%02x",
								 (unsigned)sw[si], bits[bi], dup, lane, kk,
								 cell >> (8 * (byte % 4)) & 0xFF, want);
					}
					for (unsigned c = 8; c < TCP_EMU_COLS; c++)
						assert_int_equal(tm[lane * TCP_EMU_COLS + c], tm0[lane * TCP_EMU_COLS + c]);
				}
			}
}

/*
 * The model's scale-factor placement (model/tmem-plan.h tcp_tmem_sf_cell)
 * is the one the PTX copies for it produce: 4x1 = 32x128b.warpx4 of a
 * source whose row i holds rows i, i + 32, i + 64, i + 96 (one word each);
 * 2x2 (B of cta_group::2 M=128) = 64x128b.warpx2::01_23 of a source whose
 * row 32 h + i holds rows h N/2 + i + 32 w of word w.
 */
static void test_sf_model(void **st)
{
	(void)st;
	static const unsigned ns[] = { 64, 128, 192, 256 };

	for (unsigned ni = 0; ni < 4; ni++) {
		unsigned n = ns[ni];

		for (int two = 0; two < 2; two++) {
			int cg = two ? 2 : 1;
			unsigned m = 128;
			int is_b = 1;
			unsigned rows = tcp_tmem_sf_rows(cg, m, n, is_b);
			int x2 = tcp_tmem_sf_2x2(cg, m, is_b);

			for (unsigned row = 0; row < rows; row++)
				for (unsigned rep = 0; rep < tcp_tmem_sf_replicas(cg, m, is_b); rep++) {
					unsigned ml = 0, mc = 0, el = 0, ec = 0;

					assert_int_equal(tcp_tmem_sf_cell(cg, m, n, is_b, row, rep, &ml, &mc), 0);
					if (x2) {
						unsigned h = row / (n / 2), r = row % (n / 2);

						el = tcp_emu_cp_lane(TCP_EMU_CP_64X128B_01_23, 32 * h + r % 32, rep);
						ec = r / 32;
					} else {
						el = tcp_emu_cp_lane(TCP_EMU_CP_32X128B_X4, row % 32, rep);
						ec = row / 32;
					}
					/* one cp covers 4 words; groups of 128 (4x1) / 64 (2x2) rows use the next cp's columns */
					if (ml != el || mc != ec)
						fail_msg("N %u cta_group %d row %u rep %u: model (%u, %u), cp (%u, %u)", n, cg, row,
							 rep, ml, mc, el, ec);
				}
		}
	}
}

/* ---- faults ---- */

static void test_faults(void **st)
{
	(void)st;
	uint32_t r[128] = { 0 }, red;
	unsigned lanes, cols;

	snapshot();
	/* lane outside TMEM, outside one quarter, 32x32b not on a quarter */
	assert_int_equal(tcp_emu_ld(tm, 128u << 16, TCP_EMU_LD_32X32B, 1, 0, 0, 0, r), TCP_EMU_BAD_TADDR);
	assert_int_equal(tcp_emu_st(tm, 8u << 16, TCP_EMU_LD_32X32B, 1, 0, 0, 0, r), TCP_EMU_BAD_TADDR);
	assert_int_equal(tcp_emu_st(tm, 24u << 16, TCP_EMU_LD_16X256B, 1, 0, 0, 0, r), TCP_EMU_BAD_TADDR);
	assert_int_equal(tcp_emu_st(tm, 16u << 16, TCP_EMU_LD_16X256B, 1, 0, 0, 0, r), TCP_EMU_OK);
	memcpy(tm, tm0, NCELLS * sizeof(uint32_t));
	/* columns: the footprint must end at or before column 512 */
	assert_int_equal(tcp_emu_st(tm, 511, TCP_EMU_LD_32X32B, 2, 0, 0, 0, r), TCP_EMU_BAD_TADDR);
	assert_int_equal(tcp_emu_st(tm, 510, TCP_EMU_LD_32X32B, 2, 0, 0, 0, r), TCP_EMU_OK);
	memcpy(tm, tm0, NCELLS * sizeof(uint32_t));
	assert_int_equal(tcp_emu_st(tm, 500, TCP_EMU_LD_32X32B, 8, 1, 0, 0, r), TCP_EMU_BAD_TADDR);
	assert_int_equal(tcp_emu_st(tm, 300, TCP_EMU_LD_16X256B, 32, 0, 0, 0, r), TCP_EMU_BAD_TADDR);
	assert_int_equal(tcp_emu_ld(tm, 512, TCP_EMU_LD_16X64B, 1, 0, 0, 0, r), TCP_EMU_BAD_TADDR);
	assert_int_equal(tcp_emu_ld(tm, 0xFFFF, TCP_EMU_LD_16X64B, 1, 0, 0, 0, r), TCP_EMU_BAD_TADDR);
	/* 16x32bx2: the second half past the end */
	assert_int_equal(tcp_emu_st(tm, 400, TCP_EMU_LD_16X32BX2, 16, 0, 100, 20, r), TCP_EMU_BAD_TADDR);
	assert_int_equal(tcp_emu_st(tm, 400, TCP_EMU_LD_16X32BX2, 16, 0, 96, 20, r), TCP_EMU_OK);
	memcpy(tm, tm0, NCELLS * sizeof(uint32_t));
	/* forms: num not a power of two, too many registers, unknown shape, thread 32 */
	assert_int_equal(tcp_emu_st(tm, 0, TCP_EMU_LD_32X32B, 3, 0, 0, 0, r), TCP_EMU_BAD_FORM);
	assert_int_equal(tcp_emu_st(tm, 0, TCP_EMU_LD_16X128B, 128, 0, 0, 0, r), TCP_EMU_BAD_FORM);
	assert_int_equal(tcp_emu_st(tm, 0, TCP_EMU_LD_NSHAPES, 1, 0, 0, 0, r), TCP_EMU_BAD_FORM);
	assert_int_equal(tcp_emu_ld(tm, 0, TCP_EMU_LD_32X32B, 1, 0, 0, 32, r), TCP_EMU_BAD_FORM);
	assert_int_equal(tcp_emu_ld_red(tm, 1u << 16, TCP_EMU_LD_32X32B, 2, 0, 0, 0, 0, 0, r, &red), TCP_EMU_BAD_TADDR);
	tcp_emu_ldst_extent(TCP_EMU_LD_16X256B, 64, 0, 0, &lanes, &cols);
	assert_int_equal(lanes, 0);
	assert_int_equal(cols, 0);
	assert_true(tmem_same());

	/* cp: TMEM out of range, shared memory out of range, bad descriptor, bad form */
	{
		uint64_t ok = sdesc_bits(0, 128, 256, 0);

		assert_int_equal(tcp_emu_cp(smem, SMEM_BYTES, tm, 1u << 16, TCP_EMU_CP_128X256B, 0, ok), TCP_EMU_BAD_TADDR);
		assert_int_equal(tcp_emu_cp(smem, SMEM_BYTES, tm, 1u << 16, TCP_EMU_CP_32X128B_X4, 0, ok), TCP_EMU_BAD_TADDR);
		assert_int_equal(tcp_emu_cp(smem, SMEM_BYTES, tm, 1u << 16, TCP_EMU_CP_64X128B_01_23, 0, ok),
				 TCP_EMU_BAD_TADDR);
		assert_int_equal(tcp_emu_cp(smem, SMEM_BYTES, tm, 32u << 16, TCP_EMU_CP_4X256B, 0, ok), TCP_EMU_BAD_TADDR);
		assert_int_equal(tcp_emu_cp(smem, SMEM_BYTES, tm, 505, TCP_EMU_CP_128X256B, 0, ok), TCP_EMU_BAD_TADDR);
		assert_int_equal(tcp_emu_cp(smem, SMEM_BYTES, tm, 509, TCP_EMU_CP_128X128B, 0, ok), TCP_EMU_BAD_TADDR);
		assert_int_equal(tcp_emu_cp(smem, SMEM_BYTES, tm, 512, TCP_EMU_CP_4X256B, 0, ok), TCP_EMU_BAD_TADDR);
		/* the last chunk (row 127, chunk 1) is at 15 x 256 + 7 x 16 + 128: 4096 bytes needed */
		assert_int_equal(tcp_emu_cp(smem, 4095, tm, 0, TCP_EMU_CP_128X256B, 0, ok), TCP_EMU_BAD_SMEM);
		assert_int_equal(tcp_emu_cp(smem, 4096, tm, 0, TCP_EMU_CP_4X256B, 0, sdesc_bits(4096 - 16, 16, 256, 0)),
				 TCP_EMU_BAD_SMEM);
		/* version bits 46-48 not 0b001 */
		assert_int_equal(tcp_emu_cp(smem, SMEM_BYTES, tm, 0, TCP_EMU_CP_128X256B, 0, ok & ~(1ull << 46)),
				 TCP_EMU_BAD_SDESC);
		assert_int_equal(tcp_emu_cp(smem, SMEM_BYTES, tm, 0, TCP_EMU_CP_NSHAPES, 0, ok), TCP_EMU_BAD_FORM);
		assert_int_equal(tcp_emu_cp(smem, SMEM_BYTES, tm, 0, TCP_EMU_CP_128X256B, 3, ok), TCP_EMU_BAD_FORM);
		assert_true(tmem_same());
		assert_int_equal(tcp_emu_cp(smem, 4096, tm, 0, TCP_EMU_CP_128X256B, 0, ok), TCP_EMU_OK);
		assert_int_equal(tcp_emu_cp(smem, SMEM_BYTES, tm, 31u << 16 | 504, TCP_EMU_CP_4X256B, 0, ok), TCP_EMU_OK);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ldst_roundtrip),
		cmocka_unit_test(test_ldst_vs_cutlass),
		cmocka_unit_test(test_ldst_vs_model),
		cmocka_unit_test(test_ld_red),
		cmocka_unit_test(test_cp_vs_cutlass),
		cmocka_unit_test(test_cp_decompress),
		cmocka_unit_test(test_cp_model_tiles),
		cmocka_unit_test(test_sf_model),
		cmocka_unit_test(test_faults),
	};

	test_seed("test-emu-datapath");
	return cmocka_run_group_tests(tests, setup, teardown);
}
