/*
 * cmd-run.c
 *	`tcprobe run`: the command line of the sweep engine.  Options build a
 *	spec (sweep files and --probe/--set groups, in command-line order) and a
 *	tcp_sweep_opts_t; harness/sweep/supervisor.c does the rest.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd/options.h"
#include "harness/measure/counters.h"
#include "harness/measure/energy.h"
#include "harness/sweep/emulate.h"
#include "harness/sweep/spec.h"
#include "harness/sweep/supervisor.h"

#define STR_(x) #x
#define STR(x) STR_(x)	/* a number's macro as --help shows it */

static const char usage[] =
	"usage: tcprobe run [--spec FILE]... [--probe NAME [--set AXIS=VALUES]...]...\n"
	"                   [options]\n"
	"       tcprobe run --resume DIR\n";
static const char about[] =
	"Run a sweep: every point of every probe group, each in a supervised worker\n"
	"process, rows flushed to DIR/measurements.csv as each point completes.\n"
	"\n";
static const char epilog[] =
	"At the end the summary goes to stderr; when stdout is not a terminal the run\n"
	"directory is also printed on it (dir=$(tcprobe run ...)).\n";

/* What the options fill: the spec (groups in command-line order) and the sweep's options. */
typedef struct {
	tcp_spec_t *spec;
	tcp_sweep_opts_t *o;
	int reps_given;
} run_args_t;

static int spec_cb(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	run_args_t *a = o->ctx;

	return tcp_spec_parse_file(a->spec, val, tcp_probes, tcp_nprobes, err, len);
}

static int probe_cb(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	run_args_t *a = o->ctx;

	return tcp_spec_add_probe(a->spec, val, o->name, tcp_probes, tcp_nprobes, err, len);
}

static int set_cb(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	run_args_t *a = o->ctx;

	return tcp_spec_set(a->spec, val, o->name, err, len);
}

/* --reps auto|N */
static int reps_cb(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	run_args_t *a = o->ctx;

	a->reps_given = 1;
	a->o->reps_auto = !strcmp(val, "auto");
	if (a->o->reps_auto) {
		a->o->reps = -1;
		return 0;
	}
	if (tcp_opt_value(o, val, err, len) == 0)
		return 0;
	size_t l = strlen(err);
	snprintf(err + l, len - l, ", or auto");
	return -1;
}

/* --seed: the whole unsigned 64-bit range. */
static int seed_cb(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	run_args_t *a = o->ctx;
	char *end;

	errno = 0;
	a->o->seed = strtoull(val, &end, 10);
	if (!*val || *val == '-' || *end || errno)
		return tcp_opt_bad(err, len, o, val, "an integer in 0..18446744073709551615");
	a->o->seed_set = 1;
	return 0;
}

