/*
 * probe-tc-epilogue.cu
 *	Epilogue overlap: does draining a second TMEM stage slow the MMAs?
 *	MMAs accumulate into stage 0 while stage 1 is drained at a swept rate:
 *	  ld  warpgroup 1 reads stage 1 with tcgen05.ld 32x32b.x32, EPI_LD_INFLIGHT
 *	      loads to distinct columns and registers before each wait::ld
 *	  st  warpgroup 1 writes it with tcgen05.st 32x32b.x32 the same way
 *	  cp  the MMA thread itself issues a tcgen05.cp 128x256b (4 KiB of shared
 *	      memory) into stage 1 after every batch of k MMAs (at least
 *	      gap_cycles apart, paced on %globaltimer: gap_cycles at the maximum
 *	      clock, to the timer's resolution), as DeepGEMM's sm100 GEMMs issue their
 *	      scale-factor UTCCPs from the MMA thread (sm100_fp8_fp4_gemm_1d1d.cuh),
 *	      destinations rotating through the first 4 x 8 columns of stage 1;
 *	      a batch waits for batch b - 2 (which covers b - 4's copy, whose
 *	      columns its copy rewrites), so at most 2 copies are in flight;
 *	      the drain-alone copies commit and wait the same way
 *	The answer is the curve flop_per_clk_sm against drain_bytes_per_clk_sm,
 *	read beside drain_alone_bytes_per_clk_sm: the same drain with no MMA
 *	running (and tc_ldst's best for 32x32b.x32 at one warpgroup).  A flat
 *	curve says something about TMEM only while the drain runs at its own
 *	limit.  ab = ss or ts: with A in TMEM (ts) shared memory carries only
 *	B, so the SS case's 128 B/clk shared-memory port is out of the way
 *	(at N = 128 SS the MMA alone fills it) and what remains is TMEM.
 *	cta_group::1, M = 128.
 *
 *	The emulation build (TCP_TC_EMU) runs TCP_AUX_EMU_EPI_BATCHES batches
 *	of k and TCP_AUX_EMU_EPI_ALONE_PASSES drain-alone passes (tc-aux.h).
 *
 *	The MMA stream, as a real mainloop: batches of k MMAs (the `k` axis),
 *	each closed by a commit to one of two mbarriers, and before batch b the
 *	issuer waits for batch b - 2 (bounded run-ahead: at most 2k MMAs in
 *	flight; CUTLASS / DeepGEMM commit per k-block and wait on the stage
 *	they reuse).  Every operand of the issue loop is pinned in uniform
 *	registers before the clock read (tc_pin; scripts/check-sass.sh checks
 *	the window and that no division sits between the MMAs).  The first MMA
 *	(enable-input-d = 0, TMEM is not zeroed) runs before the window.
 *
 *	TMEM: the MMA engine's footprint with two accumulator stages
 *	(tc-mma.cuh tc_mma_fp(), model/tmem-plan.h): acc0 = stage 0 [0, N),
 *	then A (ts) and the scale factors (block-scaled kinds: A 4 columns,
 *	B ceil(N/32); facts s.3) packed after it, acc1 = stage 1 [256, 256 + N)
 *	(TCP_TMEM_STAGE_STRIDE), the allocation the next power of two; every
 *	drain touches stage 1 only (the MMAs read A and the scale factors
 *	while it runs); the `tmem` hook gives the planner the same footprint, so a
 *	point whose two stages do not fit is SKIPPED with the region that leaves
 *	the allocation, and the kernel takes its columns from it.  Scale
 *	factors (per-block random, the model's layout) and A are staged as the
 *	MMA engine does (tc_stage_sf, tc_stage_a), whose validation kernel
 *	checks the point first.
 *
 *	Metrics:
 *	  flop_per_clk_sm               MMA rate during the drain, median over SMs
 *	  pct_of_peak                   of the published dense peak of the kind
 *	  drain_bytes_per_clk_sm        TMEM bytes the drain moved per SM clock while the MMAs ran
 *	  drain_alone_bytes_per_clk_sm  the same drain, same gap, with no MMA running
 *	  cycles_per_mma                issue of the first timed MMA to completion of the last, per MMA
 */
#include "probes/sm100/tc-mma.cuh"

#define EPI_MMAS TCP_AUX_EPI_MMAS	/* timed MMAs per SM */

extern "C" const tcp_probe_t tcp_probe_tc_epilogue;
#define EPI_LD_INFLIGHT 2	/* drain loads / stores before each wait */
#if TCP_AUX_EMU	/* the emulation's floor (tc-aux.h) */
#define EPI_ALONE_PASSES TCP_AUX_EMU_EPI_ALONE_PASSES
#else
#define EPI_ALONE_PASSES 64	/* drain-alone: passes over stage 1 */
#endif
#define EPI_REC 7		/* records per CTA (epi_args.rec) */
#define EPI_UNROLL 4		/* batches per unrolled pass; also the cp destinations (4 x 8 columns of stage 1) */

