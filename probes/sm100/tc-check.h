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
#include "model/tmem-plan.h"
#include "model/tmem.h"
#include "probes/common/probe.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most MMAs one tc_mma_tput launch accumulates: the maxfinite pattern is
 * bounded so that this many never overflow the accumulator. */
#define TCP_TC_TPUT_MAX_MMAS 131072

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
	unsigned kstep;			/* the MMA reads K step kstep of tiles of kstep + 1 MMAs' K (K = 96,
					 * 128B, kstep 2: 96 bytes into the swizzle row, into the next atom) */
	tcp_tile_t ta, tb;		/* per-CTA tiles (rows = M / ctas, N / ctas) */
	uint32_t a_off, b_off;		/* offsets of the tiles in the per-CTA image */
	uint32_t img_bytes;		/* bytes of one CTA's image */
	uint8_t *img[2];		/* per-CTA shared-memory images */
	uint32_t *a_raw, *b_raw;	/* logical operands, raw codes: M x K, N x K */
	unsigned nblk;			/* block-scaled: scale factors per row in one MMA (K / block), else 0 */
	uint32_t *sfa, *sfb;		/* block-scaled: random codes, one per block: [M][nblk], [N][nblk] */
	double *ref;			/* M x N reference */
	double *mag;			/* M x N: sum_k |sa a sb b|, for the tolerance */
	double rel_tol;			/* |got - ref| <= rel_tol * mag (+ 1e-30) */
} tcp_tc_mma_data_t;

/*
 * tcp_tc_mma_data_build()
 *	Operands for one MMA of `cfg` (must be legal): tiles K-major with
 *	`layout`, random or unique-valued codes from `seed`, one random scale
 *	factor per K block of every row (block-scaled kinds), the reference.  Also re-reads both operands from the
 *	images with the model's independent reader and fails (-1, reason) when
 *	they disagree with the codes placed: a model bug, not a device one.
 *	0 on success.
 */
int tcp_tc_mma_data_build(tcp_tc_mma_data_t *d, const tcp_mma_cfg_t *cfg, tcp_swizzle_t layout,
			  uint64_t seed, int fill, char *reason, size_t len);
/* ... the operands at MMA step `kstep` (0..7) of tiles kstep + 1 MMAs long
 * along K, the steps before it random codes of the same types that the MMA
 * must not read (kstep 0: exactly tcp_tc_mma_data_build()). */
int tcp_tc_mma_data_build_at(tcp_tc_mma_data_t *d, const tcp_mma_cfg_t *cfg, tcp_swizzle_t layout, unsigned kstep,
			     uint64_t seed, int fill, char *reason, size_t len);
void tcp_tc_mma_data_free(tcp_tc_mma_data_t *d);

/* Value of the scale factor of block `blk` of row `row` of A (is_b = 0) or
 * B (1); 1 for kinds without block scaling. */
double tcp_tc_sf(const tcp_tc_mma_data_t *d, int is_b, unsigned row, unsigned blk);

/* 32-bit words of scale factors per row one MMA reads (block-scaled kinds:
 * 1, K = 96 .block16: 2; else 0), and the columns of A's (is_b = 0) or B's
 * (1) scale-factor region in one CTA's TMEM (model/tmem-plan.h). */
unsigned tcp_tc_sf_words(const tcp_mma_cfg_t *c);
unsigned tcp_tc_sf_region_cols(const tcp_mma_cfg_t *c, int is_b);

/* Replica `rep` of the word holding scale factor `blk` of row `row` (of the
 * CTA's rows): lane and column from the region's first column; byte blk % 4.
 * 0, or -1 out of range. */
int tcp_tc_sf_cell(const tcp_tc_mma_data_t *d, int is_b, unsigned row, unsigned blk, unsigned rep, unsigned *lane,
		   unsigned *col);

/*
 * tcp_tc_sf_image() / tcp_tc_sf_readback()
 *	The scale-factor region of A (is_b = 0) or B (1) in CTA `cta`'s TMEM as
 *	the device writes it: img[col * 128 + lane], `cols` columns, each row's
 *	words (byte j of word w = block 4 w + j) at every replica the model's
 *	map (tcp_tc_sf_cell) names; other cells 0.  Readback is
 *	the inverse: the CTA's rows' codes ([rows][nblk], rows of this CTA) out
 *	of an image; -1 with a reason when replicas disagree or a cell is
 *	outside `cols`.
 */
