/*
 * probe-tc-commit.cu
 *	tcgen05.commit -> mbarrier delay on its own: commit with nothing
 *	outstanding, after one tcgen05.cp (128x256b), after one tcgen05.mma
 *	(kind::f16, M = 128 per CTA, N = 64); cta_group::1 and ::2; the commit
 *	to the issuer's own barrier (cast=local) or .multicast::cluster (mask
 *	0b11 for the pair, 0b1 for one CTA: the form public microbenchmarks
 *	and production kernels use); one CTA (pair) on the whole GPU (grid=1,
 *	as public microbenchmarks run) or one per SM (pair of SMs).
 *	The operands are zeros: the MMA and cp here are only something for the
 *	commit to track (their results are checked by tc_mma_* and tc_cp).
 *	The MMA accumulates from the second sample on (enable-input-d a
 *	template constant, so no predicate is moved into uniform registers in
 *	the window).
 *
 *	Timed windows, in the issuing thread, every operand computed before
 *	them (form, cta_group, cast are template parameters; the descriptors
 *	and barrier address live in uniform registers; scripts/ci/check-sass.sh
 *	checks that no LDCU / S2UR / R2UR sits between each window's clock
 *	read and its first UTC* instruction):
 *	  t0 [op] t1 commit ... own phase flip t2
 *	cta_group::2 multicast: the odd CTA waits on its own copy of the
 *	barrier and arrives remotely on an ack barrier of the issuer; t3 =
 *	when the issuer sees the ack.  COMMIT_WARMUP samples are dropped, then
 *	COMMIT_SAMPLES are kept.
 *
 *	Metrics (per issuing CTA the median or minimum over its samples, then
 *	the median over issuing CTAs):
 *	  commit_cycles         t2 - t1: commit issue to the local phase flip, median
 *	  commit_min_cycles     t2 - t1, minimum
 *	  op_to_flip_cycles     t2 - t0: op issue to the phase flip, median
 *	  peer_roundtrip_cycles t3 - t1: cta_group::2 multicast only (NAN otherwise)
 *
 *	Protocol: mbarrier inits, cluster barrier, alloc (tc_tmem_prologue:
 *	DeepGEMM / CUTLASS order); relinquish then dealloc after everyone is
 *	done (tc_tmem_epilogue: CUTLASS sm100 GEMM order); multicast commit as
 *	CUTLASS cutlass/arch/barrier.h umma_arrive_multicast{,_2x1SM}.
 */
#include "probes/sm100/tc-common.cuh"
#include "model/legal.h"
#include "model/smem-layout.h"

extern "C" const tcp_probe_t tcp_probe_tc_commit;

#if TCP_AUX_EMU	/* the emulation's floors (tc-aux.h) */
#define COMMIT_WARMUP TCP_AUX_EMU_COMMIT_WARMUP
#define COMMIT_SAMPLES TCP_AUX_EMU_COMMIT_SAMPLES
#else
#define COMMIT_WARMUP 8
#define COMMIT_SAMPLES 64
#endif
#define COMMIT_TMEM_COLS 128	/* the allocation (commit_fp: D of the MMA, the cp destination) */

enum { FORM_EMPTY = 0, FORM_CP, FORM_MMA, FORM_N };
enum { SITE_OWN = 0, SITE_PEER, SITE_ACK, SITE_TADDR };
static const char *const sites[] = { "commit -> own mbarrier", "multicast commit -> peer mbarrier",
				     "peer ack (remote mbarrier arrive)", "tcgen05.alloc result" };
static const char *const form_names[] = { "empty", "cp", "mma", NULL };
static const char *const cast_names[] = { "local", "multicast", NULL };

struct commit_args {
	tcp_tile_t ta, tb;
	uint32_t b_off, idesc;
	uint32_t acc_col, cp_col;	/* from commit_fp() */
	unsigned long long budget;
	unsigned long long *rec;	/* [cta][sample][3]: commit, op->flip, roundtrip */
	unsigned long long *status;
};

