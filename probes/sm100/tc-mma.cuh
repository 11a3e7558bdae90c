/*
 * tc-mma.cuh
 *	The tcgen05.mma engine the MMA probes share (latency, issue rate,
 *	throughput; layout and epilogue use it too): one kernel template, the
 *	point -> configuration mapping, the TMEM footprint, setup / validation /
 *	launch on the host.  Each probe file includes it and instantiates only
 *	the modes it runs; the validation kernels live once, in
 *	tc-mma-validate.cu.
 *
 *	Protocol (tcgen05-facts s.6, s.7, s.9; each step cites the production
 *	code it follows):
 *	  1. operand image -> shared memory, fence.proxy.async; one thread
 *	     inits the mbarriers and fences the init (fence.mbarrier_init);
 *	  2. cta_group::2: cluster arrive/wait BEFORE tcgen05.alloc, so that the
 *	     peer CTA is known to run and its barriers are initialised
 *	     (DeepGEMM sm100_fp8_fp4_gemm_1d1d.cuh "Synchronize the cluster
 *	     before 2-CTA TMEM allocation"; CUTLASS
 *	     sm100_gemm_tma_warpspecialized.hpp pipeline_init_arrive_relaxed /
 *	     pipeline_init_wait before tmem_allocator.allocate);
 *	  3. warp 0 allocates the point's footprint (alloc columns from the host
 *	     model), barrier, everybody reads the address;
 *	  4. scale factors (block-scaled kinds) written by warps 0-3 with
 *	     tcgen05.st, one word per (lane, column) from the host's image of
 *	     the per-block layout; A (ab = ts) copied from its shared-memory tile
 *	     by the issuing thread with tcgen05.cp (fp4/fp6 under f8f6f4 /
 *	     mxf8f6f4 decompressed into 8-bit containers, .b8x16.b4x16_p64 /
 *	     .b6x16_p32), committed and waited before any timing;
 *	  5. one elected thread of warp 0 of the even CTA issues; commits go
 *	     to each CTA's own mbarrier: cta_group::2 with .multicast::cluster
 *	     mask 0b11 so both CTAs of the pair wait on their own barrier before
 *	     touching their own TMEM (CUTLASS barrier.h umma_arrive_multicast_2x1SM,
 *	     DeepGEMM "arrive at all CTAs"); cast=local is the control: the even
 *	     CTA's barrier only (CUTLASS umma_arrive / umma_arrive_2x1SM), the
 *	     odd CTA learns of completion through the cluster barrier;
 *	  6. tear-down: fence, barrier (cluster barrier for pairs), warp 0
 *	     deallocates and relinquishes, and a last cluster barrier keeps
 *	     either CTA from leaving before its peer's dealloc (cutlass #3435).
 *
 *	What bounds the waits.  Every mbarrier wait spins at most the ctx budget
 *	(tcp_mbar_wait): a lost arrival records which wait it was (status word)
 *	and the kernel stops issuing.  The cluster barriers (barrier.cluster) and
 *	tcgen05.alloc are hardware waits no software can bound: the cluster
 *	launch co-schedules both CTAs of a pair, every kernel runs one CTA per SM
 *	(tc_exclusive_smem) with an allocation of at most 512 columns, so alloc
 *	always finds its columns free; what remains is guarded by the worker's
 *	per-point timeout (the supervisor kills and restarts the worker).
 *
 *	TMEM of each CTA: the point's footprint (tcp_tc_mma_fp, model/tmem-plan.h,
 *	printed by `tcprobe run --dry-run --verbose`): acc0.. accumulator
 *	stages from column 0, then A (ab = ts), then the scale factors of A
 *	and of B: only what the point needs, allocation the next power of two.
 */
#ifndef TCP_TC_MMA_CUH
#define TCP_TC_MMA_CUH

#include <type_traits>

#include "model/legal.h"
#include "model/tmem-plan.h"
#include "probes/sm100/tc-check.h"
#include "probes/sm100/tc-common.cuh"

enum {
	TC_MODE_VALIDATE = 0,	/* one MMA (+ masked MMA), dump the accumulator */
	TC_MODE_LAT,		/* issue -> commit -> mbarrier flip: warm-up, then TC_LAT_SAMPLES samples */
	TC_MODE_II,		/* chains of `iters` MMAs: issue and completion cycles */
	TC_MODE_TPUT		/* `iters` MMAs per issuing CTA, commit every k, one final commit */
};

/* Wait sites named in timeout reasons. */
enum { SITE_MMA = 0, SITE_STAGE, SITE_BATCH, SITE_NSITES };
static const char *const tc_mma_sites[SITE_NSITES] = {
	"tcgen05.mma completion (commit -> mbarrier)",
	"staging of A / scale factors in TMEM (tcgen05.cp commit -> mbarrier)",
	"commit_every batches (commit -> mbarrier)",
};

/* Iteration counts; the emulation build's floors are tc-aux.h's TCP_AUX_EMU_*
 * (docs/emulation.md "Iteration rules"). */
#if TCP_AUX_EMU
#define TC_FIT_DEPTHS TCP_AUX_EMU_II_NDEPTHS	/* II fit: chains of 1, 2, 4, 32 MMAs */
#define TC_II_WARM TCP_AUX_EMU_II_WARM
#define TC_II_TIMED TCP_AUX_EMU_II_TIMED
#define TC_LAT_WARMUP TCP_AUX_EMU_LAT_WARMUP
#define TC_LAT_SAMPLES TCP_AUX_EMU_LAT_SAMPLES
#else
#define TC_FIT_DEPTHS 7		/* II fit: chains of 1, 2, 4, ... 64 MMAs */
#define TC_II_WARM 1		/* II: untimed chains per depth (the first of each depth) */
#define TC_II_TIMED 4		/* II: timed chains per depth (the minimum is kept) */
#define TC_LAT_WARMUP 4		/* latency samples dropped (the first writes D with enable-input-d = 0) */
#define TC_LAT_SAMPLES 64	/* latency samples kept per issuing CTA */
#endif
/* MMAs of the II chain at record index j (0 .. TC_FIT_DEPTHS - 1). */
static constexpr __host__ __device__ int tc_ii_depth(int j)
{
	return TCP_AUX_EMU ? tcp_aux_emu_ii_depth(j) : 1 << j;
}
/* MMAs one II kernel issues per issuing unit: every depth, every chain. */
static constexpr __host__ __device__ int tc_ii_mmas(void)
{
	int n = 0;
	for (int j = 0; j < TC_FIT_DEPTHS; j++)
		n += tc_ii_depth(j);
	return (TC_II_WARM + TC_II_TIMED) * n;
}
/* Records per CTA (unsigned long long):
 *   LAT   [0, TC_LAT_SAMPLES)  one sample each: issue latency << 32 | commit latency
 *         (tc_lat_issue(), tc_lat_commit())
 *   II    4 + j issue, 4 + TC_FIT_DEPTHS + j completion of depth j; TC_REC_T0 - 1 - j
 *         depth j's last 64-bit start
 *   TPUT  0 completion, 4 issue */
#define TC_REC 72
/* The two windows of one latency sample (TC_MODE_LAT): from the clock read
 * before the MMA's operand setup, and from the one after the MMA and its
 * commit issued; both close at the phase flip. */
static inline __host__ __device__ unsigned long long tc_lat_issue(unsigned long long rec) { return rec >> 32; }
static inline __host__ __device__ unsigned long long tc_lat_commit(unsigned long long rec) { return rec & 0xffffffffull; }
#define TC_REC_T0 (TC_REC - 1)	/* 64-bit clock at the start of the last timed window */
/* tc_mma_ii's chains (its `chain` axis, the kernel's OPT, tc-check.h
 * TCP_TC_CHAIN_*): accumulators x enable-input-d, so that "two
 * accumulators" and "no accumulate" are told apart. */
