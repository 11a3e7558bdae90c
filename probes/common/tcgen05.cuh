/*
 * tcgen05.cuh
 *	Device helpers for the Blackwell (sm_100a) probes: elect.sync, tcgen05
 *	fences, cluster barriers, TMEM alloc/dealloc/relinquish, the commit
 *	forms, and ld/st/cp/mma wrappers.  Bounded mbarrier waits and the
 *	status word live in trap.cuh (they build for sm_90a too).
 *
 *	What bounds each wait (no GPU we can reach runs this code):
 *	  - mbarrier waits: tcp_mbar_wait() counts a cycle budget
 *	    (tcp_ctx_t.wait_budget_cycles); when it runs out it records which
 *	    wait it was in the status word and traps (trap.cuh), and the host
 *	    turns the word into TCP_TIMEOUT with a one-line reason.
 *	  - tcgen05.alloc: blocks in hardware until the columns are free; no
 *	    PTX form can bound it.  Guarded by the launch: each probe launches
 *	    at most as many co-resident CTAs as its columns allow (one CTA per
 *	    SM through its shared-memory request), and tc_alloc, which
 *	    over-subscribes on purpose, holds columns for a fixed spin that
 *	    waits on nothing, so every blocked alloc is released.  Beyond that,
 *	    the supervisor's per-point timeout kills the worker.
 *	  - barrier.cluster.wait: no bounded form exists either.  The CTAs of a
 *	    cluster are launched together (co-scheduled), so the peer arrives
 *	    unless it trapped, and a trap ends the whole grid.  Beyond that,
 *	    the supervisor's timeout.
 *
 *	Forms are selected with `if constexpr` on template parameters, never a
 *	runtime `if`: one kernel must not contain both cta_group forms (a -G
 *	build keeps both branches and ptxas rejects the mix; facts s.6).
 *
 *	Sources for every PTX form below: PTX ISA tcgen05 chapter and
 *	/work/shared/docs/tcgen05-facts.md sections 4-7.  All forms assemble with
 *	ptxas 12.8 and 13.0 (scripts/ci/check-cuda128.sh); where PTX 8.8 added an
 *	alias (.block16/.block32) we write the PTX 8.7 spelling (.scale_vec::NX).
 */
#ifndef TCP_TCGEN05_CUH
#define TCP_TCGEN05_CUH

#include <stdint.h>
#include <stdio.h>

#include "model/hd.h"
#include "model/tmem.h"
#include "probes/common/trap.cuh"

/* ---- device side ---------------------------------------------------------- */
#ifdef __CUDACC__

/* Compile the tcgen05 bodies only in the tcgen05 device passes, and each
 * form only where its target has it (TCP_TC_DEVICE, TCP_TC_I8, ...). */
#include "probes/common/tc-arch.cuh"

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
#if TCP_TC_EMU_DEVICE
	tcp_emu_fence_before();
#elif TCP_TC_DEVICE
	asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
#endif
}

TCP_DEV void tcp_tc_fence_after(void)
{
#if TCP_TC_EMU_DEVICE
	tcp_emu_fence_after();
#elif TCP_TC_DEVICE
	asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
#endif
}

