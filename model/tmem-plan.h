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
#include "model/tmem.h"

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
/* Scale-factor regions start on a multiple of 4 columns: the width of the
 * tcgen05.cp 32x128b.warpx4 that stages them (128 bits of a lane), and where
 * production kernels put them (DeepGEMM sm100_fp8_fp4_gemm_1d1d.cuh: SFA
 * after the accumulator columns, SFB after SFA's BLOCK_M / 32 = 4 columns). */
#define TCP_PLAN_SF_COL_ALIGN		4
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

/* ---- the TMEM footprint of one probe point --------------------------------
 *
 * Which columns (and lanes) of one CTA's allocation a point touches, as named
 * regions: accumulator stages, A operand, scale factors, ld/st spans.  Built
 * on the host from the point's axes (the probe's `tmem` hook, probe.h), checked
 * by the planner (a point that fails is SKIPPED with the reason, never
 * launched), printed by `tcprobe run --dry-run --verbose` (`tmem=` field), and
 * handed to the kernel: the device takes its column offsets from the same
 * struct.  The TCP_HD part builds it (host and device); check and format are
 * host-only (tmem-plan.c).
 */
#define TCP_FP_MAX_REGIONS	12
#define TCP_FP_NAME_LEN		8	/* "acc7", "sfb", "ld0" + NUL */

typedef struct {
	char name[TCP_FP_NAME_LEN];
	unsigned c0, c1;	/* columns [c0, c1) from the allocation's first column */
	unsigned l0, l1;	/* lanes [l0, l1) */
} tcp_tmem_region_t;

typedef struct {
	unsigned alloc;		/* columns the kernel allocates (tcgen05.alloc nCols) */
	int n;
	int overflow;		/* an add found the region table full */
	tcp_tmem_region_t r[TCP_FP_MAX_REGIONS];
} tcp_tmem_fp_t;

TCP_HD void tcp_tmem_fp_init(tcp_tmem_fp_t *fp)
{
	fp->alloc = 0;
	fp->n = 0;
	fp->overflow = 0;
}

/* Add region `name` at columns [c0, c0 + ncols), lanes [l0, l0 + nlanes).
 * Returns c0 (so a caller can place and keep the offset in one line). */
TCP_HD unsigned tcp_tmem_fp_add(tcp_tmem_fp_t *fp, const char *name, unsigned c0, unsigned ncols,
				unsigned l0, unsigned nlanes)
{
	tcp_tmem_region_t *r;
	int i;

	if (fp->n >= TCP_FP_MAX_REGIONS) {
		fp->overflow = 1;
		return c0;
	}
	r = &fp->r[fp->n++];
	for (i = 0; i < TCP_FP_NAME_LEN - 1 && name[i]; i++)
		r->name[i] = name[i];
	r->name[i] = '\0';
	r->c0 = c0;
	r->c1 = c0 + ncols;
	r->l0 = l0;
	r->l1 = l0 + nlanes;
	return c0;
}

/* First column after every region so far. */
TCP_HD unsigned tcp_tmem_fp_end(const tcp_tmem_fp_t *fp)
{
	unsigned e = 0;
	int i;

	for (i = 0; i < fp->n; i++)
		if (fp->r[i].c1 > e)
			e = fp->r[i].c1;
	return e;
}

/* Add a full-lane region of `ncols` columns right after the others; its c0. */
TCP_HD unsigned tcp_tmem_fp_append(tcp_tmem_fp_t *fp, const char *name, unsigned ncols)
{
	return tcp_tmem_fp_add(fp, name, tcp_tmem_fp_end(fp), ncols, 0, TCP_TMEM_LANES);
}

/* The same, the region starting at the next multiple of `align` columns. */
TCP_HD unsigned tcp_tmem_fp_append_aligned(tcp_tmem_fp_t *fp, const char *name, unsigned ncols, unsigned align)
{
	unsigned c0 = tcp_tmem_fp_end(fp);

	c0 = align > 1 ? (c0 + align - 1) / align * align : c0;
	return tcp_tmem_fp_add(fp, name, c0, ncols, 0, TCP_TMEM_LANES);
}

