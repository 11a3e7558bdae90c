/*
 * probe-mma-sync.cu
 *	The pre-Hopper tensor-core path on Hopper: warp-level mma.sync
 *	m16n8k16 f16/bf16 (f32 accumulate), m16n8k8 tf32 (f32), m16n8k32 s8
 *	(s32).  Every SM runs one CTA of `warps` warps; each warp keeps `ilp`
 *	independent accumulator tiles and updates each once per loop step, A
 *	and B in registers, two random B fragments alternating (B0, -B0).
 *	warps = 1, ilp = 1 is the dependent chain: cycles_per_mma is then the
 *	latency; many warps x ilp is the throughput.
 *
 *	Metrics per point (cycles: clock64 of the loop, max over SMs):
 *	  cycles_per_mma    loop cycles / steps: per mma of one chain
 *	  flop_per_clk_sm   2*16*8*K x mmas per SM / cycles
 *	  tflops            at the measured clock, all SMs
 *	  pct_peak          of the wgmma dense peak per SM (model/kinds.h)
 *	  sm_clock_mhz      cycles / %globaltimer ns during the loop
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "probes/common/device.cuh"
#include "probes/common/fill.h"

enum { K_F16, K_BF16, K_TF32, K_S8, K_COUNT };
enum { AX_KIND, AX_WARPS, AX_ILP, AX_PAT };

static const char *const kind_names[] = { "f16", "bf16", "tf32", "s8", NULL };
static const tcp_type_t kind_in[] = { TCP_T_F16, TCP_T_BF16, TCP_T_TF32, TCP_T_S8 };
static const int kind_k[] = { 16, 16, 8, 32 };
static const tcp_kind_t kind_family[] = { TCP_KIND_F16, TCP_KIND_F16, TCP_KIND_TF32, TCP_KIND_I8 };

static const tcp_axis_t axes[] = {
	{ "kind", "m16n8k16 f16/bf16 (f32 acc), m16n8k8 tf32, m16n8k32 s8 (s32 acc)", kind_names,
	  "f16,bf16,tf32,s8" },
	{ "warps", "warps per SM (one CTA per SM, every SM)", NULL, "[1,4,8,16,32]" },
	{ "ilp", "independent accumulator tiles per warp: 1, 2, 4, 8", NULL, "[1,4]" },
	{ "pattern", "input values: zeros, ones, random, sparse50, smallexp, maxfinite (fill.h)",
	  tcp_pattern_names, "random" },
};

static const tcp_metric_t metrics[] = {
	{ "cycles_per_mma", "cycles", 0, "loop cycles per step of one accumulator chain (latency at warps=1 ilp=1)" },
	{ "flop_per_clk_sm", "FLOP/clk/SM", 1, "dense FLOP (OP) per SM cycle, max cycles over SMs" },
	{ "tflops", "TFLOP/s", 1, "flop_per_clk_sm x SMs x measured SM clock" },
	{ "pct_peak", "%", 1, "of the wgmma dense peak per SM per clock" },
	{ "sm_clock_mhz", "MHz", 1, "clock64 cycles / %globaltimer ns during the loop" },
};

/* Accumulators: float for the f32 kinds, raw s32 for s8 (dumped as bit patterns). */
template <int KIND> struct mma_acc { typedef float t; };
template <> struct mma_acc<K_S8> { typedef uint32_t t; };

static __device__ __forceinline__ uint32_t acc_bits(float f) { return __float_as_uint(f); }
static __device__ __forceinline__ uint32_t acc_bits(uint32_t u) { return u; }

#define MMA_F32(SHAPE_TYPES)                                                                   \
	asm volatile("mma.sync.aligned." SHAPE_TYPES " {%0, %1, %2, %3}, {%4, %5, %6, %7}, "     \
		     "{%8, %9}, {%0, %1, %2, %3};\n"                                              \
		     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                             \
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))

