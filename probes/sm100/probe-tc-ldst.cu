/*
 * probe-tc-ldst.cu
 *	tcgen05.ld / tcgen05.st: bandwidth between TMEM and registers for every
 *	shape and .num, packed (.pack::16b / .unpack::16b) or not, with 1..4
 *	warpgroups per SM; and the latency of one tcgen05.ld to wait::ld.
 *
 *	One CTA per SM (512 TMEM columns), 128 x warpgroups threads.  Warp w
 *	touches only its lane quarter 32 (w % 4) (the access restriction,
 *	facts s.4); warpgroup g starts at column g x cols(shape, num) mod 512.
 *	Each timed iteration is one access plus its wait::ld / wait::st, so with
 *	one warpgroup the figure is latency-bound and more warpgroups show where
 *	the TMEM port saturates.
 *
 *	Validation before timing (one CTA, 4 warps): cells are written with
 *	32x32b (thread t = lane t, register r = column r) holding a hash of
 *	(lane, column); the probed shape then loads them and every register is
 *	compared with the cell model/tmem.h's tcp_ld_map() names; for the
 *	packed forms a st.unpack::16b -> ld.pack::16b round trip must return
 *	what was stored.  Any mismatch marks the point INVALID with the first
 *	bad (thread, register).  This is also the check of the model's [?]
 *	16x64b mapping on real silicon.
 *
 *	Metrics:
 *	  reg_bytes_per_clk_sm   register bytes moved per SM clock (median over SMs)
 *	  ld_latency_cycles      one tcgen05.ld to the end of wait::ld (warp 0, median over SMs)
 */
#include "probes/sm100/tc-common.cuh"

#define LDST_ITERS 256

static const char *const shape_names[] = { "32x32b", "16x64b", "16x128b", "16x256b", "16x32bx2", NULL };
static const char *const op_names[] = { "ld", "st", NULL };
static const char *const sites[] = { "none" };

/* Value stored in TMEM cell (lane, col) for the validation pass. */
static __host__ __device__ __forceinline__ uint32_t ldst_hash(unsigned lane, unsigned col)
{
	uint32_t h = lane * 0x9E3779B1u ^ (col + 0x7F4A7C15u) * 0x85EBCA77u;
	return h ^ (h >> 15);
}

/* Columns one access spans, including 16x32bx2's second half (offset NUM). */
static __host__ __device__ __forceinline__ unsigned ldst_span(int shape, int num)
{
	return shape == TCP_TC_16X32BX2 ? 2u * (unsigned)num : tcp_ld_cols((tcp_ld_shape_t)shape, (unsigned)num);
}

/* 128 registers per thread of data need more than the 128 a 512-thread CTA
 * leaves: those forms run with at most 2 warpgroups (ldst_legal()). */
#define LDST_MAX_THREADS(NR) ((NR) > 64 ? 256 : 512)

enum { MODE_VALIDATE = 0, MODE_LD = 1, MODE_ST = 2 };

/*
 * ldst_kernel<S, NUM, P>(mode, out, sink)
 *	One kernel per (shape, .num, pack), the mode chosen at run time so that
 *	the build stays small.
 *	MODE_VALIDATE (1 CTA, 4 warps): out[(warp * 32 + t) * nreg + r] =
 *	  register r of thread t after the probed ld of the hash pattern written
 *	  with 32x32b (P = 0), or after st.unpack + ld.pack of the pattern (P = 1).
 *	MODE_LD / MODE_ST (one CTA per SM): out[blockIdx.x * 2] = cycles of the
 *	  timed loop (max warp end - min warp start), [+1] = one ld's latency.
 */
