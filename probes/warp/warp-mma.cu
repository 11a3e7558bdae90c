/*
 * warp-mma.cu
 *	Kernels and host engine of the warp-level MMA probes (warp-mma.h): one
 *	loop kernel per form of model/warp-mma.h and ILP, built for every warp
 *	target (Makefile WARP_ARCHS).  A form the target lacks compiles to a
 *	body that only reports "no code" (the host never launches it: setup
 *	checks the loaded code first; the marker is the second line of defence).
 *
 *	PTX spellings: PTX ISA 9.0 mma / mma.sp; the sm_120 block-scaled and
 *	kind::f8f6f4 forms as CUTLASS cute/arch/mma_sm120.hpp and
 *	mma_sm120_sparse.hpp issue them (scale byte-id and thread-id 0); every
 *	one assembled for its targets in the shared arch-matrix (rows 15-18).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/kinds.h"
#include "model/peaks.h"
#include "probes/common/device.cuh"
#include "probes/warp/warp-check.h"
#include "probes/warp/warp-mma.h"

/* What the code being compiled has (arch-matrix.md s.6 macros). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define WARP_HAS_SM80 1
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
#define WARP_HAS_FP8 1
#endif
/* sparse fp8 mma.sp: ptxas 13.0 emulates it on sm_90a and sm_100a (no QMMA.SP; local
 * memory even at ilp 1), so only sm_89 and sm_12x code has it (model: TCP_WREQ_SP_FP8) */
#if WARP_HAS_FP8 && (__CUDA_ARCH__ == 890 || __CUDA_ARCH__ / 100 == 12)
#define WARP_HAS_FP8_SP 1
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ / 100 == 12 &&                                          \
	(defined(__CUDA_ARCH_SPECIFIC__) || defined(__CUDA_ARCH_FAMILY_SPECIFIC__) ||                 \
	 defined(__CUDA_ARCH_FEAT_SM120_ALL) || defined(__CUDA_ARCH_FEAT_SM121_ALL))
#define WARP_HAS_SM12X 1
#endif
#if defined(__CUDA_ARCH_FEAT_SM120_ALL) || defined(__CUDA_ARCH_FEAT_SM121_ALL) ||                     \
	(defined(__CUDA_ARCH_SPECIFIC__) && (__CUDA_ARCH_SPECIFIC__ == 1200 || __CUDA_ARCH_SPECIFIC__ == 1210))
#define WARP_HAS_SM12XA 1
#endif

#define NOCODE 0xFFFFFFFFull	/* timing[3] of a kernel without a body for its form */

/* Accumulators: float for f32 forms, raw 32-bit words for s32 and f16x2. */
template <int F> struct wacc { typedef float t; enum { n = 4 }; };
#define WACC_RAW(F, N) template <> struct wacc<F> { typedef uint32_t t; enum { n = N }; }
WACC_RAW(TCP_WF_F16_F16, 2);
WACC_RAW(TCP_WF_E4M3_F16, 2);
WACC_RAW(TCP_WF_E5M2_F16, 2);
WACC_RAW(TCP_WF_S8_S32, 4);
WACC_RAW(TCP_WF_U8_S32, 4);
WACC_RAW(TCP_WF_SP_S8, 4);

static __device__ __forceinline__ uint32_t acc_bits(float f) { return __float_as_uint(f); }
static __device__ __forceinline__ uint32_t acc_bits(uint32_t u) { return u; }

#define A4 "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3])
#define D4F "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
#define D4R "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
/* scale registers; byte-id and thread-id 0 (CUTLASS mma_sm120.hpp) */
#define SF6 "r"(sfa), "h"(z), "h"(z), "r"(sfb), "h"(z), "h"(z)

#define MMA_D4(INS, DC) asm volatile(INS " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n" \
				     : DC : A4, "r"(b[0]), "r"(b[1]))
#define MMA_D2(INS) asm volatile(INS " {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%0, %1};\n"                 \
				 : "+r"(d[0]), "+r"(d[1]) : A4, "r"(b[0]), "r"(b[1]))
#define MMA_SF(INS) asm volatile(INS " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3}, "   \
				 "{%10}, {%11, %12}, {%13}, {%14, %15};\n" : D4F : A4, "r"(b[0]), "r"(b[1]), SF6)