#define TC_II_TWO(OPT) ((OPT) == TCP_TC_CHAIN_INDEP || (OPT) == TCP_TC_CHAIN_ALT_ACC)	/* two accumulators */
#define TC_II_ACC(OPT) ((OPT) == TCP_TC_CHAIN_SAME || (OPT) == TCP_TC_CHAIN_ALT_ACC)	/* enable-input-d 1 */
/* MMAs of an II chain issued before its window opens: one per accumulator. */
#define TC_II_PRE(OPT, D) (TC_II_TWO(OPT) && (D) > 1 ? 2 : 1)
#define TC_STAGE_STRIDE TCP_TMEM_STAGE_STRIDE	/* column of accumulator stage 1 (model/tmem-plan.h) */
#define TC_THREADS 256	/* warpgroup 0: TMEM owner, issuer, dump; warpgroup 1: tc_epilogue's drain */
/* tc_layout / tc_epilogue axes use the kind names too (tc-check.h). */
static constexpr const char *const *tc_kind_names = tcp_tc_kind_names;

struct tc_mma_args {
	const uint4 *img;	/* ctas_per_group images of img_words 16-byte words */
	const uint32_t *sf_img;	/* block-scaled: [cta][sfa cols + sfb cols][128 lanes] words */
	unsigned img_words;
	tcp_tile_t ta, tb;	/* per-CTA tiles */
	uint32_t a_off, b_off;
	unsigned kstep;		/* the K step of the tiles every MMA reads (tc_mma_k96; else 0) */
	uint32_t idesc;
	unsigned acc_cols, alloc_cols, nstage;
	/* TMEM columns from the point's footprint (tcp_tc_mma_fp, model/tmem-plan.h) */
	unsigned acc_col, a_col, sfa_col, sfb_col, sfa_cols, sfb_cols;
	unsigned stage_stride;		/* column of stage 1 from stage 0: TC_STAGE_STRIDE, or 0 (one stage) */
	unsigned a_cp_fmt;		/* ab = ts: 0 plain, 1 fp6 -> 8 bit, 2 fp4 -> 8 bit (tcgen05.cp) */
	unsigned a_dup;			/* ab = ts, cta_group::2 M=128: 64 rows per CTA, in both lane halves */
	uint32_t a_k1_off;		/* a_dup: bytes from the A tile to row 0's second 16-byte K chunk */
	unsigned lane_align;		/* M = 64 layout F: 0 or 16 */
	int iters;			/* II depth (0 = every depth 1..64), TPUT MMAs (even) */
	int commit_every;		/* TPUT: commit after every k MMAs (0 = once, at the end) */
	int use_mask;			/* VALIDATE: second MMA with the lane mask */
	uint32_t mask[8];
	unsigned long long budget;
	uint32_t *dump;			/* [cta][128][acc_cols] */
	unsigned long long *rec;	/* [cta][TC_REC] */
	unsigned long long *status;
};

/* Kind variants a kernel is instantiated for (index into the tables; tc-check.h). */
enum { KV_F16 = TCP_TC_KV_F16, KV_TF32, KV_F8F6F4, KV_I8, KV_MXF8F6F4, KV_MXF4, KV_NVF4_2X, KV_NVF4_4X,
       KV_N = TCP_TC_KV_N };

/*
 * tc_commit<CG, CAST>(bar)
 *	Arrive on `bar` when this thread's earlier tcgen05 async operations
 *	complete.  Multicast: the barrier at the same offset in every CTA of the
 *	mask (0b1 alone, 0b11 for a pair: CUTLASS umma_arrive_multicast_2x1SM);
 *	local: this CTA's barrier (CUTLASS umma_arrive / umma_arrive_2x1SM; a
 *	shared::cta address is a valid shared::cluster address of the executing
 *	CTA).  Everything is a compile-time form: no branch, no address
 *	arithmetic inside a timed window.
 */
template <int CG, tcp_cast_t CAST>
static __device__ __forceinline__ void tc_commit(uint64_t *bar)
{
	tcp_tc_commit<CG, CAST>(tcp_smem_u32(bar));
}

/*
 * tc_wait(bar, parity, p, site)
 *	The one place the engine waits on an mbarrier: bounded by the budget;
 *	a timeout records the wait site in the status word (mapped pinned host
 *	memory) and traps (probes/common/trap.cuh tcp_mbar_wait): no CTA
 *	tears down TMEM or exits while an MMA or copy issued for it, or for
 *	its pair, may still touch its shared memory or TMEM.
 *	No caller continues after a failed wait, which also keeps the issuing
 *	thread's control flow free of status flags (one reason ptxas keeps the
 *	operands in uniform registers, see tc_clock32).  The host reads the
 *	word after the failed launch: TIMEOUT naming the site, not FAILED.
 */
static __device__ __forceinline__ void tc_wait(uint64_t *bar, unsigned parity, const struct tc_mma_args &p,
					       unsigned site)
{
	tcp_mbar_wait(bar, parity, p.budget, p.status, site);
}

/*
 * Timed windows (scripts/ci/check-sass.sh clean-window rule).
 * ptxas places an MMA's operand setup (LDCU of idesc, R2UR of descriptors,
 * TMEM and barrier addresses) right before the MMA and never hoists it above
 * a clock read, so a window that opened with a clock read before its first
 * MMA would hold that setup.  Hence every window opens right AFTER the
 * first MMA (tc_mma_ii, tc_mma_tput: the MMAs that follow reuse its
 * registers, in straight-line code) or after the MMA and its commit
 * (tc_mma_lat): the window then holds only what the hardware does, at the
 * price of the issue cycle(s) before the clock read.  Windows open with a
 * 64-bit clock read and close with 32-bit ones (tc_clock32), which never
 * open one; each window's 64-bit start is kept (rec[TC_REC_T0]) so that
 * ptxas keeps it a 64-bit read.
 */
static __device__ __forceinline__ uint32_t tc_clock32(void)
{
	uint32_t t;
	asm volatile("mov.u32 %0, %%clock;" : "=r"(t)::"memory");
	return t;
}

/*
 * tc_stage_sf<KIND>(w, sfa_cols, sfb_cols, sfa, sfb)
 *	Scale factors of a block-scaled kind into TMEM, before any timing:
 *	each warp of warpgroup 0 its lane quarter, one 32x32b.x1 store per
 *	column, w[col * 128 + lane] the words the host laid out per the model
 *	(tcp_tmem_sf_cell; DeepGEMM's tcgen05.cp 32x128b.warpx4 of
 *	SM100_UTCCP_4x32dp128bit yields the same placement): sfa_cols columns
 *	at sfa, then sfb_cols at sfb.  Other kinds: nothing.
 */
template <int KIND>
static __device__ __forceinline__ void tc_stage_sf(const uint32_t *w, unsigned sfa_cols, unsigned sfb_cols,
						   uint32_t sfa, uint32_t sfb)
{
	const unsigned warp = threadIdx.x / 32;
	if constexpr (KIND >= TCP_KIND_MXF8F6F4) {
		if (warp < 4) {
			const unsigned lane = 32u * warp + threadIdx.x % 32;
			for (unsigned c = 0; c < sfa_cols + sfb_cols; c++) {
				uint32_t r[1] = { w[c * 128 + lane] };
				tcp_tc_st<TCP_TC_32X32B, 1, 0>((c < sfa_cols ? sfa + c : sfb + (c - sfa_cols)) +
								       ((32u * warp) << 16),
							       r);
			}
			tcp_tc_wait_st();
		}
	}
}

