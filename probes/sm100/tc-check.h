/*
 * tc-check.h
 *	CPU side of the tcgen05 MMA probes (plain C interface, unit-tested by
 *	tests/test-tc-check.c): builds one MMA's operands as shared-memory
 *	images through the model's tile builder (model/smem-layout.h), computes
 *	the reference D = (sa A) x (sb B) with the model's independent reader
 *	and interpreter (model/ref-interp.h) from those same bytes, and checks a
 *	TMEM dump of the accumulator against it through the model's accumulator
 *	layout (model/tmem.h tcp_acc_map).
 *
 *	Operand placement for cta_group::2 (PTX "CTA pair"; facts s.7/s.8):
 *	CTA r of the pair holds rows [r M/2, (r+1) M/2) of A and rows
 *	[r N/2, (r+1) N/2) of B, both at the same shared-memory offset, and the
 *	descriptors the issuing (even) CTA passes describe its own half.
 */
#ifndef TCP_TC_CHECK_H
#define TCP_TC_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "model/legal.h"
#include "model/smem-layout.h"
#include "model/tmem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fill patterns. */
enum {
	TCP_TC_FILL_RANDOM = 0,	/* fresh random finite codes from the seed */
	TCP_TC_FILL_UNIQUE = 1,	/* D[m][n] = (m + 1) + 256 (n + 1): every cell distinct (f16/bf16/tf32 only) */
	TCP_TC_FILL_PATTERN = 16	/* + a tcp_pattern_t (probes/common/fill.h): tc_mma_tput's pattern axis */
};

#define TCP_TC_SMEM_BASE 0x400u	/* shared address the host-side images pretend to start at */

typedef struct {
	tcp_mma_cfg_t cfg;
	unsigned ctas;			/* 1, or 2 for cta_group::2 */
	unsigned k;			/* PTX K of the kind */
	tcp_tile_t ta, tb;		/* per-CTA tiles (rows = M / ctas, N / ctas) */
	uint32_t a_off, b_off;		/* offsets of the tiles in the per-CTA image */
	uint32_t img_bytes;		/* bytes of one CTA's image */
	uint8_t *img[2];		/* per-CTA shared-memory images */
	uint32_t *a_raw, *b_raw;	/* logical operands, raw codes: M x K, N x K */
	uint32_t sfa_code, sfb_code;	/* block-scaled: one scale code per operand (0 if none) */
	double sa, sb;			/* their values (1 if none) */
	double *ref;			/* M x N reference */
	double *mag;			/* M x N: sum_k |sa a sb b|, for the tolerance */
	double rel_tol;			/* |got - ref| <= rel_tol * mag (+ 1e-30) */
} tcp_tc_mma_data_t;

/*
 * tcp_tc_mma_data_build()
 *	Operands for one MMA of `cfg` (must be legal): tiles K-major with
 *	`layout`, random or unique-valued codes from `seed`, uniform random
 *	block scales, the reference.  Also re-reads both operands from the
 *	images with the model's independent reader and fails (-1, reason) when
 *	they disagree with the codes placed: a model bug, not a device one.
 *	0 on success.
 */
int tcp_tc_mma_data_build(tcp_tc_mma_data_t *d, const tcp_mma_cfg_t *cfg, tcp_swizzle_t layout,
			  uint64_t seed, int fill, char *reason, size_t len);
void tcp_tc_mma_data_free(tcp_tc_mma_data_t *d);

/* Descriptor of a tile at shared address `base` (host check of the device's). */
uint64_t tcp_tc_tile_desc(const tcp_tile_t *t, uint32_t base);

/* Per-kind relative tolerance (i8: exact). */
double tcp_tc_rel_tol(const tcp_mma_cfg_t *cfg);

/*
 * tcp_tc_check_tmem()
 *	`tmem` is the accumulator as the device dumped it: for each CTA c,
 *	128 lanes x `cols` 32-bit cells (tmem[(c * 128 + lane) * cols + col],
 *	columns relative to the accumulator's address), f32 bits or s32.
 *	Every D[m][n] is looked up through tcp_acc_map() and compared with the
 *	reference.  Returns the number of bad cells (0 = OK) and a one-line
 *	reason naming the first few; -1 when the layout is unknown.
 */
long tcp_tc_check_tmem(const tcp_tc_mma_data_t *d, const uint32_t *tmem, unsigned cols,
		       unsigned lane_align, char *reason, size_t len);

/* Write the reference into a TMEM dump as a correct device would (tests, and
 * the masked-lane check's expectation). */
int tcp_tc_fill_tmem(const tcp_tc_mma_data_t *d, uint32_t *tmem, unsigned cols, unsigned lane_align);

/*
 * tcp_tc_fit_ii()
 *	Least squares II(D) = a + b / D over n (depth, cycles per MMA) points,
 *	and the saturating depth: the D where II(D) comes within 5% of a
 *	(b / (0.05 a), at least 1).  0, or -1 with fewer than 2 usable points
 *	or a non-positive asymptote (outputs NaN).
 */
int tcp_tc_fit_ii(const double *depth, const double *ii, int n, double *a, double *b, double *dsat);

/* FLOP of one MMA: 2 M N K with the PTX K of the kind (fp4 under f8f6f4: 32). */
double tcp_tc_mma_flop(const tcp_mma_cfg_t *cfg);

#ifdef __cplusplus
}
#endif
#endif /* TCP_TC_CHECK_H */
