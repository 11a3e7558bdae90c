/*
 * wgmma.cuh
 *	Hopper (sm_90a) wgmma device helpers shared by the wgmma probes:
 *	warpgroup fence / commit / wait, descriptors through model/sdesc.h, one
 *	op wrapper per kind (tcp_wg_op<KIND>::ss<N>/rs<N>), and the timed loop
 *	kernel every wgmma probe runs, plus the host plumbing around it
 *	(buffers, launch, validation against wgmma-tile.c's reference).
 *
 *	The loop kernel, per warpgroup: copy the tile image into shared memory,
 *	zero the accumulators, then `iters` iterations of
 *	  LAG = 1:  fence, wgmma (Ba, Bb alternating), commit, wait_group 0:
 *	            a dependent chain, one wgmma per iteration (latency);
 *	  LAG > 1:  fence, wgmma Ba, wgmma Bb, commit, wait_group LAG-1: two
 *	            wgmmas per commit group, LAG-1 groups left in flight
 *	            (throughput; 2 wgmmas per iteration).
 *	Two wgmmas per group is what keeps ptxas pipelining: with one wgmma
 *	per group and wait_group 1 it serialises them (C7515, seen with CUDA
 *	13.0) and emits wait 0 after each.  Thread 0 reads clock64 and
 *	%globaltimer around the loop, after a CTA barrier on both sides, so the
 *	span covers every warpgroup's whole loop.
 */
#ifndef TCP_WGMMA_CUH
#define TCP_WGMMA_CUH

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/sdesc.h"
#include "probes/common/device.cuh"
#include "probes/common/fill.h"
#include "probes/common/wgmma-ops.cuh"
#include "probes/common/wgmma-tile.h"

/* ---- warpgroup synchronisation --------------------------------------------- */

/* Orders this thread's register writes (accumulators, A fragments) before later wgmmas. */
static __device__ __forceinline__ void tcp_wg_fence(void)
{
	asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}

/* Closes the group of wgmmas issued since the last commit. */
static __device__ __forceinline__ void tcp_wg_commit(void)
{
	asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

/* Waits until at most G committed groups are still pending. */
template <int G> static __device__ __forceinline__ void tcp_wg_wait(void)
{
	asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(G) : "memory");
}

/* Generic-proxy smem writes become visible to the tensor core (async proxy). */
static __device__ __forceinline__ void tcp_fence_proxy_async_smem(void)
{
	asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/* Keeps the compiler from moving accumulator reads above a wait_group. */
static __device__ __forceinline__ void tcp_wg_pin(float &r)
{
	asm volatile("" : "+f"(r)::"memory");
}
static __device__ __forceinline__ void tcp_wg_pin(uint32_t &r)
{
	asm volatile("" : "+r"(r)::"memory");
}

/* A K-major no-swizzle descriptor through the model's encoder. */
static __device__ __forceinline__ uint64_t tcp_wg_desc(uint32_t addr, uint32_t lbo, uint32_t sbo)
{
	tcp_sdesc_t d = { addr, lbo, sbo, 0, 0, TCP_SW_NONE };
	uint64_t v = 0;

	tcp_wgdesc_encode(&d, &v);
	return v;
}

/* ---- one wgmma per kind ------------------------------------------------------ */

#define TCP_WG_BITS_F32 32
#define TCP_WG_BITS_S32 32
#define TCP_WG_BITS_F16 16
#define TCP_WG_CON_F32 "+f"
#define TCP_WG_CON_S32 "+r"
#define TCP_WG_CON_F16 "+r"
#define TCP_WG_CAT_(a, b) a##b
#define TCP_WG_CAT(a, b) TCP_WG_CAT_(a, b)
#define TCP_WG_STR_(x) #x
#define TCP_WG_STR(x) TCP_WG_STR_(x)

template <int KIND> struct tcp_wg_op;

/* tcp_wg_op<KIND>: acc_t (float, or uint32_t for f16x2 / s32), bits, ss<N>(), rs<N>(). */
#define TCP_WG_OP(id, ta, tb, td, k, types, tail_ss, tail_rs)                                     \
	template <> struct tcp_wg_op<TCP_WGK_##id> {                                              \
		typedef TCP_WG_CAT(tcp_wg_acc_, td) acc_t;                                       \
		static constexpr int bits = TCP_WG_BITS_##td;                                    \
		template <int N>                                                                 \
		static __device__ __forceinline__ void ss(acc_t *acc, uint64_t da, uint64_t db,  \
							  uint32_t sd)                           \
		{                                                                                \
			TCP_WG_CAT(TCP_WGMMA_SS_A, TCP_WG_BITS_##td)(N, TCP_WG_STR(k), types,    \
								     tail_ss, TCP_WG_CON_##td,   \
								     acc, da, db, sd);           \
		}                                                                                \
		template <int N>                                                                 \
		static __device__ __forceinline__ void rs(acc_t *acc, const uint32_t *a,         \
							  uint64_t db, uint32_t sd)              \
		{                                                                                \
			TCP_WG_CAT(TCP_WGMMA_RS_A, TCP_WG_BITS_##td)(N, TCP_WG_STR(k), types,    \
								     tail_rs, TCP_WG_CON_##td,   \
								     acc, a, db, sd);            \
		}                                                                                \
	};
