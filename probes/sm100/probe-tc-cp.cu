/*
 * probe-tc-cp.cu
 *	tcgen05.cp bandwidth, shared memory -> TMEM: every shape (128x256b,
 *	4x256b, 128x128b, 64x128b.warpx2::02_13 / ::01_23, 32x128b.warpx4) and
 *	the decompressing forms (.b8x16.b6x16_p32 6-bit, .b8x16.b4x16_p64
 *	4-bit), cta_group::1 and ::2.  One CTA (pair) per SM (pair of SMs); the
 *	elected thread issues 256 copies back to back into the same TMEM
 *	columns, commits once and waits (bounded).
 *
 *	Validation (plain 128x256b and 128x128b, cta_group::1): random bytes in
 *	a K-major tile built by model/smem-layout.h, one cp, tcgen05.ld 32x32b
 *	back: lane r, column c must hold bytes 4c..4c+3 of row r (the tile's
 *	logical bytes).  Other forms are timed without a content check.
 *
 *	Bytes: smem_bytes = rows x width of the shape read per copy; TMEM bytes
 *	= smem bytes x the multicast factor (warpx2: 2, warpx4: 4).  The
 *	decompressing forms read 16-byte chunks (data + padding) and write 16
 *	bytes of 8-bit containers, so the counts are the same.  For
 *	cta_group::2 each CTA of the pair is counted as receiving one copy from
 *	its own shared memory [?]; figures are per SM.
 *
 *	Metrics:
 *	  smem_bytes_per_clk_sm  shared-memory bytes read per SM clock, median over SMs
 *	  tmem_bytes_per_clk_sm  TMEM bytes written per SM clock
 *	  cycles_per_cp          issue of the first to completion of the last, per copy
 */
#include "probes/sm100/tc-common.cuh"
#include "model/smem-layout.h"

#define CP_ITERS 256

static const char *const shape_names[] = { "128x256b", "4x256b", "128x128b", "64x128b.02_13", "64x128b.01_23",
					   "32x128b.warpx4", NULL };
static const char *const fmt_names[] = { "plain", "b6x16_p32", "b4x16_p64", NULL };
static const char *const sites[] = { "cp commit -> mbarrier" };

struct cp_args {
	tcp_tile_t t;			/* 128 rows x 32 bytes, K-major, no swizzle */
	const uint4 *img;		/* the tile's bytes */
	unsigned img_words;
	int iters, validate;
	unsigned long long budget;
	uint32_t *dump;			/* validate: [128][8] cells */
	unsigned long long *rec;	/* [cta]: cycles */
	unsigned long long *status;
};

template <int CG, int SHAPE, int FMT>
static __global__ void __launch_bounds__(128) cp_kernel(const struct cp_args p)
{
	__shared__ __align__(1024) uint8_t smem[4096];
	__shared__ uint64_t bar;
	__shared__ uint32_t slot;
	const unsigned warp = threadIdx.x / 32;
	const unsigned rank = CG == 2 ? (tcp_cluster_rank() & 1u) : 0u;

	for (unsigned i = threadIdx.x; i < p.img_words && i < sizeof(smem) / 16; i += blockDim.x)
		((uint4 *)smem)[i] = p.img[i];
	tcp_fence_proxy_async_smem();
	if (threadIdx.x == 0) {
		tcp_mbar_init(&bar, 1);
		tcp_mbar_init_fence();
	}
	if (warp == 0)
		tcp_tmem_alloc<CG>(&slot, 32);
	tc_sync_all<CG>();
	const uint32_t tbase = slot;
	tcp_sdesc_t sd;
	uint64_t desc = 0;
	tcp_tile_desc(&p.t, tcp_smem_u32(smem), 0, &sd);
	tcp_sdesc_encode(&sd, &desc);

	if (warp == 0 && rank == 0) {
		if (tcp_elect_one()) {
			int n = p.validate ? 1 : p.iters;
			unsigned long long t0 = tcp_clock64();
			for (int i = 0; i < n; i++)
				tcp_tc_cp<CG, SHAPE, FMT>(tbase, desc);
			if (CG == 1)
				tcp_tc_commit1(&bar);
			else
				tcp_tc_commit2(tcp_mapa(&bar, tcp_cluster_rank()));
			tcp_mbar_wait(&bar, 0, p.budget, p.status, 0);
			p.rec[blockIdx.x] = tcp_clock64() - t0;
		}
		__syncwarp();
	}
	tc_sync_all<CG>();
	if (p.validate && warp < 4 && rank == 0) {
		uint32_t r[8];
		tcp_tc_ld<TCP_TC_32X32B, 8, 0>(tbase + ((32u * warp) << 16), r);
		tcp_tc_wait_ld();
		for (int j = 0; j < 8; j++)
			p.dump[threadIdx.x * 8 + j] = r[j];
	}
	tcp_tc_fence_before();
	__syncthreads();
	if (warp == 0) {
		tcp_tc_fence_after();
		tcp_tmem_dealloc<CG>(tbase, 32);
		tcp_tmem_relinquish<CG>();
	}
	if (CG == 2)
		tcp_cluster_sync();
}

