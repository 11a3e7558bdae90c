/*
 * emu-datapath.h
 *	The tcgen05 emulation's TMEM data paths: where each register of a
 *	tcgen05.ld / tcgen05.st / tcgen05.ld.red lands in TMEM, the per-thread
 *	executors of those three, and the single-thread executor of tcgen05.cp
 *	(shared memory through a matrix descriptor into TMEM, with the optional
 *	4-/6-bit to 8-bit decompression).  Plain C (TCP_HD): the device runtime
 *	(probes/emu/tc-emu.cuh) and tests/test-emu-datapath.c run the same code.
 *
 *	Everything here follows the PTX ISA (tcgen05 chapter, 9.7.16 in ISA
 *	9.1) and never model/: the model's tcp_ld_map() is the other side of
 *	the comparison in the test.  Sections cited below by name:
 *	  [LD]   "Tensorcore 5th Generation Instructions: tcgen05.ld" (and .st)
 *	  [FRAG] "Matrix fragments for shape .32x32b / .16x64b / .16x128b /
 *	         .16x256b / .16x32bx2" (figures 183-187)
 *	  [PACK] "Packing and Unpacking" (figure 193)
 *	  [CP]   "Tensorcore 5th Generation Instructions: tcgen05.cp"
 *	  [DEC]  "Optional Decompression" (figures 194-198)
 *	  [SUB]  "Padding and alignment of the sub-byte types" (5.5.1.1.1)
 *	  [MMA8] warp-level mma "kind::f8f6f4" operand text (8-bit containers)
 *	The ISA's fragment and decompression figures are images; the text
 *	layouts below are CUTLASS's transcription of them, which the test
 *	checks cell by cell: cute/atom/copy_traits_sm100.hpp
 *	Copy_Traits<SM100_TMEM_LOAD_*>::DstLayout (ld/st) and
 *	Copy_Traits<SM100_UTCCP_*>::ValID / SrcLayout / DstLayout (cp).
 *
 *	TMEM of one SM is `uint32_t tmem_sm[lane * 512 + col]`
 *	(TCP_EMU_LANES x TCP_EMU_COLS, emu-view.h).  A TMEM address is lane in
 *	bits 31-16, column in bits 15-0 (PTX "Tensor Memory Addressing").
 */
#ifndef TCP_EMU_DATAPATH_H
#define TCP_EMU_DATAPATH_H

#include <stdint.h>

#include "model/hd.h"
#include "probes/emu/emu-view.h"
#include "probes/emu/emu-decode.h"

/* tcgen05.ld / st shapes, numbered as probes/common/tcgen05.cuh TCP_TC_*. */
enum {
	TCP_EMU_LD_32X32B = 0,
	TCP_EMU_LD_16X64B = 1,
	TCP_EMU_LD_16X128B = 2,
	TCP_EMU_LD_16X256B = 3,
	TCP_EMU_LD_16X32BX2 = 4,
	TCP_EMU_LD_NSHAPES
};

/* tcgen05.cp shapes, numbered as model/tmem.h TCP_CP_*. */
enum {
	TCP_EMU_CP_128X256B = 0,
	TCP_EMU_CP_4X256B = 1,
	TCP_EMU_CP_128X128B = 2,
	TCP_EMU_CP_64X128B_02_13 = 3,	/* .warpx2::02_13 */
	TCP_EMU_CP_64X128B_01_23 = 4,	/* .warpx2::01_23 */
	TCP_EMU_CP_32X128B_X4 = 5,	/* .warpx4 */
	TCP_EMU_CP_NSHAPES
};

/* tcgen05.cp source formats (the probes' FMT template argument). */
enum {
	TCP_EMU_CP_PLAIN = 0,
	TCP_EMU_CP_B6X16_P32 = 1,	/* .b8x16.b6x16_p32 */
	TCP_EMU_CP_B4X16_P64 = 2,	/* .b8x16.b4x16_p64 */
	TCP_EMU_CP_NFMTS
};

