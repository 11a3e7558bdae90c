/*
 * probe-wgmma-epilogue.cu
 *	wgmma throughput while another warpgroup of the same SM runs a
 *	register-heavy FFMA "epilogue": the Hopper side of the accumulator
 *	argument (the accumulators and the epilogue share one register file).
 *	Every SM runs one CTA of `mma_wg` wgmma warpgroups (f16 inputs, f32
 *	accumulators, A and B from shared memory, two wgmmas per commit group
 *	as in wgmma_tput) and one epilogue warpgroup that performs `epi_ffma`
 *	FFMAs per thread for every wgmma the CTA issues, on 64 live registers,
 *	paced by a shared-memory progress counter so that it spreads over the
 *	whole wgmma loop instead of racing ahead.  `pacing` says how that
 *	counter is written and polled:
 *	  relaxed   st.relaxed.cta / ld.relaxed.cta, polled by the whole warp
 *	            (strong, so no data race under the PTX memory model;
 *	            nothing is published through the counter, so no ordering
 *	            is needed).  The default: the lightest race-free pacing.
 *	  acquire   st.release.cta / ld.acquire.cta, polled by the whole warp
 *	  atomic    atomicExch / atomicAdd(0), polled by one lane per warp (the
 *	            only form compute-sanitizer racecheck does not report)
 *
 *	Metrics (cycles: clock64, max over SMs):
 *	  flop_per_clk_sm   wgmma FLOP per SM cycle over the wgmma loop
 *	  pct_peak          of 4096 (f16 dense)
 *	  ffma_per_clk_sm   epilogue FFMAs (thread instructions) per cycle of its loop
 *	  epi_tail_pct      how much longer the epilogue ran than the wgmma loop, % of it
 *	                    (> 0: the epilogue, not the tensor core, set the pace)
 *	  regs_per_thread   registers per thread of the kernel
 */
#include "probes/common/wgmma.cuh"

#define EPI_LAG 2
#define EPI_TARGET_CYCLES 2.0e6
#define EPI_REGS 64		/* live epilogue registers: one chunk = 64 FFMAs */

enum { AX_N, AX_MMA_WG, AX_EPI, AX_PACING };
enum { PACE_RELAXED, PACE_ACQUIRE, PACE_ATOMIC, PACE_COUNT };

static const char *const pacing_names[] = { "relaxed", "acquire", "atomic", NULL };

static const tcp_axis_t axes[] = {
	{ "N", "wgmma N (f16 inputs, f32 accumulators, M = 64, K = 16): 128 or 256", NULL, "[128,256]" },
	{ "mma_wg", "wgmma warpgroups per SM (plus one epilogue warpgroup)", NULL, "[1,2]" },
	{ "epi_ffma", "epilogue FFMAs per thread per wgmma issued (multiple of 32)", NULL,
	  "[0,32,64,128,256,512]" },
	{ "pacing", "how the epilogue polls the wgmma side's progress counter: relaxed, acquire or atomic",
	  pacing_names, "relaxed" },
};

static const tcp_metric_t metrics[] = {
	{ "flop_per_clk_sm", "FLOP/clk/SM", 1, "wgmma FLOP per SM cycle over the wgmma loop" },
	{ "pct_peak", "%", 1, "of the f16 dense peak per SM per clock (4096)" },
	{ "ffma_per_clk_sm", "FFMA/clk/SM", 1, "epilogue FFMA thread-instructions per cycle of its loop" },
	/* 0.0004 .. 0.0104 where the epilogue hides entirely (H200 runs): a band of
	 * 0.05 points of the wgmma loop keeps a ratio of two near-zero numbers quiet */
	{ "epi_tail_pct", "%", 0, "epilogue loop cycles beyond the wgmma loop, % of the wgmma loop", TCP_ROLE_AUTO, 0,
	  0.05 },
	{ "regs_per_thread", "registers", 0, "registers per thread of the kernel" },
};

