/*
 * probe-wgmma-tput.cu
 *	Hopper wgmma throughput: every SM busy (one persistent CTA per SM,
 *	forced by its shared-memory request), 1-3 warpgroups per CTA, each
 *	issuing m64nNk<K> wgmmas into its own accumulators, two per commit
 *	group with one group left in flight (wgmma.cuh), A from shared memory
 *	(ss) or registers (rs), B from shared memory, two random B tiles
 *	alternating.  No global memory traffic inside the timed loop.
 *
 *	Metrics per point (cycles: clock64 of the loop, max over SMs):
 *	  flop_per_clk_sm   2*64*N*K per wgmma x wgmmas per SM / cycles
 *	  tflops            flop_per_clk_sm x SMs x measured clock
 *	  pct_peak          of the dense peak per SM (model/kinds.h: 4096 f16,
 *	                    2048 tf32, 8192 fp8/int8)
 *	  sm_clock_mhz      cycles / %globaltimer ns over the loop, mean over SMs
 *	  cycles            the loop's cycles (max over SMs)
 *	  regs_per_thread   the kernel's registers (cudaFuncGetAttributes):
 *	                    accumulator pressure, N/2 (f32/s32) or N/4 (f16) of them
 *
 *	The pattern axis sets the values of A, B0, B1 (B2 = -B0 as always):
 *	same instructions, same loop, only the data (and so the power) changes.
 */
#include "probes/common/wgmma.cuh"

#define TPUT_LAG 2			/* commit groups per warpgroup: 1 in flight + 1 issuing */
#define TPUT_TARGET_CYCLES 2.0e6	/* ~1 ms at 1.98 GHz if the point runs at peak */

enum { AX_KIND, AX_ACC, AX_N, AX_SRC, AX_WG, AX_PAT };

static const tcp_axis_t axes[] = {
	TCP_WG_AXIS_KIND,
	TCP_WG_AXIS_ACC,
	{ "N", "wgmma N (M = 64, K per kind); instantiated: 8,16,32,64,96,128,192,256", NULL,
	  "[8,16,32,64,96,128,192,256]" },
	{ "a_src", "A operand from shared memory (ss) or registers (rs)", tcp_wg_src_names, "ss,rs" },
	{ "wg", "warpgroups per SM (one CTA per SM)", NULL, "[1,2,3]" },
	{ "pattern", "input values: zeros, ones, random, sparse50, smallexp, maxfinite (fill.h)",
	  tcp_pattern_names, "random" },
};

static const tcp_metric_t metrics[] = {
	{ "flop_per_clk_sm", "FLOP/clk/SM", 1, "dense FLOP (OP) per SM cycle, max cycles over SMs" },
	{ "tflops", "TFLOP/s", 1, "flop_per_clk_sm x SMs x measured SM clock" },
	{ "pct_peak", "%", 1, "of the published dense peak per SM per clock" },
	{ "sm_clock_mhz", "MHz", 1, "clock64 cycles / %globaltimer ns during the loop", TCP_ROLE_CLOCK },
	{ "cycles", "cycles", 0, "timed loop, max over SMs" },
	{ "regs_per_thread", "registers", 0, "registers per thread of the kernel (accumulator pressure)" },
};

static int tput_legal(const tcp_point_t *p, char *reason, size_t len)
{
	if (!tcp_wg_legal_kind_n(p->v[AX_KIND], p->v[AX_ACC], p->v[AX_N], reason, len))
		return 0;
	if (p->v[AX_WG] < 1 || p->v[AX_WG] > TCP_WG_MAX_WG) {
		snprintf(reason, len, "wg=%lld out of range, expected 1..%d", (long long)p->v[AX_WG],
			 TCP_WG_MAX_WG);
		return 0;
	}
	return 1;
}

struct tput_state {
	tcp_wg_run_t run;
	int kind, n;
	long long iters;
	double flop_per_wgmma, peak;
};

static tcp_status_t tput_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	struct tput_state *s = (struct tput_state *)calloc(1, sizeof(*s));
	int nwg = (int)p->v[AX_WG], rs = (int)p->v[AX_SRC];

	if (!s) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = s;
	if (!tput_legal(p, c->reason, TCP_REASON_LEN))
		return TCP_SKIPPED;
	s->kind = tcp_wg_point_kind(p->v[AX_KIND], p->v[AX_ACC], c->reason, TCP_REASON_LEN);
	s->n = (int)p->v[AX_N];
	s->flop_per_wgmma = 2.0 * 64 * s->n * tcp_wg_kinds[s->kind].k;
	s->peak = tcp_kind_flop_clk_sm(tcp_wg_kinds[s->kind].family, TCP_GEN_SM90);
	/* enough iterations (2 wgmmas each) for ~TPUT_TARGET_CYCLES at peak */
	s->iters = (long long)ceil(TPUT_TARGET_CYCLES * s->peak / (s->flop_per_wgmma * nwg) / 2);
	c->issued_tensor_insts = -1;
	/* one run(): 2 wgmmas an iteration, every warpgroup of every SM */
	c->work_flop = s->flop_per_wgmma * 2.0 * (double)s->iters * nwg * c->sm_count;
	return tcp_wg_run_setup_pattern(&s->run, c, tcp_wg_kernel<TPUT_LAG, 1>(s->kind, s->n, rs),
					s->kind, s->n, nwg, rs, c->sm_count, 1, (int)p->v[AX_PAT]);
}

static tcp_status_t tput_validate(void *state, tcp_ctx_t *c)
{
	struct tput_state *s = (struct tput_state *)state;

	return tcp_wg_run_validate(&s->run, c, TPUT_LAG, 1);
}

static tcp_status_t tput_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct tput_state *s = (struct tput_state *)state;
	tcp_wg_run_t *r = &s->run;
	tcp_status_t st = tcp_wg_run_launch(r, c, s->iters, 0);
	double fpc;

	if (st != TCP_OK)
		return st;
	if (r->cycles_max <= 0) {
		snprintf(c->reason, TCP_REASON_LEN, "clock64 did not advance");
		return TCP_INVALID;
	}
	fpc = s->flop_per_wgmma * 2.0 * (double)s->iters * r->nwg / r->cycles_max;
	out->v[0] = fpc;
	out->v[1] = fpc * r->blocks * r->clock_mhz * 1e6 / 1e12;
	out->v[2] = 100.0 * fpc / s->peak;
	out->v[3] = r->clock_mhz;
	out->v[4] = r->cycles_max;
	out->v[5] = r->regs;
	/* one HGMMA/QGMMA/IGMMA per warp per wgmma: 4 warp-level instructions per warpgroup */
	c->issued_tensor_insts = 2.0 * (double)s->iters * r->nwg * 4.0 * r->blocks;
	return TCP_OK;
}

static void tput_teardown(void *state)
{
	struct tput_state *s = (struct tput_state *)state;

	if (!s)
		return;
	tcp_wg_run_free(&s->run);
	free(s);
}

extern "C" const tcp_probe_t tcp_probe_wgmma_tput = {
	.name = "wgmma_tput",
	.family = "wgmma",
	.help = "wgmma throughput per kind, N, A source, warpgroups/SM; all SMs (FLOP/clk/SM)",
	.arch = TCP_ARCH_SM90A,
	.axes = axes,
	.naxes = sizeof(axes) / sizeof(axes[0]),
	.metrics = metrics,
	.nmetrics = sizeof(metrics) / sizeof(metrics[0]),
	.legal = tput_legal,
	.setup = tput_setup,
	.validate = tput_validate,
	.run = tput_run,
	.teardown = tput_teardown,
	.unsupported_reason = NULL,
};
