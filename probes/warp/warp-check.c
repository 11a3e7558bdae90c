/*
 * warp-check.c
 *	Operands, reference and dump check of one warp-level MMA tile
 *	(probes/warp/warp-check.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/ref-interp.h"
#include "probes/warp/warp-check.h"

enum { ROWB = 32 };	/* bytes of K per row of A (compressed when sparse) */

/* Is t one of the types fill.h encodes (f16, bf16, tf32, e4m3, e5m2, s8, u8)? */
static int fill_type(tcp_type_t t)
{
	return tcp_type_bytes(t) != 0 && t != TCP_T_F32 && t != TCP_T_S32;
}

/* Byte image of n elements of fp6/fp4 type t, `bits` per element (8: one per byte
 * container, fp4 at bits 5:2 and fp6 at bits 5:0, CUTLASS mma_traits_sm120.hpp
 * fp4_shift_A; 4: packed, element 2i in the low nibble). */
static void put_small(tcp_type_t t, int bits, uint8_t *img, size_t i, unsigned code)
{
	if (bits == 4)
		img[i / 2] = (uint8_t)((img[i / 2] & (i & 1 ? 0x0F : 0xF0)) | (code & 0xF) << (i & 1 ? 4 : 0));
	else
		img[i] = (uint8_t)(t == TCP_T_E2M1 ? (code & 0xF) << 2 : code & 0x3F);
}

static unsigned get_small(tcp_type_t t, int bits, const uint8_t *img, size_t i)
{
	if (bits == 4)
		return (img[i / 2] >> (i & 1 ? 4 : 0)) & 0xF;
	return t == TCP_T_E2M1 ? (img[i] >> 2) & 0xF : img[i] & 0x3F;
}

/* Code of +1.0 in fp6/fp4 (bias 1 for e2m1/e2m3, 3 for e3m2). */
static unsigned small_one(tcp_type_t t)
{
	return t == TCP_T_E2M1 ? 0x2 : t == TCP_T_E2M3 ? 0x08 : 0x0C;
}

/* n elements of an fp6/fp4 type in pattern pat into img: 0 / -1. */
static int fill_small(tcp_type_t t, int bits, tcp_pattern_t pat, size_t n, tcp_rng_t *r, uint8_t *img)
{
	unsigned mask = t == TCP_T_E2M1 ? 0xF : 0x3F;

	for (size_t i = 0; i < n; i++) {
		unsigned code;

		switch (pat) {
		case TCP_PAT_ZEROS: code = 0; break;
		case TCP_PAT_ONES: code = small_one(t); break;
		case TCP_PAT_RANDOM: code = (unsigned)tcp_rng_u64(r) & mask; break;
		case TCP_PAT_SPARSE50:
			code = (unsigned)tcp_rng_u64(r) & mask;
			if (tcp_rng_u64(r) & 1)
				code = 0;
			break;
		default: return -1;
		}
		put_small(t, bits, img, i, code);
	}
	return 0;
}

/* Value of element i of a byte image of type t (bits per element as in the registers). */
static double elem_value(tcp_type_t t, int bits, const uint8_t *img, size_t i)
{
	uint32_t raw = 0;

	if (bits <= 8 && tcp_type_bits(t) < 8)
		return tcp_ref_decode(t, get_small(t, bits, img, i));
	memcpy(&raw, img + i * (size_t)(bits / 8), (size_t)bits / 8);
	return tcp_ref_decode(t, raw);
}

/* Flip the sign of every element (floats) or negate (s8) / keep (u8): B2 = -B0. */
static void negate(tcp_type_t t, int bits, uint8_t *img, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (tcp_type_bits(t) < 8) {
			unsigned sign = t == TCP_T_E2M1 ? 0x8 : 0x20;
			put_small(t, bits, img, i, get_small(t, bits, img, i) ^ sign);
		} else if (t == TCP_T_S8 || t == TCP_T_U8) {
			/* the value the original probe drew: -x rounded into the type (u8: 0) */
			tcp_encode(t, -tcp_decode(t, img + i), img + i);
		} else {
			img[(i + 1) * (size_t)(bits / 8) - 1] ^= 0x80;	/* sign bit, little-endian */
		}
	}
}

/* Fill n elements of type t (register width bits) into img from r. */
static int fill_any(tcp_type_t t, int bits, tcp_pattern_t pat, tcp_type_t acc, long terms, size_t n,
		    tcp_rng_t *r, uint8_t *img)
{
	if (fill_type(t))
		return tcp_fill_pattern(t, pat, acc, terms, n, r, img, NULL);
	return fill_small(t, bits, pat, n, r, img);
}

/* Random scale code: ue8m0 2^-3..2^3; ue4m3 exponent 2^-2..2^2, any mantissa. */
static uint8_t scale_code(tcp_type_t sf, tcp_rng_t *r)
{
	if (sf == TCP_T_UE8M0)
		return (uint8_t)(127 - 3 + tcp_rng_u64(r) % 7);
	return (uint8_t)(((5 + tcp_rng_u64(r) % 5) << 3) | (tcp_rng_u64(r) & 7));
}

