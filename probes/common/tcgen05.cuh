/*
 * tcgen05.cuh
 *	Device helpers for the Blackwell (sm_100a) probes: bounded mbarrier
 *	waits, elect.sync, tcgen05 fences, TMEM alloc/dealloc/relinquish with a
 *	bounded retry, the commit forms, and ld/st/cp/mma wrappers.
 *
 *	Hang-proofing.  No GPU we can reach runs this code, so every spin is
 *	bounded by a clock64 budget (tcp_ctx_t.wait_budget_cycles).  A wait that
 *	runs out records WHICH wait it was in a status word in global memory
 *	(first writer wins) and returns 0; the kernel then skips the rest of its
 *	work and exits, and the host turns the word into TCP_TIMEOUT with a
 *	one-line reason (tcp_tc_status_reason()).
 *
 *	The top of this file (status word codes and their decoder) is plain C so
 *	that host code and the cmocka tests include it too; the device part is
 *	compiled only under nvcc for sm_100a.
 *
 *	Sources for every PTX form below: PTX ISA tcgen05 chapter and
 *	/work/shared/docs/tcgen05-facts.md sections 4-7.  All forms assemble with
 *	ptxas 12.8 and 13.0 (scripts/check-cuda128.sh); where PTX 8.8 added an
 *	alias (.block16/.block32) we write the PTX 8.7 spelling (.scale_vec::NX).
 */
#ifndef TCP_TCGEN05_CUH
#define TCP_TCGEN05_CUH

#include <stdint.h>
#include <stdio.h>

#include "model/hd.h"
#include "model/tmem.h"

/* ---- status word: host and device ------------------------------------- */

/*
 * The status word (one uint64_t per launch, zeroed before it):
 *	bits  0-7   code (tcp_tc_code_t), 0 = all waits succeeded
 *	bits  8-15  site: which wait in the kernel (probe-defined small integer)
 *	bits 16-31  CTA index (blockIdx.x, saturated at 0xffff)
 *	bits 32-63  cycles spent in the wait when it gave up (saturated)
 */
typedef enum {
	TCP_TC_OK = 0,
	TCP_TC_MBAR_TIMEOUT = 1,	/* mbarrier phase did not flip within the budget */
	TCP_TC_ALLOC_TIMEOUT = 2,	/* tcgen05.alloc kept failing / blocking past the budget */
	TCP_TC_CLUSTER_TIMEOUT = 3,	/* the peer CTA never arrived */
	TCP_TC_BAD_TADDR = 4,		/* alloc returned an address outside the allocation */
	TCP_TC_NCODES
} tcp_tc_code_t;

TCP_HD uint64_t tcp_tc_status_pack(unsigned code, unsigned site, unsigned cta,
					  unsigned long long cycles)
{
	if (cta > 0xffffu)
		cta = 0xffffu;
	if (cycles > 0xffffffffull)
		cycles = 0xffffffffull;
	return (uint64_t)(code & 0xffu) | ((uint64_t)(site & 0xffu) << 8) |
	       ((uint64_t)cta << 16) | ((uint64_t)cycles << 32);
}

/*
 * tcp_tc_status_reason()
 *	Decode a status word into a one-line reason; `sites` names the probe's
 *	wait sites (index = site, may be NULL).  Returns 0 when the word says
 *	all waits succeeded, 1 otherwise.
 */
static inline int tcp_tc_status_reason(uint64_t w, const char *const *sites, int nsites,
				       char *buf, size_t len)
{
	static const char *const codes[TCP_TC_NCODES] = {
		"ok", "mbarrier wait timed out", "tcgen05.alloc timed out",
		"cluster peer never arrived", "tcgen05.alloc returned a bad address",
	};
	unsigned code = (unsigned)(w & 0xffu), site = (unsigned)((w >> 8) & 0xffu);
	unsigned cta = (unsigned)((w >> 16) & 0xffffu);
	unsigned long long cyc = (unsigned long long)(w >> 32);

	if (code == TCP_TC_OK)
		return 0;
	snprintf(buf, len, "%s at %s (site %u), CTA %u, after %llu cycles",
		 code < TCP_TC_NCODES ? codes[code] : "unknown device status",
		 (sites && (int)site < nsites && sites[site]) ? sites[site] : "?", site, cta, cyc);
	return 1;
}

/* ---- device side ---------------------------------------------------------- */
#ifdef __CUDACC__
#include "probes/common/device.cuh"

/* Compile the tcgen05 bodies only in the sm_100a device pass. */
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 1000) && \
	(defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_SPECIFIC__) || \
	 defined(__CUDA_ARCH_FAMILY_SPECIFIC__))
