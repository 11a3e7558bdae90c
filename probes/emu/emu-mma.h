/*
 * emu-mma.h
 *	The emulation's tcgen05.mma executor: one dense tcgen05.mma of any kind
 *	(f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4), cta_group::1 or ::2,
 *	A from shared memory or TMEM, run synchronously by the one thread that
 *	issued it, and the TMEM footprint of that MMA for the protocol checker.
 *	Plain C (TCP_HD): the same code runs in the emulating kernel and in the
 *	cmocka test (tests/test-emu-mma.c).  It decodes the instruction
 *	descriptor, the shared-memory descriptors and the TMEM addresses from
 *	their bits (probes/emu/emu-decode.h) and never calls model/.
 *
 *	What the PTX ISA (tcgen05 chapter, section "TensorCore 5th Generation
 *	Matrix Multiply and accumulate Operations", 9.7.16.10 in ISA 8.7-9.2)
 *	fixes, and the executor follows:
 *	  D data-path layouts ("Data Path Layout Organization"; every layout
 *	  read against CUTLASS cute/atom/mma_traits_sm100.hpp tmem_frg), D row
 *	  m, column n, from the D address's lane and column:
 *	    cta_group::1 M=128 (Layout D)  lane m, column n
 *	    cta_group::1 M=64  (Layout F)  lane (m / 16) * 32 + m % 16, plus the
 *	                                   lane alignment 0 or 16 carried by the
 *	                                   D address's lane field (tmem_frg_1sm
 *	                                   M_MMA = 64: atom (16,4):(1,32))
 *	    cta_group::2 M=256 (Layout A)  CTA m / 128, lane m % 128, column n
 *	    cta_group::2 M=128 (Layout B)  CTA m / 64, lane m % 64 + 64 h,
 *	                                   column n % (N/2), h = n / (N/2)
 *	                                   (tmem_frg_2sm M_MMA = 64: the "2x2"
 *	                                   atom (64,(N/2,2)):(1,(128,64)))
 *	  D packing ("Packing format for matrix D"): one element per 32-bit
 *	  word; an f16 D sits in the low 16 bits (the executor writes the high
 *	  16 bits 0).  f32 and s32 D take the whole word.
 *	  Operands in shared memory: A rows M / cta_group per CTA, B rows
 *	  N / cta_group per CTA, both at the descriptors' addresses in every CTA
 *	  of the pair (PTX "CTA pair": B "in Shared Memory of the current CTA
 *	  and optionally in peer CTA"; CUTLASS mma_sm100_umma.hpp
 *	  SM100_MMA_*_2x1SM_SS partitions A by M and B by N over the pair).
 *	  16-byte chunks come from tcp_emu_sdesc_chunk(); one MMA reads 32
 *	  bytes of K per row (48 at K = 96).  Packing in shared memory: fp4 and
 *	  fp6 under (mx)f8f6f4 as 16 values in the low 8 / 12 bytes of a 16-byte
 *	  chunk ("Packing format used for matrix A and B by .kind::mxf8f6f4 in
 *	  Shared Memory"), e2m1 under mxf4 / mxf4nvf4 two per byte, low nibble
 *	  first; every value little-endian from bit 0 of its chunk.
 *	  A in TMEM (ts): lane = the lane D's row uses (the same data-path lane:
 *	  "must use the same Tensor Memory lane alignment across matrices A, D";
 *	  cta_group::2 M=128 reads the copy in the lane half of the N half it
 *	  computes: CUTLASS TmemAllocMode::Duplicated), K elements packed from
 *	  bit 0 of the first column: 16-bit two per word, tf32 one, 8-bit four,
 *	  fp4 / fp6 under (mx)f8f6f4 one per 8-bit container ("Packing format
 *	  used for matrix A by .kind::mxf8f6f4 in Tensor Memory"), e2m1 under
 *	  mxf4 / mxf4nvf4 two per byte ("... by .kind::mxf4 and .kind::mxf4nvf4
 *	  in Tensor Memory").  [?] The bit position inside the 8-bit container
 *	  is drawn in figures 199-201 only: fp4 at bits 5:2, fp6 at bits 5:0,
 *	  as the warp-level kind::f8f6f4 register operands (CUTLASS
 *	  mma_traits_sm120.hpp; probes/warp/warp-check.c) -- TCP_EMU_MMA_FP4_SHIFT.
 *	  Scale factors ("Block Scaling"): scale_vec::1X one factor per row
 *	  (byte sf_id of the word), 2X two (bytes sf_id, sf_id + 1, sf_id 0 or
 *	  2), 4X four (sf_id 0), K = 96 three or six from byte sf_id on; factor
 *	  j of a row is byte (sf_id + j) % 4 of word (sf_id + j) / 4.  Word 0 of
 *	  row i (the CTA's row of A, or column n of B) sits in column i / 32, lane
 *	  i % 32 of a 32-lane partition; the factors are "duplicated to all 32
 *	  lane partitions" and each partition's data path reads its own copy:
 *	  D in lane partition q reads lane 32 q + i % 32.  B of cta_group::2
 *	  M=128 (2x2 data path) uses i = n % (N/2) and only the partitions of
 *	  its N half (CUTLASS tmem_sf_frg, ScaleFactorDuplicated4by1 / 2by2).
 *	  [?] Word 1 (K = 96 .block16, or factors past byte 3) sits
 *	  TCP_EMU_MMA_SF_WSTRIDE columns after word 0: the operand's 32-row
 *	  groups (A: rows of the CTA / 32; B: round_up(N, 128) / 32, 2x2: / 64),
 *	  the PTX figures for K = 96 being split at N <= 128 / N > 128 (CUTLASS
 *	  sm103_blockscaled_mma_warpspecialized.hpp MmaIterShapeSFB).
 *	  Element formats: f16, bf16, tf32 (the top 19 bits of a 32-bit word),
 *	  e4m3 (S.1111.111 NaN, no inf), e5m2 (IEEE-like), e2m3, e3m2, e2m1 (no
 *	  inf/NaN), s8, u8, ue8m0 (2^(e-127), 0xFF NaN), ue4m3 (bit 7 ignored,
 *	  0x7F NaN).  Negate A/B (idesc bits 13/14) flips the sign; the i8
 *	  saturate bit clamps the s32 result instead of wrapping it.
 *	  disable-output-lane: bit i of the mask (CTA r of a pair: bit
 *	  128 r + i) leaves TMEM lane i of D unchanged.
 *	Numerics: every product of two elements (and of its scale factors) is
 *	exact in f32; the products of one output are summed in f32, added to D
 *	in f32 (an f16 D is rounded to nearest even once, at the end); i8 sums
 *	are exact in f32 (|sum| < 2^24 for K = 32) and are added to D in 64-bit.
 *
 *	Cost: the caller hands in `scratch` (TCP_EMU_MMA_SCRATCH_FLOATS floats,
 *	about 197 KB, 16-byte aligned; global memory on the device).  B is
 *	converted into it once, transposed (block-scaled kinds: a copy scaled
 *	by a lane partition's scale factors, rebuilt only where the next
 *	partition's copy differs); 8 rows of A at a time are converted; D is
 *	computed 8 rows x 8 columns at a time, K multiply-adds per element fed
 *	by 16-byte reads of A and B, one read-modify-write per D word.  One
 *	H200 thread: f16 M=128 N=256 K=16 in 2.1 M cycles (1.2 ms at 1.7 GHz),
 *	f8f6f4 K=32 3.6 M, mxf4nvf4 K=64 8.2 M (cta_group::2 M=256: 14.5 M).
 */
