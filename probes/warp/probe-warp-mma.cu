/*
 * probe-warp-mma.cu
 *	warp_mma: every warp-level MMA form tcprobe instantiates
 *	(model/warp-mma.h) on every SM, by kind (tcgen05 naming), element type,
 *	accumulator, dense or 2:4 sparse (mma.sp::ordered_metadata) and block
 *	scale: f16/bf16 m16n8k16 (f32 or f16 acc), tf32 m16n8k8, s8/u8
 *	m16n8k32, e4m3/e5m2 m16n8k32 (sm_89+, f32 or f16 acc), and on sm_120a /
 *	sm_121a kind::f8f6f4 e2m1/e2m3/e3m2, mxf8f6f4 (ue8m0, per 32), mxf4 and
 *	mxf4nvf4 (ue8m0 per 32, ue4m3 per 16) m16n8k64, sparse mxf8f6f4
 *	m16n8k64 and sparse NVFP4 m16n8k128 (sm_120a/121a only).  Block scales
 *	are random per row / column and K block.  Each point is validated
 *	against the CPU reference (warp-check.h) before it is timed.
 *
 *	A form the GPU's loaded code lacks (an e4m3 point on an A100, an fp4
 *	point anywhere but sm_120/121) is SKIPPED with the target it needs.
 */
#include <stdio.h>

#include "model/warp-mma.h"
#include "probes/common/fill.h"
#include "probes/warp/warp-mma.h"

enum { AX_KIND, AX_TYPE, AX_ACC, AX_SPARSE, AX_SF, AX_WARPS, AX_ILP, AX_PAT };

static const char *const kind_names[] = { "f16", "tf32", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4", NULL };
static const tcp_kind_t kind_code[] = { TCP_KIND_F16, TCP_KIND_TF32, TCP_KIND_F8F6F4, TCP_KIND_I8,
					TCP_KIND_MXF8F6F4, TCP_KIND_MXF4, TCP_KIND_MXF4NVF4 };
static const char *const type_names[] = { "f16", "bf16", "tf32", "e4m3", "e5m2", "e2m3", "e3m2", "e2m1", "s8", "u8",
					  NULL };
static const tcp_type_t type_code[] = { TCP_T_F16, TCP_T_BF16, TCP_T_TF32, TCP_T_E4M3, TCP_T_E5M2, TCP_T_E2M3,
					TCP_T_E3M2, TCP_T_E2M1, TCP_T_S8, TCP_T_U8 };
static const char *const acc_names[] = { "f32", "f16", "s32", NULL };
static const tcp_type_t acc_code[] = { TCP_T_F32, TCP_T_F16, TCP_T_S32 };
static const char *const sf_names[] = { "none", "ue8m0", "ue4m3", NULL };
static const tcp_type_t sf_code[] = { TCP_T_COUNT, TCP_T_UE8M0, TCP_T_UE4M3 };

static const tcp_axis_t axes[] = {
	{ "kind", "f16 (f16/bf16), tf32, f8f6f4 (e4m3/e5m2; fp6/fp4 sm_120+), i8, mxf8f6f4, mxf4, mxf4nvf4",
	  kind_names, "f16" },
	{ "atype", "A and B element type", type_names, "f16" },
	{ "acc", "accumulator: f32, f16 (f16 and fp8 inputs), s32 (i8)", acc_names, "f32" },
	{ "sparse", "0 dense mma.sync, 1 mma.sp::ordered_metadata (A 2:4, K doubled)", NULL, "0" },
	{ "sf", "block scale: none, ue8m0 (per 32 K), ue4m3 (mxf4nvf4, per 16 K)", sf_names, "none" },
	{ "warps", "warps per SM (one CTA per SM, every SM)", NULL, "[1,4,16,32]" },
	{ "ilp", "independent accumulator tiles per warp: 1, 2, 4, 8", NULL, "[1,4]" },
	{ "pattern", "input values: zeros, ones, random, sparse50, smallexp, maxfinite (fill.h; fp6/fp4: "
	  "the first four; block scales stay random)", tcp_pattern_names, "random" },
};

/* The form of a point, or -1 with the reason (not an instantiated combination). */
static int point_form(const tcp_point_t *p, char *reason, size_t len)
{
	int f = tcp_warp_form_find(kind_code[p->v[AX_KIND]], type_code[p->v[AX_TYPE]], acc_code[p->v[AX_ACC]],
				   (int)p->v[AX_SPARSE], sf_code[p->v[AX_SF]]);

	if (p->v[AX_SPARSE] != 0 && p->v[AX_SPARSE] != 1) {
		snprintf(reason, len, "sparse=%lld out of range, expected 0 or 1", (long long)p->v[AX_SPARSE]);
		return -1;
	}
	if (f < 0)
		snprintf(reason, len, "kind=%s atype=%s acc=%s sparse=%lld sf=%s is not a warp-level form tcprobe "
			 "instantiates (forms: %s)", kind_names[p->v[AX_KIND]], type_names[p->v[AX_TYPE]],
			 acc_names[p->v[AX_ACC]], (long long)p->v[AX_SPARSE], sf_names[p->v[AX_SF]],
			 tcp_warp_form_names());
	return f;
}

static int warp_legal(const tcp_point_t *p, char *reason, size_t len)
{
	return point_form(p, reason, len) >= 0 &&
	       tcp_warp_legal_shape(p->v[AX_WARPS], p->v[AX_ILP], reason, len);
}

static tcp_status_t warp_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	int f = point_form(p, c->reason, TCP_REASON_LEN);

	if (f < 0) {
		*state = NULL;
		return TCP_SKIPPED;
	}
	return tcp_warp_setup(f, (int)p->v[AX_WARPS], (int)p->v[AX_ILP], (int)p->v[AX_PAT], c, state);
}

extern "C" const tcp_probe_t tcp_probe_warp_mma = {
	.name = "warp_mma",
	.family = "mma.sync",
	.help = "every warp-level MMA form (dense, sparse, block-scaled; f32/f16/s32 acc): latency, issue rate, "
		"FLOP/clk/SM vs the chip's peak",
	.arch = TCP_ARCH_WARP,
	.axes = axes,
	.naxes = sizeof(axes) / sizeof(axes[0]),
	.metrics = tcp_warp_metrics,
	.nmetrics = TCP_WARP_NMETRICS,
	.legal = warp_legal,
	.setup = warp_setup,
	.validate = tcp_warp_validate,
	.run = tcp_warp_run,
	.teardown = tcp_warp_teardown,
	.unsupported_reason = NULL,
};