#define TCP_TC_DEVICE 1
#else
#define TCP_TC_DEVICE 0
#endif

#define TCP_DEV static __device__ __forceinline__

TCP_DEV uint32_t tcp_smem_u32(const void *p)
{
	return (uint32_t)__cvta_generic_to_shared(p);
}

/*
 * tcp_tc_fail()
 *	Record a failed wait (first writer wins, so the reason names the first
 *	thing that went wrong, not a cascade).
 */
TCP_DEV void tcp_tc_fail(unsigned long long *status, unsigned code, unsigned site,
			 unsigned long long cycles)
{
	atomicCAS(status, 0ull,
		  (unsigned long long)tcp_tc_status_pack(code, site, blockIdx.x, cycles));
}

/* 1 if some thread of the grid already recorded a failure (cheap early-out). */
TCP_DEV int tcp_tc_failed(const unsigned long long *status)
{
	return *(volatile const unsigned long long *)status != 0ull;
}

/* ---- mbarrier ------------------------------------------------------------ */

TCP_DEV void tcp_mbar_init(uint64_t *bar, unsigned count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(tcp_smem_u32(bar)), "r"(count)
		     : "memory");
}

/* Make mbarrier.init visible to the async proxy and the cluster. */
TCP_DEV void tcp_mbar_init_fence(void)
{
	asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

TCP_DEV void tcp_mbar_inval(uint64_t *bar)
{
	asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(tcp_smem_u32(bar)) : "memory");
}

TCP_DEV void tcp_mbar_arrive(uint64_t *bar)
{
	asm volatile("{\n\t.reg .b64 st;\n\t"
		     "mbarrier.arrive.shared::cta.b64 st, [%0];\n\t}" ::"r"(tcp_smem_u32(bar))
		     : "memory");
}

/* One non-blocking probe of the phase with the given parity. */
TCP_DEV int tcp_mbar_test(uint64_t *bar, unsigned parity)
{
	uint32_t ok;
	asm volatile("{\n\t.reg .pred p;\n\t"
		     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
		     "selp.u32 %0, 1, 0, p;\n\t}"
		     : "=r"(ok)
		     : "r"(tcp_smem_u32(bar)), "r"(parity)
		     : "memory");
	return (int)ok;
}

/*
 * tcp_mbar_wait()
 *	Wait for the phase with `parity` to complete, for at most `budget`
 *	cycles.  Returns 1 on completion; on timeout records (TCP_TC_MBAR_TIMEOUT,
 *	site) in *status and returns 0.  Also gives up early (returns 0, records
 *	nothing new) when another thread already failed, so one lost arrival
 *	cannot make every CTA burn its whole budget.
 */
TCP_DEV int tcp_mbar_wait(uint64_t *bar, unsigned parity, unsigned long long budget,
			  unsigned long long *status, unsigned site)
{
	unsigned long long t0 = tcp_clock64();
	for (unsigned it = 0;; it++) {
		if (tcp_mbar_test(bar, parity))
			return 1;
		unsigned long long dt = tcp_clock64() - t0;
		if (dt > budget) {
			tcp_tc_fail(status, TCP_TC_MBAR_TIMEOUT, site, dt);
			return 0;
		}
		if ((it & 255u) == 255u && tcp_tc_failed(status))
			return 0;
	}
}

/* ---- elect, fences -------------------------------------------------------- */

/* 1 in exactly one active lane of the (full) warp. */
TCP_DEV int tcp_elect_one(void)
{
#if TCP_TC_DEVICE || (defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900)
	uint32_t e;
	asm volatile("{\n\t.reg .pred p;\n\t.reg .b32 l;\n\t"
		     "elect.sync l|p, 0xffffffff;\n\t"
		     "selp.u32 %0, 1, 0, p;\n\t}"
		     : "=r"(e));
	return (int)e;
#else
	return (threadIdx.x & 31) == 0;
#endif
}

TCP_DEV void tcp_tc_fence_before(void)
{
#if TCP_TC_DEVICE
	asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
#endif
}

TCP_DEV void tcp_tc_fence_after(void)
{
#if TCP_TC_DEVICE
	asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
#endif
}