#ifndef TCP_EMU_MMA_H
#define TCP_EMU_MMA_H

#include <stdint.h>

#include "probes/emu/emu-decode.h"
#include "probes/emu/emu-view.h"

/* Loops of constant trip count the device compiler must unroll (their
 * arrays then live in registers); plain loops on the host. */
#if defined(__CUDA_ARCH__)
#define TCP_EMU_UNROLL _Pragma("unroll")
#else
#define TCP_EMU_UNROLL
#endif

/* Four 32-bit words read or written as one 16-byte access. */
#ifdef __cplusplus
#define TCP_EMU_ALIGN16 alignas(16)
#else
#define TCP_EMU_ALIGN16 _Alignas(16)
#endif
typedef struct {
	TCP_EMU_ALIGN16 uint32_t w[4];
} tcp_emu_u4_t;
typedef struct {
	TCP_EMU_ALIGN16 float f[4];
} tcp_emu_f4_t;

/* n floats (a multiple of 4) from 16-byte words: the MMA's inner loop
 * reads A's rows and B's columns of one K this way. */
TCP_HD void tcp_emu_f4_load(const tcp_emu_f4_t *p, unsigned n, float *v)
{
	TCP_EMU_UNROLL
	for (unsigned h = 0; h < n / 4u; h++) {
		const tcp_emu_f4_t x = p[h];

		TCP_EMU_UNROLL
		for (unsigned e = 0; e < 4; e++)
			v[4 * h + e] = x.f[e];
	}
}

#define TCP_EMU_MMA_KMAX 96u	/* largest K of one MMA (kind::mxf4nvf4 K = 96) */
#define TCP_EMU_MMA_NMAX 256u
#define TCP_EMU_MMA_SFMAX 6u	/* scale factors per row of one MMA (K = 96 .block16) */
#define TCP_EMU_MMA_ROWS 8u	/* rows of A (D lanes) computed together */
#define TCP_EMU_MMA_COLS 8u	/* columns of D computed together (N and N/2 are multiples of 8) */
/* Floats of the caller's scratch (16-byte aligned): B transposed (K x N),
 * the same scaled by one lane partition's scale factors (block-scaled
 * kinds), TCP_EMU_MMA_ROWS rows of A transposed (K x ROWS), the value
 * tables of A's and B's codes (formats of 8 bits or fewer). */
#define TCP_EMU_MMA_SCRATCH_FLOATS                                                                    \
	(2u * TCP_EMU_MMA_KMAX * TCP_EMU_MMA_NMAX + TCP_EMU_MMA_KMAX * TCP_EMU_MMA_ROWS + 2u * 256u)
/* [?] Bit of an fp4 value in its 8-bit TMEM container (fp6: bit 0). */
#define TCP_EMU_MMA_FP4_SHIFT 2u

/* What the MMA touches, per CTA r of the operation: lanes and columns of D
 * (written; also read when accumulating), of A in TMEM (ts), of SFA and SFB;
 * lanes 0 = none.  Layout F's D and A use lanes align + 32 q + [0, 16) of
 * each partition q: the span is their bounding span (112 lanes). */
typedef struct {
	unsigned lane0, lanes, col0, cols;
} tcp_emu_span_t;

typedef struct {
	tcp_emu_span_t d[2], a[2], sfa[2], sfb[2];
} tcp_emu_mma_fp_t;

/* ---- element formats -------------------------------------------------------- */

TCP_HD float tcp_emu_f32_of(uint32_t b)
{
	union { uint32_t u; float f; } x;

	x.u = b;
	return x.f;
}

TCP_HD uint32_t tcp_emu_f32_bits(float f)
{
	union { uint32_t u; float f; } x;

	x.f = f;
	return x.u;
}

/* Minifloat of `e` exponent bits and `m` mantissa bits, bias 2^(e-1) - 1,
 * sign at bit e + m, every exponent finite (callers handle inf/NaN codes). */
