/*
 * emulate.c
 *	The harness side of an emulated run (emulate.h): options, which probes
 *	run, the target legality is asked for, timeout scaling, plan options
 *	and provenance.  Built into both binaries; TCP_EMULATE_BUILD (the
 *	Makefile's EMULATE=1) only decides what tcp_emulate_build() says.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/sweep/emulate.h"
#include "probes/emu/tc-emu-mutants.h"
#include "harness/sweep/spec.h"

#ifndef TCP_EMULATE_BUILD
#define TCP_EMULATE_BUILD 0
#endif

int tcp_emulate_build(void)
{
	return TCP_EMULATE_BUILD ? 1 : 0;
}

void tcp_emu_opts_init(tcp_emu_opts_t *e)
{
	e->target = NULL;
	e->flags = 0;
	e->trace_cta = -1;
	e->mutant = 0;
	e->slowdown = 1.0;
	e->slowdown_given = 0;
}

/* The tcgen05 targets, as a list for messages: "sm_100a, sm_103a, sm_110a". */
static const char *tc_targets(char *buf, size_t len)
{
	return tcp_target_list(TCP_ARCH_TCGEN05, buf, len);
}

static int parse_tmem(tcp_emu_opts_t *e, const char *val, char *err, size_t len)
{
	if (!strcmp(val, "poison")) {
		e->flags &= ~TCP_EMU_F_TMEM_STALE;
	} else if (!strcmp(val, "stale")) {
		e->flags |= TCP_EMU_F_TMEM_STALE;
	} else {
		snprintf(err, len, "--emu-tmem: got '%s', expected poison or stale", val);
		return -1;
	}
	return 1;
}

static int parse_mutant(tcp_emu_opts_t *e, const char *val, char *err, size_t len)
{
	for (int m = 0; m < TCP_MUT_COUNT; m++)
		if (!strcmp(val, tcp_mutants[m].name)) {
			e->mutant = m;
			return 1;
		}
	snprintf(err, len, "--emu-mutant: got '%s', expected a planted defect of probes/emu/tc-emu-mutants.h "
		 "(none, %s, ..., %s)", val, tcp_mutants[1].name, tcp_mutants[TCP_MUT_COUNT - 1].name);
	return -1;
}

static int parse_trace(tcp_emu_opts_t *e, const char *val, char *err, size_t len)
{
	long long iv;
	if (tcp_parse_int("--emu-trace", val, 0, TCP_EMU_TRACE_CTA_MAX, &iv, err, len))
		return -1;
	e->trace_cta = (int)iv;
	e->flags |= TCP_EMU_F_TRACE;
	return 1;
}

static int parse_slowdown(tcp_emu_opts_t *e, const char *val, char *err, size_t len)
{
	char *end;
	errno = 0;
	double dv = strtod(val, &end);
	if (!*val || *end || errno || !isfinite(dv) || dv < TCP_EMU_SLOWDOWN_MIN || dv > TCP_EMU_SLOWDOWN_MAX) {
		snprintf(err, len, "--emu-slowdown: got '%s', expected a factor in %g..%g", val,
			 TCP_EMU_SLOWDOWN_MIN, TCP_EMU_SLOWDOWN_MAX);
		return -1;
	}
	e->slowdown = dv;
	e->slowdown_given = 1;
	return 1;
}

int tcp_emu_parse_opt(tcp_emu_opts_t *e, const char *opt, const char *val, int emulate_build, char *err,
		      size_t len)
{
	static const struct {
		const char *name;
		int (*parse)(tcp_emu_opts_t *e, const char *val, char *err, size_t len);
	} opts[] = {
		{ "--emu-tmem", parse_tmem }, { "--emu-trace", parse_trace },
		{ "--emu-slowdown", parse_slowdown }, { "--emu-mutant", parse_mutant },
	};
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		if (strcmp(opt, opts[i].name))
			continue;
		if (!emulate_build) {
			snprintf(err, len, "%s: only in the emulation build: got '%s' in the release build, expected "
				 "build-emu/tcprobe (make EMULATE=1; ./sweep --emulate)", opt, val);
			return -1;
		}
		return opts[i].parse(e, val, err, len);
	}
	return 0;
}

