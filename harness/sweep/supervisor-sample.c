/*
 * supervisor-sample.c
 *	NVML sampling while a point runs on the worker: the SM clock, the
 *	clock-event (throttle) reasons and the GPU temperature every
 *	TCP_NVML_PERIOD_S, and the contention witnesses polled meanwhile
 *	(harness/measure/contention.h).
 */
#include <math.h>
#include <string.h>

#include "harness/sweep/supervisor-int.h"

void sup_sampler_start(struct sampler *s, int nvml, tcp_busy_t *busy, tcp_busy_point_t *bp)
{
	memset(s, 0, sizeof(*s));
	s->nvml = nvml;
	s->next = sup_mono() + TCP_NVML_PERIOD_S;
	s->busy = busy;
	s->bp = bp;
}

void sup_sampler_take(struct sampler *s)
{
	if (s->nvml < 0)
		return;
	double mhz = NAN, tc = NAN;
	unsigned long long m = ~0ull;
	tcp_nvml_sample(s->nvml, &mhz, &m, NULL);
	tcp_nvml_temp_c(s->nvml, &tc);
	tcp_mean_add(&s->temp, tc);
	if (s->busy)
		tcp_busy_point_poll(s->busy, s->bp, sup_mono());
	if (!isnan(mhz)) {
		s->sum += mhz;
		s->n++;
	}
	if (m != ~0ull) {
		s->mask |= m & ~TCP_THR_GPU_IDLE;	/* idle between launches is no throttle */
		s->mask_ok = 1;
	}
	s->next = sup_mono() + TCP_NVML_PERIOD_S;
}
