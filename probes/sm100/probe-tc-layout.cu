/*
 * probe-tc-layout.cu
 *	Accumulator layout check: A and B are filled so that every accumulator
 *	element has a unique value, D[m][n] = (m + 1) + 256 (n + 1) (kind::f16,
 *	exact in f32), one MMA runs per layout, and every TMEM cell is compared
 *	with the cell model/tmem.h's tcp_acc_map() names:
 *	  m128      cta_group::1, M = 128 (lane = row)
 *	  m64a0     cta_group::1, M = 64, layout F, lane alignment 0
 *	  m64a16    cta_group::1, M = 64, layout F, lane alignment 16
 *	  cg2m256   cta_group::2, M = 256 (layout A: rows split across the pair)
 *	  cg2m128   cta_group::2, M = 128 (layout B: N halves on lane halves) [?]
 *	With mask = 1 the MMA is repeated (accumulating) under a fresh random
 *	disable-output-lane mask: masked lanes must keep D, the others become 2 D.
 *
 *	PASS/FAIL is the point's status: a mismatch marks it INVALID with the
 *	first mismatching cells in the reason.  Metrics (from run(), which
 *	repeats the check): bad_cells (0 when the layout holds), cells_checked.
 */
#include "probes/sm100/tc-mma.cuh"

/* kind::f16 only: the unique fill needs exact small integers. */
static const tc_kern_t layout_tab[2] = {
	tc_mma_kernel<1, TCP_KIND_F16, 0, 1, TC_MODE_VALIDATE>,
	tc_mma_kernel<2, TCP_KIND_F16, 0, 1, TC_MODE_VALIDATE>,
};

static const char *const case_names[] = { "m128", "m64a0", "m64a16", "cg2m256", "cg2m128", NULL };
static const struct {
	int cg;
	unsigned m, align;
} cases[] = { { 1, 128, 0 }, { 1, 64, 0 }, { 1, 64, 16 }, { 2, 256, 0 }, { 2, 128, 0 } };

static const tcp_axis_t axes[] = {
	{ "layout", "accumulator layout case", case_names, "m128,m64a0,m64a16,cg2m256,cg2m128" },
	{ "N", "instruction N", NULL, "[16,64,256]" },
	{ "mask", "1 = also check the disable-output-lane mask", NULL, "[0,1]" },
};

static const tcp_metric_t metrics[] = {
	{ "bad_cells", "cells", 0, "accumulator cells that disagree with the model's layout (0 = PASS)" },
	{ "cells_checked", "cells", 1, "accumulator cells compared" },
};

static int layout_cfg(const tcp_point_t *p, tcp_mma_cfg_t *cfg, char *reason, size_t len)
{
	int64_t k = p->v[0];
	if (k < 0 || k >= TC_NELEM(cases)) {
		snprintf(reason, len, "layout index %lld out of range", (long long)k);
		return 0;
	}
	if (p->v[2] < 0 || p->v[2] > 1) {
		snprintf(reason, len, "mask must be 0 or 1; got %lld", (long long)p->v[2]);
		return 0;
	}
	tcp_mma_cfg_default(TCP_KIND_F16, cfg);
	cfg->a = cfg->b = TCP_T_F16;	/* exact integers up to 2048; products summed in f32 */
	cfg->cta_group = cases[k].cg;
	cfg->m = cases[k].m;
	cfg->n = (unsigned)p->v[1];
	return tcp_mma_legal(cfg, reason, len);
}

static int layout_legal(const tcp_point_t *p, char *reason, size_t len)
{
	tcp_mma_cfg_t cfg;
	return layout_cfg(p, &cfg, reason, len);
}

/* TMEM: the MMA engine's footprint with one accumulator (tc-mma.cuh). */
static int layout_tmem(const tcp_point_t *p, tcp_tmem_fp_t *fp, char *reason, size_t len)
{
	tcp_mma_cfg_t cfg;
	if (!layout_cfg(p, &cfg, reason, len))
		return -1;
	tc_mma_fp(&cfg, 0, 1, fp);
	return 1;
}

static tcp_status_t layout_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	struct tc_mma *m = (struct tc_mma *)calloc(1, sizeof(*m));
	tcp_mma_cfg_t cfg;
	if (!m) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = m;
	if (!layout_cfg(p, &cfg, c->reason, TCP_REASON_LEN))
		return TCP_SKIPPED;
	tcp_status_t st = tc_mma_setup(m, &cfg, 0, TCP_TC_FILL_UNIQUE, 1, c);
	if (st != TCP_OK)
		return st;
	m->args.lane_align = cases[p->v[0]].align;
	if (p->v[2]) {
		/* Fresh random mask with at least one masked and one live lane. */
		uint64_t s = c->seed * 0x9E3779B97F4A7C15ull + 1;
		do {
			for (int i = 0; i < 8; i++) {
				s ^= s << 13;
				s ^= s >> 7;
				s ^= s << 17;
				m->args.mask[i] = (uint32_t)s;
			}
		} while (m->args.mask[0] == 0 || m->args.mask[0] == 0xffffffffu);
		if (cfg.cta_group == 1)
			for (int i = 4; i < 8; i++)
				m->args.mask[i] = 0;
		m->args.use_mask = 1;
	}
	c->issued_tensor_insts = -1;
	return TCP_OK;
}

static tcp_status_t layout_validate(void *state, tcp_ctx_t *c)
{
	struct tc_mma *m = (struct tc_mma *)state;
	return tc_mma_validate(m, layout_tab[m->cfg.cta_group - 1], c);
}

static tcp_status_t layout_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct tc_mma *m = (struct tc_mma *)state;
	tcp_status_t st = tc_mma_validate(m, layout_tab[m->cfg.cta_group - 1], c);
	if (st != TCP_OK && st != TCP_INVALID)
		return st;
	long bad = 0;
	if (!m->args.use_mask)
		bad = tcp_tc_check_tmem(&m->data, m->h_dump, m->args.acc_cols, m->args.lane_align, c->reason,
					TCP_REASON_LEN);
	else
		bad = st == TCP_INVALID;
	out->v[0] = (double)bad;
	out->v[1] = (double)m->cfg.m * m->cfg.n;
	return st;
}

extern "C" const tcp_probe_t tcp_probe_tc_layout = {
	.name = "tc_layout",
	.family = "tcgen05.mma",
	.help = "accumulator TMEM layouts (M=128, M=64 align 0/16, cta_group::2 M=256/128) and the lane mask vs the model",
	.arch = TCP_ARCH_TCGEN05,
	.axes = axes,
	.naxes = TC_NELEM(axes),
	.metrics = metrics,
	.nmetrics = TC_NELEM(metrics),
	.legal = layout_legal,
	.setup = layout_setup,
	.validate = layout_validate,
	.run = layout_run,
	.teardown = tc_mma_teardown,
	.unsupported_reason = NULL,
	.tmem = layout_tmem,
};
