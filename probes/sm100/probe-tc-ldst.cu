/*
 * probe-tc-ldst.cu
 *	tcgen05.ld / tcgen05.st: the cost of moving data between TMEM and
 *	registers for every shape and .num, packed (.pack::16b / .unpack::16b)
 *	or not, with 1..4 warpgroups per SM and k accesses in flight; and the
 *	latency of one tcgen05.ld to wait::ld.
 *
 *	One CTA per SM (512 TMEM columns), 128 x warpgroups threads.  Warp w
 *	touches only its lane quarter 32 (w % 4) (the access restriction,
 *	facts s.4).  One access touches tcp_ld_footprint(shape, num, pack)
 *	columns (pack doubles them; 16x32bx2's second half sits 2 x num columns
 *	out with pack: model/tmem.h), and every placement is checked against
 *	the 512 columns before launch (ldst_legal()).
 *
 *	Timed loop, per depth k (each warp; the addresses computed before the
 *	clock read, each access at an immediate column offset):
 *	  t0; repeat LDST_ITERS { k accesses to k distinct column ranges into k
 *	  distinct register sets; one wait::ld / wait::st }; t1
 *	t(k) = (max warp t1 - min warp t0) / LDST_ITERS.  The depths run are
 *	k = 0 (the empty window: the wait alone), then 1, 2, 4, 8 up to the
 *	point's `inflight` (0 = every depth the registers and the columns
 *	allow).  With t(k) = c + L + (k - 1) I, the slope I over the depths
 *	>= 1 run (3 or 4 of them where the sets allow, 2 for 8- and
 *	64-register accesses) is the per-access cost (inverse bandwidth),
 *	L = t(1) - t(0) the latency one access adds to an otherwise empty
 *	window.  inflight = 1 times one access then its wait (latency-bound).
 *
 *	Register sets (tc-aux.h tcp_aux_ldst_threads, _kmax, _depth).  Each of
 *	the k accesses of an ld has its own register set, live across the
 *	wait: one register of every set is read after it (ptxas deletes a
 *	tcgen05.ld none of whose registers is read); the k stores of an st
 *	share one source set.  How many sets a kernel holds is set by its
 *	launch bound: the 512-thread build, which every point of 3 or 4
 *	warpgroups runs on, leaves 128 registers a thread, enough for
 *	k x registers <= 64 (8 sets of <= 4 registers, 2 of 8, 4 of 16, one
 *	of 32 or 64: accesses of 32 or more registers have a single depth
 *	there, latency-bound, no slope).  Accesses of 32 and 64 registers at
 *	1 or 2 warpgroups therefore run on a 256-thread build, 255 registers
 *	a thread: 4 sets of 32 (depths 1, 2, 4) and 2 of 64 (1, 2).  128
 *	registers need the 256-thread build at any count and hold one set
 *	there (at most 2 warpgroups).  Fewer than 32 registers run on the
 *	512-thread build at every count: it holds 2 or more sets of them.
 *
 *	Columns: a warpgroup's k accesses take k x footprint columns, and the
 *	warpgroups' spans sit side by side.  Sets beyond the first never share
 *	columns: where the deepest sets do not fit, inflight = 0 runs fewer
 *	(e.g. 16x32bx2.x32 packed at 2 warpgroups: 2 sets of 128 columns, not
 *	4), and an explicit inflight that does not fit is SKIPPED.  A single
 *	set that does not fit shares its columns with the other warpgroups:
 *	legal for ld, a race for st (SKIPPED).
 *
 *	Validation before timing (one CTA, 4 warps): cells are written with
 *	32x32b (thread t = lane t, register r = column r) holding a hash of
 *	(lane, column); the probed shape then loads them and every register is
 *	compared with the cell model/tmem.h's tcp_ld_map() names; for the
 *	packed forms a st.unpack::16b -> ld.pack::16b round trip must return
 *	what was stored (a 16x32bx2 half offset below 2 x num would overlap
 *	the two packed halves and fail it).  Any mismatch marks the point
 *	INVALID with the first bad (thread, register).  This is also the check
 *	of the model's [?] 16x64b mapping on real silicon.
 *
 *	Metrics (median over SMs):
 *	  reg_bytes_per_clk_sm   register bytes per SM clock: bytes of one access / I
 *	                         with >= 2 depths, else bytes / t(1)
 *	  ld_latency_cycles      one tcgen05.ld to the end of wait::ld (warp 0)
 *	  access_cycles          I: per-access cost (least-squares slope over the depths run)
 *	  access_latency_cycles  L = t(1) - t(0)
 *	  empty_window_cycles    t(0): the loop with only the wait
 *	  iter_cycles            t(k) at the deepest depth run
 */