/* tcgen05.ld.red: .redOp, the element type, and the .abs / .NaN qualifiers. */
enum { TCP_EMU_RED_MIN = 0, TCP_EMU_RED_MAX = 1 };
enum { TCP_EMU_RED_F32 = 0, TCP_EMU_RED_U32 = 1, TCP_EMU_RED_S32 = 2 };
#define TCP_EMU_RED_ABS 1u	/* .abs (f32 only) */
#define TCP_EMU_RED_NAN 2u	/* .NaN (f32 only) */
#define TCP_EMU_F32_CANON_NAN 0x7FFFFFFFu	/* PTX canonical NaN */

/* ---- tcgen05.ld / tcgen05.st ------------------------------------------- */

/* Registers per thread of one .x1 access (PTX [LD] Table 49): 1, 1, 2, 4, 1. */
TCP_HD unsigned tcp_emu_ldst_base(unsigned shape)
{
	return shape == TCP_EMU_LD_16X128B ? 2u : shape == TCP_EMU_LD_16X256B ? 4u : 1u;
}

/* Registers per thread for .num = `num`; 0 for an unknown shape, a num that
 * is not x1..x128, or more than 128 registers ([LD] Table 49 "NA"). */
TCP_HD unsigned tcp_emu_ldst_regs(unsigned shape, unsigned num)
{
	unsigned r;

	if (shape >= TCP_EMU_LD_NSHAPES || num == 0 || num > 128 || (num & (num - 1)))
		return 0;
	r = tcp_emu_ldst_base(shape) * num;
	return r > 128 ? 0 : r;
}

/*
 * tcp_emu_ldst_unpacked()
 *	Lane offset and 32-bit column of register `reg` of thread `t` in the
 *	unpacked form, without 16x32bx2's second-half offset.  From the PTX
 *	[FRAG] figures as CUTLASS copy_traits_sm100.hpp transcribes them
 *	(SM100_TMEM_LOAD_32dp32b1x, 16dp64b1x, 16dp128b1x, 16dp256b1x,
 *	16dp32b1x DstLayout); .num repeats the x1 pattern along the columns
 *	([LD]: "the repeat factor on the base dimension"):
 *	  32x32b    lane t,                   column r
 *	  16x64b    lane t/4 + 8 (t%2),       column (t/2)%2 + 2r
 *	  16x128b   lane t/4 + 8 (r%2),       column t%4 + 4 (r/2)
 *	  16x256b   lane t/4 + 8 ((r/2)%2),   column 2 (t%4) + r%2 + 8 (r/4)
 *	  16x32bx2  lane t%16,                column r (second half: + offset)
 */
TCP_HD void tcp_emu_ldst_unpacked(unsigned shape, unsigned t, unsigned reg, unsigned *lane, unsigned *col)
{
	switch (shape) {
	case TCP_EMU_LD_16X64B:
		*lane = t / 4 + 8 * (t % 2);
		*col = (t / 2) % 2 + 2 * reg;
		break;
	case TCP_EMU_LD_16X128B:
		*lane = t / 4 + 8 * (reg % 2);
		*col = t % 4 + 4 * (reg / 2);
		break;
	case TCP_EMU_LD_16X256B:
		*lane = t / 4 + 8 * ((reg / 2) % 2);
		*col = 2 * (t % 4) + reg % 2 + 8 * (reg / 4);
		break;
	case TCP_EMU_LD_16X32BX2:
		*lane = t % 16;
		*col = reg;
		break;
	default:
		*lane = t;
		*col = reg;
		break;
	}
}

