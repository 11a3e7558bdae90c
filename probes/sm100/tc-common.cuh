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

/* Every thread of the CTA (both CTAs of a cta_group::2 pair) meets here,
 * tcgen05 operations before it ordered before those after it (the TMEM
 * address written by tcgen05.alloc, accumulators, ...). */
template <int CG>
static __device__ __forceinline__ void tc_sync_all(void)
{
	tcp_tc_fence_before();
	__syncthreads();
	if (CG == 2)
		tcp_cluster_sync();
	tcp_tc_fence_after();
}

/* Budget for one device-side wait when the worker gives none: 2^31 cycles,
 * about one second at 2 GHz, far above any tcgen05 latency. */
#define TC_DEFAULT_BUDGET (1ull << 31)

static inline unsigned long long tc_budget(const tcp_ctx_t *c)
{
	return c->wait_budget_cycles ? (unsigned long long)c->wait_budget_cycles : TC_DEFAULT_BUDGET;
}

/*
 * tc_check_status()
 *	After a launch: sync, then read the status word.  CUDA error ->
 *	TCP_FAILED; a recorded wait timeout -> TCP_TIMEOUT naming the wait
 *	site; a bad TMEM address -> TCP_INVALID.  Clears the word for the next
 *	launch.
 */
static inline tcp_status_t tc_check_status(tcp_ctx_t *c, unsigned long long *d_status,
				    const char *const *sites, int nsites)
{
	uint64_t w = 0;
	TCP_CUDA_TRY(c, cudaGetLastError());
	TCP_CUDA_TRY(c, cudaDeviceSynchronize());
	TCP_CUDA_TRY(c, cudaMemcpy(&w, d_status, sizeof(w), cudaMemcpyDeviceToHost));
	if (tcp_tc_status_reason(w, sites, nsites, c->reason, TCP_REASON_LEN)) {
		TCP_CUDA_TRY(c, cudaMemset(d_status, 0, sizeof(w)));
		return (w & 0xffu) == TCP_TC_BAD_TADDR ? TCP_INVALID : TCP_TIMEOUT;
	}
	return TCP_OK;
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
 *	the device status word (zeroed).  TCP_FAILED with a reason when one
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
	TCP_CUDA_TRY(c, cudaMalloc(d_status, sizeof(**d_status)));
	TCP_CUDA_TRY(c, cudaMemset(*d_status, 0, sizeof(**d_status)));
	return TCP_OK;
}

template <typename R>
static inline void tc_recs_free(R *d_rec, R *h_rec, double *tmp, unsigned long long *d_status)
{
	cudaFree(d_rec);
	cudaFree(d_status);
	free(h_rec);
	free(tmp);
}

/* Enumerated axis value names -> index helpers keep the tables readable. */
#define TC_NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

#endif /* TCP_TC_COMMON_CUH */
