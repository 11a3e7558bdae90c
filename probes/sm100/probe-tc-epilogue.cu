/*
 * probe-tc-epilogue.cu
 *	Epilogue overlap: does draining a second TMEM stage slow the MMAs?
 *	MMAs accumulate into stage 0 while stage 1 is drained at a swept rate:
 *	  ld  drain warpgroups (`drain_wgs`: 1 = warpgroup 1; 2 = warpgroups 1
 *	      and 2, the kernel launched with 384 threads) read stage 1 with
 *	      tcgen05.ld 32x32b.x32: `inflight` loads (2 or 4) to distinct
 *	      32-column blocks and registers, one wait::ld, then one register
 *	      of each load folded into a sum and all of them on a branch the
 *	      data decides (ptxas deletes a tcgen05.ld none of whose registers
 *	      is read, tcgen05-facts s.12; folding them all every time would
 *	      make the drain ALU-bound, epi_drain); each warp its lane quarter
 *	      (warp % 4), the two warpgroups side by side on disjoint column
 *	      ranges of stage 1
 *	  st  the same with tcgen05.st 32x32b.x32 (the `inflight` stores of a
 *	      group take their data from one register set) and wait::st
 *	  cp  the MMA thread itself issues `cps_per_batch` (1, 2 or 4)
 *	      tcgen05.cp 128x256b (4 KiB of shared memory each, 8 columns) into
 *	      stage 1 after a batch of k MMAs (at least gap_cycles after the last
 *	      batch's copies, paced on %globaltimer: gap_cycles at the maximum
 *	      clock, to the timer's resolution), as DeepGEMM's sm100 GEMMs issue
 *	      their scale-factor UTCCPs from the MMA thread
 *	      (sm100_fp8_fp4_gemm_1d1d.cuh); batch b's copies go to slot b % 4
 *	      of four slots 32 columns apart (cps_per_batch x 8 columns each:
 *	      distinct columns within a batch, immediate offsets from one
 *	      register); batch b first waits for batch b - 2 (whose commit covers
 *	      b - 4's copies, whose columns b's rewrite: cp -> cp is not a
 *	      pipelined pair), so at most two batches' copies are in flight
 *	The answer is the curve flop_per_clk_sm against drain_bytes_per_clk_sm,
 *	read beside drain_alone_bytes_per_clk_sm: the same drain with no MMA
 *	running (and tc_ldst's best for 32x32b.x32).  A flat curve says
 *	something about TMEM only while the drain runs at its own limit: hence
 *	the heavy settings (4 loads in flight, two warpgroups, 4 copies a
 *	batch), and a drain=none point at the same kind, N, ab and k as every
 *	drain point.  ab = ss or ts: with A in TMEM (ts) shared memory carries
 *	only B, so the SS case's 128 B/clk shared-memory port is out of the way
 *	(at N = 128 SS the MMA alone fills it) and what remains is TMEM.
 *	cta_group::1, M = 128.
 *
 *	One loop for each drain with and without the MMAs.  ld / st: the drain
 *	warps run epi_drain() twice, the first time until the issuer is done
 *	(or the budget runs out), the second (drain_alone, after a CTA barrier)
 *	for EPI_ALONE_PASSES passes: only the stop condition differs.  cp: the
 *	MMA thread runs the issue loop epi_issue() twice, with the MMAs and
 *	then (drain_alone) without them: the same batches, waits, slots and
 *	commits (but batch 0's, which batch 1's covers: epi_issue); without
 *	MMAs a batch's copies wait until gap_cycles have passed instead of
 *	being skipped (there is no MMA stream to keep busy).
 *
 *	The MMA stream, as a real mainloop: batches of k MMAs (the `k` axis),
 *	each closed by a commit to one of two mbarriers, and before batch b the
 *	issuer waits for batch b - 2 (bounded run-ahead: at most 2k MMAs in
 *	flight; CUTLASS / DeepGEMM commit per k-block and wait on the stage
 *	they reuse).  At k = 1 that bound, not the tensor core, sets the rate:
 *	two MMAs in flight against an issue -> mbarrier latency of 3-4 MMA
 *	intervals, so the drain=none point at k = 1 reads well below peak
 *	(about L / 2 cycles per MMA, L the latency), and a drain point is read
 *	against the drain=none point at its own k.  Everything the issue loop
 *	reads is pinned in registers before the clock read (tc_pin): the MMA
 *	operands, the barrier addresses, the first copy slot (the others are
 *	immediate offsets from it), k, the batch count, the copies per batch,
 *	the gap, and the bounded waits' budget and status word (epi_wait waits
 *	on a pinned shared-memory address), so no constant-bank or
 *	special-register read is redone per batch (scripts/ci/check-sass.sh
 *	clean-window, clean-span; no division between the MMAs).  The first
 *	MMA (enable-input-d = 0, TMEM is not zeroed) runs before the window.
 *
 *	TMEM: the MMA engine's footprint with two accumulator stages
 *	(tc-mma.cuh tc_mma_fp(), model/tmem-plan.h): acc0 = stage 0 [0, N),
 *	then A (ts) and the scale factors (block-scaled kinds: A 4 columns,
 *	B ceil(N/32); facts s.3) packed after it, acc1 = stage 1 [256, 256 + N)
 *	(TCP_TMEM_STAGE_STRIDE), the allocation the next power of two; every
 *	drain touches stage 1 only (the MMAs read A and the scale factors
 *	while it runs), and a point whose drain would not fit in N columns is
 *	illegal with the reason (epi_cfg): ld / st take whole groups of
 *	inflight x 32 columns, N / (drain_wgs x inflight x 32) of them per
 *	warpgroup and pass; cp reaches column 3 x 32 + cps_per_batch x 8.  The
 *	`tmem` hook gives the planner the same footprint, so a point whose two
 *	stages do not fit is SKIPPED with the region that leaves the
 *	allocation, and the kernel takes its columns from it.  Scale factors
 *	(per-block random, the model's layout) and A are staged as the MMA
 *	engine does (tc_stage_sf, tc_stage_a), whose validation kernel checks
 *	the point first.
 *
 *	The emulation build (TCP_TC_EMU) runs TCP_AUX_EMU_EPI_BATCHES batches
 *	of k (also the cp drain-alone's batches) and
 *	TCP_AUX_EMU_EPI_ALONE_PASSES ld / st drain-alone passes (tc-aux.h).
 *
 *	Metrics:
 *	  flop_per_clk_sm               MMA rate during the drain, median over SMs
 *	  pct_peak                      of the published dense peak of the kind
 *	  drain_bytes_per_clk_sm        TMEM bytes the drain moved per SM clock while the MMAs ran
 *	  drain_alone_bytes_per_clk_sm  the same drain, same gap, with no MMA running
 *	  cycles_per_mma                issue of the first timed MMA to completion of the last, per MMA
 */
