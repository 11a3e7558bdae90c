/*
 * probe-tc-mma-tput.cu
 *	Per-kind tcgen05.mma throughput: one persistent CTA per SM (one pair per
 *	two SMs for cta_group::2), the elected thread issues 2048 MMAs into two
 *	alternating TMEM accumulators (one when two do not fit) and commits
 *	once.  Every kind and type pair (f16/bf16, tf32, each f8f6f4 pair incl.
 *	fp6/fp4, i8 s8/u8, mxf8f6f4, mxf4, mxf4nvf4 block16/32 with ue8m0 or
 *	ue4m3 scales), cta_group 1/2, M, N, SS/TS.
 *
 *	FLOP per MMA = 2 M N K with the PTX K of the kind (fp4 under f8f6f4 is
 *	K = 32, not 64).  Published peaks per SM per clock (model/kinds.h,
 *	facts s.11): f16/bf16 8192, tf32 4096, f8f6f4/i8/mxf8f6f4 16384,
 *	mxf4/mxf4nvf4 32768.
 *
 *	Metrics:
 *	  flop_per_clk_sm        median over issuing units, per SM
 *	  pct_of_peak            of the published dense peak of the kind
 *	  acc_bytes_per_clk_sm   implied accumulator traffic: FLOP/clk/SM / (K / 4)
 */
#include "probes/common/fill.h"
#include "probes/sm100/tc-mma.cuh"

#define TPUT_MMAS 2048

static const tc_kern_t validate_tab[2][2][KV_N] = TC_TABLE(TC_MODE_VALIDATE);
static const tc_kern_t tput_tab[2][2][KV_N] = TC_TABLE(TC_MODE_TPUT);

static const tcp_axis_t axes[] = {
	TC_AXES_MMA,
	{ "pattern", "input values: zeros, ones, random, sparse50, smallexp, maxfinite (fill.h; block "
	  "scales stay random)", tcp_pattern_names, "random" },
};
#define AX_PAT (sizeof(axes) / sizeof(axes[0]) - 1)

static const tcp_metric_t metrics[] = {
	{ "flop_per_clk_sm", "FLOP/clk/SM", 1, "2 M N K (PTX K) per SM clock, median over SMs" },
	{ "pct_of_peak", "%", 1, "of the published dense FLOP/clk/SM of the kind" },
	{ "acc_bytes_per_clk_sm", "B/clk/SM", 1, "implied accumulator bandwidth: FLOP/clk/SM / (K/4)" },
};

static tcp_status_t tput_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	tcp_mma_cfg_t cfg;
	int ts;
	tcp_status_t st = tc_mma_state_new(p, c, state, &cfg, &ts);
	if (st != TCP_OK)
		return st;
	struct tc_mma *m = (struct tc_mma *)*state;
	int pat = (int)p->v[AX_PAT];
	/* random: the very draws the probe always had */
	st = tc_mma_setup(m, &cfg, ts, pat == TCP_PAT_RANDOM ? TCP_TC_FILL_RANDOM
								     : TCP_TC_FILL_PATTERN + pat, 2, c);
	m->args.iters = TPUT_MMAS;
	c->issued_tensor_insts = (double)TPUT_MMAS * m->units;
	/* --energy: FLOP of one run(), every issuing unit (a pair's MMA counts once) */
	c->work_flop = st == TCP_OK ? tcp_tc_mma_flop(&m->cfg) * TPUT_MMAS * m->units : -1;
	return st;
}

static tcp_status_t tput_validate(void *state, tcp_ctx_t *c)
{
	struct tc_mma *m = (struct tc_mma *)state;
	return tc_mma_validate(m, tc_mma_kern(m, validate_tab), c);
}

static tcp_status_t tput_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct tc_mma *m = (struct tc_mma *)state;
	tcp_status_t st = tc_mma_launch(m, tc_mma_kern(m, tput_tab), m->grid, c);
	if (st != TCP_OK)
		return st;
	double flop = tcp_tc_mma_flop(&m->cfg) * TPUT_MMAS / m->cfg.cta_group;
	int n = 0;
	for (int i = 0; i < m->grid; i += m->cfg.cta_group)
		if (m->h_rec[i * TC_REC])
			m->tmp[n++] = flop / (double)m->h_rec[i * TC_REC];
	out->v[0] = tc_median(m->tmp, n);
	double peak = tcp_kind_flop_clk_sm(m->cfg.kind, TCP_GEN_SM100);
	out->v[1] = peak > 0 ? 100.0 * out->v[0] / peak : NAN;
	out->v[2] = out->v[0] / (tcp_mma_k(&m->cfg) / 4.0);
	return TCP_OK;
}

/* Two alternating accumulators where they fit, else one. */
static int tput_tmem(const tcp_point_t *p, tcp_tmem_fp_t *fp, char *reason, size_t len)
{
	return tc_mma_point_fp(p, 2, 0, fp, reason, len);
}

extern "C" const tcp_probe_t tcp_probe_tc_mma_tput = {
	.name = "tc_mma_tput",
	.family = "tcgen05.mma",
	.help = "tcgen05.mma FLOP/clk/SM per kind and type pair, cta_group, M, N, SS/TS; % of peak; K/4 bandwidth",
	.arch = TCP_ARCH_SM100A,
	.axes = axes,
	.naxes = TC_NELEM(axes),
	.metrics = metrics,
	.nmetrics = TC_NELEM(metrics),
	.legal = tc_mma_point_legal,
	.setup = tput_setup,
	.validate = tput_validate,
	.run = tput_run,
	.teardown = tc_mma_teardown,
	.unsupported_reason = NULL,
	.tmem = tput_tmem,
};
