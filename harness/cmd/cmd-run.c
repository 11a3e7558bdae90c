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

#include "harness/measure/counters.h"
#include "harness/measure/energy.h"
#include "harness/sweep/emulate.h"
#include "harness/sweep/spec.h"
#include "harness/sweep/supervisor.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tcprobe run [--spec FILE]... [--probe NAME [--set AXIS=VALUES]...]... [options]\n"
		"       tcprobe run --resume DIR\n"
		"Run a sweep: every point of every probe group, each in a supervised worker\n"
		"process, rows flushed to DIR/measurements.csv as each point completes.\n"
		"\n"
		"what to run (groups run in command-line order):\n"
		"  -f, --spec FILE        a sweep file (sweeps/*.sweep; repeatable; - = stdin),\n"
		"                         a regular file of at most 1 MiB\n"
		"  -p, --probe NAME       add a group for probe NAME (tcprobe list)\n"
		"  -a, --set AXIS=VALUES  values of one axis of the latest --probe; unset axes\n"
		"                         take the probe's defaults.  VALUES: a,b,c  [a,b,c]\n"
		"                         lo:hi:step  [lo:hi:step] (inclusive)  pow2:lo:hi\n"
		"  --reps auto|N          auto (default): 3 to R timed runs per point, stopping when\n"
		"                         the 95%% CI of the first metric's median is within --noise,\n"
		"                         or after --rep-budget seconds of them; R = the sweep\n"
		"                         section's reps, else %d.  N: exactly N runs (%d..%d)\n"
		"  --noise PCT            --reps auto target: CI half-width in %% of the median\n"
		"                         (%g..%g; default %g; \"0.5%%\" or \"0.5\")\n"
		"  --rep-budget SEC       --reps auto: stop after SEC seconds of timed runs, if the\n"
		"                         minimum 3 ran (%g..%g; default %g)\n"
		"  --warmup N             untimed runs first (0..%d; default: spec, else %d)\n"
		"  --timeout SEC          per-point limit, setup to teardown (%g..%g; default %g)\n"
		"  --seed N               run seed for random inputs (default: time ^ pid; recorded)\n"
		"  --energy SEC           after the timed reps, run() SEC more seconds (0.1..%g) with\n"
		"                         NVML's energy counter read around them: energy_mj, pj_per_flop,\n"
		"                         power_w_mean, sm_clock_mhz_energy, ... rows (NA with why)\n"
		"  --sustain SEC          hold the one point of the plan SEC seconds (1..%g): the\n"
		"                         --energy rows plus DIR/trace.csv (clock, power, temperature,\n"
		"                         throttle, energy every 100 ms)\n"
		"  --settle SEC           before an --energy window, hold the load until sampled power\n"
		"                         is flat, at most SEC seconds (0..%g; default %g; 0 = no settle)\n"
		"where:\n"
		"  --gpu N                CUDA ordinal (default 0)\n"
		"  --require-idle         refuse to start (exit 10) when other work is on the GPU\n"
		"                         (another process's context or SM time, or a slow launch)\n"
		"  --no-block             run every point: by default, once 3 points of a probe in a\n"
		"                         row fail the same way (status and wait site), the rest of\n"
		"                         that probe on this GPU is BLOCKED, not run\n"
		"  --show-process-names   name the other processes on the GPU in provenance.csv\n"
		"                         (off by default: they belong to other users; counted always)\n"
		"  --counters SPEC        none | default | metric,metric,... (default: default)\n"
		"  --timer events|cupti   cupti adds a cupti_kernel_ns row per GPU point: the CUPTI\n"
		"                         Activity span of the kernels of each timed run (default events);\n"
		"                         tcprobe report compares it with the probes' own clocks\n"
		"  -o, --out DIR          run directory (default: results/<date>-<gpu>-<driver>-<host>)\n"
		"  --resume DIR           run exactly the points DIR is missing (plan from DIR/plan.txt;\n"
		"                         a spec given too must produce the same plan)\n"
		"how:\n"
		"  -n, --dry-run          print the plan (points, skipped and why); no GPU needed\n"
		"  -v, --verbose          with --dry-run: every point\n"
		"  --arch TARGET          with --dry-run: the plan for that GPU target (sm_90a, sm_100a,\n"
		"                         sm_103a, sm_110a, ...): points whose forms it lacks SKIPPED with\n"
		"                         the reason, probes this build holds no code for UNSUPPORTED\n"
		"                         In the emulation build (make EMULATE=1) --arch picks the\n"
		"                         emulated target, run or dry run (default %s)\n"
		"emulation build only (docs/emulated-runs.md; refused by the release build):\n"
		"  --emu-tmem poison|stale  newly allocated TMEM columns read as poison (default)\n"
		"                         or keep what the previous CTA on that SM left (hardware)\n"
		"  --emu-trace CTA        print that CTA's tcgen05 operation log (0..%lld)\n"
		"  --emu-slowdown X       scale point timeouts and in-kernel wait budgets by X\n"
		"                         (%g..%g; default %g)\n"
		"  --emu-mutant NAME      plant one defect of probes/emu/tc-emu-mutants.h\n"
		"                         (scripts/ci/emu-mutants.sh runs them all)\n"
		"  -q, --quiet            no per-point progress lines (one verdict line per probe)\n"
		"  -h, --help             this text\n"
		"At the end the summary goes to stderr; when stdout is not a terminal the run\n"
		"directory is also printed on it (dir=$(tcprobe run ...)).\n"
		"exit: 0 ok, 1 some point FAILED/TIMEOUT/INVALID/BLOCKED, 2 bad input, 3 no CUDA GPU,\n"
		"      4 no probe for this GPU's architecture, 5 driver older than the CUDA runtime,\n"
		"      6 results directory not writable, 7 results directory full (resume with\n"
		"      --resume), 10 --require-idle and the GPU is busy, 130 interrupted (resume\n"
		"      with --resume); docs/exit-codes.md\n",
		TCP_REPS_DEFAULT, TCP_REPS_MIN, TCP_REPS_MAX, TCP_NOISE_MIN, TCP_NOISE_MAX, TCP_NOISE_DEFAULT,
		TCP_REP_BUDGET_MIN, TCP_REP_BUDGET_MAX, TCP_REP_BUDGET_DEFAULT, TCP_WARMUP_MAX, TCP_WARMUP_DEFAULT,
		TCP_TIMEOUT_MIN, TCP_TIMEOUT_MAX, TCP_TIMEOUT_DEFAULT, TCP_ENERGY_MAX_S, TCP_ENERGY_MAX_S,
		TCP_SETTLE_LIMIT_S, TCP_SETTLE_MAX_S, TCP_EMU_DEFAULT_TARGET, TCP_EMU_TRACE_CTA_MAX,
		TCP_EMU_SLOWDOWN_MIN, TCP_EMU_SLOWDOWN_MAX, TCP_EMU_SLOWDOWN_DEFAULT);
}