/*
 * tc_stage_a<CG>(a_tmem, adesc, a_k1, dup, fmt)
 *	Issue (one thread) the copy of A (ab = ts) from its shared-memory tile
 *	to TMEM with tcgen05.cp, 32 bytes of K per row (8 columns), fp4/fp6
 *	under (mx)f8f6f4 into 8-bit containers by the decompressing forms
 *	(fmt = tcp_tc_a_cp_fmt(); facts s.3, s.5):
 *	  128 rows per CTA: 128x256b, lane = row;
 *	  dup (cta_group::2 M=128, 64 rows per CTA): 64x128b.warpx2::02_13 per
 *	  16-byte K chunk (a_k1: the descriptor of row 0's second chunk), rows
 *	  0-63 to lanes 0-63 and again to 64-127, the layout the 2x2 data path
 *	  reads (CUTLASS mma_traits_sm100_frag.hpp TmemAllocMode::Duplicated;
 *	  copy_traits_sm100.hpp SM100_UTCCP_2x64dp128bitlw0213).
 *	The caller commits and waits before any window.
 */
template <int CG>
static __device__ __forceinline__ void tc_stage_a(uint32_t a_tmem, uint64_t adesc, uint64_t a_k1, unsigned dup,
						  unsigned fmt)
{
	auto stage = [&](auto F) {
		constexpr int f = decltype(F)::value;
		if (dup) {
			tcp_tc_cp<CG, TCP_CP_64X128B_02_13, f>(a_tmem, adesc);
			tcp_tc_cp<CG, TCP_CP_64X128B_02_13, f>(a_tmem + 4, a_k1);
		} else {
			tcp_tc_cp<CG, TCP_CP_128X256B, f>(a_tmem, adesc);
		}
	};
	if (fmt == 2)
		stage(std::integral_constant<int, 2>{});
	else if (fmt == 1)
		stage(std::integral_constant<int, 1>{});
	else
		stage(std::integral_constant<int, 0>{});
}

/*
 * tc_chain_rest<CG, KIND, TS, SV, OPT, D>: the MMAs of an II chain of depth D
 * after the TC_II_PRE(OPT, D) issued before the window opened (one per
 * accumulator, so that both are in registers), every one with constant
 * operands: the two-accumulator chains (TC_II_TWO: indep, alt_acc) alternate
 * the stage at d0 + TC_STAGE_STRIDE (a compile-time offset) and d0, the
 * others stay on d0; enable-input-d is TC_II_ACC(OPT), a constant (no
 * modulo, no address arithmetic between MMAs).  The first 8 straight after the window opens, then blocks
 * of 8 in a loop with a compile-time trip count (ptxas re-converts the
 * operands at a loop head, so no loop may come before the first MMA of the
 * window; the loop keeps the code and ptxas' time smaller than a full
 * unroll), then the rest.  The
 * depth is a template argument: with a run-time depth ptxas computes the
 * loop bounds in vector registers after the waits and re-converts every
 * operand (R2UR) inside the window.
 */
template <int CG, int KIND, int TS, int SV, int OPT, int N>
static __device__ __forceinline__ void tc_mmas(uint32_t d0, uint64_t a, uint64_t b, uint32_t idesc, uint32_t sfa,
					       uint32_t sfb)
{
#pragma unroll
	for (int i = 0; i < N; i++) {
		if constexpr (TC_II_TWO(OPT))	/* blocks of an even count: each starts on d0, as the chain goes on */
			tcp_tc_mma<CG, KIND, TS, SV>((i & 1) ? d0 + TC_STAGE_STRIDE : d0, a, b, idesc, sfa, sfb,
						     TC_II_ACC(OPT));
		else
			tcp_tc_mma<CG, KIND, TS, SV>(d0, a, b, idesc, sfa, sfb, TC_II_ACC(OPT));
	}
}

template <int CG, int KIND, int TS, int SV, int OPT, int D>
static __device__ __forceinline__ void tc_chain_rest(uint32_t d0, uint64_t a, uint64_t b, uint32_t idesc,
						     uint32_t sfa, uint32_t sfb)
{
	constexpr int n = D - TC_II_PRE(OPT, D), first = n < 8 ? n : 8, blocks = (n - first) / 8,
		      rest = (n - first) % 8;
	static_assert(!TC_II_TWO(OPT) || n % 2 == 0, "two accumulators: pairs after the two stages' first MMAs");
#if TCP_CHECK_BUILD
	/* DEBUG=1 / TMEMCHECK=1 objects (never timed): the same MMAs as a
	 * run-time loop of one pair (one MMA for chain=same); ptxas -G on the
	 * unrolled chains of all seven depths of every kernel took over ten
	 * minutes for this file alone. */
	constexpr int step = TC_II_TWO(OPT) ? 2 : 1;
	(void)first;
	(void)blocks;
	(void)rest;
#pragma unroll 1
	for (int i = 0; i < n; i += step)
		tc_mmas<CG, KIND, TS, SV, OPT, step>(d0, a, b, idesc, sfa, sfb);
#else
	tc_mmas<CG, KIND, TS, SV, OPT, first>(d0, a, b, idesc, sfa, sfb);
#pragma unroll 1
	for (int i = 0; i < blocks; i++)
		tc_mmas<CG, KIND, TS, SV, OPT, 8>(d0, a, b, idesc, sfa, sfb);
	tc_mmas<CG, KIND, TS, SV, OPT, rest>(d0, a, b, idesc, sfa, sfb);
#endif
}

/*
 * tc_mma_kernel<CG, KIND, TS, SV, MODE, CAST, OPT>
 *	One CTA (cta_group::1) or one CTA pair (cluster of 2, cta_group::2) per
 *	unit of work.  One elected thread of warp 0 of the even CTA issues,
 *	commits, waits (bounded) and records; with the multicast commit one
 *	thread of the odd CTA waits on its own barrier phase by phase.  OPT:
 *	LAT enable-input-d after the first sample (1) or never (0); II the
 *	chain (TCP_TC_CHAIN_*: accumulators x enable-input-d); TPUT enable-input-d
 *	after the first pair (0: accumulate, 1: overwrite, no read of D).
 */