/* The operands of the timed loop, pinned in uniform registers (tc_pin). */
struct commit_ops {
	uint64_t adesc, bdesc;
	uint32_t acc, cp, idesc, bar;
};

/* One sample in the issuing thread: the three times (t3 only for cg2 multicast). */
template <int CG, int FORM, tcp_cast_t CAST, int ACC>
static __device__ __forceinline__ void commit_sample(const struct commit_args &p, const struct commit_ops &o,
						     uint64_t *bar, uint64_t *ack, unsigned phase,
						     unsigned long long out[3])
{
	unsigned long long t0 = tcp_clock64();
	if constexpr (FORM == FORM_CP)
		tcp_tc_cp<CG, TCP_CP_128X256B, 0>(o.cp, o.adesc);
	else if constexpr (FORM == FORM_MMA)
		tcp_tc_mma<CG, TCP_KIND_F16, 0, 1>(o.acc, o.adesc, o.bdesc, o.idesc, 0, 0, ACC);
	unsigned long long t1 = tcp_clock64();
	tcp_tc_commit<CG, CAST>(o.bar);
	tcp_mbar_wait(bar, phase, p.budget, p.status, SITE_OWN);
	unsigned long long t2 = tcp_clock64();
	unsigned long long t3 = t1;
	if constexpr (CG == 2 && CAST == TCP_CAST_MULTICAST) {
		tcp_mbar_wait(ack, phase, p.budget, p.status, SITE_ACK);
		t3 = tcp_clock64();
	}
	/* the next sample's cp writes the same columns: ordered after this one
	 * only through the wait and this fence (cp -> cp is not a pipelined pair) */
	tcp_tc_fence_after();
	out[0] = t2 - t1;
	out[1] = t2 - t0;
	out[2] = t3 - t1;
}

template <int CG, int FORM, tcp_cast_t CAST>
static __global__ void __launch_bounds__(128) commit_kernel(const struct commit_args p)
{
	__shared__ __align__(1024) uint8_t smem[8192];
	__shared__ uint64_t bar, ack;
	__shared__ uint32_t slot;
	__shared__ struct commit_ops pin;
	__shared__ unsigned long long samp[COMMIT_SAMPLES][3];
	const unsigned warp = threadIdx.x / 32;
	const unsigned rank = CG == 2 ? (tcp_cluster_rank() & 1u) : 0u;

	for (unsigned i = threadIdx.x; i < sizeof(smem) / 16; i += blockDim.x)
		((uint4 *)smem)[i] = make_uint4(0, 0, 0, 0);
	tcp_fence_proxy_async_smem();
	if (threadIdx.x == 0) {
		tcp_mbar_init(&bar, 1);
		tcp_mbar_init(&ack, 1);
		tcp_mbar_init_fence();
	}
	const uint32_t tbase = tc_tmem_prologue<CG>(&slot, COMMIT_TMEM_COLS);
	if (threadIdx.x == 0 && !tcp_tmem_addr_ok(tbase, COMMIT_TMEM_COLS))
		tcp_tc_trap(p.status, TCP_TC_BAD_TADDR, SITE_TADDR, tbase);
	tcp_sdesc_t sd;
	struct commit_ops o;
	tcp_tile_desc(&p.ta, tcp_smem_u32(smem), 0, &sd);
	tcp_sdesc_encode(&sd, &o.adesc);
	tcp_tile_desc(&p.tb, tcp_smem_u32(smem) + p.b_off, 0, &sd);
	tcp_sdesc_encode(&sd, &o.bdesc);
	o.adesc = tc_pin(o.adesc, &pin.adesc);
	o.bdesc = tc_pin(o.bdesc, &pin.bdesc);
	o.acc = tc_pin(tbase + p.acc_col, &pin.acc);
	o.cp = tc_pin(tbase + p.cp_col, &pin.cp);
	o.idesc = tc_pin(p.idesc, &pin.idesc);
	o.bar = tc_pin(tcp_smem_u32(&bar), &pin.bar);

	if (warp == 0 && rank == 0) {
		if (tcp_elect_one()) {
			unsigned long long t[3];
			/* warm-up, dropped; the first MMA writes D (TMEM is not zeroed) */
			commit_sample<CG, FORM, CAST, 0>(p, o, &bar, &ack, 0, t);
			for (int i = 1; i < COMMIT_WARMUP; i++)
				commit_sample<CG, FORM, CAST, 1>(p, o, &bar, &ack, (unsigned)i & 1u, t);
			for (int i = 0; i < COMMIT_SAMPLES; i++) {
				commit_sample<CG, FORM, CAST, 1>(p, o, &bar, &ack, (unsigned)(i + COMMIT_WARMUP) & 1u, t);
				samp[i][0] = t[0];
				samp[i][1] = t[1];
				samp[i][2] = t[2];
			}
		}
		__syncwarp();
	}
	if constexpr (CG == 2 && CAST == TCP_CAST_MULTICAST) {
		/* The odd CTA sees every completion on its own barrier, then acks. */
		if (warp == 0 && rank == 1) {
			if (tcp_elect_one()) {
				const uint32_t peer_ack = tcp_mapa(&ack, tcp_cluster_rank() ^ 1u);
				for (int i = 0; i < COMMIT_WARMUP + COMMIT_SAMPLES; i++) {
					tcp_mbar_wait(&bar, (unsigned)i & 1u, p.budget, p.status, SITE_PEER);
					tcp_mbar_remote_arrive(peer_ack);
				}
			}
			__syncwarp();
		}
	}
	tc_bar();
	if (rank == 0)	/* samples -> global, outside every timed loop */
		for (unsigned i = threadIdx.x; i < COMMIT_SAMPLES * 3; i += blockDim.x)
			p.rec[(size_t)blockIdx.x * COMMIT_SAMPLES * 3 + i] = samp[i / 3][i % 3];
	tc_tmem_epilogue<CG>(tbase, COMMIT_TMEM_COLS);
}

