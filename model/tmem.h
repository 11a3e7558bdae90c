/*
 * tmem.h
 *	Tensor memory: addresses, accumulator layouts (where tcgen05.mma writes
 *	D[m][n]) and the tcgen05.ld/st register <-> (lane, column) maps.
 *	Sources: PTX ISA tcgen05 "Data path layout organization" (layouts A-G),
 *	tcgen05.ld/st "Matrix fragments" figures; the seed text (layouts F, B);
 *	tcgen05-facts.md s.4, s.8.  Every cell is 32 bits; an f16 accumulator
 *	element also takes one column (tcgen05.ld .pack::16b exists to pack two
 *	adjacent columns into one register).
 */
#ifndef TCP_MODEL_TMEM_H
#define TCP_MODEL_TMEM_H

#include "model/hd.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TCP_TMEM_LANES		128
#define TCP_TMEM_COLS		512
#define TCP_TMEM_ALLOC_UNIT	32	/* columns; allocations are powers of two in [32, 512] */
#define TCP_TMEM_LANES_PER_WARP	32	/* warp w % 4 = q may touch lanes 32q..32q+31 only */

/* TMEM address: bits 31-16 lane, bits 15-0 column. */
TCP_HD uint32_t tcp_tmem_addr(unsigned lane, unsigned col)
{
	return (uint32_t)lane << 16 | (col & 0xFFFFu);
}
TCP_HD unsigned tcp_tmem_lane(uint32_t a) { return a >> 16; }
TCP_HD unsigned tcp_tmem_col(uint32_t a) { return a & 0xFFFFu; }

/* Columns an allocation of `cols` really takes: a power of two >= 32; 0 if > 512. */
TCP_HD unsigned tcp_tmem_alloc_cols(unsigned cols)
{
	unsigned a = TCP_TMEM_ALLOC_UNIT;

	while (a < cols)
		a <<= 1;
	return a > TCP_TMEM_COLS ? 0 : a;
}

/*
 * The PTX data-path layouts, by letter:
 *   A  cta_group::2, M = 256: CTA = m / 128, lane = m % 128, col = n
 *   B  cta_group::2, M = 128, dense A: CTA = m / 64; lane = m % 64 (+ 64 for
 *      the upper N half), col = n % (N / 2)
 *   C  cta_group::2, M = 128, sparse A: CTA = m / 64, rows as layout F
 *   D  cta_group::1, M = 128 (also .ws M = 128): lane = m, col = n
 *   E  cta_group::1 .ws, M = 64: as B within one CTA (N halves folded)
 *   F  cta_group::1, M = 64: lane = (m / 16) * 32 + a + m % 16, a = 0 or 16
 *   G  cta_group::1 .ws, M = 32: lane = m + 32 * (n / (N / 4)), col = n % (N / 4)
 * [?] The column of B/E's upper half (n - N/2) and layouts C, E, G follow
 * the PTX data-path figures as read by TVM's tmem_datapath_layout docs and
 * CUTLASS tmem_frg_2sm; the seed text gives only the lanes of B.  No
 * Blackwell silicon has checked them here.
 */
typedef enum {
	TCP_ACC_A = 'A', TCP_ACC_B = 'B', TCP_ACC_C = 'C', TCP_ACC_D = 'D',
	TCP_ACC_E = 'E', TCP_ACC_F = 'F', TCP_ACC_G = 'G'
} tcp_acc_layout_t;

typedef struct {
	int cta_group;		/* 1 or 2 */
	unsigned m, n;		/* instruction M (the pair's M for cta_group::2) and N */
	unsigned ws;		/* tcgen05.mma.ws */
	unsigned sparse;	/* structured-sparse A */
	unsigned lane_align;	/* layout F/C: 0 or 16 */
} tcp_acc_cfg_t;

/* One TMEM cell: which CTA of the pair (0 even, 1 odd), lane, column offset. */
typedef struct {
	unsigned cta, lane, col;
} tcp_tmem_cell_t;

/* Layout letter for a configuration, 0 if no layout exists for it. */
TCP_HD int tcp_acc_layout(const tcp_acc_cfg_t *c)
{
	if (c->cta_group == 2 && !c->ws) {
		if (c->m == 256)
			return TCP_ACC_A;
		if (c->m == 128)
			return c->sparse ? TCP_ACC_C : TCP_ACC_B;
		return 0;
	}
	if (c->cta_group != 1)
		return 0;
	if (c->ws)
		return c->m == 128 ? TCP_ACC_D : c->m == 64 ? TCP_ACC_E : c->m == 32 ? TCP_ACC_G : 0;
	return c->m == 128 ? TCP_ACC_D : c->m == 64 ? TCP_ACC_F : 0;
}