template <int S, int NUM, int P>
static __global__ void __launch_bounds__(LDST_MAX_THREADS(tcp_tc_shape_base(S) * NUM))
	ldst_kernel(int mode, unsigned long long *out, uint32_t *val, uint32_t *sink)
{
	constexpr int NR = tcp_tc_shape_base(S) * NUM;
	__shared__ uint32_t slot;
	__shared__ unsigned long long t_start, t_end;
	const unsigned warp = threadIdx.x / 32, t = threadIdx.x % 32, wg = warp / 4;
	const uint32_t lane0 = 32u * (warp % 4);
	uint32_t r[NR], acc = 0;

	if (warp == 0)
		tcp_tmem_alloc<1>(&slot, 512);
	if (threadIdx.x == 0) {
		t_start = ~0ull;
		t_end = 0;
	}
	tcp_tc_fence_before();
	__syncthreads();
	tcp_tc_fence_after();
	const uint32_t base = slot;

	if (mode == MODE_VALIDATE) {
		if (warp < 4) {
			if (!P) {
				/* The pattern through the mapping PTX states plainly (32x32b). */
#pragma unroll 1
				for (unsigned c = 0; c < 512; c++) {
					uint32_t w = ldst_hash(lane0 + t, c);
					tcp_tc_st<TCP_TC_32X32B, 1, 0>(base + (lane0 << 16) + c, &w);
				}
				tcp_tc_wait_st();
			} else {
#pragma unroll
				for (int j = 0; j < NR; j++)
					r[j] = ldst_hash(lane0 + t, j);
				tcp_tc_st<S, NUM, 1>(base + (lane0 << 16), r);
				tcp_tc_wait_st();
			}
#pragma unroll
			for (int j = 0; j < NR; j++)
				r[j] = 0;
			tcp_tc_ld<S, NUM, P>(base + (lane0 << 16), r);
			tcp_tc_wait_ld();
#pragma unroll
			for (int j = 0; j < NR; j++)
				val[threadIdx.x * NR + j] = r[j];
		}
	} else {
#pragma unroll
		for (int j = 0; j < NR; j++)
			r[j] = t * 131u + (unsigned)j;
		const unsigned span = ldst_span(S, NUM);
		unsigned col = (wg * span) % 512u;
		if (col + span > 512u)
			col = 0;
		const uint32_t addr = base + (lane0 << 16) + col;
		unsigned long long lat = 0;
		if (warp == 0) {	/* latency of one ld, warm TMEM */
			tcp_tc_ld<S, NUM, P>(addr, r);
			tcp_tc_wait_ld();
			unsigned long long l0 = tcp_clock64();
			tcp_tc_ld<S, NUM, P>(addr, r);
			tcp_tc_wait_ld();
			acc ^= r[0];
			lat = tcp_clock64() - l0;
		}
		__syncthreads();
		unsigned long long t0 = tcp_clock64();
		if (mode == MODE_ST) {
#pragma unroll 1
			for (int i = 0; i < LDST_ITERS; i++) {
				tcp_tc_st<S, NUM, P>(addr, r);
				tcp_tc_wait_st();
			}
		} else {
#pragma unroll 1
			for (int i = 0; i < LDST_ITERS; i++) {
				tcp_tc_ld<S, NUM, P>(addr, r);
				tcp_tc_wait_ld();
				acc += r[0] ^ r[NR - 1];
			}
		}
		unsigned long long t1 = tcp_clock64();
		atomicMin(&t_start, t0);
		atomicMax(&t_end, t1);
		if (acc == 0x5eed5eedu && lat == 1)	/* never true: keeps the loads live */
			sink[0] = acc;
		__syncthreads();
		if (threadIdx.x == 0) {
			out[blockIdx.x * 2 + 0] = t_end - t_start;
			out[blockIdx.x * 2 + 1] = lat;
		}
	}
	tcp_tc_fence_before();
	__syncthreads();
	if (warp == 0) {
		tcp_tc_fence_after();
		tcp_tmem_dealloc<1>(base, 512);
		tcp_tmem_relinquish<1>();
	}
}

/* ---- the kernel table: [shape][pack][log2 num] ------------------------------ */

typedef void (*ldst_k_t)(int, unsigned long long *, uint32_t *, uint32_t *);
#define LDST_NUMS_B1(S, P) ldst_kernel<S, 1, P>, ldst_kernel<S, 2, P>, ldst_kernel<S, 4, P>, \
	ldst_kernel<S, 8, P>, ldst_kernel<S, 16, P>, ldst_kernel<S, 32, P>, ldst_kernel<S, 64, P>, \
	ldst_kernel<S, 128, P>
#define LDST_NUMS_B2(S, P) ldst_kernel<S, 1, P>, ldst_kernel<S, 2, P>, ldst_kernel<S, 4, P>, \
	ldst_kernel<S, 8, P>, ldst_kernel<S, 16, P>, ldst_kernel<S, 32, P>, ldst_kernel<S, 64, P>, NULL
#define LDST_NUMS_B4(S, P) ldst_kernel<S, 1, P>, ldst_kernel<S, 2, P>, ldst_kernel<S, 4, P>, \
	ldst_kernel<S, 8, P>, ldst_kernel<S, 16, P>, ldst_kernel<S, 32, P>, NULL, NULL

static const ldst_k_t ldst_table[TCP_TC_NSHAPES][2][8] = {
	{ { LDST_NUMS_B1(TCP_TC_32X32B, 0) }, { LDST_NUMS_B1(TCP_TC_32X32B, 1) } },
	{ { LDST_NUMS_B1(TCP_TC_16X64B, 0) }, { LDST_NUMS_B1(TCP_TC_16X64B, 1) } },
	{ { LDST_NUMS_B2(TCP_TC_16X128B, 0) }, { LDST_NUMS_B2(TCP_TC_16X128B, 1) } },
	{ { LDST_NUMS_B4(TCP_TC_16X256B, 0) }, { LDST_NUMS_B4(TCP_TC_16X256B, 1) } },
	{ { LDST_NUMS_B1(TCP_TC_16X32BX2, 0) }, { LDST_NUMS_B1(TCP_TC_16X32BX2, 1) } },
};