/* Generic-proxy st.shared -> async proxy (mma / cp read smem). */
TCP_DEV void tcp_fence_proxy_async_smem(void)
{
	asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

/* ---- cluster (cta_group::2) ---------------------------------------------- */

TCP_DEV unsigned tcp_cluster_rank(void)
{
	unsigned r;
	asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
	return r;
}

/* Full cluster barrier (all threads of both CTAs). */
TCP_DEV void tcp_cluster_sync(void)
{
	asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
		     "barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

/* Shared address of `p` in the CTA of cluster rank `rank` (for peer mbarriers). */
TCP_DEV uint32_t tcp_mapa(const void *p, unsigned rank)
{
	uint32_t r;
	asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(tcp_smem_u32(p)), "r"(rank));
	return r;
}

/* ---- TMEM allocation -------------------------------------------------------- */

/*
 * tcp_tmem_alloc<CG>()
 *	One whole warp calls it.  tcgen05.alloc blocks in hardware until the
 *	columns are free, which cannot be bounded from software; so we first
 *	keep the request from ever blocking forever: the host only launches as
 *	many co-resident CTAs as the probe's TMEM plan allows, and the alloc
 *	probe, which over-subscribes on purpose, bounds the wait of each CTA on
 *	an mbarrier/flag handshake instead (see probe-tc-alloc.cu).  What we can
 *	check here is the result: the address must be column-aligned to ncols
 *	and lane 0.  Returns the TMEM address (same in every lane).
 */
template <int CG>
TCP_DEV uint32_t tcp_tmem_alloc(uint32_t *smem_dst, uint32_t ncols)
{
#if TCP_TC_DEVICE
	if (CG == 1)
		asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(
				     tcp_smem_u32(smem_dst)),
			     "r"(ncols)
			     : "memory");
	else
		asm volatile("tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(
				     tcp_smem_u32(smem_dst)),
			     "r"(ncols)
			     : "memory");
#endif
	__syncwarp();
	return *(volatile uint32_t *)smem_dst;
}

template <int CG>
TCP_DEV void tcp_tmem_dealloc(uint32_t taddr, uint32_t ncols)
{
#if TCP_TC_DEVICE
	if (CG == 1)
		asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(taddr), "r"(ncols)
			     : "memory");
	else
		asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, %1;" ::"r"(taddr), "r"(ncols)
			     : "memory");
#endif
}

template <int CG>
TCP_DEV void tcp_tmem_relinquish(void)
{
#if TCP_TC_DEVICE
	if (CG == 1)
		asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
	else
		asm volatile("tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;" ::: "memory");
#endif
}

/* An allocation is sane when lane bits are 0 and column bits are a multiple of
 * ncols inside [0, 512). */
TCP_DEV int tcp_tmem_addr_ok(uint32_t taddr, uint32_t ncols)
{
	uint32_t col = taddr & 0xffffu;
	return (taddr >> 16) == 0 && col < 512u && col + ncols <= 512u && (col % ncols) == 0;
}

/* ---- commit --------------------------------------------------------------- */

/* Arrive (count one) on a CTA-local mbarrier when this thread's earlier tcgen05
 * async ops (mma, cp) of cta_group::1 complete. */
TCP_DEV void tcp_tc_commit1(uint64_t *bar)
{
#if TCP_TC_DEVICE
	asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(
			     tcp_smem_u32(bar))
		     : "memory");
#endif
}

/* cta_group::2 commit to the issuing CTA's own barrier (shared::cluster address). */
TCP_DEV void tcp_tc_commit2(uint32_t bar_cluster_addr)
{
#if TCP_TC_DEVICE
	asm volatile("tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(
			     bar_cluster_addr)
		     : "memory");
#endif
}

/* cta_group::2 commit multicast: arrive on the barrier at the same smem offset
 * in every CTA of `mask` (bit i = cluster rank i). */
TCP_DEV void tcp_tc_commit2_mc(uint64_t *bar, uint16_t mask)
{
#if TCP_TC_DEVICE
	asm volatile("tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::"
		     "cluster.b64 [%0], %1;" ::"r"(tcp_smem_u32(bar)),
		     "h"(mask)
		     : "memory");
#endif
}

/* cta_group::1 multicast commit (same smem offset in every CTA of mask). */
TCP_DEV void tcp_tc_commit1_mc(uint64_t *bar, uint16_t mask)
{
#if TCP_TC_DEVICE
	asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::"
		     "cluster.b64 [%0], %1;" ::"r"(tcp_smem_u32(bar)),
		     "h"(mask)
		     : "memory");
#endif
}

/* ---- ld / st --------------------------------------------------------------- */

TCP_DEV void tcp_tc_wait_ld(void)
{
#if TCP_TC_DEVICE
	asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
#endif
}

TCP_DEV void tcp_tc_wait_st(void)
{
#if TCP_TC_DEVICE
	asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
#endif
}

