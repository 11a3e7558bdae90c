/*
 * wgmma-tile.c
 *	Tiles, fragments and the reference check for the wgmma probes (see
 *	wgmma-tile.h).  Plain C11, host only.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/smem-layout.h"
#include "probes/common/fill.h"
#include "probes/common/wgmma-tile.h"

#define TCP_WG_KIND_ROW(id, a_, b_, d_, k_, ty, ss, rs) \
	[TCP_WGK_##id] = { .a = TCP_T_##a_, .b = TCP_T_##b_, .d = TCP_T_##d_, .k = k_, \
			   .family = TCP_T_##a_ == TCP_T_TF32 ? TCP_KIND_TF32 : \
				     k_ == 16 ? TCP_KIND_F16 : \
				     (TCP_T_##a_ == TCP_T_S8 || TCP_T_##a_ == TCP_T_U8) ? TCP_KIND_I8 : \
				     TCP_KIND_F8F6F4 },
const tcp_wg_kind_t tcp_wg_kinds[TCP_WGK_COUNT] = { TCP_WG_KINDS(TCP_WG_KIND_ROW) };

int tcp_wg_kind_find(tcp_type_t a, tcp_type_t b, tcp_type_t d)
{
	for (int i = 0; i < TCP_WGK_COUNT; i++)
		if (tcp_wg_kinds[i].a == a && tcp_wg_kinds[i].b == b && tcp_wg_kinds[i].d == d)
			return i;
	return -1;
}

int tcp_wg_acc_regs(int kind, int n)
{
	return tcp_wg_kinds[kind].d == TCP_T_F16 ? n / 4 : n / 2;
}

/*
 * Tiles are K-major without swizzle, placed by the model (model/smem-layout.h:
 * 8 rows x 16 bytes per contiguous core matrix, LBO = 128 between the two
 * K-adjacent core matrices of a 32-byte K row, SBO = 256 between 8-row groups).
 */
static tcp_tile_t tile_of(tcp_type_t t, int rows, int k)
{
	tcp_tile_t tl = { TCP_SW_NONE, TCP_MAJOR_K, (unsigned)tcp_type_bits(t), 0, (unsigned)rows,
			  (unsigned)k, 0 };

	return tl;
}

/* Place a rows x k tile (row-major, `src` encoded, eb bytes an element) at `base`. */
static void place(uint8_t *image, uint32_t base, const uint8_t *src, tcp_type_t t, int rows, int k)
{
	tcp_tile_t tl = tile_of(t, rows, k);
	size_t eb = tcp_type_bytes(t);

	for (int r = 0; r < rows; r++)
		for (int kk = 0; kk < k; kk++)
			memcpy(image + base + tcp_tile_place(&tl, (unsigned)r, (unsigned)kk) / 8,
			       src + ((size_t)r * (size_t)k + (size_t)kk) * eb, eb);
}

/* B2: the negation of B0 where the type has a sign, else a copy of B1. */
static void make_b2(tcp_type_t t, size_t n, const double *b0, const uint8_t *b1, uint8_t *enc)
{
	size_t eb = tcp_type_bytes(t);

	if (t == TCP_T_U8) {
		memcpy(enc, b1, n * eb);
		return;
	}
	for (size_t i = 0; i < n; i++)
		tcp_encode(t, -b0[i], enc + i * eb);
}

void tcp_wg_tiles_free(tcp_wg_tiles_t *t)
{
	free(t->image);
	free(t->afrag);
	free(t->A);
	free(t->B0);
	free(t->B1);
	memset(t, 0, sizeof(*t));
}

int tcp_wg_tiles_make(tcp_wg_tiles_t *t, int kind, int n, int nwg, uint64_t seed)
{
	return tcp_wg_tiles_make_pattern(t, kind, n, nwg, seed, TCP_PAT_RANDOM);
}