/*
 * tcp_emu_ldst_cell()
 *	The TMEM cell register `reg` (0 .. base*num-1) of lane-in-warp `t`
 *	(0..31) reads or writes: lane offset from the address's lane, column
 *	offset from the address's column; `half_off` is 16x32bx2's immediate
 *	(the second 16x32b access is at taddr + immHalfSplitoff, [LD]).
 *	Unpacked: one 32-bit cell per register.  Packed (.pack::16b /
 *	.unpack::16b, [PACK]: two 16-bit chunks of adjacent columns in one
 *	register): the register's 16-bit half `part` (0 low, 1 high) is the low
 *	16 bits of its own cell, column 2c + part where c is the unpacked
 *	column; 16x32bx2 keeps its second half at half_off (CUTLASS
 *	SM100_TMEM_LOAD_16dp32b*x_16b pass 2 x num).  Returns 0 or
 *	TCP_EMU_BAD_FORM (unknown shape or num, reg or t out of range).
 */
TCP_HD int tcp_emu_ldst_cell(unsigned shape, unsigned num, unsigned pack, unsigned half_off, unsigned t,
			     unsigned reg, unsigned part, unsigned *dlane, unsigned *dcol)
{
	unsigned n = tcp_emu_ldst_regs(shape, num), l, c;

	if (!n || t >= 32 || reg >= n || part > (pack ? 1u : 0u))
		return TCP_EMU_BAD_FORM;
	tcp_emu_ldst_unpacked(shape, t, reg, &l, &c);
	if (pack)
		c = 2 * c + part;
	if (shape == TCP_EMU_LD_16X32BX2 && t >= 16)
		c += half_off;
	*dlane = l;
	*dcol = c;
	return TCP_EMU_OK;
}

/*
 * tcp_emu_ldst_extent()
 *	Lanes and columns one warp's access touches, counted from the address:
 *	lanes [lane, lane + *lanes), columns [col, col + *cols).  32 lanes for
 *	32x32b, 16 for the others; columns = the register columns (doubled by
 *	.pack::16b / .unpack::16b), and for 16x32bx2 up to the end of the
 *	second half at half_off.  0 / 0 for an unknown shape or num.
 */
TCP_HD void tcp_emu_ldst_extent(unsigned shape, unsigned num, unsigned pack, unsigned half_off, unsigned *lanes,
				unsigned *cols)
{
	unsigned n = tcp_emu_ldst_regs(shape, num), w;

	if (!n) {
		*lanes = 0;
		*cols = 0;
		return;
	}
	*lanes = shape == TCP_EMU_LD_32X32B ? 32u : 16u;
	/* unpacked columns: 32x32b/16x32bx2 num, 16x64b 2 num, 16x128b 4 num, 16x256b 8 num */
	w = shape == TCP_EMU_LD_32X32B || shape == TCP_EMU_LD_16X32BX2 ? num : 2u * n;
	if (pack)
		w *= 2;
	if (shape == TCP_EMU_LD_16X32BX2)
		w += half_off;
	*cols = w;
}

/*
 * tcp_emu_ldst_check()
 *	The address checks an ld/st shares: the access must lie inside
 *	128 x 512 and inside one 32-lane quarter (a warp reaches only its
 *	quarter, PTX "Access restrictions"; the 32x32b address therefore has
 *	lane % 32 = 0).  Which quarter the issuing warp may touch (warp id % 4)
 *	is the runtime's checker's business.  Returns 0, TCP_EMU_BAD_FORM or
 *	TCP_EMU_BAD_TADDR.
 */
TCP_HD int tcp_emu_ldst_check(uint32_t taddr, unsigned shape, unsigned num, unsigned pack, unsigned half_off)
{
	unsigned lanes, cols, lane = taddr >> 16, col = taddr & 0xFFFFu;

	tcp_emu_ldst_extent(shape, num, pack, half_off, &lanes, &cols);
	if (!lanes)
		return TCP_EMU_BAD_FORM;
	if (lane >= TCP_EMU_LANES || lane % 32 + lanes > 32 || col >= TCP_EMU_COLS || cols > TCP_EMU_COLS - col)
		return TCP_EMU_BAD_TADDR;
	return TCP_EMU_OK;
}

