/*
 * warp-check.h
 *	CPU side of the warp-level MMA family (plain C, unit-tested by
 *	tests/test-warp-check.c): one m16n8kK tile's operands for a form of
 *	model/warp-mma.h as the 32 lanes hold them in registers (A, three B
 *	tiles, the sparsity metadata word, the block-scale registers), the
 *	logical operands they stand for, the reference D = 2 A B0 + A B1 (the
 *	three-step validation launch: B0, B1, B0 from zero) with the block
 *	scales applied, and the check of a register dump against it.
 *
 *	Operands are built as byte images (A: 16 rows x 32 bytes, compressed
 *	for a sparse form; B: 8 columns x 32 or 64 bytes, K-major) and read
 *	back through the model's fragment functions; the reference decodes the
 *	logical images with model/ref-interp.h, so a wrong container (fp4 at
 *	bits 5:2 of a byte, fp6 at 5:0) or a wrong scale lane shows as a
 *	mismatch, not as a silently consistent pair.
 */
#ifndef TCP_WARP_CHECK_H
#define TCP_WARP_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "model/warp-mma.h"
#include "probes/common/fill.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
	TCP_WARP_KMAX = 128,		/* logical K of the largest form (sparse NVFP4) */
	TCP_WARP_LANES = 32,
	TCP_WARP_BTILES = 3		/* B0, B1, B2 = -B0 (the timing loop alternates B0 and B2) */
};

typedef struct {
	int form;			/* tcp_warp_form_id_t */
	int k;				/* PTX K */
	/* registers, as the kernel loads them */
	uint32_t afrag[TCP_WARP_LANES * 4];
	uint32_t bfrag[TCP_WARP_BTILES * TCP_WARP_LANES * 4];	/* [tile][lane][4] (2 used when dense) */
	uint32_t meta[TCP_WARP_LANES];	/* metadata word per lane (sparse; tcp_warp_meta_loc) */
	uint8_t meta_code[16][16];	/* [row][chunk] nibble it encodes (sparse forms) */
	uint32_t sfa[TCP_WARP_LANES], sfb[TCP_WARP_LANES];	/* block-scale registers */
	/* logical operands, scales applied: A'[m][k] = sa * A, B'[t][n][k] = sb * B */
	double a[16 * TCP_WARP_KMAX];
	double b[TCP_WARP_BTILES][8 * TCP_WARP_KMAX];
	double sa[16][8], sb[8][8];	/* scale value per row / column and K block (1 when unscaled) */
	uint8_t sa_code[16][8], sb_code[8][8];
} tcp_warp_data_t;

/*
 * tcp_warp_data_build()
 *	Operands of `form` from `seed` in input pattern `pat` (fill.h; fp6/fp4
 *	forms take zeros, ones, random and sparse50; block scales are random
 *	per row/column and K block whatever the pattern).  0, or -1 with a
 *	one-line reason.
 */
int tcp_warp_data_build(tcp_warp_data_t *d, int form, tcp_pattern_t pat, uint64_t seed, char *reason,
			size_t len);

/* The reference of the validation launch: ref = 2 A' B0' + A' B1', mag the |.| sums. */
void tcp_warp_reference(const tcp_warp_data_t *d, double ref[16 * 8], double mag[16 * 8]);

/* Relative tolerance of the form (integers 0; fp8/fp6/fp4 2^-4; + 1e-2 into f16). */
double tcp_warp_tolerance(int form);

/*
 * tcp_warp_dump_decode()
 *	One tile's accumulator registers as a kernel dumps them ([lane][4]
 *	32-bit words: f32 bits, s32, or two f16 in words 0-1) -> D[16][8].
 */
void tcp_warp_dump_decode(int form, const uint32_t *dump, double got[16 * 8]);

/*
 * tcp_warp_check_dump()
 *	Decode one tile's dump and compare it with ref/mag: 0 when every element
 *	is within tolerance, else -1 with "C[r][c] = got, expected ref (...)".
 */
int tcp_warp_check_dump(int form, const uint32_t *dump, const double *ref, const double *mag, char *reason,
			size_t len);

/* Write the dump a correct device would produce from ref (tests). */
void tcp_warp_dump_encode(int form, const double ref[16 * 8], uint32_t *dump);

#ifdef __cplusplus
}
#endif
#endif /* TCP_WARP_CHECK_H */
