/*
 * ref-interp.c
 *	Reference interpreter (model/ref-interp.h).  Written from the PTX ISA
 *	text, in its own terms: "128-bit elements" (16-byte chunks), the
 *	canonical layouts as shape : stride in those units, swizzling as an XOR
 *	of the chunk index inside a swizzle row with the row number.
 */
#include <math.h>
#include <stdio.h>

#include "model/ref-interp.h"

/* Minifloat with `e` exponent bits, `m` mantissa bits, bias b; no inf/NaN handling. */
static double minifloat(uint32_t raw, int e, int m, int has_sign)
{
	int s = has_sign ? (raw >> (e + m)) & 1 : 0;
	int ex = (int)((raw >> m) & ((1u << e) - 1));
	int mant = (int)(raw & ((1u << m) - 1));
	int bias = (1 << (e - 1)) - 1;
	double v;

	if (ex == 0)
		v = ldexp((double)mant, 1 - bias - m);		/* subnormal */
	else
		v = ldexp((double)(mant + (1 << m)), ex - bias - m);
	return s ? -v : v;
}

/*
 *  tcp_ref_decode()
 *	Special values per format: f16/bf16/e5m2/f32/tf32 have IEEE inf/NaN;
 *	e4m3 only NaN at S.1111.111; ue4m3 NaN at 0x7F; ue8m0 NaN at 0xFF;
 *	e2m3, e3m2, e2m1 have none.
 */
double tcp_ref_decode(tcp_type_t t, uint32_t raw)
{
	switch (t) {
	case TCP_T_F16:
		raw &= 0xFFFF;
		if (((raw >> 10) & 0x1F) == 0x1F)
			return (raw & 0x3FF) ? NAN : (raw >> 15) ? -INFINITY : INFINITY;
		return minifloat(raw, 5, 10, 1);
	case TCP_T_BF16:
		raw &= 0xFFFF;
		if (((raw >> 7) & 0xFF) == 0xFF)
			return (raw & 0x7F) ? NAN : (raw >> 15) ? -INFINITY : INFINITY;
		return minifloat(raw, 8, 7, 1);
	case TCP_T_TF32:
		/* sign, 8 exponent bits, the top 10 mantissa bits of an f32 container */
		if (((raw >> 23) & 0xFF) == 0xFF)
			return (raw & 0x7FE000) ? NAN : (raw >> 31) ? -INFINITY : INFINITY;
		return minifloat(raw >> 13, 8, 10, 1);
	case TCP_T_F32:
		if (((raw >> 23) & 0xFF) == 0xFF)
			return (raw & 0x7FFFFF) ? NAN : (raw >> 31) ? -INFINITY : INFINITY;
		return minifloat(raw, 8, 23, 1);
	case TCP_T_E4M3:
		raw &= 0xFF;
		if ((raw & 0x7F) == 0x7F)
			return NAN;
		return minifloat(raw, 4, 3, 1);
	case TCP_T_E5M2:
		raw &= 0xFF;
		if (((raw >> 2) & 0x1F) == 0x1F)
			return (raw & 3) ? NAN : (raw >> 7) ? -INFINITY : INFINITY;
		return minifloat(raw, 5, 2, 1);
	case TCP_T_E2M3:
		return minifloat(raw & 0x3F, 2, 3, 1);
	case TCP_T_E3M2:
		return minifloat(raw & 0x3F, 3, 2, 1);
	case TCP_T_E2M1:
		return minifloat(raw & 0xF, 2, 1, 1);
	case TCP_T_S8:
		return (double)(int8_t)(raw & 0xFF);
	case TCP_T_U8:
		return (double)(raw & 0xFF);
	case TCP_T_S32:
		return (double)(int32_t)raw;
	case TCP_T_UE8M0:
		raw &= 0xFF;
		return raw == 0xFF ? NAN : ldexp(1.0, (int)raw - 127);
	case TCP_T_UE4M3:
		raw &= 0x7F;
		return raw == 0x7F ? NAN : minifloat(raw, 4, 3, 0);
	default:
		return NAN;
	}
}

/* The swizzle modes in PTX's words. */
struct swz {
	int none;		/* no swizzling: the interleaved (core-matrix) layout */
	unsigned width;		/* swizzle row width in bytes: 32, 64, 128 */
	unsigned unit;		/* bytes that move together: 16, or 32 for "128B with 32B atoms" */
	int lbo_abs;		/* bit 52: LBO is a byte address, not an offset (sm_103a's 48-byte K) */
};