/*
 * tcp_tc_ld<SHAPE, NUM, PACK>(taddr, r) / tcp_tc_st<SHAPE, NUM, UNPACK>(taddr, r)
 *	One tcgen05.ld / tcgen05.st of a compile-time shape and .num; r[] must be
 *	indexed only with constants by the caller so that it stays in registers.
 *	Registers per thread = base(SHAPE) x NUM (facts s.4).  For 16x32bx2 the
 *	half-split offset is NUM columns (the two 16-lane halves side by side).
 *	They do not wait: call tcp_tc_wait_ld()/tcp_tc_wait_st().
 */
/* The shapes are model/tmem.h's tcp_ld_shape_t (same mapping tables). */
enum {
	TCP_TC_32X32B = TCP_LD_32X32B,		/* base 1 register */
	TCP_TC_16X64B = TCP_LD_16X64B,		/* base 1 */
	TCP_TC_16X128B = TCP_LD_16X128B,	/* base 2 */
	TCP_TC_16X256B = TCP_LD_16X256B,	/* base 4 */
	TCP_TC_16X32BX2 = TCP_LD_16X32BX2,	/* base 1, immediate half-split offset */
	TCP_TC_NSHAPES = TCP_LD_SHAPE_COUNT
};

/* Registers per thread of one .x1 access of `shape` (constexpr twin of
 * tcp_ld_base_regs(), for array sizes and static_assert). */
static constexpr __host__ __device__ int tcp_tc_shape_base(int shape)
{
	return shape == TCP_TC_16X128B ? 2 : shape == TCP_TC_16X256B ? 4 : 1;
}

/* Register lists "{%0, ..., %N-1}" and the operand index N that follows them. */
#define TCP_RL_1 "{%0}"
#define TCP_AR_1 "%1"
#define TCP_RL_2 "{%0, %1}"
#define TCP_AR_2 "%2"
#define TCP_RL_4 "{%0, %1, %2, %3}"
#define TCP_AR_4 "%4"
#define TCP_RL_8 "{%0, %1, %2, %3, %4, %5, %6, %7}"
#define TCP_AR_8 "%8"
#define TCP_RL_16 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}"
#define TCP_AR_16 "%16"
#define TCP_RL_32 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, " \
	"%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}"
#define TCP_AR_32 "%32"
#define TCP_RL_64 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, " \
	"%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
	"%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, " \
	"%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, " \
	"%62, %63}"
#define TCP_AR_64 "%64"
#define TCP_RL_128 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, " \
	"%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
	"%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, " \
	"%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, " \
	"%62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, " \
	"%77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, " \
	"%92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, " \
	"%106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, " \
	"%119, %120, %121, %122, %123, %124, %125, %126, %127}"
#define TCP_AR_128 "%128"
/* Operand lists r[0..N-1] (constant indices keep the array in registers). */
#define TCP_O_1(b) "=r"(r[(b)])
#define TCP_I_1(b) "r"(r[(b)])
#define TCP_O_2(b) TCP_O_1(b), TCP_O_1((b) + 1)
#define TCP_I_2(b) TCP_I_1(b), TCP_I_1((b) + 1)
#define TCP_O_4(b) TCP_O_2(b), TCP_O_2((b) + 2)
#define TCP_I_4(b) TCP_I_2(b), TCP_I_2((b) + 2)
#define TCP_O_8(b) TCP_O_4(b), TCP_O_4((b) + 4)
#define TCP_I_8(b) TCP_I_4(b), TCP_I_4((b) + 4)
#define TCP_O_16(b) TCP_O_8(b), TCP_O_8((b) + 8)
#define TCP_I_16(b) TCP_I_8(b), TCP_I_8((b) + 8)
#define TCP_O_32(b) TCP_O_16(b), TCP_O_16((b) + 16)
#define TCP_I_32(b) TCP_I_16(b), TCP_I_16((b) + 16)
#define TCP_O_64(b) TCP_O_32(b), TCP_O_32((b) + 32)
#define TCP_I_64(b) TCP_I_32(b), TCP_I_32((b) + 32)
#define TCP_O_128(b) TCP_O_64(b), TCP_O_64((b) + 64)
#define TCP_I_128(b) TCP_I_64(b), TCP_I_64((b) + 64)

#define TCP_LDX(S, NUM, NR, P)                                                               \
	asm volatile("tcgen05.ld.sync.aligned." S ".x" #NUM P ".b32 " TCP_RL_##NR ", [" TCP_AR_##NR \
		     "];"                                                                      \
		     : TCP_O_##NR(0)                                                           \
		     : "r"(taddr)                                                              \
		     : "memory")
