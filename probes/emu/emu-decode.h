/*
 * emu-decode.h
 *	The tcgen05 emulation's decoders: the 64-bit shared-memory matrix
 *	descriptor (fields, and the address of every 16-byte chunk of the
 *	canonical layout it describes, swizzle included), the 32-bit
 *	instruction descriptor of every .kind (fields and their legality for
 *	the kind and cta_group) and the TMEM address.  Plain C (TCP_HD), written
 *	from the PTX ISA alone, never from model/: tests/test-emu-decode.c
 *	compares it with model/'s encoders and tests/emu-cute-check.cc with
 *	CUTLASS CuTe.
 *
 *	Sources (PTX ISA 9.x, tcgen05 chapter): "Shared memory descriptor",
 *	"Leading dimension stride: relative offset or absolute address"
 *	(absolute address mode for K dimension being 48B), "Canonical layouts",
 *	"Swizzling", "Instruction descriptor" (the table of .kind::tf32, f16,
 *	f8f6f4, i8, the table of .kind::mxf8f6f4 and the table of .kind::mxf4,
 *	mxf4nvf4), "Matrix shape" (the kind-shapes table); CUTLASS
 *	cute/arch/mma_sm100_desc.hpp (SmemDescriptor, InstrDescriptor,
 *	InstrDescriptorBlockScaled), cute/atom/mma_traits_sm100.hpp
 *	(make_umma_desc, SM103::mma_unpack), cute/arch/mma_sm100_umma.hpp
 *	(SM103_MXF4_ULTRA_SS_VS, SM103_MXF4_ULTRA_2x1SM_SS_VS).
 */
#ifndef TCP_EMU_DECODE_H
#define TCP_EMU_DECODE_H

#include "probes/emu/emu-view.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- shared-memory descriptor ---- */

/*
 * Fields of the 64-bit descriptor, in bytes.  Bits: 0-13 start >> 4,
 * 16-29 LBO >> 4, 32-45 SBO >> 4, 46-48 fixed 0b001, 49-51 base offset,
 * 52 LBO mode (1: LBO is an absolute address), 53-60 zero, 61-63 layout:
 * 0 none, 1 128B with 32-byte atoms, 2 128B, 4 64B, 6 32B.
 */
typedef struct {
	uint32_t start;		/* shared-window byte address of the matrix start (bits 0-13, << 4) */
	uint32_t lbo, sbo;	/* leading / stride byte offsets in bytes (bits 16-29, 32-45, << 4) */
	unsigned fixed;		/* bits 46-48 (must be 0b001 on sm_100) */
	unsigned base_off;	/* bits 49-51 */
	unsigned lbo_abs;	/* bit 52: LBO is an absolute address (K = 96 tiles, sm_103a) */
	unsigned layout;	/* bits 61-63 raw */
	unsigned swz;		/* swizzle bytes: 0 (none), 32, 64, 128 */
	unsigned swz_atom32;	/* layout 1: 128B swizzle with 32-byte atoms */
} tcp_emu_sdesc_t;

#define TCP_EMU_SDESC_FIXED	1u	/* bits 46-48: 0b001 (CUTLASS SmemDescriptor version_ = 1) */

/*
 * tcp_emu_sdesc_decode()
 *	Unpack v into *d (filled either way).  Returns 0, or TCP_EMU_BAD_SDESC
 *	when a field is illegal: bits 46-48 not 0b001, a reserved bit (14-15,
 *	30-31, 53-60) set, layout code 3, 5 or 7, or the absolute LBO mode
 *	outside its PTX restrictions (128B swizzle with 16-byte atoms and base
 *	offset 0 only; its third restriction, K-major operands, is the MMA's
 *	to check: the descriptor does not say its major).
 */
TCP_HD int tcp_emu_sdesc_decode(uint64_t v, tcp_emu_sdesc_t *d)
{
	const uint64_t reserved = 3ull << 14 | 3ull << 30 | 0xFFull << 53;
	int bad = 0;

	d->start = (uint32_t)(v & 0x3FFF) << 4;
	d->lbo = (uint32_t)((v >> 16) & 0x3FFF) << 4;
	d->sbo = (uint32_t)((v >> 32) & 0x3FFF) << 4;
	d->fixed = (unsigned)(v >> 46) & 7;
	d->base_off = (unsigned)(v >> 49) & 7;
	d->lbo_abs = (unsigned)(v >> 52) & 1;
	d->layout = (unsigned)(v >> 61) & 7;
	d->swz_atom32 = d->layout == 1;
	switch (d->layout) {
	case 0: d->swz = 0; break;
	case 1: case 2: d->swz = 128; break;
	case 4: d->swz = 64; break;
	case 6: d->swz = 32; break;
	default: d->swz = 0; bad = 1; break;
	}
	bad |= d->fixed != TCP_EMU_SDESC_FIXED || (v & reserved) != 0;
	bad |= d->lbo_abs && (d->layout != 2 || d->base_off != 0);
	return bad ? TCP_EMU_BAD_SDESC : TCP_EMU_OK;
}