/* ---- host side ---------------------------------------------------------------- */

enum { AX_SHAPE, AX_NUM, AX_PACK, AX_WG, AX_OP };

static const tcp_axis_t axes[] = {
	{ "shape", "tcgen05.ld/st shape", shape_names, "32x32b,16x64b,16x128b,16x256b,16x32bx2" },
	{ "num", ".num repeat (x1..x128, at most 128 registers per thread)", NULL, "[1,2,4,8,16,32,64,128]" },
	{ "pack", "1 = .pack::16b (ld) / .unpack::16b (st)", NULL, "[0,1]" },
	{ "warpgroups", "warpgroups per SM issuing accesses", NULL, "[1,2,4]" },
	{ "op", "ld or st", op_names, "ld,st" },
};

static const tcp_metric_t metrics[] = {
	{ "reg_bytes_per_clk_sm", "B/clk/SM", 1, "register bytes moved per SM clock, median over SMs" },
	{ "ld_latency_cycles", "cycles", 0, "one tcgen05.ld to the end of wait::ld, median over SMs" },
};

static int log2i(long long v)
{
	int l = 0;
	while (v > 1) {
		v >>= 1;
		l++;
	}
	return l;
}

static int ldst_legal(const tcp_point_t *p, char *reason, size_t len)
{
	long long sh = p->v[AX_SHAPE], num = p->v[AX_NUM], wg = p->v[AX_WG];
	if (sh < 0 || sh >= TCP_TC_NSHAPES) {
		snprintf(reason, len, "shape index %lld out of range", sh);
		return 0;
	}
	if (num < 1 || num > 128 || (num & (num - 1)) ||
	    !tcp_ld_regs((tcp_ld_shape_t)sh, (unsigned)num)) {
		snprintf(reason, len, "%s.x%lld needs %lld registers per thread; .num must be a power of two with at most 128 registers",
			 shape_names[sh], num, num * (long long)tcp_tc_shape_base((int)sh));
		return 0;
	}
	if (p->v[AX_PACK] < 0 || p->v[AX_PACK] > 1) {
		snprintf(reason, len, "pack must be 0 or 1; got %lld", (long long)p->v[AX_PACK]);
		return 0;
	}
	if (wg < 1 || wg > 4) {
		snprintf(reason, len, "warpgroups must be in [1, 4]; got %lld", wg);
		return 0;
	}
	if (128 * wg > LDST_MAX_THREADS(num * tcp_tc_shape_base((int)sh))) {
		snprintf(reason, len, "%s.x%lld (128 registers per thread) runs with at most %d warpgroups; got %lld",
			 shape_names[sh], num, LDST_MAX_THREADS(num * tcp_tc_shape_base((int)sh)) / 128, wg);
		return 0;
	}
	if (ldst_span((int)sh, (int)num) > 512) {
		snprintf(reason, len, "%s.x%lld spans more than 512 TMEM columns", shape_names[sh], num);
		return 0;
	}
	return 1;
}

struct ldst_state {
	int shape, num, pack, wg, op, nreg, ctas;
	size_t smem;	/* dynamic, unused: keeps one CTA per SM */
	ldst_k_t k;
	unsigned long long *d_out, *h_out, *d_status;
	uint32_t *d_val, *h_val, *d_sink;
	double *tmp;
};

static tcp_status_t ldst_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	struct ldst_state *s = (struct ldst_state *)calloc(1, sizeof(*s));
	if (!s) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = s;
	s->shape = (int)p->v[AX_SHAPE];
	s->num = (int)p->v[AX_NUM];
	s->pack = (int)p->v[AX_PACK];
	s->wg = (int)p->v[AX_WG];
	s->op = (int)p->v[AX_OP];
	s->nreg = (int)tcp_ld_regs((tcp_ld_shape_t)s->shape, (unsigned)s->num);
	s->ctas = c->sm_count;
	s->smem = tc_exclusive_smem(c, 0, 1024);
	s->k = ldst_table[s->shape][s->pack][log2i(s->num)];
	if (!s->k) {
		snprintf(c->reason, TCP_REASON_LEN, "no kernel for %s.x%d", shape_names[s->shape], s->num);
		return TCP_FAILED;
	}
	s->h_out = (unsigned long long *)calloc((size_t)s->ctas * 2, sizeof(*s->h_out));
	s->h_val = (uint32_t *)calloc((size_t)128 * s->nreg, sizeof(*s->h_val));
	s->tmp = (double *)calloc((size_t)s->ctas, sizeof(double));
	if (!s->h_out || !s->h_val || !s->tmp) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_out, (size_t)s->ctas * 2 * sizeof(*s->d_out)));
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_val, (size_t)128 * s->nreg * sizeof(*s->d_val)));
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_sink, sizeof(uint32_t)));
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_status, sizeof(*s->d_status)));
	TCP_CUDA_TRY(c, cudaMemset(s->d_status, 0, sizeof(*s->d_status)));
	c->issued_tensor_insts = -1;
	return TCP_OK;
}

