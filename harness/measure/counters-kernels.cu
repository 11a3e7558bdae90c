/*
 * counters-kernels.cu
 *	The kernel counters-session.cc launches to prove a CUPTI session
 *	(device code only; its handle in measure-kernels.h).
 */
#include "harness/measure/measure-kernels.h"

/* About `cycles` SM cycles on one warp (the self-test's 20k: long enough to
 * count, short enough not to matter). */
__global__ void tcp_counters_selftest_kernel(long long cycles, long long *sink)
{
	long long t0 = clock64(), dt = 0;
	while ((dt = clock64() - t0) < cycles) {
	}
	if (threadIdx.x == 0)
		sink[blockIdx.x] = dt;
}

extern "C" const void *const tcp_counters_selftest_fn = (const void *)tcp_counters_selftest_kernel;