/* Generic-proxy st.shared -> async proxy (mma / cp read smem). */
TCP_DEV void tcp_fence_proxy_async_smem(void)
{
	asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

/* ---- cluster (cta_group::2) ---------------------------------------------- */

/*
 * Cluster barrier (every thread of every CTA of the cluster), split into
 * arrive and wait as CUTLASS's pipeline_init_arrive_relaxed /
 * pipeline_init_wait are (cutlass/pipeline/sm90_pipeline.hpp).
 * barrier.cluster.wait has no bounded form: see the header for what guards it.
 */
TCP_DEV void tcp_cluster_arrive(void)
{
#if TCP_TC_EMU_DEVICE
	tcp_emu_bar_publish();
#endif
	asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
}

TCP_DEV void tcp_cluster_wait(void)
{
	asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
#if TCP_TC_EMU_DEVICE
	tcp_emu_bar_take(1);
	tcp_emu_cluster_done();
#endif
}

/* Full cluster barrier: arrive (release) and wait (acquire). */
TCP_DEV void tcp_cluster_sync(void)
{
	tcp_cluster_arrive();
	tcp_cluster_wait();
}

/* Shared address of `p` in the CTA of cluster rank `rank` (for peer mbarriers). */
TCP_DEV uint32_t tcp_mapa(const void *p, unsigned rank)
{
	return tcp_mapa_u32(tcp_smem_u32(p), rank);
}

/* ---- TMEM allocation -------------------------------------------------------- */

/*
 * tcp_tmem_alloc<CG>()
 *	One whole warp calls it; the TMEM address is written to *smem_dst and
 *	returned (same in every lane).  It blocks in hardware until the columns
 *	are free: nothing in software bounds it (see the header for what
 *	guards it).  With cta_group::2 the caller must first have met the peer
 *	CTA at a cluster barrier (PTX alloc: "the issuing warp must make sure
 *	that peer CTA is launched"): use tc_tmem_prologue() (tc-common.cuh).
 *	Check the result with tcp_tmem_addr_ok().
 *	[CUT cute/arch/tmem_allocator_sm100.hpp Allocator1Sm / Allocator2Sm]
 */
template <int CG>
TCP_DEV uint32_t tcp_tmem_alloc(uint32_t *smem_dst, uint32_t ncols)
{
	static_assert(CG == 1 || CG == 2, "cta_group is 1 or 2");
#if TCP_TC_EMU_DEVICE
	tcp_emu_rt_alloc(CG, smem_dst, ncols);
#elif TCP_TC_DEVICE
	if constexpr (CG == 1)
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
	static_assert(CG == 1 || CG == 2, "cta_group is 1 or 2");
#if TCP_TC_EMU_DEVICE
	tcp_emu_rt_dealloc(CG, taddr, ncols);
#elif TCP_TC_DEVICE
	if constexpr (CG == 1)
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
	static_assert(CG == 1 || CG == 2, "cta_group is 1 or 2");
#if TCP_TC_EMU_DEVICE
	tcp_emu_rt_relinquish(CG);
#elif TCP_TC_DEVICE
	if constexpr (CG == 1)
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

/*
 * How a commit reaches its mbarrier (the probes' `cast` axis, one name
 * everywhere):
 *   TCP_CAST_LOCAL      the issuing CTA's own barrier (umma_arrive /
 *                       umma_arrive_2x1SM in CUTLASS cutlass/arch/barrier.h)
 *   TCP_CAST_MULTICAST  .multicast::cluster to the barrier at the same
 *                       offset in every CTA of the pair: mask 0b11 for
 *                       cta_group::2 (umma_arrive_multicast_2x1SM; DeepGEMM
 *                       sm100_*_gemm*.cuh "arrive at all CTAs"), 0b1 for
 *                       cta_group::1 (umma_arrive_multicast with a one-CTA
 *                       cluster), the form public microbenchmarks commit with.
 * With cta_group::2 every CTA of the pair then waits on its own barrier
 * before it reads its own TMEM (facts s.6).  scripts/ci/check-sass.sh finds
 * the local-cast instantiations by this enum in the kernel's name: keep
 * CAST a template parameter of type tcp_cast_t.
 */
enum tcp_cast_t { TCP_CAST_LOCAL = 0, TCP_CAST_MULTICAST = 1 };

/*
 * tcp_tc_commit<CG, CAST>(bar)
 *	Arrive (count one) on the mbarrier at shared address `bar` (the
 *	issuing CTA's; tcp_smem_u32(), computed once outside any timed loop)
 *	when every earlier tcgen05.mma / cp of this cta_group issued by this
 *	thread has completed.
 */
template <int CG, tcp_cast_t CAST>
TCP_DEV void tcp_tc_commit(uint32_t bar)
{
	static_assert(CG == 1 || CG == 2, "cta_group is 1 or 2");
	static_assert(CAST == TCP_CAST_LOCAL || CAST == TCP_CAST_MULTICAST, "CAST is a tcp_cast_t");
#if TCP_TC_EMU_DEVICE
	tcp_emu_rt_commit(CG, CAST == TCP_CAST_LOCAL ? 0u : (CG == 1 ? 0x1u : 0x3u), bar);
#elif TCP_TC_DEVICE
	if constexpr (CG == 1 && CAST == TCP_CAST_LOCAL)
		asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(bar)
			     : "memory");
	else if constexpr (CG == 2 && CAST == TCP_CAST_LOCAL)
		asm volatile("tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(bar)
			     : "memory");
	else if constexpr (CG == 1)
		asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::"
			     "cluster.b64 [%0], %1;" ::"r"(bar),
			     "h"((uint16_t)0x1)
			     : "memory");
	else
		asm volatile("tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::"
			     "cluster.b64 [%0], %1;" ::"r"(bar),
			     "h"((uint16_t)0x3)
			     : "memory");
#else
	(void)bar;
#endif
}