TCP_HD float tcp_emu_minifloat(uint32_t raw, unsigned e, unsigned m)
{
	uint32_t s = (raw >> (e + m)) & 1u, ex = (raw >> m) & ((1u << e) - 1u), mt = raw & ((1u << m) - 1u);
	int bias = (1 << (e - 1)) - 1;
	float v;

	if (ex == 0)	/* subnormal: mt x 2^(1 - bias - m), a normal f32 power of two for every format here */
		v = (float)mt * tcp_emu_f32_of((uint32_t)(127 + 1 - bias - (int)m) << 23);
	else
		v = tcp_emu_f32_of((uint32_t)((int)ex - bias + 127) << 23 | mt << (23 - m));
	return s ? -v : v;
}

#define TCP_EMU_NAN 0x7FC00000u

/* f16 bits -> value: exponent and mantissa moved to f32's places and
 * rebiased by one exact multiply by 2^112 (subnormals included: an f32
 * subnormal times 2^112 is exact), inf/NaN kept. */
TCP_HD float tcp_emu_f16_val(uint32_t raw)
{
	uint32_t em = (raw & 0x7FFFu) << 13, sg = (raw & 0x8000u) << 16;	/* bits above 15 ignored */

	if ((raw & 0x7C00u) == 0x7C00u)
		return tcp_emu_f32_of(sg | 0x7F800000u | em);
	return tcp_emu_f32_of(sg | tcp_emu_f32_bits(tcp_emu_f32_of(em) * 0x1p112f));
}

/*
 * tcp_emu_elem()
 *	Value of one element of format `fmt` (TCP_EMU_FMT_*) from its raw
 *	bits, right-aligned (PTX ISA "Alternate floating-point data formats",
 *	tcgen05 "Block Scaling" for ue8m0 / ue4m3).  NaN for an unknown format.
 */
TCP_HD float tcp_emu_elem(unsigned fmt, uint32_t raw)
{
	switch (fmt) {
	case TCP_EMU_FMT_F16:
		return tcp_emu_f16_val(raw);
	case TCP_EMU_FMT_BF16:
		return tcp_emu_f32_of((raw & 0xFFFFu) << 16);
	case TCP_EMU_FMT_TF32:
		return tcp_emu_f32_of(raw & 0xFFFFE000u);
	case TCP_EMU_FMT_F32:
		return tcp_emu_f32_of(raw);
	case TCP_EMU_FMT_E4M3:
		raw &= 0xFFu;
		return (raw & 0x7Fu) == 0x7Fu ? tcp_emu_f32_of(TCP_EMU_NAN) : tcp_emu_minifloat(raw, 4, 3);
	case TCP_EMU_FMT_E5M2:
		raw &= 0xFFu;
		if (((raw >> 2) & 0x1Fu) == 0x1Fu)
			return tcp_emu_f32_of((raw >> 7) << 31 | 0x7F800000u | (raw & 3u) << 21);
		return tcp_emu_minifloat(raw, 5, 2);
	case TCP_EMU_FMT_E2M3:
		return tcp_emu_minifloat(raw & 0x3Fu, 2, 3);
	case TCP_EMU_FMT_E3M2:
		return tcp_emu_minifloat(raw & 0x3Fu, 3, 2);
	case TCP_EMU_FMT_E2M1:
		return tcp_emu_minifloat(raw & 0xFu, 2, 1);
	case TCP_EMU_FMT_U8:
		return (float)(int)(raw & 0xFFu);
	case TCP_EMU_FMT_S8:
		return (float)((int)(raw & 0xFFu) - (int)(raw & 0x80u) * 2);
	case TCP_EMU_FMT_S32:
		return (float)(int32_t)raw;
	case TCP_EMU_FMT_UE8M0:
		raw &= 0xFFu;
		if (raw == 0xFFu)
			return tcp_emu_f32_of(TCP_EMU_NAN);
		return tcp_emu_f32_of(raw ? raw << 23 : 0x00400000u);	/* 2^-127 is an f32 subnormal */
	case TCP_EMU_FMT_UE4M3:
		raw &= 0x7Fu;
		return raw == 0x7Fu ? tcp_emu_f32_of(TCP_EMU_NAN) : tcp_emu_minifloat(raw, 4, 3);
	default:
		return tcp_emu_f32_of(TCP_EMU_NAN);
	}
}

/* f32 -> f16 bits, round to nearest even, overflow to inf, NaN kept quiet. */
TCP_HD uint32_t tcp_emu_f16_bits(float f)
{
	uint32_t x = tcp_emu_f32_bits(f), s = (x >> 16) & 0x8000u, e = (x >> 23) & 0xFFu, m = x & 0x7FFFFFu, h, rem;
	int E = (int)e - 127 + 15;

	if (e == 0xFFu)
		return s | 0x7C00u | (m ? 0x200u | (m >> 13) : 0u);
	if (E >= 31)
		return s | 0x7C00u;
	if (E <= 0) {	/* f16 subnormal: units of 2^-24 */
		unsigned sh = (unsigned)(14 - E);

		if (sh > 24)
			return s;
		m |= 0x800000u;
		h = m >> sh;
		rem = m & ((1u << sh) - 1u);
		if (rem > (1u << (sh - 1)) || (rem == (1u << (sh - 1)) && (h & 1u)))
			h++;
		return s | h;
	}
	h = (uint32_t)E << 10 | (m >> 13);
	rem = m & 0x1FFFu;
	if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
		h++;	/* a carry into the exponent is the right answer, up to inf */
	return s | h;
}

/* ---- operands --------------------------------------------------------------- */

/* Bits one element takes in shared memory under `kind` (fp4/fp6 under
 * (mx)f8f6f4: padded, 16 values per chunk), and in TMEM as A (8-bit
 * containers for those). */
