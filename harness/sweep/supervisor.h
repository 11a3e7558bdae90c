/*
 * supervisor.h
 *	The sweep engine as a library call: spec -> plan -> results directory,
 *	with every point run in a forked worker (harness/sweep/worker.h) under a
 *	per-point timeout.  The calling process never initialises CUDA, so it
 *	can always fork a fresh worker after a crash, a hang or a poisoned
 *	context.  `tcprobe run` is a thin CLI over tcp_sweep_run(); tests call
 *	it with their own probe tables (host-only fakes that crash, hang, ...).
 *
 *	Exit statuses (also tcp_sweep_run's return value):
 *	  0   every point written; none FAILED, TIMEOUT, INVALID or BLOCKED
 *	  1   the sweep finished but some point is FAILED, TIMEOUT, INVALID or
 *	      BLOCKED, or the worker could not be (re)started
 *	  2   bad input (spec, options, --out/--resume directory)
 *	  3   no CUDA GPU visible
 *	  4   no probe of the plan runs on this GPU's architecture
 *	  5   the NVIDIA driver is older than the CUDA runtime this binary was
 *	      built with (driver/toolkit mix)
 *	  6   the results directory cannot be created or written (read-only,
 *	      permissions)
 *	  7   the results directory is full (ENOSPC, EDQUOT, EFBIG): the points
 *	      written so far are kept; finish with --resume
 *	  10  --require-idle and the GPU has other work on it (nothing written)
 *	  (docs/exit-codes.md: every command's statuses)
 *	  130 interrupted (SIGINT/SIGTERM): the resume hint is printed
 */
#ifndef TCP_SUPERVISOR_H
#define TCP_SUPERVISOR_H

#include <stdint.h>
#include <stdio.h>

#include "harness/store/exit.h"
#include "harness/sweep/emulate.h"
#include "harness/sweep/spec.h"
#include "probes/common/probe.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How long a worker may take to create its CUDA context and say HELLO. */
#define TCP_WORKER_START_S	120.0
/* NVML clock / throttle sampling period while a point runs. */
#define TCP_NVML_PERIOD_S	0.05

/* What the command line says; the engine builds the run configuration
 * (config.h) from it once, and the plan from spec. */
typedef struct {
	const tcp_spec_t *spec;		/* what to run; may be empty with resume_dir */
	int reps, warmup;		/* command-line overrides; -1 = not given */
	int reps_auto;			/* --reps auto: reps is each point's cap, the runs stop
					 * when the median is known (stats.h tcp_reps_next) */
	double noise_pct;		/* --noise PCT under reps_auto; <= 0 = TCP_NOISE_DEFAULT */
	double rep_budget_s;		/* --rep-budget SEC under reps_auto; <= 0 = default */
	double timeout;			/* seconds; < 0 = not given */
	int seed_set;
	uint64_t seed;			/* used when seed_set; else time ^ pid */
	int gpu;			/* CUDA ordinal (-1 = not given: 0, or the resumed run's) */
	const char *counters;		/* "none", "default", metric list; NULL = default
					 * (or the resumed run's) */
	const char *timer;		/* "events" | "cupti" (adds cupti_kernel_ns rows);
					 * NULL = events (or the resumed run's) */
	const char *out_dir;		/* run directory; NULL = <results_base>/<name> */
	const char *results_base;	/* NULL = "results" */
	const char *resume_dir;		/* finish this run */
	int dry_run;			/* print the plan; no worker, no CUDA */
	int verbose;			/* dry run: every point */
	const tcp_target_info_t *arch;	/* dry run: the plan for this target (--arch); NULL = any;
					 * the emulation build: the target given, or NULL */
	tcp_emu_opts_t emu;		/* an emulated run (emulate.h): emu.target set; all zero
					 * = a real run.  --resume takes the run's own (plan.txt) */
	int quiet;			/* no per-point progress lines (the per-probe
					 * verdict lines stay) */
	int no_block;			/* --no-block: run every point, never BLOCKED
					 * (harness/sweep/block.h) */
	double energy_s;		/* --energy SEC: run() for SEC more seconds after the
					 * timed reps, NVML energy read around them; 0 = off */
	double sustain_s;		/* --sustain SEC: one point held SEC seconds, same
					 * rows as --energy plus DIR/trace.csv; 0 = off */
	double settle_s;		/* --settle SEC: bound of the load held before an
					 * energy window until power is flat; < 0 = default */
	int require_idle;		/* --require-idle: refuse a GPU with other work (exit 10) */
	int show_process_names;		/* --show-process-names: other processes' names in
					 * provenance (they belong to other users: off by default) */
	int ctr_batch;			/* points per counter pass (TCPROBE_COUNTERS_BATCH,
					 * counters.h); <= 0 = TCP_COUNTERS_BATCH_DEFAULT */
	int ctr_batch_fake;		/* tests: host points batched too, under a stand-in
					 * counter pass (run() once each, no rows): the
					 * batch protocol without a GPU */
	int argc;			/* command line, for provenance */
	char *const *argv;
} tcp_sweep_opts_t;

/* Exit status of a failed write to the results directory, from its errno:
 * TCP_EXIT_RESULTS_FULL for ENOSPC, EDQUOT, EFBIG; else TCP_EXIT_RESULTS_RO. */
int tcp_io_exit(int err);

/* Run (or resume, or dry-run) a sweep; returns an exit status above.
 * Errors are one line on stderr, "tcprobe: ...". */
int tcp_sweep_run(const tcp_probe_t *const *probes, int nprobes, const tcp_sweep_opts_t *o);

/*
 * tcp_sweep_summary()
 *	Read dir/measurements.csv and print, per probe, the points by status
 *	and the best median of its first metric; `probes` names the metrics.
 *	Returns 1 when some point is FAILED, TIMEOUT, INVALID or BLOCKED, 0 when none,
 *	-1 when the CSV cannot be read (message printed).
 */
int tcp_sweep_summary(const char *dir, const tcp_probe_t *const *probes, int nprobes, FILE *f);

#ifdef __cplusplus
}
#endif
#endif /* TCP_SUPERVISOR_H */
