/*
 * tc-emu-host.h
 *	Host side of the emulation build: the process's emulation buffers
 *	(emulated TMEM of every SM, the column and CTA records of the checker),
 *	bound into a probe module before its launches, and the verdict after a
 *	launch (the checker's rule by name, columns a CTA left allocated).
 *	Linked only into the emulation binary (make EMULATE=1).
 */
#ifndef TCP_TC_EMU_HOST_H
#define TCP_TC_EMU_HOST_H

#include "probes/common/probe.h"
#include "probes/emu/tc-emu-state.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A probe module's binder: copies *g into that module's tcp_emu_g (tc-emu.cuh). */
typedef int (*tcp_emu_binder_t)(const tcp_emu_glob_t *g);

/* Each probe module registers its binder once, at program start (a static
 * initialiser in tc-emu.cuh); returns 1. */
int tcp_emu_host_register(tcp_emu_binder_t b);

/*
 * tcp_emu_host_bind()
 *	The process's buffers (allocated on the first call: TMEM images filled
 *	0x7f, the diagnostic record in mapped host memory) and this run's
 *	options, copied into every registered module.  0, or -1 with c->reason.
 */
int tcp_emu_host_bind(tcp_ctx_t *c);

/*
 * tcp_emu_host_after_launch()
 *	After a launch's synchronise: a checker trap (the diagnostic record is
 *	claimed) becomes FAILED naming the rule, the PTX ISA section, the CTA,
 *	warp and columns; a launch that left columns allocated is FAILED (a CTA
 *	exited without dealloc); the records are reset for the next launch.
 *	Returns the verdict (`st` unless the checker found something).  `ok`:
 *	the launch itself succeeded (after a trap the context is gone and only
 *	the mapped diagnostic record is read).
 */
tcp_status_t tcp_emu_host_after_launch(tcp_ctx_t *c, tcp_status_t st, int ok);

#ifdef __cplusplus
}
#endif

#endif /* TCP_TC_EMU_HOST_H */
