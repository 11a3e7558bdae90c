/*
 * tc-emu-host.c
 *	The emulation build's host side (tc-emu-host.h): one set of buffers
 *	per process, so that emulated TMEM persists from launch to launch and
 *	from probe to probe as an SM's TMEM does; the rules' texts.
 */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "probes/emu/emu-mma.h"
#include "probes/emu/tc-emu-host.h"

static tcp_emu_glob_t bufs;	/* device pointers; tmem == NULL until the first bind */
static tcp_emu_diag_t *diag;	/* mapped host memory, one for the process */
static unsigned nsm;
static tcp_emu_binder_t binders[64];
static unsigned nbinders;

int tcp_emu_host_register(tcp_emu_binder_t b)
{
	if (nbinders < sizeof binders / sizeof binders[0])
		binders[nbinders++] = b;
	return 1;
}

static const struct {
	unsigned rule;
	const char *text, *section;
} rules[] = {
	{ TCP_EMU_RULE_ALLOC_NCOLS, "alloc of a column count that is not a power of two in 32..512",
	  "tcgen05.alloc" },
	{ TCP_EMU_RULE_ALLOC_AFTER_RELINQUISH, "alloc after relinquish_alloc_permit", "tcgen05.alloc" },
	{ TCP_EMU_RULE_ALLOC2_NO_CLUSTER_BAR, "cta_group::2 alloc with no cluster barrier before it",
	  "tcgen05.alloc (the issuing warp must make sure the peer CTA is launched)" },
	{ TCP_EMU_RULE_ALLOC_BLOCKED, "alloc blocked past the wait budget: no columns were freed",
	  "tcgen05.alloc (blocks until columns are free)" },
	{ TCP_EMU_RULE_DEALLOC_NOT_OWNED, "dealloc of columns the CTA does not own", "tcgen05.dealloc" },
	{ TCP_EMU_RULE_DEALLOC_IN_FLIGHT, "dealloc with an MMA or cp on those columns not yet observed complete",
	  "tcgen05.dealloc; tcgen05 memory consistency" },
	{ TCP_EMU_RULE_EXIT_ALLOCATED, "CTA exited with columns allocated", "tcgen05.dealloc (all columns freed before exit)" },
	{ TCP_EMU_RULE_PHASE_ALIAS, "arrive completes phase k+2 while a waiter has not observed phase k",
	  "mbarrier phase completion; mbarrier.try_wait.parity" },
	{ TCP_EMU_RULE_PAIR_ONE_SM, "the two CTAs of a cta_group::2 pair run on one SM (the emulation keeps one TMEM "
	  "image per SM, so the pair's columns would collide)", "tcgen05.alloc (cta_group::2: a CTA pair on two SMs)" },
	{ TCP_EMU_RULE_ST_RACE, "tcgen05.st to cells another warp stored with no barrier between the stores",
	  "tcgen05 memory consistency (tcgen05.wait::st, fence::before_thread_sync, barrier, fence::after_thread_sync)" },
};

static const char *const ops[TCP_EMU_NOPS] = { "alloc", "mma", "cp", "ld", "st", "commit", "dealloc" };
static const char *const faults[TCP_EMU_NFAULTS] = { "ok", "illegal instruction descriptor",
	"illegal shared-memory descriptor", "TMEM address outside 128 x 512 or misaligned",
	"operand outside the CTA's shared memory", "form not emulated" };

const char *tcp_emu_rule_text(unsigned rule)
{
	static char buf[128];
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
		if (rules[i].rule == rule)
			return rules[i].text;
	const unsigned op = rule % 16u;
	const char *o = op < TCP_EMU_NOPS ? ops[op] : "?";
	if (rule >= TCP_EMU_RULE_FAULT_BASE) {
		unsigned f = (rule - TCP_EMU_RULE_FAULT_BASE) / 16u;
		snprintf(buf, sizeof buf, "tcgen05.%s: %s", o, f < TCP_EMU_NFAULTS ? faults[f] : "fault");
	} else if (rule >= TCP_EMU_RULE_READ_IN_FLIGHT)
		snprintf(buf, sizeof buf, "tcgen05.%s of columns an MMA or cp not yet known complete writes", o);
	else if (rule >= TCP_EMU_RULE_WRITE_IN_FLIGHT)
		snprintf(buf, sizeof buf, "tcgen05.%s writes columns an MMA or cp not yet known complete reads or writes", o);
	else if (rule >= TCP_EMU_RULE_LANE_QUARTER)
		snprintf(buf, sizeof buf, "tcgen05.%s by a warp outside its lane quarter 32 x (warp %% 4) .. +31", o);
	else if (rule >= TCP_EMU_RULE_OUTSIDE_ALLOC)
		snprintf(buf, sizeof buf, "tcgen05.%s outside the CTA's allocation", o);
	else
		snprintf(buf, sizeof buf, "rule %u", rule);
	return buf;
}

