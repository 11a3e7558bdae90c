/*
 * tc-emu.cuh
 *	The device runtime of the emulation build (make EMULATE=1): every
 *	tcgen05 instruction the probes issue, executed on a Hopper GPU
 *	(sm_90a) as software, and the protocol checker that turns a misuse
 *	into a FAILED row naming the rule instead of a silent number.
 *
 *	Execution model.  An emulated MMA or cp executes synchronously in the
 *	one thread that issues it (probes/emu/emu-mma.h, emu-datapath.h); an
 *	ld or st in each thread of the warp that issues it.  "In flight" is a
 *	logical state the checker tracks, never a timing: an operation is in
 *	flight from its issue until a thread observed the mbarrier phase its
 *	commit completes.
 *
 *	Memory.  Emulated TMEM lives in global memory, 128 lanes x 512
 *	columns of 32 bits per SM, indexed by the %smid each CTA reads once
 *	(PTX: %smid may change after preemption, so it is read once); the
 *	column owners (the allocator), the per-column pending-operation
 *	generations (the checker) and one record per CTA of the launch beside
 *	it (tc-emu-host.c allocates them once per process and binds them into
 *	each probe module's tcp_emu_g at its status-word allocation).
 *
 *	Ordering.  tcgen05.fence::*_thread_sync become cluster-scope fences
 *	and a commit's arrive a cluster-scope release, so that the emulation
 *	does not race itself (the MMA's TMEM writes are visible to the thread
 *	that observes the phase).
 *
 *	The checker's state (what each warp knows complete):
 *	  gen		each issuing CTA numbers its MMAs and cps 1, 2, ...; a
 *			column remembers the last generation that wrote it (wgen)
 *			or read it (rgen) and the issuer's rank in the pair
 *	  barrier	a shadow of each mbarrier (count, arrivals pending, phases
 *			completed) and, per phase, the generations the commits
 *			arriving in it cover
 *	  obs/known	what a warp observed (a wait that saw a phase) and what it
 *			knows complete: an observation, then a CTA barrier (a
 *			cluster barrier for the other CTA of a pair), then the
 *			warp's tcgen05.fence::after_thread_sync; the observing
 *			warp's own fence::after counts too (PTX tcgen05 memory
 *			consistency: wait, then fence::after_thread_sync)
 *	A violation records (rule, PTX section, instruction, CTA, warp,
 *	columns) in the diagnostic record beside the status word and traps:
 *	the host turns it into FAILED with that text (trap.cuh).
 */
#ifndef TCP_TC_EMU_CUH
#define TCP_TC_EMU_CUH

#include <stdint.h>

#include "probes/emu/emu-view.h"
#include "probes/emu/tc-emu-host.h"
#include "probes/emu/tc-emu-mutants.h"
#include "probes/emu/tc-emu-state.h"

#if defined(__CUDACC__) && TCP_TC_EMU

#include "probes/emu/emu-datapath.h"
#include "probes/emu/emu-decode.h"
#include "probes/emu/emu-mma.h"

/* The process's emulation buffers as this module sees them (bound by the
 * host into every probe module before each probe's launches:
 * tcp_trap_status_alloc -> tcp_emu_host_bind -> the binders). */
static __device__ tcp_emu_glob_t tcp_emu_g;

/* A planted defect is selected (tc-emu-mutants.h; the release build: 0). */
#define TCP_EMU_MUT(X) (tcp_emu_g.mutant == (unsigned)(X))

static int tcp_emu_bind_module(const tcp_emu_glob_t *g)
{
	return cudaMemcpyToSymbol(tcp_emu_g, g, sizeof *g) != cudaSuccess;
}

/* Every translation unit holding tcgen05 kernels registers its module's binder. */
static const int tcp_emu_registered __attribute__((unused)) = tcp_emu_host_register(tcp_emu_bind_module);

#define TCP_EMU_DEV static __device__ __noinline__
#define TCP_EMU_INL static __device__ __forceinline__

TCP_EMU_INL unsigned tcp_emu_warp(void) { return threadIdx.x / 32u; }
TCP_EMU_INL unsigned tcp_emu_lane(void) { return threadIdx.x % 32u; }

TCP_EMU_INL tcp_emu_cta_t *tcp_emu_cta_of(unsigned cta)
{
	return &tcp_emu_g.cta[cta < TCP_EMU_MAX_CTAS ? cta : TCP_EMU_MAX_CTAS - 1];
}

TCP_EMU_INL void tcp_emu_lock(unsigned *l)
{
	while (atomicCAS(l, 0u, 1u) != 0u)
		__nanosleep(32);
	__threadfence();
}

TCP_EMU_INL void tcp_emu_unlock(unsigned *l)
{
	__threadfence();
	atomicExch(l, 0u);
}

/* The CTA's record, its SM read once (%smid) on first use. */
TCP_EMU_DEV tcp_emu_cta_t *tcp_emu_cta(void)
{
	tcp_emu_cta_t *s = tcp_emu_cta_of(blockIdx.x);
	if (*(volatile unsigned *)&s->smid1 == 0u)
		atomicCAS(&s->smid1, 0u, tcp_smid() + 1u);
	return s;
}

