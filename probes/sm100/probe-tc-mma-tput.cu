/*
 * probe-tc-mma-tput.cu
 *	Per-kind tcgen05.mma throughput: one persistent CTA per SM (one pair per
 *	two SMs for cta_group::2; grid=1: a single one on the GPU, as public
 *	microbenchmarks run), the elected thread issues MMAs into two
 *	alternating TMEM accumulators (one when two do not fit), optionally
 *	committing every k MMAs as a mainloop does per k-block, then commits
 *	once and waits.  Every kind and type pair (f16/bf16, tf32, each f8f6f4
 *	pair incl. fp6/fp4, i8 s8/u8, mxf8f6f4, mxf4, mxf4nvf4 block16/32 with
 *	ue8m0 or ue4m3 scales), cta_group 1/2, M, N, SS/TS.
 *
 *	The loop: operands in registers before the first
 *	clock read, unrolled by two so every UTC*MMA has constant operands
 *	(the two accumulator addresses), no per-MMA arithmetic; sized by time,
 *	not count: enough MMAs for 2^20 cycles at the kind's published peak
 *	(tcp_tc_tput_iters; 8192 at f16 M=128 N=256, 65536 at N=32), so launch
 *	and pipeline fill are < 1% of the window.  The issue end (clock after
 *	the last MMA) is recorded too; one thread issues thousands of MMAs into
 *	a finite queue and waits for room once it is full, so the issue time
 *	tracks completion and says nothing about the issue cost (tc_mma_ii
 *	measures that cost below the queue's depth and defines issue_bound
 *	against it).  The emulation build (TCP_TC_EMU)
 *	issues tcp_aux_emu_tput_iters(commit_every) MMAs instead (tc-aux.h).
 *
 *	FLOP per MMA = 2 M N K with the PTX K of the kind (fp4 under f8f6f4 is
 *	K = 32, not 64).  Published peaks per SM per clock (model/kinds.h,
 *	facts s.11): f16/bf16 8192, tf32 4096, f8f6f4/i8/mxf8f6f4 16384,
 *	mxf4/mxf4nvf4 32768.
 *
 *	Metrics:
 *	  flop_per_clk_sm        median over issuing units, per SM
 *	  pct_peak               of the published dense peak of the kind
 *	  acc_bytes_per_clk_sm   implied accumulator traffic: FLOP/clk/SM / (K / 4)
 *
 *	FLOP per accumulator byte = K/4 is an identity of the shape, so
 *	acc_bytes_per_clk_sm alone cannot show an accumulator-port limit; the
 *	test is enable_input_d: 0 overwrites D (no read), 1 reads and writes
 *	it, at the same shape.  Equal rates say the accumulator's read is not
 *	what limits the MMA; a higher rate at 0 says it is.
 *	  cycles_per_mma         first issue to completion of the last, per MMA
 *	  issue_cycles_per_mma   first issue to the last issued, per MMA (back-pressure
 *	                         once the queue is full)
 */
#include "probes/common/fill.h"
#include "probes/sm100/tc-mma.cuh"

#define TPUT_TARGET_CYCLES 1048576.0	/* 2^20 cycles at the published peak */

/* [OPT: 0 accumulate, 1 overwrite (enable_input_d = 0)][cg - 1][ts][cast][kind variant] */
static const tc_cast_table_t tput_tab[2] = { TC_TABLE_CAST(TC_MODE_TPUT, 0), TC_TABLE_CAST(TC_MODE_TPUT, 1) };

static const tcp_axis_t axes[] = {
	TC_AXES_MMA,
	{ "pattern", "input values: zeros, ones, random, sparse50, smallexp, maxfinite (fill.h; block "
	  "scales stay random)", tcp_pattern_names, "random" },
	{ "commit_every", "commit to an mbarrier after every k MMAs, as a mainloop per k-block (0 = once, at the end)",
	  NULL, "[0]" },
	{ "enable_input_d", "1: every MMA after the first pair accumulates (reads and writes D); 0: every MMA "
	  "overwrites D (no read of the accumulator): the same shape's rate with half the accumulator traffic",
	  NULL, "[1]" },
};