typedef void (*commit_kern_t)(const struct commit_args);
#define COMMIT_CASTS(CG, F) { commit_kernel<CG, F, TCP_CAST_LOCAL>, commit_kernel<CG, F, TCP_CAST_MULTICAST> }
#define COMMIT_FORMS(CG) { COMMIT_CASTS(CG, FORM_EMPTY), COMMIT_CASTS(CG, FORM_CP), COMMIT_CASTS(CG, FORM_MMA) }
/* [cta_group - 1][form][cast] */
static const commit_kern_t commit_tab[2][FORM_N][2] = { COMMIT_FORMS(1), COMMIT_FORMS(2) };

enum { AX_FORM, AX_CG, AX_CAST, AX_GRID };
static const tcp_axis_t axes[] = {
	{ "form", "what the commit tracks: nothing, one tcgen05.cp, one tcgen05.mma", form_names, "empty,cp,mma" },
	{ "cta_group", "1 or 2 (cluster of 2)", NULL, "[1,2]" },
	{ "cast", "local: the issuer's own barrier; multicast: .multicast::cluster (mask 0b11 pair, 0b1 one CTA)",
	  cast_names, "local,multicast" },
	{ "grid", "1: one CTA (pair) on the GPU; all: one per SM (pair of SMs)", tc_grid_names, "all" },
};

static const tcp_metric_t metrics[] = {
	{ "commit_cycles", "cycles", 0, "commit issue to the local mbarrier phase flip, median over samples and CTAs" },
	{ "commit_min_cycles", "cycles", 0, "commit issue to the phase flip, minimum over samples (median over CTAs)" },
	{ "op_to_flip_cycles", "cycles", 0, "op issue to the phase flip, median" },
	{ "peer_roundtrip_cycles", "cycles", 0, "cta_group::2 multicast: commit to the peer's flip and its ack back" },
};

/* TMEM of one CTA: what the form touches (mma: D, N = 64 f32 columns; cp: one
 * 128x256b copy, 8 columns) in a 128-column allocation. */