/*
 * tcp_emu_sdesc_swizzle()
 *	The swizzle the hardware applies to a shared-memory byte address: XOR
 *	of the 16-byte chunk bits (4-6; 5-6 for 32-byte atoms) with the row
 *	bits above them (7-9, 7-8, 7).  The row is counted from the start of
 *	the repeating pattern: PTX gives the base offset as (pattern start
 *	address >> 7) & 7 when that start is not on the 1024/512/256-byte
 *	boundary, so the row is (address >> 7) - base offset.  [?] The ISA
 *	gives the formula for the field, not the arithmetic; base offset 0
 *	(every CUTLASS descriptor: make_umma_desc) is the address bits alone.
 */
TCP_HD uint32_t tcp_emu_sdesc_swizzle(const tcp_emu_sdesc_t *d, uint32_t a)
{
	uint32_t row = (a >> 7) - (d->layout ? d->base_off : 0u);

	switch (d->layout) {
	case 6: return a ^ ((row & 1u) << 4);	/* Swizzle<1,4,3> */
	case 4: return a ^ ((row & 3u) << 4);	/* Swizzle<2,4,3> */
	case 2: return a ^ ((row & 7u) << 4);	/* Swizzle<3,4,3> */
	case 1: return a ^ ((row & 3u) << 5);	/* Swizzle<2,5,2>: 32-byte units */
	default: return a;
	}
}

/*
 * tcp_emu_sdesc_chunk()
 *	Shared address of the 16-byte chunk (i, j) of the canonical layout the
 *	descriptor describes (PTX "Canonical layouts", in 16-byte units; W =
 *	swizzle bytes):
 *	  K-major (i = row along M or N, j = chunk along K)
 *	    none:     ((8,m),(1,2k)):((1,SBO),(1,LBO))   row i % 8 16 B apart
 *	    W swizzle: ((8,m),(1,2k)):((W/16,SBO),(1,1)) row i % 8 W apart
 *	  MN-major (i = index along K, j = chunk along M or N)
 *	    none:     ((1,1,m),(8,k)):((1,1,SBO),(1,LBO))
 *	    W swizzle: ((1,W/16,m),(8,k)):((1,1,LBO),(W/16,SBO))
 *	    128B, 32-byte atoms: ((1,8,m),(4,k)):((1,1,LBO),(8,SBO))
 *	then the swizzle on the address.  Absolute LBO mode (K-major, 128B
 *	swizzle; PTX "Absolute address mode for K dimension being 48B"): the
 *	K of one MMA is split where it would cross the 128-byte row; a chunk
 *	at or past the row's end is read from the absolute address LBO at the
 *	same row, continuing from that row's chunk 0 (CUTLASS
 *	SM103::mma_unpack: lbo_mode_ = 1, LBO = the next K buffer's start).
 */
TCP_HD uint32_t tcp_emu_sdesc_chunk(const tcp_emu_sdesc_t *d, int mn_major, unsigned i, unsigned j)
{
	uint32_t a;

	if (!mn_major) {
		if (!d->swz) {
			a = d->start + (i % 8) * 16 + (i / 8) * d->sbo + j * d->lbo;
		} else {
			uint32_t row = (i % 8) * d->swz + (i / 8) * d->sbo;
			unsigned col = (d->start % d->swz) / 16 + j;	/* chunk of the row */

			if (d->lbo_abs && col >= d->swz / 16)
				a = d->lbo + row + (col - d->swz / 16) * 16;
			else
				a = d->start + row + j * 16;
		}
	} else if (!d->swz) {
		a = d->start + j * d->sbo + (i % 8) * 16 + (i / 8) * d->lbo;
	} else {
		unsigned cw = d->swz / 16;			/* chunks per swizzle row */
		unsigned kr = d->swz_atom32 ? 4u : 8u;	/* K rows per atom */

		a = d->start + (j % cw) * 16 + (j / cw) * d->lbo + (i % kr) * d->swz + (i / kr) * d->sbo;
	}
	return tcp_emu_sdesc_swizzle(d, a);
}

