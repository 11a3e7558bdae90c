/*
 * probe-mma-sync.cu
 *	mma_sync: the classic warp-level forms with their original axes, so the
 *	committed H200 points (results/, README) join 1:1 with new runs:
 *	m16n8k16 f16/bf16 (f32 accumulate), m16n8k8 tf32 (f32), m16n8k32 s8
 *	(s32).  It is a view of the warp-level engine (warp-mma.h: same loop,
 *	same draws, same iteration count as the committed runs); the
 *	whole family, with the accumulator, sparse and block-scaled axes, is
 *	warp_mma.  Built for every warp target (sm_80 ... sm_121a).
 *
 *	Metrics (cycles: clock64 of the loop, max over SMs): the five it always
 *	had, then issue rate, accumulator bandwidth and the peak used
 *	(warp-mma.cu).  pct_peak is of the chip's published dense peak
 *	(model/peaks.c); on the H200 that is the wgmma rate, as it always was.
 */
#include "probes/common/fill.h"
#include "probes/warp/warp-mma.h"
#include "model/warp-mma.h"

enum { AX_KIND, AX_WARPS, AX_ILP, AX_PAT };

static const char *const kind_names[] = { "f16", "bf16", "tf32", "s8", NULL };
static const int kind_form[] = { TCP_WF_F16_F32, TCP_WF_BF16_F32, TCP_WF_TF32_F32, TCP_WF_S8_S32 };

static const tcp_axis_t axes[] = {
	{ "kind", "m16n8k16 f16/bf16 (f32 acc), m16n8k8 tf32, m16n8k32 s8 (s32 acc)", kind_names,
	  "f16,bf16,tf32,s8" },
	{ "warps", "warps per SM (one CTA per SM, every SM)", NULL, "[1,4,16,32]" },
	{ "ilp", "independent accumulator tiles per warp: 1, 2, 4, 8", NULL, "[1,4]" },
	{ "pattern", "input values: zeros, ones, random, sparse50, smallexp, maxfinite (fill.h)",
	  tcp_pattern_names, "random" },
};

static int sync_legal(const tcp_point_t *p, char *reason, size_t len)
{
	return tcp_warp_legal_shape(p->v[AX_WARPS], p->v[AX_ILP], reason, len);
}

static tcp_status_t sync_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	return tcp_warp_setup(kind_form[p->v[AX_KIND]], (int)p->v[AX_WARPS], (int)p->v[AX_ILP],
			      (int)p->v[AX_PAT], c, state);
}

extern "C" const tcp_probe_t tcp_probe_mma_sync = {
	.name = "mma_sync",
	.family = "mma.sync",
	.help = "mma.sync m16n8k{16,8,32} f16/bf16/tf32/s8 latency (warps=1 ilp=1) and throughput, all SMs",
	.arch = TCP_ARCH_WARP,
	.axes = axes,
	.naxes = sizeof(axes) / sizeof(axes[0]),
	.metrics = tcp_warp_metrics,
	.nmetrics = TCP_WARP_NMETRICS,
	.legal = sync_legal,
	.setup = sync_setup,
	.validate = tcp_warp_validate,
	.run = tcp_warp_run,
	.teardown = tcp_warp_teardown,
	.unsupported_reason = NULL,
};
