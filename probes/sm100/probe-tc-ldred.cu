/*
 * probe-tc-ldred.cu
 *	tcgen05.ld.red (sm_103a B300 and sm_110a Thor; not on sm_100a) beside
 *	plain tcgen05.ld of the same shape: register bandwidth with 1..4
 *	warpgroups per SM, and the latency of one load to the end of wait::ld.
 *	ld.red loads .num columns of the thread's lane like tcgen05.ld and also
 *	returns their min or max (one f32), the row statistic an attention
 *	softmax needs, without the FMNMX chain after a plain load.
 *
 *	Form (CUTLASS cute/arch/copy_sm100.hpp SM100_TMEM_LOAD_STAT_32dp32b*x,
 *	arch-matrix.md row ld_red_min): tcgen05.ld.red.sync.aligned.32x32b.xN
 *	.{min,max}.f32 {d...}, redval, [taddr]; PTX ISA 8.8 (CUDA 12.9).  ptxas
 *	emits LDTM.STAT (scripts/ci/sass-expect.txt).  The shape is 32x32b, the
 *	one both sources use; .num x2..x32 (CUTLASS's x32 is the largest here:
 *	x64/x128 made ptxas 13.0 spill and run for more than 30 minutes on
 *	sm_103a, so they are not instantiated).
 *
 *	Layout and timing as probe-tc-ldst.cu: one CTA per SM (512 TMEM
 *	columns), warp w reads its lane quarter 32 (w % 4), warpgroup g starts
 *	at column g x k x num; each timed iteration is k loads into independent
 *	register sets (k = 4 at x2/x4, 2 at x8/x16, 1 at x32: ldred_sets) plus one
 *	wait::ld, as tc_ldst's depth groups, so the loads are in flight
 *	together (no address depends on a loaded value).
 *
 *	Validation before timing (one CTA, 4 warps): every cell (lane, column)
 *	is written (32x32b.x1) with a finite nonzero float drawn from the
 *	point's seed; the probed load must return each stored value, and redval
 *	the min / max of the thread's .num values (CPU reference, exact: min
 *	and max do not round).  A mismatch is INVALID naming the thread.
 *
 *	Metrics:
 *	  reg_bytes_per_clk_sm   register bytes loaded per SM clock (median over SMs;
 *	                         redval not counted)
 *	  ld_latency_cycles      one load to the end of wait::ld (warp 0, median over SMs)
 */
#include "probes/sm100/tc-common.cuh"

#if TCP_AUX_EMU	/* the emulation's floor (tc-aux.h) */
#define LDRED_ITERS TCP_AUX_EMU_LDRED_ITERS
#else
#define LDRED_ITERS 256
#endif

static const char *const op_names[] = { "ld", "ld_red_min", "ld_red_max", NULL };
static const char *const sites[] = { "none" };
enum { OP_LD, OP_RED_MIN, OP_RED_MAX };

/* Address operand index after NR registers and redval. */
#define LDRED_A_2 "%3"
#define LDRED_A_4 "%5"
#define LDRED_A_8 "%9"
#define LDRED_A_16 "%17"
#define LDRED_A_32 "%33"
#define LDRED_X(NUM, RED)                                                                         \
	asm volatile("tcgen05.ld.red.sync.aligned.32x32b.x" #NUM "." RED ".f32 " TCP_RL_##NUM ", "   \
		     TCP_AR_##NUM ", [" LDRED_A_##NUM "];"                                             \
		     : TCP_O_##NUM(0), "=f"(*red)                                                      \
		     : "r"(taddr)                                                                      \
		     : "memory")

/*
 * ldred<NUM, OP>(taddr, r, red)
 *	One 32x32b.xNUM load; OP_RED_*: also the min/max of the NUM values in
 *	*red.  On a target without ld.red the reducing forms trap (never
 *	launched there: ldred_legal_on() SKIPs the point).
 */