typedef float tcp_wg_acc_F32;
typedef uint32_t tcp_wg_acc_F16;
typedef uint32_t tcp_wg_acc_S32;
TCP_WG_KINDS(TCP_WG_OP)

/* ---- the loop kernel ------------------------------------------------------------ */

typedef struct {
	const void *image;		/* tile image, global memory */
	uint32_t image_bytes;		/* multiple of 16 */
	uint32_t a_off, a_stride;
	uint32_t ba_off, bb_off;	/* the two B tiles the loop alternates */
	uint32_t lbo, sbo;
	const uint32_t *afrag;		/* RS: [wg][thread][4] */
	uint32_t *dump;			/* NULL, or [block][wg][thread][R] accumulator words */
	unsigned long long *timing;	/* [block][TCP_WG_TSLOTS]: see TCP_WG_T_* */
	long long iters;
	int epi_chunks;			/* epilogue kernels: 64-FFMA chunks per loop iteration */
	float *epi_out;			/* epilogue kernels: one sum per epilogue thread */
} tcp_wg_args_t;

/* Per-CTA timing slots. */
enum {
	TCP_WG_T_CYCLES,		/* the whole loop, every warpgroup */
	TCP_WG_T_G0, TCP_WG_T_G1,	/* %globaltimer at its start and end */
	TCP_WG_T_SMID,
	TCP_WG_T_MMA_CYCLES,		/* epilogue kernels: the wgmma warpgroups' loop */
	TCP_WG_T_EPI_CYCLES,		/* epilogue kernels: the epilogue warpgroup's loop */
	TCP_WG_TSLOTS = 8
};

static __device__ __forceinline__ uint32_t tcp_wg_bits(float f)
{
	return __float_as_uint(f);
}
static __device__ __forceinline__ uint32_t tcp_wg_bits(uint32_t u)
{
	return u;
}

