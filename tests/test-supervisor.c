/*
 * test-supervisor.c
 *	The supervisor against host-only fake probes that succeed, abort,
 *	segfault, hang past the timeout, write garbage on the result pipe, are
 *	slow but in time, exit, fail setup, fail validation and are illegal:
 *	the sweep goes on after each, and every point gets exactly one status
 *	(with the right reason) in rows that parse.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/store/csvio.h"
#include "harness/store/provenance.h"
#include "harness/sweep/supervisor.h"

enum { OK, ABORT, SEGV, HANG, GARBAGE, SLOW, EXIT, SETUPFAIL, INVALID, ILLEGAL, OKAFTER, CTRCRASH };
static const char *const modes[] = { "ok", "abort", "segv", "hang", "garbage", "slow", "exit",
				     "setupfail", "invalid", "illegal", "okafter", "ctrcrash", NULL };
static const tcp_axis_t axes[] = {
	{ "mode", "what the fake does", modes, "ok" },
	{ "i", "repeat index", NULL, "0,1" },
};
static const tcp_metric_t metrics[] = {
	{ "value", "x", 1, "i + 1", TCP_ROLE_AUTO, 0, 0 },
	{ "seed_lo", "x", 1, "low bits of the point seed", TCP_ROLE_AUTO, 0, 0 },
};

struct fstate {
	int mode;
	int64_t i;
	int runs;	/* run() calls so far */
};

static int fault_legal(const tcp_point_t *p, char *reason, size_t len)
{
	if (p->v[0] == ILLEGAL) {
		snprintf(reason, len, "illegal by construction (i=%lld)", (long long)p->v[1]);
		return 0;
	}
	return 1;
}

static tcp_status_t fault_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	if (p->v[0] == SETUPFAIL) {
		snprintf(c->reason, TCP_REASON_LEN, "setup said no");
		return TCP_FAILED;
	}
	struct fstate *s = calloc(1, sizeof(*s));
	s->mode = (int)p->v[0];
	s->i = p->v[1];
	*state = s;
	return TCP_OK;
}

static tcp_status_t fault_validate(void *state, tcp_ctx_t *c)
{
	struct fstate *s = state;
	if (s->mode == INVALID) {
		snprintf(c->reason, TCP_REASON_LEN, "mismatch at element 3: got 1, expected 2");
		return TCP_INVALID;
	}
	return TCP_OK;
}

/* Write garbage into every pipe this process can write to (the result pipe). */
static void write_garbage(void)
{
	for (int fd = 3; fd < 256; fd++) {
		struct stat sb;
		int fl = fcntl(fd, F_GETFL);
		if (fl >= 0 && (fl & O_ACCMODE) == O_WRONLY && fstat(fd, &sb) == 0 && S_ISFIFO(sb.st_mode))
			if (write(fd, "garbage\n", 8) != 8)
				_exit(99);
	}
}

static tcp_status_t fault_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct fstate *s = state;
	if (s->mode == CTRCRASH && ++s->runs > 2)	/* past 2 timed reps: only a counter pass */
		abort();
	switch (s->mode) {
	case ABORT: abort();
	case SEGV: raise(SIGSEGV); break;
	case HANG: sleep(100); break;
	case GARBAGE: write_garbage(); break;
	case SLOW: usleep(100000); break;
	case EXIT: _exit(9);
	default: break;
	}
	out->v[0] = (double)(s->i + 1);
	out->v[1] = (double)(c->seed % 1000);
	return TCP_OK;
}

static void fault_teardown(void *state)
{
	free(state);
}

static const tcp_probe_t fault = {
	.name = "fault", .family = "test", .help = "misbehaves on purpose", .arch = TCP_ARCH_HOST,
	.axes = axes, .naxes = 2, .metrics = metrics, .nmetrics = 2, .legal = fault_legal,
	.setup = fault_setup, .validate = fault_validate, .run = fault_run,
	.teardown = fault_teardown,
};
static const tcp_probe_t *const probes[] = { &fault };

