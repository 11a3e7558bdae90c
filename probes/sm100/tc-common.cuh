/*
 * tc-common.cuh
 *	Plumbing every sm_100a probe file shares (static, included by each
 *	probe-tc-*.cu): the wait budget, the device status word and its
 *	turning into TCP_TIMEOUT / TCP_FAILED with a reason, per-CTA cycle
 *	reductions, record buffers; on the device, the CTA (pair) barrier
 *	around TMEM allocation.  Nothing here is exported.
 */
#ifndef TCP_TC_COMMON_CUH
#define TCP_TC_COMMON_CUH

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "probes/common/tcgen05.cuh"
#include "probes/sm100/tc-aux.h"

/*
 * TC_UNROLL: `#pragma unroll` on a loop of TMEM accesses in release objects
 * (constant operands, registers indexed by constants); `unroll 1` in the
 * check builds (make DEBUG=1 / TMEMCHECK=1, TCP_CHECK_BUILD: never timed,
 * local memory allowed), where ptxas -G or the TMEM access check on the
 * unrolled loops of every instantiation takes minutes per file.
 */
#if TCP_CHECK_BUILD
#define TC_UNROLL _Pragma("unroll 1")
#else
#define TC_UNROLL _Pragma("unroll")
#endif

/* A CTA barrier (bar.sync 0).  In the emulation build the checker counts it
 * and passes observations across it, as tc_sync_all does. */
static __device__ __forceinline__ void tc_bar(void)
{
#if TCP_TC_EMU_DEVICE
	tcp_emu_bar_publish();
	__syncthreads();
	tcp_emu_bar_take(0);
#else
	__syncthreads();
#endif
}

/* Every thread of the CTA (both CTAs of a cta_group::2 pair) meets here,
 * tcgen05 operations before it ordered before those after it (the TMEM
 * address written by tcgen05.alloc, accumulators, ...): fence::before,
 * barrier, fence::after (facts s.6, s.9).  `after` = false leaves out the
 * fence::after: only the emulation build's planted defect no_fence_after. */
template <int CG>
static __device__ __forceinline__ void tc_sync_all(bool after = true)
{
	tcp_tc_fence_before();
	tc_bar();
	if constexpr (CG == 2)
		tcp_cluster_sync();
	if (after)
		tcp_tc_fence_after();
}

/*
 * tc_tmem_prologue<CG>(slot, ncols)
 *	Every thread of the CTA calls it once, after thread 0 has initialised
 *	the kernel's mbarriers and fenced the inits (tcp_mbar_init_fence());
 *	returns the TMEM address of `ncols` columns allocated by warp 0.
 *	  cta_group::2: a cluster barrier first, so the peer CTA is known to
 *	  be running and its mbarrier inits are visible before the pair's
 *	  alloc (PTX tcgen05.alloc: "the issuing warp must make sure that peer
 *	  CTA is launched"; DeepGEMM sm100_fp8_fp4_gemm_1d1d.cuh / sm100_bf16_gemm.cuh
 *	  "Synchronize the cluster before 2-CTA TMEM allocation"; CUTLASS
 *	  gemm/kernel/sm100_gemm_tma_warpspecialized.hpp: barrier inits,
 *	  pipeline_init_arrive_relaxed, pipeline_init_wait, then the MMA warp's
 *	  tmem_allocator.allocate).  The arrive is release, not relaxed: the
 *	  peer may arrive on these mbarriers remotely (multicast commit).
 *	  Then warp 0 allocates, and tc_sync_all() publishes the address (and,
 *	  for the pair, that both CTAs have allocated) to every thread.
 *	scripts/ci/check-sass.sh checks the order in every .2CTA kernel: UCGABAR_ARV
 *	and UCGABAR_WAIT before the first UTCATOMSWS.
 */
template <int CG>
static __device__ __forceinline__ uint32_t tc_tmem_prologue(uint32_t *slot, uint32_t ncols)
{
	if constexpr (CG == 2) {
		if (!TCP_EMU_MUT(TCP_MUT_NO_CLUSTER_BAR))
			tcp_cluster_sync();
		else
			tc_bar();
	} else {
		tc_bar();
	}
	if (threadIdx.x / 32 == 0) {
		if (TCP_EMU_MUT(TCP_MUT_ALLOC_AFTER_RELINQUISH))
			tcp_tmem_relinquish<CG>();
		tcp_tmem_alloc<CG>(slot, ncols);
	}
	tc_sync_all<CG>();
	return *(volatile uint32_t *)slot;
}