/* ---- instruction descriptor ---- */

typedef struct {
	unsigned kind, cta_group;	/* the instruction's .kind (TCP_EMU_KIND_*) and cta_group, given by the caller */
	unsigned d_fmt, a_fmt, b_fmt;	/* TCP_EMU_FMT_* */
	unsigned sf_fmt;		/* block-scaled kinds: TCP_EMU_FMT_UE8M0 / UE4M3 */
	unsigned m, n, k;		/* instruction shape (cta_group::2: M of the pair), K of the kind (96 with bit 31) */
	unsigned a_mn_major, b_mn_major, neg_a, neg_b, sat;
	unsigned sfa_id, sfb_id, sparse, sparse_sel, max_shift, k96;
} tcp_emu_idesc_t;

/* Block-scaled kinds: mxf8f6f4, mxf4, mxf4nvf4. */
TCP_HD int tcp_emu_kind_block_scaled(unsigned kind)
{
	return kind == TCP_EMU_KIND_MXF8F6F4 || kind == TCP_EMU_KIND_MXF4 || kind == TCP_EMU_KIND_MXF4NVF4;
}

/* Dense K of a kind (PTX kind-shapes table); sparse doubles it. */
TCP_HD unsigned tcp_emu_kind_k(unsigned kind)
{
	switch (kind) {
	case TCP_EMU_KIND_F16: return 16;
	case TCP_EMU_KIND_TF32: return 8;
	case TCP_EMU_KIND_MXF4: case TCP_EMU_KIND_MXF4NVF4: return 64;
	default: return 32;
	}
}

/* A/B type field code -> TCP_EMU_FMT_*, or TCP_EMU_NFMTS when the kind has no such code. */
TCP_HD unsigned tcp_emu_idesc_fmt(unsigned kind, unsigned code)
{
	switch (kind) {
	case TCP_EMU_KIND_F16:
		return code == 0 ? TCP_EMU_FMT_F16 : code == 1 ? TCP_EMU_FMT_BF16 : TCP_EMU_NFMTS;
	case TCP_EMU_KIND_TF32:
		return code == 2 ? TCP_EMU_FMT_TF32 : TCP_EMU_NFMTS;
	case TCP_EMU_KIND_F8F6F4:
	case TCP_EMU_KIND_MXF8F6F4:
		switch (code) {
		case 0: return TCP_EMU_FMT_E4M3;
		case 1: return TCP_EMU_FMT_E5M2;
		case 3: return TCP_EMU_FMT_E2M3;
		case 4: return TCP_EMU_FMT_E3M2;
		case 5: return TCP_EMU_FMT_E2M1;
		default: return TCP_EMU_NFMTS;
		}
	case TCP_EMU_KIND_I8:
		return code == 0 ? TCP_EMU_FMT_U8 : code == 1 ? TCP_EMU_FMT_S8 : TCP_EMU_NFMTS;
	case TCP_EMU_KIND_MXF4:
	case TCP_EMU_KIND_MXF4NVF4:
		return code == 1 ? TCP_EMU_FMT_E2M1 : TCP_EMU_NFMTS;
	default:
		return TCP_EMU_NFMTS;
	}
}

/* fp6 and fp4: K-major only (CUTLASS InstrDescriptor a_major_: "Major value of 1 is
 * only valid for E4M3, E5M2, INT8, F16, BF16 and TF32 source formats"). */
TCP_HD int tcp_emu_fmt_sub8(unsigned f)
{
	return f == TCP_EMU_FMT_E2M3 || f == TCP_EMU_FMT_E3M2 || f == TCP_EMU_FMT_E2M1;
}

/*
 * [?] K = 96 (block-scaled bit 31, mxf4 and mxf4nvf4, dense): the PTX
 * kind-shapes table lists K1 = 96 in its cta_group::2 rows at M = 256 only;
 * CUTLASS issues it with cta_group::1 at M = 128 (SM103_MXF4_ULTRA_SS_VS)
 * and cta_group::2 at M = 128 or 256 (SM103_MXF4_ULTRA_2x1SM_SS_VS), N a
 * multiple of 16 in both.  The decoder takes CUTLASS's wider set.
 */