static void test_every_fault_gets_one_status(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/test-supervisor-XXXXXX", dir[256], path[512], err[1024];
	assert_non_null(mkdtemp(tmpl));
	snprintf(dir, sizeof(dir), "%s/run", tmpl);
	tcp_spec_t s;
	tcp_spec_init(&s);
	assert_int_equal(tcp_spec_add_probe(&s, "fault", "--probe", probes, 1, err, sizeof(err)), 0);
	assert_int_equal(tcp_spec_set(&s, "mode=ok,abort,segv,hang,garbage,slow,exit,setupfail,invalid,illegal,okafter",
				      "--set", err, sizeof(err)), 0);
	tcp_sweep_opts_t o = {
		.spec = &s, .reps = 2, .warmup = 0, .timeout = 0.5, .gpu = -1, .counters = "none",
		.out_dir = dir, .quiet = 1, .seed_set = 1, .seed = 7,
	};
	double t0 = (double)time(NULL);
	int rc = tcp_sweep_run(probes, 1, &o);
	assert_int_equal(rc, TCP_EXIT_POINTS);	/* some points FAILED: exit 1 */
	assert_true((double)time(NULL) - t0 < 20);
	/* no worker left behind */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);

	tcp_table_t t;
	snprintf(path, sizeof(path), "%s/measurements.csv", dir);
	if (tcp_table_load(path, &t, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(t.torn_tail, 0);
	assert_int_equal(t.nrows, 22 * 2);	/* 11 modes x 2 points x 2 metrics */
	static const struct { const char *status, *reason; } want[] = {
		[OK] = { "OK", "" },
		[ABORT] = { "FAILED", "worker killed by SIGABRT" },
		[SEGV] = { "FAILED", "worker killed by SIGSEGV" },
		[HANG] = { "TIMEOUT", "no result within the 0.5 s point timeout; worker killed" },
		[GARBAGE] = { "FAILED", "worker protocol error: unexpected 'garbage'" },
		[SLOW] = { "OK", "" },
		[EXIT] = { "FAILED", "worker exited with status 9" },
		[SETUPFAIL] = { "FAILED", "setup said no" },
		[INVALID] = { "INVALID", "mismatch at element 3: got 1, expected 2" },
		[ILLEGAL] = { "SKIPPED", "illegal by construction (i=" },
		[OKAFTER] = { "OK", "" },
	};
	for (int r = 0; r < t.nrows; r++) {
		int point = atoi(tcp_table_get(&t, r, "point"));
		int mode = point / 2;
		char axes_want[64];
		snprintf(axes_want, sizeof(axes_want), "mode=%s;i=%d", modes[mode], point % 2);
		assert_int_equal(point, r / 2);	/* in plan order, each point once per metric */
		assert_string_equal(tcp_table_get(&t, r, "axes"), axes_want);
		assert_string_equal(tcp_table_get(&t, r, "metric"), metrics[r % 2].name);
		assert_string_equal(tcp_table_get(&t, r, "mode"), modes[mode]);
		const char *st = tcp_table_get(&t, r, "status"), *why = tcp_table_get(&t, r, "reason");
		if (strcmp(st, want[mode].status) != 0 || strstr(why, want[mode].reason) != why)
			fail_msg("point %d (%s): got %s '%s', want %s '%s'", point, modes[mode], st, why,
				 want[mode].status, want[mode].reason);
		if (!strcmp(st, "OK") && r % 2 == 0) {
			assert_string_equal(tcp_table_get(&t, r, "median"), point % 2 ? "2" : "1");
			assert_string_equal(tcp_table_get(&t, r, "reps"), "2");
		}
		if (strcmp(st, "OK") != 0)
			assert_string_equal(tcp_table_get(&t, r, "median"), "");
	}
	tcp_table_free(&t);

	/* the plan, the provenance and the log are there */
	snprintf(path, sizeof(path), "%s/plan.txt", dir);
	assert_int_equal(access(path, R_OK), 0);
	tcp_prov_t *prov = calloc(1, sizeof(*prov));
	snprintf(path, sizeof(path), "%s/provenance.csv", dir);
	assert_int_equal(tcp_prov_read(prov, path, err, sizeof(err)), 0);
	assert_string_equal(tcp_prov_get(prov, "seed"), "7");
	assert_string_equal(tcp_prov_get(prov, "points_planned"), "22");
	assert_non_null(tcp_prov_get(prov, "finished_utc"));
	free(prov);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "grep -q 'worker restarted' %s/log.txt && rm -rf %s", dir, tmpl);
	assert_int_equal(system(cmd), 0);
	tcp_spec_free(&s);
}

/* One run of the fault plan (+ ctrcrash), batched or not: 0, the table loaded. */
static int run_faults(const char *dir, int batch_fake, tcp_table_t *t)
{
	char err[1024], path[512];
	tcp_spec_t s;
	tcp_spec_init(&s);
	assert_int_equal(tcp_spec_add_probe(&s, "fault", "--probe", probes, 1, err, sizeof(err)), 0);
	if (tcp_spec_set(&s, "mode=ok,okafter,ctrcrash,abort,hang,garbage,setupfail,invalid,slow,illegal",
			 "--set", err, sizeof(err)) ||
	    tcp_spec_set(&s, "i=0,1,2", "--set", err, sizeof(err)))
		fail_msg("%s", err);
	tcp_sweep_opts_t o = {
		.spec = &s, .reps = 2, .warmup = 0, .timeout = 0.5, .gpu = -1, .counters = "none",
		.out_dir = dir, .quiet = 1, .seed_set = 1, .seed = 7,
		.ctr_batch = 4, .ctr_batch_fake = batch_fake, .no_block = 1,
	};
	int rc = tcp_sweep_run(probes, 1, &o);
	tcp_spec_free(&s);
	snprintf(path, sizeof(path), "%s/measurements.csv", dir);
	if (tcp_table_load(path, t, err, sizeof(err)))
		fail_msg("%s", err);
	return rc;
}

