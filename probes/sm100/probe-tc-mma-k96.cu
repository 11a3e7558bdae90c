/*
 * probe-tc-mma-k96.cu
 *	B300's K = 96 kind::mxf4nvf4 MMA (sm_103a only): throughput and latency,
 *	on the same engine as tc_mma_tput / tc_mma_lat (tc-mma.cuh), so a K = 96
 *	row sits beside the K = 64 rows of those probes.  The PTX is SM100's
 *	(.block16 / .block32, here spelled .scale_vec::4X / ::2X); K = 96 is bit
 *	31 of the instruction descriptor (model/idesc.h k96, set by
 *	tcp_mma_to_idesc() from cfg.k = 96).  Which configurations exist:
 *	model/legal.c (CUTLASS SM103_MXF4_ULTRA_{SS,2x1SM_SS}_VS: dense, SS, N a
 *	multiple of 16).  Shapes and their sources: cta_group::2 M=256 is the
 *	PTX ISA's K = 96 row; cta_group::1 M=128 and cta_group::2 M=128 follow
 *	CUTLASS's SM103 atoms, which the ISA's table does not list; kind::mxf4
 *	at K = 96 is SKIPPED (model/legal.c: MXF4 at K = 96 is kind::mxf4nvf4
 *	with ue8m0 scales, as CUTLASS spells it).  Which targets: model/arch.c (on sm_100a / sm_110a the
 *	points are SKIPPED; ptxas would accept the descriptor there, the
 *	hardware is not known to).  The point is the engine's (tc-check.c
 *	tcp_tc_mma_point, the common axes) with K = 96; scale factors per
 *	block as the engine stages them (tc_stage_sf): a K = 96 MMA reads 6
 *	(block16: two words per row, model/tmem-plan.h tcp_tmem_sf_word_stride)
 *	or 3 (block32: one word) per row.  Operand tiles: 96 packed fp4 = 48
 *	bytes of K per row (model/smem-layout.h mma_k = 96), K-major, no swizzle
 *	or 128B swizzle with the descriptor's absolute LBO mode (the layout of
 *	CUTLASS's SM103 kernels); tiles kstep + 1 MMAs long, every MMA reads
 *	step kstep (kstep = 2 with 128B: bytes 96..143 of the row, the last 16
 *	in the next K atom, the case the absolute LBO exists for).
 *
 *	Every point first validates one MMA against the CPU reference computed
 *	at K = 96 (tc-check.c), so a part that ignores bit 31 (K = 64 done)
 *	shows up as INVALID, not as a fast number.  The emulation build
 *	(TCP_TC_EMU) issues tcp_aux_emu_tput_iters(0) MMAs (tput) and
 *	TCP_AUX_EMU_LAT_* samples (lat; tc-aux.h).
 *
 *	Metrics (mode tput / lat; the other mode's metrics are n/a):
 *	  flop_per_clk_sm     2 M N 96 per SM clock, median over SMs (tput)
 *	  pct_peak            of 49152 FLOP/clk/SM = 1.5 x B200's mxf4nvf4 peak
 *	                      (NVIDIA: 15 vs 10 PFLOPS dense NVFP4; docs/b200-predictions.md)
 *	  cycles_per_mma      first issue to completion of the last, per MMA (tput)
 *	  latency_cycles      clock before the MMA (its operand setup inside)
 *	                      -> mbarrier flip, median of 64 samples, median
 *	                      over SMs (lat; tc_mma_lat's issue window)
 *	  commit_latency_cycles  clock after the MMA and its commit -> flip
 *	                      (lat; tc_mma_lat's commit window)
 */
#include "probes/sm100/tc-mma.cuh"

#define K96_TARGET_CYCLES 1048576.0	/* tput: as tc_mma_tput (TPUT_TARGET_CYCLES) */
#define K96_PEAK 49152.0	/* FLOP/clk/SM: 1.5 x 32768 (docs/b200-predictions.md, B300) */

/* Only the mxf4nvf4 kernels (2X = block32, 4X = block16), A from shared
 * memory, the multicast commit (the engine's default); the rest NULL.
 * [cg - 1][ts][cast][kind variant] as tc_mma_kern_cast() indexes it. */
#define K96_KV(CG, MODE, OPT, CAST)                                                                  \
	{ NULL, NULL, NULL, NULL, NULL, NULL, tc_mma_kernel<CG, TCP_KIND_MXF4NVF4, 0, 2, MODE, CAST, OPT>, \
	  tc_mma_kernel<CG, TCP_KIND_MXF4NVF4, 0, 4, MODE, CAST, OPT> }
