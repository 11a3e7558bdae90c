/*
 * smem-layout.h
 *	Where element (row, k) of an A or B operand tile goes in shared memory,
 *	for every layout code, K- or MN-major, 4/6/8/16/32-bit elements, and the
 *	descriptor (start, LBO, SBO) that tells the tensor core about it.  The
 *	probes build their tiles with these functions; model/ref-interp.c reads
 *	tiles back independently from the PTX canonical-layout definitions.
 *
 *	Terms.  A chunk is 16 bytes (PTX's "128-bit element").  T = elements per
 *	chunk: 128 / bits, except the f8f6f4 padded forms where 16 fp4 or fp6
 *	values sit in the low 8 / 12 bytes of a chunk (.b4x16_p64, .b6x16_p32:
 *	facts s.3) so T = 16.  One MMA reads 32 bytes of K per row for every
 *	kind (f16 K16, tf32 K8, f8f6f4/i8 K32, mxf4 K64 packed), except
 *	sm_103a's K = 96 kind::mxf4nvf4 (packed fp4): 48 bytes, three chunks
 *	(a tile with mma_k = 96; see tcp_tile_desc).  "rows" is the M (A) or N
 *	(B) extent.
 *
 *	Placement this builder chooses (tile base aligned to tcp_tile_align()):
 *	  K-major, none:    core matrix = 8 rows x 1 chunk (128 B); K-adjacent
 *	                    core matrices adjacent (LBO = 128), 8-row groups
 *	                    SBO = 128 * K chunks apart.
 *	  K-major, W-byte swizzle (W = 32, 64, 128): atom = 8 rows x W bytes;
 *	                    8-row groups SBO = 8W apart, K atoms rows*W apart.
 *	  MN-major, none:   core matrix = 8 K x 1 chunk of MN; MN-adjacent core
 *	                    matrices adjacent (SBO = 128), 8-K groups LBO apart.
 *	  MN-major, swizzle: atom = 8 K x W bytes of MN (4 K for 128B with 32B
 *	                    atoms); MN atoms LBO = 8W (4W) apart, K groups
 *	                    SBO = LBO * MN atoms apart.
 *	and then the swizzle XOR on the tile-relative address (valid because the
 *	base is aligned to the pattern's period).
 */
#ifndef TCP_MODEL_SMEM_LAYOUT_H
#define TCP_MODEL_SMEM_LAYOUT_H

#include "model/sdesc.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TCP_CHUNK_BYTES		16
#define TCP_MMA_K_BYTES		32	/* bytes of K per row one MMA reads */
#define TCP_MMA_K96		96	/* sm_103a K = 96 mxf4nvf4: 96 packed fp4 = 48 bytes per row */
/* [?] fp4/fp6 padding sits after the 16 packed values (PTX .b4x16_p64/.b6x16_p32 naming). */
#define TCP_PAD_AFTER_DATA	1
/*
 * [?] "128B with 32B atoms" (sm_100 layout code 1) exists for MN-major only
 * (CUTLASS Layout_MN_SW128_32B_Atom, the one tf32 MN-major layout), and its
 * atom is 4 K-rows of 128 B (Swizzle<2,5,2> over 1024 bits x 4), not 8.
 */
#define TCP_SW128_32B_K_ROWS	4

typedef enum { TCP_MAJOR_K = 0, TCP_MAJOR_MN = 1 } tcp_major_t;

typedef struct {
	tcp_swizzle_t layout;
	unsigned major;		/* tcp_major_t */
	unsigned bits;		/* 4, 6, 8, 16, 32 */
	unsigned padded;	/* fp4/fp6 under (mx)f8f6f4: 16 values per chunk */
	unsigned rows;		/* M or N extent */
	unsigned k;		/* K extent in elements (a multiple of one MMA's K) */
	unsigned mma_k;		/* K of one MMA: 0 = 32 bytes per row (every kind's PTX K),
				 * TCP_MMA_K96 = sm_103a's K = 96 mxf4nvf4 (48 bytes) */
} tcp_tile_t;

