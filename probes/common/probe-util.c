/*
 * probe-util.c
 *	Host-side helpers over the probe descriptor, shared by harness and probes.
 */
#include <string.h>

#include "probes/common/probe.h"

/* The warp family's cubin targets, from the Makefile (WARP_ARCHS). */
#ifndef TCP_WARP_TARGETS
#define TCP_WARP_TARGETS "sm_80+"
#endif

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

const char *tcp_arch_name(tcp_arch_t a)
{
	switch (a) {
	case TCP_ARCH_HOST: return "host";
	case TCP_ARCH_SM90A: return "sm_90a";
	case TCP_ARCH_SM100A: return "sm_100a";
	case TCP_ARCH_ANY: return "sm_90a,sm_100a";
	case TCP_ARCH_WARP: return TCP_WARP_TARGETS;
	}
	return "?";
}

int tcp_arch_runs_on(tcp_arch_t a, int cc)
{
	switch (a) {
	case TCP_ARCH_HOST: return 1;
	case TCP_ARCH_SM90A: return cc == 90;
	case TCP_ARCH_SM100A: return cc == 100;
	case TCP_ARCH_ANY: return cc == 90 || cc == 100;
	case TCP_ARCH_WARP: return cc >= 80;	/* compute_80 PTX: the driver JITs it for newer GPUs */
	}
	return 0;
}