#include "probes/sm100/tc-mma.cuh"

#define EPI_MMAS TCP_AUX_EPI_MMAS	/* timed MMAs per SM */

extern "C" const tcp_probe_t tcp_probe_tc_epilogue;
#if TCP_AUX_EMU	/* the emulation's floor (tc-aux.h) */
#define EPI_ALONE_PASSES TCP_AUX_EMU_EPI_ALONE_PASSES
#else
#define EPI_ALONE_PASSES 64	/* ld / st drain-alone: passes over stage 1 */
#endif
#define EPI_REC 7		/* records per CTA (epi_args.rec) */
#define EPI_UNROLL 4		/* batches per unrolled pass; also the cp slots */
#define EPI_CP_COLS 8		/* columns one tcgen05.cp 128x256b writes */
#define EPI_CP_SLOT 32		/* columns between cp slots: room for 4 copies, immediate offsets */
#define EPI_THREADS_MAX 384	/* warpgroup 0 (TMEM owner, issuer), up to two drain warpgroups */

static const tc_kern_t validate_tab[2][2][KV_N] = TC_TABLE_CG1(TC_MODE_VALIDATE);
static const char *const drain_names[] = { "none", "ld", "st", "cp", NULL };
enum { DRAIN_NONE = 0, DRAIN_LD, DRAIN_ST, DRAIN_CP };
enum { EPI_SITE_BATCH = 0, EPI_SITE_LAST, EPI_SITE_CP_ALONE, EPI_SITE_TADDR, EPI_SITE_STAGE };
static const char *const sites[] = { "MMA batch two back (run-ahead bound)", "last MMA batches",
				     "drain-alone tcgen05.cp batch", "tcgen05.alloc result",
				     "staging of A in TMEM (tcgen05.cp commit -> mbarrier)" };

