/*
 * probe-tc-alloc.cu
 *	TMEM allocation (tcgen05.alloc / dealloc / relinquish_alloc_permit):
 *	latency by column count, and co-resident CTAs contending for the 512
 *	columns of an SM.
 *
 *	Every CTA is one warp: alloc `ncols`, hold them `hold_cycles`, dealloc,
 *	relinquish.  `ctas_per_sm` x SMs CTAs are launched, each asking for
 *	1/ctas_per_sm of the shared memory so that no more than that many share
 *	an SM; when
 *	ctas_per_sm x ncols > 512 the later allocations block in hardware until
 *	an earlier CTA frees its columns: that wait is what alloc_max_cycles
 *	shows.  It can never deadlock: no CTA waits for anything while it holds
 *	columns (the hold is a clock64 spin of a fixed length), so every
 *	blocked alloc is released within (ctas_per_sm - 1) x hold.  The address
 *	each alloc returns is checked (lane 0, aligned to ncols, inside 512):
 *	a bad one marks the point INVALID.  The host supervisor's timeout is the
 *	last guard.
 *
 *	Metrics (cycles, SM clock64):
 *	  alloc_cycles       median over CTAs, issue to address readable
 *	  alloc_max_cycles   max over CTAs (the contention wait)
 *	  dealloc_cycles     median over CTAs
 *	  relinquish_cycles  median over CTAs
 */
#include "probes/sm100/tc-common.cuh"

enum { SITE_NONE = 0 };
static const char *const sites[] = { "none" };

/* Per CTA: alloc, dealloc, relinquish cycles, returned address. */
struct alloc_rec {
	unsigned long long t_alloc, t_dealloc, t_relinq;
	unsigned taddr, smid;
};

static __global__ void __launch_bounds__(32) alloc_kernel(unsigned ncols, unsigned long long hold,
							   struct alloc_rec *out,
							   unsigned long long *status)
{
	__shared__ uint32_t slot;
	unsigned long long t0, t1, t2, t3, t4;

	slot = 0xffffffffu;
	__syncwarp();
	t0 = tcp_clock64();
	uint32_t taddr = tcp_tmem_alloc<1>(&slot, ncols);	/* reads the smem result */
	t1 = tcp_clock64();
	if (!tcp_tmem_addr_ok(taddr, ncols) && (threadIdx.x & 31) == 0)
		tcp_tc_fail(status, TCP_TC_BAD_TADDR, SITE_NONE, taddr);
	while (tcp_clock64() - t1 < hold)	/* hold the columns; waits on nothing */
		;
	__syncwarp();	/* dealloc is .sync.aligned: the whole warp, converged */
	tcp_tc_fence_before();
	t2 = tcp_clock64();
	tcp_tmem_dealloc<1>(taddr, ncols);
	__syncwarp();
	t3 = tcp_clock64();
	tcp_tmem_relinquish<1>();
	__syncwarp();
	t4 = tcp_clock64();
	if (threadIdx.x == 0) {
		struct alloc_rec r = { t1 - t0, t3 - t2, t4 - t3, taddr, tcp_smid() };
		out[blockIdx.x] = r;
	}
}

static const tcp_axis_t axes[] = {
	{ "ncols", "TMEM columns per allocation (power of two, 32..512)", NULL, "[32,64,128,256,512]" },
	{ "ctas_per_sm", "co-resident one-warp CTAs per SM contending for 512 columns", NULL, "[1,2,4,8]" },
	{ "hold_cycles", "cycles each CTA holds its columns before dealloc", NULL, "[0,2000]" },
};

static const tcp_metric_t metrics[] = {
	{ "alloc_cycles", "cycles", 0, "tcgen05.alloc issue to address readable, median over CTAs" },
	{ "alloc_max_cycles", "cycles", 0, "slowest alloc over CTAs (waits for freed columns)" },
	{ "dealloc_cycles", "cycles", 0, "tcgen05.dealloc, median over CTAs" },
	{ "relinquish_cycles", "cycles", 0, "tcgen05.relinquish_alloc_permit, median over CTAs" },
};

