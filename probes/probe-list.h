/*
 * probe-list.h
 *	Every probe tcprobe knows, one line each (stress-ng's X-macro table).
 *	Adding a probe = its own file + one line here.  harness/sweep/registry.c
 *	expands this into the externs and the registry table.
 */
#ifndef TCP_PROBE_LIST_H
#define TCP_PROBE_LIST_H

/* The tcgen05 probes: the only ones the emulation build (make EMULATE=1,
 * TCP_EMULATE_BUILD) compiles, for sm_90a with their tcgen05 instructions
 * emulated; its registry holds these alone. */
#define TCP_PROBES_TCGEN05(X) \
	X(tc_alloc) \
	X(tc_ldst) \
	X(tc_ldred) \
	X(tc_commit) \
	X(tc_cp) \
	X(tc_mma_lat) \
	X(tc_mma_ii) \
	X(tc_mma_tput) \
	X(tc_mma_k96) \
	X(tc_layout) \
	X(tc_epilogue)

#if defined(TCP_EMULATE_BUILD) && TCP_EMULATE_BUILD
#define TCP_PROBES(X) TCP_PROBES_TCGEN05(X)
#else
#define TCP_PROBES(X) \
	X(calib) \
	X(trap_check) \
	X(host_timer) \
	TCP_PROBES_TCGEN05(X) \
	X(wgmma_tput) \
	X(wgmma_lat) \
	X(wgmma_sync) \
	X(wgmma_epilogue) \
	X(mma_sync) \
	X(warp_mma) \
	X(wgmma_layout)
#endif

#endif