/* Elements per 16-byte chunk. */
TCP_HD unsigned tcp_tile_t_elems(const tcp_tile_t *t)
{
	return t->padded ? 16 : 128 / t->bits;
}

/* Elements of K one MMA reads (32 bytes per row; padded: 32 values; K = 96: 96). */
TCP_HD unsigned tcp_tile_mma_k(const tcp_tile_t *t)
{
	return t->mma_k ? t->mma_k : 2 * tcp_tile_t_elems(t);
}

/* Bytes of K per row one MMA reads: 32, or 48 for K = 96. */
TCP_HD unsigned tcp_tile_mma_bytes(const tcp_tile_t *t)
{
	return tcp_tile_mma_k(t) / tcp_tile_t_elems(t) * TCP_CHUNK_BYTES;
}

/* K rows of one MN-major atom: 8, or 4 for 128B with 32B atoms. */
TCP_HD unsigned tcp_tile_k_rows(const tcp_tile_t *t)
{
	return t->layout == TCP_SW_128B_32B ? TCP_SW128_32B_K_ROWS : 8;
}

/* Rows of MN one layout atom spans (MN-major) or the row granularity (K-major: 8). */
TCP_HD unsigned tcp_tile_rows_unit(const tcp_tile_t *t)
{
	if (t->major == TCP_MAJOR_K)
		return 8;
	return tcp_tile_t_elems(t) * (t->layout == TCP_SW_NONE ? 1 : tcp_swizzle_bytes(t->layout) / 16);
}

/* K bytes of one row, padded up to whole atoms (K-major) */
TCP_HD unsigned tcp_tile_kbytes(const tcp_tile_t *t)
{
	unsigned kb = t->k / tcp_tile_t_elems(t) * TCP_CHUNK_BYTES;
	unsigned w = tcp_swizzle_bytes(t->layout);

	return t->layout == TCP_SW_NONE ? kb : (kb + w - 1) / w * w;
}

/*
 * tcp_tile_check()
 *	0 when the builder can place this tile: element width 4/6 only padded
 *	(or 4-bit packed) and K-major; MN-major needs 8/16/32-bit elements;
 *	rows a multiple of tcp_tile_rows_unit(); k a positive multiple of one
 *	MMA's K.  mma_k = 96 (sm_103a): packed fp4, K-major, no swizzle or 128B
 *	swizzle only.  -1 otherwise.
 *	K = 96 layouts: CUTLASS's SM103 kernels put A and B in 128B-swizzled
 *	K-major tiles (gemm/collective/builders/sm103_blockscaled_umma_builder.inl
 *	UMMA::Layout_K_SW128_Atom; the descriptor's absolute LBO mode exists
 *	"for the 48B K tile", tcp_tile_desc).  [?] No swizzle: the canonical
 *	interleaved layout with three core matrices along K, LBO apart; no
 *	production kernel uses it, a B300 run's validation decides.  32B / 64B
 *	swizzle and MN-major: not built (no kernel known to use them at K = 96).
 */
TCP_HD int tcp_tile_check(const tcp_tile_t *t)
{
	if (t->bits != 4 && t->bits != 6 && t->bits != 8 && t->bits != 16 && t->bits != 32)
		return -1;
	if (t->bits == 6 && !t->padded)
		return -1;
	if (t->padded && t->bits != 4 && t->bits != 6)
		return -1;
	if (t->major == TCP_MAJOR_MN && t->bits < 8)
		return -1;
	if (t->major > TCP_MAJOR_MN || !tcp_swizzle_valid((unsigned)t->layout))
		return -1;
	if (t->layout == TCP_SW_128B_32B && t->major != TCP_MAJOR_MN)
		return -1;
	if (t->mma_k && (t->mma_k != TCP_MMA_K96 || t->bits != 4 || t->padded || t->major != TCP_MAJOR_K ||
			 (t->layout != TCP_SW_NONE && t->layout != TCP_SW_128B)))
		return -1;
	if (!t->rows || t->rows % tcp_tile_rows_unit(t) || !t->k || t->k % tcp_tile_mma_k(t))
		return -1;
	return 0;
}

