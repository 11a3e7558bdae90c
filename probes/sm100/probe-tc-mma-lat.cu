/*
 * probe-tc-mma-lat.cu
 *	tcgen05.mma latency: one MMA issued, committed to an mbarrier, waited
 *	on; cycles from the clock read before the issue to the one after the
 *	mbarrier phase flip, as the issuing thread sees them.  Axes: kind and
 *	types (all seven kinds), cta_group 1/2, M, N (every legal step), A from
 *	SMEM or TMEM, grid, the commit form (cast), swizzle, enable_input_d.
 *
 *	The window (issue 17 item 4): every operand, the commit form and the
 *	accumulate flag are compile-time or already in registers, so between
 *	the clock read and the UTC*MMA there is no constant load and no
 *	special-register move (SASS rule in scripts/check-sass.sh).  Per
 *	issuing CTA: TC_LAT_WARMUP samples dropped (the first writes D with
 *	enable-input-d = 0, TMEM not being zeroed), then TC_LAT_SAMPLES = 64
 *	samples that accumulate into D (enable_input_d = 1) or overwrite it
 *	(enable_input_d = 0).  cta_group::2 with cast=multicast: the odd CTA
 *	waits on its own barrier too (it does not delay the even CTA's flip).
 *	The emulation build (TCP_TC_EMU) keeps TCP_AUX_EMU_LAT_WARMUP and
 *	TCP_AUX_EMU_LAT_SAMPLES (tc-aux.h).
 *
 *	Published reference (SemiAnalysisAI/microbench-blackwell, B200, bf16,
 *	M=128, cta_group::1, SS): 168 / 200 / 264 cycles at N = 64 / 128 / 256,
 *	TS 32 cycles less (facts s.11).
 *
 *	Metrics:
 *	  latency_cycles      median of the 64 samples, median over issuing CTAs
 *	  latency_min_cycles  fastest of the 64 samples, median over issuing CTAs
 */
#include "probes/sm100/tc-mma.cuh"

/* [enable_input_d][cg - 1][ts][cast][kind variant] */
static const tc_cast_table_t lat_tab[2] = { TC_TABLE_CAST(TC_MODE_LAT, 0), TC_TABLE_CAST(TC_MODE_LAT, 1) };

static const tcp_axis_t axes[] = {
	TC_AXES_MMA,
	{ "enable_input_d", "1: samples after the first accumulate into D; 0: every MMA overwrites D", NULL, "[1]" },
};

static const tcp_metric_t metrics[] = {
	{ "latency_cycles", "cycles", 0, "issue -> commit -> mbarrier flip, median of 64 samples, median over SMs" },
	{ "latency_min_cycles", "cycles", 0, "fastest of the 64 samples, median over SMs" },
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
	/* Per issuing CTA: median and minimum of its samples; then the median over CTAs. */
	double *s = m->tmp + m->grid;
	int n = 0;
	for (int i = 0; i < m->grid; i += m->cfg.cta_group, n++) {
		double v[TC_LAT_SAMPLES];
		for (int j = 0; j < TC_LAT_SAMPLES; j++)
			v[j] = (double)m->h_rec[(size_t)i * TC_REC + j];
		m->tmp[n] = tc_median(v, TC_LAT_SAMPLES);	/* sorts v */
		s[n] = v[0];
	}
	out->v[0] = tc_median(m->tmp, n);
	out->v[1] = tc_median(s, n);
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
