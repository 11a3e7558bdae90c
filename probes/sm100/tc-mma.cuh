/*
 * tc-mma.cuh
 *	The tcgen05.mma engine the MMA probes share (latency, issue rate,
 *	throughput, layout, epilogue overlap): one kernel template, the point ->
 *	configuration mapping, setup / validation / launch on the host.  Each
 *	probe file includes it and instantiates only the modes it runs.
 *
 *	Shared memory of each CTA = the operand image built on the host by
 *	tc-check.cu through model/smem-layout.h (A tile, B tile; cta_group::2:
 *	each CTA its half, same offsets).  TMEM of each CTA:
 *	  [0, nstage x acc_cols)       accumulator stages (model/tmem.h tcp_acc_cols)
 *	  alloc - 16 .. alloc - 9      A operand (ab = ts): lane r holds row r's 32 bytes
 *	                               of K (one MMA), in memory order, written with
 *	                               tcgen05.st 32x32b.x8 by each CTA for its own rows
 *	  alloc - 8 .. alloc - 5       scale factors of A (block-scaled kinds)
 *	  alloc - 4 .. alloc - 1       scale factors of B
 *	Scale factors are one random code per operand replicated into every
 *	byte of every lane (layout-independent; the per-block TMEM layout of
 *	scale factors is not exercised).
 *
 *	Every wait is bounded (tcp_mbar_wait with the ctx budget): a lost
 *	arrival becomes TCP_TIMEOUT naming the wait, never a hang.  Every
 *	probe validates one tile (VALIDATE mode) before its timed runs.
 */
#ifndef TCP_TC_MMA_CUH
#define TCP_TC_MMA_CUH

#include "model/legal.h"
#include "model/tmem-plan.h"
#include "probes/sm100/tc-check.h"
#include "probes/sm100/tc-common.cuh"

enum {
	TC_MODE_VALIDATE = 0,	/* one MMA (+ masked MMA), dump the accumulator */
	TC_MODE_LAT,		/* issue -> commit -> mbarrier flip, `iters` times */
	TC_MODE_II,		/* chains of `iters` MMAs: issue and completion cycles */
	TC_MODE_TPUT,		/* `iters` MMAs per issuing CTA, one commit */
	TC_MODE_EPI		/* TPUT on stage 0 while warpgroup 1 drains stage 1 */
};

/* Wait sites named in timeout reasons. */
enum { SITE_MMA = 0, SITE_DRAIN, SITE_NSITES };
static const char *const tc_mma_sites[SITE_NSITES] = {
	"tcgen05.mma completion (commit -> mbarrier)",
	"drain tcgen05.cp completion",
};

#define TC_FIT_DEPTHS 7	/* II fit: chains of 1, 2, 4, ... 64 MMAs */
#define TC_REC (4 + 2 * TC_FIT_DEPTHS)	/* unsigned long long records per CTA */
#define TC_THREADS 256	/* warpgroup 0: TMEM owner, issuer, dump; warpgroup 1: drain */

struct tc_mma_args {
	const uint4 *img;	/* ctas_per_group images of img_words 16-byte words */
	const uint32_t *a_rows;	/* ab = ts: [cta][128 rows][8 words], row bytes in K order */
	unsigned img_words;
	tcp_tile_t ta, tb;	/* per-CTA tiles */
	uint32_t a_off, b_off;
	uint32_t idesc;
	unsigned acc_cols, alloc_cols, nstage;
	/* TMEM columns from the point's footprint (tc_mma_fp, model/tmem-plan.h) */
	unsigned acc_col, a_col, sfa_col, sfb_col, sfa_cols, sfb_cols;
	uint32_t sf_word_a, sf_word_b;	/* scale code replicated into 4 bytes */
	unsigned lane_align;		/* M = 64 layout F: 0 or 16 */
	int iters;			/* LAT reps, II depth (0 = every depth 1..64), TPUT/EPI MMAs */
	int dep;			/* II: 1 = same accumulator (true dependency) */
	int drain;			/* EPI: 0 none, 1 ld, 2 st, 3 cp */
	unsigned drain_gap;		/* EPI: cycles between drain accesses */
	int use_mask;			/* VALIDATE: second MMA with the lane mask */
	uint32_t mask[8];
	unsigned long long budget;
	uint32_t *dump;			/* [cta][128][acc_cols] */
	unsigned long long *rec;	/* [cta][TC_REC] */
	unsigned long long *status;
};

/* Kind variants a kernel is instantiated for (index into the tables). */
enum { KV_F16, KV_TF32, KV_F8F6F4, KV_I8, KV_MXF8F6F4, KV_MXF4, KV_NVF4_2X, KV_NVF4_4X, KV_N };

/* Commit to the issuing CTA's own barrier (the only one anybody waits on;
 * the peer CTA of a pair learns of completion through the cluster barrier
 * that follows the issuer's wait). */
template <int CG>
static __device__ __forceinline__ void tc_commit_own(uint64_t *bar)
{
	tcp_tc_commit<CG, TCP_CAST_LOCAL>(tcp_smem_u32(bar));
}

