/*
 * launch-rtt.cu
 *	The launch round trip of launch-rtt.h: one empty kernel on the legacy
 *	default stream, timed on the host (CLOCK_MONOTONIC).
 */
#include <math.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "harness/measure/launch-rtt.h"

static __global__ void rtt_empty(void)
{
}

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

extern "C" double tcp_launch_rtt_us(int n)
{
	double best = INFINITY;

	rtt_empty<<<1, 1>>>();	/* loads the module: not timed */
	if (cudaDeviceSynchronize() != cudaSuccess) {
		(void)cudaGetLastError();
		return NAN;
	}
	for (int i = 0; i < n; i++) {
		double t0 = now_us();
		rtt_empty<<<1, 1>>>();
		cudaError_t e = cudaStreamSynchronize(0);
		double t = now_us() - t0;
		if (e != cudaSuccess || cudaGetLastError() != cudaSuccess)
			return NAN;
		if (t < best)
			best = t;
	}
	return n > 0 ? best : NAN;
}