/* Alignment the tile base needs: the swizzle period (none: one core matrix). */
TCP_HD uint32_t tcp_tile_align(const tcp_tile_t *t)
{
	return tcp_swizzle_period(t->layout);
}

/* Bytes the tile occupies. */
TCP_HD uint32_t tcp_tile_bytes(const tcp_tile_t *t)
{
	unsigned te = tcp_tile_t_elems(t);

	if (t->major == TCP_MAJOR_K)
		return t->rows * tcp_tile_kbytes(t);
	return t->rows / te * TCP_CHUNK_BYTES * ((t->k + tcp_tile_k_rows(t) - 1) / tcp_tile_k_rows(t) *
						 tcp_tile_k_rows(t));
}

/* The swizzle XOR on a tile-relative byte address (tile base period-aligned). */
TCP_HD uint32_t tcp_swizzle_addr(tcp_swizzle_t s, uint32_t a)
{
	switch (s) {
	case TCP_SW_32B: return a ^ ((a >> 3) & 0x10u);		/* bit 7 -> bit 4 */
	case TCP_SW_64B: return a ^ ((a >> 3) & 0x30u);		/* bits 7-8 -> 4-5 */
	case TCP_SW_128B: return a ^ ((a >> 3) & 0x70u);	/* bits 7-9 -> 4-6 */
	case TCP_SW_128B_32B: return a ^ ((a >> 2) & 0x60u);	/* bits 7-8 -> 5-6: 32 B units */
	default: return a;
	}
}

/* Strides of the placement (bytes): LBO and SBO as the descriptor wants them. */
TCP_HD void tcp_tile_strides(const tcp_tile_t *t, uint32_t *lbo, uint32_t *sbo)
{
	unsigned w = tcp_swizzle_bytes(t->layout), te = tcp_tile_t_elems(t);

	if (t->major == TCP_MAJOR_K) {
		if (t->layout == TCP_SW_NONE) {
			*lbo = 128;
			*sbo = 128 * (tcp_tile_kbytes(t) / TCP_CHUNK_BYTES);
		} else {
			*lbo = TCP_CHUNK_BYTES;	/* unused by the hardware: "assumed 1" */
			*sbo = 8 * w;
		}
	} else if (t->layout == TCP_SW_NONE) {
		*sbo = 128;
		*lbo = 128 * (t->rows / te);
	} else {
		*lbo = tcp_tile_k_rows(t) * w;
		*sbo = tcp_tile_k_rows(t) * w * (t->rows / tcp_tile_rows_unit(t));
	}
}

/*
 * tcp_tile_place()
 *	Bit offset from the tile base of element (row, kk): the byte of its
 *	16-byte chunk after swizzling, times 8, plus its bit inside the chunk
 *	(values pack little-endian from bit 0 of the chunk).
 */
TCP_HD uint32_t tcp_tile_place(const tcp_tile_t *t, unsigned row, unsigned kk)
{
	unsigned te = tcp_tile_t_elems(t), w = tcp_swizzle_bytes(t->layout);
	uint32_t lbo, sbo, a, e;

	tcp_tile_strides(t, &lbo, &sbo);
	if (t->major == TCP_MAJOR_K) {
		unsigned kc = kk / te;		/* K chunk */

		e = kk % te;
		if (t->layout == TCP_SW_NONE)
			a = row / 8 * sbo + kc * lbo + row % 8 * 16;
		else
			a = kc * 16 / w * (t->rows * w) + row / 8 * sbo + row % 8 * w + kc * 16 % w;
	} else {
		unsigned mc = row / te, kr = tcp_tile_k_rows(t);	/* MN chunk, K rows per atom */

		e = row % te;
		if (t->layout == TCP_SW_NONE)
			a = mc * sbo + kk / 8 * lbo + kk % 8 * 16;
		else
			a = mc * 16 / w * lbo + kk / kr * sbo + kk % kr * w + mc * 16 % w;
	}
	return tcp_swizzle_addr(t->layout, a) * 8 + e * t->bits;
}

