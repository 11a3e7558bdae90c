/*
 * config.c
 *	The run configuration (config.h): built from the command line for a
 *	new run, its plan options written; from the plan options for --resume.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/measure/counters.h"
#include "harness/measure/cupti-timer.h"
#include "harness/measure/energy.h"
#include "harness/sweep/config.h"

/* What the command line alone decides, on a new run and on --resume. */
static void from_command_line(tcp_run_config_t *c, const tcp_sweep_opts_t *o)
{
	c->energy_s = o->energy_s > o->sustain_s ? o->energy_s : o->sustain_s;
	c->sustain_s = o->sustain_s;
	c->settle_s = o->settle_s >= 0 ? o->settle_s : TCP_SETTLE_MAX_S;
	/* opts from tests may leave it 0: the default */
	c->batch = o->ctr_batch > 0 ? o->ctr_batch : TCP_COUNTERS_BATCH_DEFAULT;
	if (c->batch > TCP_COUNTERS_BATCH_MAX)
		c->batch = TCP_COUNTERS_BATCH_MAX;
	c->batch_fake = o->ctr_batch_fake;
	c->quiet = o->quiet;
	c->no_block = o->no_block;
	c->require_idle = o->require_idle;
	c->show_process_names = o->show_process_names;
}

/* A number option v (NULL: absent, def) in lo..hi; unit for the message. */
static int option_number(const char *key, const char *v, double lo, double hi, double def, const char *unit,
			 double *out, char *err, size_t len)
{
	char *end;
	if (!v) {
		*out = def;
		return 0;
	}
	errno = 0;
	*out = strtod(v, &end);
	if (!*v || *end || errno || !(*out >= lo && *out <= hi)) {
		snprintf(err, len, "plan option %s: got '%s', expected %s in %g..%g", key, v, unit, lo, hi);
		return -1;
	}
	return 0;
}

/*
 *  reps_rule()
 *	the repetition rule from the plan options' text: `reps` auto|fixed
 *	(absent: fixed, the form of plans without the option), `noise`,
 *	`rep_budget` (absent: the defaults); max 0
 */