/* --counters: none, default, or a comma list of metric names. */
static int counters_ok(const char *s)
{
	if (!strcmp(s, "none") || !strcmp(s, "default"))
		return 1;
	int item = 0;
	for (const char *c = s;; c++) {
		if (*c == ',' || !*c) {
			if (!item)
				return 0;
			item = 0;
			if (!*c)
				return 1;
			continue;
		}
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		      *c == '_' || *c == '.'))
			return 0;
		item++;
	}
}

/*
 *  opt_value()
 *	"--opt VALUE" or "--opt=VALUE": the value, advancing *i; NULL after
 *	printing the error when it is missing
 */
static const char *opt_value(int argc, char **argv, int *i, const char *name, const char *shrt,
			     const char *expect)
{
	const char *a = argv[*i];
	size_t nl = strlen(name);
	if (strncmp(a, name, nl) == 0 && a[nl] == '=')
		return a + nl + 1;
	if (strcmp(a, name) != 0 && !(shrt && strcmp(a, shrt) == 0))
		return NULL;
	if (*i + 1 >= argc) {
		fprintf(stderr, "tcprobe: run: %s needs a value: got nothing, expected %s\n", name, expect);
		return (const char *)-1;
	}
	return argv[++*i];
}

#define MISSING ((const char *)-1)