TCP_HD unsigned tcp_emu_mma_bits(unsigned fmt)
{
	switch (fmt) {
	case TCP_EMU_FMT_F16: case TCP_EMU_FMT_BF16: return 16;
	case TCP_EMU_FMT_TF32: return 32;
	case TCP_EMU_FMT_E2M3: case TCP_EMU_FMT_E3M2: return 6;
	case TCP_EMU_FMT_E2M1: return 4;
	default: return 8;
	}
}

TCP_HD unsigned tcp_emu_mma_padded(unsigned kind, unsigned fmt)
{
	return (kind == TCP_EMU_KIND_F8F6F4 || kind == TCP_EMU_KIND_MXF8F6F4) && tcp_emu_mma_bits(fmt) < 8;
}

/* `bits` bits at bit `pos` of little-endian words w[]. */
TCP_HD uint32_t tcp_emu_mma_get(const uint32_t *w, unsigned pos, unsigned bits)
{
	unsigned i = pos >> 5, sh = pos & 31u;
	uint32_t v = w[i] >> sh;

	if (sh + bits > 32)
		v |= w[i + 1] << (32 - sh);
	return bits == 32 ? v : v & ((1u << bits) - 1u);
}

/* One operand (A or B) of the MMA as the executor reads it. */
typedef struct {
	unsigned fmt, bits, padded, k, neg;
	unsigned ts;			/* A from TMEM */
	unsigned mn_major;
	tcp_emu_sdesc_t d;
} tcp_emu_mma_op_t;

/* Value of raw code `raw` of format fmt: the table of the format's codes
 * (8 bits or fewer), else the 16/32-bit formats by their bits. */
TCP_HD float tcp_emu_mma_val(unsigned fmt, const float *lut, uint32_t raw)
{
	return lut ? lut[raw] : tcp_emu_elem(fmt, raw);
}

/*
 * tcp_emu_mma_chunk()
 *	The elements of one 16-byte chunk (read as one 16-byte access) into
 *	out[e * stride]: 8 16-bit, 4 tf32, 16 8-bit, 16 padded fp6 / fp4
 *	(low 12 / 8 bytes), 32 packed fp4.  Returns the element count.
 */
TCP_HD unsigned tcp_emu_mma_chunk(tcp_emu_mma_op_t op, const float *lut, const uint8_t *p, float *out, size_t stride)
{
	const tcp_emu_u4_t t = *(const tcp_emu_u4_t *)(const void *)p;
	unsigned e;

	switch (op.padded ? op.bits + 100u : op.bits) {
	case 16:
		if (op.fmt == TCP_EMU_FMT_BF16) {
			TCP_EMU_UNROLL
			for (e = 0; e < 8; e++)
				out[e * stride] = tcp_emu_f32_of(e % 2 ? t.w[e / 2] & 0xFFFF0000u : t.w[e / 2] << 16);
		} else {
			TCP_EMU_UNROLL
			for (e = 0; e < 8; e++)
				out[e * stride] = tcp_emu_f16_val(t.w[e / 2] >> (16 * (e % 2)));
		}
		return 8;
	case 32:
		TCP_EMU_UNROLL
		for (e = 0; e < 4; e++)
			out[e * stride] = tcp_emu_f32_of(t.w[e] & 0xFFFFE000u);
		return 4;
	case 8:
		TCP_EMU_UNROLL
		for (e = 0; e < 16; e++)
			out[e * stride] = lut[(t.w[e / 4] >> (8 * (e % 4))) & 0xFFu];
		return 16;
	case 106:
		TCP_EMU_UNROLL
		for (e = 0; e < 16; e++)
			out[e * stride] = lut[tcp_emu_mma_get(t.w, 6 * e, 6)];
		return 16;
	case 104:
		TCP_EMU_UNROLL
		for (e = 0; e < 16; e++)
			out[e * stride] = lut[(t.w[e / 8] >> (4 * (e % 8))) & 0xFu];
		return 16;
	default:	/* packed fp4 (mxf4, mxf4nvf4) */
		TCP_EMU_UNROLL
		for (e = 0; e < 32; e++)
			out[e * stride] = lut[(t.w[e / 8] >> (4 * (e % 8))) & 0xFu];
		return 32;
	}
}

/*
 * tcp_emu_mma_row_smem()
 *	K elements of row `row` of an operand from shared memory `smem` into
 *	out[k * stride] as floats.  K-major: the row's 16-byte chunks along K;
 *	MN-major: element (row, k) from chunk (k, row / T).  The chunks were
 *	checked against the window (tcp_emu_mma_check_smem).
 */
TCP_HD void tcp_emu_mma_row_smem(tcp_emu_mma_op_t op, const uint8_t *smem, unsigned row, const float *lut, float *out,
				 size_t stride)
{
	unsigned te = op.padded ? 16u : 128u / op.bits, k;

	if (!op.mn_major) {
		for (k = 0; k < op.k;)
			k += tcp_emu_mma_chunk(op, lut, smem + tcp_emu_sdesc_chunk(&op.d, 0, row, k / te), out + k * stride,
					       stride);
		return;
	}
	for (k = 0; k < op.k; k++) {
		const uint32_t *w = (const uint32_t *)(const void *)(smem + tcp_emu_sdesc_chunk(&op.d, 1, k, row / te));

		out[k * stride] = tcp_emu_mma_val(op.fmt, lut, tcp_emu_mma_get(w, (row % te) * op.bits, op.bits));
	}
}

/* 0 when every chunk of `rows` rows of the operand lies inside each of the
 * `ctas` CTAs' shared memory, else TCP_EMU_BAD_SMEM: checked before D is
 * touched, so that a fault leaves D as it was. */
