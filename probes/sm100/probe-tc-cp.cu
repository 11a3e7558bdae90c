/*
 * probe-tc-cp.cu
 *	tcgen05.cp bandwidth, shared memory -> TMEM: every shape (128x256b,
 *	4x256b, 128x128b, 64x128b.warpx2::02_13 / ::01_23, 32x128b.warpx4) and
 *	the decompressing forms (.b8x16.b6x16_p32 6-bit, .b8x16.b4x16_p64
 *	4-bit), cta_group::1 and ::2, one CTA (pair) on the GPU or one per SM.
 *
 *	Timed span (the elected thread of the even CTA; shape, form, cta_group
 *	template parameters, every operand pinned in uniform registers):
 *	  t0, n copies, commit, wait, t1
 *	for two depths n1 < n2 (n2 copies read >= 1 MiB of shared memory, n1 =
 *	n2 / 2), in passes of CP_NDEST copies.  Pass j writes half j & 1 of
 *	2 x CP_NDEST destinations (column offset d x width, an immediate of the
 *	unrolled body) and commits to that half's own mbarrier; before a pass
 *	rewrites a half it waits for that half's previous pass and fences
 *	(tcgen05.fence::after_thread_sync): cp -> cp is not a pipelined pair
 *	(PTX tcgen05 memory consistency), so a copy into columns an earlier
 *	copy writes is ordered only by a completion.  One pass stays in flight
 *	while the other is waited, as production kernels double-buffer (DeepGEMM
 *	sm100 scale-factor stages).  The last commit (multicast for the pair)
 *	and its wait close the window.
 *	The cost per copy is the slope (t(n2) - t(n1)) / (n2 - n1):
 *	the first copy's latency and the commit round trip cancel.  A warm-up
 *	pass of n1 copies runs first and is dropped.
 *	cta_group::2 commits with .multicast::cluster 0b11 and both CTAs wait
 *	on their own barrier (CUTLASS umma_arrive_multicast_2x1SM; DeepGEMM
 *	sm100 GEMMs issue their scale-factor UTCCPs from the MMA thread and
 *	commit the same way).
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
 *	Metrics (median over issuing CTAs):
 *	  smem_bytes_per_clk_sm  shared-memory bytes read per SM clock (from the slope)
 *	  tmem_bytes_per_clk_sm  TMEM bytes written (x2 warpx2, x4 warpx4) per SM clock
 *	  cycles_per_cp          the slope: cycles per copy
 *	  window_cycles          t(n1): the whole window of the shorter depth
 */
#include "probes/sm100/tc-common.cuh"
#include "model/smem-layout.h"

extern "C" const tcp_probe_t tcp_probe_tc_cp;

#define CP_NDEST TCP_AUX_CP_NDEST	/* destinations of one pass (a half of 2 x CP_NDEST) */
#define CP_TMEM_COLS 512

static const char *const shape_names[] = { "128x256b", "4x256b", "128x128b", "64x128b.02_13", "64x128b.01_23",
					   "32x128b.warpx4", NULL };
static const char *const fmt_names[] = { "plain", "b6x16_p32", "b4x16_p64", NULL };
enum { SITE_CP = 0, SITE_PEER, SITE_ACK, SITE_TADDR };
static const char *const sites[] = { "cp commit -> mbarrier", "cp commit -> peer mbarrier (multicast)",
				     "peer ack (remote mbarrier arrive)", "tcgen05.alloc result" };

/* TMEM columns one copy writes from its address (32-bit columns): 256-bit rows 8, 128-bit rows 4. */
static constexpr __host__ __device__ unsigned cp_width_cols(int shape)
{
	return shape == TCP_CP_128X256B || shape == TCP_CP_4X256B ? 8u : 4u;
}
static_assert(2 * CP_NDEST * cp_width_cols(TCP_CP_128X256B) <= CP_TMEM_COLS, "both halves fit the allocation");

struct cp_args {
	tcp_tile_t t;			/* 128 rows x 32 bytes, K-major, no swizzle */
	const uint4 *img;		/* the tile's bytes */
	unsigned img_words;
	int batches1;			/* n1 / CP_NDEST; n2 = 2 n1 */
	int validate;
	unsigned long long budget;
	uint32_t *dump;			/* validate: [128][8] cells */
	unsigned long long *rec;	/* [cta][2]: t(n1), t(n2) */
	unsigned long long *status;
};

struct cp_ops {
	uint64_t desc;
	uint32_t tbase, bar, half0, half1;
	int batches1;
	unsigned long long budget;	/* the half waits' bound, in a register: the kernel parameter was
					 * re-read on the wait's poll path inside the span (check-sass clean-span) */
};