#define TCP_LDX2(NUM, NR, P)                                                                  \
	asm volatile("tcgen05.ld.sync.aligned.16x32bx2.x" #NUM P ".b32 " TCP_RL_##NR ", ["         \
		     TCP_AR_##NR "], " #NUM ";"                                                \
		     : TCP_O_##NR(0)                                                           \
		     : "r"(taddr)                                                              \
		     : "memory")
#define TCP_STX(S, NUM, NR, P)                                                               \
	asm volatile("tcgen05.st.sync.aligned." S ".x" #NUM P ".b32 [" TCP_AR_##NR "], "          \
		     TCP_RL_##NR ";" ::TCP_I_##NR(0), "r"(taddr)                               \
		     : "memory")
#define TCP_STX2(NUM, NR, P)                                                                  \
	asm volatile("tcgen05.st.sync.aligned.16x32bx2.x" #NUM P ".b32 [" TCP_AR_##NR "], " #NUM  \
		     ", " TCP_RL_##NR ";" ::TCP_I_##NR(0), "r"(taddr)                          \
		     : "memory")

/* Dispatch on NUM for a shape whose base is 1, 2 or 4 registers. */
#define TCP_NUM_B1(OP, ...)                                                                   \
	if constexpr (NUM == 1) OP(__VA_ARGS__, 1, 1);                                        \
	else if constexpr (NUM == 2) OP(__VA_ARGS__, 2, 2);                                   \
	else if constexpr (NUM == 4) OP(__VA_ARGS__, 4, 4);                                   \
	else if constexpr (NUM == 8) OP(__VA_ARGS__, 8, 8);                                   \
	else if constexpr (NUM == 16) OP(__VA_ARGS__, 16, 16);                                \
	else if constexpr (NUM == 32) OP(__VA_ARGS__, 32, 32);                                \
	else if constexpr (NUM == 64) OP(__VA_ARGS__, 64, 64);                                \
	else if constexpr (NUM == 128) OP(__VA_ARGS__, 128, 128);
#define TCP_NUM_B2(OP, ...)                                                                   \
	if constexpr (NUM == 1) OP(__VA_ARGS__, 1, 2);                                        \
	else if constexpr (NUM == 2) OP(__VA_ARGS__, 2, 4);                                   \
	else if constexpr (NUM == 4) OP(__VA_ARGS__, 4, 8);                                   \
	else if constexpr (NUM == 8) OP(__VA_ARGS__, 8, 16);                                  \
	else if constexpr (NUM == 16) OP(__VA_ARGS__, 16, 32);                                \
	else if constexpr (NUM == 32) OP(__VA_ARGS__, 32, 64);                                \
	else if constexpr (NUM == 64) OP(__VA_ARGS__, 64, 128);
#define TCP_NUM_B4(OP, ...)                                                                   \
	if constexpr (NUM == 1) OP(__VA_ARGS__, 1, 4);                                        \
	else if constexpr (NUM == 2) OP(__VA_ARGS__, 2, 8);                                   \
	else if constexpr (NUM == 4) OP(__VA_ARGS__, 4, 16);                                  \
	else if constexpr (NUM == 8) OP(__VA_ARGS__, 8, 32);                                  \
	else if constexpr (NUM == 16) OP(__VA_ARGS__, 16, 64);                                \
	else if constexpr (NUM == 32) OP(__VA_ARGS__, 32, 128);
/* Argument order adapters: OP(S, P, NUM, NR). */
#define TCP_LD_(S, P, NUM, NR) TCP_LDX(S, NUM, NR, P)
#define TCP_ST_(S, P, NUM, NR) TCP_STX(S, NUM, NR, P)
#define TCP_LD2_(P, NUM, NR) TCP_LDX2(NUM, NR, P)
#define TCP_ST2_(P, NUM, NR) TCP_STX2(NUM, NR, P)