TCP_HD int tcp_emu_mma_check_smem(const tcp_emu_mma_op_t *op, const tcp_emu_view_t *v, unsigned ctas, unsigned rows)
{
	unsigned te = op->padded ? 16u : 128u / op->bits;

	for (unsigned r = 0; r < ctas; r++)
		for (unsigned i = 0; i < (op->mn_major ? op->k : rows); i++)
			for (unsigned j = 0; j < (op->mn_major ? (rows + te - 1) / te : op->k / te); j++) {
				uint32_t a = tcp_emu_sdesc_chunk(&op->d, (int)op->mn_major, i, j);

				if (a > v->smem_bytes[r] || v->smem_bytes[r] - a < 16u)
					return TCP_EMU_BAD_SMEM;
			}
	return 0;
}

/* K elements of A from TMEM words w[] (the row's lane from its first
 * column) into out[k * stride]. */
TCP_HD void tcp_emu_mma_row_tmem(tcp_emu_mma_op_t op, const uint32_t *w, const float *lut, float *out, size_t stride)
{
	unsigned bits = op.padded ? 8u : op.bits, per = 32u / bits, k = 0, e;
	uint32_t sh = op.padded && op.bits == 4 ? TCP_EMU_MMA_FP4_SHIFT : 0u, mask = op.padded ? (1u << op.bits) - 1u : 0u;

	for (unsigned c = 0; k < op.k; c++, k += per) {
		uint32_t x = w[c];

		switch (bits) {
		case 32:
			out[k * stride] = tcp_emu_mma_val(op.fmt, lut, x);
			break;
		case 16:
			TCP_EMU_UNROLL
			for (e = 0; e < 2; e++)
				out[(k + e) * stride] = tcp_emu_mma_val(op.fmt, lut, (x >> (16 * e)) & 0xFFFFu);
			break;
		case 8:
			TCP_EMU_UNROLL
			for (e = 0; e < 4; e++) {
				uint32_t raw = (x >> (8 * e)) & 0xFFu;

				out[(k + e) * stride] = lut[mask ? (raw >> sh) & mask : raw];
			}
			break;
		default:
			TCP_EMU_UNROLL
			for (e = 0; e < 8; e++)
				out[(k + e) * stride] = lut[(x >> (4 * e)) & 0xFu];
			break;
		}
	}
}

/* The value of every code of an operand format of 8 bits or fewer into
 * lut[] (NULL returned for wider formats, decoded element by element). */
TCP_HD const float *tcp_emu_mma_lut(const tcp_emu_mma_op_t *op, float *lut)
{
	if (op->bits > 8)
		return 0;
	for (uint32_t c = 0; c < (1u << op->bits); c++)
		lut[c] = tcp_emu_elem(op->fmt, c);
	return lut;
}

/* 32-bit TMEM columns of one row of A in TMEM. */
TCP_HD unsigned tcp_emu_mma_a_cols(const tcp_emu_mma_op_t *op)
{
	return op->k * (op->padded ? 8u : op->bits) / 32u;
}

/* ---- the data-path layout ------------------------------------------------- */

enum { TCP_EMU_LAYOUT_A = 'A', TCP_EMU_LAYOUT_B = 'B', TCP_EMU_LAYOUT_D = 'D', TCP_EMU_LAYOUT_F = 'F' };

/* Layout letter of a dense, non-.ws MMA; 0 when the shape has none. */
TCP_HD int tcp_emu_mma_layout(unsigned cta_group, unsigned m)
{
	if (cta_group == 1)
		return m == 128 ? TCP_EMU_LAYOUT_D : m == 64 ? TCP_EMU_LAYOUT_F : 0;
	if (cta_group == 2)
		return m == 256 ? TCP_EMU_LAYOUT_A : m == 128 ? TCP_EMU_LAYOUT_B : 0;
	return 0;
}

/* Scale factors per row of one MMA (0: not block-scaled), checked against
 * the kind and the scale vector ("Valid combinations of scale_vectorsize");
 * -1 for an illegal combination. */
TCP_HD int tcp_emu_mma_nsf(unsigned kind, unsigned sv, const tcp_emu_idesc_t *f)
{
	if (kind < TCP_EMU_KIND_MXF8F6F4)
		return 0;
	if (kind == TCP_EMU_KIND_MXF8F6F4 ? sv != 1 : kind == TCP_EMU_KIND_MXF4 ? sv != 2 : sv != 2 && sv != 4)
		return -1;
	if (f->sf_fmt == TCP_EMU_FMT_UE4M3 && sv != 4)
		return -1;
	if (sv == 2 && !f->k96 && (f->sfa_id & 1u || f->sfb_id & 1u))
		return -1;	/* 2X: a half-word offset */
	if (sv == 4 && !f->k96 && (f->sfa_id || f->sfb_id))
		return -1;
	if (sv == 4 && f->k96 && (f->sfa_id & 1u || f->sfb_id & 1u))
		return -1;	/* K = 96 .block16: SFA_ID 00 or 10 */
	return (int)(f->k / (sv == 4 ? 16u : 32u));
}

/* Columns between word w and w + 1 of a row's scale factors (see the header). */
#define TCP_EMU_MMA_SF_WSTRIDE(is_b, cg, m, n)                                                          \
	((is_b) ? ((cg) == 2 && (m) == 128 ? ((n) + 127u) / 128u * 2u : ((n) + 127u) / 128u * 4u)     \
		: ((m) / (cg) + 31u) / 32u)

/*
 * tcp_emu_mma_footprint()
 *	The lanes and columns the MMA touches in each CTA's TMEM (see
 *	tcp_emu_mma_fp_t): D (Layout B: N/2 columns), A (ts: the row's K
 *	columns, D's lanes), SFA and SFB (all 128 lanes: every partition reads
 *	its own copy; columns: 32-row groups, plus word strides).  Returns 0,
 *	TCP_EMU_BAD_IDESC (decoder, shape without a layout, scale vector or
 *	scale-factor id illegal for the kind), TCP_EMU_BAD_FORM (sparse), or
 *	TCP_EMU_BAD_TADDR (a span outside 128 x 512; D or A lane field other
 *	than the layout's alignment; a scale-factor lane field other than 0).
 */