static const tc_kern_t validate_tab[2][2][KV_N] = TC_TABLE_CG1(TC_MODE_VALIDATE);
static const char *const drain_names[] = { "none", "ld", "st", "cp", NULL };
enum { DRAIN_NONE = 0, DRAIN_LD, DRAIN_ST, DRAIN_CP };
enum { EPI_SITE_BATCH = 0, EPI_SITE_LAST, EPI_SITE_CP_ALONE, EPI_SITE_TADDR, EPI_SITE_STAGE };
static const char *const sites[] = { "MMA batch two back (run-ahead bound)", "last MMA batches",
				     "drain-alone tcgen05.cp", "tcgen05.alloc result",
				     "staging of A in TMEM (tcgen05.cp commit -> mbarrier)" };

/* ---- the kernel -------------------------------------------------------------- */

struct epi_args {
	const uint4 *img;
	unsigned img_words;
	tcp_tile_t ta, tb;
	uint32_t a_off, b_off, idesc;
	const uint32_t *sf_img;		/* block-scaled: [sfa cols + sfb cols][128 lanes] (tc-mma.cuh) */
	unsigned a_cp_fmt;		/* ts: tcgen05.cp form (tcp_tc_a_cp_fmt) */
	unsigned alloc, acc_col, stage1, a_col, sfa_col, sfb_col, sfa_cols, sfb_cols;	/* from the footprint */
	unsigned n;			/* accumulator columns (N) */
	int k;				/* MMAs per batch */
	int nbatch;			/* EPI_MMAS / k */
	int drain;			/* DRAIN_* */
	unsigned gap;			/* cycles between drain accesses */
	unsigned long long gap_ns;	/* cp: at least this long between cps (gap at the maximum clock) */
	unsigned long long budget;	/* ns, every bounded wait */
	unsigned long long *rec;	/* [cta][EPI_REC]: mma cycles, drain bytes, drain cycles, alone bytes, alone cycles,
					 * the two windows' 64-bit starts (kept so that ptxas keeps them 64-bit reads,
					 * which is how check-sass finds a window) */
	unsigned long long *status;
};

struct epi_ops {
	uint64_t adesc, bdesc;
	uint32_t d0, a_op, sfa, sfb, idesc, bar0, bar1, cp_first;
	int k, nbatch;
	unsigned gap;
	unsigned long long gap_ns;
};

/* One drain pass over stage 1 by this warp: 32-column blocks, EPI_LD_INFLIGHT per wait.
 * Returns the bytes moved by the warp. */
template <int DR>
static __device__ __forceinline__ unsigned long long epi_drain_pass(uint32_t st1, unsigned n, uint32_t *r,
								    uint32_t &acc)
{
	unsigned long long bytes = 0;
	for (unsigned c = 0; c + 32 * EPI_LD_INFLIGHT <= n; c += 32 * EPI_LD_INFLIGHT) {
		if constexpr (DR == DRAIN_LD) {
TC_UNROLL
			for (int j = 0; j < EPI_LD_INFLIGHT; j++)
				tcp_tc_ld<TCP_TC_32X32B, 32, 0>(st1 + c + 32u * j, r + 32 * j);
			tcp_tc_wait_ld();
			acc += r[0] ^ r[32 * EPI_LD_INFLIGHT - 1];
		} else {
TC_UNROLL
			for (int j = 0; j < EPI_LD_INFLIGHT; j++)
				tcp_tc_st<TCP_TC_32X32B, 32, 0>(st1 + c + 32u * j, r + 32 * j);
			tcp_tc_wait_st();
		}
		bytes += 32ull * 32 * 4 * EPI_LD_INFLIGHT;
	}
	return bytes;
}

/* Spin `gap` cycles (the 32-bit clock: spins never read %clock64, see trap.cuh). */
static __device__ __forceinline__ void epi_spin(unsigned gap)
{
	unsigned c0;
	asm volatile("mov.u32 %0, %%clock;" : "=r"(c0)::"memory");
	for (;;) {
		unsigned c;
		asm volatile("mov.u32 %0, %%clock;" : "=r"(c)::"memory");
		if (c - c0 >= gap)
			break;
	}
}

/* Warpgroup 1's drain until the issuer is done (or the budget runs out),
 * then the same drain alone for EPI_ALONE_PASSES passes. */