/* One pass: CP_NDEST copies into half H, committed to that half's barrier. */
template <int CG, int SHAPE, int FMT, int H>
static __device__ __forceinline__ void cp_pass(const struct cp_ops &o)
{
TC_UNROLL
	for (int d = 0; d < CP_NDEST; d++)
		tcp_tc_cp<CG, SHAPE, FMT>(o.tbase + (uint32_t)(H * CP_NDEST + d) * cp_width_cols(SHAPE), o.desc);
	tcp_tc_commit<CG, TCP_CAST_LOCAL>(H ? o.half1 : o.half0);
}

/* Before a pass rewrites half h: that half's previous pass complete (its
 * barrier's completion ph[h]), then the fence that orders the new copies
 * after it. */
static __device__ __forceinline__ void cp_half_wait(const struct cp_args &p, const struct cp_ops &o, uint64_t *half,
						     unsigned *ph, int h)
{
	tcp_mbar_wait(&half[h], ph[h] & 1u, o.budget, p.status, SITE_CP);
	ph[h]++;
	tcp_tc_fence_after();
}

/* `batches` passes (batches >= 1), the last commit, its wait; cycles.  ph:
 * completions of each half's barrier consumed so far (across windows). */
template <int CG, int SHAPE, int FMT>
static __device__ __forceinline__ unsigned long long cp_window(const struct cp_args &p, const struct cp_ops &o,
							       uint64_t *bar, uint64_t *half, unsigned *ph,
							       int batches, unsigned phase)
{
	unsigned long long t0 = tcp_clock64();
	cp_pass<CG, SHAPE, FMT, 0>(o);
	if (batches > 1)
		cp_pass<CG, SHAPE, FMT, 1>(o);
	for (int b = 2; b < batches; b += 2) {
		cp_half_wait(p, o, half, ph, 0);
		cp_pass<CG, SHAPE, FMT, 0>(o);
		if (b + 1 < batches) {
			cp_half_wait(p, o, half, ph, 1);
			cp_pass<CG, SHAPE, FMT, 1>(o);
		}
	}
	tcp_tc_commit<CG, CG == 2 ? TCP_CAST_MULTICAST : TCP_CAST_LOCAL>(o.bar);
	tcp_mbar_wait(bar, phase, p.budget, p.status, SITE_CP);
	const unsigned long long t = tcp_clock64() - t0;
	/* outside the window: each half's last completion (done by now: the
	 * final commit covers every copy), consumed so that the half barriers'
	 * phases stay in step with ph; then the next window's copies, which
	 * write the same columns, are ordered after these by the fence */
	cp_half_wait(p, o, half, ph, 0);
	if (batches > 1)
		cp_half_wait(p, o, half, ph, 1);
	return t;
}

/* cta_group::2: the issuer waits (outside its windows) until the odd CTA has
 * seen the same completion, so the odd CTA's barrier is never two phases
 * ahead of its waiter. */
template <int CG>
static __device__ __forceinline__ void cp_peer_ack(const struct cp_args &p, uint64_t *ack, unsigned phase)
{
	if constexpr (CG == 2)
		tcp_mbar_wait(ack, phase, p.budget, p.status, SITE_ACK);
}

