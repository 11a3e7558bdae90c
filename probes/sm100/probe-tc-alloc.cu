/*
 * probe-tc-alloc.cu
 *	TMEM allocation (tcgen05.alloc / dealloc / relinquish_alloc_permit):
 *	latency by column count, and what co-resident CTAs asking for the 512
 *	columns of an SM wait for.
 *
 *	Every CTA is one warp: alloc `ncols`, hold them `hold_cycles`, free
 *	them.  `ctas_per_sm` x SMs CTAs are launched, each asking for
 *	1/ctas_per_sm of the shared memory so that no more than that many share
 *	an SM.  When ctas_per_sm x ncols > 512 a later allocation cannot be
 *	satisfied until an earlier CTA frees its columns; ctas_per_sm x ncols
 *	<= 512 is the control that should show no wait.
 *
 *	relinquish = when each CTA gives up its allocation permit
 *	(tcgen05.relinquish_alloc_permit):
 *	  early  right after its alloc, before the hold (ThunderKittens
 *	         include/types/tensor/tensor.cuh provision(); NVIDIA Fuser's
 *	         tensor_memory.h, NVIDIA/Fuser#3795: CTAs are not serialized)
 *	  late   after the hold, just before dealloc (CUTLASS
 *	         gemm/kernel/sm100_gemm_tma_warpspecialized.hpp:
 *	         release_allocation_lock() "so that the next CTA can rasterize",
 *	         then free)
 *	The hypothesis to test (tcgen05-facts.md s.7): the permit, not the
 *	columns, serializes CTAs.  Each CTA records %globaltimer at kernel
 *	entry, so the two are told apart: if the permit gates launch, late
 *	relinquish shows a large entry spread between the CTAs of one SM and
 *	small alloc waits; if alloc blocks on columns, the CTAs enter together
 *	and the later allocs wait (alloc_max_cycles ~ (k - 1) x hold); early
 *	relinquish and the k x ncols <= 512 control separate the two.
 *	scripts/ci/check-sass.sh checks that the early variant's relinquish
 *	precedes its hold loop.
 *
 *	It cannot deadlock: no CTA waits for anything while it holds columns
 *	(the hold is a clock64 spin of a fixed length), so every blocked alloc
 *	is released within (ctas_per_sm - 1) x hold; the supervisor's timeout
 *	is the last guard (tcgen05.alloc has no bounded form).  The address
 *	each alloc returns is checked (lane 0, aligned to ncols, inside 512):
 *	a bad one traps with the address in the status word (INVALID).
 *
 *	Metrics (cycles, SM clock64; ns, %globaltimer):
 *	  alloc_cycles       median over CTAs, issue to address readable
 *	  alloc_max_cycles   max over CTAs (the contention wait)
 *	  dealloc_cycles     median over CTAs
 *	  relinquish_cycles  median over CTAs
 *	  entry_spread_ns    per SM, last minus first CTA's kernel entry; median over SMs
 *	  entry_spread_max_ns  the same, max over SMs
 *	  sm_ctas_min/max    CTAs an SM ran (the records' %smid)
 *	  placement_differs  1 when the CTAs did not sit ctas_per_sm to an SM:
 *	                     the contention the point names did not happen
 */
#include "probes/sm100/tc-common.cuh"

/* When the permit is given up; the enum type names the template argument in the
 * kernel's symbol, which is how scripts/ci/check-sass.sh finds the early variant. */
enum tc_relinquish_t { TC_RELINQUISH_EARLY = 0, TC_RELINQUISH_LATE = 1 };

extern "C" const tcp_probe_t tcp_probe_tc_alloc;

enum { SITE_TADDR = 0 };
static const char *const sites[] = { "tcgen05.alloc result" };
static const char *const relinquish_names[] = { "early", "late", NULL };

/* Per CTA: alloc, dealloc, relinquish cycles, entry time, returned address, SM. */
struct alloc_rec {
	unsigned long long t_alloc, t_dealloc, t_relinq, entry_ns;
	unsigned taddr, smid;
};

template <tc_relinquish_t REL>
static __global__ void __launch_bounds__(32) alloc_kernel(unsigned ncols, unsigned long long hold,
							   struct alloc_rec *out, unsigned long long *status)
{
	__shared__ uint32_t slot;
	const unsigned long long entry = tcp_globaltimer();
	unsigned long long t0, t1, t2, t3, tr0, tr1;

