/*
 * probe-tc-mma-lat.cu
 *	tcgen05.mma latency: one MMA issued, committed to an mbarrier, waited
 *	on, as the issuing thread sees it, through two windows that close at
 *	the clock read after the mbarrier phase flip: from a clock read before
 *	the MMA (its operand setup inside the window, as in the published
 *	method) and from the clock read after the MMA and its commit issued.
 *	Axes: kind and types (all seven kinds), cta_group 1/2, M, N (every
 *	legal step), A from SMEM or TMEM, grid, the commit form (cast),
 *	swizzle, enable_input_d.
 *
 *	The windows (tc-mma.cuh TC_MODE_LAT): every operand, the commit form
 *	and the accumulate flag are compile-time or already in registers.
 *	ptxas places the MMA's operand setup right before it and never above a
 *	clock read, so the issue window holds that setup (about a dozen
 *	instructions) and the commit window none of it: between its 64-bit
 *	clock read and the wait there is no constant load and no special-
 *	register move (SASS rule clean-window, scripts/ci/check-sass.sh; the
 *	issue window opens with a 32-bit read, which the rule does not treat
 *	as a window edge).  Per issuing CTA: TC_LAT_WARMUP samples dropped
 *	(the first writes D with enable-input-d = 0, TMEM not being zeroed),
 *	then TC_LAT_SAMPLES = 64 samples that accumulate into D
 *	(enable_input_d = 1) or overwrite it (enable_input_d = 0).
 *	cta_group::2 with cast=multicast: the odd CTA waits on its own barrier
 *	too (it does not delay the even CTA's flip).  The emulation build
 *	(TCP_TC_EMU) keeps TCP_AUX_EMU_LAT_WARMUP and TCP_AUX_EMU_LAT_SAMPLES
 *	(tc-aux.h).
 *
 *	Published reference (SemiAnalysisAI/microbench-blackwell@9a068d8,
 *	lat_results_full.csv, B200, bf16, M=128, cta_group::1, SS): 168 / 200
 *	/ 264 cycles at N = 64 / 128 / 256 from a clock read before elect,
 *	MMA and commit; comparable with latency_cycles.  TS against SS:
 *	docs/b200-predictions.md (re-derived from the SemiAnalysis data).
 *
 *	Metrics (median of the 64 samples per issuing CTA, median over CTAs):
 *	  latency_cycles             issue window: clock before the MMA's setup -> flip
 *	  latency_min_cycles         fastest sample of the issue window
 *	  commit_latency_cycles      commit window: clock after MMA and commit issued -> flip
 *	  commit_latency_min_cycles  fastest sample of the commit window
 */
#include "probes/sm100/tc-mma.cuh"

/* [enable_input_d][cg - 1][ts][cast][kind variant] */
static const tc_cast_table_t lat_tab[2] = { TC_TABLE_CAST(TC_MODE_LAT, 0), TC_TABLE_CAST(TC_MODE_LAT, 1) };

static const tcp_axis_t axes[] = {
	TC_AXES_MMA,
	{ "enable_input_d", "1: samples after the first accumulate into D; 0: every MMA overwrites D", NULL, "[1]" },
};

static const tcp_metric_t metrics[] = {
	{ "latency_cycles", "cycles", 0, "SM clock cycles from a 32-bit clock read before the MMA (its operand setup, "
	  "about a dozen instructions, inside: the published method's window) to the clock read after the issuing "
	  "thread sees the mbarrier flip; median of 64 samples, median over SMs" },
	{ "latency_min_cycles", "cycles", 0, "fastest of the 64 issue-window samples, median over SMs" },
	{ "commit_latency_cycles", "cycles", 0, "SM clock cycles from the 64-bit clock read after the MMA and its commit "
	  "issued to the clock read after the mbarrier flip; median of 64 samples, median over SMs" },
	{ "commit_latency_min_cycles", "cycles", 0, "fastest of the 64 commit-window samples, median over SMs" },
};

/* legal: tcp_tc_mma_point(); tmem: one accumulator, every sample writes it */
TC_MMA_POINT_HOOKS("tc_mma_lat")

static tcp_status_t lat_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	tcp_tc_mma_point_t mp;
	tcp_status_t st = tc_mma_state_new("tc_mma_lat", p, c, state, &mp);
	if (st != TCP_OK)
		return st;
	struct tc_mma *m = (struct tc_mma *)*state;
	st = tc_mma_setup_point(m, &mp, TCP_TC_FILL_RANDOM, c);
	c->issued_tensor_insts = (double)(TC_LAT_WARMUP + TC_LAT_SAMPLES) * m->units;
	return st;
}

static tcp_status_t lat_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct tc_mma *m = (struct tc_mma *)state;
	tcp_status_t st = tc_mma_launch(m, tc_mma_kern_cast(m, lat_tab[m->pt.opt]), m->grid, c);
	if (st != TCP_OK)
		return st;
	tc_lat_summary(m, 0, &out->v[0], &out->v[1]);	/* issue window */
	tc_lat_summary(m, 1, &out->v[2], &out->v[3]);	/* commit window */
	return TCP_OK;
}

extern "C" const tcp_probe_t tcp_probe_tc_mma_lat = {
	.name = "tc_mma_lat",
	.family = "tcgen05.mma",
	.help = "tcgen05.mma issue -> commit -> mbarrier latency per kind, cta_group, M, N, SS/TS",
	.arch = TCP_ARCH_TCGEN05,
	.axes = axes,
	.naxes = TC_NELEM(axes),
	.metrics = metrics,
	.nmetrics = TC_NELEM(metrics),
	.legal = tc_probe_legal,
	.setup = lat_setup,
	.validate = tc_mma_validate_point,
	.run = lat_run,
	.teardown = tc_mma_teardown,
	.unsupported_reason = NULL,
	.tmem = tc_probe_tmem,
	.legal_on = tc_probe_legal_on,
};