template <int CG, int KIND, int TS, int SV, int MODE, tcp_cast_t CAST = TCP_CAST_MULTICAST, int OPT = 0>
static __global__ void __launch_bounds__(TC_THREADS) tc_mma_kernel(const struct tc_mma_args p)
{
	extern __shared__ __align__(1024) uint8_t smem[];
	__shared__ uint64_t bar_mma, bar_aux, bar_stage;
	__shared__ uint32_t slot;
	const unsigned warp = threadIdx.x / 32;
	unsigned rank = 0;
	if constexpr (CG == 2)
		rank = tcp_cluster_rank() & 1u;
	const unsigned cta = blockIdx.x;
	/* The odd CTA of a pair waits on its own barrier (multicast commit). */
	constexpr bool kPeerWaits = CG == 2 && CAST == TCP_CAST_MULTICAST;

	/* 1. Operand image -> shared memory, visible to the async proxy; barriers. */
	const uint4 *src = p.img + (size_t)rank * p.img_words;
	for (unsigned i = threadIdx.x; i < p.img_words; i += blockDim.x)
		((uint4 *)smem)[i] = src[i];
	tcp_fence_proxy_async_smem();
	if (threadIdx.x == 0) {
		tcp_mbar_init(&bar_mma, 1);
		/* TPUT commit_every: one phase completes when every batch commit arrived. */
		tcp_mbar_init(&bar_aux, MODE == TC_MODE_TPUT && p.commit_every > 0 ? (unsigned)(p.iters / p.commit_every) : 1u);
		tcp_mbar_init(&bar_stage, 1);
		tcp_mbar_init_fence();
	}
	/* 2-3. The pair meets before the 2-CTA alloc, warp 0 allocates the
	 * footprint's columns (tc-common.cuh tc_tmem_prologue). */
	const uint32_t tbase = tc_tmem_prologue<CG>(&slot, p.alloc_cols);
	if (threadIdx.x == 0 && !tcp_tmem_addr_ok(tbase, p.alloc_cols))
		tcp_tc_trap(p.status, TCP_TC_BAD_TADDR, SITE_MMA, tbase);
	const uint32_t a_tmem = tbase + p.a_col, sfa = tbase + p.sfa_col, sfb = tbase + p.sfb_col;

	/* 4a. Scale factors (block-scaled kinds). */
	tc_stage_sf<KIND>(p.sf_img + (size_t)rank * (p.sfa_cols + p.sfb_cols) * 128, p.sfa_cols, p.sfb_cols, sfa, sfb);

	/* Descriptors through the model (same functions the host reference used). */
	const uint32_t sbase = tcp_smem_u32(smem);
	tcp_sdesc_t sd;
	uint64_t adesc = 0, bdesc = 0;
	tcp_tile_desc(&p.ta, sbase + p.a_off, p.kstep, &sd);
	tcp_sdesc_encode(&sd, &adesc);
	tcp_tile_desc(&p.tb, sbase + p.b_off, p.kstep, &sd);
	tcp_sdesc_encode(&sd, &bdesc);
	const bool issuer_warp = rank == 0 && warp == 0;
	const bool peer_warp = kPeerWaits && rank == 1 && warp == 0;
	tc_sync_all<CG>();

	/* 4b. A into TMEM (ab = ts) with tcgen05.cp (tc_stage_a).
	 * cta_group::2: issued by the even CTA, each CTA's tile into its own TMEM,
	 * as DeepGEMM's 2-CTA GEMM copies scale factors [?].  Committed and waited
	 * before any window. */
	if constexpr (TS) {
		if (issuer_warp) {
			if (tcp_elect_one()) {
				uint64_t a_k1 = 0;
				tcp_tile_desc(&p.ta, sbase + p.a_off + p.a_k1_off, 0, &sd);
				tcp_sdesc_encode(&sd, &a_k1);
				tc_stage_a<CG>(a_tmem, adesc, a_k1, p.a_dup, p.a_cp_fmt);
				tc_commit<CG, CAST>(&bar_stage);
				tc_wait(&bar_stage, 0, p, SITE_STAGE);
			}
			__syncwarp();
		}
		if (peer_warp) {
			if (tcp_elect_one())
				tc_wait(&bar_stage, 0, p, SITE_STAGE);
			__syncwarp();
		}
	}
	tc_sync_all<CG>();
	const uint64_t a_op = TS ? (uint64_t)a_tmem : adesc;
	const uint32_t d0 = tbase + p.acc_col + (p.lane_align << 16);
	/* stage 1, or stage 0 again with one stage */
	const uint32_t d1 = d0 + p.stage_stride;
	const uint32_t idesc = p.idesc;

	if constexpr (MODE == TC_MODE_VALIDATE) {
		/* The emulation build's planted defects (probes/emu/tc-emu-mutants.h):
		 * each TCP_EMU_MUT() is 0 in every other build. */
		const bool no_wait = TCP_EMU_MUT(TCP_MUT_LD_BEFORE_WAIT) || TCP_EMU_MUT(TCP_MUT_DEALLOC_BEFORE_WAIT);
		if (issuer_warp) {
			if (tcp_elect_one()) {
				uint32_t vd = d0, videsc = idesc, vsfa = sfa;
				uint64_t vb = bdesc;
				if (TCP_EMU_MUT(TCP_MUT_STAGE_OVER_A))
					vd = a_tmem + (p.lane_align << 16);
				if (TCP_EMU_MUT(TCP_MUT_SF_OFF_BY_ONE))
					vsfa = sfa + 1;
				if (TCP_EMU_MUT(TCP_MUT_WRONG_N))
					videsc = idesc - (1u << 17);	/* N >> 3 one less */
				if (TCP_EMU_MUT(TCP_MUT_N_FIELD_SHIFTED))
					videsc = (idesc & ~(0x3fu << 17)) | (((idesc >> 17) & 0x3fu) >> 1) << 17;
				if (TCP_EMU_MUT(TCP_MUT_LBO_SBO_SWAPPED))
					vb = (bdesc & ~((0x3fffull << 16) | (0x3fffull << 32))) | ((bdesc >> 16) & 0x3fff) << 32 |
					     ((bdesc >> 32) & 0x3fff) << 16;
				if (!TCP_EMU_MUT(TCP_MUT_MMA_SKIPPED))
					tcp_tc_mma<CG, KIND, TS, SV>(vd, a_op, vb, videsc, vsfa, sfb, 0);
				if constexpr (TS) {
					if (TCP_EMU_MUT(TCP_MUT_CP_INTO_MMA_A))
						tcp_tc_cp<CG, TCP_CP_128X256B, 0>(a_tmem, adesc);
				}
				if (TCP_EMU_MUT(TCP_MUT_LOCAL_COMMIT_CG2))
					tc_commit<CG, TCP_CAST_LOCAL>(&bar_mma);
				else if (!TCP_EMU_MUT(TCP_MUT_MISSING_COMMIT))
					tc_commit<CG, CAST>(&bar_mma);
				if (!no_wait)
					tc_wait(&bar_mma, TCP_EMU_MUT(TCP_MUT_WRONG_PARITY) ? 1 : 0, p, SITE_MMA);
				if (KIND <= TCP_KIND_I8 && !TS && p.use_mask) {
					/* Same MMA again, accumulating, with the lane mask:
					 * unmasked lanes end at 2 D, masked lanes keep D. */
					tcp_tc_mma_masked<CG, (KIND <= TCP_KIND_I8 ? KIND : 0)>(d0, adesc, bdesc, idesc,
												p.mask, 1);
					tc_commit<CG, CAST>(&bar_mma);
					tc_wait(&bar_mma, 1, p, SITE_MMA);
				}
			}
			__syncwarp();
		}
		if (peer_warp) {
			if (tcp_elect_one() && !no_wait) {
				tc_wait(&bar_mma, 0, p, SITE_MMA);
				if (KIND <= TCP_KIND_I8 && !TS && p.use_mask)
					tc_wait(&bar_mma, 1, p, SITE_MMA);
			}
			__syncwarp();
		}
		tc_sync_all<CG>(!TCP_EMU_MUT(TCP_MUT_NO_FENCE_AFTER));
		if (warp < 4 && !TCP_EMU_MUT(TCP_MUT_DEALLOC_BEFORE_WAIT)) {
			const unsigned lane = 32u * warp + threadIdx.x % 32;
			for (unsigned c0 = 0; c0 < p.acc_cols; c0 += 8) {
				uint32_t r[8];
				tcp_tc_ld<TCP_TC_32X32B, 8, 0>(tbase + p.acc_col + ((32u * warp) << 16) + c0, r);
				tcp_tc_wait_ld();
				/* lane_permuted: lanes 0 and 1 trade rows */
				const unsigned dl = TCP_EMU_MUT(TCP_MUT_LANE_PERMUTED) && lane < 2 ? lane ^ 1u : lane;
#pragma unroll
				for (int j = 0; j < 8; j++)
					p.dump[((size_t)rank * 128 + dl) * p.acc_cols + c0 + j] = r[j];
			}
		}
	} else if constexpr (MODE == TC_MODE_LAT) {
		/* issue -> commit -> phase flip seen by the issuing thread, one MMA
		 * per sample, through two windows that close together when the
		 * issuing thread sees the phase flip:
		 *   issue   opens with a 32-bit clock read before the MMA; ptxas
		 *           places the MMA's operand setup (R2UR, LDCU) after it,
		 *           inside the window, as the published method's window
		 *           (SemiAnalysis umma_lat.cu: clock, elect, MMA, commit)
		 *           holds its setup: comparable with their figures
		 *   commit  opens with the 64-bit clock read after the MMA and its
		 *           commit issued (see tc_clock32): the hardware's part,
		 *           checked clean by the SASS rule
		 * The first sample writes D (enable-input-d = 0: TMEM is not
		 * zeroed), the others accumulate into it (OPT = 1) or overwrite it
		 * (OPT = 0); TC_LAT_WARMUP samples are dropped. */
		constexpr int n = TC_LAT_WARMUP + TC_LAT_SAMPLES;
		if (issuer_warp) {
			if (tcp_elect_one()) {
				unsigned long long *rec = p.rec + (size_t)cta * TC_REC;
				unsigned ph = 0;
				unsigned long long t_start = 0;
				/* One sample: clock, MMA, commit, clock, bounded wait, clock. */
				auto sample = [&](const uint32_t acc) {
					const uint32_t ti = tc_clock32();
					tcp_tc_mma<CG, KIND, TS, SV>(d0, a_op, bdesc, idesc, sfa, sfb, acc);
					tc_commit<CG, CAST>(&bar_mma);
					t_start = tcp_clock64();
					tc_wait(&bar_mma, ph, p, SITE_MMA);
					const uint32_t t1 = tc_clock32();
					ph ^= 1;
					return (unsigned long long)(t1 - ti) << 32 | (uint32_t)(t1 - (uint32_t)t_start);
				};
				sample(0);
				for (int i = 1; i < TC_LAT_WARMUP; i++)
					sample(OPT);
				for (int i = 0; i < TC_LAT_SAMPLES; i++)
					rec[i] = sample(OPT);
				rec[TC_REC_T0] = t_start;
			}
			__syncwarp();
		}
		if (peer_warp) {
			if (tcp_elect_one()) {
				if (TCP_EMU_MUT(TCP_MUT_PEER_NO_BACKPRESSURE)) {
					/* the waiter tests once, then falls 100 ms behind */
					tcp_mbar_test(&bar_mma, 0);
					const unsigned long long t = tcp_globaltimer();
					while (tcp_globaltimer() - t < 100000000ull)
						;
				}
				for (int i = 0; i < n; i++)
					tc_wait(&bar_mma, (unsigned)i & 1u, p, SITE_MMA);
			}
			__syncwarp();
		}
	} else if constexpr (MODE == TC_MODE_II) {
		/* Every depth D = tc_ii_depth(j) (1, 2, 4 .. 64; the emulation
		 * 1, 2, 4, 32), each a compile-time chain (the host reports the
		 * depth the point asks for, or fits them all): TC_II_WARM warm-up
		 * chains, then TC_II_TIMED timed ones; issue cycles (the MMAs after
		 * the TC_II_PRE(OPT, D) = 1 (chain=indep: 2, one per stage) issued
		 * before the window opens, see tc_clock32) and completion cycles
		 * (from just after those to the mbarrier flip), the minimum over the
		 * timed ones, in rec
		 * 4 + j and 4 + TC_FIT_DEPTHS + j.  The two-accumulator chains
		 * alternate the accumulators at columns 0 and TC_STAGE_STRIDE, the
		 * others use one; enable-input-d per TC_II_ACC (tc_chain_rest).  No loop
		 * bound, no depth, no status flag is a run-time value in the issuing
		 * thread's control flow.  The commit's barrier address is pinned in a
		 * register before any window (tc_pin): at depth 1 ptxas converted it
		 * to a uniform register between the clock read and the commit,
		 * inside the completion window (check-sass clean-window). */
		__shared__ uint32_t pin_bar;
		const uint32_t mma_bar = tc_pin(tcp_smem_u32(&bar_mma), &pin_bar);
		if (issuer_warp) {
			if (tcp_elect_one()) {
				unsigned long long *rec = p.rec + (size_t)cta * TC_REC, t_start = 0;
				unsigned ph = 0;
				auto depth = [&](auto J) {
					constexpr int j = decltype(J)::value, D = tc_ii_depth(j);
					unsigned long long best_issue = ~0ull, best_done = ~0ull;
#pragma unroll 1
					for (int rep = 0; rep < TC_II_WARM + TC_II_TIMED; rep++) {
						tcp_tc_mma<CG, KIND, TS, SV>(d0, a_op, bdesc, idesc, sfa, sfb, 0);
						if constexpr (TC_II_TWO(OPT) && D > 1)	/* both stages before the window */
							tcp_tc_mma<CG, KIND, TS, SV>(d0 + TC_STAGE_STRIDE, a_op, bdesc, idesc, sfa, sfb, 0);
						t_start = tcp_clock64();
						const uint32_t t0 = (uint32_t)t_start;
						tc_chain_rest<CG, KIND, TS, SV, OPT, D>(d0, a_op, bdesc, idesc, sfa, sfb);
						const uint32_t t1 = tc_clock32();
						tcp_tc_commit<CG, CAST>(mma_bar);
						tc_wait(&bar_mma, ph, p, SITE_MMA);
						const uint32_t t2 = tc_clock32();
						ph ^= 1;
						if (rep >= TC_II_WARM) {
							const unsigned long long di = (uint32_t)(t1 - t0), dd = (uint32_t)(t2 - t0);
							best_issue = di < best_issue ? di : best_issue;
							best_done = dd < best_done ? dd : best_done;
						}
					}
					rec[4 + j] = best_issue;
					rec[4 + TC_FIT_DEPTHS + j] = best_done;
					/* every depth's 64-bit start is stored: with only the
					 * last one kept, ptxas narrowed the earlier depths'
					 * opening reads to 32 bits (check-sass open-64) */
					rec[TC_REC_T0 - 1 - j] = t_start;
				};
				depth(std::integral_constant<int, 0>{});
				depth(std::integral_constant<int, 1>{});
				depth(std::integral_constant<int, 2>{});
				depth(std::integral_constant<int, 3>{});
#if TCP_AUX_EMU
				static_assert(TC_FIT_DEPTHS == 4, "one call per depth above");
#else
				static_assert(TC_FIT_DEPTHS == 7, "one call per depth");
				depth(std::integral_constant<int, 4>{});
				depth(std::integral_constant<int, 5>{});
				depth(std::integral_constant<int, 6>{});
#endif
				rec[TC_REC_T0] = t_start;
			}
			__syncwarp();
		}
		if (peer_warp) {
			if (tcp_elect_one())
				for (int i = 0; i < (TC_II_WARM + TC_II_TIMED) * TC_FIT_DEPTHS; i++)
					tc_wait(&bar_mma, (unsigned)i & 1u, p, SITE_MMA);
			__syncwarp();
		}
	} else {	/* TC_MODE_TPUT */
		/* `iters` MMAs (even) into d0, d1 alternating (the same accumulator
		 * when one stage), unrolled by two so each MMA has constant
		 * operands; the first pair writes D, the rest accumulate (OPT 0)
		 * or overwrite it (OPT 1: enable-input-d 0, no read of D).  With
		 * commit_every = k: a commit to bar_aux after every k MMAs (what a
		 * mainloop does per k-block); its one phase completes when all have
		 * arrived.  Issue end (last MMA issued) and completion recorded. */
		constexpr uint32_t eid = OPT == 0 ? 1u : 0u;
		const int k = p.commit_every;
		/* Everything the issue loop reads besides the MMA operands, pinned
		 * in registers before the window (tc_pin): ptxas re-read the loop
		 * bounds, the instruction descriptor and the barrier's cluster
		 * address per batch inside the span (check-sass clean-span).  The
		 * batch count's division happens here, outside every window. */
		__shared__ uint32_t pin[5];
		const int iters = (int)tc_pin((uint32_t)p.iters, &pin[0]);
		const int kb = (int)tc_pin((uint32_t)k, &pin[1]);
		const int nb = (int)tc_pin(k > 0 ? (uint32_t)(p.iters / k) : 0u, &pin[2]);
		const uint32_t aux = tc_pin(tcp_smem_u32(&bar_aux), &pin[3]);
		const uint32_t idp = tc_pin(idesc, &pin[4]);
		if (issuer_warp) {
			if (tcp_elect_one()) {
				unsigned long long *rec = p.rec + (size_t)cta * TC_REC;
				/* one stage: the pair's second MMA accumulates (overwrites with OPT 1) */
				const uint32_t acc2 = OPT == 0 && d1 == d0;
				if (iters < 2 || (kb > 0 && (iters & (kb - 1))) || (p.stage_stride & (TC_STAGE_STRIDE - 1)))
					tcp_tc_trap(p.status, TCP_TC_BAD_ARGS, SITE_MMA, (unsigned long long)iters);	/* never: the host sizes these */
				/* The first MMA issues, then the window opens (see tc_clock32):
				 * it holds the other iters - 1 MMAs, which reuse the first
				 * one's operand registers. */
				uint32_t t0, t1;
				unsigned long long t_start;
				tcp_tc_mma<CG, KIND, TS, SV>(d0, a_op, bdesc, idp, sfa, sfb, 0);
				if (kb == 1) {
					tcp_tc_commit<CG, CAST>(aux);
					t_start = tcp_clock64();
					tcp_tc_mma<CG, KIND, TS, SV>(d1, a_op, bdesc, idp, sfa, sfb, acc2);
					tcp_tc_commit<CG, CAST>(aux);
					for (int i = 2; i < iters; i += 2) {
						tcp_tc_mma<CG, KIND, TS, SV>(d0, a_op, bdesc, idp, sfa, sfb, eid);
						tcp_tc_commit<CG, CAST>(aux);
						tcp_tc_mma<CG, KIND, TS, SV>(d1, a_op, bdesc, idp, sfa, sfb, eid);
						tcp_tc_commit<CG, CAST>(aux);
					}
					t1 = tc_clock32();
				} else if (kb > 1) {
					/* batch 0: the first pair and k - 2 more; batches 1 .. nb - 1: k each */
					t_start = tcp_clock64();
					tcp_tc_mma<CG, KIND, TS, SV>(d1, a_op, bdesc, idp, sfa, sfb, acc2);
					for (int i = 2; i < kb; i += 2) {
						tcp_tc_mma<CG, KIND, TS, SV>(d0, a_op, bdesc, idp, sfa, sfb, eid);
						tcp_tc_mma<CG, KIND, TS, SV>(d1, a_op, bdesc, idp, sfa, sfb, eid);
					}
					tcp_tc_commit<CG, CAST>(aux);
					for (int b = 1; b < nb; b++) {
						for (int i = 0; i < kb; i += 2) {
							tcp_tc_mma<CG, KIND, TS, SV>(d0, a_op, bdesc, idp, sfa, sfb, eid);
							tcp_tc_mma<CG, KIND, TS, SV>(d1, a_op, bdesc, idp, sfa, sfb, eid);
						}
						tcp_tc_commit<CG, CAST>(aux);
					}
					t1 = tc_clock32();
				} else {
					t_start = tcp_clock64();
					tcp_tc_mma<CG, KIND, TS, SV>(d1, a_op, bdesc, idp, sfa, sfb, acc2);
					for (int i = 2; i < iters; i += 2) {
						tcp_tc_mma<CG, KIND, TS, SV>(d0, a_op, bdesc, idp, sfa, sfb, eid);
						tcp_tc_mma<CG, KIND, TS, SV>(d1, a_op, bdesc, idp, sfa, sfb, eid);
					}
					t1 = tc_clock32();
				}
				t0 = (uint32_t)t_start;
				rec[TC_REC_T0] = t_start;
				tc_commit<CG, CAST>(&bar_mma);
				tc_wait(&bar_mma, 0, p, SITE_MMA);
				if (k > 0)
					tc_wait(&bar_aux, 0, p, SITE_BATCH);
				rec[0] = (uint32_t)(tc_clock32() - t0);
				rec[4] = (uint32_t)(t1 - t0);
			}
			__syncwarp();
		}
		if (peer_warp) {
			if (tcp_elect_one()) {
				tc_wait(&bar_mma, 0, p, SITE_MMA);
				if (k > 0)
					tc_wait(&bar_aux, 0, p, SITE_BATCH);
			}
			__syncwarp();
		}
	}

	/* 6. Teardown (tc-common.cuh tc_tmem_epilogue); the address re-read
	 * from shared memory keeps tbase from living across the kernel. */
	tc_tmem_epilogue<CG>(*(volatile uint32_t *)&slot, p.alloc_cols);
}