/* The peer of a pair (cluster of two, 1-D grid: blockIdx.x ^ 1). */
TCP_EMU_INL tcp_emu_cta_t *tcp_emu_peer(void) { return tcp_emu_cta_of(blockIdx.x ^ 1u); }

TCP_EMU_INL uint32_t *tcp_emu_tmem_of(const tcp_emu_cta_t *s)
{
	return tcp_emu_g.tmem + (size_t)(s->smid1 - 1u) * TCP_EMU_LANES * TCP_EMU_COLS;
}

TCP_EMU_INL tcp_emu_col_t *tcp_emu_meta_of(const tcp_emu_cta_t *s)
{
	return tcp_emu_g.meta + (size_t)(s->smid1 - 1u) * TCP_EMU_COLS;
}

/* ---- violations ----------------------------------------------------------- */

/*
 * tcp_emu_violation(rule, col0, cols)
 *	Record the first violation of the launch in the diagnostic record
 *	(mapped host memory), then trap: no CTA tears down under what the
 *	checker could not vouch for (trap.cuh); the host names the rule
 *	(tcp_emu_host_after_launch).
 */
TCP_EMU_DEV void tcp_emu_violation(unsigned rule, unsigned col0, unsigned cols)
{
	volatile tcp_emu_diag_t *d = tcp_emu_g.diag;
	if (d && atomicCAS((unsigned *)&d->claimed, 0u, 1u) == 0u) {
		d->rule = rule;
		d->cta = blockIdx.x;
		d->warp = tcp_emu_warp();
		d->col0 = col0;
		d->cols = cols;
	}
	__threadfence_system();
	asm volatile("trap;" ::: "memory");
}

/* An executor's fault (bad descriptor, operand outside memory) as a violation. */
TCP_EMU_INL void tcp_emu_fault(int f, unsigned instr)
{
	if (f)
		tcp_emu_violation(TCP_EMU_RULE_FAULT_BASE + (unsigned)f * 16u + instr, 0, 0);
}

/* ---- trace ------------------------------------------------------------------ */

TCP_EMU_INL int tcp_emu_tracing(void)
{
	return (tcp_emu_g.flags & TCP_EMU_F_TRACE) && blockIdx.x == tcp_emu_g.trace_cta;
}

/* The checker's state as the calling warp sees it, after a traced step:
 * generations the CTA issued, and per issuer rank (own / peer for a pair)
 * what this warp observed, was handed by a barrier, and knows complete. */
TCP_EMU_DEV void tcp_emu_trace_state(void)
{
	const tcp_emu_cta_t *s = tcp_emu_cta_of(blockIdx.x);
	const unsigned w = (threadIdx.x / 32u) % TCP_EMU_WARPS;
	printf("emu cta %u warp %u:   state: issued %u; observed %u/%u synced %u/%u known %u/%u; pool %u/%u; "
	       "barriers %u\n",
	       blockIdx.x, w, s->gen, s->obs[w][0], s->obs[w][1], s->synced[w][0], s->synced[w][1], s->known[w][0],
	       s->known[w][1], s->pool[0], s->pool[1], s->barriers[w]);
}

#define TCP_EMU_TRACE(...)                                                                    \
	do {                                                                                  \
		if (tcp_emu_tracing()) {                                                      \
			printf("emu cta %u warp %u: " __VA_ARGS__);                            \
			tcp_emu_trace_state();                                                \
		}                                                                             \
	} while (0)

/* ---- allocation ------------------------------------------------------------- */

/* Columns [c, c + n) of an SM all free (owners read volatile: a CTA of
 * another SM's pair may free them). */
TCP_EMU_INL int tcp_emu_run_free(volatile const tcp_emu_col_t *meta, unsigned c, unsigned n)
{
	for (unsigned j = 0; j < n; j++)
		if (meta[c + j].owner != 0u)
			return 0;
	return 1;
}

/*
 * tcp_emu_rt_alloc(cg, dst, ncols)
 *	tcgen05.alloc: one 512-column allocator per SM, shared by the CTAs
 *	resident on it; blocks while no aligned run of ncols columns is free
 *	(bounded by the wait budget: then the checker's rule "alloc blocked"
 *	fails the point).  Newly
 *	allocated columns hold poison unless the run keeps what the previous
 *	CTA left (TCP_EMU_F_TMEM_STALE, as hardware does).  The whole warp calls
 *	(converged, as .sync.aligned requires); lane 0 allocates, the 32 lanes
 *	poison, lane 0 writes the address to *dst.
 */