TCP_HD int tcp_emu_mma_footprint(unsigned kind, unsigned cta_group, unsigned ts, unsigned sv, uint32_t d_taddr,
				 uint32_t a_taddr, uint32_t idesc, uint32_t sfa, uint32_t sfb, tcp_emu_mma_fp_t *fp)
{
	tcp_emu_idesc_t f;
	unsigned dl = d_taddr >> 16, dc = d_taddr & 0xFFFFu, r, bad = 0;
	int lay, nsf, rc = tcp_emu_idesc_decode(kind, cta_group, idesc, &f);
	const tcp_emu_span_t none = { 0, 0, 0, 0 };

	for (r = 0; r < 2; r++)
		fp->d[r] = fp->a[r] = fp->sfa[r] = fp->sfb[r] = none;
	if (rc)
		return rc;
	if (f.sparse)
		return TCP_EMU_BAD_FORM;
	lay = tcp_emu_mma_layout(cta_group, f.m);
	nsf = tcp_emu_mma_nsf(kind, sv, &f);
	if (!lay || nsf < 0 || f.n == 0 || f.n > TCP_EMU_MMA_NMAX || f.k > TCP_EMU_MMA_KMAX)
		return TCP_EMU_BAD_IDESC;
	bad |= lay == TCP_EMU_LAYOUT_F ? dl != 0 && dl != 16 : dl != 0;
	for (r = 0; r < cta_group; r++) {
		tcp_emu_span_t d = { dl, lay == TCP_EMU_LAYOUT_F ? 112u : 128u, dc, lay == TCP_EMU_LAYOUT_B ? f.n / 2 : f.n };

		fp->d[r] = d;
		if (ts) {
			tcp_emu_mma_op_t op = TCP_ZERO;

			op.fmt = f.a_fmt;
			op.bits = tcp_emu_mma_bits(f.a_fmt);
			op.padded = tcp_emu_mma_padded(kind, f.a_fmt);
			op.k = f.k;
			fp->a[r] = d;
			fp->a[r].col0 = a_taddr & 0xFFFFu;
			fp->a[r].cols = tcp_emu_mma_a_cols(&op);
			bad |= (a_taddr >> 16) != dl;
		}
		if (nsf > 0) {
			unsigned words_a = (f.sfa_id + (unsigned)nsf - 1) / 4 + 1, words_b = (f.sfb_id + (unsigned)nsf - 1) / 4 + 1;
			unsigned rows_b = cta_group == 2 && f.m == 128 ? f.n / 2 : f.n;
			tcp_emu_span_t sa = { 0, 128, sfa & 0xFFFFu,
					      (f.m / cta_group + 31) / 32 +
						      (words_a - 1) * TCP_EMU_MMA_SF_WSTRIDE(0, cta_group, f.m, f.n) };
			tcp_emu_span_t sb = { 0, 128, sfb & 0xFFFFu,
					      (rows_b + 31) / 32 +
						      (words_b - 1) * TCP_EMU_MMA_SF_WSTRIDE(1, cta_group, f.m, f.n) };

			fp->sfa[r] = sa;
			fp->sfb[r] = sb;
			bad |= (sfa >> 16) != 0 || (sfb >> 16) != 0;
		}
	}
	for (r = 0; r < cta_group; r++) {
		const tcp_emu_span_t *s[4] = { &fp->d[r], &fp->a[r], &fp->sfa[r], &fp->sfb[r] };

		for (int i = 0; i < 4; i++)
			bad |= s[i]->lanes && (s[i]->lane0 + s[i]->lanes > TCP_EMU_LANES ||
					       s[i]->col0 + s[i]->cols > TCP_EMU_COLS);
	}
	return bad ? TCP_EMU_BAD_TADDR : 0;
}

/* The scale factor j of operand row i (column base `col`, word stride
 * `ws`, id `id`) as lane partition q's copy holds it. */
TCP_HD float tcp_emu_mma_sf(const uint32_t *tmem, unsigned fmt, unsigned col, unsigned ws, unsigned id, unsigned q,
			    unsigned i, unsigned j)
{
	unsigned b = id + j;
	uint32_t w = tmem[(32u * q + i % 32u) * TCP_EMU_COLS + col + i / 32u + b / 4u * ws];

	return tcp_emu_elem(fmt, (w >> (8u * (b % 4u))) & 0xFFu);
}

/* 1 when lane partition q0 of TMEM t0 and partition q1 of t1 hold the same
 * scale-factor words for rows [0, rows) (column base `col`, `words` words
 * `ws` columns apart). */
TCP_HD int tcp_emu_mma_sf_same(const uint32_t *t0, const uint32_t *t1, unsigned col, unsigned ws, unsigned words,
			       unsigned q0, unsigned q1, unsigned rows)
{
	for (unsigned i = 0; i < rows; i++)
		for (unsigned w = 0; w < words; w++) {
			unsigned cc = col + i / 32u + w * ws;

			if (t0[(32u * q0 + i % 32u) * TCP_EMU_COLS + cc] != t1[(32u * q1 + i % 32u) * TCP_EMU_COLS + cc])
				return 0;
		}
	return 1;
}