#define MMA_SP(INS, DC) asm volatile(INS " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, "       \
				     "{%0, %1, %2, %3}, %12, 0x0;\n"                                     \
				     : DC : A4, "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(meta))
#define MMA_SPSF(INS) asm volatile(INS " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, "         \
				   "{%0, %1, %2, %3}, %12, 0x0, {%13}, {%14, %15}, {%16}, {%17, %18};\n"  \
				   : D4F : A4, "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(meta), SF6)

#define SYNC "mma.sync.aligned."
#define SP "mma.sp::ordered_metadata.sync.aligned."
#define BS(KIND, VEC) SYNC "kind::" KIND ".block_scale.scale_vec::" VEC "."

/*
 * wop()
 *	One warp-level MMA of form F into d (nothing when the code being
 *	compiled has no such form: see has_form).
 */
template <int F>
static __device__ __forceinline__ void wop(typename wacc<F>::t *d, const uint32_t *a, const uint32_t *b,
					   uint32_t meta, uint32_t sfa, uint32_t sfb)
{
	const unsigned short z = 0;
	(void)meta, (void)sfa, (void)sfb, (void)z, (void)d, (void)a, (void)b;
#if WARP_HAS_SM80
	if constexpr (F == TCP_WF_F16_F32) { MMA_D4(SYNC "m16n8k16.row.col.f32.f16.f16.f32", D4F); }
	if constexpr (F == TCP_WF_F16_F16) { MMA_D2(SYNC "m16n8k16.row.col.f16.f16.f16.f16"); }
	if constexpr (F == TCP_WF_BF16_F32) { MMA_D4(SYNC "m16n8k16.row.col.f32.bf16.bf16.f32", D4F); }
	if constexpr (F == TCP_WF_TF32_F32) { MMA_D4(SYNC "m16n8k8.row.col.f32.tf32.tf32.f32", D4F); }
	if constexpr (F == TCP_WF_S8_S32) { MMA_D4(SYNC "m16n8k32.row.col.s32.s8.s8.s32", D4R); }
	if constexpr (F == TCP_WF_U8_S32) { MMA_D4(SYNC "m16n8k32.row.col.s32.u8.u8.s32", D4R); }
	if constexpr (F == TCP_WF_SP_F16) { MMA_SP(SP "m16n8k32.row.col.f32.f16.f16.f32", D4F); }
	if constexpr (F == TCP_WF_SP_BF16) { MMA_SP(SP "m16n8k32.row.col.f32.bf16.bf16.f32", D4F); }
	if constexpr (F == TCP_WF_SP_TF32) { MMA_SP(SP "m16n8k16.row.col.f32.tf32.tf32.f32", D4F); }
	if constexpr (F == TCP_WF_SP_S8) { MMA_SP(SP "m16n8k64.row.col.s32.s8.s8.s32", D4R); }
#endif
#if WARP_HAS_FP8
	if constexpr (F == TCP_WF_E4M3_F32) { MMA_D4(SYNC "m16n8k32.row.col.f32.e4m3.e4m3.f32", D4F); }
	if constexpr (F == TCP_WF_E4M3_F16) { MMA_D2(SYNC "m16n8k32.row.col.f16.e4m3.e4m3.f16"); }
	if constexpr (F == TCP_WF_E5M2_F32) { MMA_D4(SYNC "m16n8k32.row.col.f32.e5m2.e5m2.f32", D4F); }
	if constexpr (F == TCP_WF_E5M2_F16) { MMA_D2(SYNC "m16n8k32.row.col.f16.e5m2.e5m2.f16"); }
#endif
#if WARP_HAS_FP8_SP
	if constexpr (F == TCP_WF_SP_E4M3) { MMA_SP(SP "m16n8k64.row.col.f32.e4m3.e4m3.f32", D4F); }
#endif
#if WARP_HAS_SM12X
	if constexpr (F == TCP_WF_E2M1_F32) { MMA_D4(SYNC "kind::f8f6f4.m16n8k32.row.col.f32.e2m1.e2m1.f32", D4F); }
	if constexpr (F == TCP_WF_E2M3_F32) { MMA_D4(SYNC "kind::f8f6f4.m16n8k32.row.col.f32.e2m3.e2m3.f32", D4F); }
	if constexpr (F == TCP_WF_E3M2_F32) { MMA_D4(SYNC "kind::f8f6f4.m16n8k32.row.col.f32.e3m2.e3m2.f32", D4F); }
	if constexpr (F == TCP_WF_MX_E4M3) { MMA_SF(BS("mxf8f6f4", "1X") "m16n8k32.row.col.f32.e4m3.e4m3.f32.ue8m0"); }
	if constexpr (F == TCP_WF_MX_E5M2) { MMA_SF(BS("mxf8f6f4", "1X") "m16n8k32.row.col.f32.e5m2.e5m2.f32.ue8m0"); }
	if constexpr (F == TCP_WF_MX_E2M3) { MMA_SF(BS("mxf8f6f4", "1X") "m16n8k32.row.col.f32.e2m3.e2m3.f32.ue8m0"); }
	if constexpr (F == TCP_WF_MX_E3M2) { MMA_SF(BS("mxf8f6f4", "1X") "m16n8k32.row.col.f32.e3m2.e3m2.f32.ue8m0"); }
	if constexpr (F == TCP_WF_MX_E2M1) { MMA_SF(BS("mxf8f6f4", "1X") "m16n8k32.row.col.f32.e2m1.e2m1.f32.ue8m0"); }
	if constexpr (F == TCP_WF_MXF4) { MMA_SF(BS("mxf4", "2X") "m16n8k64.row.col.f32.e2m1.e2m1.f32.ue8m0"); }
	if constexpr (F == TCP_WF_NVF4_2X) { MMA_SF(BS("mxf4nvf4", "2X") "m16n8k64.row.col.f32.e2m1.e2m1.f32.ue8m0"); }
	if constexpr (F == TCP_WF_NVF4_4X) { MMA_SF(BS("mxf4nvf4", "4X") "m16n8k64.row.col.f32.e2m1.e2m1.f32.ue4m3"); }
	if constexpr (F == TCP_WF_SP_MX_E4M3) {
		MMA_SPSF(SP "kind::mxf8f6f4.block_scale.scale_vec::1X.m16n8k64.row.col.f32.e4m3.e4m3.f32.ue8m0");
	}
#endif
#if WARP_HAS_SM12XA
	if constexpr (F == TCP_WF_SP_NVF4) {
		MMA_SPSF(SP "kind::mxf4nvf4.block_scale.scale_vec::4X.m16n8k128.row.col.f32.e2m1.e2m1.f32.ue4m3");
	}
#endif
}