/*
 * Counter batches (harness/measure/counters.h) through the worker protocol, with the tests'
 * stand-in counter pass: points wait for a batch (W), complete with it
 * (X .. E, F), a batch ends before a point the worker does not run, and a
 * batch lost to a crash or a hang -- in a point after it, or in the batch's
 * own counter pass (ctrcrash) -- runs its points again one at a time.  The
 * rows are those of the same plan without batches: status, reason, numbers,
 * plan order.
 */
static void test_batches_same_rows(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/test-supervisor-XXXXXX", plain[256], batched[256], phases[300], cmd[2048];
	assert_non_null(mkdtemp(tmpl));
	snprintf(plain, sizeof(plain), "%s/plain", tmpl);
	snprintf(batched, sizeof(batched), "%s/batched", tmpl);
	snprintf(phases, sizeof(phases), "%s/phases.csv", tmpl);
	tcp_table_t a, b;
	int ra = run_faults(plain, 0, &a);
	setenv("TCPROBE_PHASES", phases, 1);
	int rb = run_faults(batched, 1, &b);
	unsetenv("TCPROBE_PHASES");
	assert_int_equal(ra, TCP_EXIT_POINTS);
	assert_int_equal(rb, ra);
	assert_int_equal(a.nrows, 10 * 3 * 2);
	assert_int_equal(b.nrows, a.nrows);
	static const char *const cols[] = { "point", "axes", "metric", "status", "median", "min", "max", "reps" };
	for (int r = 0; r < a.nrows; r++) {
		for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
			if (strcmp(tcp_table_get(&a, r, cols[c]), tcp_table_get(&b, r, cols[c])))
				fail_msg("row %d %s: %s without batches, %s with", r, cols[c],
					 tcp_table_get(&a, r, cols[c]), tcp_table_get(&b, r, cols[c]));
		const char *wa = tcp_table_get(&a, r, "reason"), *wb = tcp_table_get(&b, r, "reason");
		/* the same reason, up to the signal/pid details of a crash */
		if (strncmp(wa, wb, 20))
			fail_msg("row %d reason: '%s' without batches, '%s' with", r, wa, wb);
	}
	/* ctrcrash is OK both ways: no counter pass without batches; its batch
	 * lost and run again without one */
	for (int r = 0; r < b.nrows; r++)
		if (!strcmp(tcp_table_get(&b, r, "mode"), "ctrcrash"))
			assert_string_equal(tcp_table_get(&b, r, "status"), "OK");
	tcp_table_free(&a);
	tcp_table_free(&b);
	/* batches happened: full (4, the supervisor's size), ended by the
	 * SKIPPED point after the slow ones (FLUSH: 3), and lost */
	snprintf(cmd, sizeof(cmd), "grep -q 'batch of 4' %s && grep -q 'mode=slow.*batch of 3' %s && "
		 "grep -q 'a counter batch was lost at point' %s/log.txt && "
		 "! grep -q 'a counter batch was lost at point' %s/log.txt", phases, phases, batched, plain);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
	assert_int_equal(system(cmd), 0);
}

/* A resumed run that has nothing left does not start a worker and says so. */
static void test_bad_directories(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/test-supervisor-XXXXXX", dir[256], err[512];
	assert_non_null(mkdtemp(tmpl));
	snprintf(dir, sizeof(dir), "%s/run", tmpl);
	tcp_spec_t s;
	tcp_spec_init(&s);
	assert_int_equal(tcp_spec_add_probe(&s, "fault", "--probe", probes, 1, err, sizeof(err)), 0);
	tcp_sweep_opts_t o = {
		.spec = &s, .reps = 1, .warmup = 0, .timeout = -1, .gpu = -1, .counters = "none",
		.out_dir = dir, .quiet = 1,
	};
	assert_int_equal(tcp_sweep_run(probes, 1, &o), 0);
	/* --out onto an existing run is refused */
	assert_int_equal(tcp_sweep_run(probes, 1, &o), TCP_EXIT_USAGE);
	/* --resume of a finished run: nothing to do, exit 0 */
	tcp_sweep_opts_t r = { .reps = -1, .warmup = -1, .timeout = -1, .gpu = -1, .resume_dir = dir, .quiet = 1 };
	assert_int_equal(tcp_sweep_run(probes, 1, &r), 0);
	/* --resume of a directory without a plan */
	r.resume_dir = tmpl;
	assert_int_equal(tcp_sweep_run(probes, 1, &r), TCP_EXIT_USAGE);
	/* nothing to run */
	tcp_spec_t empty;
	tcp_spec_init(&empty);
	tcp_sweep_opts_t e = { .spec = &empty, .reps = -1, .warmup = -1, .timeout = -1, .gpu = -1 };
	assert_int_equal(tcp_sweep_run(probes, 1, &e), TCP_EXIT_USAGE);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
	assert_int_equal(system(cmd), 0);
	tcp_spec_free(&s);
}

int main(void)
{
	struct rlimit nocore = { 0, 0 };
	setrlimit(RLIMIT_CORE, &nocore);	/* the crashing fakes leave no core files */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_fault_gets_one_status),
		cmocka_unit_test(test_bad_directories),
		cmocka_unit_test(test_batches_same_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