const char *tcp_emu_rule_section(unsigned rule)
{
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
		if (rules[i].rule == rule)
			return rules[i].section;
	if (rule >= TCP_EMU_RULE_FAULT_BASE)
		return "tcgen05 instruction and shared-memory descriptors";
	if (rule >= TCP_EMU_RULE_WRITE_IN_FLIGHT)
		return "tcgen05 memory consistency (pipelined pairs; wait, barrier, fence::after_thread_sync)";
	if (rule >= TCP_EMU_RULE_LANE_QUARTER)
		return "tcgen05.ld/st access restrictions";
	return "tcgen05 tensor memory allocation";
}

#define TRY(x)                                                                                          \
	do {                                                                                            \
		cudaError_t e_ = (x);                                                                   \
		if (e_ != cudaSuccess) {                                                                \
			snprintf(c->reason, TCP_REASON_LEN, "emulation buffers: %s: %s", #x,            \
				 cudaGetErrorString(e_));                                               \
			return -1;                                                                      \
		}                                                                                       \
	} while (0)

int tcp_emu_host_bind(tcp_ctx_t *c)
{
	if (!bufs.tmem) {
		TRY(cudaHostAlloc((void **)&diag, sizeof *diag, cudaHostAllocMapped));
		memset(diag, 0, sizeof *diag);
		nsm = c->sm_count > 0 ? (unsigned)c->sm_count : 1u;
		if (nsm > TCP_EMU_MAX_SMS) {
			snprintf(c->reason, TCP_REASON_LEN, "emulation: %u SMs, at most %u emulated", nsm,
				 TCP_EMU_MAX_SMS);
			return -1;
		}
		const size_t words = (size_t)nsm * TCP_EMU_LANES * TCP_EMU_COLS;
		TRY(cudaMalloc((void **)&bufs.tmem, words * 4));
		/* poison as bytes 0x7f: every word 0x7f7f7f7f (a NaN pattern, as the poison word) */
		TRY(cudaMemset(bufs.tmem, 0x7f, words * 4));
		TRY(cudaMalloc((void **)&bufs.meta, (size_t)nsm * TCP_EMU_COLS * sizeof(tcp_emu_col_t)));
		TRY(cudaMemset(bufs.meta, 0, (size_t)nsm * TCP_EMU_COLS * sizeof(tcp_emu_col_t)));
		TRY(cudaMalloc((void **)&bufs.sm_lock, nsm * sizeof(uint32_t)));
		TRY(cudaMemset(bufs.sm_lock, 0, nsm * sizeof(uint32_t)));
		TRY(cudaMalloc((void **)&bufs.cta, TCP_EMU_MAX_CTAS * sizeof(tcp_emu_cta_t)));
		TRY(cudaMemset(bufs.cta, 0, TCP_EMU_MAX_CTAS * sizeof(tcp_emu_cta_t)));
		TRY(cudaMalloc((void **)&bufs.counts, sizeof *bufs.counts));
		TRY(cudaMemset(bufs.counts, 0, sizeof *bufs.counts));
		TRY(cudaMalloc((void **)&bufs.scratch,
			       (size_t)TCP_EMU_SCRATCH_SLOTS * TCP_EMU_MMA_SCRATCH_FLOATS * sizeof(float)));
		bufs.nsm = nsm;
	}
	tcp_emu_glob_t g = bufs;
	void *d = NULL;
	TRY(cudaHostGetDevicePointer(&d, diag, 0));
	g.diag = (tcp_emu_diag_t *)d;
	g.flags = c->emu_flags;
	g.trace_cta = (uint32_t)c->emu_trace_cta;
	g.mutant = (uint32_t)c->emu_mutant;
	/* the allocator's blocking bound: the point's wait budget (cycles) at the max clock */
	double mhz = c->sm_clock_max_mhz > 0 ? c->sm_clock_max_mhz : 1000.0;
	g.budget_ns = c->wait_budget_cycles ? (unsigned long long)((double)c->wait_budget_cycles * 1000.0 / mhz)
					    : 1000000000ull;
	if (nbinders == 0) {
		snprintf(c->reason, TCP_REASON_LEN, "emulation: no probe module registered its binder");
		return -1;
	}
	for (unsigned i = 0; i < nbinders; i++)
		if (binders[i](&g)) {
			snprintf(c->reason, TCP_REASON_LEN, "emulation: binding the buffers into probe module %u failed", i);
			return -1;
		}
	return 0;
}