/*
 * tcp_tile_desc()
 *	The descriptor fields for MMA number `kstep` along K (kstep * mma_k
 *	elements in), tile at shared-memory byte address `base` (aligned).
 *	Advancing K inside a swizzle atom moves the start address (facts s.2).
 *	K = 96 with 128B swizzle (48 bytes per MMA: MMAs 2 and 5 of every 8
 *	run past their 128-byte swizzle row into the next K atom): LBO mode 1,
 *	LBO = the absolute address of the K atom holding the MMA's last byte,
 *	where the rest of the row continues from its chunk 0 (CUTLASS
 *	cute/atom/mma_traits_sm100.hpp SM103::mma_unpack sets lbo_mode_ = 1 and
 *	leading_byte_offset_ = the "next" buffer's start address;
 *	gemm/collective/sm103_blockscaled_mma_warpspecialized.hpp passes the
 *	MMA's own buffer as "next" except for MMAs 2 and 5, whose start is
 *	buffer + 96 / + 112; descriptor bit 52 "byte address absolute, only
 *	used for 48B K tile").  No swizzle: LBO stays the relative stride of
 *	the interleaved core matrices.
 */
TCP_HD void tcp_tile_desc(const tcp_tile_t *t, uint32_t base, unsigned kstep, tcp_sdesc_t *d)
{
	unsigned w = tcp_swizzle_bytes(t->layout), mb = tcp_tile_mma_bytes(t);
	uint32_t lbo, sbo, kb = kstep * mb;

	tcp_tile_strides(t, &lbo, &sbo);
	d->lbo = lbo;
	d->sbo = sbo;
	d->base_offset = 0;
	d->lbo_mode = 0;
	d->layout = t->layout;
	if (t->major == TCP_MAJOR_K) {
		if (t->layout == TCP_SW_NONE) {
			d->start = base + kb / 16 * lbo;
		} else {
			d->start = base + kb / w * (t->rows * w) + kb % w;
			if (t->mma_k) {
				d->lbo_mode = 1;
				d->lbo = base + (kb + mb - 1) / w * (t->rows * w);
			}
		}
	} else {
		unsigned k0 = kstep * tcp_tile_mma_k(t);	/* a multiple of 8 */

		if (t->layout == TCP_SW_NONE)
			d->start = base + k0 / 8 * lbo;
		else
			d->start = base + k0 / tcp_tile_k_rows(t) * sbo;
	}
}

/* Write / read a `bits`-wide value at bit offset `pos` of a byte buffer (little-endian). */
TCP_HD void tcp_bits_put(uint8_t *buf, uint32_t pos, unsigned bits, uint32_t v)
{
	for (unsigned i = 0; i < bits; i++) {
		uint32_t p = pos + i;
		uint8_t m = (uint8_t)(1u << (p & 7));

		buf[p >> 3] = (uint8_t)(((v >> i) & 1) ? (buf[p >> 3] | m) : (buf[p >> 3] & ~m));
	}
}

TCP_HD uint32_t tcp_bits_get(const uint8_t *buf, uint32_t pos, unsigned bits)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < bits; i++) {
		uint32_t p = pos + i;

		v |= (uint32_t)((buf[p >> 3] >> (p & 7)) & 1) << i;
	}
	return v;
}

#ifdef __cplusplus
}
#endif
#endif /* TCP_MODEL_SMEM_LAYOUT_H */