template <int NUM, int OP>
static __device__ __forceinline__ void ldred(uint32_t taddr, uint32_t *r, float *red)
{
	if constexpr (OP == OP_LD) {
		tcp_tc_ld<TCP_TC_32X32B, NUM, 0>(taddr, r);
		*red = 0.f;
	} else {
#if TCP_TC_EMU_DEVICE
		tcp_emu_rt_ld_red(taddr, NUM, OP == OP_RED_MIN, r, red);
#elif TCP_TC_LD_RED
		if constexpr (OP == OP_RED_MIN) {
			if constexpr (NUM == 2) LDRED_X(2, "min");
			else if constexpr (NUM == 4) LDRED_X(4, "min");
			else if constexpr (NUM == 8) LDRED_X(8, "min");
			else if constexpr (NUM == 16) LDRED_X(16, "min");
			else LDRED_X(32, "min");
		} else {
			if constexpr (NUM == 2) LDRED_X(2, "max");
			else if constexpr (NUM == 4) LDRED_X(4, "max");
			else if constexpr (NUM == 8) LDRED_X(8, "max");
			else if constexpr (NUM == 16) LDRED_X(16, "max");
			else LDRED_X(32, "max");
		}
#else
		(void)taddr;
		(void)r;
		*red = 0.f;
		__threadfence_system();	/* every trap after a system fence (check-sass trap-after-fence) */
		__trap();
#endif
	}
}

/* TMEM for the whole CTA (512 columns: one CTA per SM), every thread past
 * the allocation, and its release: the protocol of every tcgen05 probe
 * (tc-common.cuh tc_tmem_prologue / tc_tmem_epilogue). */
static __device__ __forceinline__ uint32_t ldred_tmem(uint32_t *slot)
{
	return tc_tmem_prologue<1>(slot, TCP_TMEM_COLS);
}

static __device__ __forceinline__ void ldred_tmem_free(uint32_t base)
{
	tc_tmem_epilogue<1>(base, TCP_TMEM_COLS);
}

/*
 * ldred_check_kernel<NUM, OP>(cells, val)  (1 CTA, 4 warps)
 *	cells[lane * 512 + col] into TMEM, then val[thread * (NUM + 1) + j] =
 *	register j of the probed load, [+NUM] = redval (as bits).
 */
template <int NUM, int OP>
static __global__ void __launch_bounds__(128, 1) ldred_check_kernel(const uint32_t *cells, uint32_t *val)
{
	__shared__ uint32_t slot;
	const unsigned warp = threadIdx.x / 32, t = threadIdx.x % 32;
	const uint32_t lane0 = 32u * warp;
	uint32_t r[NUM];
	float red = 0.f;
	const uint32_t base = ldred_tmem(&slot);
#pragma unroll 1
	for (unsigned c = 0; c < 512; c++) {
		uint32_t w = cells[(lane0 + t) * 512u + c];
		tcp_tc_st<TCP_TC_32X32B, 1, 0>(base + (lane0 << 16) + c, &w);
	}
	tcp_tc_wait_st();
	ldred<NUM, OP>(base + (lane0 << 16), r, &red);
	tcp_tc_wait_ld();
#pragma unroll
	for (int j = 0; j < NUM; j++)
		val[threadIdx.x * (NUM + 1) + j] = r[j];
	val[threadIdx.x * (NUM + 1) + NUM] = __float_as_uint(red);
	ldred_tmem_free(base);
}

/* Independent register sets one timed iteration loads: tc_ldst's limit for
 * a 512-thread kernel (tc-aux.h tcp_aux_ldst_kmax), at most 4 and at most
 * 32 registers in flight (x16 with 4 sets, 64 registers, spills at 512
 * threads beside ld.red's redvals): x2, x4 4 sets; x8, x16 2; x32 1 (one
 * load in flight). */
static constexpr __host__ __device__ int ldred_sets(int num)
{
	const int k = tcp_aux_ldst_kmax(num, 512) < 4 ? tcp_aux_ldst_kmax(num, 512) : 4;
	return k * num <= 32 ? k : (32 / num > 1 ? 32 / num : 1);
}

/*
 * ldred_time_kernel<NUM, OP>(out, sink)  (one CTA per SM)
 *	out[cta * 2] = cycles of the timed loop (max warp end - min warp
 *	start), [+1] = one load's latency (warp 0).  Each iteration issues
 *	ldred_sets(NUM) loads into independent register sets at distinct
 *	columns (set j at j x NUM past the warpgroup's first column, an
 *	immediate), then one wait::ld, then reads one register and the redval
 *	of every set: ptxas deletes a load none of whose results is read
 *	(check-sass rule ldst-all-offsets checks every offset of every group).
 *	No address depends on a load, so the sets are in flight together, as
 *	tc_ldst's depth groups.  The same loop body for ld and ld.red.
 */