/* ---- ld / st --------------------------------------------------------------- */

TCP_DEV void tcp_tc_wait_ld(void)
{
#if TCP_TC_EMU_DEVICE
	__syncwarp();
#elif TCP_TC_DEVICE
	asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
#endif
}

TCP_DEV void tcp_tc_wait_st(void)
{
#if TCP_TC_EMU_DEVICE
	__threadfence_block();
	__syncwarp();
#elif TCP_TC_DEVICE
	asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
#endif
}

/*
 * tcp_tc_ld<SHAPE, NUM, PACK>(taddr, r) / tcp_tc_st<SHAPE, NUM, UNPACK>(taddr, r)
 *	One tcgen05.ld / tcgen05.st of a compile-time shape and .num; r[] must be
 *	indexed only with constants by the caller so that it stays in registers.
 *	Registers per thread = base(SHAPE) x NUM (facts s.4).  For 16x32bx2 the
 *	immediate half-split offset is tcp_tc_half(NUM, PACK): NUM columns
 *	unpacked, 2 x NUM with .pack::16b / .unpack::16b, whose registers each
 *	span two columns, so the second 16-lane half starts right after the
 *	first one's columns (CUTLASS cute/arch/copy_sm100.hpp
 *	SM100_TMEM_LOAD_16dp32b1x_16b: "[%1], 2"; model/tmem.h
 *	tcp_ld_half_offset()).  Columns touched: tcp_ld_footprint().
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

/* 16x32bx2 half-split offset: the model's own function (constexpr in C++). */
static constexpr __host__ __device__ int tcp_tc_half(int num, int pack)
{
	return (int)tcp_ld_half_offset((unsigned)num, pack);
}
static_assert(tcp_tc_half(1, 1) == 2 && tcp_tc_half(4, 1) == 8 && tcp_tc_half(4, 0) == 4,
	      "16x32bx2 half offset: CUTLASS copy_sm100.hpp x1.pack::16b uses 2, x4.pack::16b 8, x4 4");

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
/* Index of the operand after the address (16x32bx2's immediate half offset). */
#define TCP_HI_1 "%2"
#define TCP_HI_2 "%3"
#define TCP_HI_4 "%5"
#define TCP_HI_8 "%9"
#define TCP_HI_16 "%17"
#define TCP_HI_32 "%33"
#define TCP_HI_64 "%65"
#define TCP_HI_128 "%129"
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
/* 16x32bx2: the half-split offset is an immediate operand ("n"), tcp_tc_half(NUM, P). */
#define TCP_LDX2(NUM, NR, P, H)                                                               \
	asm volatile("tcgen05.ld.sync.aligned.16x32bx2.x" #NUM P ".b32 " TCP_RL_##NR ", ["         \
		     TCP_AR_##NR "], " TCP_HI_##NR ";"                                        \
		     : TCP_O_##NR(0)                                                           \
		     : "r"(taddr), "n"(H)                                                      \
		     : "memory")
#define TCP_STX(S, NUM, NR, P)                                                               \
	asm volatile("tcgen05.st.sync.aligned." S ".x" #NUM P ".b32 [" TCP_AR_##NR "], "          \
		     TCP_RL_##NR ";" ::TCP_I_##NR(0), "r"(taddr)                               \
		     : "memory")