	slot = 0xffffffffu;
	__syncwarp();
	t0 = tcp_clock64();
	uint32_t taddr = tcp_tmem_alloc<1>(&slot, ncols);	/* reads the smem result */
	t1 = tcp_clock64();
	if (!tcp_tmem_addr_ok(taddr, ncols) && (threadIdx.x & 31) == 0)
		tcp_tc_trap(status, TCP_TC_BAD_TADDR, SITE_TADDR, taddr);
	if constexpr (REL == TC_RELINQUISH_EARLY) {
		tr0 = tcp_clock64();
		tcp_tmem_relinquish<1>();
		__syncwarp();
		tr1 = tcp_clock64();
	}
	while (tcp_clock64() - t1 < hold)	/* hold the columns; waits on nothing */
		;
	__syncwarp();	/* relinquish / dealloc are .sync.aligned: the whole warp, converged */
	if constexpr (REL == TC_RELINQUISH_LATE) {
		tr0 = tcp_clock64();
		tcp_tmem_relinquish<1>();
		__syncwarp();
		tr1 = tcp_clock64();
	}
	tcp_tc_fence_before();
	t2 = tcp_clock64();
	tcp_tmem_dealloc<1>(taddr, ncols);
	__syncwarp();
	t3 = tcp_clock64();
	if (threadIdx.x == 0) {
		struct alloc_rec r = { t1 - t0, t3 - t2, tr1 - tr0, entry, taddr, tcp_smid() };
		out[blockIdx.x] = r;
	}
}

enum { AX_NCOLS, AX_K, AX_HOLD, AX_REL };
static const tcp_axis_t axes[] = {
	{ "ncols", "TMEM columns per allocation (power of two, 32..512)", NULL, "[32,64,128,256,512]" },
	{ "ctas_per_sm", "co-resident one-warp CTAs per SM contending for 512 columns", NULL, "[1,2,4,8]" },
	{ "hold_cycles", "cycles each CTA holds its columns before dealloc", NULL, "[0,2000]" },
	{ "relinquish", "give up the alloc permit right after alloc (early) or just before dealloc (late)",
	  relinquish_names, "early,late" },
};

static const tcp_metric_t metrics[] = {
	{ "alloc_cycles", "cycles", 0, "tcgen05.alloc issue to address readable, median over CTAs; ptxas builds alloc as "
	  "software (a UTCATOMSWS.FIND_AND_SET retry loop with NANOSLEEP and shared-memory bookkeeping: the run's "
	  "sass_compiler), so this times that loop" },
	{ "alloc_max_cycles", "cycles", 0, "slowest alloc over CTAs (waits for freed columns, quantized by the retry "
	  "loop's NANOSLEEP, about 100 ns)", TCP_ROLE_AUTO, 200 },	/* one sleep at ~2 GHz: compare's least band */
	{ "dealloc_cycles", "cycles", 0, "tcgen05.dealloc (UTCATOMSWS.AND, software), median over CTAs" },
	{ "relinquish_cycles", "cycles", 0, "tcgen05.relinquish_alloc_permit (UVIRTCOUNT.DEALLOC.SMPOOL), median over CTAs" },
	/* launch serialization and placement: what the point's launch did, not a speed (shown, not gated) */
	{ "entry_spread_ns", "ns", 0, "per SM: last CTA's kernel entry minus the first's (%globaltimer), median over SMs",
	  TCP_ROLE_INFO },
	{ "entry_spread_max_ns", "ns", 0, "per SM entry spread, max over SMs (launch serialization)", TCP_ROLE_INFO },
	{ "sm_ctas_min", "ctas", 0, "fewest CTAs any SM ran (grouped by %smid; the SMs that ran none are not counted)",
	  TCP_ROLE_INFO },
	{ "sm_ctas_max", "ctas", 0, "most CTAs any SM ran", TCP_ROLE_INFO },
	{ "placement_differs", "flag", 0, "1 when an SM ran a number of CTAs other than ctas_per_sm, or fewer SMs than "
	  "planned ran them: the contention this point names did not happen as planned", TCP_ROLE_INFO },
};