/* ---- kernel tables ------------------------------------------------------- */

typedef void (*tc_kern_t)(const struct tc_mma_args);

#define TC_KV_C(CG, TS, MODE, CAST, OPT)                                                                 \
	{ tc_mma_kernel<CG, 0, TS, 1, MODE, CAST, OPT>, tc_mma_kernel<CG, 1, TS, 1, MODE, CAST, OPT>,    \
	  tc_mma_kernel<CG, 2, TS, 1, MODE, CAST, OPT>, tc_mma_kernel<CG, 3, TS, 1, MODE, CAST, OPT>,    \
	  tc_mma_kernel<CG, 4, TS, 1, MODE, CAST, OPT>, tc_mma_kernel<CG, 5, TS, 2, MODE, CAST, OPT>,    \
	  tc_mma_kernel<CG, 6, TS, 2, MODE, CAST, OPT>, tc_mma_kernel<CG, 6, TS, 4, MODE, CAST, OPT> }
#define TC_KV(CG, TS, MODE) TC_KV_C(CG, TS, MODE, TCP_CAST_MULTICAST, 0)
/* [cg - 1][ts][kind variant], the multicast commit (tc_layout, tc_epilogue) */
#define TC_TABLE(MODE) { { TC_KV(1, 0, MODE), TC_KV(1, 1, MODE) }, { TC_KV(2, 0, MODE), TC_KV(2, 1, MODE) } }
#define TC_TABLE_CG1(MODE) { { TC_KV(1, 0, MODE), TC_KV(1, 1, MODE) }, { { NULL }, { NULL } } }
/* [cg - 1][ts][cast][kind variant]: what the MMA probes index with tc_mma_kern() */
#define TC_TS_CAST(CG, TS, MODE, OPT) { TC_KV_C(CG, TS, MODE, TCP_CAST_LOCAL, OPT), TC_KV_C(CG, TS, MODE, TCP_CAST_MULTICAST, OPT) }
#define TC_TABLE_CAST(MODE, OPT)                                                                      \
	{ { TC_TS_CAST(1, 0, MODE, OPT), TC_TS_CAST(1, 1, MODE, OPT) },                                 \
	  { TC_TS_CAST(2, 0, MODE, OPT), TC_TS_CAST(2, 1, MODE, OPT) } }