template <int NUM, int OP>
static __global__ void __launch_bounds__(512, 1) ldred_time_kernel(int iters, uint32_t zero, unsigned long long *out,
								   uint32_t *sink)
{
	constexpr int K = ldred_sets(NUM);
	__shared__ uint32_t slot;
	__shared__ unsigned long long t_start, t_end;
	const unsigned warp = threadIdx.x / 32, wg = warp / 4;
	const uint32_t lane0 = 32u * (warp % 4);
	uint32_t r[K * NUM], acc = zero;
	float red[K];
	if (threadIdx.x == 0) {
		t_start = ~0ull;
		t_end = 0;
	}
	const uint32_t base = ldred_tmem(&slot);
	const uint32_t addr = base + (lane0 << 16) + (wg * (unsigned)(K * NUM)) % 512u;
	unsigned long long lat = 0;
	if (warp == 0) {	/* latency of one load, warm TMEM */
		ldred<NUM, OP>(addr, r, &red[0]);
		tcp_tc_wait_ld();
		unsigned long long l0 = tcp_clock64();
		ldred<NUM, OP>(addr, r, &red[0]);
		tcp_tc_wait_ld();
		acc ^= r[0] ^ __float_as_uint(red[0]);
		lat = tcp_clock64() - l0;
	}
	tc_bar();
	unsigned long long t0 = tcp_clock64();
	/* `iters` is an argument: with a constant trip count ptxas unrolls it all */
#pragma unroll 1
	for (int i = 0; i < iters; i++) {
TC_UNROLL
		for (int j = 0; j < K; j++)
			ldred<NUM, OP>(addr + (uint32_t)(j * NUM), r + j * NUM, &red[j]);
		tcp_tc_wait_ld();
		uint32_t x = 0;
TC_UNROLL
		for (int j = 0; j < K; j++)
			x ^= r[j * NUM] ^ __float_as_uint(red[j]);
		acc += x;
	}
	unsigned long long t1 = tcp_clock64();
	atomicMin(&t_start, t0);
	atomicMax(&t_end, t1);
	if (acc == 0x5eed5eedu && lat == 1)	/* never true: keeps the loads live */
		sink[0] = acc;
	tc_bar();
	if (threadIdx.x == 0) {
		out[blockIdx.x * 2 + 0] = t_end - t_start;
		out[blockIdx.x * 2 + 1] = lat;
	}
	ldred_tmem_free(base);
}

typedef void (*ldred_check_t)(const uint32_t *, uint32_t *);
typedef void (*ldred_time_t)(int, uint32_t, unsigned long long *, uint32_t *);
#define LDRED_NUMS(K, OP) K<2, OP>, K<4, OP>, K<8, OP>, K<16, OP>, K<32, OP>
static const ldred_check_t ldred_check_table[3][5] = {
	{ LDRED_NUMS(ldred_check_kernel, OP_LD) }, { LDRED_NUMS(ldred_check_kernel, OP_RED_MIN) },
	{ LDRED_NUMS(ldred_check_kernel, OP_RED_MAX) },
};
static const ldred_time_t ldred_time_table[3][5] = {
	{ LDRED_NUMS(ldred_time_kernel, OP_LD) }, { LDRED_NUMS(ldred_time_kernel, OP_RED_MIN) },
	{ LDRED_NUMS(ldred_time_kernel, OP_RED_MAX) },
};

/* ---- host side ---------------------------------------------------------------- */

enum { AX_OP, AX_NUM, AX_WG };

static const tcp_axis_t axes[] = {
	{ "op", "ld (plain tcgen05.ld 32x32b) or ld.red with .min / .max", op_names, "ld,ld_red_min,ld_red_max" },
	{ "num", ".num repeat (x2..x32)", NULL, "[2,8,32]" },
	{ "warpgroups", "warpgroups per SM issuing loads", NULL, "[1,2,4]" },
};

static const tcp_metric_t metrics[] = {
	{ "reg_bytes_per_clk_sm", "B/clk/SM", 1, "register bytes loaded per SM clock, median over SMs (independent "
	  "register sets in flight per warp: 4 at x2/x4, 2 at x8/x16, 1 at x32; redval not counted)" },
	{ "ld_latency_cycles", "cycles", 0, "one load to the end of wait::ld, median over SMs" },
};

static int ldred_num_index(long long num)
{
	for (int i = 0; i < 5; i++)
		if (num == 2ll << i)
			return i;
	return -1;
}

