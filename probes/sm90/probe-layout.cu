/*
 * probe-layout.cu
 *	wgmma_layout: checks the model's shared-memory layouts on silicon.  For
 *	each Hopper swizzle mode (none, 32B, 64B, 128B) and major-ness of A and
 *	B (K or MN; wgmma allows MN for f16/bf16), A (64 x K) and B (N x K) are
 *	placed in shared memory by model/smem-layout.h from fresh random
 *	values, described by model/sdesc.h's wgmma descriptors, and multiplied
 *	by `ksteps` chained wgmma.m64nNk16 (f32 accumulate; each step advances
 *	the start address along K).  The host computes D = A x B with the
 *	reference interpreter (model/ref-interp.c) from the SAME bytes and
 *	descriptors; any element off by more than f32 accumulation error makes
 *	the point INVALID, naming the first one.
 *
 *	Metrics: mismatches (0 = the interpreter's reading of the layout is what
 *	the tensor core does), max_abs_err (largest |device - reference|),
 *	gross_mismatches (errors no accumulation can explain: a layout error, as
 *	opposed to an accumulator less precise than f32).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/ref-interp.h"
#include "model/smem-layout.h"
#include "probes/common/wgmma.cuh"

#define LAYOUT_M	64	/* wgmma M */
#define LAYOUT_K	16	/* wgmma K for f16/bf16 */
#define LAYOUT_MAX_KSTEPS 8

/* ---- the wgmma this probe issues ------------------------------------------- */

/*
 * layout_mma()
 *	One wgmma.m64nNk16, f32 accumulate, A and B from shared memory, through
 *	wgmma-ops.cuh's generated operand lists.  TAIL holds the immediates
 *	after scale-d as text: imm-scale-a, imm-scale-b (1, 1), imm-trans-a
 *	(TA: 1 = A M-major), imm-trans-b (TB: 1 = B N-major); a string cannot
 *	be built from template parameters, so one literal per (TA, TB).
 */
#define LAYOUT_MMA(types)                                                                          \
	do {                                                                                       \
		if constexpr (!TA && !TB)                                                          \
			TCP_WGMMA_SS_A32(N, "16", types, ", 1, 1, 0, 0", "+f", d, da, db, sd);     \
		else if constexpr (!TA)                                                            \
			TCP_WGMMA_SS_A32(N, "16", types, ", 1, 1, 0, 1", "+f", d, da, db, sd);     \
		else if constexpr (!TB)                                                            \
			TCP_WGMMA_SS_A32(N, "16", types, ", 1, 1, 1, 0", "+f", d, da, db, sd);     \
		else                                                                               \
			TCP_WGMMA_SS_A32(N, "16", types, ", 1, 1, 1, 1", "+f", d, da, db, sd);     \
	} while (0)

template <int N, int TA, int TB, int BF16>
static __device__ __forceinline__ void layout_mma(float *d, uint64_t da, uint64_t db, int sd)
{
	if constexpr (BF16)
		LAYOUT_MMA(".f32.bf16.bf16");
	else
		LAYOUT_MMA(".f32.f16.f16");
}
#undef LAYOUT_MMA

/*
 * layout_kernel()
 *	One warpgroup: copy the tile image into 1024-aligned shared memory,
 *	rebase the descriptors' start addresses onto it, run the wgmma chain,
 *	and write D in logical (row-major M x N) order using the wgmma
 *	accumulator fragment layout: register i of thread t holds row
 *	16*(t/32) + (t%32)/4 + 8*((i/2)%2), column 8*(i/4) + 2*(t%4) + i%2.
 */