template <int KIND>
static __device__ __forceinline__ void mma(typename mma_acc<KIND>::t *d, const uint32_t *a, const uint32_t *b)
{
	if constexpr (KIND == K_S8)
		asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, "
			     "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
			     : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
			     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
	else if constexpr (KIND == K_F16)
		MMA_F32("m16n8k16.row.col.f32.f16.f16.f32");
	else if constexpr (KIND == K_BF16)
		MMA_F32("m16n8k16.row.col.f32.bf16.bf16.f32");
	else
		MMA_F32("m16n8k8.row.col.f32.tf32.tf32.f32");
}

typedef struct {
	const uint32_t *afrag;		/* [lane][4] */
	const uint32_t *bfrag;		/* [tile 0..2][lane][2]: B0, B1, B2 = -B0 */
	int ba, bb;			/* the two B tiles the loop alternates */
	long long iters;
	uint32_t *dump;			/* NULL or [block][warp][ilp][lane][4] */
	unsigned long long *timing;	/* [block][4]: cycles, globaltimer start, end, smid */
} mma_args_t;

template <int KIND, int ILP>
static __global__ void __launch_bounds__(1024, 1) mma_loop(const mma_args_t p)
{
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	uint32_t a[4], b0[2], b1[2];
	typename mma_acc<KIND>::t d[ILP][4];

	for (int j = 0; j < 4; j++)
		a[j] = p.afrag[lane * 4 + j];
	for (int j = 0; j < 2; j++) {
		b0[j] = p.bfrag[(p.ba * 32 + lane) * 2 + j];
		b1[j] = p.bfrag[(p.bb * 32 + lane) * 2 + j];
	}
#pragma unroll
	for (int i = 0; i < ILP; i++)
		d[i][0] = d[i][1] = d[i][2] = d[i][3] = 0;	/* 0 is 0.0f too */
	__syncthreads();
	unsigned long long c0 = 0, g0 = 0;
	if (threadIdx.x == 0) {
		g0 = tcp_globaltimer();
		c0 = tcp_clock64();
	}
	for (long long it = 0; it < p.iters; it++) {
		const uint32_t *b = (it & 1) ? b1 : b0;
#pragma unroll
		for (int i = 0; i < ILP; i++)
			mma<KIND>(d[i], a, b);
	}
	__syncthreads();
	if (threadIdx.x == 0) {
		unsigned long long c1 = tcp_clock64(), g1 = tcp_globaltimer();
		p.timing[blockIdx.x * 4 + 0] = c1 - c0;
		p.timing[blockIdx.x * 4 + 1] = g0;
		p.timing[blockIdx.x * 4 + 2] = g1;
		p.timing[blockIdx.x * 4 + 3] = tcp_smid();
	}
	if (p.dump) {
		uint32_t *o = p.dump + ((size_t)(blockIdx.x * (blockDim.x / 32) + warp) * ILP * 32) * 4;
#pragma unroll
		for (int i = 0; i < ILP; i++)
			for (int j = 0; j < 4; j++)
				o[(i * 32 + lane) * 4 + j] = acc_bits(d[i][j]);
	}
}

template <int KIND> static const void *kernel_ilp(int ilp)
{
	switch (ilp) {
	case 1: return (const void *)mma_loop<KIND, 1>;
	case 2: return (const void *)mma_loop<KIND, 2>;
	case 4: return (const void *)mma_loop<KIND, 4>;
	case 8: return (const void *)mma_loop<KIND, 8>;
	}
	return NULL;
}

static const void *kernel_for(int kind, int ilp)
{
	switch (kind) {
	case K_F16: return kernel_ilp<K_F16>(ilp);
	case K_BF16: return kernel_ilp<K_BF16>(ilp);
	case K_TF32: return kernel_ilp<K_TF32>(ilp);
	default: return kernel_ilp<K_S8>(ilp);
	}
}

