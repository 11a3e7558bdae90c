/*
 * emulate.h
 *	The harness side of an emulated run: the emulation build (make
 *	EMULATE=1, TCP_EMULATE_BUILD=1) runs the tcgen05 probes on a Hopper GPU
 *	with every tcgen05 instruction emulated (probes/emu/).  This file owns
 *	what the sweep engine decides for such a run, so that every decision
 *	is one function the tests call with an emulated target set:
 *	  - the emulation options (`--arch`, `--emu-tmem`, `--emu-trace`,
 *	    `--emu-slowdown`) and their refusal in the release build;
 *	  - which probes run (those with code for the emulated target, on an
 *	    sm_90a GPU) and which target legality is asked for (the emulated
 *	    one, exactly as `tcprobe run --dry-run --arch T` asks);
 *	  - the point timeout and in-kernel wait budget, scaled by the
 *	    slowdown;
 *	  - the plan options that carry all of it into plan.txt (so --resume
 *	    sees it: read back once into the run configuration, config.h,
 *	    which the worker is handed) and the provenance keys `emulated`,
 *	    `emu_tmem`, `emu_slowdown`.
 *	docs/emulated-runs.md describes an emulated run end to end.
 */
#ifndef TCP_EMULATE_H
#define TCP_EMULATE_H

#include <stddef.h>

#include "harness/store/provenance.h"
#include "harness/sweep/plan.h"
#include "probes/common/probe.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Default slowdown.  An emulated tcgen05.mma runs in the one issuing thread:
 * the largest shape (cta_group::2, M = 256, N = 256, K = 16 f16) is 1 Mi
 * multiply-adds at a few cycles each, ~1e6-1e7 cycles where the tensor core
 * takes ~1e2-1e3, so the device part of a point is 1e3-1e4 times slower.
 * A point's hardware time is mostly host work (setup, CPU reference,
 * launches) and stays well under a second against its 30 s (default) or
 * 60 s (blackwell.sweep) timeout; 100 x that timeout (50-100 min) covers a
 * point whose device part is that much slower while a real hang still ends
 * the same day (and after 3 such, the BLOCKED rule stops the probe).  The
 * measured factor on the H200 replaces this estimate.
 */
#define TCP_EMU_SLOWDOWN_DEFAULT 100.0
#define TCP_EMU_SLOWDOWN_MIN	 1.0
#define TCP_EMU_SLOWDOWN_MAX	 10000.0
#define TCP_EMU_TRACE_CTA_MAX	 2147483647LL	/* cudaDevAttrMaxGridDimX */
#define TCP_EMU_DEFAULT_TARGET	 "sm_100a"
/* The series an emulated run adds to every tcgen05 point: poison words its
 * tcgen05.ld / ld.red returned (a timed-only path's reads; counted, not failed) */
#define TCP_EMU_POISON_METRIC	 "emu_poison_words"
/* The target the emulation build's cubins are for: the GPU it runs on. */
#define TCP_EMU_HOST_TARGET	 TCP_TGT_SM90A

typedef struct {
	const tcp_target_info_t *target;	/* the emulated target; NULL = a real run */
	unsigned flags;				/* TCP_EMU_F_* (probes/common/probe.h) */
	int trace_cta;				/* --emu-trace CTA; -1 = none */
	int mutant;				/* --emu-mutant NAME (tcp_mutant_t); 0 = none */
	double slowdown;			/* --emu-slowdown; 1 in a real run */
	int slowdown_given;			/* --emu-slowdown was on the command line */
} tcp_emu_opts_t;

/* 1 in the emulation build (TCP_EMULATE_BUILD), 0 in the release build. */
int tcp_emulate_build(void);

/* A real run's options: no target, no flags, no trace, slowdown 1. */
void tcp_emu_opts_init(tcp_emu_opts_t *e);

/*
 * tcp_emu_parse_opt()
 *	One emulation option of `tcprobe run` ("--emu-tmem" poison|stale,
 *	"--emu-trace" CTA, "--emu-slowdown" X): 1 when `opt` is one of them
 *	and val was stored; 0 when `opt` is none of them; -1 with one line in
 *	err naming the value and the legal range, or, when emulate_build is 0,
 *	that the option needs the emulation build.
 */