/* The allocation that covers every region: the next power of two >= 32, or
 * 512 when they need more (the check then names the region that leaves it). */
TCP_HD unsigned tcp_tmem_fp_alloc_fit(tcp_tmem_fp_t *fp)
{
	unsigned a = tcp_tmem_alloc_cols(tcp_tmem_fp_end(fp));

	fp->alloc = a ? a : TCP_TMEM_COLS;
	return fp->alloc;
}

/* Column offset of region `name`, or `dflt` when absent (device code keeps
 * its offsets in arguments; this is for the host and the tests). */
TCP_HD unsigned tcp_tmem_fp_col(const tcp_tmem_fp_t *fp, const char *name, unsigned dflt)
{
	int i, j;

	for (i = 0; i < fp->n; i++) {
		for (j = 0; j < TCP_FP_NAME_LEN && name[j] == fp->r[i].name[j]; j++)
			if (!name[j])
				return fp->r[i].c0;
	}
	return dflt;
}

/*
 * tcp_tmem_fp_check()
 *	0 when the footprint is sound; -1 with a one-line reason when the
 *	allocation is not a power of two in [32, 512], a region is empty or
 *	leaves the allocation (columns) or the 128 lanes, or two regions overlap
 *	(in columns and lanes both), or the region table overflowed.
 */
int tcp_tmem_fp_check(const tcp_tmem_fp_t *fp, char *reason, size_t len);

/* "alloc=512 acc0=0-255 acc1=256-511 sfa=..." (column ranges inclusive; a
 * region on fewer than all 128 lanes adds "/L<l0>-<l1-1>").  Returns buf. */
const char *tcp_tmem_fp_format(const tcp_tmem_fp_t *fp, char *buf, size_t len);

/*
 * The MMA engine's footprint (probes/sm100/tc-mma.cuh), one CTA's view:
 *	acc0, acc1             accumulator stages, tcp_acc_cols() columns each
 *	a                      A operand (ab = ts): one MMA's K of each of the
 *	                       CTA's 128 rows, 32-bit columns (fp4/fp6 under
 *	                       f8f6f4/mxf8f6f4 in 8-bit containers: facts s.3)
 *	sfa, sfb               block-scale factors of A and B: one column per 32
 *	                       rows (facts s.3; CUTLASS tmem_sf_frg, DeepGEMM
 *	                       kNumSFBTmemCols = BLOCK_N / 32; B of cta_group::2
 *	                       M=128: N/64, tcp_tmem_sf_cell); K = 96 block16
 *	                       (6 per row, two words): one word stride more
 *	                       (tcp_tmem_sf_word_stride)
 * Only the regions the point needs, packed from column 0, except stage s of
 * the accumulator, which starts at column s x TCP_TMEM_STAGE_STRIDE (a
 * compile-time offset for the issuing thread: its MMAs then need no address
 * arithmetic, tc-mma.cuh); the allocation is the next power of two.  Two
 * stages fit when N (cta_group::2 M=128: N/2) plus A and the scale factors
 * take at most 256 columns.
 */
#define TCP_TMEM_STAGE_STRIDE	256
typedef struct {
	int cta_group;
	unsigned m, n;		/* instruction M (the pair's) and N */
	unsigned stages;	/* accumulator stages */
	unsigned a_tmem;	/* ab = ts */
	unsigned a_cols;	/* columns of A per row (ab = ts), tcp_mma_a_tmem_cols() */
	unsigned block_scaled;
	unsigned sf_words;	/* 32-bit words of scale factors per row per MMA (0 = 1; K = 96 block16: 2) */
} tcp_tmem_mma_req_t;