void tcp_tc_sf_image(const tcp_tc_mma_data_t *d, unsigned cta, int is_b, uint32_t *img, unsigned cols);
int tcp_tc_sf_readback(const tcp_tc_mma_data_t *d, unsigned cta, int is_b, const uint32_t *img, unsigned cols,
		       uint32_t *codes, char *reason, size_t len);

/* D computed with these scale codes instead of d's ([M][nblk], [N][nblk]):
 * what a device that read its scales from the wrong place would produce. */
int tcp_tc_ref_with_sf(const tcp_tc_mma_data_t *d, const uint32_t *sfa, const uint32_t *sfb, double *out);

/* Descriptor of MMA step `kstep` of a tile at shared address `base` (host check of the device's). */
uint64_t tcp_tc_tile_desc(const tcp_tile_t *t, uint32_t base, unsigned kstep);

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

/* Pipeline depth: latency / II unrounded, the MMAs that must be in flight
 * to hide one MMA's latency (public write-ups quote its ceiling); NAN for
 * bad inputs. */
double tcp_tc_pipeline_depth(double latency, double ii);

/*
 * tcp_tc_tput_iters()
 *	MMAs one tc_mma_tput launch issues per issuing CTA (pair): enough for
 *	`target_cycles` at the kind's published peak (a slower point only runs
 *	longer), at least 2048, at most TCP_TC_TPUT_MAX_MMAS, a multiple of 2
 *	(two accumulators) and of commit_every (batches).
 */
int tcp_tc_tput_iters(const tcp_mma_cfg_t *cfg, double target_cycles, int commit_every);

/* Issue-bound: the tensor core completes MMAs about as fast as one thread
 * issues them, so the issuer, not the tensor core, sets the rate: the
 * initiation interval at most (1 + TCP_TC_ISSUE_BOUND_TOL) x the issue
 * cost (tc_mma_ii's issue_cost_cycles, measured while the MMA queue has
 * room; an issue time taken once the queue is full tracks completion and
 * says nothing).  1 / 0; -1 when either is unknown. */
#define TCP_TC_ISSUE_BOUND_TOL 0.25
int tcp_tc_issue_bound(double issue_cost_cycles, double ii_cycles);


/* ---- the point of an MMA probe (tc_mma_lat, tc_mma_ii, tc_mma_tput) --------
 *
 * Axes -> which kernel (cta_group, A placement, commit form, kind variant,
 * the probe's compile-time option) and its arguments, in one host function
 * the probes' legal(), tmem hook and setup() all call, so that a test can
 * show that every axis value changes the kernel or its arguments.
 */

/* Axes every MMA probe shares, in this order (tc-mma.cuh TC_AXES_MMA); a
 * probe's own axes follow (tc_mma_lat: enable_input_d; tc_mma_ii: depth,
 * chain; tc_mma_tput: pattern, commit_every, enable_input_d). */
enum {
	TCP_TC_AX_KIND, TCP_TC_AX_ATYPE, TCP_TC_AX_BTYPE, TCP_TC_AX_SF, TCP_TC_AX_BLOCK, TCP_TC_AX_CG, TCP_TC_AX_M,
	TCP_TC_AX_N, TCP_TC_AX_AB, TCP_TC_AX_GRID, TCP_TC_AX_CAST, TCP_TC_AX_SWIZZLE, TCP_TC_NAXES
};
extern const char *const tcp_tc_kind_names[];	/* tcp_kind_t order */
extern const char *const tcp_tc_type_names[];	/* "auto", then tcp_type_parse() names */
extern const char *const tcp_tc_sf_names[];	/* ue8m0, ue4m3 */
extern const char *const tcp_tc_ab_names[];	/* ss, ts */
extern const char *const tcp_tc_grid_names[];	/* all, 1 */
extern const char *const tcp_tc_cast_names[];	/* local, multicast (tc_commit's names) */
extern const char *const tcp_tc_swizzle_names[];	/* none, 128B */