template <int KIND, int N, int RS, int LAG>
static __global__ void __launch_bounds__(128 * TCP_WG_MAX_WG, 1) tcp_wg_loop(const tcp_wg_args_t a)
{
	typedef tcp_wg_op<KIND> op;
	typedef typename op::acc_t acc_t;
	constexpr int R = op::bits == 32 ? N / 2 : N / 4;
	extern __shared__ __align__(128) uint8_t tcp_wg_smem[];
	const int tid = threadIdx.x, wg = tid / 128, t = tid % 128, nwg = blockDim.x / 128;

	for (uint32_t i = tid; i < a.image_bytes / 16; i += blockDim.x)
		((uint4 *)tcp_wg_smem)[i] = ((const uint4 *)a.image)[i];
	tcp_fence_proxy_async_smem();
	__syncthreads();

	const uint32_t base = (uint32_t)__cvta_generic_to_shared(tcp_wg_smem);
	const uint64_t da = tcp_wg_desc(base + a.a_off + (uint32_t)wg * a.a_stride, a.lbo, a.sbo);
	const uint64_t db0 = tcp_wg_desc(base + a.ba_off, a.lbo, a.sbo);
	const uint64_t db1 = tcp_wg_desc(base + a.bb_off, a.lbo, a.sbo);
	uint32_t af[4] = { 0, 0, 0, 0 };
	acc_t acc[R];

	if (RS)
		for (int j = 0; j < 4; j++)
			af[j] = a.afrag[(wg * 128 + t) * 4 + j];
#pragma unroll
	for (int r = 0; r < R; r++)
		acc[r] = 0;
	tcp_wg_fence();
	__syncthreads();

	unsigned long long c0 = 0, g0 = 0;
	if (tid == 0) {
		g0 = tcp_globaltimer();
		c0 = tcp_clock64();
	}
	for (long long it = 0; it < a.iters; it++) {
		tcp_wg_fence();
		if constexpr (LAG == 1) {
			const uint64_t db = (it & 1) ? db1 : db0;

			if constexpr (RS)
				op::template rs<N>(acc, af, db, 1u);
			else
				op::template ss<N>(acc, da, db, 1u);
		} else if constexpr (RS) {
			op::template rs<N>(acc, af, db0, 1u);
			op::template rs<N>(acc, af, db1, 1u);
		} else {
			op::template ss<N>(acc, da, db0, 1u);
			op::template ss<N>(acc, da, db1, 1u);
		}
		tcp_wg_commit();
		tcp_wg_wait<LAG - 1>();
	}
	tcp_wg_wait<0>();
#pragma unroll
	for (int r = 0; r < R; r++)
		tcp_wg_pin(acc[r]);
	__syncthreads();
	if (tid == 0) {
		unsigned long long c1 = tcp_clock64(), g1 = tcp_globaltimer();
		unsigned long long *tm = a.timing + blockIdx.x * TCP_WG_TSLOTS;

		tm[TCP_WG_T_CYCLES] = c1 - c0;
		tm[TCP_WG_T_G0] = g0;
		tm[TCP_WG_T_G1] = g1;
		tm[TCP_WG_T_SMID] = tcp_smid();
	}
	if (a.dump) {
		uint32_t *o = a.dump + ((size_t)(blockIdx.x * nwg + wg) * 128 + t) * R;
#pragma unroll
		for (int r = 0; r < R; r++)
			o[r] = tcp_wg_bits(acc[r]);
	}
}

/* The instantiated kernel for (kind, n, rs), NULL when not instantiated. */
template <int KIND, int LAG, int RS> static inline const void *tcp_wg_kernel_n(int n)
{
	switch (n) {
	case 8: return (const void *)tcp_wg_loop<KIND, 8, RS, LAG>;
	case 16: return (const void *)tcp_wg_loop<KIND, 16, RS, LAG>;
	case 32: return (const void *)tcp_wg_loop<KIND, 32, RS, LAG>;
	case 64: return (const void *)tcp_wg_loop<KIND, 64, RS, LAG>;
	case 96: return (const void *)tcp_wg_loop<KIND, 96, RS, LAG>;
	case 128: return (const void *)tcp_wg_loop<KIND, 128, RS, LAG>;
	case 192: return (const void *)tcp_wg_loop<KIND, 192, RS, LAG>;
	case 256: return (const void *)tcp_wg_loop<KIND, 256, RS, LAG>;
	}
	return NULL;
}

/* WITH_RS = 0 instantiates the SS form only (and returns NULL for rs). */
template <int LAG, int WITH_RS> static inline const void *tcp_wg_kernel(int kind, int n, int rs)
{
	if (rs && !WITH_RS)
		return NULL;
	switch (kind) {
#define TCP_WG_KCASE(id, ta, tb, td, k, types, tail_ss, tail_rs) \
	case TCP_WGK_##id:                                        \
		return rs ? tcp_wg_kernel_n<TCP_WGK_##id, LAG, WITH_RS>(n) \
			  : tcp_wg_kernel_n<TCP_WGK_##id, LAG, 0>(n);
		TCP_WG_KINDS(TCP_WG_KCASE)
#undef TCP_WG_KCASE
	}
	return NULL;
}

/* Is n one of the instantiated N (TCP_WGMMA_NS)? */
static inline int tcp_wg_n_instantiated(long long n)
{
	static const int ns[] = { TCP_WGMMA_NS };

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		if (ns[i] == n)
			return 1;
	return 0;
}

/* ---- the kind and accumulator axes every wgmma probe shares ----------------------- */

/* A/B type pairs (a_b when they differ); the accumulator is its own axis. */
static const char *const tcp_wg_kind_names[] = { "f16", "bf16", "tf32", "e4m3", "e5m2", "e4m3_e5m2",
						 "e5m2_e4m3", "s8", "u8", "s8_u8", "u8_s8", NULL };
static const tcp_type_t tcp_wg_kind_a[] = { TCP_T_F16, TCP_T_BF16, TCP_T_TF32, TCP_T_E4M3, TCP_T_E5M2,
					    TCP_T_E4M3, TCP_T_E5M2, TCP_T_S8, TCP_T_U8, TCP_T_S8, TCP_T_U8 };