/*
 * tcp_emu_ldst_origin()
 *	Word offset, in an SM's TMEM image, of thread t's first cell of one
 *	tcgen05.ld / st (16x32bx2: the second 16 threads start half_off
 *	columns further).  Returns 0 or a TCP_EMU_* fault.
 */
TCP_HD int tcp_emu_ldst_origin(uint32_t taddr, unsigned shape, unsigned num, unsigned pack, unsigned half_off,
			       unsigned t, size_t *off)
{
	int e = tcp_emu_ldst_check(taddr, shape, num, pack, half_off);

	*off = 0;
	if (e)
		return e;
	if (t >= 32)
		return TCP_EMU_BAD_FORM;
	*off = (size_t)(taddr >> 16) * TCP_EMU_COLS + (taddr & 0xFFFFu);
	if (shape == TCP_EMU_LD_16X32BX2 && t >= 16)
		*off += half_off;
	return TCP_EMU_OK;
}

/*
 * tcp_emu_ld()
 *	Thread t's part of one tcgen05.ld: r[0 .. base*num-1] from TMEM.
 *	.pack::16b: register = low 16 bits of cell 2c (bits 15-0) and of cell
 *	2c+1 (bits 31-16) ([PACK]).  Returns 0 or a TCP_EMU_* fault (nothing
 *	read then).
 */
TCP_HD int tcp_emu_ld(const uint32_t *tmem_sm, uint32_t taddr, unsigned shape, unsigned num, unsigned pack,
		      unsigned half_off, unsigned t, uint32_t *r)
{
	unsigned n = tcp_emu_ldst_regs(shape, num), i, l, c;
	size_t off;
	int e = tcp_emu_ldst_origin(taddr, shape, num, pack, half_off, t, &off);
	const uint32_t *base = tmem_sm + off;

	if (e)
		return e;
	for (i = 0; i < n; i++) {
		const uint32_t *p;

		tcp_emu_ldst_unpacked(shape, t, i, &l, &c);
		p = base + (size_t)l * TCP_EMU_COLS;
		if (pack)
			r[i] = (p[2 * c] & 0xFFFFu) | p[2 * c + 1] << 16;
		else
			r[i] = p[c];
	}
	return TCP_EMU_OK;
}

/*
 * tcp_emu_st()
 *	Thread t's part of one tcgen05.st: r[0 .. base*num-1] into TMEM.
 *	.unpack::16b: bits 15-0 of the register go to cell 2c, bits 31-16 to
 *	cell 2c+1, each as the low 16 bits of its cell ([PACK]).  [?] The ISA
 *	does not say what the upper 16 bits of such a cell become; they are
 *	written 0 here (the D packing rule, PTX "Packing format for matrix D
 *	in Tensor Memory": a 16-bit element sits in the lower 16 bits).
 *	Returns 0 or a TCP_EMU_* fault (nothing written then).
 */
TCP_HD int tcp_emu_st(uint32_t *tmem_sm, uint32_t taddr, unsigned shape, unsigned num, unsigned unpack,
		      unsigned half_off, unsigned t, const uint32_t *r)
{
	unsigned n = tcp_emu_ldst_regs(shape, num), i, l, c;
	size_t off;
	int e = tcp_emu_ldst_origin(taddr, shape, num, unpack, half_off, t, &off);
	uint32_t *base = tmem_sm + off;

	if (e)
		return e;
	for (i = 0; i < n; i++) {
		uint32_t *p;

		tcp_emu_ldst_unpacked(shape, t, i, &l, &c);
		p = base + (size_t)l * TCP_EMU_COLS;
		if (unpack) {
			p[2 * c] = r[i] & 0xFFFFu;
			p[2 * c + 1] = r[i] >> 16;
		} else {
			p[c] = r[i];
		}
	}
	return TCP_EMU_OK;
}

/* ---- tcgen05.ld.red ---------------------------------------------------- */