typedef void (*cp_kern_t)(const struct cp_args);
#define CP_FMTS(CG, S) { cp_kernel<CG, S, 0>, cp_kernel<CG, S, 1>, cp_kernel<CG, S, 2> }
#define CP_SHAPES(CG) { CP_FMTS(CG, 0), CP_FMTS(CG, 1), CP_FMTS(CG, 2), CP_FMTS(CG, 3), CP_FMTS(CG, 4), CP_FMTS(CG, 5) }
static const cp_kern_t cp_tab[2][TCP_CP_NSHAPES][3] = { CP_SHAPES(1), CP_SHAPES(2) };

static const tcp_axis_t axes[] = {
	{ "shape", "tcgen05.cp shape (and multicast form)", shape_names,
	  "128x256b,4x256b,128x128b,64x128b.02_13,64x128b.01_23,32x128b.warpx4" },
	{ "fmt", "plain copy or decompression to 8-bit containers", fmt_names, "plain,b6x16_p32,b4x16_p64" },
	{ "cta_group", "1 or 2 (cluster of 2)", NULL, "[1,2]" },
};

static const tcp_metric_t metrics[] = {
	{ "smem_bytes_per_clk_sm", "B/clk/SM", 1, "shared-memory bytes read per SM clock, median over SMs" },
	{ "tmem_bytes_per_clk_sm", "B/clk/SM", 1, "TMEM bytes written (x2 warpx2, x4 warpx4) per SM clock" },
	{ "cycles_per_cp", "cycles", 0, "first issue to completion of the last, per copy" },
};

static int cp_legal(const tcp_point_t *p, char *reason, size_t len)
{
	if (p->v[0] < 0 || p->v[0] >= TCP_CP_NSHAPES || p->v[1] < 0 || p->v[1] > 2) {
		snprintf(reason, len, "shape/fmt index out of range");
		return 0;
	}
	if (p->v[2] != 1 && p->v[2] != 2) {
		snprintf(reason, len, "cta_group must be 1 or 2; got %lld", (long long)p->v[2]);
		return 0;
	}
	return 1;
}

struct cp_state {
	struct cp_args a;
	int shape, fmt, cg, grid;
	size_t smem;	/* dynamic, unused: keeps one CTA per SM */
	uint8_t img[4096];
	uint4 *d_img;
	uint32_t *d_dump, h_dump[128 * 8];
	unsigned long long *d_rec, *h_rec, *d_status;
	double *tmp;
};

static tcp_status_t cp_launch(struct cp_state *s, int grid, tcp_ctx_t *c)
{
	cudaLaunchConfig_t lc = {};
	cudaLaunchAttribute at[1] = {};
	lc.gridDim = dim3((unsigned)grid);
	lc.blockDim = dim3(128);
	lc.dynamicSmemBytes = s->smem;
	at[0].id = cudaLaunchAttributeClusterDimension;
	at[0].val.clusterDim.x = (unsigned)s->cg;
	at[0].val.clusterDim.y = 1;
	at[0].val.clusterDim.z = 1;
	lc.attrs = at;
	lc.numAttrs = 1;
	TCP_CUDA_TRY(c, cudaFuncSetAttribute((const void *)cp_tab[s->cg - 1][s->shape][s->fmt],
					     cudaFuncAttributeMaxDynamicSharedMemorySize, (int)s->smem));
	TCP_CUDA_TRY(c, cudaLaunchKernelEx(&lc, cp_tab[s->cg - 1][s->shape][s->fmt], s->a));
	return tc_check_status(c, s->d_status, sites, TC_NELEM(sites));
}