tcp_status_t tcp_emu_host_after_launch(tcp_ctx_t *c, tcp_status_t st, int ok)
{
	volatile tcp_emu_diag_t *d = diag;
	if (d && d->claimed) {
		const unsigned rule = d->rule;
		snprintf(c->reason, TCP_REASON_LEN, "emulation checker: %s [PTX ISA: %s] at CTA %u warp %u, columns %u..%u",
			 tcp_emu_rule_text(rule), tcp_emu_rule_section(rule), d->cta, d->warp, d->col0,
			 d->col0 + (d->cols ? d->cols - 1u : 0u));
		snprintf(c->site, sizeof(c->site), "emulation checker: %.44s", tcp_emu_rule_text(rule));
		memset((void *)diag, 0, sizeof *diag);
		st = TCP_FAILED;
	}
	if (!ok || !bufs.tmem)
		return st;
	tcp_emu_counts_t n = { 0, 0 };
	if (cudaMemcpy(&n, bufs.counts, sizeof n, cudaMemcpyDeviceToHost) != cudaSuccess)
		n.owned = 1;	/* unknown: scan the columns */
	c->emu_poison_words += (long long)n.poison;
	if (n.poison)
		cudaMemset(&bufs.counts->poison, 0, sizeof n.poison);
	if (!n.owned) {
		cudaMemset(bufs.cta, 0, TCP_EMU_MAX_CTAS * sizeof(tcp_emu_cta_t));
		return st;
	}
	/* columns still owned after the launch: a CTA exited with them
	 * allocated; they are freed for the next launch (written back only then) */
	static tcp_emu_col_t meta[TCP_EMU_MAX_SMS * TCP_EMU_COLS];
	const size_t bytes = (size_t)nsm * TCP_EMU_COLS * sizeof(tcp_emu_col_t);
	if (cudaMemcpy(meta, bufs.meta, bytes, cudaMemcpyDeviceToHost) == cudaSuccess) {
		int leaked = 0;
		for (unsigned i = 0; i < nsm * TCP_EMU_COLS; i++) {
			if (!meta[i].owner)
				continue;
			if (st == TCP_OK) {
				snprintf(c->reason, TCP_REASON_LEN,
					 "emulation checker: %s [PTX ISA: %s] at CTA %u: SM %u column %u",
					 tcp_emu_rule_text(TCP_EMU_RULE_EXIT_ALLOCATED),
					 tcp_emu_rule_section(TCP_EMU_RULE_EXIT_ALLOCATED), meta[i].owner - 1u,
					 i / TCP_EMU_COLS, i % TCP_EMU_COLS);
				snprintf(c->site, sizeof(c->site), "emulation checker: %.44s",
					 tcp_emu_rule_text(TCP_EMU_RULE_EXIT_ALLOCATED));
				st = TCP_FAILED;
			}
			meta[i].owner = 0u;
			leaked = 1;
		}
		if (leaked)
			cudaMemcpy(bufs.meta, meta, bytes, cudaMemcpyHostToDevice);
		cudaMemset(&bufs.counts->owned, 0, sizeof n.owned);
	}
	cudaMemset(bufs.cta, 0, TCP_EMU_MAX_CTAS * sizeof(tcp_emu_cta_t));
	return st;
}