/*
 * tc_tmem_epilogue<CG>(taddr, ncols, relinquished)
 *	Every thread calls it once, after its last TMEM access has completed
 *	(waits done): all threads of the CTA (pair) meet, warp 0 relinquishes
 *	the permit (unless it did so earlier) and frees the columns, and a pair
 *	meets again so that no CTA exits before its peer's dealloc
 *	(NVIDIA/cutlass#3435; CUTLASS sm100 GEMM: release_allocation_lock, then
 *	tmem_deallocation_result_barrier, then free).
 */
template <int CG>
static __device__ __forceinline__ void tc_tmem_epilogue(uint32_t taddr, uint32_t ncols, bool relinquished = false)
{
	tc_sync_all<CG>();
	if (threadIdx.x / 32 == 0) {
		if (!relinquished && !TCP_EMU_MUT(TCP_MUT_ALLOC_AFTER_RELINQUISH))
			tcp_tmem_relinquish<CG>();
		if (!TCP_EMU_MUT(TCP_MUT_NO_DEALLOC))
			tcp_tmem_dealloc<CG>(taddr, ncols);
	}
	if constexpr (CG == 2)
		tcp_cluster_sync();
}

/* Budget for one device-side wait (tcp_mbar_wait, nanoseconds of
 * %globaltimer) when the worker gives none: one second, far above any
 * tcgen05 latency. */
#define TC_DEFAULT_BUDGET_NS 1000000000ull

/* The worker's budget is in SM cycles (tcp_ctx_t.wait_budget_cycles, a
 * quarter of the point's timeout at the maximum clock): as nanoseconds. */
static inline unsigned long long tc_budget(const tcp_ctx_t *c)
{
	if (!c->wait_budget_cycles)
		return TC_DEFAULT_BUDGET_NS;
	double mhz = c->sm_clock_max_mhz > 0 ? c->sm_clock_max_mhz : 1000.0;
	return (unsigned long long)((double)c->wait_budget_cycles * 1000.0 / mhz);
}

/*
 * tc_pin(v, slot)
 *	Every thread of the CTA calls it (converged); returns v as written by
 *	thread 0, read back from shared memory.  Why: ptxas re-derives operands
 *	it can recompute cheaply (a kernel parameter: LDCU; a value from
 *	ordinary registers: R2UR) right before each UTC* instruction that
 *	takes them in uniform registers, which puts those instructions inside
 *	the timed window.  A value loaded from shared memory in converged code
 *	cannot be recomputed, so ptxas moves it into a uniform register once,
 *	before the loop (seen in the SASS; scripts/ci/check-sass.sh checks every
 *	window).  Operands of a timed loop go through here.
 */
template <typename T>
static __device__ __forceinline__ T tc_pin(T v, T *slot)
{
	if (threadIdx.x == 0)
		*(volatile T *)slot = v;
	tc_bar();
	return *(volatile T *)slot;
}

/*
 * tc_check_status()
 *	After a launch: its error, a synchronise, the status word (mapped
 *	pinned host memory, readable after a trap): a recorded wait timeout ->
 *	TCP_TIMEOUT naming the wait site, a bad TMEM address -> TCP_INVALID,
 *	another CUDA error -> TCP_FAILED (trap.cuh tcp_trap_check()).
 */
static inline tcp_status_t tc_check_status(tcp_ctx_t *c, unsigned long long *status, const char *const *sites,
					   int nsites)
{
	return tcp_trap_check(c, status, sites, nsites);
}

