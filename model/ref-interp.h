/*
 * ref-interp.h
 *	Reference interpreter: what the tensor core reads and computes, written
 *	from the PTX ISA's definitions (canonical layouts of 9.7.15.5.1.2 /
 *	9.7.16.3-4, the swizzle modes, the element formats), never from the
 *	builder in smem-layout.h.  Host-only (uses libm), double precision.
 *
 *	It is the independent check on the builders (tests/test-model-interp.c)
 *	and, on the H200, is itself checked against real wgmma results
 *	(probes/sm90/probe-layout.cu).
 */
#ifndef TCP_MODEL_REF_INTERP_H
#define TCP_MODEL_REF_INTERP_H

#include <stddef.h>
#include <stdint.h>

#include "model/kinds.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * tcp_ref_decode()
 *	Value of one element given its raw bits (right-aligned).  f16, bf16,
 *	tf32 (a 32-bit container whose low 13 mantissa bits the tensor core
 *	ignores), e4m3 (no inf, S.1111.111 = NaN), e5m2 (IEEE-style), e2m3,
 *	e3m2, e2m1 (no inf/NaN), s8, u8, ue8m0 (2^(e-127), 0xFF = NaN), ue4m3
 *	(e4m3 without sign), f32, s32.
 */
double tcp_ref_decode(tcp_type_t t, uint32_t raw);

/* One operand as the descriptor describes it. */
typedef struct {
	uint64_t desc;		/* the 64-bit descriptor */
	int hopper;		/* 1: wgmma descriptor format, 0: sm_100 */
	unsigned major;		/* 0 K-major, 1 MN-major */
	unsigned bits;		/* element bits: 4, 6, 8, 16, 32 */
	unsigned padded;	/* 16 fp4/fp6 values per 16-byte chunk (f8f6f4 kinds) */
	unsigned rows;		/* M (A) or N (B) */
	unsigned k;		/* K of the MMA, in elements */
} tcp_ref_operand_t;

/*
 * tcp_ref_read()
 *	Read the rows x k logical operand (raw element bits, row-major:
 *	out[row * k + kk]) from a shared-memory image whose byte 0 is shared
 *	address `smem_base`.  0, or -1 with a reason (bad descriptor, an
 *	address outside the image, a combination the PTX text does not define).
 */
int tcp_ref_read(const tcp_ref_operand_t *op, const uint8_t *smem, uint32_t smem_base, size_t smem_len,
		 uint32_t *out, char *reason, size_t len);

/* One MMA: D[m][n] = sum_k sa*A[m][k] * sb*B[n][k] (+ D). */
typedef struct {
	tcp_kind_t kind;
	unsigned m, n, k;
	tcp_type_t a, b;
	unsigned neg_a, neg_b;
	unsigned sf_block;	/* block-scaled: 16 or 32 K elements per scale; 0 = none */
	tcp_type_t sf;		/* ue8m0 / ue4m3 */
} tcp_ref_mma_t;

/*
 * tcp_ref_mma()
 *	a: m x k raw codes, b: n x k raw codes, sfa: m x (k / sf_block),
 *	sfb: n x (k / sf_block) (NULL when not block-scaled); d: m x n, read
 *	when accumulate != 0.  Products and sums in double (exact for every
 *	kind at these sizes except where inputs are NaN/inf).
 */
void tcp_ref_mma(const tcp_ref_mma_t *c, const uint32_t *a, const uint32_t *b, const uint32_t *sfa,
		 const uint32_t *sfb, double *d, int accumulate);

#ifdef __cplusplus
}
#endif
#endif /* TCP_MODEL_REF_INTERP_H */