template <int SHAPE, int NUM, int PACK>
TCP_DEV void tcp_tc_ld(uint32_t taddr, uint32_t *r)
{
	static_assert(NUM >= 1 && NUM <= 128 && (NUM & (NUM - 1)) == 0, ".num is x1..x128, a power of two");
	static_assert(tcp_tc_shape_base(SHAPE) * NUM <= 128, "at most 128 registers per thread");
#if TCP_TC_DEVICE
	if constexpr (SHAPE == TCP_TC_32X32B) {
		if constexpr (PACK) { TCP_NUM_B1(TCP_LD_, "32x32b", ".pack::16b") }
		else { TCP_NUM_B1(TCP_LD_, "32x32b", "") }
	} else if constexpr (SHAPE == TCP_TC_16X64B) {
		if constexpr (PACK) { TCP_NUM_B1(TCP_LD_, "16x64b", ".pack::16b") }
		else { TCP_NUM_B1(TCP_LD_, "16x64b", "") }
	} else if constexpr (SHAPE == TCP_TC_16X128B) {
		if constexpr (PACK) { TCP_NUM_B2(TCP_LD_, "16x128b", ".pack::16b") }
		else { TCP_NUM_B2(TCP_LD_, "16x128b", "") }
	} else if constexpr (SHAPE == TCP_TC_16X256B) {
		if constexpr (PACK) { TCP_NUM_B4(TCP_LD_, "16x256b", ".pack::16b") }
		else { TCP_NUM_B4(TCP_LD_, "16x256b", "") }
	} else {
		if constexpr (PACK) { TCP_NUM_B1(TCP_LD2_, ".pack::16b") }
		else { TCP_NUM_B1(TCP_LD2_, "") }
	}
#else
	(void)taddr;
	for (int i = 0; i < tcp_tc_shape_base(SHAPE) * NUM; i++)
		r[i] = 0;
#endif
}

template <int SHAPE, int NUM, int UNPACK>
TCP_DEV void tcp_tc_st(uint32_t taddr, const uint32_t *r)
{
	static_assert(NUM >= 1 && NUM <= 128 && (NUM & (NUM - 1)) == 0, ".num is x1..x128, a power of two");
	static_assert(tcp_tc_shape_base(SHAPE) * NUM <= 128, "at most 128 registers per thread");
#if TCP_TC_DEVICE
	if constexpr (SHAPE == TCP_TC_32X32B) {
		if constexpr (UNPACK) { TCP_NUM_B1(TCP_ST_, "32x32b", ".unpack::16b") }
		else { TCP_NUM_B1(TCP_ST_, "32x32b", "") }
	} else if constexpr (SHAPE == TCP_TC_16X64B) {
		if constexpr (UNPACK) { TCP_NUM_B1(TCP_ST_, "16x64b", ".unpack::16b") }
		else { TCP_NUM_B1(TCP_ST_, "16x64b", "") }
	} else if constexpr (SHAPE == TCP_TC_16X128B) {
		if constexpr (UNPACK) { TCP_NUM_B2(TCP_ST_, "16x128b", ".unpack::16b") }
		else { TCP_NUM_B2(TCP_ST_, "16x128b", "") }
	} else if constexpr (SHAPE == TCP_TC_16X256B) {
		if constexpr (UNPACK) { TCP_NUM_B4(TCP_ST_, "16x256b", ".unpack::16b") }
		else { TCP_NUM_B4(TCP_ST_, "16x256b", "") }
	} else {
		if constexpr (UNPACK) { TCP_NUM_B1(TCP_ST2_, ".unpack::16b") }
		else { TCP_NUM_B1(TCP_ST2_, "") }
	}
#else
	(void)taddr;
	(void)r;
#endif
}

/* ---- cp -------------------------------------------------------------------- */

/*
 * tcp_tc_cp<CG, SHAPE, FMT>(taddr, sdesc)
 *	tcgen05.cp from the shared-memory matrix `sdesc` (model/sdesc.h) into
 *	TMEM.  SHAPE: the six forms of facts s.5; FMT: 0 plain, 1 6-bit -> 8-bit
 *	(.b8x16.b6x16_p32), 2 4-bit -> 8-bit (.b8x16.b4x16_p64).  Asynchronous:
 *	completion through tcgen05.commit.
 */
enum {
	TCP_CP_128X256B = 0,
	TCP_CP_4X256B,
	TCP_CP_128X128B,
	TCP_CP_64X128B_02_13,	/* .warpx2::02_13 */
	TCP_CP_64X128B_01_23,	/* .warpx2::01_23 */
	TCP_CP_32X128B_X4,	/* .warpx4 */
	TCP_CP_NSHAPES
};

/* Bytes one tcgen05.cp reads from shared memory (before decompression, FMT 0). */
static constexpr __host__ __device__ int tcp_tc_cp_bytes(int shape)
{
	switch (shape) {
	case TCP_CP_128X256B: return 128 * 32;
	case TCP_CP_4X256B: return 4 * 32;
	case TCP_CP_128X128B: return 128 * 16;
	case TCP_CP_64X128B_02_13: case TCP_CP_64X128B_01_23: return 64 * 16;
	default: return 32 * 16;
	}
}