typedef tc_kern_t tc_cast_table_t[2][2][2][KV_N];

/* The validation kernels of every MMA probe (tc-mma-validate.cu). */
extern const tc_cast_table_t tc_mma_validate_tab;

/* ---- the point: axes every MMA probe shares ------------------------------- */

/* The order is tc-check.h's TCP_TC_AX_* (tcp_tc_mma_point() reads them). */
#define TC_AXES_MMA                                                                                  \
	{ "kind", "tcgen05.mma .kind", tcp_tc_kind_names, "f16" },                                       \
	{ "atype", "A element type (auto = the kind's default: bf16, tf32, e4m3, s8, e2m1)", tcp_tc_type_names, "auto" }, \
	{ "btype", "B element type (auto = as A)", tcp_tc_type_names, "auto" },                          \
	{ "sf", "block-scale type (block-scaled kinds)", tcp_tc_sf_names, "ue8m0" },                     \
	{ "block", "K elements per scale factor: 32 or 16 (mxf4nvf4 only)", NULL, "[32]" },          \
	{ "cta_group", "1 = one CTA, 2 = CTA pair (cluster of 2)", NULL, "[1,2]" },                  \
	{ "M", "instruction M (cta_group::2: the pair's M)", NULL, "[128]" },                        \
	{ "N", "instruction N", NULL, "[64,128,256]" },                                             \
	{ "ab", "A from shared memory (ss) or TMEM (ts)", tcp_tc_ab_names, "ss" },                      \
	{ "grid", "all = one issuing CTA (pair) per SM (pair of SMs); 1 = a single one on the GPU", tcp_tc_grid_names, "all" }, \
	{ "cast", "commit to each CTA's own mbarrier with .multicast::cluster (pair: mask 0b11; production) " \
		  "or to the issuing CTA's barrier only (local)", tcp_tc_cast_names, "multicast" },        \
	{ "swizzle", "shared-memory layout of A and B: none or 128B (K-major)", tcp_tc_swizzle_names, "none" }