/* Columns of the accumulator in each CTA (the allocation must cover them). */
TCP_HD unsigned tcp_acc_cols(const tcp_acc_cfg_t *c)
{
	switch (tcp_acc_layout(c)) {
	case TCP_ACC_B: case TCP_ACC_E: return c->n / 2;
	case TCP_ACC_G: return c->n / 4;
	case 0: return 0;
	default: return c->n;
	}
}

/*
 * tcp_acc_map()
 *	D[m][n] -> (CTA, lane, column offset from the accumulator's address).
 *	Returns 0, or -1 when (m, n) is outside the tile or no layout exists.
 */
TCP_HD int tcp_acc_map(const tcp_acc_cfg_t *c, unsigned m, unsigned n, tcp_tmem_cell_t *o)
{
	int l = tcp_acc_layout(c);
	unsigned h;

	if (!l || m >= c->m || n >= c->n)
		return -1;
	o->cta = 0;
	o->col = n;
	switch (l) {
	case TCP_ACC_A:
		o->cta = m / 128;
		o->lane = m % 128;
		break;
	case TCP_ACC_B:
	case TCP_ACC_E:
		h = c->n / 2;
		o->cta = l == TCP_ACC_B ? m / 64 : 0;
		o->lane = m % 64 + (n >= h ? 64 : 0);
		o->col = n % h;
		break;
	case TCP_ACC_C:
		o->cta = m / 64;
		o->lane = (m % 64) / 16 * 32 + c->lane_align + m % 16;
		break;
	case TCP_ACC_D:
		o->lane = m;
		break;
	case TCP_ACC_F:
		o->lane = m / 16 * 32 + c->lane_align + m % 16;
		break;
	case TCP_ACC_G:
		h = c->n / 4;
		o->lane = m + 32 * (n / h);
		o->col = n % h;
		break;
	default:
		return -1;
	}
	return 0;
}

/* tcgen05.ld / tcgen05.st shapes. */
typedef enum {
	TCP_LD_32X32B = 0,
	TCP_LD_16X64B,
	TCP_LD_16X128B,
	TCP_LD_16X256B,
	TCP_LD_16X32BX2,
	TCP_LD_SHAPE_COUNT
} tcp_ld_shape_t;

/* Registers per thread of one .x1 access: 1, 1, 2, 4, 1. */
TCP_HD unsigned tcp_ld_base_regs(tcp_ld_shape_t s)
{
	return s == TCP_LD_16X128B ? 2 : s == TCP_LD_16X256B ? 4 : 1;
}

/* Registers per thread for .num = x`num`; 0 if num is not a legal power of two or > 128 regs. */
TCP_HD unsigned tcp_ld_regs(tcp_ld_shape_t s, unsigned num)
{
	unsigned r = tcp_ld_base_regs(s) * num;

	if (num == 0 || (num & (num - 1)) || num > 128 || r > 128)
		return 0;
	return r;
}

/*
 * tcp_ld_map()
 *	Register `reg` of thread `t` (lane of the warp, 0..31) of a
 *	tcgen05.ld/st of shape s and .num `num` -> (lane, column) offsets from
 *	the instruction's TMEM address.  `half` is 16x32bx2's immediate column
 *	offset of the second half.  Returns 0, or -1 for an out-of-range input.
 *	  32x32b:   lane t, column r                       [PTX; facts s.4]
 *	  16x64b:   lane t/4 + 8*(t%2), column (t/2)%2 + 2r
 *	  16x128b:  lane t/4 + 8*(r%2), column t%4 + 4*(r/2)
 *	  16x256b:  lane t/4 + 8*((r/2)%2), column 2*(t%4) + r%2 + 8*(r/4)
 *	  16x32bx2: lane t%16, column r + (t >= 16 ? half : 0)
 *	The x1 forms are read off CUTLASS copy_traits_sm100.hpp
 *	(Copy_Traits<SM100_TMEM_LOAD_16dp64b1x / 16dp128b1x / 16dp256b1x /
 *	16dp32b1x>::DstLayout) and agree with TVM's reading of the PTX figures;
 *	the .num repeats extend along columns.  Not yet checked on silicon.
 */