#include "probes/sm100/tc-common.cuh"

#define LDST_ITERS TCP_AUX_LDST_ITERS	/* the emulation: TCP_AUX_EMU_LDST_ITERS (tc-aux.h) */

extern "C" const tcp_probe_t tcp_probe_tc_ldst;
#define LDST_NDEPTH 5	/* k = 0, 1, 2, 4, 8 */

static const char *const shape_names[] = { "32x32b", "16x64b", "16x128b", "16x256b", "16x32bx2", NULL };
static const char *const op_names[] = { "ld", "st", NULL };
static const char *const sites[] = { "none" };

/* Value stored in TMEM cell (lane, col) for the validation pass. */
static __host__ __device__ __forceinline__ uint32_t ldst_hash(unsigned lane, unsigned col)
{
	uint32_t h = lane * 0x9E3779B1u ^ (col + 0x7F4A7C15u) * 0x85EBCA77u;
	return h ^ (h >> 15);
}

/* Depth of slot d (0..LDST_NDEPTH-1): 0, 1, 2, 4, 8. */
static constexpr __host__ __device__ int ldst_depth(int d)
{
	return d == 0 ? 0 : 1 << (d - 1);
}

enum { MODE_VALIDATE = 0, MODE_LD = 1, MODE_ST = 2 };

struct ldst_args {
	int depth;			/* deepest k to run (a power of two <= tcp_aux_ldst_kmax) */
	unsigned wg_stride;		/* columns between warpgroups' spans (ldst_fp(); 0 = shared) */
	int iters;			/* LDST_ITERS (an argument on purpose: see ldst_loop) */
	unsigned long long *out;	/* [cta][LDST_NDEPTH + 1]: t(k) sums, latency */
	uint32_t *val;			/* validate: [thread][nreg] */
	uint32_t *sink;
};

/*
 * One timed loop at depth K for this warp: K accesses, one wait, LDST_ITERS
 * times.  `addr` is the warp's first column (lane bits included); access j
 * is at addr + j x FP, an immediate offset.  Returns (t0, t1).
 */
template <int S, int NUM, int P, int OP, int K>
static __device__ __forceinline__ void ldst_loop(uint32_t addr, int iters, uint32_t *r, uint32_t &acc,
						 unsigned long long &t0, unsigned long long &t1)
{
	constexpr int NR = tcp_tc_shape_base(S) * NUM;
	constexpr unsigned FP = tcp_ld_footprint((tcp_ld_shape_t)S, NUM, P);
	if constexpr (OP == MODE_ST) {	/* the data, made here: nothing stays live across the other loops */
#pragma unroll
		for (int j = 0; j < NR; j++)
			r[j] = acc + (uint32_t)j;
	}
	t0 = tcp_clock64();
	/* `iters` is an argument (LDST_ITERS): with a constant trip count ptxas
	 * unrolls all of it (x 5 depths x every kernel: minutes of ptxas). */
#pragma unroll 1
	for (int i = 0; i < iters; i++) {
		if constexpr (OP == MODE_ST) {
			/* k stores of one register set (sources: reading them k times is
			 * no hazard) to k distinct column ranges */
TC_UNROLL
			for (int j = 0; j < K; j++)
				tcp_tc_st<S, NUM, P>(addr + (uint32_t)j * FP, r);
			tcp_tc_wait_st();
		} else {
TC_UNROLL
			for (int j = 0; j < K; j++)
				tcp_tc_ld<S, NUM, P>(addr + (uint32_t)j * FP, r + j * NR);
			tcp_tc_wait_ld();
			/* one register of every access is read: ptxas deletes a
			 * tcgen05.ld none of whose registers is read (check-sass rule
			 * ldst-all-offsets); one register keeps the whole access */
			uint32_t x = 0;
TC_UNROLL
			for (int j = 0; j < K; j++)
				x ^= r[j * NR];
			acc += x;
		}
	}
	t1 = tcp_clock64();
}

