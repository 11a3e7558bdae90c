/*
 * launch-rtt.c
 *	The launch round trip of launch-rtt.h: one empty kernel
 *	(launch-rtt-kernel.cu) on the legacy default stream, timed on the host
 *	(CLOCK_MONOTONIC).
 */
#include <math.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "harness/measure/launch-rtt.h"
#include "harness/measure/measure-kernels.h"

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

/* rtt_empty<<<1, 1>>>() */
static cudaError_t launch_empty(void)
{
	const dim3 one = { 1, 1, 1 };
	return cudaLaunchKernel(tcp_rtt_empty_fn, one, one, NULL, 0, 0);
}

double tcp_launch_rtt_us(int n)
{
	double best = INFINITY;

	(void)launch_empty();	/* loads the module: not timed */
	if (cudaDeviceSynchronize() != cudaSuccess) {
		(void)cudaGetLastError();
		return NAN;
	}
	for (int i = 0; i < n; i++) {
		double t0 = now_us();
		(void)launch_empty();
		cudaError_t e = cudaStreamSynchronize(0);
		double t = now_us() - t0;
		if (e != cudaSuccess || cudaGetLastError() != cudaSuccess)
			return NAN;
		if (t < best)
			best = t;
	}
	return n > 0 ? best : NAN;
}