static const tcp_metric_t metrics[] = {
	{ "flop_per_clk_sm", "FLOP/clk/SM", 1, "2 M N K (PTX K) per SM clock, median over SMs" },
	{ "pct_peak", "%", 1, "of the published dense FLOP/clk/SM of the kind" },
	{ "acc_bytes_per_clk_sm", "B/clk/SM", 1, "implied accumulator bandwidth: FLOP/clk/SM / (K/4), a read and a "
	  "write of the 32-bit accumulator per MMA (with enable_input_d = 0 the write alone is half of it)" },
	{ "cycles_per_mma", "cycles", 0, "first issue to completion of the last MMA, per MMA, median over SMs" },
	{ "issue_cycles_per_mma", "cycles", 0, "first issue to the last MMA issued, per MMA, median over SMs; once the "
	  "MMA queue is full the issuer waits for room, so this tracks cycles_per_mma (back-pressure, not the issue "
	  "cost: tc_mma_ii's issue_cost_cycles and issue_bound)" },
};

/* legal: tcp_tc_mma_point(); tmem: two alternating accumulators where they fit, else one */
TC_MMA_POINT_HOOKS("tc_mma_tput")

static tcp_status_t tput_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	tcp_tc_mma_point_t mp;
	tcp_status_t st = tc_mma_state_new("tc_mma_tput", p, c, state, &mp);
	if (st != TCP_OK)
		return st;
	struct tc_mma *m = (struct tc_mma *)*state;
	/* random: the very draws the probe always had */
	st = tc_mma_setup_point(m, &mp, mp.pattern == TCP_PAT_RANDOM ? TCP_TC_FILL_RANDOM
								 : TCP_TC_FILL_PATTERN + mp.pattern, c);
#if TCP_AUX_EMU
	m->args.iters = tcp_aux_emu_tput_iters(mp.commit_every);
#else
	m->args.iters = tcp_tc_tput_iters(&mp.cfg, TPUT_TARGET_CYCLES, mp.commit_every);
#endif
	c->issued_tensor_insts = (double)m->args.iters * m->units;
	/* --energy: FLOP of one run(), every issuing unit (a pair's MMA counts once) */
	c->work_flop = st == TCP_OK ? tcp_tc_mma_flop(&m->cfg) * m->args.iters * m->units : -1;
	return st;
}

static tcp_status_t tput_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct tc_mma *m = (struct tc_mma *)state;
	tcp_status_t st = tc_mma_launch(m, tc_mma_kern_cast(m, tput_tab[m->pt.opt]), m->grid, c);
	if (st != TCP_OK)
		return st;
	const double iters = m->args.iters;
	out->v[3] = tc_mma_rec_median(m, 0, iters);
	out->v[4] = tc_mma_rec_median(m, 4, iters);
	out->v[0] = out->v[3] > 0 ? tcp_tc_mma_flop(&m->cfg) / m->cfg.cta_group / out->v[3] : NAN;
	double peak = tcp_kind_flop_clk_sm(m->cfg.kind, TCP_GEN_SM100);
	out->v[1] = peak > 0 ? 100.0 * out->v[0] / peak : NAN;
	out->v[2] = out->v[0] / (tcp_mma_k(&m->cfg) / 4.0);
	return TCP_OK;
}

extern "C" const tcp_probe_t tcp_probe_tc_mma_tput = {
	.name = "tc_mma_tput",
	.family = "tcgen05.mma",
	.help = "tcgen05.mma FLOP/clk/SM per kind and type pair, cta_group, M, N, SS/TS; % of peak; K/4 bandwidth",
	.arch = TCP_ARCH_TCGEN05,
	.axes = axes,
	.naxes = TC_NELEM(axes),
	.metrics = metrics,
	.nmetrics = TC_NELEM(metrics),
	.legal = tc_probe_legal,
	.setup = tput_setup,
	.validate = tc_mma_validate_point,
	.run = tput_run,
	.teardown = tc_mma_teardown,
	.unsupported_reason = NULL,
	.tmem = tc_probe_tmem,
	.legal_on = tc_probe_legal_on,
};