static int reps_rule(const char *mode, const char *noise, const char *budget, tcp_reps_rule_t *r, char *err,
		     size_t len)
{
	memset(r, 0, sizeof(*r));
	if (mode && strcmp(mode, "auto") && strcmp(mode, "fixed")) {
		snprintf(err, len, "plan option reps: got '%s', expected auto or fixed", mode);
		return -1;
	}
	r->auto_reps = mode && !strcmp(mode, "auto");
	if (option_number("noise", noise, TCP_NOISE_MIN, TCP_NOISE_MAX, TCP_NOISE_DEFAULT, "percent",
			  &r->noise_pct, err, len))
		return -1;
	return option_number("rep_budget", budget, TCP_REP_BUDGET_MIN, TCP_REP_BUDGET_MAX, TCP_REP_BUDGET_DEFAULT,
			     "seconds", &r->budget_s, err, len);
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A new run's emulation and counters (an emulated run has none), its options in pl. */
static int emulation_new(tcp_run_config_t *c, const tcp_sweep_opts_t *o, tcp_plan_t *pl, char *err, size_t len)
{
	c->emu = o->emu;
	if (c->emu.target && tcp_emu_counters(o->counters, &c->counters, err, len))
		return -1;
	if (!c->emu.target)
		tcp_emu_opts_init(&c->emu);
	if (tcp_emu_to_plan(&c->emu, pl)) {
		snprintf(err, len, "plan options: no room for the emulation options: got %d options, expected at most %d",
			 pl->nopt, TCP_PLAN_MAX_OPTIONS);
		return -1;
	}
	return 0;
}

/* The repetition rule of a new run, as its plan options record it (each
 * value in the text plan.txt keeps: a resume runs by the same rule). */
static int reps_new(tcp_run_config_t *c, const tcp_sweep_opts_t *o, tcp_plan_t *pl, char *err, size_t len)
{
	char noise[32], budget[32];
	tcp_plan_set_option(pl, "reps", o->reps_auto ? "auto" : "fixed");
	if (!o->reps_auto)
		return reps_rule("fixed", NULL, NULL, &c->reps, err, len);
	snprintf(noise, sizeof(noise), "%g", o->noise_pct > 0 ? o->noise_pct : TCP_NOISE_DEFAULT);
	tcp_plan_set_option(pl, "noise", noise);
	snprintf(budget, sizeof(budget), "%g", o->rep_budget_s > 0 ? o->rep_budget_s : TCP_REP_BUDGET_DEFAULT);
	tcp_plan_set_option(pl, "rep_budget", budget);
	return reps_rule("auto", noise, budget, &c->reps, err, len);
}

int tcp_config_new(tcp_run_config_t *c, const tcp_sweep_opts_t *o, tcp_plan_t *pl, char *err, size_t len)
{
	char b[32];
	memset(c, 0, sizeof(*c));
	from_command_line(c, o);
	c->seed = o->seed_set ? o->seed
			      : ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() ^ (uint64_t)(mono_s() * 1e9);
	c->counters = o->counters ? o->counters : "default";
	c->gpu = o->gpu >= 0 ? o->gpu : 0;
	if (emulation_new(c, o, pl, err, len))
		return -1;
	snprintf(b, sizeof(b), "%llu", (unsigned long long)c->seed);
	tcp_plan_set_option(pl, "seed", b);
	if (tcp_plan_set_option(pl, "counters", c->counters)) {
		snprintf(err, len, "--counters: got a list of %zu characters, expected at most %zu", strlen(c->counters),
			 sizeof(pl->opt_val[0]) - 1);
		return -1;
	}
	c->timer_cupti = o->timer && strcmp(o->timer, "cupti") == 0;
	tcp_plan_set_option(pl, "timer", c->timer_cupti ? "cupti" : "events");
	snprintf(b, sizeof(b), "%d", c->gpu);
	tcp_plan_set_option(pl, "gpu", b);
	return reps_new(c, o, pl, err, len);
}

/* An emulated run is finished emulated, on its own target; a real one, real. */
static int emulation_resume(tcp_run_config_t *c, const tcp_sweep_opts_t *o, const tcp_plan_t *pl, char *err,
			    size_t len)
{
	if (tcp_emu_from_plan(&c->emu, pl, err, len) ||
	    tcp_emu_resume_check(&c->emu, o->emu.target != NULL, o->resume_dir, err, len))
		return -1;
	if (o->arch && c->emu.target && o->arch != c->emu.target) {
		snprintf(err, len, "--arch: differs from the emulated run being resumed: got '%s', expected '%s'",
			 o->arch->name, c->emu.target->name);
		return -1;
	}
	return 0;
}

/* --counters and --timer, when given, must be the run's. */
static int agree_resume(tcp_run_config_t *c, const tcp_sweep_opts_t *o, const tcp_plan_t *pl, char *err,
			size_t len)
{
	const char *v = tcp_plan_option(pl, "counters");
	if (o->counters && v && strcmp(v, o->counters) != 0) {
		snprintf(err, len, "--counters: differs from the run being resumed: got '%s', expected '%s'",
			 o->counters, v);
		return -1;
	}
	c->counters = v ? v : "default";
	v = tcp_plan_option(pl, "timer");
	if (o->timer && strcmp(o->timer, v ? v : "events") != 0) {
		snprintf(err, len, "--timer: differs from the run being resumed: got '%s', expected '%s'", o->timer,
			 v ? v : "events");
		return -1;
	}
	c->timer_cupti = v && strcmp(v, "cupti") == 0;
	return 0;
}

int tcp_config_resume(tcp_run_config_t *c, const tcp_sweep_opts_t *o, const tcp_plan_t *pl, char *err,
		      size_t len)
{
	const char *v;
	memset(c, 0, sizeof(*c));
	from_command_line(c, o);
	if (emulation_resume(c, o, pl, err, len))
		return -1;
	if ((v = tcp_plan_option(pl, "seed")))
		c->seed = strtoull(v, NULL, 10);
	if (agree_resume(c, o, pl, err, len))
		return -1;
	v = tcp_plan_option(pl, "gpu");
	c->gpu = o->gpu >= 0 ? o->gpu : v ? atoi(v) : 0;
	return reps_rule(tcp_plan_option(pl, "reps"), tcp_plan_option(pl, "noise"), tcp_plan_option(pl, "rep_budget"),
			 &c->reps, err, len);
}

int tcp_config_extra_series(const tcp_run_config_t *c, int gpu_probe)
{
	return (c->timer_cupti && gpu_probe) + (c->emu.target && gpu_probe);
}

void tcp_config_extra_name(const tcp_run_config_t *c, int i, const char **name, const char **unit)
{
	if (c->timer_cupti && i == 0) {
		*name = TCP_CUPTI_TIMER_METRIC;
		*unit = "ns";
	} else {
		*name = TCP_EMU_POISON_METRIC;
		*unit = "words";
	}
}

uint64_t tcp_point_seed(uint64_t run_seed, int idx)
{
	uint64_t z = run_seed + 0x9E3779B97F4A7C15ull * (uint64_t)(idx + 1);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}