int tcp_emu_parse_opt(tcp_emu_opts_t *e, const char *opt, const char *val, int emulate_build, char *err,
		      size_t len);

/*
 * tcp_emu_finish()
 *	After the command line: in the emulation build every run and dry run
 *	is emulated: `arch` (--arch, NULL = TCP_EMU_DEFAULT_TARGET) must be a
 *	tcgen05 target and becomes e->target; the slowdown defaults to
 *	TCP_EMU_SLOWDOWN_DEFAULT.  The release build leaves e a real run's.
 *	0, or -1 with one line in err.
 */
int tcp_emu_finish(tcp_emu_opts_t *e, const tcp_target_info_t *arch, int emulate_build, char *err,
		   size_t len);

/*
 * tcp_emu_why_not()
 *	Why a probe of target set `a` does not run emulated, on a GPU of
 *	compute capability cc, in a binary holding cubins `built`: "not
 *	emulated: ..." for a probe without code for the emulated target, or
 *	the emulation build needing an sm_90a GPU.  NULL (buf untouched) when
 *	it runs.  Host-only probes run.  cc 0: the GPU is not known yet (a dry
 *	run): only the probe is asked.
 */
const char *tcp_emu_why_not(tcp_arch_t a, int cc, const tcp_target_info_t *emu, unsigned built, char *buf,
			    size_t len);

/*
 * tcp_emu_built()
 *	`tcprobe list --arch T`'s "built" column: in the emulation build,
 *	"emulated on sm_90a" for a probe that runs emulated for T, else why
 *	not; in the release build, "built" or why this binary cannot run it
 *	there (tcp_arch_why_not_in with `built`, `left_out`).
 */
const char *tcp_emu_built(tcp_arch_t a, const tcp_target_info_t *t, int emulate_build, unsigned built,
			  const char *left_out, char *buf, size_t len);

/* The target whose legality a run asks: the emulated one, else the GPU's. */
const tcp_target_info_t *tcp_emu_plan_target(const tcp_emu_opts_t *e, int cc);

/*
 * tcp_emu_counters()
 *	The counter set of an emulated run: none.  CUPTI would count the
 *	emulator's instructions, and the cross-check of tensor instructions
 *	(issued vs counted) would call every point INVALID.  `given` (--counters,
 *	NULL = not given) must be NULL or "none"; *out = "none".  0, or -1 with
 *	one line in err.
 */
int tcp_emu_counters(const char *given, const char **out, char *err, size_t len);

/* Seconds a point may take: its plan timeout x the slowdown when emulated. */
double tcp_emu_timeout(const tcp_emu_opts_t *e, double plan_timeout_s);

/*
 * Plan options (plan.txt "#option"): `emulated` (target name), `emu_tmem`
 * (poison|stale), `emu_trace` (CTA, -1 none), `emu_slowdown`.  A real run
 * writes none.  tcp_emu_to_plan: 0, -1 when an option does not fit.
 * tcp_emu_from_plan: e from the plan (a real run's when it has none); 0, or
 * -1 with one line in err for a malformed value.
 */
int tcp_emu_to_plan(const tcp_emu_opts_t *e, tcp_plan_t *pl);
int tcp_emu_from_plan(tcp_emu_opts_t *e, const tcp_plan_t *pl, char *err, size_t len);

/*
 * tcp_emu_resume_check()
 *	--resume: a run is finished by a binary of its own kind only (an
 *	emulated run's rows must not be mixed with hardware's, nor the other
 *	way).  0, or -1 with one line in err.
 */
int tcp_emu_resume_check(const tcp_emu_opts_t *planned, int emulate_build, const char *dir, char *err,
			 size_t len);

/* "poison" or "stale": the TMEM policy word of the flags. */
const char *tcp_emu_tmem_name(unsigned flags);

/* Provenance keys of an emulated run: `emulated` (the target), `emu_tmem`
 * (poison|stale), `emu_slowdown`; none for a real run.  0, or nonzero when
 * a key could not be stored. */
int tcp_emu_provenance(const tcp_emu_opts_t *e, tcp_prov_t *p);

/* Fill the emulation fields of a probe context from e. */
void tcp_emu_fill_ctx(const tcp_emu_opts_t *e, tcp_ctx_t *c);

#ifdef __cplusplus
}
#endif
#endif /* TCP_EMULATE_H */