static int mma_legal(const tcp_point_t *p, char *reason, size_t len)
{
	long long w = p->v[AX_WARPS], i = p->v[AX_ILP];

	if (w < 1 || w > 32) {
		snprintf(reason, len, "warps=%lld out of range, expected 1..32", w);
		return 0;
	}
	if (i != 1 && i != 2 && i != 4 && i != 8) {
		snprintf(reason, len, "ilp=%lld not instantiated, expected 1, 2, 4 or 8", i);
		return 0;
	}
	return 1;
}

struct mma_state {
	int kind, warps, ilp, blocks;
	long long iters;
	const void *kern;
	size_t smem;
	double flop, peak;
	double A[16 * 32], B[2][8 * 32];	/* decoded A (16 x K), B0 and B1 (8 x K) */
	uint32_t *d_afrag, *d_bfrag, *d_dump, *h_dump;
	unsigned long long *d_timing, *h_timing;
	mma_args_t args;
};

/*
 * Fragments, per lane l (g = l/4, c = l%4), for every kind (32 bytes of K):
 * A reg j = row g + 8(j&1), K-bytes 16(j>>1) + 4c..+3; B reg j = column g,
 * K-bytes 16j + 4c..+3; D reg j = row g + 8(j>>1), column 2c + (j&1).
 */
static int make_tiles(struct mma_state *s, uint64_t seed, int pat, uint32_t *afrag, uint32_t *bfrag)
{
	tcp_type_t t = kind_in[s->kind];
	size_t eb = tcp_type_bytes(t);
	int k = kind_k[s->kind];
	uint8_t a[16 * 32], b[3][8 * 32];
	tcp_type_t acc = s->kind == K_S8 ? TCP_T_S32 : TCP_T_F32;
	tcp_rng_t r;

	tcp_rng_seed(&r, seed);
	/* maxfinite: the validation sums 3 steps of k products (4 k: margin) */
	if (tcp_fill_pattern(t, (tcp_pattern_t)pat, acc, 4L * k, (size_t)16 * k, &r, a, s->A) ||
	    tcp_fill_pattern(t, (tcp_pattern_t)pat, acc, 4L * k, (size_t)8 * k, &r, b[0], s->B[0]) ||
	    tcp_fill_pattern(t, (tcp_pattern_t)pat, acc, 4L * k, (size_t)8 * k, &r, b[1], s->B[1]))
		return -1;
	for (int i = 0; i < 8 * k; i++)	/* B2 = -B0 keeps accumulators bounded */
		tcp_encode(t, -s->B[0][i], b[2] + (size_t)i * eb);
	for (int l = 0; l < 32; l++) {
		int g = l / 4, c = l % 4;

		for (int j = 0; j < 4; j++)
			memcpy(&afrag[l * 4 + j], a + (g + 8 * (j & 1)) * 32 + 16 * (j >> 1) + 4 * c, 4);
		for (int tile = 0; tile < 3; tile++)
			for (int j = 0; j < 2; j++)
				memcpy(&bfrag[(tile * 32 + l) * 2 + j], b[tile] + g * 32 + 16 * j + 4 * c, 4);
	}
	return 0;
}

