/*
 * probe-tc-mma-ii.cu
 *	tcgen05.mma issue rate and initiation interval: a chain of `depth`
 *	MMAs from one thread, either into independent accumulators (cycling
 *	through the stages that fit in TMEM) or into the same accumulator (a
 *	true dependency through D); cycles per MMA for the issuing thread
 *	(issue loop only) and to completion (issue -> commit -> mbarrier).
 *	Minimum over 4 timed chains after a warm-up chain.
 *
 *	depth = 0 runs every depth 1, 2, 4 .. 64 in one kernel and fits
 *	II(D) = a + b / D to the completion cycles per MMA (median over SMs per
 *	depth; tcp_tc_fit_ii): a is the initiation interval, b the exposed
 *	latency, and the saturating depth is where II(D) is within 5% of a.
 *	Published: II about N/2 cycles, any kind (SemiAnalysisAI/microbench-
 *	blackwell; facts s.11).
 *
 *	Metrics:
 *	  issue_cycles_per_mma  issuing thread's loop cycles / depth (depth 0: at D = 64)
 *	  cycles_per_mma        issue of the first to completion of the last / depth
 *	                        (depth 0: the fitted asymptote a)
 *	  flop_per_clk_sm       2 M N K / cycles_per_mma (per SM of the pair)
 *	  fit_b_cycles          depth 0: b of the fit (NAN otherwise)
 *	  saturating_depth      depth 0: b / (0.05 a) (NAN otherwise)
 */
#include "probes/sm100/tc-mma.cuh"

static const tc_kern_t validate_tab[2][2][KV_N] = TC_TABLE(TC_MODE_VALIDATE);
static const tc_kern_t ii_tab[2][2][KV_N] = TC_TABLE(TC_MODE_II);
static const char *const chain_names[] = { "indep", "same", NULL };

static const tcp_axis_t axes[] = {
	TC_AXES_MMA,
	{ "depth", "MMAs issued back to back before one commit; 0 = all of 1..64 and the fit", NULL,
	  "[0,1,2,4,8,16,32,64]" },
	{ "chain", "indep: rotate accumulators; same: accumulate into one (dependent)", chain_names, "indep,same" },
};

static const tcp_metric_t metrics[] = {
	{ "issue_cycles_per_mma", "cycles", 0, "issuing thread's cycles per tcgen05.mma" },
	{ "cycles_per_mma", "cycles", 0, "issue of the first to completion of the last, per MMA" },
	{ "flop_per_clk_sm", "FLOP/clk/SM", 1, "2 M N K depth / completion cycles, per SM" },
	{ "fit_b_cycles", "cycles", 0, "depth 0: b of II(D) = a + b/D (exposed latency)" },
	{ "saturating_depth", "MMAs", 0, "depth 0: depth where II(D) is within 5% of a" },
};

static int ii_legal(const tcp_point_t *p, char *reason, size_t len)
{
	if (p->v[TC_NAXES_MMA] < 0 || p->v[TC_NAXES_MMA] > 1024) {
		snprintf(reason, len, "depth must be in [0, 1024] (0 = fit over 1..64); got %lld",
			 (long long)p->v[TC_NAXES_MMA]);
		return 0;
	}
	return tc_mma_point_legal(p, reason, len);
}

/* chain=same: one accumulator; chain=indep: two, alternating (a point
 * where two do not fit is SKIPPED: it would silently become a same-
 * accumulator chain, issue 16 defect 6). */
static int ii_tmem(const tcp_point_t *p, tcp_tmem_fp_t *fp, char *reason, size_t len)
{
	int indep = p->v[TC_NAXES_MMA + 1] == 0;
	int r = tc_mma_point_fp(p, indep ? 2 : 1, 1, fp, reason, len);
	char why[TCP_REASON_LEN];
	if (r > 0 && indep && tcp_tmem_fp_check(fp, why, sizeof(why))) {
		snprintf(reason, len, "chain=indep needs two accumulator stages: %s", why);
		return -1;
	}
	return r;
}

static tcp_status_t ii_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	tcp_mma_cfg_t cfg;
	int ts;
	tcp_status_t st = tc_mma_state_new(p, c, state, &cfg, &ts);
	if (st != TCP_OK)
		return st;
	struct tc_mma *m = (struct tc_mma *)*state;
	tcp_tmem_fp_t fp;
	if (ii_tmem(p, &fp, c->reason, TCP_REASON_LEN) < 0)
		return TCP_SKIPPED;
	st = tc_mma_setup(m, &cfg, ts, TCP_TC_FILL_RANDOM, p->v[TC_NAXES_MMA + 1] == 0 ? 2 : 1, c);
	m->args.iters = (int)p->v[TC_NAXES_MMA];
	m->args.dep = p->v[TC_NAXES_MMA + 1] == 1;
	c->issued_tensor_insts = 5.0 * (m->args.iters ? m->args.iters : (1 << TC_FIT_DEPTHS) - 1) * m->units;
	return st;
}

static tcp_status_t ii_validate(void *state, tcp_ctx_t *c)
{
	struct tc_mma *m = (struct tc_mma *)state;
	return tc_mma_validate(m, tc_mma_kern(m, validate_tab), c);
}

static tcp_status_t ii_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct tc_mma *m = (struct tc_mma *)state;
	tcp_status_t st = tc_mma_launch(m, tc_mma_kern(m, ii_tab), m->grid, c);
	if (st != TCP_OK)
		return st;
	const double flop = tcp_tc_mma_flop(&m->cfg) / m->cfg.cta_group;
	if (m->args.iters > 0) {
		out->v[0] = tc_mma_rec_median(m, 0, m->args.iters);
		out->v[1] = tc_mma_rec_median(m, 1, m->args.iters);
		out->v[2] = out->v[1] > 0 ? flop / out->v[1] : NAN;
		out->v[3] = out->v[4] = NAN;
		return TCP_OK;
	}
	double dep[TC_FIT_DEPTHS], ii[TC_FIT_DEPTHS], a, b, dsat;
	for (int j = 0; j < TC_FIT_DEPTHS; j++) {
		dep[j] = (double)(1 << j);
		ii[j] = tc_mma_rec_median(m, 4 + TC_FIT_DEPTHS + j, dep[j]);
	}
	out->v[0] = tc_mma_rec_median(m, 4 + TC_FIT_DEPTHS - 1, dep[TC_FIT_DEPTHS - 1]);
	if (tcp_tc_fit_ii(dep, ii, TC_FIT_DEPTHS, &a, &b, &dsat) != 0) {
		snprintf(c->reason, TCP_REASON_LEN, "II fit failed (cycles per MMA at D=1: %.1f, D=64: %.1f)", ii[0],
			 ii[TC_FIT_DEPTHS - 1]);
		return TCP_INVALID;
	}
	out->v[1] = a;
	out->v[2] = flop / a;
	out->v[3] = b;
	out->v[4] = dsat;
	return TCP_OK;
}

extern "C" const tcp_probe_t tcp_probe_tc_mma_ii = {
	.name = "tc_mma_ii",
	.family = "tcgen05.mma",
	.help = "tcgen05.mma issue rate and initiation interval vs chain depth (independent / same accumulator)",
	.arch = TCP_ARCH_SM100A,
	.axes = axes,
	.naxes = TC_NELEM(axes),
	.metrics = metrics,
	.nmetrics = TC_NELEM(metrics),
	.legal = ii_legal,
	.setup = ii_setup,
	.validate = ii_validate,
	.run = ii_run,
	.teardown = tc_mma_teardown,
	.unsupported_reason = NULL,
	.tmem = ii_tmem,
};