static int ldred_legal(const tcp_point_t *p, char *reason, size_t len)
{
	long long op = p->v[AX_OP], num = p->v[AX_NUM], wg = p->v[AX_WG];
	if (op < 0 || op > OP_RED_MAX) {
		snprintf(reason, len, "op index %lld out of range", op);
		return 0;
	}
	if (ldred_num_index(num) < 0) {
		snprintf(reason, len, "num must be a power of two in [2, 32]; got %lld", num);
		return 0;
	}
	if (wg < 1 || wg > 4) {
		snprintf(reason, len, "warpgroups must be in [1, 4]; got %lld", wg);
		return 0;
	}
	return 1;
}

/* The reducing forms exist on sm_103a and sm_110a only (model/arch.c). */
static int ldred_legal_on(const tcp_point_t *p, const tcp_target_info_t *t, char *reason, size_t len)
{
	return p->v[AX_OP] == OP_LD || tcp_target_has(t, TCP_FEAT_TC_LD_RED, "tcgen05.ld.red", reason, len);
}

/* TMEM of the timed kernel: warpgroup g reads its ldred_sets(num) sets at
 * columns [g k num, (g + 1) k num) of all 128 lanes; the allocation is the
 * whole 512 (one CTA per SM). */
static int ldred_tmem_fp(const tcp_point_t *p, tcp_tmem_fp_t *fp, char *reason, size_t len)
{
	char name[4] = { 'w', 'g', '0', '\0' };
	if (!ldred_legal(p, reason, len))
		return -1;
	tcp_tmem_fp_init(fp);
	for (int g = 0; g < (int)p->v[AX_WG]; g++) {
		name[2] = (char)('0' + g);
		tcp_tmem_fp_append(fp, name, (unsigned)(ldred_sets((int)p->v[AX_NUM]) * p->v[AX_NUM]));
	}
	fp->alloc = TCP_TMEM_COLS;
	return 1;
}

struct ldred_state {
	int op, num, wg, ctas;
	size_t smem;	/* dynamic, unused: keeps one CTA per SM */
	ldred_check_t kc;
	ldred_time_t kt;
	unsigned long long *d_out, *h_out, *d_status;
	uint32_t *d_cells, *h_cells, *d_val, *h_val, *d_sink;
	double *tmp;
};

/* A finite nonzero float of either sign, |x| in [2^-8, 2^8), from the seed. */
static uint32_t ldred_cell(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	uint32_t h = (uint32_t)(*s >> 32);
	return (h & 0x80000000u) | ((119u + (h >> 23) % 16u) << 23) | (h & 0x7fffffu);
}

static tcp_status_t ldred_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	struct ldred_state *s = (struct ldred_state *)calloc(1, sizeof(*s));
	if (!s) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	*state = s;
	s->op = (int)p->v[AX_OP];
	s->num = (int)p->v[AX_NUM];
	s->wg = (int)p->v[AX_WG];
	s->ctas = c->sm_count;
	s->smem = tc_exclusive_smem(c, 0, 1024);
	s->kc = ldred_check_table[s->op][ldred_num_index(s->num)];
	s->kt = ldred_time_table[s->op][ldred_num_index(s->num)];
	s->h_out = (unsigned long long *)calloc((size_t)s->ctas * 2, sizeof(*s->h_out));
	s->h_cells = (uint32_t *)calloc((size_t)128 * 512, sizeof(uint32_t));
	s->h_val = (uint32_t *)calloc((size_t)128 * (s->num + 1), sizeof(uint32_t));
	s->tmp = (double *)calloc((size_t)s->ctas, sizeof(double));
	if (!s->h_out || !s->h_cells || !s->h_val || !s->tmp) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	uint64_t seed = c->seed ^ 0x1d2e3f4a5b6c7d8eull;
	for (size_t i = 0; i < (size_t)128 * 512; i++)
		s->h_cells[i] = ldred_cell(&seed);
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_out, (size_t)s->ctas * 2 * sizeof(*s->d_out)));
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_cells, (size_t)128 * 512 * sizeof(uint32_t)));
	TCP_CUDA_TRY(c, cudaMemcpy(s->d_cells, s->h_cells, (size_t)128 * 512 * sizeof(uint32_t),
				   cudaMemcpyHostToDevice));
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_val, (size_t)128 * (s->num + 1) * sizeof(uint32_t)));
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_sink, sizeof(uint32_t)));
	c->issued_tensor_insts = -1;
	return tcp_trap_status_alloc(c, &s->d_status);
}

static float ldred_f(uint32_t u)
{
	float f;
	memcpy(&f, &u, sizeof(f));
	return f;
}