TCP_EMU_DEV void tcp_emu_rt_alloc(unsigned cg, uint32_t *dst, unsigned ncols)
{
	unsigned first = 0;
	if (tcp_emu_lane() == 0) {
		tcp_emu_cta_t *s = tcp_emu_cta();
		if (ncols < 32u || ncols > 512u || (ncols & (ncols - 1u)))
			tcp_emu_violation(TCP_EMU_RULE_ALLOC_NCOLS, 0, ncols);
		if (s->relinquished)
			tcp_emu_violation(TCP_EMU_RULE_ALLOC_AFTER_RELINQUISH, 0, ncols);
		if (cg == 2u && s->cluster_bars == 0u)
			tcp_emu_violation(TCP_EMU_RULE_ALLOC2_NO_CLUSTER_BAR, 0, ncols);
		/* the peer read its %smid at its first hook, before the cluster
		 * barrier this alloc follows */
		if (cg == 2u && *(volatile unsigned *)&tcp_emu_peer()->smid1 == s->smid1)
			tcp_emu_violation(TCP_EMU_RULE_PAIR_ONE_SM, 0, ncols);
		unsigned *lock = tcp_emu_g.sm_lock + (s->smid1 - 1u);
		tcp_emu_col_t *meta = tcp_emu_meta_of(s);
		const unsigned long long t0 = tcp_globaltimer();
		unsigned col = TCP_EMU_COLS;
		for (;;) {
			/* Find a free aligned run without the lock, then claim it under
			 * the lock if it is still free: waiters never hold the lock for
			 * a scan, so a holder's dealloc is not starved by them. */
			unsigned cand = 0;
			while (cand < TCP_EMU_COLS && !tcp_emu_run_free(meta, cand, ncols))
				cand += ncols;
			if (cand < TCP_EMU_COLS) {
				tcp_emu_lock(lock);
				if (tcp_emu_run_free(meta, cand, ncols)) {
					for (unsigned j = 0; j < ncols; j++) {
						tcp_emu_col_t *m = &meta[cand + j];
						m->owner = blockIdx.x + 1u;
						m->wgen = m->rgen = 0u;
						for (unsigned q = 0; q < 4u; q++)
							m->st[q].warp1 = 0u;
					}
					col = cand;
					atomicAdd(&tcp_emu_g.counts->owned, (unsigned long long)ncols);
				}
				tcp_emu_unlock(lock);
			}
			if (col < TCP_EMU_COLS)
				break;
			if (tcp_globaltimer() - t0 > tcp_emu_g.budget_ns)
				tcp_emu_violation(TCP_EMU_RULE_ALLOC_BLOCKED, 0, ncols);
			__nanosleep(1000);
		}
		TCP_EMU_TRACE("alloc cta_group::%u %u columns -> column %u\n", blockIdx.x, tcp_emu_warp(), cg, ncols,
			      col);
		first = col;
	}
	/* the warp poisons the new columns together (lane l takes lanes l, l + 32, ...) */
	const unsigned col = __shfl_sync(0xffffffffu, first, 0);
	if (!(tcp_emu_g.flags & TCP_EMU_F_TMEM_STALE)) {
		uint32_t *t = tcp_emu_tmem_of(tcp_emu_cta());
		for (unsigned l = tcp_emu_lane(); l < TCP_EMU_LANES; l += 32u)
			for (unsigned j = 0; j < ncols; j++)
				t[l * TCP_EMU_COLS + col + j] = TCP_EMU_POISON;
	}
	__threadfence();
	__syncwarp();
	if (tcp_emu_lane() == 0)
		*(volatile uint32_t *)dst = col;
	__syncwarp();
}

/* The columns [col, col + n) belong to this CTA: else a violation of `rule`. */
TCP_EMU_INL void tcp_emu_owns(const tcp_emu_cta_t *s, unsigned col, unsigned n, unsigned rule)
{
	const tcp_emu_col_t *meta = tcp_emu_meta_of(s);
	if (col + n > TCP_EMU_COLS)
		tcp_emu_violation(rule, col, n);
	for (unsigned j = 0; j < n; j++)
		if (meta[col + j].owner != blockIdx.x + 1u)
			tcp_emu_violation(rule, col, n);
}

/* A generation g of issuer rank r is known complete to warp w. */
TCP_EMU_INL int tcp_emu_known(const tcp_emu_cta_t *s, unsigned w, unsigned r, unsigned g)
{
	return g == 0u || s->known[w][r & 1u] >= g;
}

/* Observed by some thread of the CTA, or handed to it by a barrier (the
 * dealloc rule: nothing in flight). */
TCP_EMU_INL int tcp_emu_observed(const tcp_emu_cta_t *s, unsigned r, unsigned g)
{
	if (g == 0u)
		return 1;
	if (s->pool[r & 1u] >= g)
		return 1;
	for (unsigned w = 0; w < TCP_EMU_WARPS; w++)	/* own warps, and what a cluster barrier brought */
		if (s->obs[w][r & 1u] >= g || s->synced[w][r & 1u] >= g || s->known[w][r & 1u] >= g)
			return 1;
	return 0;
}