/* "0.5", "0.5%": a percentage in lo..hi. */
static int parse_percent(const char *what, const char *text, double lo, double hi, double *out,
			 char *err, size_t len)
{
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	if (*end == '%')
		end++;
	if (!*text || end == text || *end || errno || !(v >= lo && v <= hi)) {
		snprintf(err, len, "%s: got '%s', expected a percentage in %g..%g (\"0.5%%\" or \"0.5\")",
			 what, text, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

int tcp_cmd_run(int argc, char **argv)
{
	tcp_spec_t spec;
	tcp_sweep_opts_t o;
	char err[2048];
	long long iv;
	double dv;
	int rc = TCP_EXIT_USAGE;
	const char *v;
	int reps_given = 0;

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
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			rc = 0;
			goto out;
		} else if (!strcmp(a, "-n") || !strcmp(a, "--dry-run")) {
			o.dry_run = 1;
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			o.quiet = 1;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			o.verbose = 1;
		} else if (!strcmp(a, "--require-idle")) {
			o.require_idle = 1;
		} else if (!strcmp(a, "--no-block")) {
			o.no_block = 1;
		} else if (!strcmp(a, "--show-process-names")) {
			o.show_process_names = 1;
		} else if ((v = opt_value(argc, argv, &i, "--spec", "-f", "a sweep file"))) {
			if (v == MISSING)
				goto out;
			if (tcp_spec_parse_file(&spec, v, tcp_probes, tcp_nprobes, err, sizeof(err)))
				goto bad;
		} else if ((v = opt_value(argc, argv, &i, "--probe", "-p", "a probe name (tcprobe list)"))) {
			if (v == MISSING)
				goto out;
			if (tcp_spec_add_probe(&spec, v, "--probe", tcp_probes, tcp_nprobes, err, sizeof(err)))
				goto bad;
		} else if ((v = opt_value(argc, argv, &i, "--set", "-a", "AXIS=VALUES"))) {
			if (v == MISSING)
				goto out;
			if (tcp_spec_set(&spec, v, "--set", err, sizeof(err)))
				goto bad;
		} else if ((v = opt_value(argc, argv, &i, "--reps", NULL, "auto or a count"))) {
			if (v == MISSING)
				goto out;
			if (!strcmp(v, "auto")) {
				o.reps_auto = 1;
				o.reps = -1;
			} else {
				if (tcp_parse_int("--reps", v, TCP_REPS_MIN, TCP_REPS_MAX, &iv, err, sizeof(err))) {
					size_t l = strlen(err);
					snprintf(err + l, sizeof(err) - l, ", or auto");
					goto bad;
				}
				o.reps = (int)iv;
				o.reps_auto = 0;
			}
			reps_given = 1;
		} else if ((v = opt_value(argc, argv, &i, "--noise", NULL, "a percentage"))) {
			if (v == MISSING)
				goto out;
			if (parse_percent("--noise", v, TCP_NOISE_MIN, TCP_NOISE_MAX, &o.noise_pct, err, sizeof(err)))
				goto bad;
		} else if ((v = opt_value(argc, argv, &i, "--rep-budget", NULL, "seconds"))) {
			if (v == MISSING)
				goto out;
			if (tcp_parse_seconds("--rep-budget", v, TCP_REP_BUDGET_MIN, TCP_REP_BUDGET_MAX,
					      &o.rep_budget_s, err, sizeof(err)))
				goto bad;
		} else if ((v = opt_value(argc, argv, &i, "--warmup", NULL, "a count"))) {
			if (v == MISSING)
				goto out;
			if (tcp_parse_int("--warmup", v, 0, TCP_WARMUP_MAX, &iv, err, sizeof(err)))
				goto bad;
			o.warmup = (int)iv;
		} else if ((v = opt_value(argc, argv, &i, "--timeout", NULL, "seconds"))) {
			if (v == MISSING)
				goto out;
			if (tcp_parse_seconds("--timeout", v, TCP_TIMEOUT_MIN, TCP_TIMEOUT_MAX, &dv, err,
					      sizeof(err)))
				goto bad;
			o.timeout = dv;
		} else if ((v = opt_value(argc, argv, &i, "--energy", NULL, "seconds"))) {
			if (v == MISSING)
				goto out;
			if (tcp_parse_seconds("--energy", v, 0.1, TCP_ENERGY_MAX_S, &dv, err, sizeof(err)))
				goto bad;
			o.energy_s = dv;
		} else if ((v = opt_value(argc, argv, &i, "--sustain", NULL, "seconds"))) {
			if (v == MISSING)
				goto out;
			if (tcp_parse_seconds("--sustain", v, 1, TCP_ENERGY_MAX_S, &dv, err, sizeof(err)))
				goto bad;
			o.sustain_s = dv;
		} else if ((v = opt_value(argc, argv, &i, "--settle", NULL, "seconds"))) {
			if (v == MISSING)
				goto out;
			if (tcp_parse_seconds("--settle", v, 0, TCP_SETTLE_LIMIT_S, &dv, err, sizeof(err)))
				goto bad;
			o.settle_s = dv;
		} else if ((v = opt_value(argc, argv, &i, "--seed", NULL, "an integer"))) {
			char *end;
			if (v == MISSING)
				goto out;
			errno = 0;
			o.seed = strtoull(v, &end, 10);
			if (!*v || *v == '-' || *end || errno) {
				snprintf(err, sizeof(err), "--seed: got '%s', expected an integer in 0..18446744073709551615", v);
				goto bad;
			}
			o.seed_set = 1;
		} else if ((v = opt_value(argc, argv, &i, "--arch", NULL, "a GPU target (sm_103a)"))) {
			if (v == MISSING)
				goto out;
			if (!(o.arch = tcp_target_find(v))) {
				char tl[256];
				snprintf(err, sizeof(err), "--arch: unknown target: got '%s', expected one of %s", v,
					 tcp_target_list((1u << TCP_TGT_COUNT) - 1, tl, sizeof(tl)));
				goto bad;
			}
		} else if ((v = opt_value(argc, argv, &i, "--gpu", NULL, "a CUDA ordinal"))) {
			if (v == MISSING)
				goto out;
			if (tcp_parse_int("--gpu", v, 0, 1023, &iv, err, sizeof(err)))
				goto bad;
			o.gpu = (int)iv;
		} else if ((v = opt_value(argc, argv, &i, "--counters", NULL, "none, default or a metric list"))) {
			if (v == MISSING)
				goto out;
			if (!counters_ok(v)) {
				snprintf(err, sizeof(err), "--counters: got '%s', expected none, default or metric[,metric...]", v);
				goto bad;
			}
			o.counters = v;
		} else if ((v = opt_value(argc, argv, &i, "--timer", NULL, "events or cupti"))) {
			if (v == MISSING)
				goto out;
			if (strcmp(v, "events") && strcmp(v, "cupti")) {
				snprintf(err, sizeof(err), "--timer: got '%s', expected events or cupti", v);
				goto bad;
			}
			o.timer = v;
		} else if ((v = opt_value(argc, argv, &i, "--out", "-o", "a directory"))) {
			if (v == MISSING)
				goto out;
			if (!*v) {
				snprintf(err, sizeof(err), "--out: got '', expected a directory path");
				goto bad;
			}
			o.out_dir = v;
		} else if ((v = opt_value(argc, argv, &i, "--resume", NULL, "a run directory"))) {
			if (v == MISSING)
				goto out;
			if (!*v) {
				snprintf(err, sizeof(err), "--resume: got '', expected a run directory");
				goto bad;
			}
			o.resume_dir = v;
		} else if ((v = opt_value(argc, argv, &i, "--emu-tmem", NULL, "poison or stale")) ||
			   (v = opt_value(argc, argv, &i, "--emu-trace", NULL, "a CTA index")) ||
			   (v = opt_value(argc, argv, &i, "--emu-slowdown", NULL, "a factor")) ||
			   (v = opt_value(argc, argv, &i, "--emu-mutant", NULL, "a planted defect"))) {
			char on[32];
			if (v == MISSING)
				goto out;
			snprintf(on, sizeof(on), "%.*s", (int)strcspn(a, "="), a);
			if (tcp_emu_parse_opt(&o.emu, on, v, tcp_emulate_build(), err, sizeof(err)) < 0)
				goto bad;
		} else if (a[0] == '-') {
			snprintf(err, sizeof(err), "run: unknown option: got '%s', expected one of --spec, --probe, --set, --reps, --noise, --rep-budget, --warmup, --timeout, --energy, --sustain, --settle, --seed, --gpu, --require-idle, --no-block, --show-process-names, --counters, --timer, --out, --resume, --dry-run, --arch, --emu-tmem, --emu-trace, --emu-slowdown, --emu-mutant, --quiet, --verbose, --help",
				 a);
			goto bad;
		} else {
			snprintf(err, sizeof(err), "run: unexpected argument: got '%s', expected an option (probes go after --probe)",
				 a);
			goto bad;
		}
	}
	if (!reps_given && !o.resume_dir)
		o.reps_auto = 1;	/* the default */
	if (!o.reps_auto && (o.noise_pct > 0 || o.rep_budget_s > 0) && !o.resume_dir) {
		snprintf(err, sizeof(err), "%s: only with --reps auto: got --reps %d, expected --reps auto",
			 o.noise_pct > 0 ? "--noise" : "--rep-budget", o.reps);
		goto bad;
	}
	if (tcp_counters_batch_env(&o.ctr_batch, err, sizeof(err)))	/* points per counter pass (counters.h) */
		goto bad;
	if (tcp_emu_finish(&o.emu, o.arch, tcp_emulate_build(), err, sizeof(err)))
		goto bad;
	if (o.arch && !o.dry_run && !o.emu.target) {
		snprintf(err, sizeof(err), "--arch: only with --dry-run: got --arch %s, expected --dry-run too (a run takes its GPU's target)",
			 o.arch->name);
		goto bad;
	}
	if (o.resume_dir && o.out_dir) {
		snprintf(err, sizeof(err), "--out: cannot be combined with --resume: got '%s', expected only --resume DIR",
			 o.out_dir);
		goto bad;
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