template <int DR>
static __device__ void epi_drain_warp(const struct epi_args &p, uint32_t tbase, volatile int *done,
				      unsigned long long *bytes_sum, unsigned long long *cyc_out, int alone)
{
	const unsigned warp = threadIdx.x / 32;
	const uint32_t st1 = tbase + p.stage1 + ((32u * (warp % 4)) << 16);
	uint32_t r[32 * EPI_LD_INFLIGHT], acc = 0;
	unsigned long long n = 0;
#pragma unroll
	for (int j = 0; j < 32 * EPI_LD_INFLIGHT; j++)
		r[j] = (uint32_t)j;
	const unsigned long long g0 = tcp_globaltimer();
	const unsigned long long t0 = tcp_clock64();
	if (alone) {
		for (int i = 0; i < EPI_ALONE_PASSES; i++) {
			n += epi_drain_pass<DR>(st1, p.n, r, acc);
			epi_spin(p.gap);
		}
	} else {
		/* Warp-uniform condition: tcgen05.ld/st are .sync.aligned. */
		while (__all_sync(0xffffffffu, !*done && tcp_globaltimer() - g0 < p.budget)) {
			n += epi_drain_pass<DR>(st1, p.n, r, acc);
			epi_spin(p.gap);
		}
	}
	const unsigned long long t1 = tcp_clock64();
	if (acc == 0x5eed5eedu)	/* never true: keeps the loads live */
		n++;
	if ((threadIdx.x % 32) == 0)
		atomicAdd(bytes_sum, n);
	if (threadIdx.x == 128)
		*cyc_out = t1 - t0;
}

/* minBlocks = 1: one CTA per SM runs (tc_exclusive_smem); without it ptxas
 * budgets for two and spills the drain's 64 registers. */
/*
 * One batch b of the issue loop: wait for batch b - 2 (WAIT; its barrier is
 * bar[BAR] too), k MMAs into stage 0, the cp into stage 1 destination DST
 * when CP and gap_cycles have passed since the last one, the commit to
 * bar[BAR].  BAR = b & 1 and DST = b & 3 are template constants.
 */
template <int KIND, int TS, int SV, int CP, int BAR, int DST, int WAIT>
static __device__ __forceinline__ void epi_batch(const struct epi_args &p, const struct epi_ops &o, uint64_t *bar,
						 uint64_t a_op, int b, unsigned long long &cp_last,
						 unsigned long long &ncp)
{
	if constexpr (WAIT) {	/* batch b - 2 is completion (b - 2) / 2 of bar[BAR] */
		tcp_mbar_wait(&bar[BAR], (((unsigned)b - 2) >> 1) & 1u, p.budget, p.status, EPI_SITE_BATCH);
		/* this batch's cp rewrites the destination of batch b - 4: ordered
		 * after it only through the wait and this fence (mma -> cp and
		 * cp -> cp are not pipelined pairs) */
		tcp_tc_fence_after();
	}
	/* The first MMA straight-line (k >= 1): ptxas re-converts operands to
	 * uniform registers at a loop head, so no loop may stand between the
	 * window's clock read and its first MMA (check-sass clean-window). */
	tcp_tc_mma<1, KIND, TS, SV>(o.d0, a_op, o.bdesc, o.idesc, o.sfa, o.sfb, 1);
	for (int i = 1; i < o.k; i++)
		tcp_tc_mma<1, KIND, TS, SV>(o.d0, a_op, o.bdesc, o.idesc, o.sfa, o.sfb, 1);
	if constexpr (CP) {
		/* pacing on %globaltimer, never %clock64: a clock read inside the
		 * issue loop would open a timed window of its own (check-sass) */
		const unsigned long long now = tcp_globaltimer();
		if (now - cp_last >= o.gap_ns) {
			tcp_tc_cp<1, TCP_CP_128X256B, 0>(o.cp_first + 8u * DST, o.adesc);
			cp_last = now;
			ncp++;
		}
	}
	tcp_tc_commit<1, TCP_CAST_LOCAL>(BAR ? o.bar1 : o.bar0);
}

/*
 * Scale factors and A (ts) into TMEM as the MMA engine stages them
 * (tc-mma.cuh tc_stage_sf / tc_stage_a), before any timing.  Not inlined:
 * inlined, its registers pushed the issue loop's operands of the
 * block-scaled TS kernels out of uniform registers (R2UR inside the timed
 * window: scripts/check-sass.sh clean-window).
 */
template <int KIND, int TS>
static __device__ __noinline__ void epi_stage(const struct epi_args &p, uint32_t tbase, uint32_t sbase,
					       uint64_t *bar_stage)
{
	tc_stage_sf<KIND>(p.sf_img, p.sfa_cols, p.sfb_cols, tbase + p.sfa_col, tbase + p.sfb_col);
	if constexpr (TS) {
		if (threadIdx.x / 32 == 0) {
			if (tcp_elect_one()) {
				tcp_sdesc_t sa;
				uint64_t adesc = 0;
				tcp_tile_desc(&p.ta, sbase + p.a_off, 0, &sa);
				tcp_sdesc_encode(&sa, &adesc);
				tc_stage_a<1>(tbase + p.a_col, adesc, 0, 0, p.a_cp_fmt);
				tcp_tc_commit<1, TCP_CAST_LOCAL>(tcp_smem_u32(bar_stage));
				tcp_mbar_wait(bar_stage, 0, p.budget, p.status, EPI_SITE_STAGE);
			}
			__syncwarp();
		}
	}
}