TCP_EMU_DEV void tcp_emu_rt_dealloc(unsigned cg, uint32_t taddr, unsigned ncols)
{
	(void)cg;
	if (tcp_emu_lane() == 0) {
		tcp_emu_cta_t *s = tcp_emu_cta();
		const unsigned col = taddr & 0xffffu;
		if ((taddr >> 16) != 0u)
			tcp_emu_violation(TCP_EMU_RULE_DEALLOC_NOT_OWNED, col, ncols);
		tcp_emu_owns(s, col, ncols, TCP_EMU_RULE_DEALLOC_NOT_OWNED);
		unsigned *lock = tcp_emu_g.sm_lock + (s->smid1 - 1u);
		tcp_emu_col_t *meta = tcp_emu_meta_of(s);
		tcp_emu_lock(lock);
		for (unsigned j = 0; j < ncols; j++) {
			const tcp_emu_col_t m = meta[col + j];
			if (!tcp_emu_observed(s, m.wrank, m.wgen) || !tcp_emu_observed(s, m.rrank, m.rgen)) {
				tcp_emu_unlock(lock);
				tcp_emu_violation(TCP_EMU_RULE_DEALLOC_IN_FLIGHT, col, ncols);
			}
		}
		for (unsigned j = 0; j < ncols; j++)
			meta[col + j].owner = 0u;
		atomicAdd(&tcp_emu_g.counts->owned, 0ull - ncols);	/* wraps back: a subtraction */
		tcp_emu_unlock(lock);
		TCP_EMU_TRACE("dealloc %u columns at %u\n", blockIdx.x, tcp_emu_warp(), ncols, col);
	}
	__syncwarp();
}

TCP_EMU_DEV void tcp_emu_rt_relinquish(unsigned cg)
{
	(void)cg;
	if (tcp_emu_lane() == 0) {
		tcp_emu_cta()->relinquished = 1u;
		TCP_EMU_TRACE("relinquish_alloc_permit\n", blockIdx.x, tcp_emu_warp());
	}
	__syncwarp();
}

/* ---- barriers and fences ------------------------------------------------------- */

/* Before a CTA barrier: this warp's observations join the CTA's pool. */
TCP_EMU_DEV void tcp_emu_bar_publish(void)
{
	if (tcp_emu_lane() == 0) {
		tcp_emu_cta_t *s = tcp_emu_cta();
		const unsigned w = tcp_emu_warp();
		atomicMax(&s->pool[0], s->obs[w][0]);
		atomicMax(&s->pool[1], s->obs[w][1]);
		__threadfence();
	}
}

/* After a CTA barrier: what the pool holds is this warp's to take with fence::after. */
TCP_EMU_DEV void tcp_emu_bar_take(int cluster)
{
	if (tcp_emu_lane() == 0) {
		tcp_emu_cta_t *s = tcp_emu_cta();
		const unsigned w = tcp_emu_warp();
		unsigned p0 = *(volatile unsigned *)&s->pool[0], p1 = *(volatile unsigned *)&s->pool[1];
		if (cluster) {
			const tcp_emu_cta_t *q = tcp_emu_peer();
			const unsigned q0 = *(volatile const unsigned *)&q->pool[0];
			const unsigned q1 = *(volatile const unsigned *)&q->pool[1];
			p0 = p0 > q0 ? p0 : q0;
			p1 = p1 > q1 ? p1 : q1;
		}
		s->synced[w][0] = p0 > s->synced[w][0] ? p0 : s->synced[w][0];
		s->synced[w][1] = p1 > s->synced[w][1] ? p1 : s->synced[w][1];
		s->barriers[w]++;
		TCP_EMU_TRACE("%s barrier\n", blockIdx.x, w, cluster ? "cluster" : "CTA");
	}
	__syncwarp();
}

/* A cluster barrier completed: counted for the 2-CTA alloc rule. */
TCP_EMU_DEV void tcp_emu_cluster_done(void)
{
	if (threadIdx.x == 0)
		atomicAdd(&tcp_emu_cta()->cluster_bars, 1u);
}

/* tcgen05.fence::after_thread_sync: what the warp synced or observed becomes known. */
TCP_EMU_DEV void tcp_emu_fence_after(void)
{
	__threadfence();
	if (tcp_emu_lane() == 0) {
		tcp_emu_cta_t *s = tcp_emu_cta();
		const unsigned w = tcp_emu_warp();
		for (unsigned r = 0; r < 2; r++) {
			unsigned k = s->synced[w][r] > s->obs[w][r] ? s->synced[w][r] : s->obs[w][r];
			if (k > s->known[w][r])
				s->known[w][r] = k;
		}
		TCP_EMU_TRACE("fence::after_thread_sync\n", blockIdx.x, w);
	}
}

TCP_EMU_INL void tcp_emu_fence_before(void) { __threadfence(); }

/* ---- mbarrier shadows -------------------------------------------------------- */


/* The offset of a shared address inside its CTA's window.  In a cluster
 * launch a CTA's own shared::cta addresses carry its rank above bit 24
 * (rank 1 reads its barrier at 0x1000400 where rank 0 reads 0x400), so a
 * commit of the even CTA names the odd CTA's barrier by the offset the
 * two share, the same kernel's layout. */
#define TCP_EMU_SMEM_OFFSET(a) ((a) & 0xffffffu)

/* The shadow of the mbarrier at shared address `a` of CTA record s (created by init). */
TCP_EMU_INL tcp_emu_bar_t *tcp_emu_bar_find(tcp_emu_cta_t *s, uint32_t a)
{
	for (unsigned i = 0; i < s->nbar && i < TCP_EMU_BARS; i++)
		if (TCP_EMU_SMEM_OFFSET(s->bar[i].addr) == TCP_EMU_SMEM_OFFSET(a))
			return &s->bar[i];
	return 0;
}

