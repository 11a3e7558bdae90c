/*
 * tc-emu-state.h
 *	The emulation build's process-wide state as both sides see it: the
 *	buffers the host allocates once (tc-emu-host.c) and binds into each
 *	probe module (tcp_emu_g, tc-emu.cuh), the per-CTA and per-column
 *	records of the checker, the diagnostic record beside the status word,
 *	and the checker's rules with the PTX ISA section each enforces.
 *	Plain C: the host reads the diagnostic record and names the rule.
 */
#ifndef TCP_TC_EMU_STATE_H
#define TCP_TC_EMU_STATE_H

#include <stdint.h>

#include "probes/emu/emu-view.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TCP_EMU_MAX_SMS 256u	/* emulated TMEM images (an H200 has 132 SMs) */
#define TCP_EMU_MAX_CTAS 8192u	/* CTA records of one launch */
#define TCP_EMU_WARPS 32u	/* warps per CTA (1024 threads) */
#define TCP_EMU_BARS 8u		/* mbarrier shadows per CTA */
#define TCP_EMU_WAITERS 4u	/* threads per mbarrier whose observed phase is tracked */
/* MMA scratch (emu-mma.h TCP_EMU_MMA_SCRATCH_FLOATS floats each): one per CTA
 * index modulo this (an MMA probe's grid is at most two CTAs per SM) */
#define TCP_EMU_SCRATCH_SLOTS 1024u
/* What newly allocated columns hold by default: a NaN as f32 (and far from
 * any s32 result), so a validated result that reads it is INVALID.  Columns
 * no CTA ever wrote hold 0x7f7f7f7f (the buffers' first fill). */
#define TCP_EMU_POISON 0x7fbad0adu


/* The instruction a rule fired on (added to the rule code). */
enum { TCP_EMU_OP_ALLOC = 0, TCP_EMU_OP_MMA, TCP_EMU_OP_CP, TCP_EMU_OP_LD, TCP_EMU_OP_ST, TCP_EMU_OP_COMMIT,
       TCP_EMU_OP_DEALLOC, TCP_EMU_NOPS };

/* Checker rules.  A rule with an instruction is RULE + TCP_EMU_OP_*. */
enum {
	TCP_EMU_RULE_NONE = 0,
	TCP_EMU_RULE_ALLOC_NCOLS = 1,
	TCP_EMU_RULE_ALLOC_AFTER_RELINQUISH,
	TCP_EMU_RULE_ALLOC2_NO_CLUSTER_BAR,
	TCP_EMU_RULE_ALLOC_BLOCKED,
	TCP_EMU_RULE_DEALLOC_NOT_OWNED,
	TCP_EMU_RULE_DEALLOC_IN_FLIGHT,
	TCP_EMU_RULE_EXIT_ALLOCATED,
	TCP_EMU_RULE_PHASE_ALIAS,
	TCP_EMU_RULE_ST_RACE,			/* two warps' tcgen05.st to the same cells, no barrier between */
	TCP_EMU_RULE_PAIR_ONE_SM,		/* the two CTAs of a cta_group::2 pair on one SM */
	TCP_EMU_RULE_OUTSIDE_ALLOC = 16,	/* + op */
	TCP_EMU_RULE_LANE_QUARTER = 32,		/* + op */
	TCP_EMU_RULE_WRITE_IN_FLIGHT = 48,	/* + op */
	TCP_EMU_RULE_READ_IN_FLIGHT = 64,	/* + op */
	TCP_EMU_RULE_FAULT_BASE = 80,		/* + fault * 16 + op: an executor's TCP_EMU_BAD_* */
};

/* The last tcgen05.st to one column in one lane quarter (the st-race rule). */
typedef struct {
	uint32_t lanes;		/* lanes of the quarter it wrote (bit l = lane 32q + l) */
	uint16_t warp1;		/* the storing warp + 1, 0 = none since the alloc */
	uint16_t bars;		/* CTA barriers that warp had completed when it stored */
} tcp_emu_stmark_t;