static void commit_fp(int form, int cg, tcp_tmem_fp_t *fp, unsigned *acc_col, unsigned *cp_col)
{
	tcp_acc_cfg_t ac = { cg, 128u * (unsigned)cg, 64, 0, 0, 0 };
	tcp_tmem_fp_init(fp);
	*acc_col = *cp_col = 0;
	if (form == FORM_MMA)
		*acc_col = tcp_tmem_fp_append(fp, "acc", tcp_acc_cols(&ac));
	if (form == FORM_CP)
		*cp_col = tcp_tmem_fp_append(fp, "cp", 8);
	fp->alloc = COMMIT_TMEM_COLS;
}

static int commit_legal(const tcp_point_t *p, char *reason, size_t len)
{
	if (p->v[AX_FORM] < 0 || p->v[AX_FORM] >= FORM_N) {
		snprintf(reason, len, "form index %lld out of range", (long long)p->v[AX_FORM]);
		return 0;
	}
	if (p->v[AX_CG] != 1 && p->v[AX_CG] != 2) {
		snprintf(reason, len, "cta_group must be 1 or 2; got %lld", (long long)p->v[AX_CG]);
		return 0;
	}
	if (p->v[AX_CAST] < 0 || p->v[AX_CAST] > 1 || p->v[AX_GRID] < 0 || p->v[AX_GRID] > 1) {
		snprintf(reason, len, "cast / grid index out of range");
		return 0;
	}
	return 1;
}

static int commit_tmem(const tcp_point_t *p, tcp_tmem_fp_t *fp, char *reason, size_t len)
{
	unsigned a, c;
	if (!commit_legal(p, reason, len))
		return -1;
	commit_fp((int)p->v[AX_FORM], (int)p->v[AX_CG], fp, &a, &c);
	return 1;
}

struct commit_state {
	struct commit_args a;
	int cg, form, cast, grid;
	size_t smem;	/* dynamic, unused: keeps one CTA per SM */
	commit_kern_t k;
	unsigned long long *d_rec, *h_rec, *d_status;
	double *tmp, *per_cta;
};

static tcp_status_t commit_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	struct commit_state *s = (struct commit_state *)calloc(1, sizeof(*s));
	tcp_mma_cfg_t cfg;
	tcp_idesc_t id;
	if (!s) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = s;
	tcp_aux_launch_t l;
	if (tc_aux_launch(&tcp_probe_tc_commit, p, c, &l) != TCP_OK)
		return TCP_FAILED;
	s->cg = l.kernel[0];
	s->form = l.kernel[1];
	s->cast = l.kernel[2];
	s->grid = l.grid;
	s->k = commit_tab[s->cg - 1][s->form][s->cast];
	tcp_mma_cfg_default(TCP_KIND_F16, &cfg);
	cfg.cta_group = s->cg;
	cfg.m = 128u * (unsigned)s->cg;
	cfg.n = 64;
	if (!tcp_mma_legal(&cfg, c->reason, TCP_REASON_LEN))
		return TCP_FAILED;
	tcp_mma_to_idesc(&cfg, &id);
	if (tcp_idesc_encode(&id, &s->a.idesc)) {
		snprintf(c->reason, TCP_REASON_LEN, "model/idesc.h cannot encode the f16 MMA");
		return TCP_FAILED;
	}
	tcp_tmem_fp_t fp;
	unsigned acc_col, cp_col;
	commit_fp(s->form, s->cg, &fp, &acc_col, &cp_col);
	s->a.acc_col = acc_col;
	s->a.cp_col = cp_col;
	s->a.ta = (tcp_tile_t){ TCP_SW_NONE, TCP_MAJOR_K, 16, 0, 128, 16 };
	s->a.tb = (tcp_tile_t){ TCP_SW_NONE, TCP_MAJOR_K, 16, 0, 64 / (unsigned)s->cg, 16 };
	s->a.b_off = tcp_tile_bytes(&s->a.ta);
	if (tcp_tile_check(&s->a.ta) || tcp_tile_check(&s->a.tb) || s->a.b_off + tcp_tile_bytes(&s->a.tb) > 8192) {
		snprintf(c->reason, TCP_REASON_LEN, "model/smem-layout.h rejects the commit probe's tiles");
		return TCP_FAILED;
	}
	s->a.budget = tc_budget(c);
	s->smem = tc_exclusive_smem(c, 0, 8192 + 1024);
	size_t nrec = (size_t)s->grid * COMMIT_SAMPLES * 3;
	tcp_status_t st = tc_recs_alloc(c, nrec, (size_t)COMMIT_SAMPLES, &s->d_rec, &s->h_rec, &s->tmp, &s->d_status);
	if (st != TCP_OK)
		return st;
	s->per_cta = (double *)calloc((size_t)s->grid, sizeof(double));
	if (!s->per_cta) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	s->a.rec = s->d_rec;
	s->a.status = s->d_status;
	c->issued_tensor_insts =
		s->form == FORM_MMA ? (double)(COMMIT_WARMUP + COMMIT_SAMPLES) * (s->grid / s->cg) : -1;
	return TCP_OK;
}

