/*
 * probe-tc-mma-ii.cu
 *	tcgen05.mma issue rate and initiation interval: a chain of
 *	`depth` MMAs from one thread; cycles per MMA for the issuing thread
 *	(issue window) and to completion (-> commit -> mbarrier).  Minimum over
 *	4 timed chains after a warm-up chain.  The chain is two factors,
 *	crossed (tc-check.h TCP_TC_CHAIN_*):
 *	  chain      accumulators  enable-input-d
 *	  indep      2, alternating  0 (overwrite: no dependency at all)
 *	  same       1               1 (a true dependency through D)
 *	  alt_acc    2, alternating  1 (two interleaved dependent chains)
 *	  overwrite  1               0 (no read of D, the same cells written)
 *	so that same vs alt_acc is the second accumulator alone and same vs
 *	overwrite the accumulate alone (indep changes both).
 *
 *	The issue span: the chain is a compile-time form
 *	(tc-mma.cuh tc_chain_rest), the two accumulators at compile-time column
 *	offsets (0 and 256), so each UTC*MMA has constant operands: no modulo,
 *	no division, no address arithmetic between MMAs (SASS rules in
 *	scripts/ci/check-sass.sh); the window opens once the chain's first MMA
 *	(two accumulators: first two) has issued.
 *	indep and alt_acc need two accumulator stages in TMEM; a point where
 *	they do not fit (N = 256 with A or scale factors in TMEM) is SKIPPED
 *	with the reason rather than silently run on one accumulator.
 *
 *	The emulation build (TCP_TC_EMU) runs depths 1, 2, 4, 32 once each, no
 *	warm-up chain (tc-aux.h TCP_AUX_EMU_II_*; a depth=64 point reports 32).
 *
 *	Every point runs chains of every depth 1, 2, 4 .. 64 in one kernel (each
 *	a compile-time chain); `depth` picks the one it reports, and depth = 0
 *	fits II(D) = a + b / D to the completion cycles per MMA (median over
 *	SMs per depth; tcp_tc_fit_ii): a is the initiation interval, b the
 *	exposed latency, the saturating depth is where II(D) is within 5% of a,
 *	and the pipeline depth ceil(latency / a) (latency = one MMA's completion
 *	time, depth 1) is the figure public write-ups quote.  Expected from the
 *	public B200 fits (SemiAnalysisAI/microbench-blackwell@9a068d8,
 *	fit_results.csv; docs/b200-predictions.md): TS
 *	N/2 cycles at cta_group::1 M=128; SS max(N/2, 32 + N/4) there (the
 *	128 B/clk shared-memory port); cta_group::2 M=128 SS max(N/4, 16 + N/8)
 *	(64.02 at N = 256), TS max(N/4, 18); cta_group::2 M=256 SS 43.02 /
 *	45.34 / 49.36 at N = 64 / 80 / 96, N/2 above.
 *
 *	Metrics:
 *	  issue_cycles_per_mma  issuing thread's cycles per MMA after the first (chain=indep:
 *	                        the first two) issued, before its window opens (depth 0: at
 *	                        D = 64; NAN where none is left)
 *	  cycles_per_mma        issue of the first to completion of the last / depth
 *	                        (depth 0: the fitted asymptote a)
 *	  flop_per_clk_sm       2 M N K / cycles_per_mma (per SM of the pair)
 *	  fit_b_cycles          depth 0: b of the fit (NAN otherwise)
 *	  saturating_depth      depth 0: b / (0.05 a) (NAN otherwise)
 *	  pipeline_depth        depth 0: latency at D = 1 / a, unrounded (NAN otherwise;
 *	                        public write-ups quote its ceiling)
 *	  issue_cycles_dD       the issue window of the chain of D MMAs, D = 1, 2 .. 64 (every
 *	                        point runs them all; NAN where the window holds no MMA or,
 *	                        in the emulation build, the depth is not run)
 *	  mma_queue_depth       the deepest chain whose issue window stays on the straight
 *	                        line through the shorter ones (tcp_aux_issue_knee): one
 *	                        thread issues into a finite MMA queue and stalls once it
 *	                        is full, so the queue holds at least this many MMAs and
 *	                        fewer than the next depth (64: no knee up to 64)
 *	  issue_cost_cycles     the line's slope: cycles per issued MMA while the queue
 *	                        has room.  An issue time above depth x this cost is
 *	                        back-pressure, not the issue cost.
 *	  issue_bound           depth 0: 1 when a <= 1.25 x issue_cost_cycles
 *	                        (tcp_tc_issue_bound): one thread's issue sets the rate
 */
#include "probes/sm100/tc-mma.cuh"

