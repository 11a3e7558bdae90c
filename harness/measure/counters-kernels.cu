/*
 * counters-kernels.cu
 *	The kernels counters-session.cc launches to prove a CUPTI session
 *	(device code only; their handles in measure-kernels.h).
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

/* Tensor-pipe work (mma.sync, sm_75 and later) of uneven length per block,
 * so that the busiest SM and the mean over SMs differ. */
__global__ void tcp_counters_tensor_kernel(int iters, float *sink)
{
#if __CUDA_ARCH__ >= 750
	unsigned a0 = 0x3c003c00u ^ threadIdx.x, a1 = a0 + 1u, b0 = a0 ^ 0x00010001u;
	float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
	int n = iters * (1 + (int)(blockIdx.x % 3u));
	for (int i = 0; i < n; i++)
		asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, "
			     "{%0,%1,%2,%3};\n"
			     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
			     : "r"(a0), "r"(a1), "r"(b0));
	if (threadIdx.x == 0)
		sink[blockIdx.x] = d0 + d1 + d2 + d3;
#endif
}

extern "C" const void *const tcp_counters_selftest_fn = (const void *)tcp_counters_selftest_kernel;
extern "C" const void *const tcp_counters_tensor_fn = (const void *)tcp_counters_tensor_kernel;
