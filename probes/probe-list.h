/*
 * probe-list.h
 *	Every probe tcprobe knows, one line each (stress-ng's X-macro table).
 *	Adding a probe = its own file + one line here.  harness/sweep/registry.c
 *	expands this into the externs and the registry table.
 */
#ifndef TCP_PROBE_LIST_H
#define TCP_PROBE_LIST_H

#define TCP_PROBES(X) \
	X(calib) \
	X(trap_check) \
	X(host_timer) \
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
	X(tc_epilogue) \
	X(wgmma_tput) \
	X(wgmma_lat) \
	X(wgmma_sync) \
	X(wgmma_epilogue) \
	X(mma_sync) \
	X(warp_mma) \
	X(wgmma_layout)

#endif