/* [chain: TCP_TC_CHAIN_*][cg - 1][ts][cast][kind variant] */
static const tc_cast_table_t ii_tab[TCP_TC_CHAIN_N] = {
	TC_TABLE_CAST(TC_MODE_II, TCP_TC_CHAIN_INDEP), TC_TABLE_CAST(TC_MODE_II, TCP_TC_CHAIN_SAME),
	TC_TABLE_CAST(TC_MODE_II, TCP_TC_CHAIN_ALT_ACC), TC_TABLE_CAST(TC_MODE_II, TCP_TC_CHAIN_OVERWRITE)
};

static const tcp_axis_t axes[] = {
	TC_AXES_MMA,
	{ "depth", "MMAs issued back to back before one commit (1, 2, 4 .. 64); 0 = all of them and the fit", NULL,
	  "[0,1,2,4,8,16,32,64]" },
	{ "chain", "accumulators x enable-input-d: indep two alternating, overwriting (no dependency); same one, "
	  "accumulating (dependent through D); alt_acc two alternating, each accumulating; overwrite one, "
	  "overwriting (no read of D)", tcp_tc_chain_names, "indep,same" },
};

static const tcp_metric_t metrics[] = {
	{ "issue_cycles_per_mma", "cycles", 0, "issuing thread's cycles per tcgen05.mma (those after the window opens)" },
	{ "cycles_per_mma", "cycles", 0, "issue of the first to completion of the last, per MMA" },
	{ "flop_per_clk_sm", "FLOP/clk/SM", 1, "2 M N K depth / completion cycles, per SM" },
	{ "fit_b_cycles", "cycles", 0, "depth 0: b of II(D) = a + b/D (exposed latency)" },
	{ "saturating_depth", "MMAs", 0, "depth 0: measured depth where II(D) is within 5% of a", TCP_ROLE_INFO },
	{ "pipeline_depth", "MMAs", 0, "depth 0: latency at D = 1 / a, unrounded: the MMAs in flight that hide one "
	  "MMA's latency (public write-ups quote its ceiling)" },
	{ "issue_cycles_d1", "cycles", 0, "issue window of the 1-MMA chain (NAN: no MMA in it)" },
	{ "issue_cycles_d2", "cycles", 0, "issue window of the 2-MMA chain (after the first one or two issued)" },
	{ "issue_cycles_d4", "cycles", 0, "issue window of the 4-MMA chain" },
	{ "issue_cycles_d8", "cycles", 0, "issue window of the 8-MMA chain" },
	{ "issue_cycles_d16", "cycles", 0, "issue window of the 16-MMA chain" },
	{ "issue_cycles_d32", "cycles", 0, "issue window of the 32-MMA chain" },
	{ "issue_cycles_d64", "cycles", 0, "issue window of the 64-MMA chain" },
	{ "mma_queue_depth", "MMAs", 0,
	  "deepest chain whose issue window stays on the line through the shorter ones: the MMA queue holds at "
	  "least this many (64: no knee)", TCP_ROLE_INFO },	/* a step of the depth grid, not a speed */
	{ "issue_cost_cycles", "cycles", 0,
	  "cycles per issued MMA while the queue has room (slope of that line); issue time above it is back-pressure" },
	{ "issue_bound", "0/1", 0,
	  "depth 0: 1 when the fitted interval a is at most 1.25 x issue_cost_cycles (one thread's issue sets the "
	  "rate), 0 otherwise; NAN when either is unknown", TCP_ROLE_INFO },
};
/* issue_cycles_dD is metric M_ISSUE_D1 + log2(D), D = 1 .. 64, release and emulation alike */
enum { M_ISSUE_D1 = 6, M_QUEUE = 13, M_ISSUE_COST = 14, M_ISSUE_BOUND = 15 };
static_assert(M_ISSUE_BOUND + 1 == TC_NELEM(metrics), "the issue metrics close the table");
static_assert(TC_NELEM(metrics) <= TCP_MAX_METRICS, "a sample holds every metric");

/* legal: tcp_tc_mma_point(); tmem: same and overwrite one accumulator, indep
 * and alt_acc two (a point where two do not fit is SKIPPED: it would
 * silently become a one-accumulator chain). */
TC_MMA_POINT_HOOKS("tc_mma_ii")

static tcp_status_t ii_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	tcp_tc_mma_point_t mp;
	tcp_status_t st = tc_mma_state_new("tc_mma_ii", p, c, state, &mp);
	if (st != TCP_OK)
		return st;
	struct tc_mma *m = (struct tc_mma *)*state;
	st = tc_mma_setup_point(m, &mp, TCP_TC_FILL_RANDOM, c);
	c->issued_tensor_insts = (double)tc_ii_mmas() * m->units;	/* every depth runs */
	return st;
}