TCP_EMU_DEV void tcp_emu_mbar_init(uint32_t a, unsigned count)
{
	tcp_emu_cta_t *s = tcp_emu_cta();
	tcp_emu_lock(&s->lock);
	tcp_emu_bar_t *b = tcp_emu_bar_find(s, a);
	if (!b && s->nbar < TCP_EMU_BARS)
		b = &s->bar[s->nbar++];
	if (b) {
		tcp_emu_bar_t z = {};
		*b = z;
		b->addr = a;
		b->count = count;
		b->pending = count;
		for (unsigned i = 0; i < TCP_EMU_WAITERS; i++)
			b->waiter[i] = 0xffffu;
	}
	tcp_emu_unlock(&s->lock);
}

/*
 * One arrive on the shadow of barrier `a` of CTA record s, covering
 * generations gen of issuer rank r (0 = a plain arrive).  Completing phase
 * q while a waiter has not observed phase q - 2 is phase aliasing: the
 * waiter's parity test cannot tell them apart.
 */
TCP_EMU_DEV void tcp_emu_bar_arrive(tcp_emu_cta_t *s, uint32_t a, unsigned r, unsigned gen)
{
	tcp_emu_lock(&s->lock);
	tcp_emu_bar_t *b = tcp_emu_bar_find(s, a);
	if (b) {
		if (gen > b->gen_cur[r & 1u])
			b->gen_cur[r & 1u] = gen;
		if (b->pending > 0u && --b->pending == 0u) {
			const unsigned q = b->phase;
			for (unsigned i = 0; i < TCP_EMU_WAITERS; i++)
				if (b->waiter[i] != 0xffffu && q >= 2u && b->seen[i] + 1u < q) {
					tcp_emu_unlock(&s->lock);
					tcp_emu_violation(TCP_EMU_RULE_PHASE_ALIAS, q, b->waiter[i]);
				}
			b->done[q & 1u][0] = b->gen_cur[0];
			b->done[q & 1u][1] = b->gen_cur[1];
			b->phase = q + 1u;
			b->pending = b->count;
		}
	}
	tcp_emu_unlock(&s->lock);
}

/* The waiter slot of this thread in b: its own, else the first free one,
 * else TCP_EMU_WAITERS (table full). */
TCP_EMU_INL unsigned tcp_emu_waiter_slot(const tcp_emu_bar_t *b)
{
	unsigned i = 0;
	while (i < TCP_EMU_WAITERS && b->waiter[i] != 0xffffu && b->waiter[i] != threadIdx.x)
		i++;
	return i;
}

/* A thread tests barrier `a`: from its first test on it is one of the
 * barrier's waiters, whose observed phase the phase-aliasing rule follows. */
TCP_EMU_DEV void tcp_emu_mbar_waiting(uint32_t a)
{
	tcp_emu_cta_t *s = tcp_emu_cta();
	tcp_emu_bar_t *b = tcp_emu_bar_find(s, a);
	if (!b)
		return;
	volatile const uint32_t *w = b->waiter;
	for (unsigned i = 0; i < TCP_EMU_WAITERS; i++)
		if (w[i] == threadIdx.x)
			return;
	tcp_emu_lock(&s->lock);
	const unsigned i = tcp_emu_waiter_slot(b);
	if (i < TCP_EMU_WAITERS && b->waiter[i] == 0xffffu) {
		b->waiter[i] = threadIdx.x;
		b->seen[i] = 0u;	/* none observed yet */
	}
	tcp_emu_unlock(&s->lock);
}

/* A successful parity test by this thread: the phase it saw, and what it covers. */
TCP_EMU_DEV void tcp_emu_mbar_observed(uint32_t a, unsigned parity)
{
	/* acquire at GPU scope: try_wait acquires at CTA scope, while the
	 * commit that completed the phase may be the peer CTA's, whose MMA
	 * wrote this CTA's emulated TMEM from another SM */
	__threadfence();
	tcp_emu_cta_t *s = tcp_emu_cta();
	const unsigned w = tcp_emu_warp();
	tcp_emu_lock(&s->lock);
	tcp_emu_bar_t *b = tcp_emu_bar_find(s, a);
	if (b && b->phase > 0u) {
		unsigned q = b->phase - 1u;	/* last completed phase */
		if ((q & 1u) != (parity & 1u))
			q = q > 0u ? q - 1u : 0u;
		for (unsigned r = 0; r < 2; r++)
			if (b->done[q & 1u][r] > s->obs[w][r])
				s->obs[w][r] = b->done[q & 1u][r];
		const unsigned i = tcp_emu_waiter_slot(b);
		if (i < TCP_EMU_WAITERS) {
			b->waiter[i] = threadIdx.x;
			if (q + 1u > b->seen[i])
				b->seen[i] = q + 1u;	/* phases observed, 1-based */
		}
	}
	tcp_emu_unlock(&s->lock);
	if (b)
		TCP_EMU_TRACE("thread %u observed bar 0x%x parity %u (phases completed %u)\n", blockIdx.x, w,
			      threadIdx.x, a, parity, b->phase);
}

/* A remote arrive (mbarrier.arrive.shared::cluster) on the barrier at cluster
 * address `ca`: the shadow of the owning CTA at the same offset
 * (tcp_emu_bar_find). */