/*
 * tc_mma_kernel<CG, KIND, TS, SV, MODE>
 *	One CTA (cta_group::1) or one CTA pair (cluster of 2, cta_group::2) per
 *	unit of work.  One elected thread of warp 0 of the even CTA issues,
 *	commits, waits (bounded) and records; everybody else meets it at the
 *	(cluster) barrier.
 */
template <int CG, int KIND, int TS, int SV, int MODE>
static __global__ void __launch_bounds__(TC_THREADS) tc_mma_kernel(const struct tc_mma_args p)
{
	extern __shared__ __align__(1024) uint8_t smem[];
	__shared__ uint64_t bar_mma, bar_aux;
	__shared__ uint32_t slot;
	__shared__ volatile int done;
	__shared__ unsigned long long drain_bytes;
	const unsigned warp = threadIdx.x / 32;
	const unsigned rank = CG == 2 ? (tcp_cluster_rank() & 1u) : 0u;
	const unsigned cta = blockIdx.x;

	/* Operand image -> shared memory, visible to the async proxy. */
	const uint4 *src = p.img + (size_t)rank * p.img_words;
	for (unsigned i = threadIdx.x; i < p.img_words; i += blockDim.x)
		((uint4 *)smem)[i] = src[i];
	tcp_fence_proxy_async_smem();
	if (threadIdx.x == 0) {
		tcp_mbar_init(&bar_mma, 1);
		tcp_mbar_init(&bar_aux, 1);
		done = 0;
		drain_bytes = 0;
		tcp_mbar_init_fence();
	}
	if (warp == 0)
		tcp_tmem_alloc<CG>(&slot, p.alloc_cols);
	tc_sync_all<CG>();
	const uint32_t tbase = slot;
	if (threadIdx.x == 0 && !tcp_tmem_addr_ok(tbase, p.alloc_cols))
		tcp_tc_fail(p.status, TCP_TC_BAD_TADDR, 0, tbase);
	const uint32_t a_tmem = tbase + p.a_col, sfa = tbase + p.sfa_col, sfb = tbase + p.sfb_col;

	/* Scale factors: every lane quarter, replicated (layout-independent). */
	if (KIND >= TCP_KIND_MXF8F6F4 && warp < 4) {
		uint32_t wa[1] = { p.sf_word_a }, wb[1] = { p.sf_word_b };
		for (unsigned c = 0; c < p.sfa_cols; c++)
			tcp_tc_st<TCP_TC_32X32B, 1, 0>(sfa + c + ((32u * warp) << 16), wa);
		for (unsigned c = 0; c < p.sfb_cols; c++)
			tcp_tc_st<TCP_TC_32X32B, 1, 0>(sfb + c + ((32u * warp) << 16), wb);
		tcp_tc_wait_st();
	}

	/* Descriptors through the model (same functions the host reference used). */
	const uint32_t sbase = tcp_smem_u32(smem);
	tcp_sdesc_t sd;
	uint64_t adesc = 0, bdesc = 0;
	tcp_tile_desc(&p.ta, sbase + p.a_off, 0, &sd);
	tcp_sdesc_encode(&sd, &adesc);
	tcp_tile_desc(&p.tb, sbase + p.b_off, 0, &sd);
	tcp_sdesc_encode(&sd, &bdesc);
	const int issuer_warp = rank == 0 && warp == 0;
	unsigned aux_phase = 0;

	/* A into TMEM: each CTA its own 128 rows, lane = row, 32 bytes of K in
	 * 8 columns (tcgen05.st is not cta_group-qualified, so one path serves
	 * both cta_groups).  [?] This is the A-in-TMEM layout the validation
	 * checks on the first real run. */
	if constexpr (TS) {
		if (warp < 4) {
			const unsigned row = 32u * warp + threadIdx.x % 32;
			uint32_t w[8];
#pragma unroll
			for (int j = 0; j < 8; j++)
				w[j] = p.a_rows[((size_t)rank * 128 + row) * 8 + j];
			tcp_tc_st<TCP_TC_32X32B, 8, 0>(a_tmem + ((32u * warp) << 16), w);
			tcp_tc_wait_st();
		}
	}
	tc_sync_all<CG>();
	const uint64_t a_op = TS ? (uint64_t)a_tmem : adesc;
	const uint32_t d0 = tbase + p.acc_col + (p.lane_align << 16);

	if constexpr (MODE == TC_MODE_VALIDATE) {
		if (issuer_warp) {
			if (tcp_elect_one()) {
				tcp_tc_mma<CG, KIND, TS, SV>(d0, a_op, bdesc, p.idesc, sfa, sfb, 0);
				tc_commit_own<CG>(&bar_mma);
				if (tcp_mbar_wait(&bar_mma, 0, p.budget, p.status, SITE_MMA) &&
				    KIND <= TCP_KIND_I8 && !TS && p.use_mask) {
					/* Same MMA again, accumulating, with the lane mask:
					 * unmasked lanes end at 2 D, masked lanes keep D. */
					tcp_tc_mma_masked<CG, (KIND <= TCP_KIND_I8 ? KIND : 0)>(d0, adesc, bdesc, p.idesc,
												p.mask, 1);
					tc_commit_own<CG>(&bar_mma);
					tcp_mbar_wait(&bar_mma, 1, p.budget, p.status, SITE_MMA);
				}
			}
			__syncwarp();
		}
		tc_sync_all<CG>();
		if (warp < 4) {
			const unsigned lane = 32u * warp + threadIdx.x % 32;
			for (unsigned c0 = 0; c0 < p.acc_cols; c0 += 8) {
				uint32_t r[8];
				tcp_tc_ld<TCP_TC_32X32B, 8, 0>(tbase + p.acc_col + ((32u * warp) << 16) + c0, r);
				tcp_tc_wait_ld();
#pragma unroll
				for (int j = 0; j < 8; j++)
					p.dump[((size_t)rank * 128 + lane) * p.acc_cols + c0 + j] = r[j];
			}
		}
	} else if constexpr (MODE == TC_MODE_LAT) {
		/* issue -> commit -> phase flip seen by the issuing thread. */
		if (issuer_warp) {
			if (tcp_elect_one()) {
				unsigned long long sum = 0, mn = ~0ull;
				int i;
				for (i = 0; i < p.iters; i++) {
					unsigned long long t0 = tcp_clock64();
					tcp_tc_mma<CG, KIND, TS, SV>(d0, a_op, bdesc, p.idesc, sfa, sfb, 0);
					tc_commit_own<CG>(&bar_mma);
					if (!tcp_mbar_wait(&bar_mma, (unsigned)i & 1u, p.budget, p.status, SITE_MMA))
						break;
					unsigned long long dt = tcp_clock64() - t0;
					sum += dt;
					mn = dt < mn ? dt : mn;
				}
				p.rec[cta * TC_REC + 0] = sum;
				p.rec[cta * TC_REC + 1] = mn;
				p.rec[cta * TC_REC + 2] = (unsigned long long)i;
			}
			__syncwarp();
		}
	} else if constexpr (MODE == TC_MODE_II) {
		/* Per depth D: one warm-up chain, then 4 timed chains of D MMAs;
		 * issue cycles and completion cycles, the minimum over the 4.
		 * iters > 0: that one depth (rec 0, 1); iters == 0: D = 1, 2, ..
		 * 64 (rec 4 + j issue, 4 + TC_FIT_DEPTHS + j completion). */
		if (issuer_warp) {
			if (tcp_elect_one()) {
				const int nd = p.iters > 0 ? 1 : TC_FIT_DEPTHS;
				unsigned ph = 0;
				int ok = 1;
				for (int j = 0; j < nd && ok; j++) {
					const int depth = p.iters > 0 ? p.iters : 1 << j;
					unsigned long long best_issue = ~0ull, best_done = ~0ull;
					for (int rep = 0; rep < 5; rep++) {
						unsigned long long t0 = tcp_clock64();
						for (int i = 0; i < depth; i++) {
							unsigned st = p.dep ? 0u : (unsigned)i % p.nstage;
							tcp_tc_mma<CG, KIND, TS, SV>(d0 + st * p.acc_cols, a_op, bdesc,
										     p.idesc, sfa, sfb, p.dep && i > 0);
						}
						unsigned long long t1 = tcp_clock64();
						tc_commit_own<CG>(&bar_mma);
						ok = tcp_mbar_wait(&bar_mma, ph++ & 1u, p.budget, p.status, SITE_MMA);
						if (!ok)
							break;
						unsigned long long t2 = tcp_clock64();
						if (rep > 0) {
							best_issue = t1 - t0 < best_issue ? t1 - t0 : best_issue;
							best_done = t2 - t0 < best_done ? t2 - t0 : best_done;
						}
					}
					if (p.iters > 0) {
						p.rec[cta * TC_REC + 0] = best_issue;
						p.rec[cta * TC_REC + 1] = best_done;
					} else {
						p.rec[cta * TC_REC + 4 + j] = best_issue;
						p.rec[cta * TC_REC + 4 + TC_FIT_DEPTHS + j] = best_done;
					}
				}
			}
			__syncwarp();
		}
	} else {	/* TC_MODE_TPUT, TC_MODE_EPI */
		if (issuer_warp) {
			if (tcp_elect_one()) {
				unsigned long long t0 = tcp_clock64();
				for (int i = 0; i < p.iters; i++) {
					unsigned st = (unsigned)i % p.nstage;
					tcp_tc_mma<CG, KIND, TS, SV>(d0 + st * p.acc_cols, a_op, bdesc, p.idesc, sfa, sfb,
								     i >= (int)p.nstage);
				}
				tc_commit_own<CG>(&bar_mma);
				tcp_mbar_wait(&bar_mma, 0, p.budget, p.status, SITE_MMA);
				p.rec[cta * TC_REC + 0] = tcp_clock64() - t0;
				done = 1;
			}
			__syncwarp();
		}
		if constexpr (MODE == TC_MODE_EPI) {
			if (warp >= 4 && p.drain) {
				/* Warpgroup 1 drains stage 1 (columns the MMAs never
				 * touch) until the issuer is done.  Bounded: the
				 * issuer's wait is, and so is this loop. */
				const uint32_t q = 32u * (warp % 4);
				const uint32_t st1 = tbase + p.acc_col + p.acc_cols + (q << 16);
				unsigned long long t0 = tcp_clock64(), n = 0, tl = t0;
				uint32_t r[32], acc = 0;
#pragma unroll
				for (int j = 0; j < 32; j++)
					r[j] = (uint32_t)j;
				/* The condition is made warp-uniform: tcgen05.ld/st/cp and
				 * elect are .sync.aligned, a lane that left early would
				 * leave the rest of its warp stuck. */
				while (__all_sync(0xffffffffu, !done && tl - t0 < p.budget)) {
					if (p.drain == 1) {
						for (unsigned c = 0; c + 32 <= p.acc_cols; c += 32) {
							tcp_tc_ld<TCP_TC_32X32B, 32, 0>(st1 + c, r);
							tcp_tc_wait_ld();
							acc += r[0] ^ r[31];
							n += 32 * 32 * 4;
						}
					} else if (p.drain == 2) {
						for (unsigned c = 0; c + 32 <= p.acc_cols; c += 32) {
							tcp_tc_st<TCP_TC_32X32B, 32, 0>(st1 + c, r);
							tcp_tc_wait_st();
							n += 32 * 32 * 4;
						}
					} else if (warp == 4) {
						/* cp of the A tile into stage 1: 128 rows x 32 bytes. */
						int stop = 0;
						if (tcp_elect_one()) {
							tcp_tc_cp<CG, TCP_CP_128X256B, 0>(tbase + p.acc_col + p.acc_cols, adesc);
							tc_commit_own<CG>(&bar_aux);
							stop = !tcp_mbar_wait(&bar_aux, aux_phase, p.budget, p.status,
									      SITE_DRAIN);
						}
						stop = __any_sync(0xffffffffu, stop);
						if (stop)
							break;
						aux_phase ^= 1;
						n += 128 * 32;
					}
					for (tl = tcp_clock64(); tcp_clock64() - tl < p.drain_gap;)
						;
					tl = tcp_clock64();
				}
				if (acc == 0x5eed5eedu)	/* never true: keeps the loads live */
					p.rec[cta * TC_REC + 3] = acc;
				if ((threadIdx.x % 32) == 0 && (p.drain != 3 || warp == 4))
					atomicAdd(&drain_bytes, n);
				if (threadIdx.x == 128)
					p.rec[cta * TC_REC + 2] = tl - t0;
			}
		}
	}

	/* Teardown: everyone here, then the allocating warp frees TMEM. */
	tc_sync_all<CG>();
	if (MODE == TC_MODE_EPI && threadIdx.x == 0)
		p.rec[cta * TC_REC + 1] = drain_bytes;
	if (warp == 0) {
		tcp_tmem_dealloc<CG>(tbase, p.alloc_cols);
		tcp_tmem_relinquish<CG>();
	}
	if constexpr (CG == 2)
		tcp_cluster_sync();	/* no CTA leaves before its peer's dealloc (cutlass #3435) */
}