/* Slot of depth K in the records: 0 -> 0, 1 -> 1, 2 -> 2, 4 -> 3, 8 -> 4. */
static constexpr __host__ __device__ int ldst_slot(int k)
{
	return k == 0 ? 0 : k == 1 ? 1 : k == 2 ? 2 : k == 4 ? 3 : 4;
}

/* Depth K for the whole CTA when `run` (block-uniform): meet, time, record. */
template <int S, int NUM, int P, int OP, int K>
static __device__ __forceinline__ void ldst_depth_run(int run, uint32_t addr, int iters, uint32_t *r, uint32_t &acc,
						      unsigned long long *t_start, unsigned long long *t_end)
{
	if (!run && K > 0)
		return;
	unsigned long long t0, t1;
	tc_bar();
	ldst_loop<S, NUM, P, OP, K>(addr, iters, r, acc, t0, t1);
	atomicMin(&t_start[ldst_slot(K)], t0);
	atomicMax(&t_end[ldst_slot(K)], t1);
}

/*
 * ldst_kernel<S, NUM, P, MODE, T>(args)
 *	One kernel per (shape, .num, pack, mode, launch bound T): validation,
 *	ld and st apart, so that ptxas allocates each one's register sets
 *	alone; T = 512 or 256 threads sets how many sets it holds
 *	(tcp_aux_ldst_kmax); depth is an argument.
 *	MODE_VALIDATE (1 CTA, 4 warps): val[(warp * 32 + t) * nreg + r] =
 *	  register r of thread t after the probed ld of the hash pattern written
 *	  with 32x32b (P = 0), or after st.unpack + ld.pack of the pattern (P = 1).
 *	MODE_LD / MODE_ST (one CTA per SM): out[cta][d] = cycles of the timed
 *	  loop at depth ldst_depth(d) (max warp end - min warp start; 0 = not
 *	  run), out[cta][LDST_NDEPTH] = one ld's latency.
 */
/* minBlocks = 1: one CTA per SM is what runs; without it ptxas aims at more
 * resident CTAs, keeps ~40 registers and spills the k register sets. */