/*
 * tcp_emu_mma()
 *	Execute one tcgen05.mma (see the header comment for the semantics):
 *	kind (TCP_EMU_KIND_*), cta_group 1 or 2, ts (A in TMEM at `a`, else
 *	`a` is A's shared-memory descriptor), sv the .scale_vec (1, 2, 4;
 *	ignored for unscaled kinds), d_taddr the D address, bdesc B's
 *	descriptor, idesc, sfa / sfb the scale-factor addresses (block-scaled
 *	kinds), acc the enable-input-d predicate, mask NULL or the
 *	disable-output-lane words (4, or 8 for cta_group::2), scratch
 *	TCP_EMU_MMA_SCRATCH_FLOATS floats of the caller's (never NULL; the
 *	MMA's converted copies of B and of 8 rows of A, dead after the
 *	call).  Operands through v->smem[r] (the
 *	descriptors' shared addresses added), D into v->tmem[r].  Returns 0 or
 *	a TCP_EMU_* fault (tcp_emu_mma_footprint()'s, TCP_EMU_BAD_SDESC,
 *	TCP_EMU_BAD_SMEM for an operand chunk at or past smem_bytes,
 *	TCP_EMU_BAD_IDESC for fp4/fp6 MN-major), found before D is touched:
 *	a faulting MMA leaves D as it was.
 */
