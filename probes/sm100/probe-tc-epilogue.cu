/*
 * probe-tc-epilogue.cu
 *	Epilogue overlap: MMA throughput on accumulator stage 0 while the second
 *	warpgroup drains stage 1 at a swept rate with tcgen05.ld (32x32b.x32),
 *	or writes it with tcgen05.st, or fills it with tcgen05.cp 128x256b.
 *	Does TMEM's own port leave the MMA untouched?  The answer is the curve
 *	flop_per_clk_sm against drain_bytes_per_clk_sm, not an assumption.
 *	cta_group::1, M = 128, A and B from shared memory; both stages must fit
 *	(2 N + 16 columns <= 512, so N <= 240).
 *
 *	Metrics:
 *	  flop_per_clk_sm         MMA rate during the drain, median over SMs
 *	  pct_of_peak             of the published dense peak of the kind
 *	  drain_bytes_per_clk_sm  TMEM bytes the drain moved per SM clock
 */
#include "probes/sm100/tc-mma.cuh"

#define EPI_MMAS 4096

static const tc_kern_t validate_tab[2][2][KV_N] = TC_TABLE_CG1(TC_MODE_VALIDATE);
static const tc_kern_t epi_tab[2][2][KV_N] = TC_TABLE_CG1(TC_MODE_EPI);
static const char *const drain_names[] = { "none", "ld", "st", "cp", NULL };

static const tcp_axis_t axes[] = {
	{ "kind", "tcgen05.mma .kind (default types)", tc_kind_names, "f16,f8f6f4,mxf4" },
	{ "N", "instruction N (M = 128, cta_group::1)", NULL, "[128,192]" },
	{ "drain", "traffic on stage 1: none, tcgen05.ld, tcgen05.st, tcgen05.cp", drain_names, "none,ld,st,cp" },
	{ "gap_cycles", "idle cycles between drain accesses (sets the drain rate)", NULL, "[0,64,256,1024,4096]" },
};

static const tcp_metric_t metrics[] = {
	{ "flop_per_clk_sm", "FLOP/clk/SM", 1, "MMA rate while stage 1 is drained, median over SMs" },
	{ "pct_of_peak", "%", 1, "of the published dense FLOP/clk/SM of the kind" },
	{ "drain_bytes_per_clk_sm", "B/clk/SM", 1, "TMEM bytes moved by the drain per SM clock" },
};

static int epi_cfg(const tcp_point_t *p, tcp_mma_cfg_t *cfg, char *reason, size_t len)
{
	if (p->v[0] < 0 || p->v[0] >= TCP_KIND_COUNT) {
		snprintf(reason, len, "kind index %lld out of range", (long long)p->v[0]);
		return 0;
	}
	tcp_mma_cfg_default((tcp_kind_t)p->v[0], cfg);
	cfg->m = 128;
	cfg->n = (unsigned)p->v[1];
	if (!tcp_mma_legal(cfg, reason, len))
		return 0;
	if (2 * cfg->n + 16 > 512) {
		snprintf(reason, len, "two accumulator stages of N=%u plus 16 columns exceed 512 TMEM columns (N <= 240)",
			 cfg->n);
		return 0;
	}
	if (p->v[3] < 0 || p->v[3] > 1000000) {
		snprintf(reason, len, "gap_cycles must be in [0, 1e6]; got %lld", (long long)p->v[3]);
		return 0;
	}
	return 1;
}

static int epi_legal(const tcp_point_t *p, char *reason, size_t len)
{
	tcp_mma_cfg_t cfg;
	return epi_cfg(p, &cfg, reason, len);
}

static tcp_status_t epi_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	struct tc_mma *m = (struct tc_mma *)calloc(1, sizeof(*m));
	tcp_mma_cfg_t cfg;
	if (!m) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = m;
	if (!epi_cfg(p, &cfg, c->reason, TCP_REASON_LEN))
		return TCP_SKIPPED;
	tcp_status_t st = tc_mma_setup(m, &cfg, 0, TCP_TC_FILL_RANDOM, 2, c);
	if (st != TCP_OK)
		return st;
	if (m->args.nstage != 2) {
		snprintf(c->reason, TCP_REASON_LEN, "two accumulator stages do not fit");
		return TCP_SKIPPED;
	}
	m->args.nstage = 1;	/* MMAs on stage 0 only; the drain owns stage 1 */
	m->args.iters = EPI_MMAS;
	m->args.drain = (int)p->v[2];
	m->args.drain_gap = (unsigned)p->v[3];
	c->issued_tensor_insts = (double)EPI_MMAS * m->units;
	return TCP_OK;
}

static tcp_status_t epi_validate(void *state, tcp_ctx_t *c)
{
	struct tc_mma *m = (struct tc_mma *)state;
	return tc_mma_validate(m, validate_tab[0][0][tc_kind_variant(&m->cfg)], c);
}

static tcp_status_t epi_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct tc_mma *m = (struct tc_mma *)state;
	tcp_status_t st = tc_mma_launch(m, epi_tab[0][0][tc_kind_variant(&m->cfg)], m->grid, c);
	if (st != TCP_OK)
		return st;
	double flop = tcp_tc_mma_flop(&m->cfg) * EPI_MMAS;
	int n = 0;
	for (int i = 0; i < m->grid; i++)
		if (m->h_rec[i * TC_REC])
			m->tmp[n++] = flop / (double)m->h_rec[i * TC_REC];
	out->v[0] = tc_median(m->tmp, n);
	double peak = tcp_kind_flop_clk_sm(m->cfg.kind, TCP_GEN_SM100);
	out->v[1] = peak > 0 ? 100.0 * out->v[0] / peak : NAN;
	n = 0;
	for (int i = 0; i < m->grid; i++)
		if (m->h_rec[i * TC_REC + 2])
			m->tmp[n++] = (double)m->h_rec[i * TC_REC + 1] / (double)m->h_rec[i * TC_REC + 2];
	out->v[2] = m->args.drain ? tc_median(m->tmp, n) : 0.0;
	return TCP_OK;
}

extern "C" const tcp_probe_t tcp_probe_tc_epilogue = {
	.name = "tc_epilogue",
	.family = "tcgen05.mma",
	.help = "MMA throughput while another warpgroup drains a second TMEM stage (ld/st/cp at a swept rate)",
	.arch = TCP_ARCH_SM100A,
	.axes = axes,
	.naxes = TC_NELEM(axes),
	.metrics = metrics,
	.nmetrics = TC_NELEM(metrics),
	.legal = epi_legal,
	.setup = epi_setup,
	.validate = epi_validate,
	.run = epi_run,
	.teardown = tc_mma_teardown,
	.unsupported_reason = NULL,
};