/* f32 ordering key: monotone in the float value, -0.0 below +0.0 (the
 * redux.sync f32 rule "+0.0 > -0.0" that min/max reductions share). */
TCP_HD uint32_t tcp_emu_f32_key(uint32_t x)
{
	return x & 0x80000000u ? ~x : x | 0x80000000u;
}

TCP_HD int tcp_emu_f32_isnan(uint32_t x)
{
	return (x & 0x7F800000u) == 0x7F800000u && (x & 0x007FFFFFu);
}

/*
 * tcp_emu_red()
 *	The .redOp reduction of v[0 .. n-1] ([LD]: "performed on the data that
 *	is loaded across columns in each lane", written to redval).
 *	u32 / s32: integer min or max.  f32: .abs reduces |x| (and returns the
 *	absolute value); NaN inputs are skipped, and the result is the
 *	canonical NaN when every input is NaN, or with .NaN when any input is
 *	NaN.  [?] The tcgen05.ld text names .abs and .NaN without defining
 *	them; this is their definition in redux.sync's f32 form (PTX
 *	"redux.sync"), the other PTX min/max reduction with the same qualifiers.
 */
TCP_HD uint32_t tcp_emu_red(const uint32_t *v, unsigned n, unsigned op, unsigned type, unsigned flags)
{
	uint32_t best = 0;
	unsigned i, have = 0;

	if (type == TCP_EMU_RED_F32) {
		for (i = 0; i < n; i++) {
			uint32_t x = flags & TCP_EMU_RED_ABS ? v[i] & 0x7FFFFFFFu : v[i];

			if (tcp_emu_f32_isnan(x)) {
				if (flags & TCP_EMU_RED_NAN)
					return TCP_EMU_F32_CANON_NAN;
				continue;
			}
			if (!have || (op == TCP_EMU_RED_MAX ? tcp_emu_f32_key(x) > tcp_emu_f32_key(best)
							    : tcp_emu_f32_key(x) < tcp_emu_f32_key(best)))
				best = x;
			have = 1;
		}
		return have ? best : TCP_EMU_F32_CANON_NAN;
	}
	for (i = 0; i < n; i++) {
		uint32_t x = v[i];
		int less = type == TCP_EMU_RED_S32 ? (int32_t)x < (int32_t)best : x < best;
		int more = type == TCP_EMU_RED_S32 ? (int32_t)x > (int32_t)best : x > best;

		if (!i || (op == TCP_EMU_RED_MAX ? more : less))
			best = x;
	}
	return best;
}

/*
 * tcp_emu_ld_red()
 *	Thread t's part of one tcgen05.ld.red: loads r[0 .. num-1] as
 *	tcgen05.ld of the same shape (no .pack form exists) and writes the
 *	reduction of those num values to *redval.  [LD]: shapes 32x32b and
 *	16x32bx2 only, .num at least .x2; op TCP_EMU_RED_MIN/MAX, type
 *	TCP_EMU_RED_F32/U32/S32, flags TCP_EMU_RED_ABS | TCP_EMU_RED_NAN (f32
 *	only).  Returns 0 or a TCP_EMU_* fault.
 */
TCP_HD int tcp_emu_ld_red(const uint32_t *tmem_sm, uint32_t taddr, unsigned shape, unsigned num, unsigned half_off,
			  unsigned t, unsigned op, unsigned type, unsigned flags, uint32_t *r, uint32_t *redval)
{
	int e;

	if ((shape != TCP_EMU_LD_32X32B && shape != TCP_EMU_LD_16X32BX2) || num < 2 || op > TCP_EMU_RED_MAX ||
	    type > TCP_EMU_RED_S32 || (type != TCP_EMU_RED_F32 && flags) || flags > 3u)
		return TCP_EMU_BAD_FORM;
	e = tcp_emu_ld(tmem_sm, taddr, shape, num, 0, half_off, t, r);
	if (e)
		return e;
	*redval = tcp_emu_red(r, num, op, type, flags);
	return TCP_EMU_OK;
}