/* ld / st: 32-column blocks of each group of `inflight` per warpgroup and
 * pass (0: the drain does not fit; host and legality). */
static inline __host__ __device__ unsigned epi_groups(unsigned n, int inflight, int wgs)
{
	return inflight > 0 && wgs > 0 ? n / (32u * (unsigned)inflight * (unsigned)wgs) : 0u;
}

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
	int inflight;			/* ld / st: accesses per wait (2 or 4) */
	int wgs;			/* ld / st: drain warpgroups (1 or 2) */
	unsigned groups;		/* ld / st: groups of inflight x 32 columns a warpgroup and pass (epi_groups) */
	int cps;			/* cp: copies per batch (1, 2 or 4) */
	unsigned gap;			/* cycles between drain accesses */
	unsigned long long gap_ns;	/* cp: at least this long between batches' copies (gap at max clock) */
	unsigned long long budget;	/* ns, every bounded wait */
	unsigned long long *rec;	/* [cta][EPI_REC]: mma cycles, drain bytes, drain cycles, alone bytes, alone cycles,
					 * the two windows' 64-bit starts (kept so that ptxas keeps them 64-bit reads,
					 * which is how check-sass finds a window) */
	unsigned long long *status;
};

/* What the issue loop and the drain read, pinned in registers (tc_pin). */
struct epi_ops {
	uint64_t adesc, bdesc;
	unsigned long long gap_ns, budget;
	unsigned long long *status;
	uint32_t d0, a_op, sfa, sfb, idesc, bar0, bar1, bar_aux;
	uint32_t st1;			/* TMEM address of stage 1 (cp slot 0) */
	int k, nbatch, cps;
	unsigned gap, groups;
};

/*
 * epi_wait(bar, parity, o, site)
 *	trap.cuh's tcp_mbar_wait() (bounded on %globaltimer, a timeout
 *	recorded in the status word, then trap) on a shared-memory address
 *	and with the budget and status word from registers: the issue loop
 *	waits once per batch, and a barrier's address derived per wait
 *	(S2R SR_CgaCtaId) or the budget reloaded from the constant bank
 *	(LDCU) would be work inside the timed span.
 */
