/*
 * warp-mma.h
 *	The engine of the warp-level MMA probes (probes/warp/warp-mma.cu): one
 *	CTA of `warps` warps on every SM, each warp keeping `ilp` independent
 *	m16n8kK accumulator tiles in registers and updating each once per loop
 *	step with A and B in registers (two B tiles alternating: B0, -B0).
 *	warps = 1, ilp = 1 is the dependent chain (cycles_per_mma = latency);
 *	many warps x ilp is the throughput.  The probe files (probe-mma-sync.cu,
 *	probe-warp-mma.cu) are descriptors over these hooks.
 *
 *	Which form runs is decided per point from the code the driver loaded
 *	for this GPU (cudaFuncGetAttributes: the PTX/cubin arch it came from,
 *	so a compute_80 PTX JIT on an H200 has no fp8 forms) against
 *	model/warp-mma.h; a form the code lacks is SKIPPED, never launched.
 */
#ifndef TCP_WARP_MMA_H
#define TCP_WARP_MMA_H

#include "probes/common/probe.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The metrics of both probes (mma_sync keeps its first five as they were). */
#define TCP_WARP_NMETRICS 8
extern const tcp_metric_t tcp_warp_metrics[TCP_WARP_NMETRICS];

/* warps 1..32, ilp 1/2/4/8: 1, else 0 with the reason. */
int tcp_warp_legal_shape(long long warps, long long ilp, char *reason, size_t len);

tcp_status_t tcp_warp_setup(int form, int warps, int ilp, int pattern, tcp_ctx_t *c, void **state);
tcp_status_t tcp_warp_validate(void *state, tcp_ctx_t *c);
tcp_status_t tcp_warp_run(void *state, tcp_ctx_t *c, tcp_sample_t *out);
void tcp_warp_teardown(void *state);

#ifdef __cplusplus
}
#endif
#endif /* TCP_WARP_MMA_H */
