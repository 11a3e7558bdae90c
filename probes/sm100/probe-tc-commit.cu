/*
 * probe-tc-commit.cu
 *	tcgen05.commit -> mbarrier delay on its own: commit with nothing
 *	outstanding, after one tcgen05.cp (128x256b), after one tcgen05.mma
 *	(kind::f16, M = 128 per CTA, N = 64); cta_group::1, cta_group::2 to the
 *	issuer's own barrier, and cta_group::2 multicast to both CTAs of the pair.
 *	The operands are zeros: the MMA and cp here are only something for the
 *	commit to track (their results are checked by tc_mma_* and tc_cp).
 *
 *	Per rep, in the issuing thread: t0 [op] t1 commit ... phase flip t2.
 *	Multicast: the peer CTA waits on its copy of the barrier and arrives
 *	remotely on an ack barrier of the issuer: t3 = when the issuer sees it.
 *
 *	Metrics (mean over 32 reps, median over SMs / pairs):
 *	  commit_cycles         t2 - t1: commit issue to the local phase flip
 *	  op_to_flip_cycles     t2 - t0: op issue to the phase flip
 *	  peer_roundtrip_cycles t3 - t1: multicast only (NAN otherwise)
 */
#include "probes/sm100/tc-common.cuh"
#include "model/legal.h"
#include "model/smem-layout.h"

#define COMMIT_REPS 32

enum { FORM_EMPTY = 0, FORM_CP, FORM_MMA };
enum { SITE_OWN = 0, SITE_PEER, SITE_ACK };
static const char *const sites[] = { "commit -> own mbarrier", "multicast commit -> peer mbarrier",
				     "peer ack (remote mbarrier arrive)" };
static const char *const form_names[] = { "empty", "cp", "mma", NULL };
static const char *const cast_names[] = { "local", "multicast", NULL };

struct commit_args {
	tcp_tile_t ta, tb;
	uint32_t b_off, idesc;
	int form, multicast;
	unsigned long long budget;
	unsigned long long *rec;	/* [cta][3]: sums of commit, op->flip, roundtrip */
	unsigned long long *status;
};

static __device__ __forceinline__ void remote_arrive(uint32_t cluster_addr)
{
	asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(cluster_addr) : "memory");
}

template <int CG>
static __global__ void __launch_bounds__(128) commit_kernel(const struct commit_args p)
{
	__shared__ __align__(1024) uint8_t smem[8192];
	__shared__ uint64_t bar, ack;
	__shared__ uint32_t slot;
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
	if (warp == 0)
		tcp_tmem_alloc<CG>(&slot, 128);
	tc_sync_all<CG>();
	const uint32_t tbase = slot;
	tcp_sdesc_t sd;
	uint64_t adesc = 0, bdesc = 0;
	tcp_tile_desc(&p.ta, tcp_smem_u32(smem), 0, &sd);
	tcp_sdesc_encode(&sd, &adesc);
	tcp_tile_desc(&p.tb, tcp_smem_u32(smem) + p.b_off, 0, &sd);
	tcp_sdesc_encode(&sd, &bdesc);

	if (warp == 0 && rank == 0) {
		if (tcp_elect_one()) {
			unsigned long long s_commit = 0, s_flip = 0, s_rt = 0;
			for (int i = 0; i < COMMIT_REPS; i++) {
				unsigned long long t0 = tcp_clock64();
				if (p.form == FORM_CP)
					tcp_tc_cp<CG, TCP_CP_128X256B, 0>(tbase + 64, adesc);
				else if (p.form == FORM_MMA)
					tcp_tc_mma<CG, TCP_KIND_F16, 0, 1>(tbase, adesc, bdesc, p.idesc, 0, 0, 0);
				unsigned long long t1 = tcp_clock64();
				if (CG == 1)
					tcp_tc_commit1(&bar);
				else if (p.multicast)
					tcp_tc_commit2_mc(&bar, 0x3);
				else
					tcp_tc_commit2(tcp_mapa(&bar, tcp_cluster_rank()));
				if (!tcp_mbar_wait(&bar, (unsigned)i & 1u, p.budget, p.status, SITE_OWN))
					break;
				unsigned long long t2 = tcp_clock64();
				if (CG == 2 && p.multicast) {
					if (!tcp_mbar_wait(&ack, (unsigned)i & 1u, p.budget, p.status, SITE_ACK))
						break;
					s_rt += tcp_clock64() - t1;
				}
				s_commit += t2 - t1;
				s_flip += t2 - t0;
			}
			p.rec[blockIdx.x * 3 + 0] = s_commit;
			p.rec[blockIdx.x * 3 + 1] = s_flip;
			p.rec[blockIdx.x * 3 + 2] = s_rt;
		}
		__syncwarp();
	} else if (CG == 2 && rank == 1 && p.multicast && warp == 0) {
		if (tcp_elect_one()) {
			uint32_t peer_ack = tcp_mapa(&ack, tcp_cluster_rank() ^ 1u);
			for (int i = 0; i < COMMIT_REPS; i++) {
				if (!tcp_mbar_wait(&bar, (unsigned)i & 1u, p.budget, p.status, SITE_PEER))
					break;
				remote_arrive(peer_ack);
			}
		}
		__syncwarp();
	}
	tc_sync_all<CG>();
	if (warp == 0) {
		tcp_tmem_dealloc<CG>(tbase, 128);
		tcp_tmem_relinquish<CG>();
	}
	if (CG == 2)
		tcp_cluster_sync();
}

