/*
 * probe-host-timer.c
 *	The host clock the harness itself relies on (progress, timeouts, NVML
 *	sampling): cost and resolution of clock_gettime(CLOCK_MONOTONIC).
 *	Host-only, so it also runs where no GPU is visible: CI's Slurm test and
 *	`tcprobe run --probe host_timer` prove the whole pipeline GPU-free.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "probes/common/probe.h"

static const tcp_axis_t axes[] = {
	{ "calls", "clock_gettime calls per sample", NULL, "[1000,100000]" },
};

static const tcp_metric_t metrics[] = {
	{ "ns_per_call", "ns", 0, "mean cost of one clock_gettime(CLOCK_MONOTONIC)", TCP_ROLE_INFO, 0, 0 },
	{ "resolution_ns", "ns", 0, "smallest non-zero step between consecutive reads", TCP_ROLE_INFO, 1, 0 },
};

struct host_timer_state {
	long calls;
};

static double host_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static tcp_status_t host_timer_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	struct host_timer_state *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	s->calls = (long)p->v[0];
	c->issued_tensor_insts = -1;
	*state = s;
	return TCP_OK;
}

static tcp_status_t host_timer_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	const struct host_timer_state *s = state;
	double t0 = host_ns(), prev = t0, step = INFINITY;
	for (long i = 0; i < s->calls; i++) {
		double t = host_ns();
		if (t > prev && t - prev < step)
			step = t - prev;
		prev = t;
	}
	if (prev <= t0) {
		snprintf(c->reason, TCP_REASON_LEN, "CLOCK_MONOTONIC did not advance over %ld calls", s->calls);
		return TCP_INVALID;
	}
	out->v[0] = (prev - t0) / (double)s->calls;
	out->v[1] = step;
	return TCP_OK;
}

static void host_timer_teardown(void *state)
{
	free(state);
}

const tcp_probe_t tcp_probe_host_timer = {
	.name = "host_timer",
	.family = "calib",
	.help = "host CLOCK_MONOTONIC cost and resolution (host-only; runs without a GPU)",
	.arch = TCP_ARCH_HOST,
	.axes = axes,
	.naxes = sizeof(axes) / sizeof(axes[0]),
	.metrics = metrics,
	.nmetrics = sizeof(metrics) / sizeof(metrics[0]),
	.legal = NULL,
	.setup = host_timer_setup,
	.validate = NULL,
	.run = host_timer_run,
	.teardown = host_timer_teardown,
	.unsupported_reason = NULL,
};