template <int KIND, int TS, int SV, int CP>
static __global__ void __launch_bounds__(TC_THREADS, 1) epi_kernel(const struct epi_args p)
{
	extern __shared__ __align__(1024) uint8_t smem[];
	__shared__ uint64_t bar[2], bar_aux, bar_stage;
	__shared__ uint32_t slot;
	__shared__ volatile int done;
	__shared__ unsigned long long drain_bytes, alone_bytes, drain_cyc, alone_cyc;
	__shared__ struct epi_ops pin;
	const unsigned warp = threadIdx.x / 32;

	for (unsigned i = threadIdx.x; i < p.img_words; i += blockDim.x)
		((uint4 *)smem)[i] = p.img[i];
	tcp_fence_proxy_async_smem();
	if (threadIdx.x == 0) {
		tcp_mbar_init(&bar[0], 1);
		tcp_mbar_init(&bar[1], 1);
		tcp_mbar_init(&bar_aux, 1);
		tcp_mbar_init(&bar_stage, 1);
		done = 0;
		drain_bytes = alone_bytes = drain_cyc = alone_cyc = 0;
		tcp_mbar_init_fence();
	}
	const uint32_t tbase = tc_tmem_prologue<1>(&slot, p.alloc);
	if (threadIdx.x == 0 && !tcp_tmem_addr_ok(tbase, p.alloc))
		tcp_tc_trap(p.status, TCP_TC_BAD_TADDR, EPI_SITE_TADDR, tbase);

	/* Scale factors and A (ts) into TMEM as the MMA engine stages them. */
	epi_stage<KIND, TS>(p, tbase, tcp_smem_u32(smem), &bar_stage);
	tc_sync_all<1>();

	/* Operands of the issue loop, pinned in uniform registers. */
	const uint32_t sbase = tcp_smem_u32(smem);
	tcp_sdesc_t sd;
	struct epi_ops o;
	tcp_tile_desc(&p.ta, sbase + p.a_off, 0, &sd);
	tcp_sdesc_encode(&sd, &o.adesc);
	tcp_tile_desc(&p.tb, sbase + p.b_off, 0, &sd);
	tcp_sdesc_encode(&sd, &o.bdesc);
	o.adesc = tc_pin(o.adesc, &pin.adesc);
	o.bdesc = tc_pin(o.bdesc, &pin.bdesc);
	o.d0 = tc_pin(tbase + p.acc_col, &pin.d0);
	o.a_op = tc_pin(tbase + p.a_col, &pin.a_op);
	o.sfa = tc_pin(tbase + p.sfa_col, &pin.sfa);
	o.sfb = tc_pin(tbase + p.sfb_col, &pin.sfb);
	o.idesc = tc_pin(p.idesc, &pin.idesc);
	o.bar0 = tc_pin(tcp_smem_u32(&bar[0]), &pin.bar0);
	o.bar1 = tc_pin(tcp_smem_u32(&bar[1]), &pin.bar1);
	o.cp_first = tc_pin(tbase + p.stage1, &pin.cp_first);
	o.k = tc_pin(p.k, &pin.k);
	o.nbatch = tc_pin(p.nbatch, &pin.nbatch);
	o.gap = tc_pin(p.gap, &pin.gap);
	o.gap_ns = tc_pin(p.gap_ns, &pin.gap_ns);
	const uint64_t a_op = TS ? (uint64_t)o.a_op : o.adesc;

	if (warp == 0) {
		if (tcp_elect_one()) {
			/* The first MMA writes D (enable-input-d = 0) and issues before the
			 * window opens; its completion (bar_aux phase 0) is waited after
			 * the window.  No wait between it and the clock read: the MMAs of
			 * the window then reuse its operand registers (a wait's trap path
			 * between them made ptxas re-convert them to uniform registers
			 * inside the window: check-sass clean-window).  It is in flight at
			 * the window's start: at most one MMA in EPI_MMAS. */
			tcp_tc_mma<1, KIND, TS, SV>(o.d0, a_op, o.bdesc, o.idesc, o.sfa, o.sfb, 0);
			tcp_tc_commit<1, TCP_CAST_LOCAL>(tcp_smem_u32(&bar_aux));
			unsigned long long cp_last = 0, ncp = 0;
			const unsigned long long t0 = tcp_clock64();
			/* batch b: commit barrier b & 1, cp destination b & 3, both
			 * template constants: two batches, passes of four, two more */
			epi_batch<KIND, TS, SV, CP, 0, 0, 0>(p, o, bar, a_op, 0, cp_last, ncp);
			epi_batch<KIND, TS, SV, CP, 1, 1, 0>(p, o, bar, a_op, 1, cp_last, ncp);
			int b0 = 2;
			for (; b0 + 4 <= o.nbatch - 2; b0 += 4) {
				epi_batch<KIND, TS, SV, CP, 0, 2, 1>(p, o, bar, a_op, b0, cp_last, ncp);
				epi_batch<KIND, TS, SV, CP, 1, 3, 1>(p, o, bar, a_op, b0 + 1, cp_last, ncp);
				epi_batch<KIND, TS, SV, CP, 0, 0, 1>(p, o, bar, a_op, b0 + 2, cp_last, ncp);
				epi_batch<KIND, TS, SV, CP, 1, 1, 1>(p, o, bar, a_op, b0 + 3, cp_last, ncp);
			}
			epi_batch<KIND, TS, SV, CP, 0, 2, 1>(p, o, bar, a_op, b0, cp_last, ncp);
			epi_batch<KIND, TS, SV, CP, 1, 3, 1>(p, o, bar, a_op, b0 + 1, cp_last, ncp);
			if constexpr (CP)
				drain_bytes = ncp * 128 * 32;
			/* the last two batches */
			for (int b = o.nbatch - 2; b < o.nbatch; b++)
				if (b >= 0)
					tcp_mbar_wait(&bar[b & 1], ((unsigned)b >> 1) & 1u, p.budget, p.status, EPI_SITE_LAST);
			/* windows close with a 32-bit read (tc_clock32: never opens one) */
			const unsigned long long t1 = (uint32_t)(tc_clock32() - (uint32_t)t0);
			tcp_mbar_wait(&bar_aux, 0, p.budget, p.status, EPI_SITE_BATCH);	/* the first MMA, long done */
			p.rec[blockIdx.x * EPI_REC + 0] = t1;
			p.rec[blockIdx.x * EPI_REC + 5] = t0;
			if constexpr (CP)
				drain_cyc = t1;
			done = 1;
		}
		__syncwarp();
	}
	if (!CP && warp >= 4 && p.drain == DRAIN_LD)
		epi_drain_warp<DRAIN_LD>(p, tbase, &done, &drain_bytes, &drain_cyc, 0);
	else if (!CP && warp >= 4 && p.drain == DRAIN_ST)
		epi_drain_warp<DRAIN_ST>(p, tbase, &done, &drain_bytes, &drain_cyc, 0);

	/* The same drain with no MMA running. */
	tc_sync_all<1>();
	if (!CP && warp >= 4 && p.drain == DRAIN_LD)
		epi_drain_warp<DRAIN_LD>(p, tbase, &done, &alone_bytes, &alone_cyc, 1);
	else if (!CP && warp >= 4 && p.drain == DRAIN_ST)
		epi_drain_warp<DRAIN_ST>(p, tbase, &done, &alone_bytes, &alone_cyc, 1);
	if constexpr (CP) {
		if (warp == 0) {
			if (tcp_elect_one()) {
				const uint32_t cp0 = o.cp_first;
				const uint64_t cpd = o.adesc;
				const int nb = o.nbatch;
				const unsigned gap = o.gap;
				/* One copy before the window opens puts the operands in
				 * uniform registers (as the first MMA above); the first copy
				 * of the window follows the clock read straight-line, no loop
				 * head between (check-sass clean-window). */
				tcp_tc_cp<1, TCP_CP_128X256B, 0>(cp0 + 8u * (EPI_UNROLL - 1), cpd);
				/* Copy c goes to destination c % EPI_UNROLL; copies c >= 1
				 * commit to bar[c & 1] (copy 0 has no commit of its own: its
				 * commit's barrier address would be moved to a uniform
				 * register between the clock read and the first copy,
				 * check-sass clean-window); copy c >= 3 first waits for copy
				 * c - 2's commit, which covers copy c - 4 (and the copy
				 * before the window, destination 3) whose columns it
				 * rewrites: cp -> cp is not a pipelined pair.  That commit
				 * is completion (c - 3) / 2 of its barrier after the issue
				 * loop's (nb + 1) / 2 and nb / 2, all consumed there. */
				const unsigned done0 = (unsigned)(nb + 1) / 2u, done1 = (unsigned)nb / 2u;
				const unsigned long long t0 = tcp_clock64();
				tcp_tc_cp<1, TCP_CP_128X256B, 0>(cp0, cpd);
				epi_spin(gap);
				for (int c = 1; c < nb; c++) {
					const int h = c & 1;
					if (c >= 3) {
						tcp_mbar_wait(&bar[h], ((h ? done1 : done0) + ((unsigned)(c - 3) >> 1)) & 1u,
							      p.budget, p.status, EPI_SITE_CP_ALONE);
						tcp_tc_fence_after();
					}
					tcp_tc_cp<1, TCP_CP_128X256B, 0>(cp0 + 8u * (uint32_t)(c % EPI_UNROLL), cpd);
					tcp_tc_commit<1, TCP_CAST_LOCAL>(h ? o.bar1 : o.bar0);
					epi_spin(gap);
				}
				tcp_tc_commit<1, TCP_CAST_LOCAL>(tcp_smem_u32(&bar_aux));
				tcp_mbar_wait(&bar_aux, 1, p.budget, p.status, EPI_SITE_CP_ALONE);	/* phase 0: the first MMA */
				alone_cyc = (uint32_t)(tc_clock32() - (uint32_t)t0);
				p.rec[blockIdx.x * EPI_REC + 6] = t0;
				alone_bytes = (unsigned long long)o.nbatch * 128 * 32;
			}
			__syncwarp();
		}
	}
	tc_bar();
	if (threadIdx.x == 0) {
		p.rec[blockIdx.x * EPI_REC + 1] = drain_bytes;
		p.rec[blockIdx.x * EPI_REC + 2] = drain_cyc;
		p.rec[blockIdx.x * EPI_REC + 3] = alone_bytes;
		p.rec[blockIdx.x * EPI_REC + 4] = alone_cyc;
	}
	tc_tmem_epilogue<1>(tbase, p.alloc);
}