/* Decode the descriptor's layout field into mode + strides (bytes). */
static int parse_desc(const tcp_ref_operand_t *op, struct swz *s, uint32_t *start, uint32_t *lbo,
		      uint32_t *sbo, unsigned *base_off, char *reason, size_t len)
{
	uint64_t d = op->desc;
	unsigned code;

	*start = (uint32_t)(d & 0x3FFF) * 16;
	*lbo = (uint32_t)((d >> 16) & 0x3FFF) * 16;
	*sbo = (uint32_t)((d >> 32) & 0x3FFF) * 16;
	*base_off = (unsigned)(d >> 49) & 7;
	s->none = 0;
	s->unit = 16;
	s->lbo_abs = 0;
	if (op->hopper) {
		code = (unsigned)(d >> 62);
		switch (code) {
		case 0: s->none = 1; s->width = 16; break;
		case 1: s->width = 128; break;
		case 2: s->width = 64; break;
		default: s->width = 32; break;
		}
		return 0;
	}
	if (((d >> 46) & 7) != 1) {
		snprintf(reason, len, "sm_100 descriptor bits 46-48 must be 0b001; got %u", (unsigned)((d >> 46) & 7));
		return -1;
	}
	s->lbo_abs = (int)((d >> 52) & 1);
	code = (unsigned)(d >> 61);
	switch (code) {
	case 0: s->none = 1; s->width = 16; break;
	case 1: s->width = 128; s->unit = 32; break;
	case 2: s->width = 128; break;
	case 4: s->width = 64; break;
	case 6: s->width = 32; break;
	default:
		snprintf(reason, len, "layout code %u is invalid (legal: 0, 1, 2, 4, 6)", code);
		return -1;
	}
	return 0;
}

/*
 * Swizzling: memory is seen as lines of 128 bytes; within the pattern the
 * line number (mod 8, counted from the pattern start whose (addr >> 7) & 7
 * is the base offset) is XORed into the index of the unit (16 or 32 bytes)
 * inside the swizzle row, using as many low bits as the row has units.
 * [?] base offset != 0 is read as shifting the line count; the builders
 * never produce it.
 */
static uint32_t swizzle(const struct swz *s, uint32_t addr, unsigned base_off)
{
	unsigned units, line, idx;

	if (s->none)
		return addr;
	units = s->width / s->unit;				/* 2, 4, 8 (or 4 for 32B atoms) */
	line = ((addr >> 7) - base_off) & 7;
	idx = (addr / s->unit) % units;
	return addr - idx * s->unit + ((idx ^ (line % units)) * s->unit);
}

/*
 *  tcp_ref_read()
 *	PTX canonical layouts, T = elements per 128 bits (16 for padded fp4/fp6):
 *	K-major   none:  ((8,m),(T,2k)) : ((1T,SBO),(1,LBO))
 *	          swz W: ((8,m),(T,2k)) : ((W/16 T,SBO),(1,T))
 *	MN-major  none:  ((T,1,m),(8,k)) : ((1,T,SBO),(1T,LBO))
 *	          swz W: ((T,W/16,m),(8,k)) : ((1,T,LBO),(W/16 T,SBO))
 *	          128B with 32B atoms: ((T,8,m),(4,k)) : ((1,T,LBO),(8T,SBO)), MN-major
 *	          only [?] (CUTLASS Layout_MN_SW128_32B_Atom: 4 K rows of 128 B)
 *	(strides in elements, LBO/SBO in bytes); then the swizzle of the address.
 *	Absolute LBO (descriptor bit 52, "byte address absolute, only used for
 *	48B K tile"): a K-major swizzled row whose K runs past the end of the
 *	start's swizzle row continues at chunk 0 of the same row of the atom at
 *	address LBO.  [?] Read from CUTLASS, not the PTX text, which says no
 *	more than the bit's name: cute/atom/mma_traits_sm100.hpp
 *	SM103::mma_unpack puts the next buffer's start address there, and
 *	sm103_blockscaled_mma_warpspecialized.hpp starts MMA 2 of 8 at
 *	buffer + 96 bytes with buffer + 1 as that address.
 */
