/*
 * test-reps-auto.c
 *	`--reps auto` through the whole sweep engine, against a host-only fake
 *	whose first metric is 100 plus Gaussian noise of a chosen size (fresh
 *	random samples from the point seed) and whose run() may sleep: quiet
 *	points stop at 3 runs ("noise"), noisy ones at the cap ("max"), slow
 *	noisy ones at the time budget ("budget"), fixed --reps runs exactly N
 *	("fixed"); the rows carry ci_pct and reps_stop, plan.txt the rule, and
 *	--resume keeps the rule and refuses to change it.  TCPROBE_PHASES writes
 *	every step of every point.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/measure/stats.h"
#include "harness/store/columns.h"
#include "harness/store/csvio.h"
#include "harness/sweep/supervisor.h"
#include "test-util.h"

static const tcp_axis_t axes[] = {
	{ "sigma_pct", "noise of the first metric, % of 100", NULL, "0" },
	{ "sleep_ms", "each run() sleeps this long", NULL, "0" },
};
static const tcp_metric_t metrics[] = {
	{ "value", "x", 1, "100 + noise", TCP_ROLE_AUTO, 0, 0 },
	{ "runs", "x", 1, "run() calls so far", TCP_ROLE_AUTO, 0, 0 },
};

struct nstate {
	double sigma;
	int sleep_ms;
	uint64_t rng;
	int runs;
};

static double unit(struct nstate *s)	/* (0, 1], splitmix64 */
{
	uint64_t z = (s->rng += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return ((z ^ (z >> 31)) >> 11) * 0x1.0p-53 + 0x1.0p-54;
}

static tcp_status_t noisy_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	struct nstate *s = calloc(1, sizeof(*s));
	s->sigma = (double)p->v[0];
	s->sleep_ms = (int)p->v[1];
	s->rng = c->seed;
	*state = s;
	return TCP_OK;
}

static tcp_status_t noisy_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct nstate *s = state;
	(void)c;
	if (s->sleep_ms)
		usleep((useconds_t)s->sleep_ms * 1000);
	double g = sqrt(-2 * log(unit(s))) * cos(2 * M_PI * unit(s));
	out->v[0] = 100 + s->sigma * g;
	out->v[1] = ++s->runs;
	return TCP_OK;
}

static void noisy_teardown(void *state)
{
	free(state);
}

static const tcp_probe_t noisy = {
	.name = "noisy", .family = "test", .help = "noise on demand", .arch = TCP_ARCH_HOST,
	.axes = axes, .naxes = 2, .metrics = metrics, .nmetrics = 2,
	.setup = noisy_setup, .run = noisy_run, .teardown = noisy_teardown,
};
static const tcp_probe_t *const probes[] = { &noisy };

/* Run `sets` (one --set each) under o; the table of the run. */
static void sweep(tcp_sweep_opts_t *o, const char *const *sets, int nsets, int want_rc, tcp_table_t *t)
{
	char err[1024], path[600];
	tcp_spec_t s;
	tcp_spec_init(&s);
	assert_int_equal(tcp_spec_add_probe(&s, "noisy", "--probe", probes, 1, err, sizeof(err)), 0);
	for (int i = 0; i < nsets; i++)
		assert_int_equal(tcp_spec_set(&s, sets[i], "--set", err, sizeof(err)), 0);
	o->spec = &s;
	assert_int_equal(tcp_sweep_run(probes, 1, o), want_rc);
	snprintf(path, sizeof(path), "%s/measurements.csv", o->out_dir);
	if (tcp_table_load(path, t, err, sizeof(err)))
		fail_msg("%s", err);
	tcp_spec_free(&s);
}

/* Row of metric m of point `point`. */
static int row_of(const tcp_table_t *t, int point, const char *metric)
{
	for (int r = 0; r < t->nrows; r++)
		if (atoi(tcp_table_get(t, r, "point")) == point && !strcmp(tcp_table_get(t, r, "metric"), metric))
			return r;
	fail_msg("no row for point %d metric %s", point, metric);
	return -1;
}