template <int N, int TA, int TB, int BF16>
static __global__ void __launch_bounds__(128) layout_kernel(const uint8_t *img, unsigned img_bytes,
							    const uint64_t *adesc, const uint64_t *bdesc,
							    int ksteps, float *dout)
{
	extern __shared__ __align__(1024) uint8_t smem[];
	uint32_t base = (uint32_t)__cvta_generic_to_shared(smem);
	uint32_t pad = (1024u - (base & 1023u)) & 1023u;
	uint8_t *tile = smem + pad;
	uint64_t shift = (uint64_t)((base + pad) >> 4);
	float d[N / 2];
	unsigned t = threadIdx.x, w = t / 32, l = t % 32;

	for (unsigned i = t * 16; i < img_bytes; i += 128 * 16)
		*(uint4 *)(tile + i) = *(const uint4 *)(img + i);
	tcp_fence_proxy_async_smem();
	__syncthreads();
#pragma unroll
	for (int i = 0; i < N / 2; i++)
		d[i] = 0.0f;
	tcp_wg_fence();
	for (int s = 0; s < ksteps; s++)
		layout_mma<N, TA, TB, BF16>(d, adesc[s] + shift, bdesc[s] + shift, s > 0);
	tcp_wg_commit();
	tcp_wg_wait<0>();
#pragma unroll
	for (int i = 0; i < N / 2; i++) {
		unsigned row = 16 * w + l / 4 + 8 * ((i / 2) % 2);
		unsigned col = 8 * (i / 4) + 2 * (l % 4) + i % 2;

		dout[row * N + col] = d[i];
	}
}

typedef void (*layout_fn)(const uint8_t *, unsigned, const uint64_t *, const uint64_t *, int, float *);

template <int N> static layout_fn pick_n(int ta, int tb, int bf16)
{
	static const layout_fn fns[8] = {
		layout_kernel<N, 0, 0, 0>, layout_kernel<N, 0, 0, 1>, layout_kernel<N, 0, 1, 0>,
		layout_kernel<N, 0, 1, 1>, layout_kernel<N, 1, 0, 0>, layout_kernel<N, 1, 0, 1>,
		layout_kernel<N, 1, 1, 0>, layout_kernel<N, 1, 1, 1>,
	};
	return fns[ta * 4 + tb * 2 + bf16];
}

static layout_fn pick(int n, int ta, int tb, int bf16)
{
	switch (n) {
	case 64: return pick_n<64>(ta, tb, bf16);
	case 128: return pick_n<128>(ta, tb, bf16);
	case 256: return pick_n<256>(ta, tb, bf16);
	default: return NULL;
	}
}

/* ---- axes, metrics ---------------------------------------------------------- */

static const char *const swizzle_names[] = { "none", "32B", "64B", "128B", NULL };
static const tcp_swizzle_t swizzle_codes[] = { TCP_SW_NONE, TCP_SW_32B, TCP_SW_64B, TCP_SW_128B };
static const char *const major_names[] = { "k", "mn", NULL };
static const char *const ab_names[] = { "f16", "bf16", NULL };

enum { AX_SWIZZLE, AX_A_MAJOR, AX_B_MAJOR, AX_AB, AX_N, AX_KSTEPS };

static const tcp_axis_t axes[] = {
	{ "swizzle", "shared-memory layout of A and B", swizzle_names, "none,32B,64B,128B" },
	{ "a_major", "A K-major or M-major", major_names, "k,mn" },
	{ "b_major", "B K-major or N-major", major_names, "k,mn" },
	{ "ab", "A/B element type", ab_names, "f16,bf16" },
	{ "N", "wgmma N (M = 64, K = 16)", NULL, "[64,128,256]" },
	{ "ksteps", "chained wgmmas along K (start address advances 32 B each)", NULL, "[1,4]" },
};

static const tcp_metric_t metrics[] = {
	{ "mismatches", "count", 0, "D elements off the interpreter's D by more than f32 accumulation error" },
	{ "max_abs_err", "abs", 0, "largest |device D - interpreter D|" },
	{ "gross_mismatches", "count", 0,
	  "D elements off by more than 1/256 of sum |a*b|: a layout error, never rounding" },
};

struct layout_state {
	tcp_tile_t ta, tb;
	tcp_type_t ab;
	int n, ksteps, ta_mn, tb_mn;
	uint32_t boff, img_bytes;
	uint8_t *img;
	uint64_t adesc[LAYOUT_MAX_KSTEPS], bdesc[LAYOUT_MAX_KSTEPS];
	double *ref, *tol, *gross;
	float *h_d;
	uint8_t *d_img;
	uint64_t *d_desc;
	float *d_d;
	layout_fn fn;
	size_t smem;
};

