/*
 * tc-aux.h
 *	Point -> launch of the non-MMA sm_100a probes (tc_alloc, tc_commit,
 *	tc_cp, tc_ldst, tc_epilogue): which kernel instantiation (its template
 *	arguments), the grid, the threads and the kernel arguments that vary
 *	with the point.  Each probe's setup() takes its launch from here, so
 *	tests/test-tc-aux.c can show on the host that every axis value changes
 *	the kernel or its arguments (issue 17 "done when"), and the footprint
 *	and legality of a point have one source.  Plain C, host only.
 */
#ifndef TCP_TC_AUX_H
#define TCP_TC_AUX_H

#include <stddef.h>

#include "model/hd.h"
#include "probes/common/probe.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TCP_AUX_KERNEL_ARGS 4
#define TCP_AUX_ARGS 6

#define TCP_AUX_LDST_ITERS 256		/* tc_ldst: loop iterations per depth */
#define TCP_AUX_CP_NDEST 32		/* tc_cp: destinations one unrolled batch rotates through */
#define TCP_AUX_CP_MIN_BYTES (1u << 20)	/* tc_cp: the longer depth reads at least this much per SM */
#define TCP_AUX_EPI_MMAS 4096		/* tc_epilogue: timed MMAs per SM */

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
 *	               threads; arg {batches of the shorter depth}
 *	  tc_ldst      kernel {shape, num, pack, mode 1 ld / 2 st}; one CTA per SM,
 *	               128 x warpgroups threads; arg {deepest depth, columns
 *	               between warpgroups, iterations}
 *	  tc_epilogue  kernel {kind, ts, cp drain}; one CTA per SM, 256 threads;
 *	               arg {k, batches, drain, gap_cycles, gap ns, N}
 */
int tcp_aux_launch(const tcp_probe_t *probe, const tcp_point_t *p, int sm_count, double clock_mhz,
		   tcp_aux_launch_t *out, char *reason, size_t len);

/* The `grid` axis (0 = one CTA or pair, 1 = one per SM, an even count for pairs). */
int tcp_aux_grid_ctas(int all, int cg, int sm_count);

/* tc_ldst: register sets in flight a kernel of `nreg` registers per access
 * holds (k x registers <= 64 so that 512 threads fit the register file, at
 * most 8; one set of 32 or more: two sets of 32 make ptxas spill), and the
 * deepest depth a point with `inflight` runs (0 = that maximum).  constexpr
 * in C++: the kernels size their register sets with it. */
TCP_HDC int tcp_aux_ldst_kmax(int nreg)
{
	return nreg >= 32 ? 1 : 64 / nreg > 8 ? 8 : 64 / nreg;
}
TCP_HDC int tcp_aux_ldst_depth(int nreg, long long inflight)
{
	return inflight == 0 ? tcp_aux_ldst_kmax(nreg) : (int)inflight;
}

/* tc_cp: batches of TCP_AUX_CP_NDEST copies of the shorter depth (the
 * longer, twice as many, reads >= TCP_AUX_CP_MIN_BYTES) for copies of
 * `bytes` bytes. */
int tcp_aux_cp_batches1(unsigned bytes);

/* Least-squares line y = a + b x through the n pairs given (the caller drops
 * the unusable ones): 0, or -1 with fewer than 2 pairs or all x equal (a, b
 * NaN).  tc_ldst's per-access slope and tc_mma_ii's II(D) = a + b / D.  (The
 * harness's twin, harness/measure/stats.c tcp_fit_linear(), is a layer the
 * probes may not call: ../shared/docs/design.md "Layers".) */
int tcp_aux_fit_line(const double *x, const double *y, int n, double *a, double *b);

#ifdef __cplusplus
}
#endif
#endif /* TCP_TC_AUX_H */
