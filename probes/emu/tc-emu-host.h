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

/*
 * tcp_emu_host_bind()
 *	Fill *g with the process's buffers (allocated on the first call: TMEM
 *	images in poison) and this launch's status word and diagnostic record;
 *	the caller copies *g into its module's tcp_emu_g.  0, or -1 with
 *	c->reason set.
 */
int tcp_emu_host_bind(tcp_ctx_t *c, unsigned long long *status, tcp_emu_diag_t *diag, tcp_emu_glob_t *g);

/*
 * tcp_emu_host_after_launch()
 *	After a launch's synchronise: a checker trap becomes FAILED naming the
 *	rule, the PTX ISA section, the CTA, warp and columns; a launch that
 *	left columns allocated is FAILED (a CTA exited without dealloc); the
 *	records are reset for the next launch.  Returns the verdict (`st`
 *	unless the checker found something).  `ok`: the launch itself
 *	succeeded (after a trap the context is gone and nothing is read back).
 */
tcp_status_t tcp_emu_host_after_launch(tcp_ctx_t *c, tcp_status_t st, unsigned long long w, tcp_emu_diag_t *diag,
				       int ok);

/* CTAs that allocated on each SM in the last launch (n entries, 0-filled past the SMs). */
int tcp_emu_host_ctas_per_sm(unsigned *out, unsigned n);

#ifdef __cplusplus
}
#endif

#endif /* TCP_TC_EMU_HOST_H */