/*
 * spread()
 *	The logical sparse row from its compressed image: chunk j of 4 units keeps
 *	units i0, i1 of the row's code[j]; the rest is zero.
 */
static void spread(const uint8_t *comp, uint8_t *logical, int unit, const uint8_t *code)
{
	memset(logical, 0, 2 * ROWB);
	for (int j = 0; j < 2 * ROWB / (4 * unit); j++) {
		unsigned nib = code[j];

		memcpy(logical + (4 * j + (nib & 3)) * unit, comp + (2 * j) * unit, (size_t)unit);
		memcpy(logical + (4 * j + (nib >> 2)) * unit, comp + (2 * j + 1) * unit, (size_t)unit);
	}
}

/* Fragments of one image: A (16 x 32 B), or B tile (8 x bbytes). */
static void pack_a(const uint8_t *img, uint32_t *frag)
{
	for (int l = 0; l < TCP_WARP_LANES; l++)
		for (int j = 0; j < 4; j++) {
			uint8_t w[4];
			for (int byte = 0; byte < 4; byte++) {
				int row, kb;
				tcp_warp_a_byte(l, j, byte, &row, &kb);
				w[byte] = img[row * ROWB + kb];
			}
			memcpy(&frag[l * 4 + j], w, 4);
		}
}

static void pack_b(const uint8_t *img, int bbytes, int nregs, uint32_t *frag)
{
	for (int l = 0; l < TCP_WARP_LANES; l++)
		for (int j = 0; j < 4; j++) {
			uint8_t w[4] = { 0, 0, 0, 0 };
			for (int byte = 0; j < nregs && byte < 4; byte++) {
				int col, kb;
				tcp_warp_b_byte(l, j, byte, &col, &kb);
				w[byte] = img[col * bbytes + kb];
			}
			memcpy(&frag[l * 4 + j], w, 4);
		}
}

int tcp_warp_data_build(tcp_warp_data_t *d, int form, tcp_pattern_t pat, uint64_t seed, char *reason,
			size_t len)
{
	const tcp_warp_form_t *f = tcp_warp_form(form);
	uint8_t aimg[16 * ROWB], alog[16 * 2 * ROWB], bimg[TCP_WARP_BTILES][8 * 2 * ROWB];
	tcp_rng_t r;

	if (!f) {
		snprintf(reason, len, "warp form %d unknown", form);
		return -1;
	}
	memset(d, 0, sizeof(*d));
	d->form = form;
	d->k = tcp_warp_k(form);
	int bits = tcp_warp_elem_bits(form), ka = f->sparse ? d->k / 2 : d->k;
	int bbytes = d->k * bits / 8, unit = tcp_warp_meta_unit_bytes(form);
	tcp_type_t t = f->ab;

	tcp_rng_seed(&r, seed);
	memset(aimg, 0, sizeof(aimg));
	memset(bimg, 0, sizeof(bimg));
	/* maxfinite: the validation sums 3 steps of k products (4 k: margin), as ever */
	if (fill_any(t, bits, pat, f->acc, 4L * d->k, (size_t)16 * ka, &r, aimg) ||
	    fill_any(t, bits, pat, f->acc, 4L * d->k, (size_t)8 * d->k, &r, bimg[0]) ||
	    fill_any(t, bits, pat, f->acc, 4L * d->k, (size_t)8 * d->k, &r, bimg[1])) {
		snprintf(reason, len, "pattern %s: no fill for %s", tcp_pattern_names[pat], tcp_type_name(t));
		return -1;
	}
	memcpy(bimg[2], bimg[0], sizeof(bimg[0]));
	negate(t, bits, bimg[2], (size_t)8 * d->k);

	/* sparse: a random legal code per row and chunk, placed in the lanes the
	 * hardware reads (model/warp-mma.h tcp_warp_meta_loc) */
	if (f->sparse) {
		for (int m = 0; m < 16; m++)
			for (int j = 0; j < 2 * ROWB / (4 * unit); j++) {
				unsigned nib;
				do
					nib = (unsigned)tcp_rng_u64(&r) & 0xF;
				while (!tcp_warp_meta_nibble_legal(form, nib));
				d->meta_code[m][j] = (uint8_t)nib;
			}
		for (int l = 0; l < TCP_WARP_LANES; l++)
			for (int n = 0; n < 8; n++) {
				int row, chunk;
				if (tcp_warp_meta_loc(form, l, n, &row, &chunk))
					d->meta[l] |= (uint32_t)d->meta_code[row][chunk] << (4 * n);
			}
		for (int m = 0; m < 16; m++)
			spread(aimg + m * ROWB, alog + m * 2 * ROWB, unit, d->meta_code[m]);
	} else {
		memcpy(alog, aimg, sizeof(aimg));
	}
	int arow = f->sparse ? 2 * ROWB : ROWB;

	/* block scales: random per row / column and K block */
	int nblk = f->sf_block ? d->k / f->sf_block : 1;
	for (int m = 0; m < 16; m++)
		for (int i = 0; i < nblk; i++) {
			d->sa_code[m][i] = f->sf_block ? scale_code(f->sf, &r) : 0;
			d->sa[m][i] = f->sf_block ? tcp_ref_decode(f->sf, d->sa_code[m][i]) : 1.0;
		}
	for (int n = 0; n < 8; n++)
		for (int i = 0; i < nblk; i++) {
			d->sb_code[n][i] = f->sf_block ? scale_code(f->sf, &r) : 0;
			d->sb[n][i] = f->sf_block ? tcp_ref_decode(f->sf, d->sb_code[n][i]) : 1.0;
		}
	/* scale registers: byte i = K block i of the lane's row / column (model/warp-mma.h) */
	for (int l = 0; f->sf_block && l < TCP_WARP_LANES; l++)
		for (int i = 0; i < nblk; i++) {
			d->sfa[l] |= (uint32_t)d->sa_code[tcp_warp_sfa_row(l)][i] << (8 * i);
			d->sfb[l] |= (uint32_t)d->sb_code[tcp_warp_sfb_col(l)][i] << (8 * i);
		}

	/* logical operands, scaled */
	for (int m = 0; m < 16; m++)
		for (int kk = 0; kk < d->k; kk++)
			d->a[m * d->k + kk] = elem_value(t, bits, alog + m * arow, (size_t)kk) *
					      d->sa[m][f->sf_block ? kk / f->sf_block : 0];
	for (int tile = 0; tile < TCP_WARP_BTILES; tile++)
		for (int n = 0; n < 8; n++)
			for (int kk = 0; kk < d->k; kk++)
				d->b[tile][n * d->k + kk] = elem_value(t, bits, bimg[tile] + n * bbytes, (size_t)kk) *
							    d->sb[n][f->sf_block ? kk / f->sf_block : 0];
	pack_a(aimg, d->afrag);
	for (int tile = 0; tile < TCP_WARP_BTILES; tile++)
		pack_b(bimg[tile], bbytes, tcp_warp_b_regs(form), d->bfrag + tile * TCP_WARP_LANES * 4);
	return 0;
}