template <int CG, int SHAPE, int FMT>
static __global__ void __launch_bounds__(128) cp_kernel(const struct cp_args p)
{
	__shared__ __align__(1024) uint8_t smem[4096];
	__shared__ uint64_t bar, ack, half[2];
	__shared__ uint32_t slot;
	__shared__ struct cp_ops pin;
	const unsigned warp = threadIdx.x / 32;
	const unsigned rank = CG == 2 ? (tcp_cluster_rank() & 1u) : 0u;

	for (unsigned i = threadIdx.x; i < p.img_words && i < sizeof(smem) / 16; i += blockDim.x)
		((uint4 *)smem)[i] = p.img[i];
	tcp_fence_proxy_async_smem();
	if (threadIdx.x == 0) {
		tcp_mbar_init(&bar, 1);
		tcp_mbar_init(&ack, 1);
		tcp_mbar_init(&half[0], 1);
		tcp_mbar_init(&half[1], 1);
		tcp_mbar_init_fence();
	}
	const uint32_t tbase = tc_tmem_prologue<CG>(&slot, CP_TMEM_COLS);
	if (threadIdx.x == 0 && !tcp_tmem_addr_ok(tbase, CP_TMEM_COLS))
		tcp_tc_trap(p.status, TCP_TC_BAD_TADDR, SITE_TADDR, tbase);
	tcp_sdesc_t sd;
	uint64_t desc = 0;
	tcp_tile_desc(&p.t, tcp_smem_u32(smem), 0, &sd);
	tcp_sdesc_encode(&sd, &desc);
	struct cp_ops o;
	o.desc = tc_pin(desc, &pin.desc);
	o.tbase = tc_pin(tbase, &pin.tbase);
	o.bar = tc_pin(tcp_smem_u32(&bar), &pin.bar);
	o.half0 = tc_pin(tcp_smem_u32(&half[0]), &pin.half0);
	o.half1 = tc_pin(tcp_smem_u32(&half[1]), &pin.half1);
	o.batches1 = tc_pin(p.batches1, &pin.batches1);
	o.budget = tc_pin(p.budget, &pin.budget);

	if (warp == 0 && rank == 0) {
		if (tcp_elect_one()) {
			if (p.validate) {
				tcp_tc_cp<CG, SHAPE, FMT>(o.tbase, o.desc);
				tcp_tc_commit<CG, CG == 2 ? TCP_CAST_MULTICAST : TCP_CAST_LOCAL>(o.bar);
				tcp_mbar_wait(&bar, 0, p.budget, p.status, SITE_CP);
				cp_peer_ack<CG>(p, &ack, 0);
			} else {
				unsigned ph[2] = { 0, 0 };
				cp_window<CG, SHAPE, FMT>(p, o, &bar, half, ph, o.batches1, 0);	/* warm-up */
				cp_peer_ack<CG>(p, &ack, 0);
				unsigned long long w1 = cp_window<CG, SHAPE, FMT>(p, o, &bar, half, ph, o.batches1, 1);
				cp_peer_ack<CG>(p, &ack, 1);
				unsigned long long w2 = cp_window<CG, SHAPE, FMT>(p, o, &bar, half, ph, 2 * o.batches1, 0);
				cp_peer_ack<CG>(p, &ack, 0);
				p.rec[blockIdx.x * 2 + 0] = w1;
				p.rec[blockIdx.x * 2 + 1] = w2;
			}
		}
		__syncwarp();
	}
	if constexpr (CG == 2) {
		/* The odd CTA sees each completion on its own barrier (multicast). */
		if (warp == 0 && rank == 1) {
			if (tcp_elect_one()) {
				const uint32_t peer_ack = tcp_mapa(&ack, tcp_cluster_rank() ^ 1u);
				const int n = p.validate ? 1 : 3;
				for (int i = 0; i < n; i++) {
					tcp_mbar_wait(&bar, (unsigned)i & 1u, p.budget, p.status, SITE_PEER);
					tcp_mbar_remote_arrive(peer_ack);
				}
			}
			__syncwarp();
		}
	}
	tc_sync_all<CG>();
	if (p.validate && warp < 4 && rank == 0) {
		uint32_t r[8];
		tcp_tc_ld<TCP_TC_32X32B, 8, 0>(tbase + ((32u * warp) << 16), r);
		tcp_tc_wait_ld();
		for (int j = 0; j < 8; j++)
			p.dump[threadIdx.x * 8 + j] = r[j];
	}
	tc_tmem_epilogue<CG>(tbase, CP_TMEM_COLS);
}

typedef void (*cp_kern_t)(const struct cp_args);
#define CP_FMTS(CG, S) { cp_kernel<CG, S, 0>, cp_kernel<CG, S, 1>, cp_kernel<CG, S, 2> }
#define CP_SHAPES(CG) { CP_FMTS(CG, 0), CP_FMTS(CG, 1), CP_FMTS(CG, 2), CP_FMTS(CG, 3), CP_FMTS(CG, 4), CP_FMTS(CG, 5) }
static const cp_kern_t cp_tab[2][TCP_CP_NSHAPES][3] = { CP_SHAPES(1), CP_SHAPES(2) };

/* TMEM: the two halves of CP_NDEST destinations each (all lanes: the
 * multicast forms fill every lane quarter), in a 512-column allocation;
 * the validation copy lands on the first. */
static void cp_fp(int shape, tcp_tmem_fp_t *fp)
{
	tcp_tmem_fp_init(fp);
	tcp_tmem_fp_append(fp, "dst0", CP_NDEST * cp_width_cols(shape));
	tcp_tmem_fp_append(fp, "dst1", CP_NDEST * cp_width_cols(shape));
	fp->alloc = CP_TMEM_COLS;
}


enum { AX_SHAPE, AX_FMT, AX_CG, AX_GRID };
static const tcp_axis_t axes[] = {
	{ "shape", "tcgen05.cp shape (and multicast form)", shape_names,
	  "128x256b,4x256b,128x128b,64x128b.02_13,64x128b.01_23,32x128b.warpx4" },
	{ "fmt", "plain copy or decompression to 8-bit containers", fmt_names, "plain,b6x16_p32,b4x16_p64" },
	{ "cta_group", "1 or 2 (cluster of 2)", NULL, "[1,2]" },
	{ "grid", "1: one CTA (pair) on the GPU; all: one per SM (pair of SMs)", tc_grid_names, "all" },
};

