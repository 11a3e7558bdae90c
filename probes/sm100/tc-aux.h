/*
 * tc-aux.h
 *	Point -> launch of the non-MMA sm_100a probes (tc_alloc, tc_commit,
 *	tc_cp, tc_ldst, tc_epilogue): which kernel instantiation (its template
 *	arguments), the grid, the threads and the kernel arguments that vary
 *	with the point.  Each probe's setup() takes its launch from here, so
 *	tests/test-tc-aux.c can show on the host that every axis value changes
 *	the kernel or its arguments (no axis is a label only), and the footprint
 *	and legality of a point have one source.  Plain C, host only.
 */
#ifndef TCP_TC_AUX_H
#define TCP_TC_AUX_H

#include <stddef.h>

#include "model/hd.h"
#include "model/tmem.h"
#include "probes/common/probe.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TCP_AUX_KERNEL_ARGS 5
#define TCP_AUX_ARGS 9

/*
 * The emulation build (make EMULATE=1) compiles every probes/sm100 unit with
 * TCP_TC_EMU=1 for sm_90a, each tcgen05 instruction a single-thread software
 * emulation of its PTX ISA semantics.  Its iteration counts are the floors
 * below: each point still runs its whole protocol (every commit_every value,
 * each accumulator stage used twice or more, three or more phases of every
 * mbarrier for every waiter, both II chain code paths), and what only buys
 * statistics is cut (docs/emulation.md "Iteration rules" gives each floor's
 * rule and the emulated time).  Undefined or 0: the release counts, the
 * release objects unchanged.  The floors are defined in both builds so that
 * host tests check them against their rules (tests/test-tc-emu-iters.c).
 */
#if defined(TCP_TC_EMU) && TCP_TC_EMU
#define TCP_AUX_EMU 1
#else
#define TCP_AUX_EMU 0
#endif

#define TCP_AUX_EMU_LAT_WARMUP 1	/* tc_mma_lat / k96 lat: the first sample, D written (enable-input-d 0) */
#define TCP_AUX_EMU_LAT_SAMPLES 3	/* kept: 1 + 3 = 4 phases of the MMA mbarrier, parity wraps twice */
#define TCP_AUX_EMU_II_WARM 0		/* tc_mma_ii: untimed chains per depth (release 1) */
#define TCP_AUX_EMU_II_TIMED 1		/* timed chains per depth (release 4): 4 depths = 4 phases */
#define TCP_AUX_EMU_II_NDEPTHS 4	/* chain depths 1, 2, 4, 32 (tcp_aux_emu_ii_depth) */
#define TCP_AUX_EMU_COMMIT_WARMUP 1	/* tc_commit: dropped samples (the first MMA writes D) */
#define TCP_AUX_EMU_COMMIT_SAMPLES 3	/* kept: 4 phases of the own, peer and ack mbarriers */
#define TCP_AUX_EMU_CP_BATCHES1 2	/* tc_cp: passes of the shorter depth: both halves once, so the
					 * longer depth's passes 3 and 4 wait for a half (4 phases a half) */
#define TCP_AUX_EMU_LDST_ITERS 2	/* tc_ldst: loop iterations per depth (the loop repeats) */
#define TCP_AUX_EMU_LDRED_ITERS 2	/* tc_ldred: timed loop iterations (the loop repeats) */
#define TCP_AUX_EMU_EPI_BATCHES 8	/* tc_epilogue: batches of k (also the cp drain
					 * alone's): the pass of four runs, 4 phases a barrier */
#define TCP_AUX_EMU_EPI_ALONE_PASSES 2	/* tc_epilogue: ld / st drain-alone passes (the loop repeats) */

/*
 * tcp_aux_emu_ii_depth(j)
 *	Chain depth j of the emulation's tc_mma_ii kernels: 1 (the first MMA
 *	alone, no second stage), 2 (chain=indep: both stages before the window,
 *	none in it; chain=same: one in it), 4 (the short path: the first block
 *	of fewer than 8 MMAs only), 32 (the long path: a first block of 8, the
 *	loop of blocks of 8 twice, the rest), tc-mma.cuh tc_chain_rest.
 */
TCP_HDC int tcp_aux_emu_ii_depth(int j)
{
	return j == 3 ? 32 : 1 << j;
}