typedef struct {
	const uint32_t *afrag;		/* [lane][4] */
	const uint32_t *bfrag;		/* [tile 0..2][lane][4]: B0, B1, B2 = -B0 */
	const uint32_t *aux;		/* [lane][3]: metadata word, A-scale, B-scale registers */
	int ba, bb;			/* the two B tiles the loop alternates */
	long long iters;
	uint32_t *dump;			/* NULL or [block][warp][ilp][lane][4] */
	unsigned long long *timing;	/* [block][4]: cycles, globaltimer start, end, smid */
} warp_args_t;

/* Does the code being compiled have form F?  (The same guards as wop().) */
template <int F> struct has_form {
	static constexpr bool v =
#if WARP_HAS_SM80
		F == TCP_WF_F16_F32 || F == TCP_WF_F16_F16 || F == TCP_WF_BF16_F32 || F == TCP_WF_TF32_F32 ||
		F == TCP_WF_S8_S32 || F == TCP_WF_U8_S32 || F == TCP_WF_SP_F16 || F == TCP_WF_SP_BF16 ||
		F == TCP_WF_SP_TF32 || F == TCP_WF_SP_S8 ||
#endif
#if WARP_HAS_FP8
		F == TCP_WF_E4M3_F32 || F == TCP_WF_E4M3_F16 || F == TCP_WF_E5M2_F32 || F == TCP_WF_E5M2_F16 ||
#endif
#if WARP_HAS_FP8_SP
		F == TCP_WF_SP_E4M3 ||
#endif
#if WARP_HAS_SM12X
		(F >= TCP_WF_E2M1_F32 && F <= TCP_WF_NVF4_4X) || F == TCP_WF_SP_MX_E4M3 ||
#endif
#if WARP_HAS_SM12XA
		F == TCP_WF_SP_NVF4 ||
#endif
		false;
};