static const tcp_metric_t metrics[] = {
	{ "smem_bytes_per_clk_sm", "B/clk/SM", 1, "shared-memory bytes read per SM clock (slope of two depths)" },
	{ "tmem_bytes_per_clk_sm", "B/clk/SM", 1, "TMEM bytes written (x2 warpx2, x4 warpx4) per SM clock" },
	{ "cycles_per_cp", "cycles", 0, "slope: cycles per copy between the two depths" },
	{ "window_cycles", "cycles", 0, "whole window of the shorter depth (first copy to commit seen)" },
};

static int cp_legal(const tcp_point_t *p, char *reason, size_t len)
{
	if (p->v[AX_SHAPE] < 0 || p->v[AX_SHAPE] >= TCP_CP_NSHAPES || p->v[AX_FMT] < 0 || p->v[AX_FMT] > 2) {
		snprintf(reason, len, "shape/fmt index out of range");
		return 0;
	}
	if (p->v[AX_CG] != 1 && p->v[AX_CG] != 2) {
		snprintf(reason, len, "cta_group must be 1 or 2; got %lld", (long long)p->v[AX_CG]);
		return 0;
	}
	if (p->v[AX_GRID] < 0 || p->v[AX_GRID] > 1) {
		snprintf(reason, len, "grid index %lld out of range", (long long)p->v[AX_GRID]);
		return 0;
	}
	return 1;
}

static int cp_tmem(const tcp_point_t *p, tcp_tmem_fp_t *fp, char *reason, size_t len)
{
	if (!cp_legal(p, reason, len))
		return -1;
	cp_fp((int)p->v[AX_SHAPE], fp);
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
	const void *k = (const void *)cp_tab[s->cg - 1][s->shape][s->fmt];
	TCP_CUDA_TRY(c, cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)s->smem));
	tcp_status_t st = tc_launch_cluster(c, k, grid, 128, s->smem, s->cg, &s->a);
	return st == TCP_OK ? tc_check_status(c, s->d_status, sites, TC_NELEM(sites)) : st;
}

static tcp_status_t cp_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	struct cp_state *s = (struct cp_state *)calloc(1, sizeof(*s));
	if (!s) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = s;
	tcp_aux_launch_t l;
	if (tc_aux_launch(&tcp_probe_tc_cp, p, c, &l) != TCP_OK)
		return TCP_FAILED;
	s->cg = l.kernel[0];
	s->shape = l.kernel[1];
	s->fmt = l.kernel[2];
	s->grid = l.grid;
	s->a.batches1 = (int)l.arg[0];
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
	tcp_status_t st = tc_recs_alloc(c, (size_t)s->grid * 2, (size_t)s->grid, &s->d_rec, &s->h_rec, &s->tmp,
					&s->d_status);
	if (st != TCP_OK)
		return st;
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_img, sizeof(s->img)));
	TCP_CUDA_TRY(c, cudaMemcpy(s->d_img, s->img, sizeof(s->img), cudaMemcpyHostToDevice));
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_dump, sizeof(s->h_dump)));
	s->a.img = s->d_img;
	s->a.img_words = tcp_tile_bytes(&s->a.t) / 16;
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
	TCP_CUDA_TRY(c, cudaMemcpy(s->h_rec, s->d_rec, (size_t)s->grid * 2 * sizeof(*s->h_rec),
				   cudaMemcpyDeviceToHost));
	const double n1 = (double)s->a.batches1 * CP_NDEST;	/* n2 = 2 n1 */
	int n = 0;
	for (int i = 0; i < s->grid; i += s->cg)	/* cycles per copy, per issuing CTA */
		s->tmp[n++] = ((double)s->h_rec[2 * i + 1] - (double)s->h_rec[2 * i]) / n1;
	double cyc = tc_median(s->tmp, n);
	n = 0;
	for (int i = 0; i < s->grid; i += s->cg)
		s->tmp[n++] = (double)s->h_rec[2 * i];
	double bytes = (double)tcp_tc_cp_bytes(s->shape);
	out->v[0] = cyc > 0 ? bytes / cyc : NAN;
	out->v[1] = cyc > 0 ? bytes * mc[s->shape] / cyc : NAN;
	out->v[2] = cyc;
	out->v[3] = tc_median(s->tmp, n);
	c->issued_tensor_insts = -1;
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
	.help = "tcgen05.cp shared -> TMEM bandwidth per shape (slope of two depths, >= 1 MiB), decompression, cta_group, grid",
	.arch = TCP_ARCH_TCGEN05,
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
	.tmem = cp_tmem,
};
