/*
 * registry.c
 *	The probe table, expanded from probes/probe-list.h.
 */
#include <string.h>

#include "probes/common/probe.h"
#include "probes/probe-list.h"

#define TCP_PROBE_EXTERN(n) extern const tcp_probe_t tcp_probe_##n;
TCP_PROBES(TCP_PROBE_EXTERN)

#define TCP_PROBE_ELEM(n) &tcp_probe_##n,
const tcp_probe_t *const tcp_probes[] = { TCP_PROBES(TCP_PROBE_ELEM) NULL };
const int tcp_nprobes = (int)(sizeof(tcp_probes) / sizeof(tcp_probes[0])) - 1;

const tcp_probe_t *tcp_probe_find(const char *name)
{
	for (int i = 0; i < tcp_nprobes; i++)
		if (strcmp(tcp_probes[i]->name, name) == 0)
			return tcp_probes[i];
	return NULL;
}