#define TCP_CPX(CGS, SH, F) \
	asm volatile("tcgen05.cp.cta_group::" CGS "." SH F " [%0], %1;" ::"r"(taddr), "l"(sdesc) : "memory")
#define TCP_CP_FMT(CGS, SH)                                                                  \
	if constexpr (FMT == 0) TCP_CPX(CGS, SH, "");                                        \
	else if constexpr (FMT == 1) TCP_CPX(CGS, SH, ".b8x16.b6x16_p32");                   \
	else TCP_CPX(CGS, SH, ".b8x16.b4x16_p64");
#define TCP_CP_SHAPES(CGS)                                                                   \
	if constexpr (SHAPE == TCP_CP_128X256B) { TCP_CP_FMT(CGS, "128x256b") }             \
	else if constexpr (SHAPE == TCP_CP_4X256B) { TCP_CP_FMT(CGS, "4x256b") }            \
	else if constexpr (SHAPE == TCP_CP_128X128B) { TCP_CP_FMT(CGS, "128x128b") }        \
	else if constexpr (SHAPE == TCP_CP_64X128B_02_13) { TCP_CP_FMT(CGS, "64x128b.warpx2::02_13") } \
	else if constexpr (SHAPE == TCP_CP_64X128B_01_23) { TCP_CP_FMT(CGS, "64x128b.warpx2::01_23") } \
	else { TCP_CP_FMT(CGS, "32x128b.warpx4") }

template <int CG, int SHAPE, int FMT>
TCP_DEV void tcp_tc_cp(uint32_t taddr, uint64_t sdesc)
{
#if TCP_TC_DEVICE
	if constexpr (CG == 1) { TCP_CP_SHAPES("1") }
	else { TCP_CP_SHAPES("2") }
#else
	(void)taddr;
	(void)sdesc;
#endif
}

/* ---- mma ------------------------------------------------------------------- */

/*
 * tcp_tc_mma<CG, KIND, TS, SV>(d, a, b, idesc, sfa, sfb, accumulate)
 *	One tcgen05.mma.  KIND is a tcp_kind_t (model/kinds.h); TS = 1 takes A
 *	from TMEM (a = TMEM address) else from SMEM (a = descriptor); SV is the
 *	scale vector size of the block-scaled kinds (1, 2 or 4 = .scale_vec::NX:
 *	mxf8f6f4 1X; mxf4 2X; mxf4nvf4 2X = block32, 4X = block16), ignored for
 *	the others.  sfa/sfb are the TMEM addresses of the scale factors.
 *	accumulate = 0 writes D = A x B (TMEM is not zeroed: the first MMA of a
 *	chain must pass 0).
 */
#define TCP_MMA_P "setp.ne.b32 p, %4, 0;\n\t"
#define TCP_MMA_SS(CGS, KS)                                                                  \
	asm volatile("{\n\t.reg .pred p;\n\t" TCP_MMA_P "tcgen05.mma.cta_group::" CGS ".kind::" KS \
		     " [%0], %1, %2, %3, p;\n\t}" ::"r"(d), "l"(a), "l"(b), "r"(idesc), "r"(acc)   \
		     : "memory")
#define TCP_MMA_TS(CGS, KS)                                                                  \
	asm volatile("{\n\t.reg .pred p;\n\t" TCP_MMA_P "tcgen05.mma.cta_group::" CGS ".kind::" KS \
		     " [%0], [%1], %2, %3, p;\n\t}" ::"r"(d), "r"((uint32_t)a), "l"(b), "r"(idesc),  \
		     "r"(acc)                                                                  \
		     : "memory")
#define TCP_MMA_SS_BS(CGS, KS)                                                               \
	asm volatile("{\n\t.reg .pred p;\n\t" TCP_MMA_P "tcgen05.mma.cta_group::" CGS ".kind::" KS \
		     " [%0], %1, %2, %3, [%5], [%6], p;\n\t}" ::"r"(d), "l"(a), "l"(b), "r"(idesc), \
		     "r"(acc), "r"(sfa), "r"(sfb)                                              \
		     : "memory")
#define TCP_MMA_TS_BS(CGS, KS)                                                               \
	asm volatile("{\n\t.reg .pred p;\n\t" TCP_MMA_P "tcgen05.mma.cta_group::" CGS ".kind::" KS \
		     " [%0], [%1], %2, %3, [%5], [%6], p;\n\t}" ::"r"(d), "r"((uint32_t)a), "l"(b), \
		     "r"(idesc), "r"(acc), "r"(sfa), "r"(sfb)                                  \
		     : "memory")