/* The loop of one point: warps x ilp chains, B alternating between two tiles. */
template <int F, int ILP>
static __device__ __forceinline__ void warp_body(const warp_args_t &p)
{
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	uint32_t a[4], b0[4], b1[4];
	typename wacc<F>::t d[ILP][4];
	const uint32_t meta = p.aux[lane * 3 + 0], sfa = p.aux[lane * 3 + 1], sfb = p.aux[lane * 3 + 2];

	for (int j = 0; j < 4; j++) {
		a[j] = p.afrag[lane * 4 + j];
		b0[j] = p.bfrag[(p.ba * 32 + lane) * 4 + j];
		b1[j] = p.bfrag[(p.bb * 32 + lane) * 4 + j];
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
			wop<F>(d[i], a, b, meta, sfa, sfb);
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
			for (int j = 0; j < wacc<F>::n; j++)
				o[(i * 32 + lane) * 4 + j] = acc_bits(d[i][j]);
	}
}

template <int F, int ILP>
static __global__ void __launch_bounds__(1024, 1) warp_loop(const warp_args_t p)
{
	if constexpr (has_form<F>::v)
		warp_body<F, ILP>(p);
	else if (threadIdx.x == 0)
		p.timing[blockIdx.x * 4 + 3] = NOCODE;
}

/* The kernel table: [form][ilp 1, 2, 4, 8]. */
#define ILPS(F) { (const void *)warp_loop<F, 1>, (const void *)warp_loop<F, 2>, \
		  (const void *)warp_loop<F, 4>, (const void *)warp_loop<F, 8> }
static const void *const kernels[TCP_WF_COUNT][4] = {
	ILPS(TCP_WF_F16_F32), ILPS(TCP_WF_F16_F16), ILPS(TCP_WF_BF16_F32), ILPS(TCP_WF_TF32_F32),
	ILPS(TCP_WF_S8_S32), ILPS(TCP_WF_U8_S32), ILPS(TCP_WF_E4M3_F32), ILPS(TCP_WF_E4M3_F16),
	ILPS(TCP_WF_E5M2_F32), ILPS(TCP_WF_E5M2_F16), ILPS(TCP_WF_E2M1_F32), ILPS(TCP_WF_E2M3_F32),
	ILPS(TCP_WF_E3M2_F32), ILPS(TCP_WF_MX_E4M3), ILPS(TCP_WF_MX_E5M2), ILPS(TCP_WF_MX_E2M3),
	ILPS(TCP_WF_MX_E3M2), ILPS(TCP_WF_MX_E2M1), ILPS(TCP_WF_MXF4), ILPS(TCP_WF_NVF4_2X),
	ILPS(TCP_WF_NVF4_4X), ILPS(TCP_WF_SP_F16), ILPS(TCP_WF_SP_BF16), ILPS(TCP_WF_SP_TF32),
	ILPS(TCP_WF_SP_S8), ILPS(TCP_WF_SP_E4M3), ILPS(TCP_WF_SP_MX_E4M3), ILPS(TCP_WF_SP_NVF4),
};

/* ---- host engine ------------------------------------------------------------ */

extern "C" const tcp_metric_t tcp_warp_metrics[TCP_WARP_NMETRICS] = {
	{ "cycles_per_mma", "cycles", 0, "loop cycles per step of one accumulator chain (latency at warps=1 ilp=1)" },
	{ "flop_per_clk_sm", "FLOP/clk/SM", 1, "2 M N K (PTX K; sparse: logical K) per SM cycle, max cycles over SMs" },
	{ "tflops", "TFLOP/s", 1, "flop_per_clk_sm x SMs x measured SM clock" },
	{ "pct_peak", "%", 1, "of this chip's published dense peak for the form's class (model/peaks.c; "
	  "H200: the wgmma rate; sparse forms can exceed 100)" },
	{ "sm_clock_mhz", "MHz", 1, "clock64 cycles / %globaltimer ns during the loop", TCP_ROLE_CLOCK },
	{ "mma_per_clk_sm", "MMA/clk/SM", 1, "issue rate: warp-level MMA instructions completed per SM cycle" },
	{ "acc_bytes_per_clk_sm", "B/clk/SM", 1, "register-file accumulator traffic: M N x accumulator bytes, read "
	  "and written, per MMA (f32: FLOP/clk/SM / (K/4))" },
	{ "peak_flop_per_clk_sm", "FLOP/clk/SM", 1, "the published dense peak pct_peak is taken against "
	  "(NA: not published for this chip and class)" },
};

