/*
 * probe-calib.cu
 *	Clock and timer calibration: the first probe of every run, so that each
 *	later cycle count can be turned into time and the timers themselves are
 *	characterised on the silicon at hand.
 *
 *	Metrics per point (spin = busy loop of `spin_kcycles` thousand SM cycles):
 *	  sm_clock_mhz       clock64 cycles over %globaltimer ns during the spin
 *	  kernel_ns          %globaltimer span of the spin, inside the kernel
 *	  event_ns           cudaEvent span of the same launch, host side
 *	  launch_overhead_ns event span minus in-kernel span
 *	  globaltimer_res_ns smallest non-zero step of %globaltimer seen
 */
#include <math.h>
#include <stdlib.h>

#include "probes/common/device.cuh"

/* One thread per SM spins for `spin` cycles and records both clocks. */
static __global__ void calib_spin(unsigned long long spin, unsigned long long *out)
{
	unsigned long long c0 = tcp_clock64(), t0 = tcp_globaltimer();
	unsigned long long c = c0, t = t0, step = ~0ull, last = t0;
	while (c - c0 < spin) {
		c = tcp_clock64();
		t = tcp_globaltimer();
		if (t != last) {
			if (t - last < step)
				step = t - last;
			last = t;
		}
	}
	if (threadIdx.x == 0) {
		out[blockIdx.x * 3 + 0] = c - c0;
		out[blockIdx.x * 3 + 1] = t - t0;
		out[blockIdx.x * 3 + 2] = step;
	}
}

static const tcp_axis_t axes[] = {
	{ "spin_kcycles", "busy-loop length, thousands of SM cycles", NULL, "[100,1000,10000]" },
};

static const tcp_metric_t metrics[] = {
	{ "sm_clock_mhz", "MHz", 1, "clock64 cycles / %globaltimer ns during the spin", TCP_ROLE_CLOCK },
	{ "kernel_ns", "ns", 0, "%globaltimer span of the spin (max over SMs)" },
	{ "event_ns", "ns", 0, "cudaEvent span of the launch (launch latency included)", TCP_ROLE_INFO },
	{ "launch_overhead_ns", "ns", 0, "event span minus in-kernel span", TCP_ROLE_INFO },
	{ "globaltimer_res_ns", "ns", 0, "smallest %globaltimer step observed", TCP_ROLE_INFO },
};

struct calib_state {
	unsigned long long spin;
	int blocks;
	unsigned long long *d_out, *h_out;
	cudaEvent_t e0, e1;
};

static tcp_status_t calib_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	struct calib_state *s = (struct calib_state *)calloc(1, sizeof(*s));
	if (!s) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = s;
	s->spin = (unsigned long long)p->v[0] * 1000ull;
	s->blocks = c->sm_count;
	s->h_out = (unsigned long long *)calloc((size_t)s->blocks * 3, sizeof(*s->h_out));
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_out, (size_t)s->blocks * 3 * sizeof(*s->d_out)));
	TCP_CUDA_TRY(c, cudaEventCreate(&s->e0));
	TCP_CUDA_TRY(c, cudaEventCreate(&s->e1));
	c->issued_tensor_insts = -1;
	return s->h_out ? TCP_OK : TCP_FAILED;
}

static tcp_status_t calib_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct calib_state *s = (struct calib_state *)state;
	TCP_CUDA_TRY(c, cudaEventRecord(s->e0));
	calib_spin<<<s->blocks, 32>>>(s->spin, s->d_out);
	TCP_CUDA_TRY(c, cudaGetLastError());
	TCP_CUDA_TRY(c, cudaEventRecord(s->e1));
	TCP_CUDA_TRY(c, cudaEventSynchronize(s->e1));
	float ms = 0;
	TCP_CUDA_TRY(c, cudaEventElapsedTime(&ms, s->e0, s->e1));
	TCP_CUDA_TRY(c, cudaMemcpy(s->h_out, s->d_out, (size_t)s->blocks * 3 * sizeof(*s->h_out),
				   cudaMemcpyDeviceToHost));
	double max_ns = 0, sum_mhz = 0, res = INFINITY;
	for (int b = 0; b < s->blocks; b++) {
		double cyc = (double)s->h_out[b * 3], ns = (double)s->h_out[b * 3 + 1];
		if (ns <= 0) {
			snprintf(c->reason, TCP_REASON_LEN, "%%globaltimer did not advance on block %d", b);
			return TCP_INVALID;
		}
		max_ns = fmax(max_ns, ns);
		sum_mhz += cyc / ns * 1e3;
		res = fmin(res, (double)s->h_out[b * 3 + 2]);
	}
	out->v[0] = sum_mhz / s->blocks;
	out->v[1] = max_ns;
	out->v[2] = ms * 1e6;
	out->v[3] = ms * 1e6 - max_ns;
	out->v[4] = res;
	return TCP_OK;
}

static void calib_teardown(void *state)
{
	struct calib_state *s = (struct calib_state *)state;
	if (!s)
		return;
	cudaFree(s->d_out);
	cudaEventDestroy(s->e0);
	cudaEventDestroy(s->e1);
	free(s->h_out);
	free(s);
}

extern "C" const tcp_probe_t tcp_probe_calib = {
	.name = "calib",
	.family = "calib",
	.help = "SM clock vs %globaltimer, timer resolution, launch overhead",
	.arch = TCP_ARCH_ANY | TCP_ARCH_WARP,	/* every target of the build: a clock calibration wherever a probe runs */
	.axes = axes,
	.naxes = sizeof(axes) / sizeof(axes[0]),
	.metrics = metrics,
	.nmetrics = sizeof(metrics) / sizeof(metrics[0]),
	.legal = NULL,
	.setup = calib_setup,
	.validate = NULL,
	.run = calib_run,
	.teardown = calib_teardown,
	.unsupported_reason = NULL,
};