#define TCP_MMA_AB(CGS, KS, BS)                                                              \
	if constexpr (TS) { TCP_MMA_TS##BS(CGS, KS); } else { TCP_MMA_SS##BS(CGS, KS); }
#define TCP_MMA_KINDS(CGS)                                                                   \
	if constexpr (KIND == 0) { TCP_MMA_AB(CGS, "f16", ) }                                \
	else if constexpr (KIND == 1) { TCP_MMA_AB(CGS, "tf32", ) }                          \
	else if constexpr (KIND == 2) { TCP_MMA_AB(CGS, "f8f6f4", ) }                        \
	else if constexpr (KIND == 3) { TCP_MMA_AB(CGS, "i8", ) }                            \
	else if constexpr (KIND == 4) { TCP_MMA_AB(CGS, "mxf8f6f4.block_scale.scale_vec::1X", _BS) } \
	else if constexpr (KIND == 5) { TCP_MMA_AB(CGS, "mxf4.block_scale.scale_vec::2X", _BS) } \
	else if constexpr (SV == 4) { TCP_MMA_AB(CGS, "mxf4nvf4.block_scale.scale_vec::4X", _BS) } \
	else { TCP_MMA_AB(CGS, "mxf4nvf4.block_scale.scale_vec::2X", _BS) }

template <int CG, int KIND, int TS, int SV>
TCP_DEV void tcp_tc_mma(uint32_t d, uint64_t a, uint64_t b, uint32_t idesc, uint32_t sfa,
			uint32_t sfb, uint32_t acc)
{
	static_assert(KIND >= 0 && KIND <= 6, "KIND is a tcp_kind_t");
#if TCP_TC_DEVICE
	if constexpr (CG == 1) { TCP_MMA_KINDS("1") }
	else { TCP_MMA_KINDS("2") }
#else
	(void)d; (void)a; (void)b; (void)idesc; (void)sfa; (void)sfb; (void)acc;
#endif
}

/*
 * tcp_tc_mma_masked<CG, KIND>(d, a, b, idesc, mask, acc)
 *	Dense SS MMA with the disable-output-lane mask: 4 words for
 *	cta_group::1, 8 for cta_group::2 (bit i of the mask disables lane i).
 *	Non-block-scaled kinds only (PTX allows the mask there).
 */
#define TCP_MMA_M1(KS)                                                                       \
	asm volatile("{\n\t.reg .pred p;\n\t" TCP_MMA_P "tcgen05.mma.cta_group::1.kind::" KS    \
		     " [%0], %1, %2, %3, {%5, %6, %7, %8}, p;\n\t}" ::"r"(d), "l"(a), "l"(b),      \
		     "r"(idesc), "r"(acc), "r"(m[0]), "r"(m[1]), "r"(m[2]), "r"(m[3])          \
		     : "memory")
#define TCP_MMA_M2(KS)                                                                       \
	asm volatile("{\n\t.reg .pred p;\n\t" TCP_MMA_P "tcgen05.mma.cta_group::2.kind::" KS    \
		     " [%0], %1, %2, %3, {%5, %6, %7, %8, %9, %10, %11, %12}, p;\n\t}" ::"r"(d),   \
		     "l"(a), "l"(b), "r"(idesc), "r"(acc), "r"(m[0]), "r"(m[1]), "r"(m[2]),    \
		     "r"(m[3]), "r"(m[4]), "r"(m[5]), "r"(m[6]), "r"(m[7])                     \
		     : "memory")
#define TCP_MMA_MK(MX)                                                                       \
	if constexpr (KIND == 0) MX("f16");                                                  \
	else if constexpr (KIND == 1) MX("tf32");                                            \
	else if constexpr (KIND == 2) MX("f8f6f4");                                          \
	else MX("i8");

template <int CG, int KIND>
TCP_DEV void tcp_tc_mma_masked(uint32_t d, uint64_t a, uint64_t b, uint32_t idesc,
			       const uint32_t *m, uint32_t acc)
{
	static_assert(KIND >= 0 && KIND <= 3, "the mask form is for f16/tf32/f8f6f4/i8");
#if TCP_TC_DEVICE
	if constexpr (CG == 1) { TCP_MMA_MK(TCP_MMA_M1) }
	else { TCP_MMA_MK(TCP_MMA_M2) }
#else
	(void)d; (void)a; (void)b; (void)idesc; (void)m; (void)acc;
#endif
}

#endif /* __CUDACC__ */
#endif /* TCP_TCGEN05_CUH */
