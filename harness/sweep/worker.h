/*
 * worker.h
 *	The worker: a forked child that owns the CUDA context of one GPU and
 *	runs the points the supervisor sends it, one at a time.  The supervisor
 *	never touches CUDA; if a point crashes, hangs or corrupts the context,
 *	only this process dies and a fresh one takes the next point.
 *
 *	Line protocol (fields separated by TAB, one message per line):
 *	  supervisor -> worker (cmd pipe)
 *	    RUN <idx> <defer>         run plan point idx; defer 1: its counter
 *	                              pass may wait for a batch (counters.h)
 *	    FLUSH                     run the waiting points' counter pass now
 *	                              (the next point is not for this worker)
 *	    QUIT                      exit (EOF does the same)
 *	  worker -> supervisor (result pipe)
 *	    PROV <key> <value>        provenance of the GPU (first worker only)
 *	    CTR <text>                counters: "ok", "off" or why they are NA
 *	    TIMER <text>              --timer cupti: "ok" or why it is NA
 *	    BUSY <pid> <rtt_us>       GPU workers, before HELLO: this worker's pid as
 *	                              NVML lists it (-1 unknown) and the launch round
 *	                              trip of an empty kernel (contention.h)
 *	    HELLO <cc> <sm_count>     ready (cc 0: host-only, no CUDA touched)
 *	    NOGPU <reason>            no usable CUDA device; the worker exits
 *	    BADGPU <count>            --gpu is out of range; the worker exits
 *	  supervisor -> worker, during an energy window only:
 *	    EW                        the window opens (power has settled, the energy
 *	                              counter just moved): count run() calls from here
 *	    EX                        the window closes
 *	  per point, in this order:
 *	    EB <idx>                              --energy: the load begins (run() back
 *	                                          to back until EX)
 *	    EE <idx> <runs> <work_flop> <sec>     ... and ended: run() calls and seconds
 *	                                          between EW and EX, FLOP of one
 *	                                          (ctx.work_flop, -1 n/a)
 *	    C <idx> <rtt_before> <rtt_after>      GPU points: launch round trips (us)
 *	                                          before the point and after it
 *	    P <idx> <status> <nsamples> <nmetrics> <stop> <work_flop>
 *	                                          stop: why the timed runs ended
 *	                                          (fixed, noise, max, budget; - when
 *	                                          a run failed), stats.h; work_flop:
 *	                                          FLOP of one run() (ctx.work_flop,
 *	                                          -1 n/a)
 *	    S <m> <v_1> ... <v_nsamples>          nmetrics lines, %.17g, nan
 *	                                          (nmetrics = the probe's, + 1 for
 *	                                          --timer cupti on a GPU probe)
 *	    K <name> <unit> <value> <status> <reason>   counter rows (OK points)
 *	    E <idx> <sticky> <site> <reason>      sticky 1: the CUDA context is
 *	                                          poisoned and the worker exits;
 *	                                          site: the wait that failed
 *	                                          (ctx.site, "" none), block.h
 *	    W <idx>                               instead of K .. E: the counter
 *	                                          pass waits for the batch (the
 *	                                          probe's state kept till then)
 *	  counter batches: after a W, or after any point while points wait, the
 *	  worker owes an F; before it, when the batch ran (one CUPTI pass for all
 *	  of them, harness/measure/counters.h), every waiting point, in order:
 *	    X <idx> <status>                      its final status, then its K
 *	                                          rows and E <idx> ... as above
 *	    F                                     end (no X: the batch still waits)
 *	  The worker runs the batch when the RUN said defer 0, when it is full
 *	  (TCP_COUNTERS_BATCH_MAX), before a point that cannot join, when device
 *	  memory runs low, or on FLUSH.  A run() that fails under the batch's pass
 *	  ends the worker (exit 4); the supervisor then runs the waiting points
 *	  again one at a time (RUN <idx> 0), each under its own verdict.
 *	Anything else on the result pipe is a protocol error: the point is
 *	FAILED and the worker replaced.  Every message is encoded and decoded
 *	in harness/sweep/protocol.c.
 */
#ifndef TCP_WORKER_H
#define TCP_WORKER_H

#include <stdint.h>
#include <sys/types.h>

#include "harness/sweep/config.h"
#include "harness/sweep/plan.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	const tcp_plan_t *plan;
	const tcp_run_config_t *cfg;	/* the run's configuration (config.h): seed,
					 * counters, timer, repetition rule, energy
					 * window, emulation */
	int gpu;		/* CUDA ordinal; -1 = host probes only: never touch CUDA */
	int collect_prov;	/* send PROV lines (first worker of a run only) */
	int cmd_fd, res_fd;	/* pipes to/from the supervisor */
	pid_t parent;		/* the supervisor, for the parent-death check */
} tcp_worker_args_t;

/* Runs in the child after fork(); never returns. */
void tcp_worker_main(const tcp_worker_args_t *a) __attribute__((noreturn));

#ifdef __cplusplus
}
#endif
#endif /* TCP_WORKER_H */
