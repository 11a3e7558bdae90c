/*
 * launch-rtt.h
 *	The timing witness of contention.h, measured in the worker: how long an
 *	empty kernel takes from its launch until the host sees it finish.  On an
 *	idle GPU that is the launch overhead calib reports (~10 us on an H200);
 *	beside another process the GPU time-slices and it waits for a slice
 *	(2.4 ms beside a GEMM loop on an H200, results/h200-contention).  Needs no NVML.
 */
#ifndef TCP_LAUNCH_RTT_H
#define TCP_LAUNCH_RTT_H

#ifdef __cplusplus
extern "C" {
#endif

/* Min over n launches of (launch + synchronize) in us, after one untimed
 * launch (module load); NaN when a CUDA call fails (the error is cleared). */
double tcp_launch_rtt_us(int n);

#ifdef __cplusplus
}
#endif
#endif /* TCP_LAUNCH_RTT_H */