#define K96_TS(CG, MODE, OPT) { { { NULL }, K96_KV(CG, MODE, OPT, TCP_CAST_MULTICAST) }, { { NULL }, { NULL } } }
#define K96_TABLE(MODE, OPT) { K96_TS(1, MODE, OPT), K96_TS(2, MODE, OPT) }
static const tc_cast_table_t tput_tab = K96_TABLE(TC_MODE_TPUT, 0);
static const tc_cast_table_t lat_tab = K96_TABLE(TC_MODE_LAT, 1);	/* enable-input-d after the first */

static const char *const mode_names[] = { "tput", "lat", NULL };
enum { MODE_TPUT, MODE_LAT };

/* The engine's common axes (tc-check.h TCP_TC_AX_*, same order and value
 * names) with K = 96 defaults, then the mode. */
static const tcp_axis_t axes[] = {
	{ "kind", "tcgen05.mma .kind (K = 96: mxf4nvf4 only)", tcp_tc_kind_names, "mxf4nvf4" },
	{ "atype", "A element type (auto = e2m1)", tcp_tc_type_names, "auto" },
	{ "btype", "B element type (auto = as A)", tcp_tc_type_names, "auto" },
	{ "sf", "block-scale type (block 32: ue8m0 only)", tcp_tc_sf_names, "ue8m0" },
	{ "block", "K elements per scale factor: 32 (.block32) or 16 (.block16)", NULL, "[32]" },
	{ "cta_group", "1 = one CTA, 2 = CTA pair (cluster of 2)", NULL, "[1,2]" },
	{ "M", "instruction M (cta_group::2: the pair's M)", NULL, "[128,256]" },
	{ "N", "instruction N (a multiple of 16)", NULL, "[64,128,256]" },
	{ "ab", "A from shared memory (ss; K = 96 has no TS form)", tcp_tc_ab_names, "ss" },
	{ "grid", "all = one issuing CTA (pair) per SM (pair of SMs); 1 = a single one on the GPU", tcp_tc_grid_names, "all" },
	{ "cast", "commit form (K = 96: multicast only, the production form)", tcp_tc_cast_names, "multicast" },
	{ "swizzle", "shared-memory layout of A and B, K-major, 48 bytes of K per row: 128B (CUTLASS SM103's, "
		     "absolute LBO) or none (three core matrices along K)", tcp_tc_swizzle_names, "none,128B" },
	{ "mode", "tput: MMAs for 2^20 cycles at the peak, one commit; lat: 64 single-MMA round trips", mode_names,
	  "tput,lat" },
	{ "kstep", "K step of the tiles (kstep + 1 MMAs long) every MMA reads: 0 = their start; 2 = 96 bytes into the "
		   "128B swizzle row, ending in the next K atom (absolute LBO; CUTLASS SM103's MMA 2 of 8)", NULL, "[0,2]" },
};
#define AX_MODE TCP_TC_NAXES
#define AX_KSTEP (TCP_TC_NAXES + 1)

static const tcp_metric_t metrics[] = {
	{ "flop_per_clk_sm", "FLOP/clk/SM", 1, "2 M N 96 per SM clock, median over SMs (mode tput). Shape sources: "
	  "cta_group::2 M=256 the PTX ISA's K = 96 shape row; cta_group::1 M=128 and cta_group::2 M=128 CUTLASS "
	  "SM103_MXF4_ULTRA_SS_VS / _2x1SM_SS_VS (the ISA lists only M=256)" },
	{ "pct_peak", "%", 1, "of 49152 FLOP/clk/SM (1.5 x B200's mxf4nvf4 peak; mode tput)" },
	{ "cycles_per_mma", "cycles", 0, "first issue to completion of the last MMA, per MMA, median over SMs (mode tput)" },
	{ "latency_cycles", "cycles", 0, "clock read before the MMA (its operand setup inside) to the clock read after "
	  "the mbarrier flip, as tc_mma_lat's latency_cycles; median of 64 samples, median over SMs (mode lat)" },
	{ "commit_latency_cycles", "cycles", 0, "clock read after the MMA and its commit issued to the clock read after "
	  "the mbarrier flip, as tc_mma_lat's; median of 64 samples, median over SMs (mode lat)" },
};

/* The point: the engine's common axes, then K = 96 and the mode's kernel
 * options (tput: two alternating accumulators where they fit; lat: one). */