/* ---- kernel tables ------------------------------------------------------- */

typedef void (*tc_kern_t)(const struct tc_mma_args);

#define TC_KV(CG, TS, MODE)                                                                  \
	{ tc_mma_kernel<CG, 0, TS, 1, MODE>, tc_mma_kernel<CG, 1, TS, 1, MODE>,              \
	  tc_mma_kernel<CG, 2, TS, 1, MODE>, tc_mma_kernel<CG, 3, TS, 1, MODE>,              \
	  tc_mma_kernel<CG, 4, TS, 1, MODE>, tc_mma_kernel<CG, 5, TS, 2, MODE>,              \
	  tc_mma_kernel<CG, 6, TS, 2, MODE>, tc_mma_kernel<CG, 6, TS, 4, MODE> }
/* [cg - 1][ts][kind variant] */
#define TC_TABLE(MODE) { { TC_KV(1, 0, MODE), TC_KV(1, 1, MODE) }, { TC_KV(2, 0, MODE), TC_KV(2, 1, MODE) } }
#define TC_TABLE_CG1(MODE) { { TC_KV(1, 0, MODE), TC_KV(1, 1, MODE) }, { { NULL }, { NULL } } }

/* ---- the point: axes every MMA probe shares ------------------------------- */

static const char *const tc_kind_names[] = { "f16", "tf32", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4", NULL };
static const char *const tc_type_names[] = { "auto", "f16", "bf16", "tf32", "e4m3", "e5m2", "e2m3", "e3m2",
					     "e2m1", "s8", "u8", NULL };
static const char *const tc_sf_names[] = { "ue8m0", "ue4m3", NULL };
static const char *const tc_ab_names[] = { "ss", "ts", NULL };

#define TC_AXES_MMA                                                                                  \
	{ "kind", "tcgen05.mma .kind", tc_kind_names, "f16" },                                       \
	{ "atype", "A element type (auto = the kind's default: bf16, tf32, e4m3, s8, e2m1)", tc_type_names, "auto" }, \
	{ "btype", "B element type (auto = as A)", tc_type_names, "auto" },                          \
	{ "sf", "block-scale type (block-scaled kinds)", tc_sf_names, "ue8m0" },                     \
	{ "block", "K elements per scale factor: 32 or 16 (mxf4nvf4 only)", NULL, "[32]" },          \
	{ "cta_group", "1 = one CTA, 2 = CTA pair (cluster of 2)", NULL, "[1,2]" },                  \
	{ "M", "instruction M (cta_group::2: the pair's M)", NULL, "[128]" },                        \
	{ "N", "instruction N", NULL, "[64,128,256]" },                                             \
	{ "ab", "A from shared memory (ss) or TMEM (ts)", tc_ab_names, "ss" }
#define TC_NAXES_MMA 9

/* Type of an axis value: "auto" -> the kind's default (A) or A's type (B). */
static inline tcp_type_t tc_type_of(int64_t idx, tcp_type_t dflt)
{
	if (idx <= 0 || idx >= (int64_t)(sizeof(tc_type_names) / sizeof(tc_type_names[0]) - 1))
		return dflt;
	int t = tcp_type_parse(tc_type_names[idx]);
	return t < 0 ? dflt : (tcp_type_t)t;
}

/*
 * tc_point_cfg()
 *	Axes 0..8 of a point -> an MMA configuration and its A placement.
 *	Returns 1 when the model calls it legal and this engine can run it,
 *	0 with a one-line reason.
 */
static inline int tc_point_cfg(const tcp_point_t *p, tcp_mma_cfg_t *c, int *ts, char *reason, size_t len)
{
	int64_t kind = p->v[0];
	if (kind < 0 || kind >= TCP_KIND_COUNT) {
		snprintf(reason, len, "kind index %lld out of range", (long long)kind);
		return 0;
	}
	tcp_mma_cfg_default((tcp_kind_t)kind, c);
	c->a = tc_type_of(p->v[1], c->a);
	c->b = tc_type_of(p->v[2], c->a);
	c->sf = p->v[3] == 1 ? TCP_T_UE4M3 : TCP_T_UE8M0;
	if (tcp_kind_block_scaled(c->kind)) {
		if (p->v[4] != 16 && p->v[4] != 32) {
			snprintf(reason, len, "block must be 16 or 32; got %lld", (long long)p->v[4]);
			return 0;
		}
		c->scale_vec = c->kind == TCP_KIND_MXF8F6F4 ? 1u : p->v[4] == 16 ? 4u : 2u;
	} else if (p->v[4] != 32) {
		snprintf(reason, len, "block applies to block-scaled kinds only (use 32); got %lld",
			 (long long)p->v[4]);
		return 0;
	}
	c->cta_group = (int)p->v[5];
	c->m = (unsigned)p->v[6];
	c->n = (unsigned)p->v[7];
	*ts = p->v[8] == 1;
	c->a_tmem = (unsigned)*ts;
	if (!tcp_mma_legal(c, reason, len))
		return 0;
	if (*ts && c->m / (unsigned)c->cta_group != 128) {
		snprintf(reason, len, "ab=ts is implemented for 128 rows of A per CTA (cta_group::1 M=128, cta_group::2 M=256)");
		return 0;
	}
	return 1;
}

static inline int tc_kind_variant(const tcp_mma_cfg_t *c)
{
	if (c->kind == TCP_KIND_MXF4NVF4)
		return tcp_mma_scale_block(c) == 16 ? KV_NVF4_4X : KV_NVF4_2X;
	return (int)c->kind;
}

/* ---- TMEM footprint (issue 16 guards; model/tmem-plan.h) -------------------- */

/* Columns of A per row in TMEM (ab = ts): one MMA's K; fp4/fp6 under
 * f8f6f4/mxf8f6f4 sit in 8-bit containers (facts s.3), so every kind takes
 * 256 bits = 8 columns. */
static inline unsigned tc_a_tmem_cols(const tcp_mma_cfg_t *c)
{
	unsigned bits = (unsigned)tcp_type_bits(c->a);
	if ((c->kind == TCP_KIND_F8F6F4 || c->kind == TCP_KIND_MXF8F6F4) && bits < 8)
		bits = 8;
	return (tcp_mma_k(c) * bits + 31) / 32;
}

/* The footprint of `stages` accumulator stages; col[] = acc, a, sfa, sfb offsets. */
static inline void tc_mma_fp(const tcp_mma_cfg_t *c, int ts, unsigned stages, tcp_tmem_fp_t *fp, unsigned col[4])
{
	tcp_tmem_mma_req_t q = { c->cta_group, c->m, c->n, stages, (unsigned)ts, ts ? tc_a_tmem_cols(c) : 0u,
				 (unsigned)tcp_kind_block_scaled(c->kind) };
	tcp_tmem_mma_fp(&q, fp, &col[0], &col[1], &col[2], &col[3]);
}

/* The most accumulator stages <= want whose footprint is sound (at least 1). */
static inline unsigned tc_mma_stages_fit(const tcp_mma_cfg_t *c, int ts, unsigned want)
{
	tcp_tmem_fp_t fp;
	unsigned col[4];
	char why[TCP_REASON_LEN];
	for (; want > 1; want--) {
		tc_mma_fp(c, ts, want, &fp, col);
		if (!tcp_tmem_fp_check(&fp, why, sizeof(why)))
			break;
	}
	return want ? want : 1;
}

/*
 * tc_mma_point_fp()
 *	The `tmem` hook body of an MMA probe (probe.h): axes 0..8 of the point
 *	and its accumulator stages: exactly `stages` (exact = 1; the planner then
 *	SKIPs the point when they do not fit), or the most that fit up to
 *	`stages` (exact = 0).  1 = *fp filled, -1 = reason.
 */
static inline int tc_mma_point_fp(const tcp_point_t *p, unsigned stages, int exact, tcp_tmem_fp_t *fp, char *reason,
				  size_t len)
{
	tcp_mma_cfg_t cfg;
	int ts;
	unsigned col[4];
	if (!tc_point_cfg(p, &cfg, &ts, reason, len))
		return -1;
	tc_mma_fp(&cfg, ts, exact ? stages : tc_mma_stages_fit(&cfg, ts, stages), fp, col);
	return 1;
}

/* ---- host state ------------------------------------------------------------- */

struct tc_mma {
	tcp_mma_cfg_t cfg;
	tcp_tmem_fp_t fp;	/* TMEM footprint of the point (what setup placed) */
	int ts, grid, units;	/* units = issuing CTAs (pairs for cta_group::2) */
	size_t smem;
	tcp_tc_mma_data_t data;
	struct tc_mma_args args;
	uint4 *d_img;
	uint32_t *d_arows;
	uint32_t *d_dump, *h_dump;
	unsigned long long *d_rec, *h_rec, *d_status;
	double *tmp;
};

static inline void tc_mma_free(struct tc_mma *m)
{
	if (!m)
		return;
	cudaFree(m->d_img);
	cudaFree(m->d_arows);
	cudaFree(m->d_dump);
	cudaFree(m->d_rec);
	tcp_trap_status_free(m->d_status);
	free(m->h_dump);
	free(m->h_rec);
	free(m->tmp);
	tcp_tc_mma_data_free(&m->data);
}

/*
 * tc_mma_setup()
 *	Build operands (fresh random from ctx->seed, or the unique fill), the
 *	instruction descriptor and the TMEM plan; upload.  `nstage_want`
 *	accumulator stages when they fit in 512 columns with the 16 extra
 *	columns, else fewer (at least 1).
 */
static inline tcp_status_t tc_mma_setup(struct tc_mma *m, const tcp_mma_cfg_t *cfg, int ts, int fill,
					unsigned nstage_want, tcp_ctx_t *c)
{
	tcp_idesc_t id;
	memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	m->ts = ts;
	if (tcp_tc_mma_data_build(&m->data, cfg, TCP_SW_NONE, c->seed, fill, c->reason, TCP_REASON_LEN)) {
		return TCP_FAILED;
	}
	tcp_mma_to_idesc(cfg, &id);
	if (tcp_idesc_encode(&id, &m->args.idesc)) {
		snprintf(c->reason, TCP_REASON_LEN, "model/idesc.h cannot encode this configuration");
		return TCP_FAILED;
	}
	tcp_acc_cfg_t ac = { cfg->cta_group, cfg->m, cfg->n, 0, 0, 0 };
	m->args.acc_cols = tcp_acc_cols(&ac);
	/* TMEM placement: the footprint the planner checked (tc_mma_fp). */
	unsigned ns = tc_mma_stages_fit(cfg, ts, nstage_want ? nstage_want : 1), col[4];
	tc_mma_fp(cfg, ts, ns, &m->fp, col);
	if (tcp_tmem_fp_check(&m->fp, c->reason, TCP_REASON_LEN))
		return TCP_SKIPPED;
	m->args.nstage = ns;
	m->args.alloc_cols = m->fp.alloc;
	m->args.acc_col = col[0];
	m->args.a_col = col[1];
	m->args.sfa_col = col[2];
	m->args.sfb_col = col[3];
	if (tcp_kind_block_scaled(cfg->kind)) {
		m->args.sfa_cols = tcp_tmem_sf_cols(cfg->m / (unsigned)cfg->cta_group);
		m->args.sfb_cols = tcp_tmem_sf_cols(cfg->n);
	}
	m->args.ta = m->data.ta;
	m->args.tb = m->data.tb;
	m->args.a_off = m->data.a_off;
	m->args.b_off = m->data.b_off;
	m->args.img_words = m->data.img_bytes / 16;
	m->args.sf_word_a = m->data.sfa_code * 0x01010101u;
	m->args.sf_word_b = m->data.sfb_code * 0x01010101u;
	m->args.budget = tc_budget(c);
	m->smem = tc_exclusive_smem(c, m->data.img_bytes, 1024);	/* one CTA per SM */
	unsigned ctas = m->data.ctas;
	TCP_CUDA_TRY(c, cudaMalloc(&m->d_img, (size_t)ctas * m->data.img_bytes));
	for (unsigned i = 0; i < ctas; i++)
		TCP_CUDA_TRY(c, cudaMemcpy((uint8_t *)m->d_img + (size_t)i * m->data.img_bytes, m->data.img[i],
					   m->data.img_bytes, cudaMemcpyHostToDevice));
	m->args.img = m->d_img;
	if (ts) {
		/* Row r's 32 bytes of K, in K order: chunk j of the row sits where
		 * the model placed its first element. */
		uint32_t *rows = (uint32_t *)calloc((size_t)ctas * 128 * 8, sizeof(uint32_t));
		if (!rows) {
			snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
			return TCP_FAILED;
		}
		unsigned te = tcp_tile_t_elems(&m->data.ta);
		for (unsigned i = 0; i < ctas; i++)
			for (unsigned r = 0; r < m->data.ta.rows && r < 128; r++)
				for (unsigned j = 0; j < 32; j++) {
					uint32_t at = m->data.a_off + tcp_tile_place(&m->data.ta, r, (j / 16) * te) / 8 + j % 16;
					rows[((size_t)i * 128 + r) * 8 + j / 4] |= (uint32_t)m->data.img[i][at] << (8 * (j % 4));
				}
		cudaError_t e = cudaMalloc(&m->d_arows, (size_t)ctas * 128 * 8 * sizeof(uint32_t));
		if (e == cudaSuccess)
			e = cudaMemcpy(m->d_arows, rows, (size_t)ctas * 128 * 8 * sizeof(uint32_t), cudaMemcpyHostToDevice);
		free(rows);
		if (e != cudaSuccess) {
			snprintf(c->reason, TCP_REASON_LEN, "A rows upload: %s", cudaGetErrorString(e));
			return TCP_FAILED;
		}
		m->args.a_rows = m->d_arows;
	}
	size_t dump_n = (size_t)ctas * 128 * m->args.acc_cols;
	TCP_CUDA_TRY(c, cudaMalloc(&m->d_dump, dump_n * sizeof(uint32_t)));
	m->h_dump = (uint32_t *)calloc(dump_n, sizeof(uint32_t));
	m->grid = c->sm_count - (cfg->cta_group == 2 ? c->sm_count % 2 : 0);
	if (m->grid < cfg->cta_group)
		m->grid = cfg->cta_group;
	m->units = m->grid / cfg->cta_group;
	TCP_CUDA_TRY(c, cudaMalloc(&m->d_rec, (size_t)m->grid * TC_REC * sizeof(unsigned long long)));
	m->h_rec = (unsigned long long *)calloc((size_t)m->grid * TC_REC, sizeof(unsigned long long));
	m->tmp = (double *)calloc((size_t)m->grid, sizeof(double));
	if (tcp_trap_status_alloc(c, &m->d_status) != TCP_OK)
		return TCP_FAILED;
	if (!m->h_dump || !m->h_rec || !m->tmp) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	m->args.dump = m->d_dump;
	m->args.rec = m->d_rec;
	m->args.status = m->d_status;
	return TCP_OK;
}

/* Launch `k` on `grid` CTAs (clusters of 2 for cta_group::2), wait, check status. */
static inline tcp_status_t tc_mma_launch(struct tc_mma *m, tc_kern_t k, int grid, tcp_ctx_t *c)
{
	if (!k) {
		snprintf(c->reason, TCP_REASON_LEN, "no kernel instantiated for this configuration");
		return TCP_FAILED;
	}
	TCP_CUDA_TRY(c, cudaFuncSetAttribute((const void *)k, cudaFuncAttributeMaxDynamicSharedMemorySize,
					     (int)m->smem));
	TCP_CUDA_TRY(c, cudaMemset(m->d_rec, 0, (size_t)m->grid * TC_REC * sizeof(unsigned long long)));
	cudaLaunchConfig_t lc = {};
	cudaLaunchAttribute at[1] = {};
	lc.gridDim = dim3((unsigned)grid);
	lc.blockDim = dim3(TC_THREADS);
	lc.dynamicSmemBytes = m->smem;
	at[0].id = cudaLaunchAttributeClusterDimension;
	at[0].val.clusterDim.x = (unsigned)m->cfg.cta_group;
	at[0].val.clusterDim.y = 1;
	at[0].val.clusterDim.z = 1;
	lc.attrs = at;
	lc.numAttrs = 1;
	TCP_CUDA_TRY(c, cudaLaunchKernelEx(&lc, k, m->args));
	tcp_status_t st = tc_check_status(c, m->d_status, tc_mma_sites, SITE_NSITES);
	if (st != TCP_OK)
		return st;
	TCP_CUDA_TRY(c, cudaMemcpy(m->h_rec, m->d_rec, (size_t)m->grid * TC_REC * sizeof(unsigned long long),
				   cudaMemcpyDeviceToHost));
	return TCP_OK;
}

/*
 * tc_mma_validate()
 *	One MMA on one CTA (pair), the accumulator dumped and compared cell by
 *	cell with the CPU reference through the model's layout.  With a mask:
 *	the masked second MMA must leave masked lanes at D, others at 2 D.
 *	Mismatch -> TCP_INVALID naming the first cells.
 */
static inline tcp_status_t tc_mma_validate(struct tc_mma *m, tc_kern_t k, tcp_ctx_t *c)
{
	size_t dump_n = (size_t)m->data.ctas * 128 * m->args.acc_cols;
	/* poison (NaN / -1): a dump never written fails even against an all-zero reference */
	TCP_CUDA_TRY(c, cudaMemset(m->d_dump, 0xFF, dump_n * sizeof(uint32_t)));
	tcp_status_t st = tc_mma_launch(m, k, m->cfg.cta_group, c);
	if (st != TCP_OK)
		return st;
	TCP_CUDA_TRY(c, cudaMemcpy(m->h_dump, m->d_dump, dump_n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
	if (m->args.use_mask) {
		/* Expected: masked lanes D, the others 2 D (exact: doubling). */
		uint32_t *want = (uint32_t *)calloc(dump_n, sizeof(uint32_t));
		if (!want) {
			snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
			return TCP_FAILED;
		}
		tcp_tc_fill_tmem(&m->data, want, m->args.acc_cols, m->args.lane_align);
		for (size_t i = 0; i < dump_n; i++) {
			unsigned lane = (unsigned)(i / m->args.acc_cols) % 128, cta = (unsigned)(i / m->args.acc_cols / 128);
			unsigned bit = cta * 128 + lane;	/* cta_group::2: 256-bit mask */
			int masked = (m->args.mask[bit / 32] >> (bit % 32)) & 1;
			if (!masked) {
				if (m->cfg.kind == TCP_KIND_I8) {
					want[i] = (uint32_t)((int32_t)want[i] * 2);
				} else {
					float f;
					memcpy(&f, &want[i], sizeof(f));
					f *= 2.0f;
					memcpy(&want[i], &f, sizeof(f));
				}
			}
		}
		long bad = 0;
		for (size_t i = 0; i < dump_n; i++) {
			/* Only cells the accumulator occupies carry data. */
			if (want[i] != m->h_dump[i] && want[i] != 0) {
				if (!bad)
					snprintf(c->reason, TCP_REASON_LEN,
						 "disable-output-lane: cta %u lane %u col %u = 0x%08x, expected 0x%08x (%s)",
						 (unsigned)(i / m->args.acc_cols / 128), (unsigned)(i / m->args.acc_cols) % 128,
						 (unsigned)(i % m->args.acc_cols), m->h_dump[i], want[i],
						 ((m->args.mask[((i / m->args.acc_cols) % 256) / 32] >>
						   (((i / m->args.acc_cols) % 256) % 32)) & 1) ? "masked lane changed" : "unmasked lane");
				bad++;
			}
		}
		free(want);
		return bad ? TCP_INVALID : TCP_OK;
	}
	long bad = tcp_tc_check_tmem(&m->data, m->h_dump, m->args.acc_cols, m->args.lane_align, c->reason,
				     TCP_REASON_LEN);
	if (bad < 0)
		return TCP_FAILED;
	return bad ? TCP_INVALID : TCP_OK;
}

/* ---- probe callbacks: what the kind x cta_group x M x N x SS/TS probes share ---- */

/* Kernel of `tab` (a TC_TABLE) for this state's cta_group, A placement, kind. */
static inline tc_kern_t tc_mma_kern(const struct tc_mma *m, const tc_kern_t tab[2][2][KV_N])
{
	return tab[m->cfg.cta_group - 1][m->ts][tc_kind_variant(&m->cfg)];
}

/* legal() over axes 0..8 (a probe with more axes checks its own first). */
static inline int tc_mma_point_legal(const tcp_point_t *p, char *reason, size_t len)
{
	tcp_mma_cfg_t cfg;
	int ts;
	return tc_point_cfg(p, &cfg, &ts, reason, len);
}

/*
 * tc_mma_state_new()
 *	Start of setup(): the state allocated and stored in *state (teardown
 *	frees it whatever follows), axes 0..8 -> *cfg, *ts.  TCP_OK: go on with
 *	tc_mma_setup(); else the status setup() returns (reason in c->reason).
 */
static inline tcp_status_t tc_mma_state_new(const tcp_point_t *p, tcp_ctx_t *c, void **state,
					    tcp_mma_cfg_t *cfg, int *ts)
{
	struct tc_mma *m = (struct tc_mma *)calloc(1, sizeof(*m));
	if (!m) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = m;
	if (!tc_point_cfg(p, cfg, ts, c->reason, TCP_REASON_LEN))
		return TCP_SKIPPED;
	return TCP_OK;
}

/* Median over issuing units (even CTAs for cta_group::2) of record `off` / div. */
static inline double tc_mma_rec_median(struct tc_mma *m, int off, double div)
{
	int n = 0;
	for (int i = 0; i < m->grid; i += m->cfg.cta_group)
		m->tmp[n++] = (double)m->h_rec[i * TC_REC + off] / div;
	return tc_median(m->tmp, n);
}

static inline void tc_mma_teardown(void *state)
{
	tc_mma_free((struct tc_mma *)state);
	free(state);
}

#endif /* TCP_TC_MMA_CUH */