#define TCP_EMU_K96_CG1	1

/*
 * tcp_emu_idesc_check()
 *	Decode v for .kind `kind` and cta_group `cg` into *f (filled either
 *	way) and return 0, or the reason the first illegal field is illegal
 *	(a string literal).  Rules: the PTX instruction-descriptor tables
 *	(codes, reserved bits) and the kind-shapes table (M, N step, K); the
 *	.ws forms (M = 32, max shift) are not decoded: max shift must be 0.
 */
TCP_HD const char *tcp_emu_idesc_check(unsigned kind, unsigned cg, uint32_t v, tcp_emu_idesc_t *f)
{
	const tcp_emu_idesc_t zero = TCP_ZERO;
	int bs = tcp_emu_kind_block_scaled(kind);
	unsigned nstep;

	*f = zero;
	f->kind = kind;
	f->cta_group = cg;
	if (kind >= TCP_EMU_NKINDS)
		return "unknown .kind";
	if (cg != 1 && cg != 2)
		return "cta_group must be 1 or 2";
	f->sparse = (v >> 2) & 1;
	f->a_fmt = tcp_emu_idesc_fmt(kind, (v >> 7) & 7);
	f->b_fmt = tcp_emu_idesc_fmt(kind, (v >> 10) & 7);
	f->neg_a = (v >> 13) & 1;
	f->neg_b = (v >> 14) & 1;
	f->a_mn_major = (v >> 15) & 1;
	f->b_mn_major = (v >> 16) & 1;
	f->n = ((v >> 17) & 63) << 3;
	f->k = tcp_emu_kind_k(kind) << f->sparse;
	if (!bs) {
		unsigned dc = (v >> 4) & 3;

		f->sparse_sel = v & 3;
		f->sat = (v >> 3) & 1;
		f->d_fmt = dc == 0 ? TCP_EMU_FMT_F16 : dc == 1 ? TCP_EMU_FMT_F32 : dc == 2 ? TCP_EMU_FMT_S32 : TCP_EMU_NFMTS;
		f->m = ((v >> 24) & 31) << 4;
		f->max_shift = v >> 30;
		if (v & (1u << 6 | 1u << 23 | 1u << 29))
			return "reserved bit 6, 23 or 29 set";
		if (f->sparse_sel && !f->sparse)
			return "sparsity selector (bits 0-1) set on a dense MMA";
		if (f->sat && kind != TCP_EMU_KIND_I8)
			return "saturate (bit 3) exists only for kind::i8";
		if (f->max_shift)
			return "max shift (bits 30-31) exists only for tcgen05.mma.ws, not decoded here";
	} else {
		f->sfb_id = (v >> 4) & 3;
		f->sfa_id = (v >> 29) & 3;
		f->sf_fmt = (v >> 23) & 1 ? TCP_EMU_FMT_UE8M0 : TCP_EMU_FMT_UE4M3;
		f->d_fmt = TCP_EMU_FMT_F32;
		f->m = ((v >> 27) & 3) << 7;
		f->k96 = v >> 31;
		if (f->k96)
			f->k = 96;
		/* CUTLASS InstrDescriptorBlockScaled has sparse_id2_ in bits 0-1;
		 * the PTX tables mark them reserved for the block-scaled kinds. */
		if (v & (3u | 1u << 3 | 1u << 6 | 7u << 24))
			return "reserved bit 0-1, 3, 6 or 24-26 set";
		if (kind != TCP_EMU_KIND_MXF8F6F4 && (v & (1u << 12)))
			return "reserved bit 12 set (kind::mxf4/mxf4nvf4 B type is bits 10-11)";
		if (kind == TCP_EMU_KIND_MXF8F6F4 && f->k96)
			return "bit 31 is reserved for kind::mxf8f6f4";
		if (kind != TCP_EMU_KIND_MXF8F6F4 && ((f->sfa_id | f->sfb_id) & 1))
			return "kind::mxf4/mxf4nvf4 scale-factor ids must be 0 or 2";
		if (kind != TCP_EMU_KIND_MXF4NVF4 && f->sf_fmt != TCP_EMU_FMT_UE8M0)
			return "scale type ue4m3 (bit 23 = 0) exists only for kind::mxf4nvf4";
	}
	if (f->a_fmt == TCP_EMU_NFMTS || f->b_fmt == TCP_EMU_NFMTS)
		return "A or B type code undefined for the kind";
	if (kind == TCP_EMU_KIND_F16 && f->a_fmt != f->b_fmt)
		return "kind::f16 needs A and B of the same type";
	switch (kind) {
	case TCP_EMU_KIND_F16:
		if (f->d_fmt != TCP_EMU_FMT_F32 && !(f->d_fmt == TCP_EMU_FMT_F16 && f->a_fmt == TCP_EMU_FMT_F16))
			return "kind::f16 D is f32, or f16 with f16 inputs";
		break;
	case TCP_EMU_KIND_TF32:
		if (f->d_fmt != TCP_EMU_FMT_F32)
			return "kind::tf32 D is f32";
		break;
	case TCP_EMU_KIND_F8F6F4:
		if (f->d_fmt != TCP_EMU_FMT_F32 && f->d_fmt != TCP_EMU_FMT_F16)
			return "kind::f8f6f4 D is f32 or f16";
		break;
	case TCP_EMU_KIND_I8:
		if (f->d_fmt != TCP_EMU_FMT_S32)
			return "kind::i8 D is s32";
		break;
	default:
		break;
	}
	if (kind == TCP_EMU_KIND_I8 && (f->neg_a | f->neg_b))
		return "kind::i8 has no negate";
	if ((kind == TCP_EMU_KIND_MXF4 || kind == TCP_EMU_KIND_MXF4NVF4) && (f->a_mn_major | f->b_mn_major))
		return "kind::mxf4/mxf4nvf4 operands are K-major only (transpose bits 0)";
	if ((f->a_mn_major && tcp_emu_fmt_sub8(f->a_fmt)) || (f->b_mn_major && tcp_emu_fmt_sub8(f->b_fmt)))
		return "fp6/fp4 operands are K-major only";
	/* M (kind-shapes table) */
	if (bs) {
		if (cg == 1 ? f->m != 128 : f->m != 128 && f->m != 256)
			return cg == 1 ? "block-scaled cta_group::1 needs M = 128" : "block-scaled cta_group::2 needs M = 128 or 256";
		if (cg == 2 && f->sparse && f->m != 256)
			return "block-scaled sparse cta_group::2 needs M = 256";
	} else if (cg == 1 ? f->m != 64 && f->m != 128 : f->m != 128 && f->m != 256) {
		return cg == 1 ? "cta_group::1 needs M = 64 or 128" : "cta_group::2 needs M = 128 or 256";
	}
	/* N */
	nstep = cg == 1 ? 8 : 16;
	if (kind == TCP_EMU_KIND_I8) {
		if (cg == 1 && f->n > 32)
			nstep = 16;
		else if (cg == 2)
			nstep = 32;
	}
	if (f->k96)
		nstep = 16;
	if (f->n < nstep || f->n > 256 || f->n % nstep)
		return "N out of range or off the kind's N step";
	if (f->k96) {
		if (f->sparse)
			return "K = 96 (bit 31) is dense only";
		if (cg == 1 && !TCP_EMU_K96_CG1)
			return "K = 96 (bit 31) needs cta_group::2";
	}
	return 0;
}