static void tiles_of(const tcp_point_t *p, tcp_tile_t *ta, tcp_tile_t *tb)
{
	tcp_swizzle_t sw = swizzle_codes[p->v[AX_SWIZZLE]];
	unsigned k = LAYOUT_K * (unsigned)p->v[AX_KSTEPS];

	*ta = (tcp_tile_t){ sw, (unsigned)p->v[AX_A_MAJOR], 16, 0, LAYOUT_M, k };
	*tb = (tcp_tile_t){ sw, (unsigned)p->v[AX_B_MAJOR], 16, 0, (unsigned)p->v[AX_N], k };
}

static int layout_legal(const tcp_point_t *p, char *reason, size_t len)
{
	tcp_tile_t ta, tb;

	if (p->v[AX_N] != 64 && p->v[AX_N] != 128 && p->v[AX_N] != 256) {
		snprintf(reason, len, "N must be 64, 128 or 256; got %lld", (long long)p->v[AX_N]);
		return 0;
	}
	if (p->v[AX_KSTEPS] < 1 || p->v[AX_KSTEPS] > LAYOUT_MAX_KSTEPS) {
		snprintf(reason, len, "ksteps must be in [1, %d]; got %lld", LAYOUT_MAX_KSTEPS,
			 (long long)p->v[AX_KSTEPS]);
		return 0;
	}
	tiles_of(p, &ta, &tb);
	if (tcp_tile_check(&ta)) {
		snprintf(reason, len, "A 64 x %u cannot be laid out %s-major with swizzle %s", ta.k,
			 major_names[ta.major], swizzle_names[p->v[AX_SWIZZLE]]);
		return 0;
	}
	if (tcp_tile_check(&tb)) {
		snprintf(reason, len, "B %u x %u cannot be laid out %s-major with swizzle %s (needs N a multiple of %u)",
			 tb.rows, tb.k, major_names[tb.major], swizzle_names[p->v[AX_SWIZZLE]],
			 tcp_tile_rows_unit(&tb));
		return 0;
	}
	return 1;
}

/* A random f16/bf16 bit pattern of magnitude in [1/8, 2), random sign. */
static uint32_t rand_elem(tcp_rng_t *r, tcp_type_t t)
{
	uint64_t x = tcp_rng_u64(r);
	unsigned s = x & 1, e = (unsigned)((x >> 1) % 4);	/* 2^-3 .. 2^0 */

	if (t == TCP_T_BF16)
		return s << 15 | (127 - e) << 7 | (unsigned)((x >> 8) & 0x7F);
	return s << 15 | (15 - e) << 10 | (unsigned)((x >> 8) & 0x3FF);
}