typedef void (*epi_kern_t)(const struct epi_args);
#define EPI_KV(TS, CP)                                                                              \
	{ epi_kernel<0, TS, 1, CP>, epi_kernel<1, TS, 1, CP>, epi_kernel<2, TS, 1, CP>, epi_kernel<3, TS, 1, CP>, \
	  epi_kernel<4, TS, 1, CP>, epi_kernel<5, TS, 2, CP>, epi_kernel<6, TS, 2, CP>, epi_kernel<6, TS, 4, CP> }
/* [ts][cp][kind variant] */
static const epi_kern_t epi_tab[2][2][KV_N] = { { EPI_KV(0, 0), EPI_KV(0, 1) }, { EPI_KV(1, 0), EPI_KV(1, 1) } };

/* ---- host side ---------------------------------------------------------------- */

enum { AX_KIND, AX_N, AX_DRAIN, AX_GAP, AX_AB, AX_K };
static const tcp_axis_t axes[] = {
	{ "kind", "tcgen05.mma .kind (default types)", tc_kind_names, "f16,f8f6f4,mxf4" },
	{ "N", "instruction N (M = 128, cta_group::1)", NULL, "[128,192]" },
	{ "drain", "traffic on stage 1: none, tcgen05.ld, tcgen05.st (warpgroup 1), tcgen05.cp (the MMA thread)",
	  drain_names, "none,ld,st,cp" },
	{ "gap_cycles", "idle cycles between drain accesses (cp: at least this many between cps)", NULL,
	  "[0,64,256,1024,4096]" },
	{ "ab", "A from shared memory (ss) or TMEM (ts)", tcp_tc_ab_names, "ss" },
	{ "k", "MMAs per commit batch (the issuer waits for the batch two back; cp after each batch)", NULL, "[4]" },
};