static const tcp_type_t tcp_wg_kind_b[] = { TCP_T_F16, TCP_T_BF16, TCP_T_TF32, TCP_T_E4M3, TCP_T_E5M2,
					    TCP_T_E5M2, TCP_T_E4M3, TCP_T_S8, TCP_T_U8, TCP_T_U8, TCP_T_S8 };
static const char *const tcp_wg_acc_names[] = { "f32", "f16", "s32", NULL };
static const tcp_type_t tcp_wg_acc_type[] = { TCP_T_F32, TCP_T_F16, TCP_T_S32 };
static const char *const tcp_wg_src_names[] = { "ss", "rs", NULL };

#define TCP_WG_AXIS_KIND                                                           \
	{ "kind", "A/B element types (a_b when they differ)", tcp_wg_kind_names,    \
	  "f16,bf16,tf32,e4m3,e5m2,e4m3_e5m2,e5m2_e4m3" }
#define TCP_WG_AXIS_ACC                                                                        \
	{ "acc", "accumulator: f32 (float kinds), f16 (f16 and fp8 kinds), s32 (s8/u8 kinds)", \
	  tcp_wg_acc_names, "f32" }

/* The wgmma kind id of (kind, acc) axis values, -1 with a reason when wgmma has no such form. */
static inline int tcp_wg_point_kind(int64_t kind, int64_t acc, char *reason, size_t len)
{
	int k = tcp_wg_kind_find(tcp_wg_kind_a[kind], tcp_wg_kind_b[kind], tcp_wg_acc_type[acc]);

	if (k < 0)
		snprintf(reason, len, "wgmma has no %s inputs with a %s accumulator (f32: float kinds; "
			 "f16: f16 and fp8; s32: s8/u8)", tcp_wg_kind_names[kind], tcp_wg_acc_names[acc]);
	return k;
}

/* The legality every kind x N wgmma probe shares: wgmma has the (kind, acc) form and
 * this build instantiates N.  1, or 0 with a one-line reason. */
static inline int tcp_wg_legal_kind_n(int64_t kind, int64_t acc, int64_t n, char *reason, size_t len)
{
	if (tcp_wg_point_kind(kind, acc, reason, len) < 0)
		return 0;
	if (!tcp_wg_n_instantiated(n)) {
		snprintf(reason, len, "N=%lld not instantiated (legal wgmma N is 8..256; this build has "
			 "8,16,32,64,96,128,192,256)", (long long)n);
		return 0;
	}
	return 1;
}

/* ---- host plumbing ---------------------------------------------------------------- */

typedef struct {
	tcp_wg_tiles_t tiles;
	const void *kern;
	int blocks, nwg, rs, regs;
	int extra_wg;			/* warpgroups launched beyond the nwg wgmma ones (epilogue) */
	size_t smem;
	void *d_image;
	uint32_t *d_afrag, *d_dump, *h_dump;
	unsigned long long *d_timing, *h_timing;
	tcp_wg_args_t args;
	/* from the last launch */
	double cycles_max, ns_span, clock_mhz;
} tcp_wg_run_t;

/*
 * tcp_wg_run_setup()
 *	Fresh tiles from ctx->seed, device buffers, and the kernel's launch
 *	attributes.  `blocks` CTAs of nwg warpgroups; one_per_sm asks for so
 *	much dynamic shared memory that no two CTAs share an SM.
 */
static inline tcp_status_t tcp_wg_run_setup_pattern(tcp_wg_run_t *r, tcp_ctx_t *c, const void *kern,
						     int kind, int n, int nwg, int rs, int blocks,
						     int one_per_sm, int pattern);

static inline tcp_status_t tcp_wg_run_setup(tcp_wg_run_t *r, tcp_ctx_t *c, const void *kern,
					     int kind, int n, int nwg, int rs, int blocks,
					     int one_per_sm)
{
	return tcp_wg_run_setup_pattern(r, c, kern, kind, n, nwg, rs, blocks, one_per_sm,
					TCP_PAT_RANDOM);
}

