/*
 * config.h
 *	The run configuration: every run-wide setting of a sweep, typed, built
 *	once and read by the supervisor and, as it is, by the worker
 *	(worker.h).  A new run builds it from the command line
 *	(tcp_sweep_opts_t) and records what --resume needs in the plan's
 *	"#option" lines (plan.txt: seed, counters, timer, gpu, the repetition
 *	rule, the emulation); --resume builds it from those lines and the
 *	command line.  Each option is parsed here, once: no other part of the
 *	engine reads a plan option.  Per-point settings (reps: the count, or
 *	the cap under reps=auto; warmup; timeout) stay in the plan's points.
 */
#ifndef TCP_CONFIG_H
#define TCP_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "harness/measure/stats.h"
#include "harness/sweep/emulate.h"
#include "harness/sweep/plan.h"
#include "harness/sweep/supervisor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	uint64_t seed;			/* run seed; point idx draws tcp_point_seed(seed, idx) */
	int gpu;			/* the CUDA ordinal the run drives */
	const char *counters;		/* "none", "default" or a metric list (plan option
					 * `counters`; points into the options or the plan) */
	int timer_cupti;		/* --timer cupti: one more series per GPU point,
					 * TCP_CUPTI_TIMER_METRIC */
	tcp_reps_rule_t reps;		/* the repetition rule as plan.txt records it
					 * (`reps`, `noise`, `rep_budget`); max 0: each
					 * point's reps fills it */
	tcp_emu_opts_t emu;		/* the run's emulation (emulate.h); target NULL = real */
	double energy_s;		/* max(--energy, --sustain): seconds of back-to-back
					 * run() in the window after the timed reps; 0 = off */
	double sustain_s;		/* --sustain: no settle period, DIR/trace.csv */
	double settle_s;		/* bound of the load held before a window until
					 * power is flat (--settle, else TCP_SETTLE_MAX_S) */
	int batch;			/* points per counter pass, 1..TCP_COUNTERS_BATCH_MAX */
	int batch_fake;			/* tests: host points batched under a stand-in
					 * counter pass (tcp_sweep_opts_t.ctr_batch_fake) */
	int quiet, no_block, require_idle, show_process_names;	/* as tcp_sweep_opts_t */
} tcp_run_config_t;

/*
 * tcp_config_new()
 *	A new run's configuration from the command line o; its options set in
 *	pl, in plan.txt's order (the emulation's, seed, counters, timer, gpu,
 *	reps, then noise and rep_budget under reps=auto).  0, or -1 with one
 *	line in err.
 */
int tcp_config_new(tcp_run_config_t *c, const tcp_sweep_opts_t *o, tcp_plan_t *pl, char *err, size_t len);

/*
 * tcp_config_resume()
 *	--resume: the configuration from the options of the resumed plan pl,
 *	the command line adding what plan.txt does not fix (--gpu, the energy
 *	window, the flags) and agreeing with what it does (--counters,
 *	--timer, --arch of an emulated run).  0, or -1 with one line in err.
 */
int tcp_config_resume(tcp_run_config_t *c, const tcp_sweep_opts_t *o, const tcp_plan_t *pl, char *err,
		      size_t len);

/* The seed point idx of a run draws its random inputs from (splitmix64). */
uint64_t tcp_point_seed(uint64_t run_seed, int idx);

/* Series a worker sends beyond a probe's metrics, in this order: the --timer
 * cupti span; in an emulated run, the poison words ld returned (GPU points only). */
int tcp_config_extra_series(const tcp_run_config_t *c, int gpu_probe);

/* Name and unit of extra series i (0-based, after the probe's metrics). */
void tcp_config_extra_name(const tcp_run_config_t *c, int i, const char **name, const char **unit);

#ifdef __cplusplus
}
#endif
#endif /* TCP_CONFIG_H */