static int alloc_legal(const tcp_point_t *p, char *reason, size_t len)
{
	long long nc = p->v[AX_NCOLS], k = p->v[AX_K], h = p->v[AX_HOLD];
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
	if (p->v[AX_REL] < 0 || p->v[AX_REL] > 1) {
		snprintf(reason, len, "relinquish index %lld out of range (early, late)", (long long)p->v[AX_REL]);
		return 0;
	}
	return 1;
}

/* TMEM: each CTA holds its `ncols` columns, all lanes (nothing else). */
static int alloc_tmem(const tcp_point_t *p, tcp_tmem_fp_t *fp, char *reason, size_t len)
{
	if (!alloc_legal(p, reason, len))
		return -1;
	tcp_tmem_fp_append(fp, "held", (unsigned)p->v[AX_NCOLS]);
	fp->alloc = (unsigned)p->v[AX_NCOLS];
	return 1;
}

typedef void (*alloc_kern_t)(unsigned, unsigned long long, struct alloc_rec *, unsigned long long *);
static const alloc_kern_t alloc_tab[2] = { alloc_kernel<TC_RELINQUISH_EARLY>, alloc_kernel<TC_RELINQUISH_LATE> };

struct alloc_state {
	unsigned ncols;
	unsigned long long hold;
	int ctas, k;
	alloc_kern_t kern;
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
	tcp_aux_launch_t l;
	if (tc_aux_launch(&tcp_probe_tc_alloc, p, c, &l) != TCP_OK)
		return TCP_FAILED;
	s->kern = alloc_tab[l.kernel[0]];
	s->ctas = l.grid;
	s->ncols = (unsigned)l.arg[0];
	s->hold = (unsigned long long)l.arg[1];
	s->k = (int)p->v[AX_K];
	/* optin / k - 1 KiB each (1 KiB is the per-CTA reservation): k fit, k + 1 do not. */
	s->smem = c->smem_per_block_optin > 0 ? (size_t)c->smem_per_block_optin / (size_t)s->k : 0;
	s->smem = s->smem > 2048 ? s->smem - 1024 - 64 : 0;
	tcp_status_t st = tc_recs_alloc(c, (size_t)s->ctas, (size_t)s->ctas, &s->d_rec, &s->h_rec, &s->tmp,
					&s->d_status);
	if (st != TCP_OK)
		return st;
	c->issued_tensor_insts = -1;
	return TCP_OK;
}

static int rec_by_sm(const void *a, const void *b)
{
	const struct alloc_rec *x = (const struct alloc_rec *)a, *y = (const struct alloc_rec *)b;
	return x->smid != y->smid ? (x->smid < y->smid ? -1 : 1) : (x->entry_ns > y->entry_ns) - (x->entry_ns < y->entry_ns);
}

static tcp_status_t alloc_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct alloc_state *s = (struct alloc_state *)state;
	TCP_CUDA_TRY(c, cudaFuncSetAttribute((const void *)s->kern, cudaFuncAttributeMaxDynamicSharedMemorySize,
					     (int)s->smem));
	s->kern<<<s->ctas, 32, s->smem>>>(s->ncols, s->hold, s->d_rec, s->d_status);
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
	/* Entry spread per SM: group the records by SM (sorted by entry time). */
	qsort(s->h_rec, (size_t)s->ctas, sizeof(*s->h_rec), rec_by_sm);
	int nsm = 0, cmin = s->ctas, cmax = 0;
	mx = 0;
	for (int i = 0; i < s->ctas;) {
		int j = i;
		while (j + 1 < s->ctas && s->h_rec[j + 1].smid == s->h_rec[i].smid)
			j++;
		s->tmp[nsm] = (double)(s->h_rec[j].entry_ns - s->h_rec[i].entry_ns);
		mx = fmax(mx, s->tmp[nsm]);
		cmin = j + 1 - i < cmin ? j + 1 - i : cmin;
		cmax = j + 1 - i > cmax ? j + 1 - i : cmax;
		nsm++;
		i = j + 1;
	}
	out->v[4] = tc_median(s->tmp, nsm);
	out->v[5] = mx;
	out->v[6] = cmin;
	out->v[7] = cmax;
	out->v[8] = cmin != s->k || cmax != s->k || nsm * s->k != s->ctas;
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
	.help = "TMEM alloc/dealloc/relinquish latency; CTAs contending for 512 columns, permit early/late, entry times",
	.arch = TCP_ARCH_TCGEN05,
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
	.tmem = alloc_tmem,
};