TCP_EMU_DEV void tcp_emu_remote_arrive(uint32_t ca)
{
	unsigned r;
	asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(r) : "r"(ca));
	tcp_emu_bar_arrive((r & 1u) == (tcp_cluster_rank() & 1u) ? tcp_emu_cta() : tcp_emu_peer(), ca, 0, 0);
}

/* ---- commit ------------------------------------------------------------------- */

/*
 * tcp_emu_rt_commit(cg, mask, bar)
 *	tcgen05.commit: every MMA and cp this thread issued has completed (they
 *	ran synchronously), so the arrive happens now: a cluster-scope release
 *	on the barrier at `bar` of this CTA (mask 0) or of every CTA in the
 *	mask (multicast), after the shadow records which generations it covers.
 */
TCP_EMU_DEV void tcp_emu_rt_commit(unsigned cg, unsigned mask, uint32_t bar)
{
	(void)cg;
	tcp_emu_cta_t *s = tcp_emu_cta();
	const unsigned me = tcp_cluster_rank() & 1u, gen = s->gen;
	__threadfence();
	/* the native arrives are written here, not through trap.cuh's
	 * tcp_mbar_arrive / tcp_mbar_remote_arrive: those shadow a plain
	 * arrive themselves, and this one covers generations */
	if (mask == 0u) {
		tcp_emu_bar_arrive(s, bar, me, gen);
		asm volatile("mbarrier.arrive.release.cluster.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
	} else {
		for (unsigned r = 0; r < 2; r++) {
			if (!(mask & (1u << r)))
				continue;
			tcp_emu_cta_t *t = r == me ? s : tcp_emu_peer();
			tcp_emu_bar_arrive(t, bar, me, gen);
			const uint32_t ra = tcp_mapa_u32(bar, r);
			asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(ra) : "memory");
		}
	}
	TCP_EMU_TRACE("commit mask %u -> bar 0x%x covers gen %u\n", blockIdx.x, tcp_emu_warp(), mask, bar, gen);
}

/* ---- MMA and cp ---------------------------------------------------------------- */

/* The view of this CTA (and its peer for cta_group::2): shared windows, TMEM. */
TCP_EMU_DEV void tcp_emu_view(unsigned cg, tcp_emu_view_t *v, tcp_emu_cta_t **cs)
{
	const unsigned me = cg == 2u ? (tcp_cluster_rank() & 1u) : 0u;
	uint32_t tot = 0;	/* static + dynamic shared memory of the CTA (PTX %total_smem_size) */
	asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(tot));
	uint8_t *own = (uint8_t *)__cvta_shared_to_generic(0);
	cs[me] = tcp_emu_cta();
	v->smem[me] = own;
	v->tmem[me] = tcp_emu_tmem_of(cs[me]);
	v->smem_bytes[me] = tot;
	v->rank = me;
	if (cg == 2u) {
		uint64_t peer;
		asm volatile("mapa.u64 %0, %1, %2;" : "=l"(peer) : "l"((uint64_t)own), "r"(me ^ 1u));
		cs[me ^ 1u] = tcp_emu_peer();
		v->smem[me ^ 1u] = (uint8_t *)peer;
		v->tmem[me ^ 1u] = tcp_emu_tmem_of(cs[me ^ 1u]);
		v->smem_bytes[me ^ 1u] = tot;
	} else {
		cs[1] = 0;
		v->smem[1] = 0;
		v->tmem[1] = 0;
		v->smem_bytes[1] = 0;
	}
}

/*
 * Checker side of an async operation of this thread touching `sp` of CTA
 * record c: writes (write = 1) or reads columns; the pairs the PTX ISA
 * pipelines from the same thread pass (mma -> mma on the accumulator it
 * wrote, cp -> mma); anything else over an operation not yet known
 * complete to this warp is a violation.  Then the columns remember this
 * operation.
 */
TCP_EMU_DEV void tcp_emu_async_touch(tcp_emu_cta_t *c, const tcp_emu_span_t *sp, unsigned me, unsigned gen,
				     unsigned write, unsigned is_mma, unsigned rule_instr)
{
	if (!sp->cols)
		return;
	if (sp->col0 + sp->cols > TCP_EMU_COLS || sp->lane0 + sp->lanes > TCP_EMU_LANES)
		tcp_emu_violation(TCP_EMU_RULE_OUTSIDE_ALLOC + rule_instr, sp->col0, sp->cols);
	tcp_emu_col_t *meta = tcp_emu_meta_of(c);
	const unsigned owner = (unsigned)(c - tcp_emu_g.cta) + 1u;
	const tcp_emu_cta_t *s = tcp_emu_cta();
	const unsigned w = tcp_emu_warp();
	for (unsigned j = 0; j < sp->cols; j++) {
		tcp_emu_col_t *m = &meta[sp->col0 + j];
		if (m->owner != owner)
			tcp_emu_violation(TCP_EMU_RULE_OUTSIDE_ALLOC + rule_instr, sp->col0, sp->cols);
		if (write) {
			/* over a pending write: allowed for mma -> mma and cp -> mma from this issuer */
			if (m->wgen && !tcp_emu_known(s, w, m->wrank, m->wgen) &&
			    !(is_mma && m->wrank == me && (m->wkind == TCP_EMU_OP_MMA || m->wkind == TCP_EMU_OP_CP)))
				tcp_emu_violation(TCP_EMU_RULE_WRITE_IN_FLIGHT + rule_instr, sp->col0, sp->cols);
			/* over a pending read (an MMA reading A or scale factors there) */
			if (m->rgen && !tcp_emu_known(s, w, m->rrank, m->rgen) && !(is_mma && m->rrank == me))
				tcp_emu_violation(TCP_EMU_RULE_WRITE_IN_FLIGHT + rule_instr, sp->col0, sp->cols);
			m->wgen = gen;
			m->wrank = me;
			m->wkind = is_mma ? TCP_EMU_OP_MMA : TCP_EMU_OP_CP;
		} else {
			m->rgen = gen;
			m->rrank = me;
		}
	}
}