/* 0, or TCP_EMU_BAD_IDESC (field illegal for that kind / cta_group per the PTX ISA). */
TCP_HD int tcp_emu_idesc_decode(unsigned kind, unsigned cta_group, uint32_t v, tcp_emu_idesc_t *f)
{
	return tcp_emu_idesc_check(kind, cta_group, v, f) ? TCP_EMU_BAD_IDESC : TCP_EMU_OK;
}

/* Why tcp_emu_idesc_decode() refuses v: a string literal, or 0 when it is legal. */
TCP_HD const char *tcp_emu_idesc_why(unsigned kind, unsigned cta_group, uint32_t v)
{
	tcp_emu_idesc_t f;

	return tcp_emu_idesc_check(kind, cta_group, v, &f);
}

/* ---- TMEM address: lane (bits 31-16), column (15-0) ---- */

TCP_HD unsigned tcp_emu_taddr_lane(uint32_t a)
{
	return a >> 16;
}

TCP_HD unsigned tcp_emu_taddr_col(uint32_t a)
{
	return a & 0xFFFFu;
}

TCP_HD uint32_t tcp_emu_taddr(unsigned lane, unsigned col)
{
	return (uint32_t)lane << 16 | (col & 0xFFFFu);
}

#ifdef __cplusplus
}
#endif
#endif /* TCP_EMU_DECODE_H */