/*
 * Warpgroups 0..nwg-1: the tput loop, and thread 0 bumps `progress` after
 * each iteration.  Warpgroup nwg: before its step `it` it waits until the
 * wgmma side has finished step `it` - 1 (it never runs ahead), then runs
 * epi_chunks x 64 dependent-free FFMAs over its 64 registers.
 */
template <int P> static __device__ __forceinline__ void pace_post(unsigned int *c, unsigned int v)
{
	const uint32_t a = (uint32_t)__cvta_generic_to_shared(c);

	if (P == PACE_RELAXED)
		asm volatile("st.relaxed.cta.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
	else if (P == PACE_ACQUIRE)
		asm volatile("st.release.cta.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
	else
		atomicExch(c, v);
}

template <int P> static __device__ __forceinline__ unsigned int pace_poll(unsigned int *c)
{
	const uint32_t a = (uint32_t)__cvta_generic_to_shared(c);
	unsigned int v;

	if (P == PACE_RELAXED)
		asm volatile("ld.relaxed.cta.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
	else if (P == PACE_ACQUIRE)
		asm volatile("ld.acquire.cta.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
	else
		v = atomicAdd(c, 0u);
	return v;
}

template <int N, int P>
static __global__ void __launch_bounds__(128 * TCP_WG_MAX_WG, 1) epi_loop(const tcp_wg_args_t a)
{
	typedef tcp_wg_op<TCP_WGK_F16_F32> op;
	constexpr int R = N / 2;
	extern __shared__ __align__(128) uint8_t tcp_wg_smem[];
	/* written and read only by pace_post/pace_poll (strong operations: a
	 * plain volatile flag is a data race under the memory model); one
	 * shared access per warp per poll (docs/findings.md: the epilogue overlap and its pacing) */
	__shared__ unsigned int progress;
	const int tid = threadIdx.x, wg = tid / 128, t = tid % 128, nwg = blockDim.x / 128 - 1;

	for (uint32_t i = tid; i < a.image_bytes / 16; i += blockDim.x)
		((uint4 *)tcp_wg_smem)[i] = ((const uint4 *)a.image)[i];
	if (tid == 0)
		progress = 0;
	tcp_fence_proxy_async_smem();
	__syncthreads();
	unsigned long long c0 = tcp_clock64(), g0 = tcp_globaltimer();

	if (wg < nwg) {
		const uint32_t base = (uint32_t)__cvta_generic_to_shared(tcp_wg_smem);
		const uint64_t da = tcp_wg_desc(base + a.a_off + (uint32_t)wg * a.a_stride, a.lbo, a.sbo);
		const uint64_t db0 = tcp_wg_desc(base + a.ba_off, a.lbo, a.sbo);
		const uint64_t db1 = tcp_wg_desc(base + a.bb_off, a.lbo, a.sbo);
		float acc[R];

#pragma unroll
		for (int r = 0; r < R; r++)
			acc[r] = 0;
		tcp_wg_fence();
		for (long long it = 0; it < a.iters; it++) {
			tcp_wg_fence();
			op::ss<N>(acc, da, db0, 1u);
			op::ss<N>(acc, da, db1, 1u);
			tcp_wg_commit();
			tcp_wg_wait<EPI_LAG - 1>();
			if (tid == 0)
				pace_post<P>(&progress, (unsigned int)(it + 1));
		}
		tcp_wg_wait<0>();
#pragma unroll
		for (int r = 0; r < R; r++)
			tcp_wg_pin(acc[r]);
		asm volatile("bar.sync 1, %0;\n" ::"r"(nwg * 128) : "memory");	/* wgmma warpgroups only */
		if (tid == 0)
			a.timing[blockIdx.x * TCP_WG_TSLOTS + TCP_WG_T_MMA_CYCLES] = tcp_clock64() - c0;
		if (a.dump) {
			uint32_t *o = a.dump + ((size_t)(blockIdx.x * nwg + wg) * 128 + t) * R;
#pragma unroll
			for (int r = 0; r < R; r++)
				o[r] = __float_as_uint(acc[r]);
		}
	} else {
		float x[EPI_REGS], m = 1.0f - 0x1p-20f * (float)(t + 1), k = 0x1p-12f * (float)t;

#pragma unroll
		for (int r = 0; r < EPI_REGS; r++)
			x[r] = (float)(r + t);
		for (long long it = 0; it < a.iters; it++) {
			/* never ahead of the wgmma warpgroups.  A load polled by the
			 * whole warp is one warp-uniform LDS (a broadcast), as run 1's
			 * volatile flag was; atomics poll from one lane (32 RMWs per
			 * warp would serialise), and the warp waits for it. */
			if (P != PACE_ATOMIC) {
				while (pace_poll<P>(&progress) < (unsigned int)it)
					;
			} else {
				if ((t & 31) == 0)
					while (pace_poll<P>(&progress) < (unsigned int)it)
						;
				__syncwarp();
			}
			for (int ch = 0; ch < a.epi_chunks; ch++) {
#pragma unroll
				for (int r = 0; r < EPI_REGS; r++)
					x[r] = fmaf(x[r], m, k);
			}
		}
		if (t == 0)
			a.timing[blockIdx.x * TCP_WG_TSLOTS + TCP_WG_T_EPI_CYCLES] = tcp_clock64() - c0;
		float sum = 0;
#pragma unroll
		for (int r = 0; r < EPI_REGS; r++)
			sum += x[r];
		a.epi_out[blockIdx.x * 128 + t] = sum;	/* keeps the FFMAs alive */
	}
	__syncthreads();
	if (tid == 0) {
		unsigned long long *tm = a.timing + blockIdx.x * TCP_WG_TSLOTS;

		tm[TCP_WG_T_CYCLES] = tcp_clock64() - c0;
		tm[TCP_WG_T_G0] = g0;
		tm[TCP_WG_T_G1] = tcp_globaltimer();
		tm[TCP_WG_T_SMID] = tcp_smid();
	}
}

static int epi_legal(const tcp_point_t *p, char *reason, size_t len)
{
	if (p->v[AX_N] != 128 && p->v[AX_N] != 256) {
		snprintf(reason, len, "N=%lld not instantiated, expected 128 or 256", (long long)p->v[AX_N]);
		return 0;
	}
	if (p->v[AX_MMA_WG] < 1 || p->v[AX_MMA_WG] > TCP_WG_MAX_WG - 1) {
		snprintf(reason, len, "mma_wg=%lld out of range, expected 1..%d", (long long)p->v[AX_MMA_WG],
			 TCP_WG_MAX_WG - 1);
		return 0;
	}
	if (p->v[AX_EPI] < 0 || p->v[AX_EPI] > 65536 || p->v[AX_EPI] % 32) {
		snprintf(reason, len, "epi_ffma=%lld invalid, expected a multiple of 32 in 0..65536",
			 (long long)p->v[AX_EPI]);
		return 0;
	}
	if (p->v[AX_PACING] < 0 || p->v[AX_PACING] >= PACE_COUNT) {
		snprintf(reason, len, "pacing index %lld out of range, expected 0..%d", (long long)p->v[AX_PACING],
			 PACE_COUNT - 1);
		return 0;
	}
	return 1;
}

/* [N == 256][pacing] */
static const void *const epi_kernels[2][PACE_COUNT] = {
	{ (const void *)epi_loop<128, PACE_RELAXED>, (const void *)epi_loop<128, PACE_ACQUIRE>,
	  (const void *)epi_loop<128, PACE_ATOMIC> },
	{ (const void *)epi_loop<256, PACE_RELAXED>, (const void *)epi_loop<256, PACE_ACQUIRE>,
	  (const void *)epi_loop<256, PACE_ATOMIC> },
};

struct epi_state {
	tcp_wg_run_t run;
	long long iters;
	int epi_ffma;
	double flop_per_wgmma;
	float *d_epi;
};

static tcp_status_t epi_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	struct epi_state *s = (struct epi_state *)calloc(1, sizeof(*s));
	int n = (int)p->v[AX_N], nwg = (int)p->v[AX_MMA_WG];
	tcp_status_t st;

	if (!s) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = s;
	if (!epi_legal(p, c->reason, TCP_REASON_LEN))
		return TCP_SKIPPED;
	s->epi_ffma = (int)p->v[AX_EPI];
	s->flop_per_wgmma = 2.0 * 64 * n * 16;
	s->iters = (long long)ceil(EPI_TARGET_CYCLES * 4096 / (s->flop_per_wgmma * nwg) / 2);
	c->issued_tensor_insts = -1;
	st = tcp_wg_run_setup(&s->run, c, epi_kernels[n == 256][p->v[AX_PACING]],
			      TCP_WGK_F16_F32, n, nwg, 0, c->sm_count, 1);
	if (st != TCP_OK)
		return st;
	s->run.extra_wg = 1;
	/* per loop iteration the CTA issues 2 * nwg wgmmas: epi_ffma of each, in 64-FFMA chunks */
	s->run.args.epi_chunks = s->epi_ffma * 2 * nwg / EPI_REGS;
	TCP_CUDA_TRY(c, cudaMalloc((void **)&s->d_epi, (size_t)c->sm_count * 128 * sizeof(float)));
	s->run.args.epi_out = s->d_epi;
	return TCP_OK;
}

static tcp_status_t epi_validate(void *state, tcp_ctx_t *c)
{
	return tcp_wg_run_validate(&((struct epi_state *)state)->run, c, EPI_LAG, 1);
}

static tcp_status_t epi_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct epi_state *s = (struct epi_state *)state;
	tcp_wg_run_t *r = &s->run;
	tcp_status_t st = tcp_wg_run_launch(r, c, s->iters, 0);
	double mma = 0, epi = 0, tail = 0, ffma;

	if (st != TCP_OK)
		return st;
	for (int b = 0; b < r->blocks; b++) {
		const unsigned long long *tm = r->h_timing + (size_t)b * TCP_WG_TSLOTS;
		double m = (double)tm[TCP_WG_T_MMA_CYCLES], e = (double)tm[TCP_WG_T_EPI_CYCLES];

		mma = fmax(mma, m);
		epi = fmax(epi, e);
		tail = fmax(tail, m > 0 ? 100.0 * (e - m) / m : 0);
	}
	if (mma <= 0 || epi <= 0) {
		snprintf(c->reason, TCP_REASON_LEN, "clock64 did not advance");
		return TCP_INVALID;
	}
	ffma = 128.0 * (double)s->iters * r->args.epi_chunks * EPI_REGS;
	out->v[0] = s->flop_per_wgmma * 2.0 * (double)s->iters * r->nwg / mma;
	out->v[1] = 100.0 * out->v[0] / 4096;
	out->v[2] = ffma / epi;
	out->v[3] = tail;
	out->v[4] = r->regs;
	c->issued_tensor_insts = 2.0 * (double)s->iters * r->nwg * 4.0 * r->blocks;
	return TCP_OK;
}

static void epi_teardown(void *state)
{
	struct epi_state *s = (struct epi_state *)state;

	if (!s)
		return;
	cudaFree(s->d_epi);
	tcp_wg_run_free(&s->run);
	free(s);
}

extern "C" const tcp_probe_t tcp_probe_wgmma_epilogue = {
	.name = "wgmma_epilogue",
	.family = "wgmma",
	.help = "wgmma f16 throughput with an FFMA epilogue warpgroup on the same SM at a swept rate",
	.arch = TCP_ARCH_SM90A,
	.axes = axes,
	.naxes = sizeof(axes) / sizeof(axes[0]),
	.metrics = metrics,
	.nmetrics = sizeof(metrics) / sizeof(metrics[0]),
	.legal = epi_legal,
	.setup = epi_setup,
	.validate = epi_validate,
	.run = epi_run,
	.teardown = epi_teardown,
	.unsupported_reason = NULL,
};