TCP_EMU_DEV void tcp_emu_rt_mma(unsigned kind, unsigned cg, unsigned ts, unsigned sv, uint32_t d, uint64_t a, uint64_t b,
			     uint32_t idesc, uint32_t sfa, uint32_t sfb, uint32_t acc, const uint32_t *mask)
{
	tcp_emu_view_t v;
	tcp_emu_cta_t *cs[2];
	tcp_emu_view(cg, &v, cs);
	tcp_emu_mma_fp_t fp;
	tcp_emu_fault(tcp_emu_mma_footprint(kind, cg, ts, sv, d, (uint32_t)a, idesc, sfa, sfb, &fp), TCP_EMU_OP_MMA);
	const unsigned me = v.rank, gen = ++cs[me]->gen;
	for (unsigned r = 0; r < (cg == 2u ? 2u : 1u); r++) {
		tcp_emu_async_touch(cs[r], &fp.a[r], me, gen, 0, 1, TCP_EMU_OP_MMA);
		tcp_emu_async_touch(cs[r], &fp.sfa[r], me, gen, 0, 1, TCP_EMU_OP_MMA);
		tcp_emu_async_touch(cs[r], &fp.sfb[r], me, gen, 0, 1, TCP_EMU_OP_MMA);
		tcp_emu_async_touch(cs[r], &fp.d[r], me, gen, 1, 1, TCP_EMU_OP_MMA);
	}
	float *scratch = tcp_emu_g.scratch + (size_t)(blockIdx.x % TCP_EMU_SCRATCH_SLOTS) * TCP_EMU_MMA_SCRATCH_FLOATS;
	tcp_emu_fault(tcp_emu_mma(&v, kind, cg, ts, sv, d, a, b, idesc, sfa, sfb, acc, mask, scratch), TCP_EMU_OP_MMA);
	TCP_EMU_TRACE("mma kind %u cta_group::%u ts %u d 0x%08x idesc 0x%08x acc %u gen %u\n", blockIdx.x,
		      tcp_emu_warp(), kind, cg, ts, d, idesc, acc, gen);
}

/*
 * tcgen05.cp with cta_group::2 copies each CTA's shared-memory source into
 * that CTA's own TMEM (emu-datapath.h tcp_emu_cp, once per CTA of the pair).
 */
TCP_EMU_DEV void tcp_emu_rt_cp(unsigned cg, unsigned shape, unsigned fmt, uint32_t taddr, uint64_t sdesc)
{
	tcp_emu_view_t v;
	tcp_emu_cta_t *cs[2];
	tcp_emu_view(cg, &v, cs);
	const unsigned me = v.rank, gen = ++cs[me]->gen;
	unsigned lane0, lanes, col0, cols;
	tcp_emu_cp_extent(shape, taddr, &lane0, &lanes, &col0, &cols);
	const tcp_emu_span_t sp = { lane0, lanes, col0, cols };
	for (unsigned r = 0; r < (cg == 2u ? 2u : 1u); r++) {
		tcp_emu_async_touch(cs[r], &sp, me, gen, 1, 0, TCP_EMU_OP_CP);
		tcp_emu_fault(tcp_emu_cp(v.smem[r], v.smem_bytes[r], v.tmem[r], taddr, shape, fmt, sdesc),
			      TCP_EMU_OP_CP);
	}
	TCP_EMU_TRACE("cp shape %u fmt %u taddr 0x%08x gen %u\n", blockIdx.x, tcp_emu_warp(), shape, fmt, taddr, gen);
}

/* ---- ld / st ------------------------------------------------------------------ */

/*
 * Checker side of a warp's tcgen05.ld / st: the lane quarter (a warp may
 * touch only lanes 32 x (warp % 4) .. + 31), the allocation, and, for ld,
 * no column an MMA or cp not yet known complete to this warp writes; for
 * st, no column such an operation reads or writes.
 */