#define TC_NAXES_MMA 12
#define TC_NAXES_CHECK static_assert(TC_NAXES_MMA == TCP_TC_NAXES, "TC_AXES_MMA is tc-check.h's axis list")
TC_NAXES_CHECK;

static inline int tc_kind_variant(const tcp_mma_cfg_t *c)
{
	return tcp_tc_kind_variant(c);
}

/* ---- host state ------------------------------------------------------------- */

struct tc_mma {
	tcp_mma_cfg_t cfg;
	tcp_tc_mma_point_t pt;	/* the point (tc-check.h tcp_tc_mma_point) */
	tcp_tmem_fp_t fp;	/* TMEM footprint of the point (what setup placed) */
	int ts, grid, units;	/* units = issuing CTAs (pairs for cta_group::2) */
	size_t smem;
	tcp_tc_mma_data_t data;
	struct tc_mma_args args;
	uint4 *d_img;
	uint32_t *d_sf;
	uint32_t *d_dump, *h_dump;
	unsigned long long *d_rec, *h_rec, *d_status;
	double *tmp;
};

static inline void tc_mma_free(struct tc_mma *m)
{
	if (!m)
		return;
	cudaFree(m->d_img);
	cudaFree(m->d_sf);
	cudaFree(m->d_dump);
	cudaFree(m->d_rec);
	tcp_trap_status_free(m->d_status);
	free(m->h_dump);
	free(m->h_rec);
	free(m->tmp);
	tcp_tc_mma_data_free(&m->data);
}

/* Upload the scale-factor TMEM image (block-scaled kinds): per CTA, sfa
 * columns then sfb columns, 128 lanes each, laid out by tc-check.c through
 * the model's map (tcp_tmem_sf_cell). */
static inline tcp_status_t tc_mma_sf_upload(struct tc_mma *m, tcp_ctx_t *c)
{
	const unsigned ncol = m->args.sfa_cols + m->args.sfb_cols, ctas = m->data.ctas;
	size_t n = (size_t)ctas * ncol * 128;
	uint32_t *img = (uint32_t *)calloc(n, sizeof(uint32_t));
	if (!img) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	for (unsigned i = 0; i < ctas; i++) {
		tcp_tc_sf_image(&m->data, i, 0, img + (size_t)i * ncol * 128, m->args.sfa_cols);
		tcp_tc_sf_image(&m->data, i, 1, img + (size_t)i * ncol * 128 + (size_t)m->args.sfa_cols * 128,
				m->args.sfb_cols);
	}
	cudaError_t e = cudaMalloc(&m->d_sf, n * sizeof(uint32_t));
	if (e == cudaSuccess)
		e = cudaMemcpy(m->d_sf, img, n * sizeof(uint32_t), cudaMemcpyHostToDevice);
	free(img);
	if (e != cudaSuccess) {
		snprintf(c->reason, TCP_REASON_LEN, "scale-factor image upload: %s", cudaGetErrorString(e));
		return TCP_FAILED;
	}
	m->args.sf_img = m->d_sf;
	return TCP_OK;
}

/*
 * tc_mma_setup_point()
 *	Build operands (fresh random from ctx->seed, or the unique fill) in
 *	the point's shared-memory layout, per-block random scale factors, the
 *	instruction descriptor and the TMEM footprint the planner checked
 *	(tcp_tc_mma_fp: mp->stages accumulator stages, or fewer where they do
 *	not fit and mp->exact is 0); upload.
 */