TCP_HD int tcp_emu_mma(const tcp_emu_view_t *v, unsigned kind, unsigned cta_group, unsigned ts, unsigned sv,
		       uint32_t d_taddr, uint64_t a, uint64_t bdesc, uint32_t idesc, uint32_t sfa, uint32_t sfb,
		       unsigned acc, const uint32_t *mask, float *scratch)
{
	enum { R = TCP_EMU_MMA_ROWS, C = TCP_EMU_MMA_COLS };
	tcp_emu_mma_fp_t fp;
	tcp_emu_idesc_t f;
	tcp_emu_mma_op_t oa = TCP_ZERO, ob = TCP_ZERO;
	unsigned M, N, K, NB, KB, half, rows_a, rows_b, c, L0, n, k, wsa, wsb, qb[2] = { ~0u, ~0u }, d_fmt, sat, sfb_words;
	int lay, nsf, rc;
	/* scratch: bt[k * N + n] = B (negated), bts the same scaled for lane
	 * partition qb[h] (h: the N half of Layout B, else 0), at[k * R + g] = the
	 * group's rows of A, the code tables */
	float *bt = scratch, *bts = bt + TCP_EMU_MMA_KMAX * TCP_EMU_MMA_NMAX, *at = bts + TCP_EMU_MMA_KMAX * TCP_EMU_MMA_NMAX;
	float *luts = at + TCP_EMU_MMA_KMAX * R;
	const float *lut_a, *lut_b, *bsrc;

	rc = tcp_emu_mma_footprint(kind, cta_group, ts, sv, d_taddr, (uint32_t)a, idesc, sfa, sfb, &fp);
	if (rc)
		return rc;
	tcp_emu_idesc_decode(kind, cta_group, idesc, &f);
	lay = tcp_emu_mma_layout(cta_group, f.m);
	nsf = tcp_emu_mma_nsf(kind, sv, &f);
	d_fmt = f.d_fmt;
	sat = f.sat;
	M = f.m;
	N = f.n;
	K = f.k;
	NB = nsf > 0 ? (unsigned)nsf : 1u;	/* K blocks that share a scale factor */
	KB = K / NB;
	half = lay == TCP_EMU_LAYOUT_B ? N / 2 : N;
	rows_a = M / cta_group;
	rows_b = N / cta_group;
	wsa = TCP_EMU_MMA_SF_WSTRIDE(0, cta_group, M, N);
	wsb = TCP_EMU_MMA_SF_WSTRIDE(1, cta_group, M, N);
	sfb_words = nsf > 0 ? (f.sfb_id + (unsigned)nsf - 1) / 4 + 1 : 0;

	oa.fmt = f.a_fmt;
	oa.bits = tcp_emu_mma_bits(f.a_fmt);
	oa.padded = tcp_emu_mma_padded(kind, f.a_fmt);
	oa.k = K;
	oa.neg = f.neg_a;
	oa.ts = ts;
	oa.mn_major = f.a_mn_major;
	ob.fmt = f.b_fmt;
	ob.bits = tcp_emu_mma_bits(f.b_fmt);
	ob.padded = tcp_emu_mma_padded(kind, f.b_fmt);
	ob.k = K;
	ob.neg = f.neg_b;
	ob.mn_major = f.b_mn_major;
	if ((oa.mn_major && oa.bits < 8 && !ts) || (ob.mn_major && ob.bits < 8))
		return TCP_EMU_BAD_IDESC;	/* "Valid Combinations of Type-Size, Major-ness and Swizzling" */
	if (tcp_emu_sdesc_decode(bdesc, &ob.d) || (!ts && tcp_emu_sdesc_decode(a, &oa.d)))
		return TCP_EMU_BAD_SDESC;
	rc = tcp_emu_mma_check_smem(&ob, v, cta_group, rows_b);
	if (!rc && !ts)
		rc = tcp_emu_mma_check_smem(&oa, v, cta_group, rows_a);
	if (rc)
		return rc;
	lut_a = tcp_emu_mma_lut(&oa, luts);
	lut_b = tcp_emu_mma_lut(&ob, luts + 256);

	/* B once, transposed, negated (exact); block-scaled kinds scale a copy
	 * per lane partition below */
	for (n = 0; n < N; n++) {
		tcp_emu_mma_row_smem(ob, v->smem[n / rows_b], n % rows_b, lut_b, bt + n, N);
		if (ob.neg)
			for (k = 0; k < K; k++)
				bt[k * N + n] = -bt[k * N + n];
	}
	bsrc = nsf > 0 ? bts : bt;

	for (c = 0; c < cta_group; c++) {
		const uint32_t *tm = v->tmem[c];
		uint32_t *dt = v->tmem[c];

		for (L0 = 0; L0 < TCP_EMU_LANES; L0 += R) {
			unsigned live = 0, q = L0 / 32u, n0 = 0, n1 = N, dl0 = (d_taddr >> 16) + L0;

			if (lay == TCP_EMU_LAYOUT_F && L0 % 32u >= 16u)
				continue;	/* half the data path */
			if (lay == TCP_EMU_LAYOUT_B) {
				n0 = L0 / 64u * half;
				n1 = n0 + half;
			}
			/* B scaled by this lane partition's copy of its scale factors
			 * (rebuilt only where that copy differs from the one bts holds) */
			if (nsf > 0 && qb[n0 != 0] != c * 4u + q &&
			    !(qb[n0 != 0] != ~0u &&
			      tcp_emu_mma_sf_same(v->tmem[qb[n0 != 0] / 4u], tm, sfb & 0xFFFFu, wsb, sfb_words, qb[n0 != 0] % 4u, q,
						  n1 - n0))) {
				qb[n0 != 0] = c * 4u + q;
				for (n = n0; n < n1; n++)
					for (unsigned j = 0; j < NB; j++) {
						float sc = tcp_emu_mma_sf(tm, f.sf_fmt, sfb & 0xFFFFu, wsb, f.sfb_id, q,
									  lay == TCP_EMU_LAYOUT_B ? n % half : n, j);

						for (k = j * KB; k < (j + 1) * KB; k++)
							bts[k * N + n] = bt[k * N + n] * sc;
					}
			}
			/* A: the group's rows, transposed, negated and scaled (exact) */
			for (unsigned g = 0; g < R; g++) {
				unsigned L = L0 + g, m, lr, bit = c * 128u + dl0 + g;

				m = lay == TCP_EMU_LAYOUT_F ? L / 32u * 16u + L % 32u
				    : lay == TCP_EMU_LAYOUT_B ? c * 64u + L % 64u : c * 128u + L;
				lr = m % rows_a;
				if (!(mask && (mask[bit / 32u] >> (bit % 32u)) & 1u))
					live |= 1u << g;
				if (ts)
					tcp_emu_mma_row_tmem(oa, tm + (size_t)(dl0 + g) * TCP_EMU_COLS + (a & 0xFFFFu), lut_a, at + g,
							     R);
				else
					tcp_emu_mma_row_smem(oa, v->smem[c], lr, lut_a, at + g, R);
				for (unsigned j = 0; j < NB; j++) {
					float sc = nsf > 0 ? tcp_emu_mma_sf(tm, f.sf_fmt, sfa & 0xFFFFu, wsa, f.sfa_id, q, lr, j) : 1.0f;

					if (oa.neg)
						sc = -sc;
					if (sc != 1.0f)
						for (k = j * KB; k < (j + 1) * KB; k++)
							at[k * R + g] *= sc;
				}
			}
			if (!live)
				continue;
			/* D, R rows x C columns at a time: K products each, 16-byte reads of A and B */
			for (n = n0; n < n1; n += C) {
				float s[R][C];
				uint32_t old[R][C];
				unsigned col = (d_taddr & 0xFFFFu) + n - n0;
				const tcp_emu_f4_t *ap = (const tcp_emu_f4_t *)(const void *)at;
				const tcp_emu_f4_t *bp = (const tcp_emu_f4_t *)(const void *)(bsrc + n);
				const size_t bstep = N / 4u;

				TCP_EMU_UNROLL
				for (unsigned g = 0; g < R; g++)
					TCP_EMU_UNROLL
					for (unsigned j = 0; j < C; j++)
						s[g][j] = 0.0f;
				for (k = 0; k < K; k++, ap += R / 4u, bp += bstep) {
					float av[R], bv[C];

					tcp_emu_f4_load(ap, R, av);
					tcp_emu_f4_load(bp, C, bv);
					TCP_EMU_UNROLL
					for (unsigned g = 0; g < R; g++)
						TCP_EMU_UNROLL
						for (unsigned j = 0; j < C; j++)
							s[g][j] += av[g] * bv[j];
				}
				/* one read (acc) and one write per D word: loads first, then stores */
				TCP_EMU_UNROLL
				for (unsigned g = 0; g < R; g++)
					TCP_EMU_UNROLL
					for (unsigned j = 0; j < C; j++)
						old[g][j] = acc && ((live >> g) & 1u) ? dt[(size_t)(dl0 + g) * TCP_EMU_COLS + col + j] : 0u;
				if (d_fmt == TCP_EMU_FMT_F32) {
					TCP_EMU_UNROLL
					for (unsigned g = 0; g < R; g++)
						TCP_EMU_UNROLL
						for (unsigned j = 0; j < C; j++)
							old[g][j] = tcp_emu_f32_bits(tcp_emu_f32_of(old[g][j]) + s[g][j]);
				} else if (d_fmt == TCP_EMU_FMT_S32) {
					TCP_EMU_UNROLL
					for (unsigned g = 0; g < R; g++)
						TCP_EMU_UNROLL
						for (unsigned j = 0; j < C; j++) {
							int64_t t = (int64_t)s[g][j] + (int64_t)(int32_t)old[g][j];

							if (sat)
								t = t > 2147483647 ? 2147483647 : t < -2147483647 - 1 ? -2147483647 - 1 : t;
							old[g][j] = (uint32_t)(uint64_t)t;
						}
				} else {
					TCP_EMU_UNROLL
					for (unsigned g = 0; g < R; g++)
						TCP_EMU_UNROLL
						for (unsigned j = 0; j < C; j++)
							old[g][j] = tcp_emu_f16_bits(tcp_emu_elem(TCP_EMU_FMT_F16, old[g][j]) + s[g][j]);
				}
				TCP_EMU_UNROLL
				for (unsigned g = 0; g < R; g++)
					TCP_EMU_UNROLL
					for (unsigned j = 0; j < C; j++)
						if ((live >> g) & 1u)
							dt[(size_t)(dl0 + g) * TCP_EMU_COLS + col + j] = old[g][j];
			}
		}
	}
	return 0;
}

#endif /* TCP_EMU_MMA_H */
