/*
 * probe-wgmma-lat.cu
 *	Hopper wgmma latency: one warpgroup on one SM runs a dependent chain,
 *	fence + wgmma + commit_group + wait_group 0 per step, so each wgmma
 *	starts only after the previous one has written its accumulators.  A and
 *	B from shared memory, two random B tiles alternating (wgmma.cuh).
 *
 *	Metrics per point:
 *	  cycles_per_mma   clock64 cycles of the chain / wgmmas in it (the
 *	                   fence/commit/wait around each one included: that is
 *	                   what a dependent wgmma costs a kernel)
 *	  ns_per_mma       the same in %globaltimer ns
 *	  sm_clock_mhz     cycles / ns over the chain
 */
#include "probes/common/wgmma.cuh"

#define LAT_ITERS 4096	/* ~0.5M cycles at N = 256: far above timer granularity */

enum { AX_KIND, AX_ACC, AX_N };

static const tcp_axis_t axes[] = {
	TCP_WG_AXIS_KIND,
	TCP_WG_AXIS_ACC,
	{ "N", "wgmma N (M = 64, K per kind); instantiated: 8,16,32,64,96,128,192,256", NULL,
	  "[8,16,32,64,96,128,192,256]" },
};

static const tcp_metric_t metrics[] = {
	{ "cycles_per_mma", "cycles", 0, "dependent chain: cycles per wgmma (fence+commit+wait included)" },
	{ "ns_per_mma", "ns", 0, "dependent chain: %globaltimer ns per wgmma" },
	{ "sm_clock_mhz", "MHz", 1, "clock64 cycles / %globaltimer ns during the chain", TCP_ROLE_CLOCK },
};

static int lat_legal(const tcp_point_t *p, char *reason, size_t len)
{
	if (!tcp_wg_legal_kind_n(p->v[AX_KIND], p->v[AX_ACC], p->v[AX_N], reason, len))
		return 0;
	return 1;
}

static tcp_status_t lat_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	tcp_wg_run_t *r = (tcp_wg_run_t *)calloc(1, sizeof(*r));
	int kind;

	if (!r) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = r;
	if (!lat_legal(p, c->reason, TCP_REASON_LEN))
		return TCP_SKIPPED;
	kind = tcp_wg_point_kind(p->v[AX_KIND], p->v[AX_ACC], c->reason, TCP_REASON_LEN);
	c->issued_tensor_insts = -1;
	return tcp_wg_run_setup(r, c, tcp_wg_kernel<1, 0>(kind, (int)p->v[AX_N], 0), kind,
				(int)p->v[AX_N], 1, 0, 1, 0);
}

static tcp_status_t lat_validate(void *state, tcp_ctx_t *c)
{
	return tcp_wg_run_validate((tcp_wg_run_t *)state, c, 1, 0);
}

static tcp_status_t lat_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	tcp_wg_run_t *r = (tcp_wg_run_t *)state;
	tcp_status_t st = tcp_wg_run_launch(r, c, LAT_ITERS, 0);

	if (st != TCP_OK)
		return st;
	out->v[0] = r->cycles_max / LAT_ITERS;
	out->v[1] = r->ns_span / LAT_ITERS;
	out->v[2] = r->clock_mhz;
	c->issued_tensor_insts = LAT_ITERS * 4.0;	/* one instruction per warp per wgmma */
	return TCP_OK;
}

static void lat_teardown(void *state)
{
	tcp_wg_run_t *r = (tcp_wg_run_t *)state;

	if (!r)
		return;
	tcp_wg_run_free(r);
	free(r);
}

extern "C" const tcp_probe_t tcp_probe_wgmma_lat = {
	.name = "wgmma_lat",
	.family = "wgmma",
	.help = "wgmma dependent-chain latency per kind and N (cycles per wgmma, one warpgroup)",
	.arch = TCP_ARCH_SM90A,
	.axes = axes,
	.naxes = sizeof(axes) / sizeof(axes[0]),
	.metrics = metrics,
	.nmetrics = sizeof(metrics) / sizeof(metrics[0]),
	.legal = lat_legal,
	.setup = lat_setup,
	.validate = lat_validate,
	.run = lat_run,
	.teardown = lat_teardown,
	.unsupported_reason = NULL,
};