/* ---- tcgen05.cp -------------------------------------------------------- */

/* Rows of the source matrix: 128, 4, 128, 64, 64, 32 ([CP] .shape); 0 if unknown. */
TCP_HD unsigned tcp_emu_cp_rows(unsigned shape)
{
	switch (shape) {
	case TCP_EMU_CP_128X256B: case TCP_EMU_CP_128X128B: return 128;
	case TCP_EMU_CP_4X256B: return 4;
	case TCP_EMU_CP_64X128B_02_13: case TCP_EMU_CP_64X128B_01_23: return 64;
	case TCP_EMU_CP_32X128B_X4: return 32;
	default: return 0;
	}
}

/* 16-byte chunks per row: 2 for the 256b shapes, 1 for the 128b shapes. */
TCP_HD unsigned tcp_emu_cp_chunks(unsigned shape)
{
	return shape == TCP_EMU_CP_128X256B || shape == TCP_EMU_CP_4X256B ? 2u : 1u;
}

/* Copies of every row (the .multicast replicas): 1, 1, 1, 2, 2, 4. */
TCP_HD unsigned tcp_emu_cp_copies(unsigned shape)
{
	return shape == TCP_EMU_CP_32X128B_X4 ? 4u : shape == TCP_EMU_CP_64X128B_02_13 ||
		shape == TCP_EMU_CP_64X128B_01_23 ? 2u : 1u;
}

/*
 * tcp_emu_cp_lane()
 *	Lane offset (from the address's lane) of copy `rep` of source row `i`.
 *	[CP]: .warpx2::02_13 multicasts into warp pairs 0/2 and 1/3,
 *	.warpx2::01_23 into 0/1 and 2/3, "each warp in the warp pair receive
 *	half of the data"; .warpx4 into all four warps.  Lanes as CUTLASS
 *	copy_traits_sm100.hpp writes them (ValID, logical bit -> TMEM offset):
 *	  128x256b, 128x128b   row i -> lane i
 *	  4x256b               row i -> lane 32 i (4DP: one lane per quarter,
 *	                       SM100_UTCCP_4dp256bit DstLayout (4,256):(32,128))
 *	  64x128b 02_13        row i -> lanes i, i + 64 (SM100_UTCCP_2x64dp128bitlw0213
 *	                       ValID (64,128,2):(DP,1,64 DP))
 *	  64x128b 01_23        row i -> lanes 64 (i/32) + i%32, + 32
 *	                       (SM100_UTCCP_2x64dp128bitlw0123 ValID
 *	                       (32,128,2,2):(DP,1,64 DP,32 DP))
 *	  32x128b warpx4       row i -> lanes i + 32 q, q = 0..3
 *	                       (SM100_UTCCP_4x32dp128bit ValID (32,128,4):(DP,1,32 DP))
 */
TCP_HD unsigned tcp_emu_cp_lane(unsigned shape, unsigned i, unsigned rep)
{
	switch (shape) {
	case TCP_EMU_CP_4X256B: return 32 * i;
	case TCP_EMU_CP_64X128B_02_13: return i + 64 * rep;
	case TCP_EMU_CP_64X128B_01_23: return 64 * (i / 32) + i % 32 + 32 * rep;
	case TCP_EMU_CP_32X128B_X4: return i + 32 * rep;
	default: return i;
	}
}

/*
 * tcp_emu_cp_extent()
 *	The box one tcgen05.cp writes: lanes [lane0, lane0 + lanes), columns
 *	[col0, col0 + cols).  Every shape but 4x256b fills its box; 4x256b
 *	writes one lane in 32 of it (lanes lane0 + 32 i, tcp_emu_cp_lane()).
 *	Columns: 8 for the 256b shapes, 4 for the 128b ones, with or without
 *	decompression (a 16-byte source chunk becomes 16 bytes of TMEM).
 */