/* The same with tiles in input pattern `pattern` (fill.h tcp_pattern_t). */
static inline tcp_status_t tcp_wg_run_setup_pattern(tcp_wg_run_t *r, tcp_ctx_t *c, const void *kern,
						     int kind, int n, int nwg, int rs, int blocks,
						     int one_per_sm, int pattern)
{
	cudaFuncAttributes fa;
	size_t dump_words;

	memset(r, 0, sizeof(*r));
	if (!kern) {
		snprintf(c->reason, TCP_REASON_LEN, "no kernel instantiated for this point");
		return TCP_FAILED;
	}
	if (tcp_wg_tiles_make_pattern(&r->tiles, kind, n, nwg, c->seed, pattern)) {
		snprintf(c->reason, TCP_REASON_LEN, "tile setup failed (out of host memory?)");
		return TCP_FAILED;
	}
	r->kern = kern;
	r->blocks = blocks;
	r->nwg = nwg;
	r->rs = rs;
	TCP_CUDA_TRY(c, cudaFuncGetAttributes(&fa, kern));
	r->regs = fa.numRegs;
	/* all the opt-in shared memory (less the kernel's static part): one CTA per SM */
	r->smem = one_per_sm ? (size_t)c->smem_per_block_optin - fa.sharedSizeBytes : r->tiles.bytes;
	if (r->smem < r->tiles.bytes) {
		snprintf(c->reason, TCP_REASON_LEN, "tiles need %u B of shared memory, the GPU has %d",
			 r->tiles.bytes, c->smem_per_block_optin);
		return TCP_FAILED;
	}
	TCP_CUDA_TRY(c, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize,
					     (int)r->smem));
	dump_words = (size_t)blocks * (size_t)nwg * 128 * (size_t)tcp_wg_acc_regs(kind, n);
	TCP_CUDA_TRY(c, cudaMalloc(&r->d_image, r->tiles.bytes));
	TCP_CUDA_TRY(c, cudaMalloc((void **)&r->d_afrag, (size_t)nwg * 128 * 4 * sizeof(uint32_t)));
	TCP_CUDA_TRY(c, cudaMalloc((void **)&r->d_dump, dump_words * sizeof(uint32_t)));
	TCP_CUDA_TRY(c, cudaMalloc((void **)&r->d_timing, (size_t)blocks * TCP_WG_TSLOTS * sizeof(unsigned long long)));
	/* not every slot is written by every kernel: zero them, so no copy reads uninitialised memory */
	TCP_CUDA_TRY(c, cudaMemset(r->d_timing, 0, (size_t)blocks * TCP_WG_TSLOTS * sizeof(unsigned long long)));
	r->h_dump = (uint32_t *)malloc(dump_words * sizeof(uint32_t));
	r->h_timing = (unsigned long long *)malloc((size_t)blocks * TCP_WG_TSLOTS * sizeof(unsigned long long));
	if (!r->h_dump || !r->h_timing) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	TCP_CUDA_TRY(c, cudaMemcpy(r->d_image, r->tiles.image, r->tiles.bytes, cudaMemcpyHostToDevice));
	TCP_CUDA_TRY(c, cudaMemcpy(r->d_afrag, r->tiles.afrag, (size_t)nwg * 128 * 4 * sizeof(uint32_t),
				   cudaMemcpyHostToDevice));
	r->args.image = r->d_image;
	r->args.image_bytes = r->tiles.bytes;
	r->args.a_off = r->tiles.a_off;
	r->args.a_stride = r->tiles.a_stride;
	r->args.ba_off = r->tiles.b0_off;
	r->args.bb_off = r->tiles.b2_off;
	r->args.lbo = r->tiles.lbo;
	r->args.sbo = r->tiles.sbo;
	r->args.afrag = r->d_afrag;
	r->args.timing = r->d_timing;
	return TCP_OK;
}

/* One launch of `iters` loop iterations; dump = 1 keeps the accumulators.
 * Leaves cycles_max (over CTAs), ns_span and clock_mhz (mean over CTAs) in r. */
