/*
 * idesc.h
 *	The 32-bit tcgen05.mma instruction descriptor: a struct of fields, its
 *	encoder and decoder.  Bit positions are written down here and nowhere
 *	else.  Sources: PTX ISA "Instruction descriptor" tables (9.7.16.4.2) and
 *	CUTLASS cute/arch/mma_sm100_desc.hpp (InstrDescriptor,
 *	InstrDescriptorBlockScaled); tcgen05-facts.md s.1.
 *
 *	Dense kinds (f16, tf32, f8f6f4, i8):
 *	  0-1 sparsity selector   2 sparse   3 saturate (i8)   4-5 D type
 *	  7-9 A type  10-12 B type  13/14 negate A/B  15/16 A/B MN-major
 *	  17-22 N>>3  24-28 M>>4  30-31 max shift (.ws)
 *	Block-scaled kinds (mxf8f6f4, mxf4, mxf4nvf4):
 *	  0-1 sparsity selector  2 sparse  4-5 B scale-factor id  7-9 A type
 *	  10-12 B type  13/14 negate  15/16 MN-major  17-22 N>>3  23 scale type
 *	  27-28 M>>7  29-30 A scale-factor id  31 K96 (mxf4/nvf4, sm_103a)
 */
#ifndef TCP_MODEL_IDESC_H
#define TCP_MODEL_IDESC_H

#include "model/kinds.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * [?] M field of the block-scaled descriptor: PTX gives M>>7 in bits 27-28,
 * CUTLASS writes M>>4 into bits 24-28.  For the only legal M (128, 256) both
 * put the same bits; we follow PTX and the decoder rejects bits 24-26.
 */
#define TCP_IDESC_BS_M_SHIFT	7
#define TCP_IDESC_BS_M_BIT	27

typedef struct {
	tcp_kind_t kind;	/* selects the field layout and the type codes */
	tcp_type_t a, b;	/* operand types (codes depend on kind) */
	tcp_type_t d;		/* f16/f32/s32; block-scaled kinds: f32 (not encoded) */
	unsigned m, n;		/* instruction shape (M for cta_group::2 is the pair's M) */
	unsigned a_major;	/* 0 K-major, 1 MN-major ("transpose") */
	unsigned b_major;
	unsigned neg_a, neg_b;	/* negate (not for i8) */
	unsigned sparse;	/* 0 dense, 1 sparse */
	unsigned sparse_sel;	/* sparsity selector, 0..3 */
	unsigned saturate;	/* i8 only */
	unsigned max_shift;	/* .ws only: encoded 0 none, 1 = 8, 2 = 16, 3 = 32 */
	tcp_type_t sf;		/* block-scaled: ue8m0 or ue4m3 (ue4m3 mxf4nvf4 only) */
	unsigned a_sf_id, b_sf_id;	/* block-scaled: scale-factor ids 0..3 */
	unsigned k96;		/* mxf4/mxf4nvf4 bit 31: K96 dense (sm_103a only) */
} tcp_idesc_t;

/* Field code of an operand type under a kind; -1 if the kind has no such type. */
TCP_HD int tcp_idesc_type_code(tcp_kind_t k, tcp_type_t t)
{
	switch (k) {
	case TCP_KIND_F16:
		return t == TCP_T_F16 ? 0 : t == TCP_T_BF16 ? 1 : -1;
	case TCP_KIND_TF32:
		return t == TCP_T_TF32 ? 2 : -1;
	case TCP_KIND_F8F6F4:
	case TCP_KIND_MXF8F6F4:
		switch (t) {
		case TCP_T_E4M3: return 0;
		case TCP_T_E5M2: return 1;
		case TCP_T_E2M3: return 3;
		case TCP_T_E3M2: return 4;
		case TCP_T_E2M1: return 5;
		default: return -1;
		}
	case TCP_KIND_I8:
		return t == TCP_T_U8 ? 0 : t == TCP_T_S8 ? 1 : -1;
	case TCP_KIND_MXF4:
	case TCP_KIND_MXF4NVF4:
		return t == TCP_T_E2M1 ? 1 : -1;
	default:
		return -1;
	}
}

/* Inverse of tcp_idesc_type_code(); -1 for a code the kind does not define. */
TCP_HD int tcp_idesc_type_from_code(tcp_kind_t k, unsigned code)
{
	for (int t = 0; t < TCP_T_COUNT; t++)
		if (tcp_idesc_type_code(k, (tcp_type_t)t) == (int)code)
			return t;
	return -1;
}

/* D type field: F16 = 0, F32 = 1, S32 = 2. */
TCP_HD int tcp_idesc_dtype_code(tcp_type_t d)
{
	return d == TCP_T_F16 ? 0 : d == TCP_T_F32 ? 1 : d == TCP_T_S32 ? 2 : -1;
}

/* Scale type bit 23: UE4M3 = 0, UE8M0 = 1. */
TCP_HD int tcp_idesc_sf_code(tcp_type_t sf)
{
	return sf == TCP_T_UE4M3 ? 0 : sf == TCP_T_UE8M0 ? 1 : -1;
}