int tcp_wg_tiles_make_pattern(tcp_wg_tiles_t *t, int kind, int n, int nwg, uint64_t seed, int pat)
{
	const tcp_wg_kind_t *k;
	size_t ea, eb, na, nb;
	uint8_t *encA = NULL, *encB = NULL;
	tcp_rng_t r;
	long terms;

	memset(t, 0, sizeof(*t));
	if (kind < 0 || kind >= TCP_WGK_COUNT || n < 8 || n > 256 || n % 8 || nwg < 1 ||
	    nwg > TCP_WG_MAX_WG)
		return -1;
	k = &tcp_wg_kinds[kind];
	ea = tcp_type_bytes(k->a);
	eb = tcp_type_bytes(k->b);
	na = (size_t)nwg * 64 * (size_t)k->k;
	nb = (size_t)n * (size_t)k->k;
	t->kind = kind;
	t->n = n;
	t->nwg = nwg;
	{
		tcp_tile_t ta = tile_of(k->a, 64, k->k), tb = tile_of(k->b, n, k->k);
		uint32_t lb, sb;

		if (tcp_tile_check(&ta) || tcp_tile_check(&tb))
			return -1;
		tcp_tile_strides(&ta, &t->lbo, &t->sbo);
		tcp_tile_strides(&tb, &lb, &sb);
		if (lb != t->lbo || sb != t->sbo)	/* one lbo/sbo pair serves A and B */
			return -1;
	}
	t->a_off = 0;
	t->a_stride = 64 * TCP_WG_ROW_BYTES;
	t->b0_off = (uint32_t)nwg * t->a_stride;
	t->b1_off = t->b0_off + (uint32_t)n * TCP_WG_ROW_BYTES;
	t->b2_off = t->b1_off + (uint32_t)n * TCP_WG_ROW_BYTES;
	t->bytes = t->b2_off + (uint32_t)n * TCP_WG_ROW_BYTES;
	t->image = calloc(t->bytes, 1);
	t->afrag = calloc((size_t)nwg * 128 * 4, sizeof(uint32_t));
	t->A = malloc(na * sizeof(double));
	t->B0 = malloc(nb * sizeof(double));
	t->B1 = malloc(nb * sizeof(double));
	encA = malloc(na * ea);
	encB = malloc(3 * nb * eb);
	if (!t->image || !t->afrag || !t->A || !t->B0 || !t->B1 || !encA || !encB) {
		free(encA);
		free(encB);
		tcp_wg_tiles_free(t);
		return -1;
	}
	tcp_rng_seed(&r, seed);
	terms = (long)TCP_WG_VALIDATE_WGMMAS * k->k;
	if (tcp_fill_pattern(k->a, (tcp_pattern_t)pat, k->d, terms, na, &r, encA, t->A) ||
	    tcp_fill_pattern(k->b, (tcp_pattern_t)pat, k->d, terms, nb, &r, encB, t->B0) ||
	    tcp_fill_pattern(k->b, (tcp_pattern_t)pat, k->d, terms, nb, &r, encB + nb * eb, t->B1)) {
		free(encA);
		free(encB);
		tcp_wg_tiles_free(t);
		return -1;
	}
	make_b2(k->b, nb, t->B0, encB + nb * eb, encB + 2 * nb * eb);

	for (int w = 0; w < nwg; w++) {
		const uint8_t *a = encA + (size_t)w * 64 * TCP_WG_ROW_BYTES;

		place(t->image, t->a_off + (uint32_t)w * t->a_stride, a, k->a, 64, k->k);
		/* RS fragments: register j of thread (warp q, lane l) holds the 4 bytes
		 * of row 16q + l/4 + 8(j&1) at K-byte 16(j>>1) + 4(l%4), for every
		 * element width (the mma.sync m16n8k{8,16,32} A layout per warp). */
		for (int th = 0; th < 128; th++)
			for (int j = 0; j < 4; j++) {
				int row = 16 * (th / 32) + (th % 32) / 4 + 8 * (j & 1);
				int kb = 16 * (j >> 1) + 4 * (th % 4);
				memcpy(&t->afrag[((size_t)w * 128 + (size_t)th) * 4 + (size_t)j],
				       a + (size_t)row * TCP_WG_ROW_BYTES + (size_t)kb, 4);
			}
	}
	place(t->image, t->b0_off, encB, k->b, n, k->k);
	place(t->image, t->b1_off, encB + nb * eb, k->b, n, k->k);
	place(t->image, t->b2_off, encB + 2 * nb * eb, k->b, n, k->k);
	free(encA);
	free(encB);
	return 0;
}

void tcp_wg_acc_pos(int t, int i, int e, int f16_packed, int *row, int *col)
{
	int l = t % 32, ii = f16_packed ? 2 * i + e : i;

	*row = 16 * (t / 32) + l / 4 + 8 * ((ii >> 1) & 1);
	*col = 8 * (ii >> 2) + 2 * (l % 4) + (ii & 1);
}

int tcp_wg_check(const tcp_wg_tiles_t *t, int wg, long n0, long n1, const uint32_t *dump,
		 int ndumps, size_t stride, char *reason, size_t len)
{
	const tcp_wg_kind_t *k = &tcp_wg_kinds[t->kind];
	int n = t->n, R = tcp_wg_acc_regs(t->kind, n), packed = k->d == TCP_T_F16;
	size_t cells = (size_t)64 * (size_t)n;
	double *ref = calloc(cells, sizeof(double)), *mag = calloc(cells, sizeof(double));
	double *got = malloc(cells * sizeof(double)), tol = tcp_tolerance(k->a, k->b, k->d);
	const double *A = t->A + (size_t)wg * 64 * (size_t)k->k;
	long bad = -1;
	char why[200];

	if (!ref || !mag || !got) {
		free(ref);
		free(mag);
		free(got);
		snprintf(reason, len, "out of host memory");
		return -1;
	}
	tcp_ref_gemm(64, n, k->k, A, t->B0, (double)n0, ref, mag);
	tcp_ref_gemm(64, n, k->k, A, t->B1, (double)n1, ref, mag);
	for (int d = 0; d < ndumps && bad < 0; d++) {
		const uint32_t *dp = dump + (size_t)d * stride;

		for (size_t c = 0; c < cells; c++)
			got[c] = NAN;	/* an element no register maps to fails */
		for (int th = 0; th < 128; th++)
			for (int i = 0; i < R; i++)
				for (int e = 0; e < (packed ? 2 : 1); e++) {
					uint32_t w = dp[(size_t)th * (size_t)R + (size_t)i];
					uint16_t h = (uint16_t)(w >> (16 * e));
					int row, col;

					tcp_wg_acc_pos(th, i, e, packed, &row, &col);
					got[(size_t)row * (size_t)n + (size_t)col] =
						packed ? tcp_decode(TCP_T_F16, &h) : tcp_decode(k->d, &w);
				}
		bad = tcp_check(cells, n, got, ref, mag, tol, why, sizeof(why));
		if (bad >= 0)
			snprintf(reason, len, "dump %d: %s", d, why);
	}
	free(ref);
	free(mag);
	free(got);
	return bad < 0 ? 0 : -1;
}