static inline tcp_status_t tcp_wg_run_launch(tcp_wg_run_t *r, tcp_ctx_t *c, long long iters, int dump)
{
	void *params[] = { &r->args };
	unsigned long long g0 = ~0ull, g1 = 0;
	double mhz = 0;

	r->args.iters = iters;
	r->args.dump = dump ? r->d_dump : NULL;
	TCP_CUDA_TRY(c, cudaLaunchKernel(r->kern, dim3((unsigned)r->blocks),
					 dim3(128u * (unsigned)(r->nwg + r->extra_wg)), params, r->smem, 0));
	TCP_CUDA_TRY(c, cudaGetLastError());
	TCP_CUDA_TRY(c, cudaMemcpy(r->h_timing, r->d_timing,
				   (size_t)r->blocks * TCP_WG_TSLOTS * sizeof(unsigned long long),
				   cudaMemcpyDeviceToHost));
	r->cycles_max = 0;
	for (int b = 0; b < r->blocks; b++) {
		const unsigned long long *tm = r->h_timing + (size_t)b * TCP_WG_TSLOTS;

		r->cycles_max = fmax(r->cycles_max, (double)tm[TCP_WG_T_CYCLES]);
		g0 = tm[TCP_WG_T_G0] < g0 ? tm[TCP_WG_T_G0] : g0;
		g1 = tm[TCP_WG_T_G1] > g1 ? tm[TCP_WG_T_G1] : g1;
		if (tm[TCP_WG_T_G1] > tm[TCP_WG_T_G0])
			mhz += (double)tm[TCP_WG_T_CYCLES] / (double)(tm[TCP_WG_T_G1] - tm[TCP_WG_T_G0]) * 1e3;
	}
	r->ns_span = (double)(g1 - g0);
	r->clock_mhz = mhz / r->blocks;
	return TCP_OK;
}

/*
 * tcp_wg_run_validate()
 *	On fresh random tiles, from zero: 3 chained wgmmas (B0, B1, B0) for
 *	LAG = 1, 2 iterations of (B0, B1) otherwise; every warpgroup of every
 *	CTA checked against the CPU reference.  The timed runs then alternate
 *	B0 and B2 (= -B0).  With one_per_sm, also checks that no two CTAs
 *	shared an SM.
 */
static inline tcp_status_t tcp_wg_run_validate(tcp_wg_run_t *r, tcp_ctx_t *c, int lag, int one_per_sm)
{
	const long iters = lag == 1 ? 3 : 2, n0 = 2, n1 = lag == 1 ? 1 : 2;
	int R = tcp_wg_acc_regs(r->tiles.kind, r->tiles.n);
	tcp_status_t s;
	char why[160];

	/* poison the dump (all-ones: NaN for f32/f16, -1 for s32) so that an
	 * accumulator never written fails even when the reference is all zero */
	TCP_CUDA_TRY(c, cudaMemset(r->d_dump, 0xFF, (size_t)r->blocks * (size_t)r->nwg * 128 *
				   (size_t)R * sizeof(uint32_t)));
	r->args.bb_off = r->tiles.b1_off;
	s = tcp_wg_run_launch(r, c, iters, 1);
	r->args.bb_off = r->tiles.b2_off;
	if (s != TCP_OK)
		return s;
	TCP_CUDA_TRY(c, cudaMemcpy(r->h_dump, r->d_dump,
				   (size_t)r->blocks * (size_t)r->nwg * 128 * (size_t)R * sizeof(uint32_t),
				   cudaMemcpyDeviceToHost));
	for (int w = 0; w < r->nwg; w++)
		if (tcp_wg_check(&r->tiles, w, n0, n1, r->h_dump + (size_t)w * 128 * (size_t)R, r->blocks,
				 (size_t)r->nwg * 128 * (size_t)R, why, sizeof(why))) {
			snprintf(c->reason, TCP_REASON_LEN, "warpgroup %d (%d CTAs, %ld wgmmas): %s", w,
				 r->blocks, n0 + n1, why);
			return TCP_INVALID;
		}
	if (one_per_sm) {
		for (int b = 0; b < r->blocks; b++)
			for (int b2 = b + 1; b2 < r->blocks; b2++)
				if (r->h_timing[b * TCP_WG_TSLOTS + TCP_WG_T_SMID] ==
				    r->h_timing[b2 * TCP_WG_TSLOTS + TCP_WG_T_SMID]) {
					snprintf(c->reason, TCP_REASON_LEN, "CTAs %d and %d shared SM %llu",
						 b, b2, r->h_timing[b * TCP_WG_TSLOTS + TCP_WG_T_SMID]);
					return TCP_INVALID;
				}
	}
	return TCP_OK;
}

static inline void tcp_wg_run_free(tcp_wg_run_t *r)
{
	cudaFree(r->d_image);
	cudaFree(r->d_afrag);
	cudaFree(r->d_dump);
	cudaFree(r->d_timing);
	free(r->h_dump);
	free(r->h_timing);
	tcp_wg_tiles_free(&r->tiles);
	memset(r, 0, sizeof(*r));
}

#endif /* TCP_WGMMA_CUH */