template <int S, int NUM, int P, int MODE, int T>
static __global__ void __launch_bounds__(T, 1) ldst_kernel(const struct ldst_args a)
{
	constexpr int NR = tcp_tc_shape_base(S) * NUM;
	constexpr int KMAX = tcp_aux_ldst_kmax(NR, T);
	constexpr unsigned FP = tcp_ld_footprint((tcp_ld_shape_t)S, NUM, P);
	__shared__ uint32_t slot;
	__shared__ unsigned long long t_start[LDST_NDEPTH], t_end[LDST_NDEPTH];
	const unsigned warp = threadIdx.x / 32, t = threadIdx.x % 32, wg = warp / 4;
	const uint32_t lane0 = 32u * (warp % 4);
	uint32_t r[KMAX * NR], acc = 0;

	if (threadIdx.x < LDST_NDEPTH) {
		t_start[threadIdx.x] = ~0ull;
		t_end[threadIdx.x] = 0;
	}
	const uint32_t base = tc_tmem_prologue<1>(&slot, 512);

	if constexpr (MODE == MODE_VALIDATE) {
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
				a.val[threadIdx.x * NR + j] = r[j];
		}
	} else {
		acc = t * 131u;
		/* Warpgroup g's k column ranges start at g x wg_stride: side by
		 * side when they fit, else all at column 0 (ldst_fp(), the same
		 * footprint the planner checked). */
		const uint32_t addr = base + (lane0 << 16) + wg * (TCP_EMU_MUT(TCP_MUT_ST_RACE) ? 0u : a.wg_stride);
		unsigned long long lat = 0;
		if (warp == 0 && MODE == MODE_LD) {	/* latency of one ld, warm TMEM */
			tcp_tc_ld<S, NUM, P>(addr, r);
			tcp_tc_wait_ld();
			unsigned long long l0 = tcp_clock64();
			tcp_tc_ld<S, NUM, P>(addr, r);
			tcp_tc_wait_ld();
			acc ^= r[0];
			lat = tcp_clock64() - l0;
		}
		/* The depths, one straight-line call each (no loop over d: every
		 * register index stays a constant, and depths above KMAX are not
		 * instantiated at all); MODE is MODE_LD or MODE_ST here. */
		ldst_depth_run<S, NUM, P, MODE, 0>(0, addr, a.iters, r, acc, t_start, t_end);
		ldst_depth_run<S, NUM, P, MODE, 1>(a.depth >= 1, addr, a.iters, r, acc, t_start, t_end);
		if constexpr (KMAX >= 2)
			ldst_depth_run<S, NUM, P, MODE, 2>(a.depth >= 2, addr, a.iters, r, acc, t_start, t_end);
		if constexpr (KMAX >= 4)
			ldst_depth_run<S, NUM, P, MODE, 4>(a.depth >= 4, addr, a.iters, r, acc, t_start, t_end);
		if constexpr (KMAX >= 8)
			ldst_depth_run<S, NUM, P, MODE, 8>(a.depth >= 8, addr, a.iters, r, acc, t_start, t_end);
		if (acc == 0x5eed5eedu && lat == 1)	/* never true: keeps the loads live */
			a.sink[0] = acc;
		tc_bar();
		if (threadIdx.x < LDST_NDEPTH)
			a.out[blockIdx.x * (LDST_NDEPTH + 1) + threadIdx.x] =
				t_end[threadIdx.x] > t_start[threadIdx.x] ? t_end[threadIdx.x] - t_start[threadIdx.x] : 0;
		if (threadIdx.x == 0)
			a.out[blockIdx.x * (LDST_NDEPTH + 1) + LDST_NDEPTH] = lat;
	}
	tc_tmem_epilogue<1>(base, 512);
}

/* ---- the kernel table: [shape][pack][log2 num][build][mode] -----------------
 * Build 0 runs 3 or 4 warpgroups, build 1 runs 1 or 2: launch bound
 * T = tcp_aux_ldst_threads(registers, 4 or 2).  Where the two T agree (fewer
 * than 32 registers: 512; 128 registers: 256) they are one instantiation;
 * the validation kernel (4 warps) is build 0's in both. */

typedef void (*ldst_k_t)(const struct ldst_args);
#define LDST_T(S, N, WG) tcp_aux_ldst_threads(tcp_tc_shape_base(S) * (N), WG)
#define LDST_BUILD(S, N, P, WG) { ldst_kernel<S, N, P, MODE_VALIDATE, LDST_T(S, N, 4)>, \
	ldst_kernel<S, N, P, MODE_LD, LDST_T(S, N, WG)>, ldst_kernel<S, N, P, MODE_ST, LDST_T(S, N, WG)> }
#define LDST_MODES(S, N, P) { LDST_BUILD(S, N, P, 4), LDST_BUILD(S, N, P, 2) }
#define LDST_NONE { { NULL, NULL, NULL }, { NULL, NULL, NULL } }
#define LDST_NUMS_B1(S, P) LDST_MODES(S, 1, P), LDST_MODES(S, 2, P), LDST_MODES(S, 4, P), LDST_MODES(S, 8, P), \
	LDST_MODES(S, 16, P), LDST_MODES(S, 32, P), LDST_MODES(S, 64, P), LDST_MODES(S, 128, P)
#define LDST_NUMS_B2(S, P) LDST_MODES(S, 1, P), LDST_MODES(S, 2, P), LDST_MODES(S, 4, P), LDST_MODES(S, 8, P), \
	LDST_MODES(S, 16, P), LDST_MODES(S, 32, P), LDST_MODES(S, 64, P), LDST_NONE