static tcp_status_t mma_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	struct mma_state *s = (struct mma_state *)calloc(1, sizeof(*s));
	uint32_t afrag[32 * 4], bfrag[3 * 32 * 2];
	size_t dump_words;
	double per_step;

	if (!s) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = s;
	if (!mma_legal(p, c->reason, TCP_REASON_LEN))
		return TCP_SKIPPED;
	s->kind = (int)p->v[AX_KIND];
	s->warps = (int)p->v[AX_WARPS];
	s->ilp = (int)p->v[AX_ILP];
	s->blocks = c->sm_count;
	s->kern = kernel_for(s->kind, s->ilp);
	s->smem = (size_t)c->smem_per_block_optin;	/* one CTA per SM */
	s->flop = 2.0 * 16 * 8 * kind_k[s->kind];
	s->peak = tcp_kind_flop_clk_sm(kind_family[s->kind], TCP_GEN_SM90);
	/* ~1M cycles: a step costs at least ~32 cycles (latency) or its share of half the peak */
	per_step = fmax(32.0, s->flop * s->warps * s->ilp / (s->peak / 2));
	s->iters = (long long)ceil(1.0e6 / per_step);
	c->issued_tensor_insts = -1;
	c->work_flop = s->flop * (double)s->iters * s->warps * s->ilp * s->blocks;
	if (make_tiles(s, c->seed, (int)p->v[AX_PAT], afrag, bfrag)) {
		snprintf(c->reason, TCP_REASON_LEN, "pattern %s: no fill for this kind",
			 tcp_pattern_names[p->v[AX_PAT]]);
		return TCP_FAILED;
	}
	dump_words = (size_t)s->blocks * (size_t)s->warps * (size_t)s->ilp * 32 * 4;
	TCP_CUDA_TRY(c, cudaFuncSetAttribute(s->kern, cudaFuncAttributeMaxDynamicSharedMemorySize,
					     (int)s->smem));
	TCP_CUDA_TRY(c, cudaMalloc((void **)&s->d_afrag, sizeof(afrag)));
	TCP_CUDA_TRY(c, cudaMalloc((void **)&s->d_bfrag, sizeof(bfrag)));
	TCP_CUDA_TRY(c, cudaMalloc((void **)&s->d_dump, dump_words * 4));
	TCP_CUDA_TRY(c, cudaMalloc((void **)&s->d_timing, (size_t)s->blocks * 4 * 8));
	TCP_CUDA_TRY(c, cudaMemset(s->d_timing, 0, (size_t)s->blocks * 4 * 8));	/* no copy reads uninitialised slots */
	TCP_CUDA_TRY(c, cudaMemcpy(s->d_afrag, afrag, sizeof(afrag), cudaMemcpyHostToDevice));
	TCP_CUDA_TRY(c, cudaMemcpy(s->d_bfrag, bfrag, sizeof(bfrag), cudaMemcpyHostToDevice));
	s->h_dump = (uint32_t *)malloc(dump_words * 4);
	s->h_timing = (unsigned long long *)malloc((size_t)s->blocks * 4 * 8);
	if (!s->h_dump || !s->h_timing) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	s->args.afrag = s->d_afrag;
	s->args.bfrag = s->d_bfrag;
	s->args.timing = s->d_timing;
	return TCP_OK;
}

static tcp_status_t launch(struct mma_state *s, tcp_ctx_t *c, long long iters, int bb, int dump)
{
	void *params[] = { &s->args };

	s->args.iters = iters;
	s->args.ba = 0;
	s->args.bb = bb;
	s->args.dump = dump ? s->d_dump : NULL;
	TCP_CUDA_TRY(c, cudaLaunchKernel(s->kern, dim3((unsigned)s->blocks), dim3(32u * (unsigned)s->warps),
					 params, s->smem, 0));
	TCP_CUDA_TRY(c, cudaGetLastError());
	TCP_CUDA_TRY(c, cudaMemcpy(s->h_timing, s->d_timing, (size_t)s->blocks * 4 * 8, cudaMemcpyDeviceToHost));
	return TCP_OK;
}