int tcp_emu_finish(tcp_emu_opts_t *e, const tcp_target_info_t *arch, int emulate_build, char *err,
		   size_t len)
{
	char tl[128];

	if (!emulate_build)
		return 0;
	if (!arch)
		arch = tcp_target_find(TCP_EMU_DEFAULT_TARGET);
	if (!arch || !(TCP_ARCH_TCGEN05 & TCP_TGT_BIT(arch->id))) {
		snprintf(err, len, "--arch: the emulation build emulates a tcgen05 target: got '%s', expected one of %s",
			 arch ? arch->name : "?", tc_targets(tl, sizeof(tl)));
		return -1;
	}
	e->target = arch;
	if (!e->slowdown_given)
		e->slowdown = TCP_EMU_SLOWDOWN_DEFAULT;
	return 0;
}

const char *tcp_emu_why_not(tcp_arch_t a, int cc, const tcp_target_info_t *emu, unsigned built, char *buf,
			    size_t len)
{
	const tcp_target_info_t *gpu = cc ? tcp_target_by_cc(cc) : NULL;

	if (a == TCP_ARCH_HOST)
		return NULL;
	if (!emu || !(a & TCP_TGT_BIT(emu->id))) {
		snprintf(buf, len, "not emulated: the emulation covers the tcgen05 probes only (this probe has "
			 "code for %s, not %s)", tcp_arch_name(a), emu ? emu->name : "?");
		return buf;
	}
	if (cc && (!gpu || gpu->id != TCP_EMU_HOST_TARGET || !(built & TCP_TGT_BIT(gpu->id)))) {
		snprintf(buf, len, "the emulation build runs on %s (Hopper, compute capability 9.0) only: got "
			 "compute capability %d.%d", tcp_targets[TCP_EMU_HOST_TARGET].name, cc / 10, cc % 10);
		return buf;
	}
	return NULL;
}

const char *tcp_emu_built(tcp_arch_t a, const tcp_target_info_t *t, int emulate_build, unsigned built,
			  const char *left_out, char *buf, size_t len)
{
	const char *no = emulate_build ? tcp_emu_why_not(a, 0, t, built, buf, len)
				       : tcp_arch_why_not_in(a, t->cc, built, left_out, buf, len);
	if (no)
		return no;
	return emulate_build && a != TCP_ARCH_HOST ? "emulated on sm_90a (make EMULATE=1)" : "built";
}

const tcp_target_info_t *tcp_emu_plan_target(const tcp_emu_opts_t *e, int cc)
{
	return e && e->target ? e->target : tcp_target_by_cc(cc);
}

int tcp_emu_counters(const char *given, const char **out, char *err, size_t len)
{
	if (given && strcmp(given, "none") != 0) {
		snprintf(err, len, "--counters: an emulated run has no tcgen05 counters (CUPTI would count the "
			 "emulator's instructions): got '%s', expected none", given);
		return -1;
	}
	*out = "none";
	return 0;
}

double tcp_emu_timeout(const tcp_emu_opts_t *e, double plan_timeout_s)
{
	return e && e->target ? plan_timeout_s * e->slowdown : plan_timeout_s;
}

const char *tcp_emu_tmem_name(unsigned flags)
{
	return flags & TCP_EMU_F_TMEM_STALE ? "stale" : "poison";
}