#define LDST_NUMS_B4(S, P) LDST_MODES(S, 1, P), LDST_MODES(S, 2, P), LDST_MODES(S, 4, P), LDST_MODES(S, 8, P), \
	LDST_MODES(S, 16, P), LDST_MODES(S, 32, P), LDST_NONE, LDST_NONE

static const ldst_k_t ldst_table[TCP_TC_NSHAPES][2][8][2][3] = {
	{ { LDST_NUMS_B1(TCP_TC_32X32B, 0) }, { LDST_NUMS_B1(TCP_TC_32X32B, 1) } },
	{ { LDST_NUMS_B1(TCP_TC_16X64B, 0) }, { LDST_NUMS_B1(TCP_TC_16X64B, 1) } },
	{ { LDST_NUMS_B2(TCP_TC_16X128B, 0) }, { LDST_NUMS_B2(TCP_TC_16X128B, 1) } },
	{ { LDST_NUMS_B4(TCP_TC_16X256B, 0) }, { LDST_NUMS_B4(TCP_TC_16X256B, 1) } },
	{ { LDST_NUMS_B1(TCP_TC_16X32BX2, 0) }, { LDST_NUMS_B1(TCP_TC_16X32BX2, 1) } },
};

/* ---- host side ---------------------------------------------------------------- */

enum { AX_SHAPE, AX_NUM, AX_PACK, AX_WG, AX_OP, AX_INFLIGHT };

static const tcp_axis_t axes[] = {
	{ "shape", "tcgen05.ld/st shape", shape_names, "32x32b,16x64b,16x128b,16x256b,16x32bx2" },
	{ "num", ".num repeat (x1..x128, at most 128 registers per thread)", NULL, "[1,2,4,8,16,32,64,128]" },
	{ "pack", "1 = .pack::16b (ld) / .unpack::16b (st)", NULL, "[0,1]" },
	{ "warpgroups", "warpgroups per SM issuing accesses (1-2: accesses of >= 32 registers run on a 256-thread "
			"kernel that holds deeper sets)", NULL, "[1,2,4]" },
	{ "op", "ld or st", op_names, "ld,st" },
	{ "inflight", "accesses per wait: deepest k of 1, 2, 4, 8 timed (0 = every depth the registers and the "
		      "columns allow; >= 2 depths fit the per-access cost)", NULL, "[1]" },
};