static __device__ __forceinline__ void epi_wait(uint32_t bar, unsigned parity, const struct epi_ops &o, unsigned site)
{
	const unsigned long long t0 = tcp_globaltimer();
	for (;;) {
		uint32_t ok;
#if TCP_TC_EMU && defined(__CUDA_ARCH__)
		tcp_emu_mbar_waiting(bar);
#endif
		asm volatile("{\n\t.reg .pred p;\n\t"
			     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
			     "selp.u32 %0, 1, 0, p;\n\t}"
			     : "=r"(ok)
			     : "r"(bar), "r"(parity)
			     : "memory");
		if (ok) {
#if TCP_TC_EMU && defined(__CUDA_ARCH__)
			tcp_emu_mbar_observed(bar, parity);
#endif
			return;
		}
		const unsigned long long dt = tcp_globaltimer() - t0;
		if (dt > o.budget)
			tcp_tc_trap(o.status, TCP_TC_MBAR_TIMEOUT, site, dt);
	}
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

/*
 * epi_drain<DR, INFL>(o, alone, done, bytes_sum, cyc_max)
 *	One drain warp (warpgroup 1 + dw, dw < drain_wgs) on its lane quarter
 *	of stage 1, columns [dw x G, (dw + 1) x G), G = groups x INFL x 32:
 *	passes of `groups` groups of INFL accesses 32x32b.x32 and one wait,
 *	gap cycles after each pass.  The loop is the same with the MMAs
 *	running (alone = 0: until the issuer sets *done, or the budget) and
 *	alone (alone = 1: EPI_ALONE_PASSES passes); the condition is
 *	warp-uniform (tcgen05.ld/st are .sync.aligned).  Adds the warp's
 *	bytes to *bytes_sum and its cycles into *cyc_max (the slowest warp).
 */
template <int DR, int INFL>
static __device__ __forceinline__ void epi_drain(const struct epi_ops &o, int alone, volatile int *done,
						 unsigned long long *bytes_sum, unsigned long long *cyc_max)
{
	constexpr int NR = DR == DRAIN_LD ? 32 * INFL : 32;	/* st: one register set, stored INFL times */
	constexpr uint32_t GCOLS = 32u * INFL;
	const unsigned warp = threadIdx.x / 32;
	const uint32_t base = o.st1 + (warp / 4 - 1) * o.groups * GCOLS + ((32u * (warp % 4)) << 16);
	uint32_t r[NR], acc = 0;
#pragma unroll
	for (int j = 0; j < NR; j++)
		r[j] = (uint32_t)j;
	unsigned long long n = 0;
	const unsigned long long g0 = tcp_globaltimer();
	const unsigned long long t0 = tcp_clock64();
#pragma unroll 1
	for (int i = 0; __all_sync(0xffffffffu, alone ? i < EPI_ALONE_PASSES
						      : !*done && tcp_globaltimer() - g0 < o.budget);
	     i++) {
#pragma unroll 1
		for (unsigned g = 0; g < o.groups; g++) {
			const uint32_t a = base + g * GCOLS;
			if constexpr (DR == DRAIN_LD) {
TC_UNROLL
				for (int j = 0; j < INFL; j++)
					tcp_tc_ld<TCP_TC_32X32B, 32, 0>(a + 32u * j, r + 32 * j);
				tcp_tc_wait_ld();
				/* Every register of every load is read (ptxas deletes a
				 * tcgen05.ld none of whose registers is read): one of each
				 * load here, as tc_ldst does, and all of them on a branch
				 * that depends on the data, so that no optimisation can
				 * drop it as loop-invariant; it is rarely if ever taken,
				 * and harmless when it is.  Folding all 32 x INFL registers
				 * every time (16 LOP3 per load, at 64 lanes a clock per SM)
				 * would hold the drain near 512 B/clk/SM whatever TMEM can
				 * do, an ALU bound this probe is not after. */
				uint32_t x = 0;
#pragma unroll
				for (int j = 0; j < INFL; j++)
					x ^= r[32 * j];
				if (x == 0x5eed5eedu) {
#pragma unroll
					for (int j = 0; j < NR; j++)
						acc += r[j];
				}
				acc += x;
			} else {
TC_UNROLL
				for (int j = 0; j < INFL; j++)
					tcp_tc_st<TCP_TC_32X32B, 32, 0>(a + 32u * j, r);
				tcp_tc_wait_st();
			}
		}
		n += (unsigned long long)o.groups * INFL * 32 * 32 * 4;
		epi_spin(o.gap);
	}
	const unsigned long long t1 = tcp_clock64();
	if (acc == 0x5eed5eedu)	/* never true: keeps the loads live */
		n++;
	if ((threadIdx.x % 32) == 0) {
		atomicAdd(bytes_sum, n);
		atomicMax(cyc_max, t1 - t0);
	}
}

/* The drain of the point (drain, inflight) by this warp; CP kernels have none. */
template <int CP>
static __device__ __forceinline__ void epi_drain_any(const struct epi_args &p, const struct epi_ops &o, int alone,
						     volatile int *done, unsigned long long *bytes_sum,
						     unsigned long long *cyc_max)
{
	if constexpr (!CP) {
		if (p.drain == DRAIN_LD && p.inflight == 4)
			epi_drain<DRAIN_LD, 4>(o, alone, done, bytes_sum, cyc_max);
		else if (p.drain == DRAIN_LD)
			epi_drain<DRAIN_LD, 2>(o, alone, done, bytes_sum, cyc_max);
		else if (p.drain == DRAIN_ST && p.inflight == 4)
			epi_drain<DRAIN_ST, 4>(o, alone, done, bytes_sum, cyc_max);
		else if (p.drain == DRAIN_ST)
			epi_drain<DRAIN_ST, 2>(o, alone, done, bytes_sum, cyc_max);
	}
}

/* One batch's copies: cps_per_batch (1, 2 or 4) to slot DST's distinct
 * 8-column blocks.  Every address is st1 plus an immediate (slots
 * EPI_CP_SLOT apart whatever cps_per_batch is), so the whole issue loop
 * uses one uniform register for them. */
template <int DST>
static __device__ __forceinline__ void epi_cps(const struct epi_ops &o)
{
	tcp_tc_cp<1, TCP_CP_128X256B, 0>(o.st1 + DST * EPI_CP_SLOT, o.adesc);
	if (o.cps > 1)
		tcp_tc_cp<1, TCP_CP_128X256B, 0>(o.st1 + DST * EPI_CP_SLOT + EPI_CP_COLS, o.adesc);
	if (o.cps > 2) {
		tcp_tc_cp<1, TCP_CP_128X256B, 0>(o.st1 + DST * EPI_CP_SLOT + 2 * EPI_CP_COLS, o.adesc);
		tcp_tc_cp<1, TCP_CP_128X256B, 0>(o.st1 + DST * EPI_CP_SLOT + 3 * EPI_CP_COLS, o.adesc);
	}
}

/*
 * One batch b of the issue loop: wait for batch b - 2 (WAIT; its barrier is
 * bar[BAR] too; ph: the parity of bar[BAR]'s completions before this loop,
 * less one when batch 0 does not commit), k MMAs into stage 0 (MMA), the
 * copies into slot DST of stage 1 (CP), the commit to bar[BAR] (COMMIT).
 * With MMAs the copies issue when gap_ns has passed since the last ones
 * and are skipped otherwise; without (the cp drain alone) they always
 * issue, and the batch then spins until gap_ns has passed since they
 * did.  BAR = b & 1 and DST = b & 3 are template constants.
 */
template <int KIND, int TS, int SV, int CP, int MMA, int BAR, int DST, int WAIT, int COMMIT = 1>
static __device__ __forceinline__ void epi_batch(const struct epi_ops &o, uint64_t a_op, int b, unsigned ph,
						 unsigned long long &cp_last, unsigned long long &ncp)
{
	if constexpr (WAIT) {	/* batch b - 2 is completion (b - 2) / 2 of bar[BAR] in this loop */
		epi_wait(BAR ? o.bar1 : o.bar0, (ph + (((unsigned)b - 2) >> 1)) & 1u, o,
			 MMA ? EPI_SITE_BATCH : EPI_SITE_CP_ALONE);
		/* this batch's copies rewrite the slot of batch b - 4: ordered
		 * after them only through the wait and this fence (mma -> cp and
		 * cp -> cp are not pipelined pairs) */
		tcp_tc_fence_after();
	}
	if constexpr (MMA) {
		/* The first MMA straight-line (k >= 1): ptxas re-converts operands
		 * to uniform registers at a loop head, so no loop may stand between
		 * the window's clock read and its first MMA (check-sass clean-window). */
		tcp_tc_mma<1, KIND, TS, SV>(o.d0, a_op, o.bdesc, o.idesc, o.sfa, o.sfb, 1);
		for (int i = 1; i < o.k; i++)
			tcp_tc_mma<1, KIND, TS, SV>(o.d0, a_op, o.bdesc, o.idesc, o.sfa, o.sfb, 1);
	}
	if constexpr (CP && MMA) {
		/* pacing on %globaltimer, never %clock64: a clock read inside the
		 * issue loop would open a timed window of its own (check-sass) */
		const unsigned long long now = tcp_globaltimer();
		if (now - cp_last >= o.gap_ns) {
			epi_cps<DST>(o);
			cp_last = now;
			ncp += (unsigned)o.cps;
		}
	} else if constexpr (CP) {
		cp_last = tcp_globaltimer();
		epi_cps<DST>(o);
		ncp += (unsigned)o.cps;
	}
	if constexpr (COMMIT)
		tcp_tc_commit<1, TCP_CAST_LOCAL>(BAR ? o.bar1 : o.bar0);
	if constexpr (CP && !MMA) {
		/* after the commit: no loop between the window's clock read and its first copy */
		while (tcp_globaltimer() - cp_last < o.gap_ns)
			;
	}
}

/*
 * epi_issue<..., MMA>(o, a_op, ph0, ph1, ncp)
 *	The issue loop: o.nbatch batches (a multiple of 4: k divides
 *	EPI_MMAS / 4), batch b committing to bar[b & 1], then the waits for the
 *	last two.  ph0 / ph1: the parity of the completions bar[0] / bar[1]
 *	saw before this loop.  The caller reads the clock right before: batch
 *	0's first UTC* instruction follows it straight-line.  MMA = 0 is the cp
 *	drain alone, whose batch 0 does not commit: its commit's barrier
 *	address went to a uniform register between the clock read and the
 *	first copy (check-sass clean-window), and batch 1's commit covers its
 *	copies (a commit tracks every earlier cp of the thread).  So bar[0]
 *	completes one phase fewer, ph0 is one less, and batch 2's wait (slot 2
 *	is free: the loop before ended with its waits) sees an old phase.
 *	Counts the copies issued into ncp.
 */
template <int KIND, int TS, int SV, int CP, int MMA>
static __device__ __forceinline__ void epi_issue(const struct epi_ops &o, uint64_t a_op, unsigned ph0, unsigned ph1,
						 unsigned long long &ncp)
{
	unsigned long long cp_last = 0;
	/* batch b: commit barrier b & 1, cp slot b & 3, both template
	 * constants: two batches, passes of four, two more */
	epi_batch<KIND, TS, SV, CP, MMA, 0, 0, 0, MMA>(o, a_op, 0, ph0, cp_last, ncp);
	epi_batch<KIND, TS, SV, CP, MMA, 1, 1, 0>(o, a_op, 1, ph1, cp_last, ncp);
	int b0 = 2;
	for (; b0 + 4 <= o.nbatch - 2; b0 += 4) {
		epi_batch<KIND, TS, SV, CP, MMA, 0, 2, 1>(o, a_op, b0, ph0, cp_last, ncp);
		epi_batch<KIND, TS, SV, CP, MMA, 1, 3, 1>(o, a_op, b0 + 1, ph1, cp_last, ncp);
		epi_batch<KIND, TS, SV, CP, MMA, 0, 0, 1>(o, a_op, b0 + 2, ph0, cp_last, ncp);
		epi_batch<KIND, TS, SV, CP, MMA, 1, 1, 1>(o, a_op, b0 + 3, ph1, cp_last, ncp);
	}
	epi_batch<KIND, TS, SV, CP, MMA, 0, 2, 1>(o, a_op, b0, ph0, cp_last, ncp);
	epi_batch<KIND, TS, SV, CP, MMA, 1, 3, 1>(o, a_op, b0 + 1, ph1, cp_last, ncp);
	/* the last two batches */
	for (int b = o.nbatch - 2; b < o.nbatch; b++)
		if (b >= 0)
			epi_wait(b & 1 ? o.bar1 : o.bar0, ((b & 1 ? ph1 : ph0) + ((unsigned)b >> 1)) & 1u, o,
				 MMA ? EPI_SITE_LAST : EPI_SITE_CP_ALONE);
}

/*
 * Scale factors and A (ts) into TMEM as the MMA engine stages them
 * (tc-mma.cuh tc_stage_sf / tc_stage_a), before any timing.  Not inlined:
 * inlined, its registers pushed the issue loop's operands of the
 * block-scaled TS kernels out of uniform registers (R2UR inside the timed
 * window: scripts/ci/check-sass.sh clean-window).
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

/* minBlocks = 1: one CTA per SM runs (tc_exclusive_smem), and ptxas may
 * give each of up to 384 threads 168 registers: the ld drain at inflight=4
 * holds 128 of them. */
template <int KIND, int TS, int SV, int CP>
static __global__ void __launch_bounds__(EPI_THREADS_MAX, 1) epi_kernel(const struct epi_args p)
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

	/* What the issue loop and the drain read, pinned in registers. */
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
	o.bar_aux = tc_pin(tcp_smem_u32(&bar_aux), &pin.bar_aux);
	o.st1 = tc_pin(tbase + p.stage1, &pin.st1);
	o.k = tc_pin(p.k, &pin.k);
	o.nbatch = tc_pin(p.nbatch, &pin.nbatch);
	o.cps = tc_pin(p.cps, &pin.cps);
	o.gap = tc_pin(p.gap, &pin.gap);
	o.groups = tc_pin(p.groups, &pin.groups);
	o.gap_ns = tc_pin(p.gap_ns, &pin.gap_ns);
	o.budget = tc_pin(p.budget, &pin.budget);
	o.status = tc_pin(p.status, &pin.status);
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
			tcp_tc_commit<1, TCP_CAST_LOCAL>(o.bar_aux);
			unsigned long long ncp = 0;
			const unsigned long long t0 = tcp_clock64();
			epi_issue<KIND, TS, SV, CP, 1>(o, a_op, 0, 0, ncp);
			/* windows close with a 32-bit read (tc_clock32: never opens one) */
			const unsigned long long t1 = (uint32_t)(tc_clock32() - (uint32_t)t0);
			epi_wait(o.bar_aux, 0, o, EPI_SITE_BATCH);	/* the first MMA, long done */
			p.rec[blockIdx.x * EPI_REC + 0] = t1;
			p.rec[blockIdx.x * EPI_REC + 5] = t0;
			if constexpr (CP) {
				drain_bytes = ncp * 128 * 32;
				drain_cyc = t1;
			}
			done = 1;
		}
		__syncwarp();
	}
	/* ld / st: the drain warpgroups' one loop, with the MMAs running, then
	 * (after every thread met) alone */