int tcp_emu_to_plan(const tcp_emu_opts_t *e, tcp_plan_t *pl)
{
	char b[64];

	if (!e->target)
		return 0;
	snprintf(b, sizeof(b), "%.17g", e->slowdown);
	if (tcp_plan_set_option(pl, "emulated", e->target->name) ||
	    tcp_plan_set_option(pl, "emu_tmem", tcp_emu_tmem_name(e->flags)) ||
	    tcp_plan_set_option(pl, "emu_slowdown", b))
		return -1;
	if (e->mutant && tcp_plan_set_option(pl, "emu_mutant", tcp_mutants[e->mutant].name))
		return -1;
	snprintf(b, sizeof(b), "%d", e->flags & TCP_EMU_F_TRACE ? e->trace_cta : -1);
	return tcp_plan_set_option(pl, "emu_trace", b);
}

int tcp_emu_from_plan(tcp_emu_opts_t *e, const tcp_plan_t *pl, char *err, size_t len)
{
	const char *t = tcp_plan_option(pl, "emulated");
	const char *m = tcp_plan_option(pl, "emu_tmem");
	const char *sd = tcp_plan_option(pl, "emu_slowdown");
	const char *tr = tcp_plan_option(pl, "emu_trace");
	const char *mu = tcp_plan_option(pl, "emu_mutant");
	tcp_emu_opts_t x;
	long long iv;

	tcp_emu_opts_init(e);
	if (!t || !*t)
		return 0;
	tcp_emu_opts_init(&x);
	if (!(x.target = tcp_target_find(t)) || !(TCP_ARCH_TCGEN05 & TCP_TGT_BIT(x.target->id))) {
		char tl[128];
		snprintf(err, len, "plan option emulated: got '%s', expected one of %s", t, tc_targets(tl, sizeof(tl)));
		return -1;
	}
	if (tcp_emu_parse_opt(&x, "--emu-tmem", m ? m : "poison", 1, err, len) < 0 ||
	    tcp_emu_parse_opt(&x, "--emu-slowdown", sd ? sd : "", 1, err, len) < 0 ||
	    (mu && tcp_emu_parse_opt(&x, "--emu-mutant", mu, 1, err, len) < 0))
		return -1;
	if (tr && strcmp(tr, "-1") != 0) {
		if (tcp_parse_int("plan option emu_trace", tr, 0, TCP_EMU_TRACE_CTA_MAX, &iv, err, len))
			return -1;
		x.trace_cta = (int)iv;
		x.flags |= TCP_EMU_F_TRACE;
	}
	*e = x;
	return 0;
}

int tcp_emu_resume_check(const tcp_emu_opts_t *planned, int emulate_build, const char *dir, char *err,
			 size_t len)
{
	if (planned->target && !emulate_build) {
		snprintf(err, len, "--resume %s: an emulated run (of %s): got the release build, expected "
			 "build-emu/tcprobe (make EMULATE=1)", dir, planned->target->name);
		return -1;
	}
	if (!planned->target && emulate_build) {
		snprintf(err, len, "--resume %s: a hardware run: got the emulation build, expected the release "
			 "build (build/tcprobe): emulated rows must not join a hardware run", dir);
		return -1;
	}
	return 0;
}

void tcp_emu_fill_ctx(const tcp_emu_opts_t *e, tcp_ctx_t *c)
{
	c->emu_target = e->target;
	c->emu_flags = e->target ? e->flags : 0;
	c->emu_trace_cta = e->target && (e->flags & TCP_EMU_F_TRACE) ? e->trace_cta : -1;
	c->emu_slowdown = e->target ? e->slowdown : 1.0;
	c->emu_mutant = e->target ? e->mutant : 0;
}

int tcp_emu_provenance(const tcp_emu_opts_t *e, tcp_prov_t *p)
{
	if (!e->target)
		return 0;
	return tcp_prov_set(p, "emulated", e->target->name) | tcp_prov_set(p, "emu_tmem", tcp_emu_tmem_name(e->flags)) |
	       tcp_prov_setf(p, "emu_slowdown", "%g", e->slowdown) |
	       (e->mutant ? tcp_prov_set(p, "emu_mutant", tcp_mutants[e->mutant].name) : 0);
}