/* tc_mma_tput / k96 tput MMAs of the emulation for commit_every k (0 = one
 * commit): twice each of the two accumulator stages, and at k > 0 two
 * batches of k (iters / k arrivals on the batch mbarrier). */
TCP_HDC int tcp_aux_emu_tput_iters(int commit_every)
{
	return commit_every > 2 ? 2 * commit_every : 4;
}

#if TCP_AUX_EMU
#define TCP_AUX_LDST_ITERS TCP_AUX_EMU_LDST_ITERS
#else
#define TCP_AUX_LDST_ITERS 256		/* tc_ldst: loop iterations per depth */
#endif
#define TCP_AUX_CP_NDEST 32		/* tc_cp: destinations one unrolled batch rotates through */
#define TCP_AUX_CP_MIN_BYTES (1u << 20)	/* tc_cp: the longer depth reads at least this much per SM */
#define TCP_AUX_EPI_MMAS 4096		/* tc_epilogue: timed MMAs per SM (the emulation: batches x k) */

typedef struct {
	int kernel[TCP_AUX_KERNEL_ARGS];	/* the kernel's template arguments, probe order (unused: 0) */
	int grid;				/* CTAs */
	int threads;				/* per CTA */
	long long arg[TCP_AUX_ARGS];		/* kernel arguments that vary with the point (unused: 0) */
} tcp_aux_launch_t;

/*
 * tcp_aux_launch()
 *	Point p of `probe` (one the planner found legal) on a GPU of `sm_count`
 *	SMs and maximum clock `clock_mhz` -> *out; 0, or -1 with a one-line
 *	reason (a value out of range, a probe this module does not map).  Axes
 *	are found by name.  The members per probe:
 *	  tc_alloc     kernel {relinquish}; grid ctas_per_sm x SMs, 32 threads;
 *	               arg {ncols, hold_cycles}
 *	  tc_commit    kernel {cta_group, form, cast}; grid 1 CTA (pair) or one
 *	               per SM (pair), 128 threads
 *	  tc_cp        kernel {cta_group, shape, fmt}; grid as tc_commit, 128
 *	               threads; arg {batches of the shorter depth
 *	               (tcp_aux_cp_batches1; the emulation TCP_AUX_EMU_CP_BATCHES1)}
 *	  tc_ldst      kernel {shape, num, pack, mode 1 ld / 2 st, launch bound
 *	               (tcp_aux_ldst_threads)}; one CTA per SM, 128 x
 *	               warpgroups threads; arg {deepest depth
 *	               (tcp_aux_ldst_depth), columns between warpgroups,
 *	               iterations}
 *	  tc_epilogue  kernel {kind, ts, cp drain}; one CTA per SM, 128 x (1 +
 *	               drain_wgs) threads; arg {k, batches (TCP_AUX_EPI_MMAS / k;
 *	               the emulation TCP_AUX_EMU_EPI_BATCHES), drain, gap_cycles,
 *	               gap ns, N, inflight, drain_wgs, cps_per_batch}
 */
int tcp_aux_launch(const tcp_probe_t *probe, const tcp_point_t *p, int sm_count, double clock_mhz,
		   tcp_aux_launch_t *out, char *reason, size_t len);

/* The `grid` axis (0 = one CTA or pair, 1 = one per SM, an even count for pairs). */
int tcp_aux_grid_ctas(int all, int cg, int sm_count);