TCP_EMU_DEV void tcp_emu_rt_ldst_check(uint32_t taddr, unsigned shape, unsigned num, unsigned pack, unsigned half,
				    unsigned st)
{
	if (tcp_emu_lane() != 0)
		return;
	const unsigned instr = st ? TCP_EMU_OP_ST : TCP_EMU_OP_LD;
	tcp_emu_cta_t *s = tcp_emu_cta();
	const unsigned w = tcp_emu_warp(), lane = taddr >> 16, col = taddr & 0xffffu;
	unsigned lanes = 0, cols = 0;
	tcp_emu_ldst_extent(shape, num, pack, half, &lanes, &cols);
	if (lane < 32u * (w % 4u) || lane + lanes > 32u * (w % 4u) + 32u)
		tcp_emu_violation(TCP_EMU_RULE_LANE_QUARTER + instr, col, cols);
	tcp_emu_owns(s, col, cols, TCP_EMU_RULE_OUTSIDE_ALLOC + instr);
	tcp_emu_col_t *meta = tcp_emu_meta_of(s);
	const unsigned q = w % 4u, rel = lane - 32u * q;
	const uint32_t lanes_mask = lanes >= 32u ? 0xffffffffu : ((1u << lanes) - 1u) << rel;
	const uint16_t bars = (uint16_t)s->barriers[w];
	TCP_EMU_TRACE("%s lanes %u..%u columns %u..%u\n", blockIdx.x, w, st ? "st" : "ld", lane, lane + lanes - 1u, col,
		      col + cols - 1u);
	for (unsigned j = 0; j < cols; j++) {
		tcp_emu_col_t *m = &meta[col + j];
		if (!tcp_emu_known(s, w, m->wrank, m->wgen) || (st && !tcp_emu_known(s, w, m->rrank, m->rgen)))
			tcp_emu_violation((st ? TCP_EMU_RULE_WRITE_IN_FLIGHT : TCP_EMU_RULE_READ_IN_FLIGHT) + instr, col,
					  cols);
		if (!st)
			continue;
		/* st race: another warp stored these cells and this warp has
		 * completed no barrier since that store (the other warp's count
		 * then, the barrier after its store being the next one) */
		tcp_emu_stmark_t *k = &m->st[q];
		if (k->warp1 && k->warp1 != w + 1u && (k->lanes & lanes_mask) && (int16_t)(bars - k->bars) <= 0)
			tcp_emu_violation(TCP_EMU_RULE_ST_RACE, col, cols);
		k->lanes = lanes_mask;
		k->warp1 = (uint16_t)(w + 1u);
		k->bars = bars;
	}
}

/* Poison words among the n registers a warp's ld returned, counted for the
 * row (a timed-only path may read poison; a validated one is INVALID through
 * the probe's own comparison).  Packed, a poison column pair reads as its
 * two low halves. */
TCP_EMU_DEV void tcp_emu_count_poison(const uint32_t *r, unsigned n, unsigned pack)
{
	const uint32_t half = (TCP_EMU_POISON & 0xffffu) * 0x10001u;
	unsigned c = 0;
	for (unsigned i = 0; i < n; i++)
		c += r[i] == TCP_EMU_POISON || (pack && r[i] == half);
	c = __reduce_add_sync(0xffffffffu, c);
	if (tcp_emu_lane() == 0 && c)
		atomicAdd(&tcp_emu_g.counts->poison, (unsigned long long)c);
}

TCP_EMU_DEV void tcp_emu_rt_ld(uint32_t taddr, unsigned shape, unsigned num, unsigned pack, unsigned half, uint32_t *r)
{
	tcp_emu_rt_ldst_check(taddr, shape, num, pack, half, 0);
	__syncwarp();
	tcp_emu_fault(tcp_emu_ld(tcp_emu_tmem_of(tcp_emu_cta()), taddr, shape, num, pack, half, tcp_emu_lane(), r),
		      TCP_EMU_OP_LD);
	tcp_emu_count_poison(r, tcp_emu_ldst_regs(shape, num), pack);
}

TCP_EMU_DEV void tcp_emu_rt_st(uint32_t taddr, unsigned shape, unsigned num, unsigned unpack, unsigned half,
			    const uint32_t *r)
{
	tcp_emu_rt_ldst_check(taddr, shape, num, unpack, half, 1);
	__syncwarp();
	tcp_emu_fault(tcp_emu_st(tcp_emu_tmem_of(tcp_emu_cta()), taddr, shape, num, unpack, half, tcp_emu_lane(),
				      r),
		      TCP_EMU_OP_ST);
}

/* tcgen05.ld.red 32x32b .f32 (min = 1: .min, else .max): the load's checks, then the reduction. */
TCP_EMU_DEV void tcp_emu_rt_ld_red(uint32_t taddr, unsigned num, unsigned min, uint32_t *r, float *red)
{
	uint32_t rv = 0;
	tcp_emu_rt_ldst_check(taddr, TCP_EMU_LD_32X32B, num, 0, 0, 0);
	__syncwarp();
	tcp_emu_fault(tcp_emu_ld_red(tcp_emu_tmem_of(tcp_emu_cta()), taddr, TCP_EMU_LD_32X32B, num, 0, tcp_emu_lane(),
				     min ? TCP_EMU_RED_MIN : TCP_EMU_RED_MAX, TCP_EMU_RED_F32, 0, r, &rv),
		      TCP_EMU_OP_LD);
	tcp_emu_count_poison(r, tcp_emu_ldst_regs(TCP_EMU_LD_32X32B, num), 0);
	*red = __uint_as_float(rv);
}

#endif /* __CUDACC__ && TCP_TC_EMU */
#endif /* TCP_TC_EMU_CUH */