extern "C" int tcp_warp_legal_shape(long long w, long long i, char *reason, size_t len)
{
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

struct warp_state {
	int form, warps, ilp, blocks;
	long long iters;
	const void *kern;
	size_t smem;
	double flop, peak;
	tcp_warp_data_t data;
	uint32_t *d_in, *d_dump, *h_dump;
	unsigned long long *d_timing, *h_timing;
	warp_args_t args;
};

/* The rate the iteration count is sized by: the published peak, else the Hopper rate. */
static double sizing_rate(const tcp_warp_form_t *f, double peak)
{
	double r = tcp_kind_flop_clk_sm(f->kind == TCP_KIND_MXF8F6F4 ? TCP_KIND_F8F6F4 : f->kind, TCP_GEN_SM90);

	if (isfinite(peak) && peak > 0)
		return peak;
	return r > 0 ? r : 8192;
}

extern "C" tcp_status_t tcp_warp_setup(int form, int warps, int ilp, int pattern, tcp_ctx_t *c, void **state)
{
	struct warp_state *s = (struct warp_state *)calloc(1, sizeof(*s));
	const tcp_warp_form_t *f = tcp_warp_form(form);
	const int il = ilp == 1 ? 0 : ilp == 2 ? 1 : ilp == 4 ? 2 : 3;
	cudaFuncAttributes fa;
	char why[TCP_REASON_LEN];

	if (!s) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = s;
	c->issued_tensor_insts = -1;	/* HMMA/IMMA/QMMA/OMMA: no CUPTI tensor counter for them here */
	if (!f || !tcp_warp_legal_shape(warps, ilp, c->reason, TCP_REASON_LEN))
		return TCP_SKIPPED;
	s->form = form;
	s->warps = warps;
	s->ilp = ilp;
	s->blocks = c->sm_count;
	s->kern = kernels[form][il];
	/* the code the driver loaded for this GPU: its PTX arch decides the forms */
	TCP_CUDA_TRY(c, cudaFuncGetAttributes(&fa, s->kern));
	int code_cc = fa.ptxVersion ? fa.ptxVersion : fa.binaryVersion;
	if (!tcp_warp_form_legal(form, code_cc, code_cc == c->cc && code_cc >= 90, c->reason, TCP_REASON_LEN))
		return TCP_SKIPPED;
	s->smem = (size_t)c->smem_per_block_optin;	/* one CTA per SM */
	s->flop = tcp_warp_flop(form);
	s->peak = tcp_peak_rate(tcp_peak_find(c->pci_device_id, c->gpu_name), tcp_peak_class(f->kind, f->ab, f->acc),
				why, sizeof(why));
	/* ~1M cycles: a step costs at least ~32 cycles (latency) or its share of half the peak */
	double per_step = fmax(32.0, s->flop * s->warps * s->ilp / (sizing_rate(f, s->peak) / 2));
	s->iters = (long long)ceil(1.0e6 / per_step);
	c->work_flop = s->flop * (double)s->iters * s->warps * s->ilp * s->blocks;
	if (tcp_warp_data_build(&s->data, form, (tcp_pattern_t)pattern, c->seed, c->reason, TCP_REASON_LEN))
		return TCP_FAILED;

	uint32_t aux[32 * 3];
	for (int l = 0; l < 32; l++) {
		aux[l * 3 + 0] = s->data.meta[l];
		aux[l * 3 + 1] = s->data.sfa[l];
		aux[l * 3 + 2] = s->data.sfb[l];
	}
	const size_t na = sizeof(s->data.afrag), nb = sizeof(s->data.bfrag), nx = sizeof(aux);
	size_t dump_words = (size_t)s->blocks * (size_t)s->warps * (size_t)s->ilp * 32 * 4;
	TCP_CUDA_TRY(c, cudaFuncSetAttribute(s->kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)s->smem));
	TCP_CUDA_TRY(c, cudaMalloc((void **)&s->d_in, na + nb + nx));
	TCP_CUDA_TRY(c, cudaMalloc((void **)&s->d_dump, dump_words * 4));
	TCP_CUDA_TRY(c, cudaMalloc((void **)&s->d_timing, (size_t)s->blocks * 4 * 8));
	TCP_CUDA_TRY(c, cudaMemset(s->d_timing, 0, (size_t)s->blocks * 4 * 8));	/* no copy reads uninitialised slots */
	TCP_CUDA_TRY(c, cudaMemcpy(s->d_in, s->data.afrag, na, cudaMemcpyHostToDevice));
	TCP_CUDA_TRY(c, cudaMemcpy((char *)s->d_in + na, s->data.bfrag, nb, cudaMemcpyHostToDevice));
	TCP_CUDA_TRY(c, cudaMemcpy((char *)s->d_in + na + nb, aux, nx, cudaMemcpyHostToDevice));
	s->h_dump = (uint32_t *)malloc(dump_words * 4);
	s->h_timing = (unsigned long long *)malloc((size_t)s->blocks * 4 * 8);
	if (!s->h_dump || !s->h_timing) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	s->args.afrag = s->d_in;
	s->args.bfrag = (const uint32_t *)((const char *)s->d_in + na);
	s->args.aux = (const uint32_t *)((const char *)s->d_in + na + nb);
	s->args.timing = s->d_timing;
	return TCP_OK;
}

