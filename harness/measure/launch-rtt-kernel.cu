/*
 * launch-rtt-kernel.cu
 *	The empty kernel launch-rtt.c times (device code only; its handle in
 *	measure-kernels.h).
 */
#include "harness/measure/measure-kernels.h"

static __global__ void rtt_empty(void)
{
}

extern "C" const void *const tcp_rtt_empty_fn = (const void *)rtt_empty;