static const tcp_metric_t metrics[] = {
	{ "reg_bytes_per_clk_sm", "B/clk/SM", 1, "register bytes per SM clock: one access's bytes / per-access cost" },
	{ "ld_latency_cycles", "cycles", 0, "one tcgen05.ld to the end of wait::ld, median over SMs" },
	{ "access_cycles", "cycles", 0, "per-access cost I: slope of t(k) over the depths run (NAN with one)" },
	{ "access_latency_cycles", "cycles", 0, "L = t(1) - t(0): what one access adds to the empty window" },
	{ "empty_window_cycles", "cycles", 0, "t(0): one loop iteration with only the wait" },
	{ "iter_cycles", "cycles", 0, "t(k) at the deepest depth run" },
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

/*
 * ldst_fp()
 *	TMEM of one point: each warpgroup's k accesses side by side, each
 *	tcp_ld_footprint() columns (pack doubles it, 16x32bx2 includes its
 *	second half), regions "wg0".. placed one after the other when all fit
 *	in 512 columns; else (one set: ldst_legal SKIPs a deeper depth that
 *	does not fit, tcp_aux_ldst_depth runs fewer) the warpgroups share one
 *	region "wg*": legal for ld only (ldst_legal SKIPs such st points: two
 *	warpgroups' stores to the same cells with nothing ordering them are a
 *	race, PTX tcgen05 memory consistency).
 *	A span that does not fit 512 columns even alone fails the check.
 *	*stride = columns between warpgroups (0 = shared).
 */
static void ldst_fp(int shape, int num, int pack, int wg, int depth, tcp_tmem_fp_t *fp, unsigned *stride)
{
	const unsigned span = (unsigned)depth * tcp_ld_footprint((tcp_ld_shape_t)shape, (unsigned)num, pack);
	char name[4] = { 'w', 'g', '0', '\0' };
	tcp_tmem_fp_init(fp);
	*stride = (unsigned)wg * span <= TCP_TMEM_COLS ? span : 0u;
	if (*stride) {
		for (int g = 0; g < wg; g++) {
			name[2] = (char)('0' + g);
			tcp_tmem_fp_append(fp, name, span);
		}
	} else {
		tcp_tmem_fp_append(fp, "wg*", span);
	}
	fp->alloc = TCP_TMEM_COLS;
}

static int ldst_legal(const tcp_point_t *p, char *reason, size_t len)
{
	long long sh = p->v[AX_SHAPE], num = p->v[AX_NUM], wg = p->v[AX_WG], k = p->v[AX_INFLIGHT];
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
	const int nreg = (int)num * tcp_tc_shape_base((int)sh), threads = tcp_aux_ldst_threads(nreg, (int)wg);
	if (128 * wg > threads) {
		snprintf(reason, len, "%s.x%lld (%d registers per thread) runs on a %d-thread kernel: at most %d warpgroups; got %lld",
			 shape_names[sh], num, nreg, threads, threads / 128, wg);
		return 0;
	}
	if (k < 0 || k > 8 || (k & (k - 1))) {
		snprintf(reason, len, "inflight must be 0 (every depth) or 1, 2, 4, 8; got %lld", k);
		return 0;
	}
	const int kmax = tcp_aux_ldst_kmax(nreg, threads);
	if (k > kmax) {
		const int kmax2 = tcp_aux_ldst_kmax(nreg, tcp_aux_ldst_threads(nreg, 2));
		snprintf(reason, len, "inflight=%lld register sets of %d registers: the %d-thread kernel of %lld warpgroups "
			 "holds %d (tc-aux.h tcp_aux_ldst_kmax)%s", k, nreg, threads, wg, kmax,
			 wg > 2 && kmax2 >= k ? "; at 1 or 2 warpgroups the 256-thread kernel holds more" : "");
		return 0;
	}
	const unsigned fp = tcp_ld_footprint((tcp_ld_shape_t)sh, (unsigned)num, (int)p->v[AX_PACK]);
	if (k > 1 && (unsigned)(wg * k) * fp > TCP_TMEM_COLS) {
		snprintf(reason, len, "inflight=%lld: %lld warpgroups x %lld sets x %u columns exceed 512, and sets beyond "
			 "the first never share columns; inflight=0 runs the deepest that fits (%d)", k, wg, k, fp,
			 tcp_aux_ldst_depth(nreg, (int)wg, fp, 0));
		return 0;
	}
	const unsigned span = (unsigned)tcp_aux_ldst_depth(nreg, (int)wg, fp, k) * fp;
	if (p->v[AX_OP] == 1 && wg > 1 && (unsigned)wg * span > TCP_TMEM_COLS) {
		snprintf(reason, len, "op=st: %lld warpgroups x %u columns exceed 512, so they would share columns and "
			 "store into the same cells with nothing ordering them; at most %u warpgroups", wg, span,
			 TCP_TMEM_COLS / span);
		return 0;
	}
	return 1;	/* the columns: ldst_tmem(), checked by the planner */
}

static int ldst_tmem(const tcp_point_t *p, tcp_tmem_fp_t *fp, char *reason, size_t len)
{
	unsigned stride;
	if (!ldst_legal(p, reason, len))
		return -1;
	const int sh = (int)p->v[AX_SHAPE], num = (int)p->v[AX_NUM], pack = (int)p->v[AX_PACK], wg = (int)p->v[AX_WG];
	const int nreg = num * tcp_tc_shape_base(sh);
	const unsigned cols = tcp_ld_footprint((tcp_ld_shape_t)sh, (unsigned)num, pack);
	ldst_fp(sh, num, pack, wg, tcp_aux_ldst_depth(nreg, wg, cols, p->v[AX_INFLIGHT]), fp, &stride);
	return 1;
}

struct ldst_state {
	int shape, num, pack, wg, op, nreg, ctas;
	size_t smem;	/* dynamic, unused: keeps one CTA per SM */
	const ldst_k_t *k;	/* [mode] */
	struct ldst_args a;
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
	tcp_aux_launch_t l;
	if (tc_aux_launch(&tcp_probe_tc_ldst, p, c, &l) != TCP_OK)
		return TCP_FAILED;
	s->shape = l.kernel[0];
	s->num = l.kernel[1];
	s->pack = l.kernel[2];
	s->op = l.kernel[3] == MODE_ST;
	s->wg = l.threads / 128;
	s->nreg = (int)tcp_ld_regs((tcp_ld_shape_t)s->shape, (unsigned)s->num);
	s->ctas = c->sm_count;
	s->smem = tc_exclusive_smem(c, 0, 1024);
	const int build = s->wg <= 2;	/* the kernel table's build for this warpgroup count */
	s->k = ldst_table[s->shape][s->pack][log2i(s->num)][build];
	if (!s->k[MODE_VALIDATE]) {
		snprintf(c->reason, TCP_REASON_LEN, "no kernel for %s.x%d", shape_names[s->shape], s->num);
		return TCP_FAILED;
	}
	if (tcp_aux_ldst_threads(s->nreg, build ? 2 : 4) != l.kernel[4]) {
		snprintf(c->reason, TCP_REASON_LEN, "tc-aux and the kernel table disagree on the launch bound (%d, %d)",
			 l.kernel[4], tcp_aux_ldst_threads(s->nreg, build ? 2 : 4));
		return TCP_FAILED;
	}
	s->a.depth = (int)l.arg[0];
	s->a.iters = (int)l.arg[2];
	tcp_tmem_fp_t fp;
	ldst_fp(s->shape, s->num, s->pack, s->wg, s->a.depth, &fp, &s->a.wg_stride);
	if (tcp_tmem_fp_check(&fp, c->reason, TCP_REASON_LEN))
		return TCP_SKIPPED;	/* the planner SKIPs it first */
	if (s->a.wg_stride != (unsigned)l.arg[1]) {
		snprintf(c->reason, TCP_REASON_LEN, "tc-aux and ldst_fp disagree on the warpgroup stride (%u, %lld)",
			 s->a.wg_stride, l.arg[1]);
		return TCP_FAILED;
	}
	s->h_out = (unsigned long long *)calloc((size_t)s->ctas * (LDST_NDEPTH + 1), sizeof(*s->h_out));
	s->h_val = (uint32_t *)calloc((size_t)128 * s->nreg, sizeof(*s->h_val));
	s->tmp = (double *)calloc((size_t)s->ctas, sizeof(double));
	if (!s->h_out || !s->h_val || !s->tmp) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_out, (size_t)s->ctas * (LDST_NDEPTH + 1) * sizeof(*s->d_out)));
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_val, (size_t)128 * s->nreg * sizeof(*s->d_val)));
	TCP_CUDA_TRY(c, cudaMalloc(&s->d_sink, sizeof(uint32_t)));
	tcp_status_t st = tcp_trap_status_alloc(c, &s->d_status);
	if (st != TCP_OK)
		return st;
	s->a.out = s->d_out;
	s->a.val = s->d_val;
	s->a.sink = s->d_sink;
	c->issued_tensor_insts = -1;
	return TCP_OK;
}