static tcp_status_t ldred_validate(void *state, tcp_ctx_t *c)
{
	struct ldred_state *s = (struct ldred_state *)state;
	const int n = s->num;
	s->kc<<<1, 128>>>(s->d_cells, s->d_val);
	tcp_status_t st = tc_check_status(c, s->d_status, sites, TC_NELEM(sites));
	if (st != TCP_OK)
		return st;
	TCP_CUDA_TRY(c, cudaMemcpy(s->h_val, s->d_val, (size_t)128 * (n + 1) * sizeof(uint32_t),
				   cudaMemcpyDeviceToHost));
	for (unsigned th = 0; th < 128; th++) {
		const uint32_t *got = &s->h_val[th * (n + 1)], *want = &s->h_cells[th * 512];
		float red = ldred_f(want[0]);
		for (int j = 0; j < n; j++) {
			if (got[j] != want[j]) {
				snprintf(c->reason, TCP_REASON_LEN, "%s.x%d: thread %u reg %d = 0x%08x, stored 0x%08x",
					 op_names[s->op], n, th, j, got[j], want[j]);
				return TCP_INVALID;
			}
			float v = ldred_f(want[j]);
			red = s->op == OP_RED_MIN ? (v < red ? v : red) : (v > red ? v : red);
		}
		uint32_t red_bits;
		memcpy(&red_bits, &red, sizeof(red_bits));
		if (s->op != OP_LD && got[n] != red_bits) {
			snprintf(c->reason, TCP_REASON_LEN, "%s.x%d: thread %u redval %g, expected %g (the %s of its %d values)",
				 op_names[s->op], n, th, (double)ldred_f(got[n]), (double)red,
				 s->op == OP_RED_MIN ? "min" : "max", n);
			return TCP_INVALID;
		}
	}
	return TCP_OK;
}

static tcp_status_t ldred_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct ldred_state *s = (struct ldred_state *)state;
	TCP_CUDA_TRY(c, cudaFuncSetAttribute((const void *)s->kt, cudaFuncAttributeMaxDynamicSharedMemorySize,
					     (int)s->smem));
	s->kt<<<s->ctas, 128 * s->wg, s->smem>>>(LDRED_ITERS, 0u, s->d_out, s->d_sink);
	tcp_status_t st = tc_check_status(c, s->d_status, sites, TC_NELEM(sites));
	if (st != TCP_OK)
		return st;
	TCP_CUDA_TRY(c, cudaMemcpy(s->h_out, s->d_out, (size_t)s->ctas * 2 * sizeof(*s->h_out),
				   cudaMemcpyDeviceToHost));
	/* every iteration: ldred_sets(num) loads per warp, 4 warps per warpgroup */
	double bytes = (double)LDRED_ITERS * ldred_sets(s->num) * 4.0 * s->wg * 32.0 * s->num * 4.0;
	for (int i = 0; i < s->ctas; i++)
		s->tmp[i] = s->h_out[2 * i] ? bytes / (double)s->h_out[2 * i] : NAN;
	out->v[0] = tc_median(s->tmp, s->ctas);
	for (int i = 0; i < s->ctas; i++)
		s->tmp[i] = (double)s->h_out[2 * i + 1];
	out->v[1] = tc_median(s->tmp, s->ctas);
	return TCP_OK;
}

static void ldred_teardown(void *state)
{
	struct ldred_state *s = (struct ldred_state *)state;
	if (!s)
		return;
	cudaFree(s->d_out);
	cudaFree(s->d_cells);
	cudaFree(s->d_val);
	cudaFree(s->d_sink);
	tcp_trap_status_free(s->d_status);
	free(s->h_out);
	free(s->h_cells);
	free(s->h_val);
	free(s->tmp);
	free(s);
}

extern "C" const tcp_probe_t tcp_probe_tc_ldred = {
	.name = "tc_ldred",
	.family = "tcgen05.ld",
	.help = "tcgen05.ld.red (sm_103a, sm_110a) beside tcgen05.ld 32x32b: B/clk/SM per .num and warpgroups; latency",
	.arch = TCP_ARCH_TCGEN05,
	.axes = axes,
	.naxes = TC_NELEM(axes),
	.metrics = metrics,
	.nmetrics = TC_NELEM(metrics),
	.legal = ldred_legal,
	.setup = ldred_setup,
	.validate = ldred_validate,
	.run = ldred_run,
	.teardown = ldred_teardown,
	.unsupported_reason = NULL,
	.tmem = ldred_tmem_fp,
	.legal_on = ldred_legal_on,
};