static const tcp_metric_t metrics[] = {
	{ "flop_per_clk_sm", "FLOP/clk/SM", 1, "MMA rate while stage 1 is drained, median over SMs" },
	{ "pct_of_peak", "%", 1, "of the published dense FLOP/clk/SM of the kind" },
	{ "drain_bytes_per_clk_sm", "B/clk/SM", 1, "TMEM bytes moved by the drain per SM clock, MMAs running" },
	{ "drain_alone_bytes_per_clk_sm", "B/clk/SM", 1, "the same drain with no MMA running" },
	{ "cycles_per_mma", "cycles", 0, "first timed MMA issue to the last batch's completion, per MMA" },
};

static int epi_cfg(const tcp_point_t *p, tcp_mma_cfg_t *cfg, char *reason, size_t len)
{
	if (p->v[AX_KIND] < 0 || p->v[AX_KIND] >= TCP_KIND_COUNT) {
		snprintf(reason, len, "kind index %lld out of range", (long long)p->v[AX_KIND]);
		return 0;
	}
	tcp_mma_cfg_default((tcp_kind_t)p->v[AX_KIND], cfg);
	cfg->m = 128;
	cfg->n = (unsigned)p->v[AX_N];
	cfg->a_tmem = p->v[AX_AB] == 1;
	if (!tcp_mma_legal(cfg, reason, len))
		return 0;
	if (p->v[AX_DRAIN] < 0 || p->v[AX_DRAIN] > DRAIN_CP) {
		snprintf(reason, len, "drain index %lld out of range", (long long)p->v[AX_DRAIN]);
		return 0;
	}
	if (p->v[AX_GAP] < 0 || p->v[AX_GAP] > 1000000) {
		snprintf(reason, len, "gap_cycles must be in [0, 1e6]; got %lld", (long long)p->v[AX_GAP]);
		return 0;
	}
	if (p->v[AX_K] < 1 || p->v[AX_K] > 256 || (EPI_MMAS / EPI_UNROLL) % p->v[AX_K]) {
		snprintf(reason, len, "k must divide %d and be in [1, 256]; got %lld", EPI_MMAS / EPI_UNROLL,
			 (long long)p->v[AX_K]);
		return 0;
	}
	if (p->v[AX_DRAIN] == DRAIN_CP && cfg->n < 8u * EPI_UNROLL) {
		snprintf(reason, len, "drain=cp rotates through %u columns of stage 1; N=%u is narrower", 8u * EPI_UNROLL,
			 cfg->n);
		return 0;
	}
	if ((p->v[AX_DRAIN] == DRAIN_LD || p->v[AX_DRAIN] == DRAIN_ST) && cfg->n < 32u * EPI_LD_INFLIGHT) {
		snprintf(reason, len, "N=%u is narrower than one drain access group (%u columns)", cfg->n,
			 32u * EPI_LD_INFLIGHT);
		return 0;
	}
	return 1;
}