static int k96_point(const tcp_point_t *p, tcp_tc_mma_point_t *mp, char *reason, size_t len)
{
	if (p->naxes <= AX_MODE || p->v[AX_MODE] < 0 || p->v[AX_MODE] > MODE_LAT) {
		snprintf(reason, len, "mode index %lld out of range", p->naxes > AX_MODE ? (long long)p->v[AX_MODE] : -1LL);
		return 0;
	}
	if (p->naxes <= AX_KSTEP || p->v[AX_KSTEP] < 0 || p->v[AX_KSTEP] > 7) {
		snprintf(reason, len, "kstep must be in [0, 7] (a tile of at most 8 MMAs along K); got %lld",
			 p->naxes > AX_KSTEP ? (long long)p->v[AX_KSTEP] : -1LL);
		return 0;
	}
	if (tcp_tc_mma_point("tc_mma_k96", p, mp, reason, len))
		return 0;
	mp->cfg.k = 96;
	mp->kstep = (unsigned)p->v[AX_KSTEP];
	if (!tcp_mma_legal(&mp->cfg, reason, len))
		return 0;
	if (mp->cast != TCP_TC_CAST_MULTICAST) {
		snprintf(reason, len, "tc_mma_k96 commits with the multicast form only (cast=multicast; "
			 "tc_mma_tput has the local control)");
		return 0;
	}
	if (p->v[AX_MODE] == MODE_TPUT) {
		mp->stages = 2;
		mp->exact = 0;
	} else {
		mp->opt = 1;
	}
	return 1;
}

static int k96_legal(const tcp_point_t *p, char *reason, size_t len)
{
	tcp_tc_mma_point_t mp;
	return k96_point(p, &mp, reason, len);
}

static int k96_legal_on(const tcp_point_t *p, const tcp_target_info_t *t, char *reason, size_t len)
{
	tcp_tc_mma_point_t mp;
	return !k96_point(p, &mp, reason, len) || tcp_mma_legal_on(&mp.cfg, t, reason, len);
}

/* TMEM: the engine's placement of the point (accumulators, scale factors). */
static int k96_tmem(const tcp_point_t *p, tcp_tmem_fp_t *fp, char *reason, size_t len)
{
	tcp_tc_mma_point_t mp;
	unsigned col[4];
	if (!k96_point(p, &mp, reason, len))
		return -1;
	tcp_tc_mma_fp(&mp, tcp_tc_mma_stages(&mp), fp, col);
	return 1;
}

static tcp_status_t k96_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	tcp_tc_mma_point_t mp;
	struct tc_mma *m = (struct tc_mma *)calloc(1, sizeof(*m));
	if (!m) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = m;
	if (!k96_point(p, &mp, c->reason, TCP_REASON_LEN))
		return TCP_SKIPPED;
	tcp_status_t st = tc_mma_setup_point(m, &mp, TCP_TC_FILL_RANDOM, c);
	if (p->v[AX_MODE] == MODE_TPUT) {
#if TCP_AUX_EMU
		m->args.iters = tcp_aux_emu_tput_iters(0);
#else
		m->args.iters = tcp_tc_tput_iters(&mp.cfg, K96_TARGET_CYCLES, 0);
#endif
		c->issued_tensor_insts = (double)m->args.iters * m->units;
		c->work_flop = st == TCP_OK ? tcp_tc_mma_flop(&m->cfg) * m->args.iters * m->units : -1;
	} else {
		m->args.iters = 0;
		c->issued_tensor_insts = (double)(TC_LAT_WARMUP + TC_LAT_SAMPLES) * m->units;
	}
	return st;
}

static tcp_status_t k96_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct tc_mma *m = (struct tc_mma *)state;
	const int tput = m->args.iters > 0;
	tcp_status_t st = tc_mma_launch(m, tc_mma_kern_cast(m, tput ? tput_tab : lat_tab), m->grid, c);
	if (st != TCP_OK)
		return st;
	out->v[0] = out->v[1] = out->v[2] = out->v[3] = out->v[4] = NAN;
	if (tput) {
		out->v[2] = tc_mma_rec_median(m, 0, m->args.iters);
		out->v[0] = out->v[2] > 0 ? tcp_tc_mma_flop(&m->cfg) / m->cfg.cta_group / out->v[2] : NAN;
		out->v[1] = 100.0 * out->v[0] / K96_PEAK;
	} else {
		double mn;	/* the minima are tc_mma_lat's, not reported here */
		tc_lat_summary(m, 0, &out->v[3], &mn);
		tc_lat_summary(m, 1, &out->v[4], &mn);
	}
	return TCP_OK;
}

extern "C" const tcp_probe_t tcp_probe_tc_mma_k96 = {
	.name = "tc_mma_k96",
	.family = "tcgen05.mma",
	.help = "K = 96 mxf4nvf4 tcgen05.mma (sm_103a, B300): FLOP/clk/SM and latency beside the K = 64 rows",
	.arch = TCP_ARCH_TCGEN05,
	.axes = axes,
	.naxes = TC_NELEM(axes),
	.metrics = metrics,
	.nmetrics = TC_NELEM(metrics),
	.legal = k96_legal,
	.setup = k96_setup,
	.validate = tc_mma_validate_point,
	.run = k96_run,
	.teardown = tc_mma_teardown,
	.unsupported_reason = NULL,
	.tmem = k96_tmem,
	.legal_on = k96_legal_on,
};
