/*
 * probe-wgmma-sync.cu
 *	What the wgmma bookkeeping instructions cost on their own: one
 *	warpgroup on one SM runs 32 back-to-back copies of one instruction per
 *	loop step, with no wgmma in flight.  `none` is the same loop with an
 *	empty body: its cycles are the loop overhead included in the others.
 *
 *	  fence    wgmma.fence.sync.aligned          (SASS WARPGROUP.ARRIVE)
 *	  commit   wgmma.commit_group.sync.aligned   (an empty group each: ptxas
 *	           13.0 emits a no-op HGMMA.64x8x16 RZ per empty commit, so this
 *	           is the cost of issuing that dummy HGMMA)
 *	  wait     wgmma.wait_group.sync.aligned 0   (nothing pending; WARPGROUP.DEPBAR)
 *
 *	Metric: cycles_per_op = loop cycles / (steps x 32).
 */
#include "probes/common/wgmma.cuh"

#define SYNC_STEPS 2048
#define SYNC_UNROLL 32

enum { OP_NONE, OP_FENCE, OP_COMMIT, OP_WAIT };

static const char *const op_names[] = { "none", "fence", "commit", "wait", NULL };

static const tcp_axis_t axes[] = {
	{ "op", "instruction repeated: none (loop overhead), fence, commit, wait", op_names,
	  "none,fence,commit,wait" },
};

/* op=none is the empty loop: ~0.002 cycles per op, which moves by a few
 * cycles of 65536 between runs (0.00188 .. 0.00197 on H200); 0.01 is under
 * 0.5% of the cheapest real op (wait, 2.1 cycles) */
static const tcp_metric_t metrics[] = {
	{ "cycles_per_op", "cycles", 0, "clock64 cycles per instruction, one warpgroup, nothing in flight",
	  TCP_ROLE_AUTO, 0, 0.01 },
};

template <int OP> static __device__ __forceinline__ void sync_op(void)
{
	if constexpr (OP == OP_FENCE)
		tcp_wg_fence();
	else if constexpr (OP == OP_COMMIT)
		tcp_wg_commit();
	else if constexpr (OP == OP_WAIT)
		tcp_wg_wait<0>();
	else
		asm volatile("" ::: "memory");
}

template <int OP> static __global__ void __launch_bounds__(128, 1) sync_loop(int steps, unsigned long long *out)
{
	__syncthreads();
	unsigned long long c0 = tcp_clock64();

	for (int s = 0; s < steps; s++) {
#pragma unroll
		for (int i = 0; i < SYNC_UNROLL; i++)
			sync_op<OP>();
	}
	__syncthreads();
	if (threadIdx.x == 0)
		out[0] = tcp_clock64() - c0;
}

struct sync_state {
	int op;
	unsigned long long *d_out;
};

static tcp_status_t sync_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	struct sync_state *s = (struct sync_state *)calloc(1, sizeof(*s));

	if (!s) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = s;
	s->op = (int)p->v[0];
	/* no wgmma, but each empty commit is a dummy HGMMA per warp (see above) */
	c->issued_tensor_insts = s->op == OP_COMMIT ? 4.0 * SYNC_STEPS * SYNC_UNROLL : 0;
	TCP_CUDA_TRY(c, cudaMalloc((void **)&s->d_out, sizeof(unsigned long long)));
	return TCP_OK;
}

static tcp_status_t sync_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct sync_state *s = (struct sync_state *)state;
	unsigned long long cyc = 0;

	switch (s->op) {
	case OP_NONE: sync_loop<OP_NONE><<<1, 128>>>(SYNC_STEPS, s->d_out); break;
	case OP_FENCE: sync_loop<OP_FENCE><<<1, 128>>>(SYNC_STEPS, s->d_out); break;
	case OP_COMMIT: sync_loop<OP_COMMIT><<<1, 128>>>(SYNC_STEPS, s->d_out); break;
	default: sync_loop<OP_WAIT><<<1, 128>>>(SYNC_STEPS, s->d_out); break;
	}
	TCP_CUDA_TRY(c, cudaGetLastError());
	TCP_CUDA_TRY(c, cudaMemcpy(&cyc, s->d_out, sizeof(cyc), cudaMemcpyDeviceToHost));
	out->v[0] = (double)cyc / (SYNC_STEPS * SYNC_UNROLL);
	return TCP_OK;
}

static void sync_teardown(void *state)
{
	struct sync_state *s = (struct sync_state *)state;

	if (!s)
		return;
	cudaFree(s->d_out);
	free(s);
}

extern "C" const tcp_probe_t tcp_probe_wgmma_sync = {
	.name = "wgmma_sync",
	.family = "wgmma",
	.help = "cost of wgmma.fence / commit_group / wait_group on their own (cycles each)",
	.arch = TCP_ARCH_SM90A,
	.axes = axes,
	.naxes = sizeof(axes) / sizeof(axes[0]),
	.metrics = metrics,
	.nmetrics = sizeof(metrics) / sizeof(metrics[0]),
	.legal = NULL,
	.setup = sync_setup,
	.validate = NULL,
	.run = sync_run,
	.teardown = sync_teardown,
	.unsupported_reason = NULL,
};
