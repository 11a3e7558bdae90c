/*
 * probe-tc-mma-lat.cu
 *	tcgen05.mma latency: one MMA issued, committed to an mbarrier, waited
 *	on; cycles from issue to the mbarrier phase flip as the issuing thread
 *	sees it.  Axes: kind and types (all seven kinds), cta_group 1/2, M, N
 *	(every legal step), A from SMEM or TMEM.  One issuing CTA (pair) per SM
 *	(pair of SMs); 32 back-to-back single-MMA round trips each.
 *
 *	Published reference (SemiAnalysisAI/microbench-blackwell, B200, bf16,
 *	M=128, cta_group::1, SS): 168 / 200 / 264 cycles at N = 64 / 128 / 256,
 *	TS 32 cycles less (facts s.11).
 *
 *	Metrics:
 *	  latency_cycles      mean over the 32 round trips, median over SMs
 *	  latency_min_cycles  fastest round trip, median over SMs
 */
#include "probes/sm100/tc-mma.cuh"

#define LAT_REPS 32

static const tc_kern_t validate_tab[2][2][KV_N] = TC_TABLE(TC_MODE_VALIDATE);
static const tc_kern_t lat_tab[2][2][KV_N] = TC_TABLE(TC_MODE_LAT);

static const tcp_axis_t axes[] = { TC_AXES_MMA };

static const tcp_metric_t metrics[] = {
	{ "latency_cycles", "cycles", 0, "issue -> commit -> mbarrier flip, mean of 32, median over SMs" },
	{ "latency_min_cycles", "cycles", 0, "fastest of the 32 round trips, median over SMs" },
};

static tcp_status_t lat_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	tcp_mma_cfg_t cfg;
	int ts;
	tcp_status_t st = tc_mma_state_new(p, c, state, &cfg, &ts);
	if (st != TCP_OK)
		return st;
	struct tc_mma *m = (struct tc_mma *)*state;
	st = tc_mma_setup(m, &cfg, ts, TCP_TC_FILL_RANDOM, 1, c);
	m->args.iters = LAT_REPS;
	c->issued_tensor_insts = (double)LAT_REPS * m->units;
	return st;
}

static tcp_status_t lat_validate(void *state, tcp_ctx_t *c)
{
	struct tc_mma *m = (struct tc_mma *)state;
	return tc_mma_validate(m, tc_mma_kern(m, validate_tab), c);
}

static tcp_status_t lat_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct tc_mma *m = (struct tc_mma *)state;
	tcp_status_t st = tc_mma_launch(m, tc_mma_kern(m, lat_tab), m->grid, c);
	if (st != TCP_OK)
		return st;
	out->v[0] = tc_mma_rec_median(m, 0, LAT_REPS);
	out->v[1] = tc_mma_rec_median(m, 1, 1.0);
	return TCP_OK;
}

/* One accumulator: every round trip writes the same D. */
static int lat_tmem(const tcp_point_t *p, tcp_tmem_fp_t *fp, char *reason, size_t len)
{
	return tc_mma_point_fp(p, 1, 1, fp, reason, len);
}

extern "C" const tcp_probe_t tcp_probe_tc_mma_lat = {
	.name = "tc_mma_lat",
	.family = "tcgen05.mma",
	.help = "tcgen05.mma issue -> commit -> mbarrier latency per kind, cta_group, M, N, SS/TS",
	.arch = TCP_ARCH_SM100A,
	.axes = axes,
	.naxes = TC_NELEM(axes),
	.metrics = metrics,
	.nmetrics = TC_NELEM(metrics),
	.legal = tc_mma_point_legal,
	.setup = lat_setup,
	.validate = lat_validate,
	.run = lat_run,
	.teardown = tc_mma_teardown,
	.unsupported_reason = NULL,
	.tmem = lat_tmem,
};