#pragma unroll 1
	for (int alone = 0; alone < 2; alone++) {
		if (alone)
			tc_sync_all<1>();
		if (warp >= 4)
			epi_drain_any<CP>(p, o, alone, &done, alone ? &alone_bytes : &drain_bytes,
					  alone ? &alone_cyc : &drain_cyc);
	}
	/* cp: the issue loop once more, without the MMAs. */
	if constexpr (CP) {
		if (warp == 0) {
			if (tcp_elect_one()) {
				/* One batch's copies before the window opens put the
				 * operands in uniform registers (as the first MMA above), so
				 * the first copy of the window follows the clock read
				 * straight-line.  They go to the slot of batch 3, which waits
				 * for batch 1's commit (it covers them too) before rewriting
				 * it.  No commit of their own: a commit here would end the
				 * MMA window's span here (check-sass).  Before the window
				 * bar[0] and bar[1] completed (nbatch + 1) / 2 and nbatch / 2
				 * phases, all waited; batch 0 does not commit (epi_issue),
				 * hence bar[0]'s parity one less. */
				epi_cps<3>(o);
				unsigned long long ncp = 0;
				const unsigned long long t0 = tcp_clock64();
				epi_issue<KIND, TS, SV, CP, 0>(o, a_op, ((unsigned)(o.nbatch + 1) / 2u + 1u) & 1u,
							       (unsigned)o.nbatch / 2u & 1u, ncp);
				alone_cyc = (uint32_t)(tc_clock32() - (uint32_t)t0);
				p.rec[blockIdx.x * EPI_REC + 6] = t0;
				alone_bytes = ncp * 128 * 32;
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

enum { AX_KIND, AX_N, AX_DRAIN, AX_GAP, AX_AB, AX_K, AX_INFLIGHT, AX_WGS, AX_CPS };
static const tcp_axis_t axes[] = {
	{ "kind", "tcgen05.mma .kind (default types)", tc_kind_names, "f16,f8f6f4,mxf4" },
	{ "N", "instruction N (M = 128, cta_group::1)", NULL, "[128,192]" },
	{ "drain", "traffic on stage 1: none, tcgen05.ld, tcgen05.st (drain warpgroups), tcgen05.cp (the MMA thread)",
	  drain_names, "none,ld,st,cp" },
	{ "gap_cycles", "idle cycles between drain passes (cp: at least this many between batches' copies)", NULL,
	  "[0,64,256,1024,4096]" },
	{ "ab", "A from shared memory (ss) or TMEM (ts)", tcp_tc_ab_names, "ss" },
	{ "k", "MMAs per commit batch (the issuer waits for the batch two back: at k = 1 two MMAs in flight; "
	       "cp after each batch)",
	  NULL, "[4]" },
	{ "inflight", "drain=ld/st: 32x32b.x32 accesses per wait, 2 or 4 (32 columns each)", NULL, "[2]" },
	{ "drain_wgs", "drain=ld/st: drain warpgroups, 1 or 2 (2: 384 threads, stage 1's columns split in two)", NULL,
	  "[1]" },
	{ "cps_per_batch", "drain=cp: tcgen05.cp 128x256b per batch, 1, 2 or 4 (4 KiB and 8 columns each)", NULL, "[1]" },
};

static const tcp_metric_t metrics[] = {
	{ "flop_per_clk_sm", "FLOP/clk/SM", 1,
	  "MMA rate while stage 1 is drained, median over SMs (read against drain=none at the same k)" },
	{ "pct_peak", "%", 1, "of the published dense FLOP/clk/SM of the kind" },
	{ "drain_bytes_per_clk_sm", "B/clk/SM", 1,
	  "TMEM bytes moved by the drain per SM clock, MMAs running (all drain warpgroups)" },
	{ "drain_alone_bytes_per_clk_sm", "B/clk/SM", 1, "the same drain loop with no MMA running" },
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
	const long long dr = p->v[AX_DRAIN], infl = p->v[AX_INFLIGHT], wgs = p->v[AX_WGS], cps = p->v[AX_CPS];
	if (dr < 0 || dr > DRAIN_CP) {
		snprintf(reason, len, "drain index %lld out of range", dr);
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
	if (infl != 2 && infl != 4) {
		snprintf(reason, len, "inflight must be 2 or 4; got %lld", infl);
		return 0;
	}
	if (wgs != 1 && wgs != 2) {
		snprintf(reason, len, "drain_wgs must be 1 or 2; got %lld", wgs);
		return 0;
	}
	if (cps != 1 && cps != 2 && cps != 4) {
		snprintf(reason, len, "cps_per_batch must be 1, 2 or 4; got %lld", cps);
		return 0;
	}
	/* an axis that does not shape this drain stays at its default: no
	 * point measures the same thing twice under two names */
	if ((infl != 2 || wgs != 1) && dr != DRAIN_LD && dr != DRAIN_ST) {
		snprintf(reason, len,
			 "inflight and drain_wgs shape drain=ld/st only (inflight=2, drain_wgs=1 for drain=%s)",
			 drain_names[dr]);
		return 0;
	}
	if (cps != 1 && dr != DRAIN_CP) {
		snprintf(reason, len, "cps_per_batch shapes drain=cp only (1 for drain=%s)", drain_names[dr]);
		return 0;
	}
	/* every drain stays inside stage 1's N columns */
	if (dr == DRAIN_CP && cfg->n < (unsigned)(EPI_CP_SLOT * (EPI_UNROLL - 1) + EPI_CP_COLS * cps)) {
		snprintf(reason, len,
			 "drain=cp with cps_per_batch=%lld writes columns up to %u of stage 1 "
			 "(%d slots %d apart, %lld x %d columns each); N=%u is narrower",
			 cps, (unsigned)(EPI_CP_SLOT * (EPI_UNROLL - 1) + EPI_CP_COLS * cps), EPI_UNROLL,
			 EPI_CP_SLOT, cps, EPI_CP_COLS, cfg->n);
		return 0;
	}
	if ((dr == DRAIN_LD || dr == DRAIN_ST) && !epi_groups(cfg->n, (int)infl, (int)wgs)) {
		snprintf(reason, len,
			 "drain=%s with inflight=%lld x 32 columns per warpgroup and drain_wgs=%lld "
			 "needs N >= %lld columns of stage 1; N=%u",
			 drain_names[dr], infl, wgs, 32 * infl * wgs, cfg->n);
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
	int threads;		/* 128 x (1 + drain warpgroups) */
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
	s->a.inflight = (int)l.arg[6];
	s->a.wgs = (int)l.arg[7];
	s->a.cps = (int)l.arg[8];
	s->a.groups = epi_groups(s->a.n, s->a.inflight, s->a.wgs);
	s->threads = l.threads;
	if (s->threads != 128 * (1 + s->a.wgs) || s->threads > EPI_THREADS_MAX) {
		snprintf(c->reason, TCP_REASON_LEN, "tc-aux launches %d threads for %d drain warpgroups", s->threads,
			 s->a.wgs);
		return TCP_FAILED;
	}
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
	tcp_status_t st = tc_launch_cluster(c, (const void *)s->k, s->m.grid, s->threads, s->m.smem, 1, &s->a);
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
	.help = "MMA throughput (batches of k, bounded run-ahead) while stage 1 is drained by ld/st (1-2 warpgroups, 2-4 in flight) or cp (1-4 a batch) at a swept rate; SS or TS",
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