/* One TMEM column of one SM. */
typedef struct {
	uint32_t owner;		/* CTA index + 1 of this launch, 0 = free */
	uint32_t wgen, rgen;	/* last async write / read (generation of its issuer; 0 none) */
	uint8_t wrank, rrank;	/* the issuer's rank in its pair */
	uint8_t wkind;		/* TCP_EMU_OP_MMA or _CP */
	tcp_emu_stmark_t st[4];	/* per lane quarter */
} tcp_emu_col_t;

/* The shadow of one mbarrier. */
typedef struct {
	uint32_t addr;			/* shared::cta address */
	uint32_t count, pending, phase;	/* arrival count, arrivals missing, phases completed */
	uint32_t gen_cur[2];		/* generations covered by commits of the current phase */
	uint32_t done[2][2];		/* [phase & 1][issuer rank]: covered when that phase completed */
	uint32_t waiter[TCP_EMU_WAITERS];	/* thread index of a waiter, 0xffff = none */
	uint32_t seen[TCP_EMU_WAITERS];	/* phases that waiter observed (1-based index of the last) */
} tcp_emu_bar_t;

/* One CTA of the current launch. */
typedef struct {
	uint32_t lock;
	uint32_t smid1;			/* %smid + 1, read once; 0 = not yet */
	uint32_t cluster_bars;		/* cluster barriers this CTA completed */
	uint32_t relinquished;
	uint32_t gen;			/* MMAs and cps this CTA issued */
	uint32_t pool[2];		/* observations merged at CTA barriers, per issuer rank */
	uint32_t obs[TCP_EMU_WARPS][2];	/* per warp: generations it observed complete */
	uint32_t synced[TCP_EMU_WARPS][2];	/* per warp: what its last barrier handed it */
	uint32_t known[TCP_EMU_WARPS][2];	/* per warp: known complete (after fence::after) */
	uint32_t barriers[TCP_EMU_WARPS];	/* per warp: CTA and cluster barriers completed */
	uint32_t nbar;
	tcp_emu_bar_t bar[TCP_EMU_BARS];
} tcp_emu_cta_t;

/* The first violation of a launch (mapped host memory: readable after the trap). */
typedef struct {
	uint32_t claimed, rule, cta, warp, col0, cols;
} tcp_emu_diag_t;

/* Counters the host reads after each launch (tcp_emu_host_after_launch). */
typedef struct {
	unsigned long long poison;	/* poison words tcgen05.ld / ld.red returned */
	unsigned long long owned;	/* columns allocated and not freed, every SM */
} tcp_emu_counts_t;

/* What each module's tcp_emu_g holds (device pointers). */
typedef struct {
	uint32_t *tmem;			/* [sm][128][512] */
	tcp_emu_col_t *meta;		/* [sm][512] */
	uint32_t *sm_lock;		/* [sm] */
	tcp_emu_cta_t *cta;		/* [TCP_EMU_MAX_CTAS] */
	float *scratch;			/* [TCP_EMU_SCRATCH_SLOTS][TCP_EMU_MMA_SCRATCH_FLOATS] */
	tcp_emu_diag_t *diag;		/* mapped host memory, one for the process */
	tcp_emu_counts_t *counts;	/* this launch's counters, read after it */
	unsigned long long budget_ns;	/* bound of the allocator's blocking wait */
	uint32_t flags;			/* tcp_ctx_t.emu_flags: TCP_EMU_F_* (probes/common/probe.h) */
	uint32_t trace_cta;
	uint32_t mutant;		/* tcp_ctx_t.emu_mutant: the planted defect (tc-emu-mutants.h), 0 none */
	uint32_t nsm;
} tcp_emu_glob_t;

/* The rule's text and the PTX ISA section it enforces (tc-emu-host.c). */
const char *tcp_emu_rule_text(unsigned rule);
const char *tcp_emu_rule_section(unsigned rule);

#ifdef __cplusplus
}
#endif

#endif /* TCP_TC_EMU_STATE_H */
