/*
 * contention.h
 *	Is other work on the GPU while a point runs?  A shared GPU slows every
 *	time-based number (TFLOP/s fell 22% beside a PyTorch GEMM loop) while
 *	the run looks normal, so each point gets a `contended` flag from three
 *	witnesses, any one of which suffices:
 *
 *	  processes  NVML's compute and MPS process lists, at the point's start
 *	             and end, minus our own worker
 *	  samples    NVML's per-process utilization samples newer than the
 *	             point's start: a process that came and went between two
 *	             list checks still left samples
 *	  timing     the worker's launch round trip (an empty kernel, launch to
 *	             synchronize, min of TCP_RTT_LAUNCHES), which needs no NVML:
 *	             ~10 us on an idle H200, 2.4 ms beside a GEMM loop that
 *	             time-slices the GPU (results/h200-contention); over TCP_BUSY_RTT_US = busy
 *
 *	Our own worker: inside a container NVML lists host pids, so getpid()
 *	never matches.  The worker is recognised as the pid that appeared in
 *	the list when its context was created (the first worker diffs the list
 *	around its own cuInit/context, a restarted one is diffed by the
 *	supervisor); when that fails, one context is counted as ours.
 *
 *	Pure C over tcp_nvml_*; the decision functions are unit-tested
 *	(tests/test-contention.c).
 */
#ifndef TCP_CONTENTION_H
#define TCP_CONTENTION_H

#include "harness/measure/nvml.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TCP_BUSY_RTT_US		250.0	/* launch round trip above this: the GPU is shared */
#define TCP_RTT_LAUNCHES	5	/* the round trip is the min over this many launches */
#define TCP_BUSY_MAX_PIDS	256	/* processes tracked per check */
#define TCP_BUSY_POLL_S		1.0	/* utilization samples read at least this often */

/* The run-wide state: which NVML device, who we are, what can be read. */
typedef struct {
	int nvml;			/* NVML index, -1: no NVML witnesses */
	long self;			/* the worker's pid as NVML lists it, -1 unknown */
	int procs_ok;			/* last process-list check: 1 read, 0 failed */
	int util_ok;			/* last utilization read: 1 read, 0 not supported */
	char procs_why[128];		/* why a check failed (first failure) */
	char util_why[128];
	unsigned int before[TCP_BUSY_MAX_PIDS];	/* spawn diff: the list before */
	int nbefore;			/* -1: no list taken */
	int mps_clients;		/* last MPS list */
	int points, contended;		/* GPU points checked / flagged this session */
	int max_others;			/* most other processes seen at once */
	unsigned int other[TCP_BUSY_MAX_PIDS];	/* every other pid seen (for names) */
	int nother;
} tcp_busy_t;

/* One point's window. */
typedef struct {
	unsigned long long t0_us;	/* start, us since 1970 (NVML's sample clock) */
	unsigned long long seen_us;	/* utilization read up to here */
	double next_poll;		/* monotonic s of the next poll */
	int others;			/* max other processes at a check, -1 none read */
	int util_others;		/* distinct other pids with SM work in the window, -1 none read */
	double rtt_us;			/* worker's round trip, max of before/after; NaN none */
	int contended;			/* -1 unknown (no witness), 0, 1 */
	char why[200];			/* the evidence, for log.txt */
} tcp_busy_point_t;

void tcp_busy_init(tcp_busy_t *b, int nvml);

/* A worker is about to create its context: take the list it will join. */
void tcp_busy_spawn_begin(tcp_busy_t *b);
/* ... it has (HELLO): self = the worker's own diff when it sent one (>= 0),
 * else the pid that appeared since tcp_busy_spawn_begin. */
void tcp_busy_spawn_end(tcp_busy_t *b, long reported_self);

/* The state of the GPU right now (run start, --require-idle): utilization
 * samples over the last lookback_s seconds, rtt from the worker's HELLO. */
void tcp_busy_now(tcp_busy_t *b, double lookback_s, double rtt_us, tcp_busy_point_t *p);

/* A point's window: begin before RUN, poll while it runs (cheap when not
 * due), end when its result is in, with the worker's round trips. */
void tcp_busy_point_begin(tcp_busy_t *b, tcp_busy_point_t *p, double mono_now);
void tcp_busy_point_poll(tcp_busy_t *b, tcp_busy_point_t *p, double mono_now);
void tcp_busy_point_end(tcp_busy_t *b, tcp_busy_point_t *p, double rtt_before_us,
			double rtt_after_us);

/* --- the rules, pure ------------------------------------------------------ */

/* The one pid in after[] that is not in before[]; with no before list, the
 * only pid of after[]; else -1. */
long tcp_busy_self(const unsigned int *before, int nb, const unsigned int *after, int na);

/* Other processes in pids[0..n): those != self; self unknown: all but one
 * (our worker holds a context), never below 0. */
int tcp_busy_others(const unsigned int *pids, int n, long self);

/* Distinct pids other than self with sm_util > 0 among samples newer than
 * since_us; self unknown: all active pids but one. */
int tcp_busy_util_others(const tcp_nvml_util_t *s, int n, long self, unsigned long long since_us);

/* The verdict: 1 when any witness says busy, 0 when at least one witness
 * was read and none does, -1 when none was read.  others / util_others < 0
 * and rtt NaN mean "not read".  why gets the evidence ("2 other compute
 * processes; launch round trip 2410 us > 250 us"). */
int tcp_busy_decide(int others, int util_others, double rtt_us, char *why, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* TCP_CONTENTION_H */