/* Scale-factor columns of `rows` rows of one operand (one per 32 rows). */
TCP_HD unsigned tcp_tmem_sf_cols(unsigned rows)
{
	return (rows + TCP_PLAN_SF_ROWS_PER_REPLICA - 1) / TCP_PLAN_SF_ROWS_PER_REPLICA;
}

/*
 * Block-scale factors in TMEM (block-scaled kinds; facts s.3).  One 32-bit
 * word per row of an operand holds that row's scale factors for the K
 * blocks of one MMA: byte j = block j (scale-factor id 0 in the idesc).
 *   4x1 data path (every block-scaled shape but B of cta_group::2 M=128):
 *	row r of the CTA's rows at column r / 32, lane r % 32 of each of the 4
 *	lane quarters (CUTLASS mma_traits_sm100_frag.hpp tmem_sf_frg,
 *	ScaleFactorDuplicated4by1; DeepGEMM sm100_fp8_fp4_gemm_1d1d.cuh copies
 *	128 rows into 4 columns with tcgen05.cp 32x128b.warpx4).
 *   2x2 data path (B of cta_group::2 M=128, tmem_sf_frg
 *	ScaleFactorDuplicated2by2): row n of half h = n / (N/2) at column
 *	(n % (N/2)) / 32, lane (n % (N/2)) % 32 + 64 h, twice (+ 32).
 * A CTA holds its own rows of A (M / cta_group) and every row of B (N).
 */
TCP_HD int tcp_tmem_sf_2x2(int cta_group, unsigned m, int is_b)
{
	return cta_group == 2 && m == 128 && is_b;
}

/* Rows of the operand whose scale factors one CTA holds. */
TCP_HD unsigned tcp_tmem_sf_rows(int cta_group, unsigned m, unsigned n, int is_b)
{
	return is_b ? n : m / (cta_group == 2 ? 2u : 1u);
}

/* Copies of each word (lane quarters it is replicated into). */
TCP_HD unsigned tcp_tmem_sf_replicas(int cta_group, unsigned m, int is_b)
{
	return tcp_tmem_sf_2x2(cta_group, m, is_b) ? 2u : 4u;
}

/* Columns of one operand's scale-factor region. */
TCP_HD unsigned tcp_tmem_sf_region_cols(int cta_group, unsigned m, unsigned n, int is_b)
{
	if (tcp_tmem_sf_2x2(cta_group, m, is_b))
		return tcp_tmem_sf_cols(n / 2);
	return tcp_tmem_sf_cols(tcp_tmem_sf_rows(cta_group, m, n, is_b));
}

/*
 * Scale factors of one MMA beyond 4 per row (sm_103a K = 96 .block16: 6):
 * word w of a row (its factors 4w .. 4w + 3, scale-factor id 4w + j)
 * sits tcp_tmem_sf_word_stride() columns after word w - 1, the same lane:
 * the 32-row groups of one word side by side, then the next word
 * (CUTLASS mma_traits_sm100_frag.hpp tmem_sf_frg: a scale-factor index
 * past the 4 of a column moves by the atom's column count, the number of
 * 32-row groups; sm103_blockscaled_mma_warpspecialized.hpp walks one MMA's
 * 6 or 3 factors with that layout, MmaIterShapeSFA/SFB).  The groups are
 * those CUTLASS allocates: A's rows of the CTA (M / cta_group), B's N
 * rounded up to 128 (CTA_N_SF = round_up(N, 128); at N = 192 the odd tile
 * shifts the SFB address by 2 columns inside a 256-row layout, so the MMA
 * itself reads word 1 8 columns on).  [?] Confirmed by production code
 * only for 128 rows of A per CTA and N = 128, 192, 256 (4x1); N = 64 and
 * the 2x2 path of cta_group::2 M = 128 (no SM103 kernel) follow the same
 * rule unverified: a B300 run's validation decides.
 */
TCP_HD unsigned tcp_tmem_sf_words(unsigned nsf)
{
	return nsf > 4 ? (nsf + 3) / 4 : 1u;
}