/* Kernel table index of the kind: mxf4nvf4 splits by scale vector. */
enum {
	TCP_TC_KV_F16, TCP_TC_KV_TF32, TCP_TC_KV_F8F6F4, TCP_TC_KV_I8, TCP_TC_KV_MXF8F6F4, TCP_TC_KV_MXF4,
	TCP_TC_KV_NVF4_2X, TCP_TC_KV_NVF4_4X, TCP_TC_KV_N
};
int tcp_tc_kind_variant(const tcp_mma_cfg_t *c);

/* tc_mma_ii's chains (tc-mma.cuh TC_CHAIN_*, the kernel's OPT): accumulators x
 * enable-input-d: indep 2 x 0, same 1 x 1, alt_acc 2 x 1, overwrite 1 x 0. */
enum { TCP_TC_CHAIN_INDEP = 0, TCP_TC_CHAIN_SAME, TCP_TC_CHAIN_ALT_ACC, TCP_TC_CHAIN_OVERWRITE, TCP_TC_CHAIN_N };
extern const char *const tcp_tc_chain_names[];	/* TCP_TC_CHAIN_* order */

/* Commit forms (`cast`): local = the issuing CTA's barrier; multicast =
 * every CTA of the pair its own (CUTLASS umma_arrive_multicast_2x1SM). */
enum { TCP_TC_CAST_LOCAL = 0, TCP_TC_CAST_MULTICAST = 1 };

typedef struct {
	tcp_mma_cfg_t cfg;
	int ts;			/* A in TMEM */
	int grid1;		/* one issuing CTA (pair) on the whole GPU, else one per SM (pair) */
	int cast;		/* TCP_TC_CAST_* */
	tcp_swizzle_t swizzle;	/* A and B tiles */
	int kv;			/* kind variant */
	int opt;		/* the kernel's OPT: lat enable_input_d; ii TCP_TC_CHAIN_*; tput 1 = overwrite */
	unsigned stages;	/* accumulator stages asked */
	int exact;		/* 1: exactly `stages` (else SKIPPED); 0: fewer when they do not fit */
	int depth;		/* ii: chain depth, 0 = every depth 1..64 and the fit */
	int commit_every;	/* tput: commit after every k MMAs, 0 = once */
	int pattern;		/* tput: fill.h pattern */
	unsigned kstep;		/* tc_mma_k96: the MMA step along K of the tiles (tcp_tc_mma_data_build_at) */
} tcp_tc_mma_point_t;

/*
 * tcp_tc_mma_point()
 *	Point p of MMA probe `probe` ("tc_mma_lat", "tc_mma_ii", "tc_mma_tput";
 *	another name: the common axes only) -> *out.  0 when the model calls it
 *	legal and the engine can run it; -1 with a one-line reason.
 */
int tcp_tc_mma_point(const char *probe, const tcp_point_t *p, tcp_tc_mma_point_t *out, char *reason, size_t len);

/* Columns of A per row in TMEM (ab = ts): one MMA's K, fp4/fp6 under
 * f8f6f4/mxf8f6f4 in 8-bit containers (facts s.3): 8 for every kind. */
unsigned tcp_tc_a_tmem_cols(const tcp_mma_cfg_t *c);

/* tcgen05.cp form that stages A in TMEM: 2 = .b8x16.b4x16_p64 (fp4 under
 * f8f6f4/mxf8f6f4), 1 = .b8x16.b6x16_p32 (fp6), 0 = plain. */
unsigned tcp_tc_a_cp_fmt(const tcp_mma_cfg_t *c);

/* The TMEM footprint of the point with `stages` accumulator stages (the
 * engine's placement); col[] = acc, a, sfa, sfb column offsets. */
void tcp_tc_mma_fp(const tcp_tc_mma_point_t *mp, unsigned stages, tcp_tmem_fp_t *fp, unsigned col[4]);

/* Stages the engine uses: mp->stages, or with exact = 0 the most up to it
 * whose footprint is sound (at least 1). */
unsigned tcp_tc_mma_stages(const tcp_tc_mma_point_t *mp);

/* The `tmem` hook of the MMA probes (probe.h): 1 and *fp, or -1 with the
 * reason (an illegal point; a two-accumulator chain without two stages). */
int tcp_tc_mma_point_fp(const char *probe, const tcp_point_t *p, tcp_tmem_fp_t *fp, char *reason, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* TCP_TC_CHECK_H */