TCP_HD int tcp_ld_map(tcp_ld_shape_t s, unsigned num, unsigned half, unsigned t, unsigned r,
		      unsigned *lane, unsigned *col)
{
	unsigned nr = tcp_ld_regs(s, num);

	if (!nr || t >= 32 || r >= nr)
		return -1;
	switch (s) {
	case TCP_LD_32X32B:
		*lane = t;
		*col = r;
		break;
	case TCP_LD_16X64B:
		*lane = t / 4 + 8 * (t % 2);
		*col = (t / 2) % 2 + 2 * r;
		break;
	case TCP_LD_16X128B:
		*lane = t / 4 + 8 * (r % 2);
		*col = t % 4 + 4 * (r / 2);
		break;
	case TCP_LD_16X256B:
		*lane = t / 4 + 8 * ((r / 2) % 2);
		*col = 2 * (t % 4) + r % 2 + 8 * (r / 4);
		break;
	case TCP_LD_16X32BX2:
		*lane = t % 16;
		*col = r + (t >= 16 ? half : 0);
		break;
	default:
		return -1;
	}
	return 0;
}

/* Lanes (rows) and columns one access of shape s x num covers (16x32bx2: without `half`). */
TCP_HD unsigned tcp_ld_lanes(tcp_ld_shape_t s) { return s == TCP_LD_32X32B ? 32 : 16; }
TCP_HDC unsigned tcp_ld_cols(tcp_ld_shape_t s, unsigned num)
{
	switch (s) {
	case TCP_LD_32X32B: case TCP_LD_16X32BX2: return num;
	case TCP_LD_16X64B: return 2 * num;
	case TCP_LD_16X128B: return 4 * num;
	case TCP_LD_16X256B: return 8 * num;
	default: return 0;
	}
}

/*
 * tcp_ld_half_offset()
 *	16x32bx2's immediate half-split offset: where the second 16-lane half
 *	starts, in columns.  Unpacked, each register is one column, so the
 *	first half spans num columns and the second starts at num; with
 *	.pack::16b / .unpack::16b each register spans two 16-bit columns, the
 *	first half spans 2 x num and the second must start at 2 x num or the
 *	halves overlap (CUTLASS cute/arch/copy_sm100.hpp, every
 *	SM100_TMEM_{LOAD,STORE}_16dp32b<num>x_16b passes 2 x num).
 */
TCP_HDC unsigned tcp_ld_half_offset(unsigned num, int pack)
{
	return pack ? 2 * num : num;
}

/*
 * tcp_ld_footprint()
 *	TMEM columns one tcgen05.ld/st of shape s x num touches from its
 *	address: the register columns, doubled by .pack::16b / .unpack::16b
 *	(two 16-bit columns per register), and for 16x32bx2 the second half
 *	at tcp_ld_half_offset().  A placement is legal when address column +
 *	footprint <= the allocation's columns.  0 for an unknown shape.
 */
TCP_HDC unsigned tcp_ld_footprint(tcp_ld_shape_t s, unsigned num, int pack)
{
	unsigned w = tcp_ld_cols(s, num) * (pack ? 2u : 1u);

	return s == TCP_LD_16X32BX2 ? tcp_ld_half_offset(num, pack) + w : w;
}

/*
 * tcgen05.cp shapes: the six forms of facts s.5, numbered as the probes'
 * tcp_tc_cp<CG, SHAPE, FMT> (probes/common/tcgen05.cuh) takes them.
 */
enum {
	TCP_CP_128X256B = 0,
	TCP_CP_4X256B,
	TCP_CP_128X128B,
	TCP_CP_64X128B_02_13,	/* .warpx2::02_13 */
	TCP_CP_64X128B_01_23,	/* .warpx2::01_23 */
	TCP_CP_32X128B_X4,	/* .warpx4 */
	TCP_CP_NSHAPES
};

/* Bytes one tcgen05.cp reads from shared memory (before decompression, FMT 0). */
TCP_HDC int tcp_tc_cp_bytes(int shape)
{
	switch (shape) {
	case TCP_CP_128X256B: return 128 * 32;
	case TCP_CP_4X256B: return 4 * 32;
	case TCP_CP_128X128B: return 128 * 16;
	case TCP_CP_64X128B_02_13: case TCP_CP_64X128B_01_23: return 64 * 16;
	default: return 32 * 16;
	}
}

#ifdef __cplusplus
}
#endif
#endif /* TCP_MODEL_TMEM_H */