static inline tcp_status_t tc_mma_setup_point(struct tc_mma *m, const tcp_tc_mma_point_t *mp, int fill, tcp_ctx_t *c)
{
	const tcp_mma_cfg_t *cfg = &mp->cfg;
	const int ts = mp->ts;
	tcp_idesc_t id;
	memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	m->pt = *mp;
	m->ts = ts;
	if (tcp_tc_mma_data_build_at(&m->data, cfg, mp->swizzle, mp->kstep, c->seed, fill, c->reason, TCP_REASON_LEN)) {
		return TCP_FAILED;
	}
	tcp_mma_to_idesc(cfg, &id);
	if (tcp_idesc_encode(&id, &m->args.idesc)) {
		snprintf(c->reason, TCP_REASON_LEN, "model/idesc.h cannot encode this configuration");
		return TCP_FAILED;
	}
	tcp_acc_cfg_t ac = { cfg->cta_group, cfg->m, cfg->n, 0, 0, 0 };
	m->args.acc_cols = tcp_acc_cols(&ac);
	/* TMEM placement: the footprint the planner checked. */
	unsigned ns = tcp_tc_mma_stages(mp), col[4];
	tcp_tc_mma_fp(mp, ns, &m->fp, col);
	if (tcp_tmem_fp_check(&m->fp, c->reason, TCP_REASON_LEN))
		return TCP_SKIPPED;
	m->args.nstage = ns;
	m->args.stage_stride = ns > 1 ? TC_STAGE_STRIDE : 0;
	m->args.alloc_cols = m->fp.alloc;
	m->args.acc_col = col[0];
	m->args.a_col = col[1];
	m->args.sfa_col = col[2];
	m->args.sfb_col = col[3];
	m->args.a_cp_fmt = ts ? tcp_tc_a_cp_fmt(cfg) : 0;
	m->args.a_dup = ts && cfg->m / (unsigned)cfg->cta_group == 64;
	/* row 0's K chunk 1 (element T of the chunk) in the tile, as the model places it */
	m->args.a_k1_off = tcp_tile_place(&m->data.ta, 0, tcp_tile_t_elems(&m->data.ta)) / 8;
	m->args.iters = mp->depth;
	m->args.commit_every = mp->commit_every;
	m->args.ta = m->data.ta;
	m->args.tb = m->data.tb;
	m->args.a_off = m->data.a_off;
	m->args.b_off = m->data.b_off;
	m->args.kstep = m->data.kstep;
	m->args.img_words = m->data.img_bytes / 16;
	m->args.budget = tc_budget(c);
	m->smem = tc_exclusive_smem(c, m->data.img_bytes, 1024);	/* one CTA per SM */
	unsigned ctas = m->data.ctas;
	TCP_CUDA_TRY(c, cudaMalloc(&m->d_img, (size_t)ctas * m->data.img_bytes));
	for (unsigned i = 0; i < ctas; i++)
		TCP_CUDA_TRY(c, cudaMemcpy((uint8_t *)m->d_img + (size_t)i * m->data.img_bytes, m->data.img[i],
					   m->data.img_bytes, cudaMemcpyHostToDevice));
	m->args.img = m->d_img;
	if (tcp_kind_block_scaled(cfg->kind)) {
		m->args.sfa_cols = tcp_tc_sf_region_cols(cfg, 0);	/* K = 96 .block16: two words per row */
		m->args.sfb_cols = tcp_tc_sf_region_cols(cfg, 1);
		tcp_status_t st = tc_mma_sf_upload(m, c);
		if (st != TCP_OK)
			return st;
	}
	size_t dump_n = (size_t)ctas * 128 * m->args.acc_cols;
	TCP_CUDA_TRY(c, cudaMalloc(&m->d_dump, dump_n * sizeof(uint32_t)));
	m->h_dump = (uint32_t *)calloc(dump_n, sizeof(uint32_t));
	m->grid = mp->grid1 ? cfg->cta_group : c->sm_count - (cfg->cta_group == 2 ? c->sm_count % 2 : 0);
	if (m->grid < cfg->cta_group)
		m->grid = cfg->cta_group;
	m->units = m->grid / cfg->cta_group;
	TCP_CUDA_TRY(c, cudaMalloc(&m->d_rec, (size_t)m->grid * TC_REC * sizeof(unsigned long long)));
	m->h_rec = (unsigned long long *)calloc((size_t)m->grid * TC_REC, sizeof(unsigned long long));
	m->tmp = (double *)calloc((size_t)m->grid * TC_REC, sizeof(double));
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

/* tc_mma_setup_point() with the default options (every SM, multicast commit,
 * no swizzle) and `nstage_want` accumulator stages where they fit (tc_layout,
 * tc_epilogue): the point tc_mma_default_point() fills. */
static inline void tc_mma_default_point(const tcp_mma_cfg_t *cfg, int ts, unsigned nstage_want,
					tcp_tc_mma_point_t *mp)
{
	memset(mp, 0, sizeof(*mp));
	mp->cfg = *cfg;
	mp->ts = ts;
	mp->cast = TCP_TC_CAST_MULTICAST;
	mp->swizzle = TCP_SW_NONE;
	mp->kv = tcp_tc_kind_variant(cfg);
	mp->stages = nstage_want ? nstage_want : 1;
}

static inline tcp_status_t tc_mma_setup(struct tc_mma *m, const tcp_mma_cfg_t *cfg, int ts, int fill,
					unsigned nstage_want, tcp_ctx_t *c)
{
	tcp_tc_mma_point_t mp;
	tc_mma_default_point(cfg, ts, nstage_want, &mp);
	return tc_mma_setup_point(m, &mp, fill, c);
}

/* The TMEM footprint tc_mma_setup() places (the `tmem` hook of tc_layout and
 * tc_epilogue): `stages` accumulator stages, exactly. */
static inline void tc_mma_fp(const tcp_mma_cfg_t *cfg, int ts, unsigned stages, tcp_tmem_fp_t *fp)
{
	tcp_tc_mma_point_t mp;
	unsigned col[4];
	tc_mma_default_point(cfg, ts, stages, &mp);
	tcp_tc_mma_fp(&mp, stages, fp, col);
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

/* Kernel of a TC_TABLE_CAST table for this state's cta_group, A, commit form, kind. */
static inline tc_kern_t tc_mma_kern_cast(const struct tc_mma *m, const tc_cast_table_t tab)
{
	return tab[m->cfg.cta_group - 1][m->ts][m->pt.cast][m->pt.kv];
}

/* validate() of the MMA probes: the point's commit form, one MMA, the whole tile. */
static inline tcp_status_t tc_mma_validate_point(void *state, tcp_ctx_t *c)
{
	struct tc_mma *m = (struct tc_mma *)state;
	return tc_mma_validate(m, tc_mma_kern_cast(m, tc_mma_validate_tab), c);
}

/* legal(), legal_on() and tmem() of an MMA probe: its point read by
 * tcp_tc_mma_point() (tc-check.c), whether target t has its MMA
 * (model/arch.c: "kind::i8 does not exist on sm_103a"; a point illegal
 * everywhere is legal()'s to report), and that point's TMEM footprint. */
#define TC_MMA_POINT_HOOKS(PROBE)                                                                    \
	static int tc_probe_legal(const tcp_point_t *p, char *reason, size_t len)                  \
	{                                                                                            \
		tcp_tc_mma_point_t mp;                                                               \
		return tcp_tc_mma_point(PROBE, p, &mp, reason, len) == 0;                            \
	}                                                                                            \
	static int tc_probe_legal_on(const tcp_point_t *p, const tcp_target_info_t *t, char *reason, \
				     size_t len)                                                     \
	{                                                                                            \
		tcp_tc_mma_point_t mp;                                                               \
		return tcp_tc_mma_point(PROBE, p, &mp, reason, len) != 0 ||                         \
		       tcp_mma_legal_on(&mp.cfg, t, reason, len);                                    \
	}                                                                                            \
	static int tc_probe_tmem(const tcp_point_t *p, tcp_tmem_fp_t *fp, char *reason, size_t len) \
	{                                                                                            \
		return tcp_tc_mma_point_fp(PROBE, p, fp, reason, len);                               \
	}

/*
 * tc_mma_state_new()
 *	Start of setup(): the state allocated and stored in *state (teardown
 *	frees it whatever follows), the point read (tcp_tc_mma_point) into
 *	*mp.  TCP_OK: go on with tc_mma_setup_point(); else the status setup()
 *	returns (reason in c->reason).
 */
static inline tcp_status_t tc_mma_state_new(const char *probe, const tcp_point_t *p, tcp_ctx_t *c, void **state,
					    tcp_tc_mma_point_t *mp)
{
	struct tc_mma *m = (struct tc_mma *)calloc(1, sizeof(*m));
	if (!m) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = m;
	tcp_tmem_fp_t fp;
	if (tcp_tc_mma_point(probe, p, mp, c->reason, TCP_REASON_LEN) ||
	    tcp_tc_mma_point_fp(probe, p, &fp, c->reason, TCP_REASON_LEN) < 0)
		return TCP_SKIPPED;
	return TCP_OK;
}

/* Median over issuing units (even CTAs for cta_group::2) of record `off` / div. */
/*
 * tc_lat_summary(m, w, &med, &mn)
 *	A TC_MODE_LAT launch's window w (0 issue, 1 commit; tc_lat_issue /
 *	tc_lat_commit): per issuing CTA the median and the minimum of its
 *	TC_LAT_SAMPLES samples, then the median over CTAs of each.  Uses
 *	m->tmp (grid x TC_REC doubles).
 */
static inline void tc_lat_summary(struct tc_mma *m, int w, double *med, double *mn)
{
	double *a = m->tmp, *b = m->tmp + m->grid;
	int n = 0;
	for (int i = 0; i < m->grid; i += m->cfg.cta_group, n++) {
		double v[TC_LAT_SAMPLES];
		for (int j = 0; j < TC_LAT_SAMPLES; j++) {
			const unsigned long long r = m->h_rec[(size_t)i * TC_REC + j];
			v[j] = (double)(w ? tc_lat_commit(r) : tc_lat_issue(r));
		}
		a[n] = tc_median(v, TC_LAT_SAMPLES);	/* sorts v */
		b[n] = v[0];
	}
	*med = tc_median(a, n);
	*mn = tc_median(b, n);
}

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