/*
 * tc_ldst: the kernel a point runs on and the register sets it holds.
 *
 * tcp_aux_ldst_threads(nreg, wg)
 *	The launch bound of the kernel that runs `wg` warpgroups of accesses of
 *	`nreg` registers: 512 threads leave a thread 128 registers, 256 (or
 *	128) leave 255, the ISA's limit.  Accesses of 32 or 64 registers at 1
 *	or 2 warpgroups run on a 256-thread build, so that they hold more than
 *	one set; 128-register accesses need it at every count (at most 2
 *	warpgroups); everything else runs on the 512-thread build (fewer than
 *	32 registers already hold >= 2 sets there, and 3 or 4 warpgroups need
 *	it).
 * tcp_aux_ldst_kmax(nreg, threads)
 *	Register sets in flight a kernel built for `threads` holds (at most 8,
 *	at least 1).  512 threads: k x registers <= 64 (sets of 8: two, since
 *	with every set live, as the timed loop reads them, ptxas 13.0 spills
 *	four of them in the 32x32b, 16x64b and 16x32bx2 kernels; sets of 32 or
 *	more: one, two sets of 32 spill).  256 threads: k x registers <= 128
 *	(4 sets of 32, 2 of 64, 1 of 128).  constexpr in C++: the kernels size
 *	their register sets with it.
 * tcp_aux_ldst_depth(nreg, wg, fp, inflight)
 *	The deepest depth a point runs: `inflight`, or for inflight = 0 the
 *	most sets the kernel holds whose spans (k accesses of `fp` columns,
 *	tcp_ld_footprint()) fit side by side for all `wg` warpgroups in the
 *	512 columns: sets beyond the first never share columns, so where the
 *	deepest does not fit, fewer sets run (at least one; one set that does
 *	not fit shares columns, legal for ld only: the probe's ldst_fp()).
 */
TCP_HDC int tcp_aux_ldst_threads(int nreg, int wg)
{
	return nreg > 64 || (nreg >= 32 && wg <= 2) ? 256 : 512;
}
TCP_HDC int tcp_aux_ldst_kmax(int nreg, int threads)
{
	if (nreg < 1)
		return 1;
	if (threads <= 256)
		return 128 / nreg > 8 ? 8 : 128 / nreg < 1 ? 1 : 128 / nreg;
	return nreg >= 32 ? 1 : nreg == 8 ? 2 : 64 / nreg > 8 ? 8 : 64 / nreg;
}
TCP_HDC int tcp_aux_ldst_depth(int nreg, int wg, unsigned fp, long long inflight)
{
	int k = tcp_aux_ldst_kmax(nreg, tcp_aux_ldst_threads(nreg, wg));
	if (inflight != 0)
		return (int)inflight;
	while (k > 1 && (unsigned)(wg * k) * fp > TCP_TMEM_COLS)
		k /= 2;
	return k;
}

/* tc_cp: batches of TCP_AUX_CP_NDEST copies of the shorter depth (the
 * longer, twice as many, reads >= TCP_AUX_CP_MIN_BYTES) for copies of
 * `bytes` bytes; the release rule (the emulation launches
 * TCP_AUX_EMU_CP_BATCHES1). */
int tcp_aux_cp_batches1(unsigned bytes);

/* Least-squares line y = a + b x through the n pairs given (the caller drops
 * the unusable ones): 0, or -1 with fewer than 2 pairs or all x equal (a, b
 * NaN).  tc_ldst's per-access slope and tc_mma_ii's II(D) = a + b / D.  (The
 * harness's twin, harness/measure/stats.c tcp_fit_linear(), is a layer the
 * probes may not call: ../shared/docs/design.md "Layers".) */
int tcp_aux_fit_line(const double *x, const double *y, int n, double *a, double *b);

/*
 * tcp_aux_issue_knee()
 *	tc_mma_ii's issue curve: issue-window cycles t[i] after n[i] MMAs
 *	(ascending n; NAN entries skipped).  One thread issues into a finite
 *	MMA queue: while the queue has room each MMA costs the issue cost, a
 *	straight line; once it is full the issuer stalls and t grows at the
 *	completion rate.  The line is fitted through the first points and
 *	grown while the next point lies within `tol` (relative) of it, plus
 *	one cycle per MMA; *last_n = the largest n still on it (the queue holds
 *	at least that many MMAs, fewer than the next n), *cost = its slope
 *	(cycles per issued MMA).  Returns 1 when a later point leaves the line
 *	(a knee), 0 when every point is on it (the queue holds every n
 *	measured), -1 with fewer than 2 usable points (*cost, *last_n NAN).
 */
int tcp_aux_issue_knee(const double *n, const double *t, int cnt, double tol, double *cost, double *last_n);
/* tc_mma_ii's tolerance: a point 25% above the line has left it (an MMA's
 * completion interval is several times its issue cost). */
#define TCP_AUX_ISSUE_KNEE_TOL 0.25

#ifdef __cplusplus
}
#endif
#endif /* TCP_TC_AUX_H */