static int epi_legal(const tcp_point_t *p, char *reason, size_t len)
{
	tcp_mma_cfg_t cfg;
	return epi_cfg(p, &cfg, reason, len);
}

/* Whether target t has the point's MMA (model/arch.c; not kind::i8 on sm_103a). */
static int epi_legal_on(const tcp_point_t *p, const tcp_target_info_t *t, char *reason, size_t len)
{
	tcp_mma_cfg_t cfg;
	return !epi_cfg(p, &cfg, reason, len) || tcp_mma_legal_on(&cfg, t, reason, len);
}

/* TMEM: two accumulator stages (stage 1 is the drained one), A, scale factors. */
static int epi_tmem(const tcp_point_t *p, tcp_tmem_fp_t *fp, char *reason, size_t len)
{
	tcp_mma_cfg_t cfg;
	if (!epi_cfg(p, &cfg, reason, len))
		return -1;
	tc_mma_fp(&cfg, (int)cfg.a_tmem, 2, fp);
	return 1;
}

struct epi_state {
	struct tc_mma m;	/* operands, validation (tc-mma.cuh) */
	struct epi_args a;
	epi_kern_t k;
	unsigned long long *d_rec, *h_rec;
	double *tmp;
	char fps[256];
};

/* Timed MMAs per SM: batches x k (EPI_MMAS; the emulation fewer batches). */
static int epi_mmas(const struct epi_state *s)
{
	return s->a.nbatch * s->a.k;
}

static tcp_status_t epi_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	struct epi_state *s = (struct epi_state *)calloc(1, sizeof(*s));
	tcp_mma_cfg_t cfg;
	if (!s) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = s;
	if (!epi_cfg(p, &cfg, c->reason, TCP_REASON_LEN))
		return TCP_SKIPPED;
	tcp_aux_launch_t l;
	if (tc_aux_launch(&tcp_probe_tc_epilogue, p, c, &l) != TCP_OK)
		return TCP_FAILED;
	const int ts = l.kernel[1];
	tcp_status_t st = tc_mma_setup(&s->m, &cfg, ts, TCP_TC_FILL_RANDOM, 2, c);
	if (st != TCP_OK)
		return st;
	struct tc_mma_args *ma = &s->m.args;
	if (ma->nstage != 2) {	/* the planner SKIPs these first (epi_tmem) */
		snprintf(c->reason, TCP_REASON_LEN, "two accumulator stages do not fit: %s",
			 tcp_tmem_fp_format(&s->m.fp, s->fps, sizeof(s->fps)));
		return TCP_SKIPPED;
	}
	s->k = epi_tab[ts][l.kernel[2]][tc_kind_variant(&cfg)];
	s->a.img = ma->img;
	s->a.img_words = ma->img_words;
	s->a.ta = ma->ta;
	s->a.tb = ma->tb;
	s->a.a_off = ma->a_off;
	s->a.b_off = ma->b_off;
	s->a.idesc = ma->idesc;
	s->a.sf_img = ma->sf_img;
	s->a.a_cp_fmt = ma->a_cp_fmt;
	/* Columns: the footprint tc_mma_setup() placed (the one epi_tmem() gave the planner). */
	s->a.alloc = ma->alloc_cols;
	s->a.acc_col = ma->acc_col;
	s->a.stage1 = ma->acc_col + ma->stage_stride;	/* the planner's acc1, never A's or the scale factors' columns */
	s->a.a_col = ma->a_col;
	s->a.sfa_col = ma->sfa_col;
	s->a.sfb_col = ma->sfb_col;
	s->a.sfa_cols = ma->sfa_cols;
	s->a.sfb_cols = ma->sfb_cols;
	s->a.k = (int)l.arg[0];
	s->a.nbatch = (int)l.arg[1];
	s->a.drain = (int)l.arg[2];
	s->a.gap = (unsigned)l.arg[3];
	s->a.gap_ns = (unsigned long long)l.arg[4];
	s->a.n = (unsigned)l.arg[5];
	s->a.budget = tc_budget(c);
	s->a.status = s->m.d_status;
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_rec, (size_t)s->m.grid * EPI_REC * sizeof(*s->d_rec)));
	s->a.rec = s->d_rec;
	s->h_rec = (unsigned long long *)calloc((size_t)s->m.grid * EPI_REC, sizeof(*s->h_rec));
	s->tmp = (double *)calloc((size_t)s->m.grid, sizeof(double));
	if (!s->h_rec || !s->tmp) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	c->issued_tensor_insts = (double)(epi_mmas(s) + 1) * s->m.units;
	return TCP_OK;
}