void tcp_warp_reference(const tcp_warp_data_t *d, double ref[16 * 8], double mag[16 * 8])
{
	memset(ref, 0, sizeof(double) * 16 * 8);
	memset(mag, 0, sizeof(double) * 16 * 8);
	tcp_ref_gemm(16, 8, d->k, d->a, d->b[0], 2.0, ref, mag);
	tcp_ref_gemm(16, 8, d->k, d->a, d->b[1], 1.0, ref, mag);
}

double tcp_warp_tolerance(int form)
{
	const tcp_warp_form_t *f = tcp_warp_form(form);

	if (!f)
		return 0;
	if (tcp_type_bits(f->ab) < 8 || f->sf_block)	/* fp6 / fp4 / block-scaled: as e4m3 */
		return 0x1p-4 + (f->acc == TCP_T_F16 ? 1e-2 : 0);
	return tcp_tolerance(f->ab, f->ab, f->acc);
}

void tcp_warp_dump_decode(int form, const uint32_t *dump, double got[16 * 8])
{
	const tcp_warp_form_t *f = tcp_warp_form(form);

	for (int l = 0; l < TCP_WARP_LANES; l++)
		for (int e = 0; e < 4; e++) {
			int row, col;
			uint32_t w;

			tcp_warp_d_elem(l, e, &row, &col);
			if (f->acc == TCP_T_F16) {
				uint16_t h;
				w = dump[l * 4 + (e >> 1)];
				h = (uint16_t)(e & 1 ? w >> 16 : w & 0xFFFF);
				got[row * 8 + col] = tcp_decode(TCP_T_F16, &h);
			} else {
				w = dump[l * 4 + e];
				got[row * 8 + col] = tcp_decode(f->acc, &w);
			}
		}
}

int tcp_warp_check_dump(int form, const uint32_t *dump, const double *ref, const double *mag, char *reason,
			size_t len)
{
	double got[16 * 8];

	tcp_warp_dump_decode(form, dump, got);
	return tcp_check(16 * 8, 8, got, ref, mag, tcp_warp_tolerance(form), reason, len) >= 0 ? -1 : 0;
}

void tcp_warp_dump_encode(int form, const double ref[16 * 8], uint32_t *dump)
{
	const tcp_warp_form_t *f = tcp_warp_form(form);

	memset(dump, 0, sizeof(uint32_t) * TCP_WARP_LANES * 4);
	for (int l = 0; l < TCP_WARP_LANES; l++)
		for (int e = 0; e < 4; e++) {
			int row, col;

			tcp_warp_d_elem(l, e, &row, &col);
			if (f->acc == TCP_T_F16) {
				uint16_t h;
				tcp_encode(TCP_T_F16, ref[row * 8 + col], &h);
				dump[l * 4 + (e >> 1)] |= (uint32_t)h << (e & 1 ? 16 : 0);
			} else {
				tcp_encode(f->acc, ref[row * 8 + col], &dump[l * 4 + e]);
			}
		}
}