static const tcp_axis_t axes[] = {
	{ "form", "what the commit tracks: nothing, one tcgen05.cp, one tcgen05.mma", form_names, "empty,cp,mma" },
	{ "cta_group", "1 or 2 (cluster of 2)", NULL, "[1,2]" },
	{ "cast", "local: the issuer's barrier; multicast: both CTAs of the pair (cta_group::2)", cast_names,
	  "local,multicast" },
};

static const tcp_metric_t metrics[] = {
	{ "commit_cycles", "cycles", 0, "commit issue to the local mbarrier phase flip" },
	{ "op_to_flip_cycles", "cycles", 0, "op issue to the phase flip" },
	{ "peer_roundtrip_cycles", "cycles", 0, "multicast: commit to the peer's flip and its ack back" },
};

static int commit_legal(const tcp_point_t *p, char *reason, size_t len)
{
	if (p->v[1] != 1 && p->v[1] != 2) {
		snprintf(reason, len, "cta_group must be 1 or 2; got %lld", (long long)p->v[1]);
		return 0;
	}
	if (p->v[2] == 1 && p->v[1] != 2) {
		snprintf(reason, len, "multicast commit needs cta_group::2 (a CTA pair)");
		return 0;
	}
	return 1;
}

struct commit_state {
	struct commit_args a;
	int cg, grid;
	size_t smem;	/* dynamic, unused: keeps one CTA per SM */
	unsigned long long *d_rec, *h_rec, *d_status;
	double *tmp;
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
	s->cg = (int)p->v[1];
	s->a.form = (int)p->v[0];
	s->a.multicast = (int)p->v[2];
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
	s->a.ta = (tcp_tile_t){ TCP_SW_NONE, TCP_MAJOR_K, 16, 0, 128, 16 };
	s->a.tb = (tcp_tile_t){ TCP_SW_NONE, TCP_MAJOR_K, 16, 0, 64 / (unsigned)s->cg, 16 };
	s->a.b_off = tcp_tile_bytes(&s->a.ta);
	if (tcp_tile_check(&s->a.ta) || tcp_tile_check(&s->a.tb) || s->a.b_off + tcp_tile_bytes(&s->a.tb) > 8192) {
		snprintf(c->reason, TCP_REASON_LEN, "model/smem-layout.h rejects the commit probe's tiles");
		return TCP_FAILED;
	}
	s->a.budget = tc_budget(c);
	s->smem = tc_exclusive_smem(c, 0, 8192 + 1024);
	s->grid = c->sm_count - (s->cg == 2 ? c->sm_count % 2 : 0);
	tcp_status_t st = tc_recs_alloc(c, (size_t)s->grid * 3, (size_t)s->grid, &s->d_rec, &s->h_rec, &s->tmp,
					&s->d_status);
	if (st != TCP_OK)
		return st;
	s->a.rec = s->d_rec;
	s->a.status = s->d_status;
	c->issued_tensor_insts = s->a.form == FORM_MMA ? (double)COMMIT_REPS * s->grid / s->cg : -1;
	return TCP_OK;
}

static tcp_status_t commit_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct commit_state *s = (struct commit_state *)state;
	cudaLaunchConfig_t lc = {};
	cudaLaunchAttribute at[1] = {};
	lc.gridDim = dim3((unsigned)s->grid);
	lc.blockDim = dim3(128);
	lc.dynamicSmemBytes = s->smem;
	at[0].id = cudaLaunchAttributeClusterDimension;
	at[0].val.clusterDim.x = (unsigned)s->cg;
	at[0].val.clusterDim.y = 1;
	at[0].val.clusterDim.z = 1;
	lc.attrs = at;
	lc.numAttrs = 1;
	TCP_CUDA_TRY(c, cudaFuncSetAttribute((const void *)(s->cg == 1 ? commit_kernel<1> : commit_kernel<2>),
					     cudaFuncAttributeMaxDynamicSharedMemorySize, (int)s->smem));
	TCP_CUDA_TRY(c, cudaMemset(s->d_rec, 0, (size_t)s->grid * 3 * sizeof(*s->d_rec)));
	if (s->cg == 1)
		TCP_CUDA_TRY(c, cudaLaunchKernelEx(&lc, commit_kernel<1>, s->a));
	else
		TCP_CUDA_TRY(c, cudaLaunchKernelEx(&lc, commit_kernel<2>, s->a));
	tcp_status_t st = tc_check_status(c, s->d_status, sites, TC_NELEM(sites));
	if (st != TCP_OK)
		return st;
	TCP_CUDA_TRY(c, cudaMemcpy(s->h_rec, s->d_rec, (size_t)s->grid * 3 * sizeof(*s->h_rec),
				   cudaMemcpyDeviceToHost));
	for (int m = 0; m < 3; m++) {
		int n = 0;
		for (int i = 0; i < s->grid; i += s->cg)
			s->tmp[n++] = (double)s->h_rec[i * 3 + m] / COMMIT_REPS;
		out->v[m] = tc_median(s->tmp, n);
	}
	if (!(s->cg == 2 && s->a.multicast))
		out->v[2] = NAN;
	return TCP_OK;
}

static void commit_teardown(void *state)
{
	struct commit_state *s = (struct commit_state *)state;
	if (!s)
		return;
	tc_recs_free(s->d_rec, s->h_rec, s->tmp, s->d_status);
	free(s);
}

extern "C" const tcp_probe_t tcp_probe_tc_commit = {
	.name = "tc_commit",
	.family = "tcgen05.commit",
	.help = "tcgen05.commit -> mbarrier delay: empty, after cp, after mma; local vs multicast (cta_group::2)",
	.arch = TCP_ARCH_SM100A,
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
};