static tcp_status_t cp_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	struct cp_state *s = (struct cp_state *)calloc(1, sizeof(*s));
	if (!s) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = s;
	s->shape = (int)p->v[0];
	s->fmt = (int)p->v[1];
	s->cg = (int)p->v[2];
	s->a.t = (tcp_tile_t){ TCP_SW_NONE, TCP_MAJOR_K, 8, 0, 128, 32 };
	if (tcp_tile_check(&s->a.t) || tcp_tile_bytes(&s->a.t) > sizeof(s->img)) {
		snprintf(c->reason, TCP_REASON_LEN, "model/smem-layout.h rejects the 128x32-byte source tile");
		return TCP_FAILED;
	}
	/* Fresh random bytes, placed through the model's tile builder. */
	uint64_t r = c->seed | 1;
	for (unsigned row = 0; row < 128; row++)
		for (unsigned k = 0; k < 32; k++) {
			r ^= r << 13;
			r ^= r >> 7;
			r ^= r << 17;
			tcp_bits_put(s->img, tcp_tile_place(&s->a.t, row, k), 8, (uint32_t)(r >> 24) & 0xffu);
		}
	s->grid = c->sm_count - (s->cg == 2 ? c->sm_count % 2 : 0);
	tcp_status_t st = tc_recs_alloc(c, (size_t)s->grid, (size_t)s->grid, &s->d_rec, &s->h_rec, &s->tmp,
					&s->d_status);
	if (st != TCP_OK)
		return st;
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_img, sizeof(s->img)));
	TCP_CUDA_TRY(c, cudaMemcpy(s->d_img, s->img, sizeof(s->img), cudaMemcpyHostToDevice));
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_dump, sizeof(s->h_dump)));
	s->a.img = s->d_img;
	s->a.img_words = tcp_tile_bytes(&s->a.t) / 16;
	s->a.iters = CP_ITERS;
	s->a.budget = tc_budget(c);
	s->smem = tc_exclusive_smem(c, 0, 4096 + 1024);
	s->a.dump = s->d_dump;
	s->a.rec = s->d_rec;
	s->a.status = s->d_status;
	c->issued_tensor_insts = -1;
	return TCP_OK;
}

static tcp_status_t cp_validate(void *state, tcp_ctx_t *c)
{
	struct cp_state *s = (struct cp_state *)state;
	if (s->fmt != 0 || s->cg != 1 || (s->shape != TCP_CP_128X256B && s->shape != TCP_CP_128X128B))
		return TCP_OK;	/* timed without a content check (see the header) */
	s->a.validate = 1;
	tcp_status_t st = cp_launch(s, 1, c);
	s->a.validate = 0;
	if (st != TCP_OK)
		return st;
	TCP_CUDA_TRY(c, cudaMemcpy(s->h_dump, s->d_dump, sizeof(s->h_dump), cudaMemcpyDeviceToHost));
	unsigned cols = s->shape == TCP_CP_128X256B ? 8 : 4;
	for (unsigned lane = 0; lane < 128; lane++)
		for (unsigned col = 0; col < cols; col++) {
			uint32_t want = 0;
			for (unsigned b = 0; b < 4; b++)
				want |= tcp_bits_get(s->img, tcp_tile_place(&s->a.t, lane, 4 * col + b), 8) << (8 * b);
			if (s->h_dump[lane * 8 + col] != want) {
				snprintf(c->reason, TCP_REASON_LEN,
					 "tcgen05.cp %s: lane %u column %u = 0x%08x, expected row %u bytes %u..%u = 0x%08x",
					 shape_names[s->shape], lane, col, s->h_dump[lane * 8 + col], lane, 4 * col,
					 4 * col + 3, want);
				return TCP_INVALID;
			}
		}
	return TCP_OK;
}

static tcp_status_t cp_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct cp_state *s = (struct cp_state *)state;
	static const double mc[TCP_CP_NSHAPES] = { 1, 1, 1, 2, 2, 4 };
	tcp_status_t st = cp_launch(s, s->grid, c);
	if (st != TCP_OK)
		return st;
	TCP_CUDA_TRY(c, cudaMemcpy(s->h_rec, s->d_rec, (size_t)s->grid * sizeof(*s->h_rec),
				   cudaMemcpyDeviceToHost));
	int n = 0;
	for (int i = 0; i < s->grid; i += s->cg)
		if (s->h_rec[i])
			s->tmp[n++] = (double)s->h_rec[i];
	double cyc = tc_median(s->tmp, n);
	double bytes = (double)tcp_tc_cp_bytes(s->shape) * CP_ITERS;
	out->v[0] = bytes / cyc;
	out->v[1] = bytes * mc[s->shape] / cyc;
	out->v[2] = cyc / CP_ITERS;
	return TCP_OK;
}

static void cp_teardown(void *state)
{
	struct cp_state *s = (struct cp_state *)state;
	if (!s)
		return;
	cudaFree(s->d_img);
	cudaFree(s->d_dump);
	tc_recs_free(s->d_rec, s->h_rec, s->tmp, s->d_status);
	free(s);
}

extern "C" const tcp_probe_t tcp_probe_tc_cp = {
	.name = "tc_cp",
	.family = "tcgen05.cp",
	.help = "tcgen05.cp shared -> TMEM bandwidth per shape, multicast form, 6/4-bit decompression, cta_group",
	.arch = TCP_ARCH_SM100A,
	.axes = axes,
	.naxes = TC_NELEM(axes),
	.metrics = metrics,
	.nmetrics = TC_NELEM(metrics),
	.legal = cp_legal,
	.setup = cp_setup,
	.validate = cp_validate,
	.run = cp_run,
	.teardown = cp_teardown,
	.unsupported_reason = NULL,
};