static int alloc_legal(const tcp_point_t *p, char *reason, size_t len)
{
	long long nc = p->v[0], k = p->v[1], h = p->v[2];
	if (nc < 32 || nc > 512 || tcp_tmem_alloc_cols((unsigned)nc) != (unsigned)nc) {
		snprintf(reason, len, "ncols must be a power of two in [32, 512] (model/tmem.h); got %lld", nc);
		return 0;
	}
	if (k < 1 || k > 32) {
		snprintf(reason, len, "ctas_per_sm must be in [1, 32] (resident CTAs per SM); got %lld", k);
		return 0;
	}
	if (h < 0 || h > 100000000) {
		snprintf(reason, len, "hold_cycles must be in [0, 1e8]; got %lld", h);
		return 0;
	}
	return 1;
}

struct alloc_state {
	unsigned ncols;
	unsigned long long hold;
	int ctas;
	size_t smem;	/* dynamic, unused: at most ctas_per_sm CTAs fit on one SM */
	struct alloc_rec *d_rec, *h_rec;
	unsigned long long *d_status;
	double *tmp;
};

static tcp_status_t alloc_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	struct alloc_state *s = (struct alloc_state *)calloc(1, sizeof(*s));
	if (!s) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = s;
	s->ncols = (unsigned)p->v[0];
	s->ctas = (int)p->v[1] * c->sm_count;
	s->hold = (unsigned long long)p->v[2];
	/* optin / k - 1 KiB each (1 KiB is the per-CTA reservation): k fit, k + 1 do not. */
	s->smem = c->smem_per_block_optin > 0 ? (size_t)c->smem_per_block_optin / (size_t)p->v[1] : 0;
	s->smem = s->smem > 2048 ? s->smem - 1024 - 64 : 0;
	tcp_status_t st = tc_recs_alloc(c, (size_t)s->ctas, (size_t)s->ctas, &s->d_rec, &s->h_rec, &s->tmp,
					&s->d_status);
	if (st != TCP_OK)
		return st;
	c->issued_tensor_insts = -1;
	return TCP_OK;
}

static tcp_status_t alloc_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct alloc_state *s = (struct alloc_state *)state;
	TCP_CUDA_TRY(c, cudaFuncSetAttribute((const void *)alloc_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
					     (int)s->smem));
	alloc_kernel<<<s->ctas, 32, s->smem>>>(s->ncols, s->hold, s->d_rec, s->d_status);
	tcp_status_t st = tc_check_status(c, s->d_status, sites, TC_NELEM(sites));
	if (st != TCP_OK)
		return st;
	TCP_CUDA_TRY(c, cudaMemcpy(s->h_rec, s->d_rec, (size_t)s->ctas * sizeof(*s->h_rec),
				   cudaMemcpyDeviceToHost));
	double mx = 0;
	for (int i = 0; i < s->ctas; i++) {
		s->tmp[i] = (double)s->h_rec[i].t_alloc;
		mx = fmax(mx, s->tmp[i]);
	}
	out->v[0] = tc_median(s->tmp, s->ctas);
	out->v[1] = mx;
	for (int i = 0; i < s->ctas; i++)
		s->tmp[i] = (double)s->h_rec[i].t_dealloc;
	out->v[2] = tc_median(s->tmp, s->ctas);
	for (int i = 0; i < s->ctas; i++)
		s->tmp[i] = (double)s->h_rec[i].t_relinq;
	out->v[3] = tc_median(s->tmp, s->ctas);
	return TCP_OK;
}

static void alloc_teardown(void *state)
{
	struct alloc_state *s = (struct alloc_state *)state;
	if (!s)
		return;
	tc_recs_free(s->d_rec, s->h_rec, s->tmp, s->d_status);
	free(s);
}

extern "C" const tcp_probe_t tcp_probe_tc_alloc = {
	.name = "tc_alloc",
	.family = "tcgen05.alloc",
	.help = "TMEM alloc/dealloc/relinquish latency by columns; CTAs contending for 512 columns",
	.arch = TCP_ARCH_SM100A,
	.axes = axes,
	.naxes = TC_NELEM(axes),
	.metrics = metrics,
	.nmetrics = TC_NELEM(metrics),
	.legal = alloc_legal,
	.setup = alloc_setup,
	.validate = NULL,
	.run = alloc_run,
	.teardown = alloc_teardown,
	.unsupported_reason = NULL,
};
