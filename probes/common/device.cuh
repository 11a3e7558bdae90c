/*
 * device.cuh
 *	Device-side helpers every probe shares: clocks, error plumbing.
 *	Architecture-specific helpers live beside it (wgmma.cuh, tcgen05.cuh).
 */
#ifndef TCP_DEVICE_CUH
#define TCP_DEVICE_CUH

#include <cuda_runtime.h>
#include <stdio.h>

#include "probes/common/probe.h"

/* SM cycle counter of the multiprocessor this thread runs on. */
static __device__ __forceinline__ unsigned long long tcp_clock64(void)
{
	unsigned long long c;
	asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory");
	return c;
}

/* Global nanosecond timer (same on every SM; updates coarsely, ~1 us on some parts). */
static __device__ __forceinline__ unsigned long long tcp_globaltimer(void)
{
	unsigned long long t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) :: "memory");
	return t;
}

static __device__ __forceinline__ unsigned tcp_smid(void)
{
	unsigned s;
	asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
	return s;
}

/* This CTA's rank in its cluster (sm_90+). */
static __device__ __forceinline__ unsigned tcp_cluster_rank(void)
{
	unsigned r;
	asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
	return r;
}

/* The shared::cluster address of shared::cta address `a` in the CTA of
 * cluster rank `rank` (sm_90+). */
static __device__ __forceinline__ uint32_t tcp_mapa_u32(uint32_t a, unsigned rank)
{
	uint32_t r;
	asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank));
	return r;
}

/*
 * TCP_CUDA_TRY(ctx, call)
 *	Run a CUDA runtime call; on error write "file:line: call: error" into
 *	ctx->reason and return TCP_FAILED from the enclosing hook.
 */
#define TCP_CUDA_TRY(ctx, call)                                                     \
	do {                                                                        \
		cudaError_t tcp_e_ = (call);                                        \
		if (tcp_e_ != cudaSuccess) {                                        \
			snprintf((ctx)->reason, TCP_REASON_LEN, "%s:%d: %s: %s",    \
				 __FILE__, __LINE__, #call, cudaGetErrorString(tcp_e_)); \
			return TCP_FAILED;                                          \
		}                                                                   \
	} while (0)

#endif /* TCP_DEVICE_CUH */