/* Host reference: the interpreter reads the image through each descriptor. */
static tcp_status_t layout_reference(struct layout_state *s, tcp_ctx_t *c)
{
	unsigned n = (unsigned)s->n, nel = LAYOUT_M * n;
	uint32_t *a = (uint32_t *)malloc(sizeof(uint32_t) * LAYOUT_M * LAYOUT_K);
	uint32_t *b = (uint32_t *)malloc(sizeof(uint32_t) * n * LAYOUT_K);
	tcp_ref_mma_t mma = { TCP_KIND_F16, LAYOUT_M, n, LAYOUT_K, s->ab, s->ab, 0, 0, 0, TCP_T_UE8M0 };
	char why[200];

	if (!a || !b) {
		free(a);
		free(b);
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	for (unsigned i = 0; i < nel; i++)
		s->tol[i] = 0;
	for (int k = 0; k < s->ksteps; k++) {
		tcp_ref_operand_t oa = { s->adesc[k], 1, s->ta.major, 16, 0, LAYOUT_M, LAYOUT_K };
		tcp_ref_operand_t ob = { s->bdesc[k], 1, s->tb.major, 16, 0, n, LAYOUT_K };

		if (tcp_ref_read(&oa, s->img, 0, s->img_bytes, a, why, sizeof(why)) ||
		    tcp_ref_read(&ob, s->img, 0, s->img_bytes, b, why, sizeof(why))) {
			free(a);
			free(b);
			snprintf(c->reason, TCP_REASON_LEN, "interpreter: %s", why);
			return TCP_FAILED;
		}
		tcp_ref_mma(&mma, a, b, NULL, NULL, s->ref, k > 0);
		for (unsigned m = 0; m < LAYOUT_M; m++)
			for (unsigned j = 0; j < n; j++)
				for (unsigned kk = 0; kk < LAYOUT_K; kk++)
					s->tol[m * n + j] += fabs(tcp_ref_decode(s->ab, a[m * LAYOUT_K + kk]) *
								  tcp_ref_decode(s->ab, b[j * LAYOUT_K + kk]));
	}
	/* f32 accumulation of K exact products: (K + 2) half-ulps of the magnitude sum;
	 * an error above 1/256 of it cannot come from any accumulation: a layout error */
	for (unsigned i = 0; i < nel; i++) {
		s->gross[i] = s->tol[i] * 0x1p-8;
		s->tol[i] = s->tol[i] * (LAYOUT_K * s->ksteps + 2) * 0x1p-23 + 1e-30;
	}
	free(a);
	free(b);
	return TCP_OK;
}

static tcp_status_t layout_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	struct layout_state *s = (struct layout_state *)calloc(1, sizeof(*s));
	tcp_rng_t rng;

	if (!s) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = s;
	c->issued_tensor_insts = -1;
	if (!layout_legal(p, c->reason, TCP_REASON_LEN))
		return TCP_SKIPPED;
	tiles_of(p, &s->ta, &s->tb);
	s->ab = p->v[AX_AB] ? TCP_T_BF16 : TCP_T_F16;
	s->n = (int)p->v[AX_N];
	s->ksteps = (int)p->v[AX_KSTEPS];
	s->boff = (tcp_tile_bytes(&s->ta) + 1023u) & ~1023u;
	s->img_bytes = s->boff + ((tcp_tile_bytes(&s->tb) + 15u) & ~15u);
	s->img = (uint8_t *)calloc(s->img_bytes, 1);
	s->ref = (double *)calloc((size_t)LAYOUT_M * s->n, sizeof(double));
	s->tol = (double *)calloc((size_t)LAYOUT_M * s->n, sizeof(double));
	s->gross = (double *)calloc((size_t)LAYOUT_M * s->n, sizeof(double));
	s->h_d = (float *)calloc((size_t)LAYOUT_M * s->n, sizeof(float));
	if (!s->img || !s->ref || !s->tol || !s->gross || !s->h_d) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	/* fresh random values, placed by the model's builder */
	tcp_rng_seed(&rng, c->seed);
	for (unsigned r = 0; r < s->ta.rows; r++)
		for (unsigned k = 0; k < s->ta.k; k++)
			tcp_bits_put(s->img, tcp_tile_place(&s->ta, r, k), 16, rand_elem(&rng, s->ab));
	for (unsigned r = 0; r < s->tb.rows; r++)
		for (unsigned k = 0; k < s->tb.k; k++)
			tcp_bits_put(s->img + s->boff, tcp_tile_place(&s->tb, r, k), 16, rand_elem(&rng, s->ab));
	for (int k = 0; k < s->ksteps; k++) {
		tcp_sdesc_t da, db;

		tcp_tile_desc(&s->ta, 0, (unsigned)k, &da);
		tcp_tile_desc(&s->tb, s->boff, (unsigned)k, &db);
		if (tcp_wgdesc_encode(&da, &s->adesc[k]) || tcp_wgdesc_encode(&db, &s->bdesc[k])) {
			snprintf(c->reason, TCP_REASON_LEN, "descriptor not encodable (step %d)", k);
			return TCP_FAILED;
		}
	}
	tcp_status_t st = layout_reference(s, c);
	if (st != TCP_OK)
		return st;
	s->fn = pick(s->n, (int)s->ta.major, (int)s->tb.major, s->ab == TCP_T_BF16);
	s->smem = s->img_bytes + 1024;
	TCP_CUDA_TRY(c, cudaFuncSetAttribute((const void *)s->fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
					     (int)s->smem));
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_img, s->img_bytes));
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_desc, sizeof(uint64_t) * 2 * LAYOUT_MAX_KSTEPS));
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_d, sizeof(float) * LAYOUT_M * s->n));
	TCP_CUDA_TRY(c, cudaMemcpy(s->d_img, s->img, s->img_bytes, cudaMemcpyHostToDevice));
	TCP_CUDA_TRY(c, cudaMemcpy(s->d_desc, s->adesc, sizeof(s->adesc), cudaMemcpyHostToDevice));
	TCP_CUDA_TRY(c, cudaMemcpy(s->d_desc + LAYOUT_MAX_KSTEPS, s->bdesc, sizeof(s->bdesc),
				   cudaMemcpyHostToDevice));
	return TCP_OK;
}