/*
 * tcp_idesc_encode()
 *	Pack the fields into the 32-bit descriptor.  Returns 0, or -1 when a
 *	field cannot be represented (unknown type code for the kind, M/N not a
 *	multiple of the field unit or too large, a 1-bit field > 1).  Whether
 *	the combination is legal is model/legal.h's business, not this one.
 */
TCP_HD int tcp_idesc_encode(const tcp_idesc_t *f, uint32_t *out)
{
	int ca = tcp_idesc_type_code(f->kind, f->a), cb = tcp_idesc_type_code(f->kind, f->b);
	uint32_t v = 0;

	if (ca < 0 || cb < 0 || f->n % 8 || f->n / 8 > 63 || f->n == 0)
		return -1;
	if ((f->a_major | f->b_major | f->neg_a | f->neg_b | f->sparse) > 1 || f->sparse_sel > 3)
		return -1;
	v |= (uint32_t)f->sparse_sel | (uint32_t)f->sparse << 2;
	v |= (uint32_t)ca << 7 | (uint32_t)cb << 10;
	v |= (uint32_t)f->neg_a << 13 | (uint32_t)f->neg_b << 14;
	v |= (uint32_t)f->a_major << 15 | (uint32_t)f->b_major << 16;
	v |= (uint32_t)(f->n >> 3) << 17;
	if (tcp_kind_block_scaled(f->kind)) {
		int sf = tcp_idesc_sf_code(f->sf);
		unsigned mu = 1u << TCP_IDESC_BS_M_SHIFT;

		if (sf < 0 || f->m % mu || f->m == 0 || f->m / mu > 3 || f->a_sf_id > 3 ||
		    f->b_sf_id > 3 || f->k96 > 1 || f->saturate || f->max_shift)
			return -1;
		if (f->k96 && f->kind == TCP_KIND_MXF8F6F4)
			return -1;
		v |= (uint32_t)f->b_sf_id << 4 | (uint32_t)sf << 23;
		v |= (uint32_t)(f->m >> TCP_IDESC_BS_M_SHIFT) << TCP_IDESC_BS_M_BIT;
		v |= (uint32_t)f->a_sf_id << 29 | (uint32_t)f->k96 << 31;
	} else {
		int cd = tcp_idesc_dtype_code(f->d);

		if (cd < 0 || f->m % 16 || f->m == 0 || f->m / 16 > 31 || f->saturate > 1 ||
		    f->max_shift > 3)
			return -1;
		v |= (uint32_t)f->saturate << 3 | (uint32_t)cd << 4;
		v |= (uint32_t)(f->m >> 4) << 24 | (uint32_t)f->max_shift << 30;
	}
	*out = v;
	return 0;
}

/*
 * tcp_idesc_decode()
 *	Unpack a descriptor of a known kind (the kind is the .kind qualifier of
 *	the instruction, not a field).  Returns 0, or -1 when a reserved bit is
 *	set or a code is undefined for the kind; *f is filled either way.
 */
TCP_HD int tcp_idesc_decode(uint32_t v, tcp_kind_t kind, tcp_idesc_t *f)
{
	int bad = 0, t;
	const tcp_idesc_t zero = TCP_ZERO;

	*f = zero;
	f->kind = kind;
	f->sparse_sel = v & 3;
	f->sparse = (v >> 2) & 1;
	t = tcp_idesc_type_from_code(kind, (v >> 7) & 7);
	bad |= t < 0;
	f->a = (tcp_type_t)(t < 0 ? 0 : t);
	t = tcp_idesc_type_from_code(kind, (v >> 10) & 7);
	bad |= t < 0;
	f->b = (tcp_type_t)(t < 0 ? 0 : t);
	f->neg_a = (v >> 13) & 1;
	f->neg_b = (v >> 14) & 1;
	f->a_major = (v >> 15) & 1;
	f->b_major = (v >> 16) & 1;
	f->n = ((v >> 17) & 63) << 3;
	if (tcp_kind_block_scaled(kind)) {
		f->b_sf_id = (v >> 4) & 3;
		f->sf = (v >> 23) & 1 ? TCP_T_UE8M0 : TCP_T_UE4M3;
		f->m = ((v >> TCP_IDESC_BS_M_BIT) & 3) << TCP_IDESC_BS_M_SHIFT;
		f->a_sf_id = (v >> 29) & 3;
		f->k96 = v >> 31;
		f->d = TCP_T_F32;
		bad |= (v & (1u << 3 | 1u << 6)) != 0;
		bad |= (v & (7u << 24)) != 0;	/* below the M>>7 field */
		bad |= kind == TCP_KIND_MXF8F6F4 && f->k96;
	} else {
		unsigned cd = (v >> 4) & 3;

		f->saturate = (v >> 3) & 1;
		f->d = cd == 0 ? TCP_T_F16 : cd == 1 ? TCP_T_F32 : TCP_T_S32;
		bad |= cd == 3;
		f->m = ((v >> 24) & 31) << 4;
		f->max_shift = v >> 30;
		bad |= (v & (1u << 6 | 1u << 23 | 1u << 29)) != 0;
	}
	return bad ? -1 : 0;
}

#ifdef __cplusplus
}
#endif
#endif /* TCP_MODEL_IDESC_H */