/* Three steps (B0, B1, B0) from zero: every tile of every warp of every SM = 2 A*B0 + A*B1. */
static tcp_status_t mma_validate(void *state, tcp_ctx_t *c)
{
	struct mma_state *s = (struct mma_state *)state;
	tcp_type_t t = kind_in[s->kind], acc = s->kind == K_S8 ? TCP_T_S32 : TCP_T_F32;
	double ref[16 * 8] = { 0 }, mag[16 * 8] = { 0 }, got[16 * 8];
	size_t tiles = (size_t)s->blocks * (size_t)s->warps * (size_t)s->ilp;
	char why[160];
	tcp_status_t st;

	/* poison: an accumulator never written fails even against an all-zero reference */
	TCP_CUDA_TRY(c, cudaMemset(s->d_dump, 0xFF, tiles * 32 * 4 * 4));
	st = launch(s, c, 3, 1, 1);

	if (st != TCP_OK)
		return st;
	TCP_CUDA_TRY(c, cudaMemcpy(s->h_dump, s->d_dump, tiles * 32 * 4 * 4, cudaMemcpyDeviceToHost));
	tcp_ref_gemm(16, 8, kind_k[s->kind], s->A, s->B[0], 2.0, ref, mag);
	tcp_ref_gemm(16, 8, kind_k[s->kind], s->A, s->B[1], 1.0, ref, mag);
	for (size_t tile = 0; tile < tiles; tile++) {
		for (int l = 0; l < 32; l++)
			for (int j = 0; j < 4; j++)
				got[(l / 4 + 8 * (j >> 1)) * 8 + 2 * (l % 4) + (j & 1)] =
					tcp_decode(acc, &s->h_dump[(tile * 32 + (size_t)l) * 4 + (size_t)j]);
		if (tcp_check(16 * 8, 8, got, ref, mag, tcp_tolerance(t, t, acc), why, sizeof(why)) >= 0) {
			snprintf(c->reason, TCP_REASON_LEN, "CTA %zu warp %zu tile %zu: %s",
				 tile / ((size_t)s->warps * (size_t)s->ilp), tile / (size_t)s->ilp % (size_t)s->warps,
				 tile % (size_t)s->ilp, why);
			return TCP_INVALID;
		}
	}
	return TCP_OK;
}

static tcp_status_t mma_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct mma_state *s = (struct mma_state *)state;
	double cyc = 0, mhz = 0, fpc;
	tcp_status_t st = launch(s, c, s->iters, 2, 0);

	if (st != TCP_OK)
		return st;
	for (int b = 0; b < s->blocks; b++) {
		const unsigned long long *tm = s->h_timing + (size_t)b * 4;

		cyc = fmax(cyc, (double)tm[0]);
		if (tm[2] > tm[1])
			mhz += (double)tm[0] / (double)(tm[2] - tm[1]) * 1e3;
	}
	mhz /= s->blocks;
	if (cyc <= 0) {
		snprintf(c->reason, TCP_REASON_LEN, "clock64 did not advance");
		return TCP_INVALID;
	}
	fpc = s->flop * (double)s->iters * s->warps * s->ilp / cyc;
	out->v[0] = cyc / (double)s->iters;
	out->v[1] = fpc;
	out->v[2] = fpc * s->blocks * mhz * 1e6 / 1e12;
	out->v[3] = 100.0 * fpc / s->peak;
	out->v[4] = mhz;
	/* one HMMA/IMMA per mma.sync per warp (not a gmma: the gmma counter stays 0) */
	c->issued_tensor_insts = -1;
	return TCP_OK;
}

static void mma_teardown(void *state)
{
	struct mma_state *s = (struct mma_state *)state;

	if (!s)
		return;
	cudaFree(s->d_afrag);
	cudaFree(s->d_bfrag);
	cudaFree(s->d_dump);
	cudaFree(s->d_timing);
	free(s->h_dump);
	free(s->h_timing);
	free(s);
}

extern "C" const tcp_probe_t tcp_probe_mma_sync = {
	.name = "mma_sync",
	.family = "mma.sync",
	.help = "mma.sync m16n8k{16,8,32} latency (warps=1 ilp=1) and throughput, all SMs",
	.arch = TCP_ARCH_SM90A,
	.axes = axes,
	.naxes = sizeof(axes) / sizeof(axes[0]),
	.metrics = metrics,
	.nmetrics = sizeof(metrics) / sizeof(metrics[0]),
	.legal = mma_legal,
	.setup = mma_setup,
	.validate = mma_validate,
	.run = mma_run,
	.teardown = mma_teardown,
	.unsupported_reason = NULL,
};