static tcp_status_t launch(struct warp_state *s, tcp_ctx_t *c, long long iters, int bb, int dump)
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
	if (s->h_timing[3] == NOCODE) {
		snprintf(c->reason, TCP_REASON_LEN, "the loaded code has no %s kernel body (sm_%d GPU)",
			 tcp_warp_form(s->form)->name, c->cc);
		return TCP_INVALID;
	}
	return TCP_OK;
}

/* Three steps (B0, B1, B0) from zero: every tile of every warp of every SM = 2 A B0 + A B1. */
extern "C" tcp_status_t tcp_warp_validate(void *state, tcp_ctx_t *c)
{
	struct warp_state *s = (struct warp_state *)state;
	double ref[16 * 8], mag[16 * 8];
	size_t tiles = (size_t)s->blocks * (size_t)s->warps * (size_t)s->ilp;
	char why[160];

	/* poison: an accumulator never written fails even against an all-zero reference */
	TCP_CUDA_TRY(c, cudaMemset(s->d_dump, 0xFF, tiles * 32 * 4 * 4));
	tcp_status_t st = launch(s, c, 3, 1, 1);
	if (st != TCP_OK)
		return st;
	TCP_CUDA_TRY(c, cudaMemcpy(s->h_dump, s->d_dump, tiles * 32 * 4 * 4, cudaMemcpyDeviceToHost));
	tcp_warp_reference(&s->data, ref, mag);
	for (size_t tile = 0; tile < tiles; tile++)
		if (tcp_warp_check_dump(s->form, s->h_dump + tile * 32 * 4, ref, mag, why, sizeof(why))) {
			snprintf(c->reason, TCP_REASON_LEN, "%s: CTA %zu warp %zu tile %zu: %s", tcp_warp_form(s->form)->name,
				 tile / ((size_t)s->warps * (size_t)s->ilp), tile / (size_t)s->ilp % (size_t)s->warps,
				 tile % (size_t)s->ilp, why);
			return TCP_INVALID;
		}
	return TCP_OK;
}

extern "C" tcp_status_t tcp_warp_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct warp_state *s = (struct warp_state *)state;
	const tcp_warp_form_t *f = tcp_warp_form(s->form);
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
	double mmas = (double)s->iters * s->warps * s->ilp;
	fpc = s->flop * mmas / cyc;
	out->v[0] = cyc / (double)s->iters;
	out->v[1] = fpc;
	out->v[2] = fpc * s->blocks * mhz * 1e6 / 1e12;
	out->v[3] = isfinite(s->peak) ? 100.0 * fpc / s->peak : NAN;
	out->v[4] = mhz;
	out->v[5] = mmas / cyc;
	out->v[6] = mmas / cyc * TCP_WARP_M * TCP_WARP_N * 2.0 * (tcp_type_bits(f->acc) / 8);
	out->v[7] = s->peak;
	return TCP_OK;
}

extern "C" void tcp_warp_teardown(void *state)
{
	struct warp_state *s = (struct warp_state *)state;

	if (!s)
		return;
	cudaFree(s->d_in);
	cudaFree(s->d_dump);
	cudaFree(s->d_timing);
	free(s->h_dump);
	free(s->h_timing);
	free(s);
}