#define TCP_STX2(NUM, NR, P, H)                                                               \
	asm volatile("tcgen05.st.sync.aligned.16x32bx2.x" #NUM P ".b32 [" TCP_AR_##NR "], "        \
		     TCP_HI_##NR ", " TCP_RL_##NR ";" ::TCP_I_##NR(0), "r"(taddr), "n"(H)      \
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
#define TCP_LD2_(P, NUM, NR) TCP_LDX2(NUM, NR, P, tcp_tc_half(NUM, PACK))
#define TCP_ST2_(P, NUM, NR) TCP_STX2(NUM, NR, P, tcp_tc_half(NUM, UNPACK))

template <int SHAPE, int NUM, int PACK>
TCP_DEV void tcp_tc_ld(uint32_t taddr, uint32_t *r)
{
	static_assert(NUM >= 1 && NUM <= 128 && (NUM & (NUM - 1)) == 0, ".num is x1..x128, a power of two");
	static_assert(tcp_tc_shape_base(SHAPE) * NUM <= 128, "at most 128 registers per thread");
#if TCP_TC_EMU_DEVICE
	tcp_emu_rt_ld(taddr, SHAPE, NUM, PACK,
		      SHAPE == TCP_TC_16X32BX2 ? tcp_tc_half(NUM, PACK) + (TCP_EMU_MUT(TCP_MUT_HALF_SPLIT) ? 1 : 0) : 0,
		      r);
#elif TCP_TC_DEVICE
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
#if TCP_TC_EMU_DEVICE
	tcp_emu_rt_st(taddr, SHAPE, NUM, UNPACK, SHAPE == TCP_TC_16X32BX2 ? tcp_tc_half(NUM, UNPACK) : 0, r);
#elif TCP_TC_DEVICE
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
/* The shapes (TCP_CP_*) and tcp_tc_cp_bytes() are model/tmem.h's: host code
 * (probes/sm100/tc-aux.c) sizes a point's passes with the same numbers. */

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
#if TCP_TC_EMU_DEVICE
	tcp_emu_rt_cp(CG, SHAPE, FMT, taddr, sdesc);
#elif TCP_TC_DEVICE
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
	else if constexpr (KIND == 3) { TCP_MMA_I8(TCP_MMA_AB(CGS, "i8", )) }                \
	else if constexpr (KIND == 4) { TCP_MMA_AB(CGS, "mxf8f6f4.block_scale.scale_vec::1X", _BS) } \
	else if constexpr (KIND == 5) { TCP_MMA_AB(CGS, "mxf4.block_scale.scale_vec::2X", _BS) } \
	else if constexpr (SV == 4) { TCP_MMA_AB(CGS, "mxf4nvf4.block_scale.scale_vec::4X", _BS) } \
	else { TCP_MMA_AB(CGS, "mxf4nvf4.block_scale.scale_vec::2X", _BS) }

/* kind::i8 only where the target has it (not sm_103a): elsewhere the kernel
 * traps (after a system-scope fence, as every trap here: check-sass rule
 * trap-after-fence), and the host never launches it (model/arch.c SKIPs
 * the point through the probe's legal_on). */
#if TCP_TC_I8
#define TCP_MMA_I8(...) __VA_ARGS__
#else
#define TCP_MMA_I8(...) { __threadfence_system(); __trap(); }
#endif

template <int CG, int KIND, int TS, int SV>
TCP_DEV void tcp_tc_mma(uint32_t d, uint64_t a, uint64_t b, uint32_t idesc, uint32_t sfa,
			uint32_t sfb, uint32_t acc)
{
	static_assert(KIND >= 0 && KIND <= 6, "KIND is a tcp_kind_t");
#if TCP_TC_EMU_DEVICE
	tcp_emu_rt_mma(KIND, CG, TS, SV, d, a, b, idesc, sfa, sfb, acc, 0);
#elif TCP_TC_DEVICE
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
	else { TCP_MMA_I8(MX("i8");) }

template <int CG, int KIND>
TCP_DEV void tcp_tc_mma_masked(uint32_t d, uint64_t a, uint64_t b, uint32_t idesc,
			       const uint32_t *m, uint32_t acc)
{
	static_assert(KIND >= 0 && KIND <= 3, "the mask form is for f16/tf32/f8f6f4/i8");
#if TCP_TC_EMU_DEVICE
	tcp_emu_rt_mma(KIND, CG, 0, 0, d, a, b, idesc, 0, 0, acc, m);
#elif TCP_TC_DEVICE
	if constexpr (CG == 1) { TCP_MMA_MK(TCP_MMA_M1) }
	else { TCP_MMA_MK(TCP_MMA_M2) }
#else
	(void)d; (void)a; (void)b; (void)idesc; (void)m; (void)acc;
#endif
}

#endif /* __CUDACC__ */
#endif /* TCP_TCGEN05_CUH */
