/*
 * measure-kernels.h
 *	The harness's own kernels, as handles for cudaLaunchKernel: the device
 *	code lives in the .cu files below (nvcc, device objects), the host code
 *	that launches it in plain C / C++ files (launch-rtt.c,
 *	counters-session.cc), so that every harness host file compiles without
 *	nvcc and against every CUDA toolkit's headers (check-cuda-headers.sh).
 */
#ifndef TCP_MEASURE_KERNELS_H
#define TCP_MEASURE_KERNELS_H

#ifdef __cplusplus
extern "C" {
#endif

/* launch-rtt-kernel.cu: an empty kernel, no arguments (<<<1, 1>>>). */
extern const void *const tcp_rtt_empty_fn;

/* counters-kernels.cu: about `cycles` SM cycles on one warp, the cycles
 * counted written to sink[blockIdx.x] (long long cycles, long long *sink). */
extern const void *const tcp_counters_selftest_fn;

#ifdef __cplusplus
}
#endif
#endif /* TCP_MEASURE_KERNELS_H */
