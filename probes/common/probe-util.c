/*
 * probe-util.c
 *	Host-side helpers over the probe descriptor, shared by harness and probes.
 */
#include <stdio.h>
#include <string.h>

#include "probes/common/probe.h"

int tcp_axis_index(const tcp_probe_t *p, const char *axis)
{
	for (int i = 0; i < p->naxes; i++)
		if (strcmp(p->axes[i].name, axis) == 0)
			return i;
	return -1;
}

const char *tcp_status_name(tcp_status_t s)
{
	switch (s) {
	case TCP_OK: return "OK";
	case TCP_FAILED: return "FAILED";
	case TCP_TIMEOUT: return "TIMEOUT";
	case TCP_INVALID: return "INVALID";
	case TCP_SKIPPED: return "SKIPPED";
	case TCP_UNSUPPORTED: return "UNSUPPORTED";
	case TCP_BLOCKED: return "BLOCKED";
	}
	return "?";
}

/* Baked in by the Makefile (ARCHS and what the toolkit could not build);
 * a build without them (a test compiling this file alone) holds nothing. */
#ifndef TCP_BUILD_TARGETS
#define TCP_BUILD_TARGETS ""
#endif
#ifndef TCP_BUILD_LEFT_OUT
#define TCP_BUILD_LEFT_OUT ""
#endif

#ifndef TCP_BUILD_PTX80
#define TCP_BUILD_PTX80 0
#endif

/* The cubin targets, plus TCP_ARCH_PTX80 when the fatbin keeps compute_80 PTX. */
unsigned tcp_build_targets(void)
{
	return tcp_target_mask_parse(TCP_BUILD_TARGETS) | (TCP_BUILD_PTX80 ? TCP_ARCH_PTX80 : 0u);
}

const char *tcp_build_left_out(void)
{
	return TCP_BUILD_LEFT_OUT;
}

const char *tcp_build_toolkit(void)
{
#ifdef TCP_CUDA_TOOLKIT
	return TCP_CUDA_TOOLKIT;
#else
	return "?";
#endif
}

/* Names of a target set, comma-joined; one string per distinct set, kept for
 * the life of the process (few sets exist: one per probe family). */
const char *tcp_arch_name(tcp_arch_t a)
{
	static struct { tcp_arch_t a; char s[96]; } memo[32];
	static int n;

	if (a == TCP_ARCH_HOST)
		return "host";
	for (int i = 0; i < n; i++)
		if (memo[i].a == a)
			return memo[i].s;
	if (n == (int)(sizeof(memo) / sizeof(memo[0])))
		return "?";
	char buf[96];
	tcp_target_list(a, buf, sizeof(buf));
	if (a & TCP_ARCH_PTX80)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), ",compute_80");
	for (char *c = buf, *o = memo[n].s;; c++) {	/* ", " -> "," */
		if (*c == ' ')
			continue;
		if (!(*o++ = *c))
			break;
	}
	memo[n].a = a;
	return memo[n++].s;
}

static int runs_in(tcp_arch_t a, int cc, unsigned built)
{
	const tcp_target_info_t *t;

	if (a == TCP_ARCH_HOST)
		return 1;
	if ((a & built & TCP_ARCH_PTX80) && cc >= 80)
		return 1;	/* compute_80 PTX: the driver JITs it for any newer GPU */
	t = tcp_target_by_cc(cc);
	return t && (a & built & TCP_TGT_BIT(t->id));
}

int tcp_arch_runs_on(tcp_arch_t a, int cc)
{
	return runs_in(a, cc, tcp_build_targets());
}

const char *tcp_arch_why_not(tcp_arch_t a, int cc, char *buf, size_t len)
{
	return tcp_arch_why_not_in(a, cc, tcp_build_targets(), tcp_build_left_out(), buf, len);
}

const char *tcp_arch_why_not_in(tcp_arch_t a, int cc, unsigned built, const char *left_out, char *buf,
				size_t len)
{
	const tcp_target_info_t *t = tcp_target_by_cc(cc);
	char held[160];

	if (runs_in(a, cc, built))
		return NULL;
	tcp_target_list(built, held, sizeof(held));
	if (!t)
		snprintf(buf, len, "tcprobe knows no target of compute capability %d.%d (this build holds %s; "
			 "'a' cubins run only on their own compute capability): it needs an sm_%da target in "
			 "model/arch.c and the Makefile", cc / 10, cc % 10, *held ? held : "none", cc);
	else if (!(a & TCP_TGT_BIT(t->id)))
		snprintf(buf, len, "probe built for %s only, not %s", tcp_arch_name(a), t->name);
	else
		snprintf(buf, len, "this build holds no %s cubin (it holds %s%s%s); rebuild with CUDA %s or "
			 "newer: make ARCHS=%s (or plain make)", t->name, *held ? held : "none",
			 *left_out ? "; left out: " : "", left_out, t->min_cuda, t->name);
	return buf;
}
