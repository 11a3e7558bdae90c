/*
 * tmem-plan.h
 *	TMEM budget planner: how many of the 512 columns a tile configuration
 *	needs (accumulator stages, A operand, block-scale factors, sparsity
 *	metadata), whether it fits and how many CTAs of it can hold TMEM at once.
 *
 *	Rules (PTX tcgen05.alloc; seed text): 128 lanes x 512 columns of 32 bits
 *	per SM; tcgen05.alloc takes a power of two in [32, 512] columns; one
 *	allocation per CTA holds every part (as CUTLASS does).  Each part is
 *	rounded to the 32-column unit, the sum to the next power of two.
 */
#ifndef TCP_MODEL_TMEM_PLAN_H
#define TCP_MODEL_TMEM_PLAN_H

#include <stddef.h>

#include "model/kinds.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * [?] Assumptions a Blackwell run should confirm:
 *  - an f16 accumulator element takes a whole 32-bit column (not packed);
 *  - scale factors sit in the tcgen05.cp 32x128b.warpx4 form: 32 rows per
 *    4-lane-quarter replica, so `rows` rows of S scale bytes each take
 *    rows/32 * ceil(S / 4) columns;
 *  - 2:4 sparsity metadata takes 1 bit per logical K element per row of A
 *    (two 2-bit indices per group of four), rows mapped to lanes.
 */
#define TCP_PLAN_F16_ACC_COLS_PER_ELEM	1
#define TCP_PLAN_SF_ROWS_PER_REPLICA	32
#define TCP_PLAN_META_BITS_PER_K	1

typedef struct {
	unsigned m, n;		/* MMA tile (M is the pair's M for cta_group::2) */
	int cta_group;		/* 1 or 2 */
	tcp_type_t acc;		/* f32, s32, f16 */
	unsigned stages;	/* accumulator buffers (1 = no overlap with the epilogue) */
	unsigned a_tmem;	/* A operand held in TMEM */
	tcp_type_t a_type;	/* its element type */
	unsigned a_k;		/* K elements of A held per buffer */
	unsigned a_stages;	/* A buffers */
	unsigned sf_block;	/* 0 no block scaling; 16 or 32 K elements per scale factor */
	unsigned sf_k;		/* K elements whose scale factors are held per buffer */
	unsigned sf_stages;
	unsigned sparse;	/* sparsity metadata for A */
	unsigned meta_k;	/* logical K elements whose metadata is held per buffer */
} tcp_tmem_req_t;

#define TCP_PLAN_MAX_PARTS 5

typedef struct {
	const char *name;	/* "accumulator", "A operand", "scale A", "scale B", "sparsity metadata" */
	unsigned cols;		/* columns needed (all buffers) */
	unsigned cols_rounded;	/* rounded to the 32-column unit */
} tcp_tmem_part_t;

typedef struct {
	tcp_tmem_part_t part[TCP_PLAN_MAX_PARTS];
	int nparts;
	unsigned total;		/* sum of rounded parts */
	unsigned alloc;		/* power-of-two allocation, 0 if > 512 */
	int fits;		/* total <= 512 */
	int ctas;		/* CTAs whose allocations fit in TMEM together (0 if it does not fit) */
} tcp_tmem_plan_t;

/* Fill a request with defaults: 1 stage, f32, cta_group::1, nothing else in TMEM. */
void tcp_tmem_req_default(tcp_tmem_req_t *r, unsigned m, unsigned n);

/*
 * tcp_tmem_plan()
 *	0 and the plan, or -1 with a one-line reason for an impossible request
 *	(M not 64/128/256 for the cta_group, N not 8..256, 0 stages ...).
 */
int tcp_tmem_plan(const tcp_tmem_req_t *r, tcp_tmem_plan_t *p, char *reason, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* TCP_MODEL_TMEM_PLAN_H */