static void test_auto(void **state)
{
	(void)state;
	char tmpl[200], dir[240], phases[240], cmd[2048];
	assert_int_equal(test_mkdtemp(tmpl, sizeof(tmpl), "reps-auto"), 0);
	snprintf(dir, sizeof(dir), "%s/run", tmpl);
	snprintf(phases, sizeof(phases), "%s/phases.csv", tmpl);
	setenv("TCPROBE_PHASES", phases, 1);
	/* points: quiet; 50% noise; 50% noise, 30 ms a run, 0.1 s budget */
	const char *sets[] = { "sigma_pct=0,50", "sleep_ms=0,30" };
	tcp_sweep_opts_t o = {
		.reps = -1, .reps_auto = 1, .rep_budget_s = 0.1, .warmup = 0, .timeout = 10,
		.gpu = -1, .counters = "none", .out_dir = dir, .quiet = 1, .seed_set = 1,
		.seed = next_u64(),
	};
	tcp_table_t t;
	sweep(&o, sets, 2, 0, &t);
	unsetenv("TCPROBE_PHASES");
	/* plan order: (0,0) (0,30) (50,0) (50,30) */
	for (int p = 0; p < 4; p++) {
		int r = row_of(&t, p, "value"), quiet = p < 2, slow = p % 2;
		const char *stop = tcp_table_get(&t, r, "reps_stop");
		int reps = atoi(tcp_table_get(&t, r, "reps"));
		double ci = atof(tcp_table_get(&t, r, "ci_pct"));
		assert_string_equal(tcp_table_get(&t, r, "status"), "OK");
		if (quiet) {
			assert_string_equal(stop, "noise");
			assert_int_equal(reps, 3);
			assert_string_equal(tcp_table_get(&t, r, "ci_pct"), "0");
		} else if (slow) {
			/* 3 runs take 90 ms or more, the fourth passes 0.1 s */
			assert_string_equal(stop, "budget");
			assert_true(reps >= 3 && reps < 10);
		} else {
			assert_string_equal(stop, "max");
			assert_int_equal(reps, 10);
			assert_true(ci > 0.5);
		}
		/* the second metric has its own CI and the same stop and reps */
		int r2 = row_of(&t, p, "runs");
		assert_string_equal(tcp_table_get(&t, r2, "reps_stop"), stop);
		assert_int_equal(atoi(tcp_table_get(&t, r2, "reps")), reps);
		assert_true(atof(tcp_table_get(&t, r2, "ci_pct")) > 0);
		assert_int_equal(atoi(tcp_table_get(&t, r, "schema")), TCP_SCHEMA_VERSION);
	}
	tcp_table_free(&t);
	/* the rule is in plan.txt */
	snprintf(cmd, sizeof(cmd), "grep -qx '#option reps=auto' %s/plan.txt && grep -qx '#option noise=0.5' "
		 "%s/plan.txt && grep -qx '#option rep_budget=0.1' %s/plan.txt", dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	/* every point's steps were recorded: setup .. point, and why the runs stopped */
	snprintf(cmd, sizeof(cmd), "head -1 %s | grep -qx 'pid,point,probe,axes,phase,ms,note' && "
		 "test $(grep -c ',timed,' %s) = 4 && test $(grep -c '\",point,' %s) = 4 && "
		 "grep -q ',3,noisy,\"sigma_pct=50;sleep_ms=30\",timed,[0-9.]*,\"budget\"' %s", phases, phases,
		 phases, phases);
	assert_int_equal(system(cmd), 0);

	/* --resume cannot change the rule; a broken rule in plan.txt is refused */
	tcp_sweep_opts_t r = { .reps = -1, .warmup = -1, .timeout = -1, .gpu = -1, .resume_dir = dir,
			       .quiet = 1, .noise_pct = 2 };
	assert_int_equal(tcp_sweep_run(probes, 1, &r), TCP_EXIT_USAGE);
	r.noise_pct = 0;
	assert_int_equal(tcp_sweep_run(probes, 1, &r), 0);	/* finished: nothing to do */
	snprintf(cmd, sizeof(cmd), "sed -i 's/^#option noise=0.5$/#option noise=loud/' %s/plan.txt", dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(tcp_sweep_run(probes, 1, &r), TCP_EXIT_USAGE);
	assert_int_equal(test_rm_tree(tmpl), 0);
}

/* --reps N: exactly N, reps_stop "fixed", whatever the noise. */
static void test_fixed(void **state)
{
	(void)state;
	char tmpl[200], dir[240];
	assert_int_equal(test_mkdtemp(tmpl, sizeof(tmpl), "reps-fixed"), 0);
	snprintf(dir, sizeof(dir), "%s/run", tmpl);
	const char *sets[] = { "sigma_pct=0,50" };
	tcp_sweep_opts_t o = {
		.reps = 4, .warmup = 0, .timeout = 10, .gpu = -1, .counters = "none", .out_dir = dir,
		.quiet = 1, .seed_set = 1, .seed = next_u64(),
	};
	tcp_table_t t;
	sweep(&o, sets, 1, 0, &t);
	for (int p = 0; p < 2; p++) {
		int r = row_of(&t, p, "value");
		assert_string_equal(tcp_table_get(&t, r, "reps_stop"), "fixed");
		assert_string_equal(tcp_table_get(&t, r, "reps"), "4");
		/* the CI is recorded under fixed reps too */
		assert_true(p == 0 ? !strcmp(tcp_table_get(&t, r, "ci_pct"), "0")
				   : atof(tcp_table_get(&t, r, "ci_pct")) > 0);
	}
	tcp_table_free(&t);
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "grep -qx '#option reps=fixed' %s/plan.txt && ! grep -q noise %s/plan.txt",
		 dir, dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(test_rm_tree(tmpl), 0);
}

int main(void)
{
	test_seed("test-reps-auto");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_auto),
		cmocka_unit_test(test_fixed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