TCP_HD void tcp_emu_cp_extent(unsigned shape, uint32_t taddr, unsigned *lane0, unsigned *lanes, unsigned *col0,
			      unsigned *cols)
{
	*lane0 = taddr >> 16;
	*col0 = taddr & 0xFFFFu;
	if (shape >= TCP_EMU_CP_NSHAPES) {
		*lanes = 0;
		*cols = 0;
		return;
	}
	*lanes = shape == TCP_EMU_CP_4X256B ? 97u : 128u;
	*cols = 4 * tcp_emu_cp_chunks(shape);
}

/*
 * tcp_emu_cp_decompress()
 *	One 16-byte source chunk -> 16 bytes of 8-bit containers, as four
 *	32-bit TMEM words (container e = byte e % 4 of word e / 4).
 *	.b4x16_p64: 16 packed 4-bit elements (element e = bits 4e..4e+3 of the
 *	first 8 bytes, little-endian), 8 bytes of padding after them ([SUB]
 *	"sixteen contiguous 4-bits ... with the append of 64-bits of padding");
 *	element e lands in bits 5-2 of container e, bits 7-6 and 1-0 zero.
 *	.b6x16_p32: 16 packed 6-bit elements in the first 12 bytes, 4 bytes of
 *	padding after; element e lands in bits 5-0 of container e, bits 7-6
 *	zero.  The padding bytes are never read.  Container positions: [DEC]
 *	figures 195-198 are images; the text of [MMA8] places e2m1 "in central
 *	4 bits of the 8-bit container" and e3m2/e2m3 "in the lower 6 bits" with
 *	the padding in the upper 2 bits, and [SUB] .b6p2x16 (6 bits at the
 *	LSB, 2 padding bits at the MSB) is the same container read back; the
 *	8-bit form tcgen05.cp writes is what kind::f8f6f4 / mxf8f6f4 read from
 *	TMEM, which is that container.
 */
TCP_HD void tcp_emu_cp_decompress(const uint32_t *in, unsigned fmt, uint32_t *out)
{
	uint64_t lo = (uint64_t)in[0] | (uint64_t)in[1] << 32;
	unsigned w, b;

	if (fmt == TCP_EMU_CP_B4X16_P64) {
		for (w = 0; w < 4; w++) {
			uint32_t v = 0;

			for (b = 0; b < 4; b++)
				v |= (uint32_t)((lo >> (4 * (4 * w + b))) & 0xFu) << (8 * b + 2);
			out[w] = v;
		}
		return;
	}
	/* 6-bit: 96 bits in in[0..2]; element e at bits 6e..6e+5 */
	for (w = 0; w < 4; w++) {
		uint32_t v = 0;

		for (b = 0; b < 4; b++) {
			unsigned e = 4 * w + b, bit = 6 * e;
			uint32_t x;

			if (bit + 6 <= 64)
				x = (uint32_t)(lo >> bit);
			else if (bit >= 64)
				x = in[2] >> (bit - 64);
			else
				x = (uint32_t)(lo >> bit) | in[2] << (64 - bit);
			v |= (x & 0x3Fu) << (8 * b);
		}
		out[w] = v;
	}
}