static tcp_status_t ldst_validate(void *state, tcp_ctx_t *c)
{
	struct ldst_state *s = (struct ldst_state *)state;
	s->k[MODE_VALIDATE]<<<1, 128>>>(s->a);
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
				if (tcp_ld_map((tcp_ld_shape_t)s->shape, (unsigned)s->num,
					       tcp_ld_half_offset((unsigned)s->num, 0), t, (unsigned)r, &lane, &col)) {
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

/*
 * ldst_fit()
 *	Least-squares line t(k) = a + I k through the depths >= 1 that ran
 *	(cycles per iteration); returns the number of depths, *slope = I
 *	(NAN with fewer than two).
 */
static int ldst_fit(const double *t, double *slope)
{
	double k[LDST_NDEPTH], y[LDST_NDEPTH], a;
	int n = 0;
	for (int d = 1; d < LDST_NDEPTH; d++)
		if (t[d] > 0) {
			k[n] = ldst_depth(d);
			y[n++] = t[d];
		}
	tcp_aux_fit_line(k, y, n, &a, slope);
	return n;
}

static tcp_status_t ldst_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct ldst_state *s = (struct ldst_state *)state;
	const ldst_k_t k = s->k[s->op ? MODE_ST : MODE_LD];
	TCP_CUDA_TRY(c, cudaFuncSetAttribute((const void *)k, cudaFuncAttributeMaxDynamicSharedMemorySize,
					     (int)s->smem));
	TCP_CUDA_TRY(c, cudaMemset(s->d_out, 0, (size_t)s->ctas * (LDST_NDEPTH + 1) * sizeof(*s->d_out)));
	k<<<s->ctas, 128 * s->wg, s->smem>>>(s->a);
	tcp_status_t st = tc_check_status(c, s->d_status, sites, TC_NELEM(sites));
	if (st != TCP_OK)
		return st;
	TCP_CUDA_TRY(c, cudaMemcpy(s->h_out, s->d_out, (size_t)s->ctas * (LDST_NDEPTH + 1) * sizeof(*s->h_out),
				   cudaMemcpyDeviceToHost));
	/* bytes one access moves on the SM: every warp of every warpgroup, 32 threads x registers */
	const double bytes = 4.0 * s->wg * 32.0 * s->nreg * 4.0;
	double *acc_i = (double *)calloc((size_t)s->ctas * 5, sizeof(double));
	if (!acc_i) {
		snprintf(c->reason, TCP_REASON_LEN, "out of host memory");
		return TCP_FAILED;
	}
	/* per SM: the five figures; then the median of each over SMs */
	int deepest = 0;
	for (int d = 1; d < LDST_NDEPTH; d++)
		if (ldst_depth(d) <= s->a.depth)
			deepest = d;
	for (int i = 0; i < s->ctas; i++) {
		const unsigned long long *o = s->h_out + (size_t)i * (LDST_NDEPTH + 1);
		double t[LDST_NDEPTH], slope;
		for (int d = 0; d < LDST_NDEPTH; d++)
			t[d] = (double)o[d] / LDST_ITERS;
		int n = ldst_fit(t, &slope);
		double per = n >= 2 ? slope : t[1];
		acc_i[i * 5 + 0] = per > 0 ? bytes / per : NAN;
		acc_i[i * 5 + 1] = slope;
		acc_i[i * 5 + 2] = t[1] - t[0];
		acc_i[i * 5 + 3] = t[0];
		acc_i[i * 5 + 4] = t[deepest];
	}
	static const int slot[5] = { 0, 2, 3, 4, 5 };
	for (int m = 0; m < 5; m++) {
		int n = 0;
		for (int i = 0; i < s->ctas; i++)
			if (!isnan(acc_i[i * 5 + m]))
				s->tmp[n++] = acc_i[i * 5 + m];
		out->v[slot[m]] = n ? tc_median(s->tmp, n) : NAN;
	}
	free(acc_i);
	for (int i = 0; i < s->ctas; i++)
		s->tmp[i] = (double)s->h_out[(size_t)i * (LDST_NDEPTH + 1) + LDST_NDEPTH];
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
	tcp_trap_status_free(s->d_status);
	free(s->h_out);
	free(s->h_val);
	free(s->tmp);
	free(s);
}

extern "C" const tcp_probe_t tcp_probe_tc_ldst = {
	.name = "tc_ldst",
	.family = "tcgen05.ld",
	.help = "tcgen05.ld/st per-access cost (slope over accesses in flight) and B/clk/SM per shape, .num, pack, warpgroups; ld latency",
	.arch = TCP_ARCH_TCGEN05,
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
	.tmem = ldst_tmem,
};
