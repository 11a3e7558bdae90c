/*
 * probe-trap-check.cu
 *	Self-test of the bounded wait and its trap (probes/common/trap.cuh) on
 *	every target the build holds: on sm_90+ the same tcp_mbar_wait() every
 *	tcgen05 probe uses (sm_80 .. sm_89: its test_wait form, wait_sm80()),
 *	on an mbarrier whose arrival is (mode=ok) or is not
 *	(mode=timeout) made.  In timeout mode the wait runs out after
 *	`budget_ms`, writes the status word to mapped pinned host memory with a
 *	system-scope fence, and executes `trap`; the context is lost.  The row
 *	must then read TIMEOUT naming "planted wait" (not FAILED "unspecified
 *	launch failure"), and the worker must restart: the next point is OK.
 *	scripts/device/trap-check.sh runs that sequence on the H200.
 *	Not in any shipped sweep (a timeout point costs a worker restart).
 *
 *	Metrics (mode=ok):
 *	  wait_ns   %globaltimer from the arrive to the end of the wait (thread 0)
 */
#include <math.h>
#include <stdlib.h>

#include "probes/common/trap.cuh"

enum { SITE_PLANTED = 0 };
static const char *const sites[] = { "planted wait" };
static const char *const mode_names[] = { "ok", "timeout", NULL };

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
/*
 * wait_sm80()
 *	The bounded wait of tcp_mbar_wait() where sm_80 .. sm_89 have no
 *	mbarrier.try_wait (sm_90+): the same budget on %globaltimer over
 *	mbarrier.test_wait, the same record and trap (tcp_tc_trap).
 */
static __device__ void wait_sm80(uint64_t *bar, unsigned parity, unsigned long long budget_ns,
				 unsigned long long *status, unsigned site)
{
	const unsigned long long t0 = tcp_globaltimer();
	for (;;) {
		uint32_t ok;
		asm volatile("{\n\t.reg .pred p;\n\t"
			     "mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
			     "selp.u32 %0, 1, 0, p;\n\t}"
			     : "=r"(ok)
			     : "r"(tcp_smem_u32(bar)), "r"(parity)
			     : "memory");
		if (ok)
			return;
		unsigned long long dt = tcp_globaltimer() - t0;
		if (dt > budget_ns) {
			tcp_tc_trap(status, TCP_TC_MBAR_TIMEOUT, site, dt);
			return;
		}
	}
}
#endif

static __global__ void trap_check_kernel(int arrive, unsigned long long budget_ns, unsigned long long *status,
					 unsigned long long *out)
{
	__shared__ uint64_t bar;
	if (threadIdx.x == 0) {
		tcp_mbar_init(&bar, 1);
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
		tcp_mbar_init_fence();	/* (sm_90+; below, no cluster: __syncthreads() publishes the init) */
#endif
	}
	__syncthreads();
	if (threadIdx.x == 0) {
		unsigned long long g0 = tcp_globaltimer();
		if (arrive)
			tcp_mbar_arrive(&bar);
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
		tcp_mbar_wait(&bar, 0, budget_ns, status, SITE_PLANTED);	/* traps on timeout */
#else
		wait_sm80(&bar, 0, budget_ns, status, SITE_PLANTED);	/* traps on timeout */
#endif
		out[0] = tcp_globaltimer() - g0;
	}
}

static const tcp_axis_t axes[] = {
	{ "mode", "ok: the arrival is made; timeout: it never is (the wait traps)", mode_names, "ok" },
	{ "budget_ms", "the wait's budget, milliseconds", NULL, "[20]" },
};

static const tcp_metric_t metrics[] = {
	{ "wait_ns", "ns", 0, "arrive to the end of the bounded wait (mode=ok)" },
};

static int trap_check_legal(const tcp_point_t *p, char *reason, size_t len)
{
	if (p->v[0] < 0 || p->v[0] > 1) {
		snprintf(reason, len, "mode index %lld out of range (ok, timeout)", (long long)p->v[0]);
		return 0;
	}
	if (p->v[1] < 1 || p->v[1] > 10000) {
		snprintf(reason, len, "budget_ms must be in [1, 10000]; got %lld", (long long)p->v[1]);
		return 0;
	}
	return 1;
}

struct trap_check_state {
	int arrive;
	unsigned long long budget_ns;
	unsigned long long *status, *d_out;
};

static tcp_status_t trap_check_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	struct trap_check_state *s = (struct trap_check_state *)calloc(1, sizeof(*s));
	if (!s) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = s;
	s->arrive = p->v[0] == 0;
	s->budget_ns = (unsigned long long)p->v[1] * 1000000ull;
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_out, sizeof(*s->d_out)));
	c->issued_tensor_insts = -1;
	return tcp_trap_status_alloc(c, &s->status);
}

static tcp_status_t trap_check_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct trap_check_state *s = (struct trap_check_state *)state;
	unsigned long long ns = 0;
	trap_check_kernel<<<1, 32>>>(s->arrive, s->budget_ns, s->status, s->d_out);
	tcp_status_t st = tcp_trap_check(c, s->status, sites, 1);
	if (st != TCP_OK)
		return st;
	TCP_CUDA_TRY(c, cudaMemcpy(&ns, s->d_out, sizeof(ns), cudaMemcpyDeviceToHost));
	out->v[0] = (double)ns;
	return TCP_OK;
}

static void trap_check_teardown(void *state)
{
	struct trap_check_state *s = (struct trap_check_state *)state;
	if (!s)
		return;
	cudaFree(s->d_out);
	tcp_trap_status_free(s->status);
	free(s);
}

extern "C" const tcp_probe_t tcp_probe_trap_check = {
	.name = "trap_check",
	.family = "selftest",
	.help = "bounded wait -> status word in mapped host memory -> trap: the row must read TIMEOUT naming the wait",
	.arch = TCP_ARCH_ANY | TCP_ARCH_WARP,
	.axes = axes,
	.naxes = (int)(sizeof(axes) / sizeof(axes[0])),
	.metrics = metrics,
	.nmetrics = (int)(sizeof(metrics) / sizeof(metrics[0])),
	.legal = trap_check_legal,
	.setup = trap_check_setup,
	.validate = NULL,
	.run = trap_check_run,
	.teardown = trap_check_teardown,
	.unsupported_reason = NULL,
};
