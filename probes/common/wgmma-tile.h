/*
 * wgmma-tile.h
 *	Host side of the Hopper wgmma probes (plain C11): the wgmma kinds as
 *	data, the shared-memory image of one A/B tile set (K-major core
 *	matrices, placed by model/smem-layout rules), the A register fragments
 *	of the RS form, and the check of a warpgroup's accumulator dump against
 *	the CPU reference.  Device code (kernels, inline PTX) is in wgmma.cuh.
 *
 *	Every probe tile is one m64nNk<K> step: A is 64 x K per warpgroup, B is
 *	N x K.  Three B tiles: B0 and B1 independent random (validation
 *	alternates them, so a result that mixed them up fails), and B2 = -B0
 *	where the type has a sign (else B1): the timed loop alternates B0 and
 *	B2 so that accumulators (f16 ones too) stay bounded, never at zero.
 */
#ifndef TCP_WGMMA_TILE_H
#define TCP_WGMMA_TILE_H

#include <stddef.h>
#include <stdint.h>

#include "model/kinds.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The wgmma kinds: id, A type, B type, D type, PTX K, PTX type suffix,
 * immediates after scale-d for the SS form and for the RS form
 * (imm-scale-a, imm-scale-b[, imm-trans-a], imm-trans-b for f16/bf16;
 * scales only for tf32/fp8; nothing for integers).
 */
#define TCP_WG_KINDS(X) \
	X(F16_F32,       F16,  F16,  F32, 16, ".f32.f16.f16",   ", 1, 1, 0, 0", ", 1, 1, 0") \
	X(F16_F16,       F16,  F16,  F16, 16, ".f16.f16.f16",   ", 1, 1, 0, 0", ", 1, 1, 0") \
	X(BF16_F32,      BF16, BF16, F32, 16, ".f32.bf16.bf16", ", 1, 1, 0, 0", ", 1, 1, 0") \
	X(TF32_F32,      TF32, TF32, F32,  8, ".f32.tf32.tf32", ", 1, 1", ", 1, 1") \
	X(E4M3_E4M3_F32, E4M3, E4M3, F32, 32, ".f32.e4m3.e4m3", ", 1, 1", ", 1, 1") \
	X(E4M3_E5M2_F32, E4M3, E5M2, F32, 32, ".f32.e4m3.e5m2", ", 1, 1", ", 1, 1") \
	X(E5M2_E4M3_F32, E5M2, E4M3, F32, 32, ".f32.e5m2.e4m3", ", 1, 1", ", 1, 1") \
	X(E5M2_E5M2_F32, E5M2, E5M2, F32, 32, ".f32.e5m2.e5m2", ", 1, 1", ", 1, 1") \
	X(E4M3_E4M3_F16, E4M3, E4M3, F16, 32, ".f16.e4m3.e4m3", ", 1, 1", ", 1, 1") \
	X(E4M3_E5M2_F16, E4M3, E5M2, F16, 32, ".f16.e4m3.e5m2", ", 1, 1", ", 1, 1") \
	X(E5M2_E4M3_F16, E5M2, E4M3, F16, 32, ".f16.e5m2.e4m3", ", 1, 1", ", 1, 1") \
	X(E5M2_E5M2_F16, E5M2, E5M2, F16, 32, ".f16.e5m2.e5m2", ", 1, 1", ", 1, 1") \
	X(S8_S8_S32,     S8,   S8,   S32, 32, ".s32.s8.s8",     "", "") \
	X(S8_U8_S32,     S8,   U8,   S32, 32, ".s32.s8.u8",     "", "") \
	X(U8_S8_S32,     U8,   S8,   S32, 32, ".s32.u8.s8",     "", "") \
	X(U8_U8_S32,     U8,   U8,   S32, 32, ".s32.u8.u8",     "", "")

#define TCP_WG_KIND_ENUM(id, a, b, d, k, ty, ss, rs) TCP_WGK_##id,
enum { TCP_WG_KINDS(TCP_WG_KIND_ENUM) TCP_WGK_COUNT };

typedef struct {
	tcp_type_t a, b, d;
	int k;			/* PTX K: 16 f16/bf16, 8 tf32, 32 fp8/int8 */
	tcp_kind_t family;	/* model kind: f16, tf32, f8f6f4, i8 (peak rate) */
} tcp_wg_kind_t;

extern const tcp_wg_kind_t tcp_wg_kinds[TCP_WGK_COUNT];

/* The kind id of (a, b, d), or -1 when wgmma has no such form. */
int tcp_wg_kind_find(tcp_type_t a, tcp_type_t b, tcp_type_t d);

/* Accumulator registers per thread for m64nN: N/2 (32-bit D), N/4 (f16 D, packed pairs). */
int tcp_wg_acc_regs(int kind, int n);

/* Bytes of one K-row of a tile: always 32 (16 x 2, 8 x 4, 32 x 1). */
#define TCP_WG_ROW_BYTES	32
#define TCP_WG_MAX_WG		3	/* warpgroups per CTA */

/*
 * A tile set in one shared-memory image (byte offsets into the image), the
 * descriptor strides every tile uses, and the decoded values the reference
 * needs.  afrag holds, per warpgroup and thread, the 4 A registers of the
 * RS form (the same A the SS form reads from the image).
 */
typedef struct {
	int kind, n, nwg;
	uint32_t a_off, a_stride, b0_off, b1_off, b2_off, bytes;
	uint32_t lbo, sbo;		/* descriptor LBO / SBO, bytes */
	uint8_t *image;			/* bytes */
	uint32_t *afrag;		/* nwg * 128 * 4 words */
	double *A;			/* nwg x 64 x K, decoded */
	double *B0, *B1;		/* N x K each (B2 is not needed by any check) */
} tcp_wg_tiles_t;

/* Fresh random tiles from `seed`.  0, or -1 (out of memory, bad kind / n / nwg). */
int tcp_wg_tiles_make(tcp_wg_tiles_t *t, int kind, int n, int nwg, uint64_t seed);
/* The same in input pattern `pat` (fill.h: tcp_pattern_t; A, B0 and B1 all in it,
 * B2 = -B0 as always); maxfinite sizes M for TCP_WG_VALIDATE_WGMMAS x K products. */
#define TCP_WG_VALIDATE_WGMMAS	4
int tcp_wg_tiles_make_pattern(tcp_wg_tiles_t *t, int kind, int n, int nwg, uint64_t seed, int pat);
void tcp_wg_tiles_free(tcp_wg_tiles_t *t);

/*
 * tcp_wg_check()
 *	dump: the raw accumulator registers of warpgroup `wg` (128 threads x
 *	tcp_wg_acc_regs() words, thread-major) after n0 wgmmas with B0 and n1
 *	with B1 that started from zero; `ndumps` such dumps
 *	(one per CTA) lie `stride` words apart.  Decodes the fragment layout
 *	and compares each with the reference (computed once) under the kind's
 *	tolerance.  0, or -1 with "dump i: C[r][c] = ..., expected ..." in reason.
 */
int tcp_wg_check(const tcp_wg_tiles_t *t, int wg, long n0, long n1, const uint32_t *dump,
		 int ndumps, size_t stride, char *reason, size_t len);

/* Row and column of element e (0 or 1 of a packed f16 pair: always 0 for 32-bit D)
 * of accumulator register i of thread t (0..127): the m64nN D fragment layout. */
void tcp_wg_acc_pos(int t, int i, int e, int f16_packed, int *row, int *col);

#ifdef __cplusplus
}
#endif
#endif /* TCP_WGMMA_TILE_H */