/* --counters: none, default, or a comma list of metric names. */
static int counters_cb(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	static const char name[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.";
	run_args_t *a = o->ctx;

	a->o->counters = val;
	if (!strcmp(val, "none") || !strcmp(val, "default"))
		return 0;
	for (const char *s = val;; s++) {
		size_t n = strspn(s, name);
		if (!n || (s[n] != ',' && s[n]))
			return tcp_opt_bad(err, len, o, val, "none, default or metric[,metric...]");
		if (!s[n])
			return 0;
		s += n;
	}
}

/* --arch: any GPU target. */
static int arch_cb(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	run_args_t *a = o->ctx;
	char tl[256];

	if (!(a->o->arch = tcp_target_find(val))) {
		snprintf(err, len, "%s: unknown target: got '%s', expected one of %s", o->name, val,
			 tcp_target_list((1u << TCP_TGT_COUNT) - 1, tl, sizeof(tl)));
		return -1;
	}
	return 0;
}

/* --emu-*: the emulation build's options (sweep/emulate.c; refused by the release build). */
static int emu_cb(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	run_args_t *a = o->ctx;

	return tcp_emu_parse_opt(&a->o->emu, o->name, val, tcp_emulate_build(), err, len) < 0 ? -1 : 0;
}

static const tcp_opt_choice_t timers[] = { { "events", 0, 0 }, { "cupti", 1, 0 }, { NULL, 0, 0 } };
static const tcp_opt_choice_t tmems[] = { { "poison", 0, 0 }, { "stale", 1, 0 }, { NULL, 0, 0 } };

/* The table's "what to run" part: groups, repetitions, energy. */
#define WHAT_OPTS(a, o) \
	{ .kind = TCP_OPT_HEADING, .help = "what to run (groups run in command-line order):" }, \
	{ .name = "--spec", .shrt = 'f', .metavar = "FILE", .kind = TCP_OPT_STRING, .fn = spec_cb, .ctx = a, \
	  .what = "a sweep file", .help = "a sweep file (sweeps/*.sweep; repeatable; - = stdin), a regular " \
	  "file of at most 1 MiB" }, \
	{ .name = "--probe", .shrt = 'p', .metavar = "NAME", .kind = TCP_OPT_STRING, .fn = probe_cb, .ctx = a, \
	  .what = "a probe name (tcprobe list)", .help = "add a group for probe NAME (tcprobe list)" }, \
	{ .name = "--set", .shrt = 'a', .metavar = "AXIS=VALUES", .kind = TCP_OPT_STRING, .fn = set_cb, \
	  .ctx = a, .what = "AXIS=VALUES", .help = "values of one axis of the latest --probe; unset axes take " \
	  "the probe's defaults.  VALUES: a,b,c  [a,b,c]  lo:hi:step  [lo:hi:step] (inclusive)  pow2:lo:hi" }, \
	{ .name = "--reps", .metavar = "auto|N", .kind = TCP_OPT_INT, .lo = TCP_REPS_MIN, .hi = TCP_REPS_MAX, \
	  .ival = &(o)->reps, .fn = reps_cb, .ctx = a, .def = "auto", .help = "auto: 3 to R timed runs " \
	  "per point, stopping when the 95% CI of the first metric's median is within --noise, or after " \
	  "--rep-budget seconds of them; R = the sweep section's reps, else " STR(TCP_REPS_DEFAULT) ".  N: " \
	  "exactly N runs" }, \
	{ .name = "--noise", .metavar = "PCT", .kind = TCP_OPT_PERCENT, .lo = TCP_NOISE_MIN, \
	  .hi = TCP_NOISE_MAX, .dval = &(o)->noise_pct, .def = STR(TCP_NOISE_DEFAULT), .help = "--reps auto " \
	  "target: CI half-width in % of the median (\"0.5%\" or \"0.5\")" }, \
	{ .name = "--rep-budget", .metavar = "SEC", .kind = TCP_OPT_DOUBLE, .lo = TCP_REP_BUDGET_MIN, \
	  .hi = TCP_REP_BUDGET_MAX, .dval = &(o)->rep_budget_s, .def = STR(TCP_REP_BUDGET_DEFAULT), \
	  .what = "seconds", .help = "--reps auto: stop after SEC seconds of timed runs, if the minimum 3 ran" }, \
	{ .name = "--warmup", .metavar = "N", .kind = TCP_OPT_INT, .lo = 0, .hi = TCP_WARMUP_MAX, \
	  .ival = &(o)->warmup, .def = "the sweep file's, else " STR(TCP_WARMUP_DEFAULT), \
	  .help = "untimed runs first" }, \
	{ .name = "--timeout", .metavar = "SEC", .kind = TCP_OPT_DOUBLE, .lo = TCP_TIMEOUT_MIN, \
	  .hi = TCP_TIMEOUT_MAX, .dval = &(o)->timeout, .def = STR(TCP_TIMEOUT_DEFAULT), .what = "seconds", \
	  .help = "per-point limit, setup to teardown" }, \
	{ .name = "--seed", .metavar = "N", .kind = TCP_OPT_INT, .flags = TCP_OPT_NORANGE, .fn = seed_cb, \
	  .ctx = a, .def = "time ^ pid; recorded", .help = "run seed for random inputs" }, \
	{ .name = "--energy", .metavar = "SEC", .kind = TCP_OPT_DOUBLE, .lo = 0.1, .hi = TCP_ENERGY_MAX_S, \
	  .dval = &(o)->energy_s, .what = "seconds", .help = "after the timed reps, run() SEC more seconds " \
	  "with NVML's energy counter read around them: energy_mj, pj_per_flop, power_w_mean, " \
	  "sm_clock_mhz_energy, ... rows (NA with why)" }, \
	{ .name = "--sustain", .metavar = "SEC", .kind = TCP_OPT_DOUBLE, .lo = 1, .hi = TCP_ENERGY_MAX_S, \
	  .dval = &(o)->sustain_s, .what = "seconds", .help = "hold the one point of the plan SEC seconds: " \
	  "the --energy rows plus DIR/trace.csv (clock, power, temperature, throttle, energy every 100 ms)" }, \
	{ .name = "--settle", .metavar = "SEC", .kind = TCP_OPT_DOUBLE, .lo = 0, .hi = TCP_SETTLE_LIMIT_S, \
	  .dval = &(o)->settle_s, .def = STR(TCP_SETTLE_MAX_S), .what = "seconds", .help = "before an " \
	  "--energy window, hold the load until sampled power is flat, at most SEC seconds (0 = no settle)" }

/* The table's "where" part: GPU, counters, timer, directories. */
#define WHERE_OPTS(a, o) \
	{ .kind = TCP_OPT_HEADING, .help = "where:" }, \
	{ .name = "--gpu", .metavar = "N", .kind = TCP_OPT_INT, .lo = 0, .hi = 1023, .ival = &(o)->gpu, \
	  .def = "0", .what = "a CUDA ordinal", .help = "CUDA ordinal" }, \
	{ .name = "--require-idle", .kind = TCP_OPT_FLAG, .ival = &(o)->require_idle, .help = "refuse to " \
	  "start (exit 10) when other work is on the GPU (another process's context or SM time, or a slow " \
	  "launch)" }, \
	{ .name = "--no-block", .kind = TCP_OPT_FLAG, .ival = &(o)->no_block, .help = "run every point: by " \
	  "default, once 3 points of a probe in a row fail the same way (status and wait site), the rest " \
	  "of that probe on this GPU is BLOCKED, not run" }, \
	{ .name = "--show-process-names", .kind = TCP_OPT_FLAG, .ival = &(o)->show_process_names, \
	  .help = "name the other processes on the GPU in provenance.csv (off by default: they belong to " \
	  "other users; counted always)" }, \
	{ .name = "--counters", .metavar = "SPEC", .kind = TCP_OPT_STRING, .fn = counters_cb, .ctx = a, \
	  .what = "none, default or a metric list", .help = "none, default (the chip's set: tcprobe counters " \
	  "--list; the default) or metric,metric,..." }, \
	{ .name = "--timer", .kind = TCP_OPT_CHOICE, .choices = timers, .sval = &(o)->timer, .def = "events", \
	  .help = "cupti adds a cupti_kernel_ns row per GPU point: the CUPTI Activity span of the kernels " \
	  "of each timed run; tcprobe report compares it with the probes' own clocks" }, \
	{ .name = "--out", .shrt = 'o', .metavar = "DIR", .kind = TCP_OPT_STRING, .sval = &(o)->out_dir, \
	  .what = "a directory path", .def = "results/<date>-<gpu>-<driver>-<host>", .help = "run directory" }, \
	{ .name = "--resume", .metavar = "DIR", .kind = TCP_OPT_STRING, .sval = &(o)->resume_dir, \
	  .what = "a run directory", .help = "run exactly the points DIR is missing (plan from DIR/plan.txt; " \
	  "a spec given too must produce the same plan)" }

/* The table's "how" part, the emulation build's options last. */
#define HOW_OPTS(a, o) \
	{ .kind = TCP_OPT_HEADING, .help = "how:" }, \
	{ .name = "--dry-run", .shrt = 'n', .kind = TCP_OPT_FLAG, .ival = &(o)->dry_run, \
	  .help = "print the plan (points, skipped and why); no GPU needed" }, \
	{ .name = "--verbose", .shrt = 'v', .kind = TCP_OPT_FLAG, .ival = &(o)->verbose, \
	  .help = "with --dry-run: every point" }, \
	{ .name = "--quiet", .shrt = 'q', .kind = TCP_OPT_FLAG, .ival = &(o)->quiet, \
	  .help = "no per-point progress lines (one verdict line per probe)" }, \
	{ .name = "--arch", .metavar = "TARGET", .kind = TCP_OPT_STRING, .fn = arch_cb, .ctx = a, \
	  .what = "a GPU target (sm_103a)", .help = "with --dry-run: the plan for that GPU target (sm_90a, " \
	  "sm_100a, sm_103a, sm_110a, ...): points whose forms it lacks SKIPPED with the reason, probes this " \
	  "build holds no code for UNSUPPORTED.  In the emulation build (make EMULATE=1) --arch picks the " \
	  "emulated target, run or dry run (default " TCP_EMU_DEFAULT_TARGET ")" }, \
	{ .kind = TCP_OPT_HEADING, .help = "emulation build only (docs/emulated-runs.md; refused by the " \
	  "release build):" }, \
	{ .name = "--emu-tmem", .kind = TCP_OPT_CHOICE, .choices = tmems, .fn = emu_cb, .ctx = a, \
	  .def = "poison", .help = "newly allocated TMEM columns read as poison, or keep what the previous " \
	  "CTA on that SM left (hardware)" }, \
	{ .name = "--emu-trace", .metavar = "CTA", .kind = TCP_OPT_INT, .lo = 0, .hi = TCP_EMU_TRACE_CTA_MAX, \
	  .fn = emu_cb, .ctx = a, .what = "a CTA index", .help = "print that CTA's tcgen05 operation log" }, \
	{ .name = "--emu-slowdown", .metavar = "X", .kind = TCP_OPT_DOUBLE, .lo = TCP_EMU_SLOWDOWN_MIN, \
	  .hi = TCP_EMU_SLOWDOWN_MAX, .fn = emu_cb, .ctx = a, .def = STR(TCP_EMU_SLOWDOWN_DEFAULT), \
	  .what = "a factor", .help = "scale point timeouts and in-kernel wait budgets by X" }, \
	{ .name = "--emu-mutant", .metavar = "NAME", .kind = TCP_OPT_STRING, .fn = emu_cb, .ctx = a, \
	  .what = "a planted defect", .help = "plant one defect of probes/emu/tc-emu-mutants.h " \
	  "(scripts/ci/emu-mutants.sh runs them all)" }

/* The option rules between options, after the table's: 0, or -1 with err. */
static int combined(const run_args_t *a, char *err, size_t len)
{
	const tcp_sweep_opts_t *o = a->o;

	if (!a->reps_given && !o->resume_dir)
		a->o->reps_auto = 1;	/* the default */
	if (!o->reps_auto && (o->noise_pct > 0 || o->rep_budget_s > 0) && !o->resume_dir) {
		snprintf(err, len, "%s: only with --reps auto: got --reps %d, expected --reps auto",
			 o->noise_pct > 0 ? "--noise" : "--rep-budget", o->reps);
		return -1;
	}
	return 0;
}

/* After the environment's knobs: the emulation, --arch and --resume rules.  0, or -1 with err. */
static int finish(tcp_sweep_opts_t *o, char *err, size_t len)
{
	if (tcp_emu_finish(&o->emu, o->arch, tcp_emulate_build(), err, len))
		return -1;
	if (o->arch && !o->dry_run && !o->emu.target) {
		snprintf(err, len, "--arch: only with --dry-run: got --arch %s, expected --dry-run too (a run "
			 "takes its GPU's target)", o->arch->name);
		return -1;
	}
	if (o->resume_dir && o->out_dir) {
		snprintf(err, len, "--out: cannot be combined with --resume: got '%s', expected only --resume DIR",
			 o->out_dir);
		return -1;
	}
	return 0;
}

/* The command line into a: TCP_OPTS_OK, or the exit status (help, one bad-input line). */
static int parse(run_args_t *a, int argc, char **argv)
{
	tcp_opt_t opts[] = { WHAT_OPTS(a, a->o), WHERE_OPTS(a, a->o), HOW_OPTS(a, a->o) };
	tcp_cmd_spec_t cmd = { .name = "run", .usage = usage, .about = about, .epilog = epilog, .opts = opts,
			       .nopts = TCP_NOPTS(opts), .args_what = "an option (probes go after --probe)" };
	char err[TCP_OPT_ERRLEN];
	int rc = tcp_opts_parse(&cmd, argc, argv, 1);

	if (rc == TCP_OPTS_OK && combined(a, err, sizeof(err)))
		rc = tcp_cmd_bad(&cmd, "%s", err);
	return rc;
}

int tcp_cmd_run(int argc, char **argv)
{
	tcp_spec_t spec;
	tcp_sweep_opts_t o;
	run_args_t a = { .spec = &spec, .o = &o };
	char err[2048];
	int rc;

	tcp_spec_init(&spec);
	memset(&o, 0, sizeof(o));
	o.reps = o.warmup = -1;
	o.timeout = -1;
	o.gpu = -1;
	o.settle_s = -1;
	o.spec = &spec;
	tcp_emu_opts_init(&o.emu);
	/* provenance records the whole command line: main passes argv + 1 */
	o.argc = argc + 1;
	o.argv = argv - 1;
	if ((rc = parse(&a, argc, argv)) != TCP_OPTS_OK)
		goto out;
	if (tcp_counters_batch_env(&o.ctr_batch, err, sizeof(err)))	/* points per counter pass (counters.h) */
		goto bad;
	if (finish(&o, err, sizeof(err))) {
		fprintf(stderr, "tcprobe: run: %s\n", err);
		rc = TCP_EXIT_USAGE;
		goto out;
	}
	rc = tcp_sweep_run(tcp_probes, tcp_nprobes, &o);
	goto out;
bad:
	fprintf(stderr, "tcprobe: %s\n", err);
	rc = TCP_EXIT_USAGE;
out:
	tcp_spec_free(&spec);
	return rc;
}