/* Launch once, compare every element; fills the metrics and names the first mismatch. */
static tcp_status_t layout_once(struct layout_state *s, tcp_ctx_t *c, double *mism, double *maxerr,
				double *gross)
{
	static const char *const sw_names[] = { "none", "?", "128B", "?", "64B", "?", "32B" };
	unsigned nel = LAYOUT_M * (unsigned)s->n;
	long bad = 0, nbig = 0;
	double worst = 0;

	TCP_CUDA_TRY(c, cudaMemset(s->d_d, 0xFF, sizeof(float) * nel));	/* NaN: unwritten shows */
	s->fn<<<1, 128, s->smem>>>(s->d_img, s->img_bytes, s->d_desc, s->d_desc + LAYOUT_MAX_KSTEPS,
				   s->ksteps, s->d_d);
	TCP_CUDA_TRY(c, cudaGetLastError());
	TCP_CUDA_TRY(c, cudaDeviceSynchronize());
	TCP_CUDA_TRY(c, cudaMemcpy(s->h_d, s->d_d, sizeof(float) * nel, cudaMemcpyDeviceToHost));
	for (unsigned i = 0; i < nel; i++) {
		double e = fabs((double)s->h_d[i] - s->ref[i]);

		if (!(e <= s->tol[i])) {
			if (!bad)
				snprintf(c->reason, TCP_REASON_LEN,
					 "D[%u][%u] = %.9g, interpreter says %.9g (tolerance %.3g); swizzle %s, A %s-major, B %s-major",
					 i / (unsigned)s->n, i % (unsigned)s->n, (double)s->h_d[i], s->ref[i],
					 s->tol[i], sw_names[s->ta.layout], major_names[s->ta.major],
					 major_names[s->tb.major]);
			bad++;
		}
		if (!(e <= s->gross[i]))
			nbig++;
		if (!(e <= worst))
			worst = e;	/* NaN propagates as the worst */
	}
	*mism = (double)bad;
	*maxerr = worst;
	*gross = (double)nbig;
	return bad ? TCP_INVALID : TCP_OK;
}

static tcp_status_t layout_validate(void *state, tcp_ctx_t *c)
{
	double m, e, g;

	return layout_once((struct layout_state *)state, c, &m, &e, &g);
}

static tcp_status_t layout_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	tcp_status_t st = layout_once((struct layout_state *)state, c, &out->v[0], &out->v[1], &out->v[2]);

	/* a mismatch is a result (the metric), not a failure of the run */
	return st == TCP_INVALID ? TCP_OK : st;
}

static void layout_teardown(void *state)
{
	struct layout_state *s = (struct layout_state *)state;

	if (!s)
		return;
	cudaFree(s->d_img);
	cudaFree(s->d_desc);
	cudaFree(s->d_d);
	free(s->img);
	free(s->ref);
	free(s->tol);
	free(s->gross);
	free(s->h_d);
	free(s);
}

extern "C" const tcp_probe_t tcp_probe_wgmma_layout = {
	.name = "wgmma_layout",
	.family = "wgmma",
	.help = "model's smem layouts + reference interpreter vs real wgmma (every swizzle x major)",
	.arch = TCP_ARCH_SM90A,
	.axes = axes,
	.naxes = sizeof(axes) / sizeof(axes[0]),
	.metrics = metrics,
	.nmetrics = sizeof(metrics) / sizeof(metrics[0]),
	.legal = layout_legal,
	.setup = layout_setup,
	.validate = layout_validate,
	.run = layout_run,
	.teardown = layout_teardown,
	.unsupported_reason = NULL,
};