TCP_HD unsigned tcp_tmem_sf_word_stride(int cta_group, unsigned m, unsigned n, int is_b)
{
	unsigned n128 = (n + 127) / 128 * 128;

	if (!is_b)
		return tcp_tmem_sf_cols(tcp_tmem_sf_rows(cta_group, m, n, 0));
	return tcp_tmem_sf_2x2(cta_group, m, is_b) ? n128 / 64 : n128 / 32;
}

/* Columns of one operand's region for `words` words per row: the last
 * word's columns after the earlier words' strides (words <= 1: as above). */
TCP_HD unsigned tcp_tmem_sf_words_cols(int cta_group, unsigned m, unsigned n, int is_b, unsigned words)
{
	unsigned c = tcp_tmem_sf_region_cols(cta_group, m, n, is_b);

	return words > 1 ? (words - 1) * tcp_tmem_sf_word_stride(cta_group, m, n, is_b) + c : c;
}

/* Replica `rep` of the word of row `row` (of the CTA's rows): lane and column
 * from the region's first column.  0, or -1 for a row or replica out of range. */
TCP_HD int tcp_tmem_sf_cell(int cta_group, unsigned m, unsigned n, int is_b, unsigned row, unsigned rep,
			    unsigned *lane, unsigned *col)
{
	if (row >= tcp_tmem_sf_rows(cta_group, m, n, is_b) || rep >= tcp_tmem_sf_replicas(cta_group, m, is_b))
		return -1;
	if (tcp_tmem_sf_2x2(cta_group, m, is_b)) {
		unsigned h = n / 2, r = row % h;

		*col = r / 32;
		*lane = r % 32 + (row >= h ? 64u : 0u) + 32u * rep;
	} else {
		*col = row / 32;
		*lane = row % 32 + 32u * rep;
	}
	return 0;
}

/* Builds the footprint; the column offsets it placed in *acc (first stage),
 * *a, *sfa, *sfb (0 for regions the point does not have). */
TCP_HD void tcp_tmem_mma_fp(const tcp_tmem_mma_req_t *q, tcp_tmem_fp_t *fp, unsigned *acc, unsigned *a,
			    unsigned *sfa, unsigned *sfb)
{
	char name[5] = { 'a', 'c', 'c', '0', '\0' };
	tcp_acc_cfg_t ac = { q->cta_group, q->m, q->n, 0, 0, 0 };
	unsigned cols = tcp_acc_cols(&ac), s;

	tcp_tmem_fp_init(fp);
	*acc = *a = *sfa = *sfb = 0;
	*acc = tcp_tmem_fp_append(fp, "acc0", cols);
	if (q->a_tmem)
		*a = tcp_tmem_fp_append(fp, "a", q->a_cols);
	if (q->block_scaled) {
		/* cta_group::2: each CTA holds its own rows of A's scales and all
		 * N of B's (facts s.3; tcp_tmem_sf_cell).  Each region starts on a
		 * multiple of TCP_PLAN_SF_COL_ALIGN columns, as production kernels
		 * place them. */
		*sfa = tcp_tmem_fp_append_aligned(fp, "sfa", tcp_tmem_sf_words_cols(q->cta_group, q->m, q->n, 0, q->sf_words),
						  TCP_PLAN_SF_COL_ALIGN);
		*sfb = tcp_tmem_fp_append_aligned(fp, "sfb", tcp_tmem_sf_words_cols(q->cta_group, q->m, q->n, 1, q->sf_words),
						  TCP_PLAN_SF_COL_ALIGN);
	}
	for (s = 1; s < q->stages && s < 10; s++) {
		name[3] = (char)('0' + s);
		tcp_tmem_fp_add(fp, name, s * TCP_TMEM_STAGE_STRIDE, cols, 0, TCP_TMEM_LANES);
	}
	tcp_tmem_fp_alloc_fit(fp);
}

#ifdef __cplusplus
}
#endif
#endif /* TCP_MODEL_TMEM_PLAN_H */