/*
 * tcp_emu_cp()
 *	Execute one tcgen05.cp into one CTA's TMEM.  The source is a
 *	rows x (16 x chunks)-byte matrix (tcp_emu_cp_rows / _chunks) addressed
 *	through the shared-memory descriptor in its K-major reading: chunk
 *	(i, j) = row i (the TMEM lane axis), 16-byte chunk j along the row (the
 *	TMEM column axis), core matrices of 8 rows x 16 bytes, SBO between
 *	8-row groups, LBO between the chunks of a row (CUTLASS
 *	copy_traits_sm100.hpp: a UTCCP ValID is [core_matrix_strided,
 *	core_matrix_leading, ...] with strides TMEM::DP_b and 1).  Chunk (i, j)
 *	goes to lane lane0 + tcp_emu_cp_lane(shape, i, rep) for every copy rep,
 *	columns col0 + 4j .. col0 + 4j + 3, its bytes in little-endian order,
 *	decompressed first when fmt says so.
 *	`smem` is the generic pointer to shared address 0 of the CTA whose
 *	shared memory is read; smem_bytes bounds it (an operand byte at or
 *	beyond it is TCP_EMU_BAD_SMEM).
 *	cta_group::2: [CP] "the data is copied into the Tensor Memory of both
 *	the current and the peer CTAs"; the ISA does not say whose shared
 *	memory each copy reads.  CUTLASS's SM100_UTCCP_*_2cta traits give both
 *	CTAs (ThrID 2) the same source layout with stride 0, i.e. one
 *	descriptor that each CTA resolves in its own shared window, the rule
 *	cta_group::2 tcgen05.mma follows for its descriptors; TVM's tcgen05.cp
 *	notes say so explicitly ("both CTAs copy from their own corresponding
 *	shared storage into their own TMEM").  The runtime therefore calls this
 *	once per CTA of the pair with that CTA's smem and TMEM and the same
 *	taddr and descriptor.
 *	Nothing is written when a fault is returned: 0, TCP_EMU_BAD_FORM,
 *	TCP_EMU_BAD_SDESC, TCP_EMU_BAD_TADDR or TCP_EMU_BAD_SMEM.
 */
TCP_HD int tcp_emu_cp(const uint8_t *smem, uint32_t smem_bytes, uint32_t *tmem_sm, uint32_t taddr, unsigned shape,
		      unsigned fmt, uint64_t sdesc)
{
	tcp_emu_sdesc_t d;
	unsigned rows = tcp_emu_cp_rows(shape), nch, ncp, lane0 = taddr >> 16, col0 = taddr & 0xFFFFu;
	unsigned i, j, k;
	int e;

	if (!rows || fmt >= TCP_EMU_CP_NFMTS)
		return TCP_EMU_BAD_FORM;
	nch = tcp_emu_cp_chunks(shape);
	ncp = tcp_emu_cp_copies(shape);
	if (lane0 + tcp_emu_cp_lane(shape, rows - 1, ncp - 1) >= TCP_EMU_LANES || col0 >= TCP_EMU_COLS ||
	    4 * nch > TCP_EMU_COLS - col0)
		return TCP_EMU_BAD_TADDR;
	e = tcp_emu_sdesc_decode(sdesc, &d);
	if (e)
		return e;
	/* every chunk inside the window before anything is written */
	for (i = 0; i < rows; i++)
		for (j = 0; j < nch; j++) {
			uint32_t a = tcp_emu_sdesc_chunk(&d, 0, i, j);

			if (a > smem_bytes || smem_bytes - a < 16)
				return TCP_EMU_BAD_SMEM;
		}
	for (i = 0; i < rows; i++)
		for (j = 0; j < nch; j++) {
			const uint32_t *src = (const uint32_t *)(smem + tcp_emu_sdesc_chunk(&d, 0, i, j));
			uint32_t v[4];

			if (fmt == TCP_EMU_CP_PLAIN) {
				v[0] = src[0];
				v[1] = src[1];
				v[2] = src[2];
				v[3] = src[3];
			} else {
				tcp_emu_cp_decompress(src, fmt, v);
			}
			for (k = 0; k < ncp; k++) {
				uint32_t *dst = tmem_sm + (size_t)(lane0 + tcp_emu_cp_lane(shape, i, k)) * TCP_EMU_COLS +
						col0 + 4 * j;

				dst[0] = v[0];
				dst[1] = v[1];
				dst[2] = v[2];
				dst[3] = v[3];
			}
		}
	return TCP_EMU_OK;
}

#endif /* TCP_EMU_DATAPATH_H */