static tcp_status_t ldst_validate(void *state, tcp_ctx_t *c)
{
	struct ldst_state *s = (struct ldst_state *)state;
	s->k<<<1, 128>>>(MODE_VALIDATE, s->d_out, s->d_val, s->d_sink);
	tcp_status_t st = tc_check_status(c, s->d_status, sites, TC_NELEM(sites));
	if (st != TCP_OK)
		return st;
	TCP_CUDA_TRY(c, cudaMemcpy(s->h_val, s->d_val, (size_t)128 * s->nreg * sizeof(uint32_t),
				   cudaMemcpyDeviceToHost));
	for (unsigned th = 0; th < 128; th++) {
		unsigned warp = th / 32, t = th % 32;
		for (int r = 0; r < s->nreg; r++) {
			uint32_t got = s->h_val[th * s->nreg + r], want;
			unsigned lane, col;
			if (s->pack) {
				want = ldst_hash(32 * warp + t, (unsigned)r);
			} else {
				if (tcp_ld_map((tcp_ld_shape_t)s->shape, (unsigned)s->num, (unsigned)s->num, t,
					       (unsigned)r, &lane, &col)) {
					snprintf(c->reason, TCP_REASON_LEN, "model/tmem.h has no mapping for %s.x%d",
						 shape_names[s->shape], s->num);
					return TCP_FAILED;
				}
				want = ldst_hash(32 * warp + lane, col);
			}
			if (got != want) {
				snprintf(c->reason, TCP_REASON_LEN,
					 "%s.x%d%s: warp %u thread %u reg %d = 0x%08x, expected 0x%08x (%s)",
					 shape_names[s->shape], s->num, s->pack ? ".pack::16b" : "", warp, t, r,
					 got, want,
					 s->pack ? "st.unpack -> ld.pack round trip" : "cell named by tcp_ld_map");
				return TCP_INVALID;
			}
		}
	}
	return TCP_OK;
}

static tcp_status_t ldst_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct ldst_state *s = (struct ldst_state *)state;
	TCP_CUDA_TRY(c, cudaFuncSetAttribute((const void *)s->k, cudaFuncAttributeMaxDynamicSharedMemorySize,
					     (int)s->smem));
	s->k<<<s->ctas, 128 * s->wg, s->smem>>>(s->op ? MODE_ST : MODE_LD, s->d_out, s->d_val, s->d_sink);
	tcp_status_t st = tc_check_status(c, s->d_status, sites, TC_NELEM(sites));
	if (st != TCP_OK)
		return st;
	TCP_CUDA_TRY(c, cudaMemcpy(s->h_out, s->d_out, (size_t)s->ctas * 2 * sizeof(*s->h_out),
				   cudaMemcpyDeviceToHost));
	double bytes = (double)LDST_ITERS * 4.0 * s->wg * 32.0 * s->nreg * 4.0;
	for (int i = 0; i < s->ctas; i++)
		s->tmp[i] = s->h_out[2 * i] ? bytes / (double)s->h_out[2 * i] : NAN;
	out->v[0] = tc_median(s->tmp, s->ctas);
	for (int i = 0; i < s->ctas; i++)
		s->tmp[i] = (double)s->h_out[2 * i + 1];
	out->v[1] = s->op ? NAN : tc_median(s->tmp, s->ctas);
	return TCP_OK;
}

static void ldst_teardown(void *state)
{
	struct ldst_state *s = (struct ldst_state *)state;
	if (!s)
		return;
	cudaFree(s->d_out);
	cudaFree(s->d_val);
	cudaFree(s->d_sink);
	cudaFree(s->d_status);
	free(s->h_out);
	free(s->h_val);
	free(s->tmp);
	free(s);
}

extern "C" const tcp_probe_t tcp_probe_tc_ldst = {
	.name = "tc_ldst",
	.family = "tcgen05.ld",
	.help = "tcgen05.ld/st bandwidth (B/clk/SM) per shape, .num, pack, warpgroups; ld latency",
	.arch = TCP_ARCH_SM100A,
	.axes = axes,
	.naxes = TC_NELEM(axes),
	.metrics = metrics,
	.nmetrics = TC_NELEM(metrics),
	.legal = ldst_legal,
	.setup = ldst_setup,
	.validate = ldst_validate,
	.run = ldst_run,
	.teardown = ldst_teardown,
	.unsupported_reason = NULL,
};