/* Per issuing CTA: median (or minimum) over its samples of metric m; then the median. */
static double commit_stat(struct commit_state *s, int m, int use_min)
{
	int n = 0;
	for (int cta = 0; cta < s->grid; cta += s->cg) {
		const unsigned long long *r = s->h_rec + (size_t)cta * COMMIT_SAMPLES * 3;
		double mn = INFINITY;
		for (int i = 0; i < COMMIT_SAMPLES; i++) {
			s->tmp[i] = (double)r[i * 3 + m];
			mn = fmin(mn, s->tmp[i]);
		}
		s->per_cta[n++] = use_min ? mn : tc_median(s->tmp, COMMIT_SAMPLES);
	}
	return tc_median(s->per_cta, n);
}

static tcp_status_t commit_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct commit_state *s = (struct commit_state *)state;
	TCP_CUDA_TRY(c, cudaFuncSetAttribute((const void *)s->k, cudaFuncAttributeMaxDynamicSharedMemorySize,
					     (int)s->smem));
	TCP_CUDA_TRY(c, cudaMemset(s->d_rec, 0, (size_t)s->grid * COMMIT_SAMPLES * 3 * sizeof(*s->d_rec)));
	tcp_status_t st = tc_launch_cluster(c, (const void *)s->k, s->grid, 128, s->smem, s->cg, &s->a);
	if (st == TCP_OK)
		st = tc_check_status(c, s->d_status, sites, TC_NELEM(sites));
	if (st != TCP_OK)
		return st;
	TCP_CUDA_TRY(c, cudaMemcpy(s->h_rec, s->d_rec, (size_t)s->grid * COMMIT_SAMPLES * 3 * sizeof(*s->h_rec),
				   cudaMemcpyDeviceToHost));
	out->v[0] = commit_stat(s, 0, 0);
	out->v[1] = commit_stat(s, 0, 1);
	out->v[2] = commit_stat(s, 1, 0);
	out->v[3] = s->cg == 2 && s->cast == TCP_CAST_MULTICAST ? commit_stat(s, 2, 0) : NAN;
	return TCP_OK;
}

static void commit_teardown(void *state)
{
	struct commit_state *s = (struct commit_state *)state;
	if (!s)
		return;
	tc_recs_free(s->d_rec, s->h_rec, s->tmp, s->d_status);
	free(s->per_cta);
	free(s);
}

extern "C" const tcp_probe_t tcp_probe_tc_commit = {
	.name = "tc_commit",
	.family = "tcgen05.commit",
	.help = "tcgen05.commit -> mbarrier delay: empty, after cp, after mma; local vs multicast; one CTA or all SMs",
	.arch = TCP_ARCH_TCGEN05,
	.axes = axes,
	.naxes = TC_NELEM(axes),
	.metrics = metrics,
	.nmetrics = TC_NELEM(metrics),
	.legal = commit_legal,
	.setup = commit_setup,
	.validate = NULL,
	.run = commit_run,
	.teardown = commit_teardown,
	.unsupported_reason = NULL,
	.tmem = commit_tmem,
};