static tcp_status_t ii_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct tc_mma *m = (struct tc_mma *)state;
	tcp_status_t st = tc_mma_launch(m, tc_mma_kern_cast(m, ii_tab[m->pt.opt]), m->grid, c);
	if (st != TCP_OK)
		return st;
	/* Every depth ran (1, 2 .. 64; the emulation 1, 2, 4, 32); the point
	 * reports its own (a depth the kernel lacks: the deepest) or the fit. */
	const double flop = tcp_tc_mma_flop(&m->cfg) / m->cfg.cta_group;
	double dep[TC_FIT_DEPTHS], ii[TC_FIT_DEPTHS], a, b, dsat;
	int jsel = TC_FIT_DEPTHS - 1;
	for (int j = 0; j < TC_FIT_DEPTHS; j++) {
		dep[j] = (double)tc_ii_depth(j);
		ii[j] = tc_mma_rec_median(m, 4 + TC_FIT_DEPTHS + j, dep[j]);
		if (m->pt.depth == tc_ii_depth(j))
			jsel = j;
	}
	/* the issue span holds the MMAs after the ones issued before the window */
	const int pre = TC_II_PRE(m->pt.opt, tc_ii_depth(jsel)), inwin = tc_ii_depth(jsel) - pre;
	out->v[0] = inwin > 0 ? tc_mma_rec_median(m, 4 + jsel, inwin) : NAN;
	/* the issue window at every depth run, and where it leaves its line */
	double nin[TC_FIT_DEPTHS], tin[TC_FIT_DEPTHS], cost, last_n;
	for (int i = 0; i < 7; i++)
		out->v[M_ISSUE_D1 + i] = NAN;
	for (int j = 0; j < TC_FIT_DEPTHS; j++) {
		const int d = tc_ii_depth(j), n = d - TC_II_PRE(m->pt.opt, d);
		nin[j] = n > 0 ? (double)n : NAN;
		tin[j] = n > 0 ? tc_mma_rec_median(m, 4 + j, 1.0) : NAN;
		out->v[M_ISSUE_D1 + __builtin_ctz((unsigned)d)] = tin[j];
	}
	const int knee = tcp_aux_issue_knee(nin, tin, TC_FIT_DEPTHS, TCP_AUX_ISSUE_KNEE_TOL, &cost, &last_n);
	out->v[M_QUEUE] = knee < 0 ? NAN : last_n + TC_II_PRE(m->pt.opt, 2);
	out->v[M_ISSUE_COST] = cost;
	out->v[M_ISSUE_BOUND] = NAN;
	if (m->pt.depth > 0) {
		out->v[1] = ii[jsel];
		out->v[2] = out->v[1] > 0 ? flop / out->v[1] : NAN;
		out->v[3] = out->v[4] = out->v[5] = NAN;
		return TCP_OK;
	}
	if (tcp_tc_fit_ii(dep, ii, TC_FIT_DEPTHS, &a, &b, &dsat) != 0) {
		snprintf(c->reason, TCP_REASON_LEN, "II fit failed (cycles per MMA at D=1: %.1f, D=%d: %.1f)", ii[0],
			 tc_ii_depth(TC_FIT_DEPTHS - 1), ii[TC_FIT_DEPTHS - 1]);
		return TCP_INVALID;
	}
	out->v[1] = a;
	out->v[2] = flop / a;
	out->v[3] = b;
	out->v[4] = dsat;
	out->v[5] = tcp_tc_pipeline_depth(ii[0], a);
	const int ib = tcp_tc_issue_bound(cost, a);
	out->v[M_ISSUE_BOUND] = ib < 0 ? NAN : ib;
	return TCP_OK;
}

extern "C" const tcp_probe_t tcp_probe_tc_mma_ii = {
	.name = "tc_mma_ii",
	.family = "tcgen05.mma",
	.help = "tcgen05.mma issue rate and initiation interval vs chain depth (independent / same accumulator)",
	.arch = TCP_ARCH_TCGEN05,
	.axes = axes,
	.naxes = TC_NELEM(axes),
	.metrics = metrics,
	.nmetrics = TC_NELEM(metrics),
	.legal = tc_probe_legal,
	.setup = ii_setup,
	.validate = tc_mma_validate_point,
	.run = ii_run,
	.teardown = tc_mma_teardown,
	.unsupported_reason = NULL,
	.tmem = tc_probe_tmem,
	.legal_on = tc_probe_legal_on,
};