static inline int tc_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median of n values (sorts v in place); NAN for n == 0. */
static inline double tc_median(double *v, int n)
{
	if (n <= 0)
		return NAN;
	qsort(v, (size_t)n, sizeof(*v), tc_cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/*
 * tc_exclusive_smem()
 *	Dynamic shared memory to request so that at most one CTA of the
 *	kernel fits on an SM: per-SM rates assume one CTA per SM, and two CTAs
 *	sharing an SM (and its tensor core and TMEM) would halve them silently.
 *	`need` = what the kernel itself uses; the result is at least half the
 *	opt-in maximum plus 1 KiB (and at most the maximum).  The caller sets
 *	cudaFuncAttributeMaxDynamicSharedMemorySize to it.
 */
static inline size_t tc_exclusive_smem(const tcp_ctx_t *c, size_t need, size_t static_bytes)
{
	size_t optin = c->smem_per_block_optin > 0 ? (size_t)c->smem_per_block_optin : 0;
	size_t half = optin / 2 + 1024;
	size_t want = need > half ? need : half;
	if (optin && want + static_bytes > optin)
		want = need;	/* cannot force it: the kernel's own need wins */
	return want;
}

/*
 * tc_recs_alloc() / tc_recs_free()
 *	The record buffers of a probe's timed launches: nrec records on the
 *	device and their host copy, ntmp doubles of scratch for the medians,
 *	the status word (zeroed, mapped pinned host memory: trap.cuh).  TCP_FAILED with a reason when one
 *	cannot be had; tc_recs_free() releases what was had (NULL is fine).
 */
template <typename R>
static inline tcp_status_t tc_recs_alloc(tcp_ctx_t *c, size_t nrec, size_t ntmp, R **d_rec, R **h_rec,
					 double **tmp, unsigned long long **d_status)
{
	*h_rec = (R *)calloc(nrec, sizeof(R));
	*tmp = (double *)calloc(ntmp, sizeof(double));
	if (!*h_rec || !*tmp) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	TCP_CUDA_TRY(c, cudaMalloc(d_rec, nrec * sizeof(R)));
	return tcp_trap_status_alloc(c, d_status);
}

template <typename R>
static inline void tc_recs_free(R *d_rec, R *h_rec, double *tmp, unsigned long long *d_status)
{
	cudaFree(d_rec);
	tcp_trap_status_free(d_status);
	free(h_rec);
	free(tmp);
}

/* The `grid` axis: one CTA (pair) on the whole GPU, as public
 * microbenchmarks run, or one per SM (tc-aux.h tcp_aux_grid_ctas()). */
static const char *const tc_grid_names[] = { "1", "all", NULL };

/* The launch of point p of the non-MMA probe `pr` (tc-aux.h): TCP_FAILED with
 * the reason when it has none. */
static inline tcp_status_t tc_aux_launch(const tcp_probe_t *pr, const tcp_point_t *p, tcp_ctx_t *c,
					 tcp_aux_launch_t *l)
{
	if (tcp_aux_launch(pr, p, c->sm_count, c->sm_clock_max_mhz, l, c->reason, TCP_REASON_LEN))
		return TCP_FAILED;
	return TCP_OK;
}

/*
 * tc_launch_cluster()
 *	Launch kernel `k` (one argument: *args) on `grid` CTAs of `threads`,
 *	`smem` dynamic shared bytes, in clusters of `cluster` (1 or 2).
 *	Launch errors -> TCP_FAILED; call tc_check_status() after it.
 */
template <typename A>
static inline tcp_status_t tc_launch_cluster(tcp_ctx_t *c, const void *k, int grid, int threads, size_t smem,
					     int cluster, const A *args)
{
	cudaLaunchConfig_t lc = {};
	cudaLaunchAttribute at[1] = {};
	void *argv[1] = { (void *)args };
	lc.gridDim = dim3((unsigned)grid);
	lc.blockDim = dim3((unsigned)threads);
	lc.dynamicSmemBytes = smem;
	at[0].id = cudaLaunchAttributeClusterDimension;
	at[0].val.clusterDim.x = (unsigned)cluster;
	at[0].val.clusterDim.y = 1;
	at[0].val.clusterDim.z = 1;
	lc.attrs = at;
	lc.numAttrs = 1;
	TCP_CUDA_TRY(c, cudaLaunchKernelExC(&lc, k, argv));
	return TCP_OK;
}

/* Enumerated axis value names -> index helpers keep the tables readable. */
#define TC_NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

#endif /* TCP_TC_COMMON_CUH */