static tcp_status_t epi_validate(void *state, tcp_ctx_t *c)
{
	struct epi_state *s = (struct epi_state *)state;
	return tc_mma_validate(&s->m, validate_tab[0][s->m.ts][tc_kind_variant(&s->m.cfg)], c);
}

/* Median over SMs of rec[off] / rec[div] (or of `num` / rec[div] when off < 0). */
static double epi_ratio(struct epi_state *s, int off, int div, double num)
{
	int n = 0;
	for (int i = 0; i < s->m.grid; i++) {
		const unsigned long long *r = s->h_rec + (size_t)i * EPI_REC;
		if (r[div])
			s->tmp[n++] = (off < 0 ? num : (double)r[off]) / (double)r[div];
	}
	return n ? tc_median(s->tmp, n) : NAN;
}

static tcp_status_t epi_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct epi_state *s = (struct epi_state *)state;
	TCP_CUDA_TRY(c, cudaFuncSetAttribute((const void *)s->k, cudaFuncAttributeMaxDynamicSharedMemorySize,
					     (int)s->m.smem));
	TCP_CUDA_TRY(c, cudaMemset(s->d_rec, 0, (size_t)s->m.grid * EPI_REC * sizeof(*s->d_rec)));
	tcp_status_t st = tc_launch_cluster(c, (const void *)s->k, s->m.grid, TC_THREADS, s->m.smem, 1, &s->a);
	if (st == TCP_OK)
		st = tc_check_status(c, s->m.d_status, sites, TC_NELEM(sites));
	if (st != TCP_OK)
		return st;
	TCP_CUDA_TRY(c, cudaMemcpy(s->h_rec, s->d_rec, (size_t)s->m.grid * EPI_REC * sizeof(*s->h_rec),
				   cudaMemcpyDeviceToHost));
	const double flop = tcp_tc_mma_flop(&s->m.cfg) * epi_mmas(s);
	out->v[0] = epi_ratio(s, -1, 0, flop);
	double peak = tcp_kind_flop_clk_sm(s->m.cfg.kind, TCP_GEN_SM100);
	out->v[1] = peak > 0 ? 100.0 * out->v[0] / peak : NAN;
	out->v[2] = s->a.drain ? epi_ratio(s, 1, 2, 0) : 0.0;
	out->v[3] = s->a.drain ? epi_ratio(s, 3, 4, 0) : NAN;
	int n = 0;
	for (int i = 0; i < s->m.grid; i++)
		if (s->h_rec[(size_t)i * EPI_REC])
			s->tmp[n++] = (double)s->h_rec[(size_t)i * EPI_REC] / epi_mmas(s);
	out->v[4] = n ? tc_median(s->tmp, n) : NAN;
	return TCP_OK;
}

static void epi_teardown(void *state)
{
	struct epi_state *s = (struct epi_state *)state;
	if (!s)
		return;
	cudaFree(s->d_rec);
	free(s->h_rec);
	free(s->tmp);
	tc_mma_free(&s->m);
	free(s);
}

extern "C" const tcp_probe_t tcp_probe_tc_epilogue = {
	.name = "tc_epilogue",
	.family = "tcgen05.mma",
	.help = "MMA throughput (batches of k, bounded run-ahead) while stage 1 is drained by ld/st or cp at a swept rate; SS or TS",
	.arch = TCP_ARCH_TCGEN05,
	.axes = axes,
	.naxes = TC_NELEM(axes),
	.metrics = metrics,
	.nmetrics = TC_NELEM(metrics),
	.legal = epi_legal,
	.setup = epi_setup,
	.validate = epi_validate,
	.run = epi_run,
	.teardown = epi_teardown,
	.unsupported_reason = NULL,
	.tmem = epi_tmem,
	.legal_on = epi_legal_on,
};