int tcp_ref_read(const tcp_ref_operand_t *op, const uint8_t *smem, uint32_t smem_base, size_t smem_len,
		 uint32_t *out, char *reason, size_t len)
{
	struct swz s;
	uint32_t start, lbo, sbo;
	unsigned base_off, T;

	if (parse_desc(op, &s, &start, &lbo, &sbo, &base_off, reason, len))
		return -1;
	if (op->bits != 4 && op->bits != 6 && op->bits != 8 && op->bits != 16 && op->bits != 32) {
		snprintf(reason, len, "element width must be 4, 6, 8, 16 or 32 bits; got %u", op->bits);
		return -1;
	}
	if (op->major && op->bits < 8) {
		snprintf(reason, len, "MN-major needs 8-, 16- or 32-bit elements; got %u-bit", op->bits);
		return -1;
	}
	if (op->bits == 6 && !op->padded) {
		snprintf(reason, len, "6-bit elements exist only in the padded (16 per 16 B) form");
		return -1;
	}
	if (!s.none && s.unit == 32 && !op->major) {
		snprintf(reason, len, "128B swizzle with 32B atoms is defined for MN-major operands only");
		return -1;
	}
	if (s.lbo_abs && (s.none || op->major)) {
		snprintf(reason, len, "absolute LBO mode (bit 52) is modelled for K-major swizzled operands only (the 48-byte "
			 "K of sm_103a's K = 96)");
		return -1;
	}
	T = op->padded ? 16 : 128 / op->bits;
	for (unsigned r = 0; r < op->rows; r++) {
		for (unsigned kk = 0; kk < op->k; kk++) {
			uint32_t off, addr, pos;
			unsigned e;

			if (!op->major) {
				unsigned r0 = r % 8, r1 = r / 8, kc = kk / T;

				e = kk % T;
				if (s.none) {
					off = r0 * 16 + r1 * sbo + kc * lbo;
				} else if (s.lbo_abs && start % s.width + kc * 16 >= s.width) {
					/* past the end of the start's swizzle row: the row goes on
					 * from chunk 0 of the K atom at address LBO */
					unsigned o = start % s.width + kc * 16 - s.width;

					if (o >= s.width) {
						snprintf(reason, len, "K chunk %u runs past the K atom at LBO 0x%x", kc, lbo);
						return -1;
					}
					off = lbo - start + r0 * s.width + r1 * sbo + o;
				} else {
					off = r0 * s.width + r1 * sbo + kc * 16;
				}
			} else {
				unsigned per_row = s.none ? 1 : s.width / 16;	/* 128-bit units per row */
				unsigned c = r / T, c0 = c % per_row, c1 = c / per_row;
				unsigned kg = s.unit == 32 ? 4 : 8;		/* K rows per atom */
				unsigned k0 = kk % kg, k1 = kk / kg;

				e = r % T;
				if (s.none)
					off = c0 * 16 + c1 * sbo + k0 * 16 + k1 * lbo;
				else
					off = c0 * 16 + c1 * lbo + k0 * s.width + k1 * sbo;
			}
			addr = swizzle(&s, start + off, base_off);
			if (addr < smem_base || addr + 16 > smem_base + smem_len) {
				snprintf(reason, len, "element (%u, %u) at shared address 0x%x is outside the image [0x%x, 0x%zx)",
					 r, kk, addr, smem_base, smem_base + smem_len);
				return -1;
			}
			pos = (addr - smem_base) * 8 + e * op->bits;
			out[(size_t)r * op->k + kk] = 0;
			for (unsigned b = 0; b < op->bits; b++)
				out[(size_t)r * op->k + kk] |=
					(uint32_t)((smem[(pos + b) / 8] >> ((pos + b) % 8)) & 1) << b;
		}
	}
	return 0;
}

void tcp_ref_mma(const tcp_ref_mma_t *c, const uint32_t *a, const uint32_t *b, const uint32_t *sfa,
		 const uint32_t *sfb, double *d, int accumulate)
{
	unsigned nsf = c->sf_block ? c->k / c->sf_block : 0;

	for (unsigned m = 0; m < c->m; m++) {
		for (unsigned n = 0; n < c->n; n++) {
			double acc = accumulate ? d[(size_t)m * c->n + n] : 0.0;

			for (unsigned kk = 0; kk < c->k; kk++) {
				double x = tcp_ref_decode(c->a, a[(size_t)m * c->k + kk]);
				double y = tcp_ref_decode(c->b, b[(size_t)n * c->k + kk]);

				if (c->neg_a)
					x = -x;
				if (c->neg_b)
					y = -y;
				if (nsf && sfa && sfb) {
					x *= tcp_ref_decode(c->sf, sfa[(size_t)m * nsf + kk / c->sf_block]);
					y *= tcp_ref_decode(c->sf, sfb[(size_t)n * nsf + kk / c->sf_block]);
				}
				acc += x * y;
			}
			d[(size_t)m * c->n + n] = acc;
		}
	}
}
