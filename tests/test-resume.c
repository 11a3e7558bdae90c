/*
 * test-resume.c
 *	Kill and resume: a child process runs a host-probe sweep and is
 *	SIGKILLed at random moments, several times, resuming each time; after
 *	every kill the CSV parses, holds whole points only, no duplicates, and
 *	points written before are never rewritten; the final --resume completes
 *	exactly the missing points.  Also: a torn last line and a partially
 *	written point are repaired by --resume, and SIGINT prints the resume
 *	hint and exits 130.
 */
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/store/csvio.h"
#include "harness/sweep/supervisor.h"

#define NPOINTS 40
#define NMETRICS 3

static const tcp_axis_t axes[] = { { "i", "point number", NULL, "0:39" } };
static const tcp_metric_t metrics[] = {
	{ "value", "x", 1, "10 i", TCP_ROLE_AUTO, 0, 0 },
	{ "twice", "x", 1, "20 i", TCP_ROLE_AUTO, 0, 0 },
	{ "pid", "pid", 1, "worker pid", TCP_ROLE_AUTO, 0, 0 },
};
static int g_sleep_us = 4000;

static tcp_status_t steady_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	(void)c;
	int64_t *s = malloc(sizeof(*s));
	*s = p->v[0];
	*state = s;
	return TCP_OK;
}

static tcp_status_t steady_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	(void)c;
	usleep((useconds_t)g_sleep_us);
	out->v[0] = 10.0 * (double)*(int64_t *)state;
	out->v[1] = 20.0 * (double)*(int64_t *)state;
	out->v[2] = (double)getpid();
	return TCP_OK;
}

static void steady_teardown(void *state)
{
	free(state);
}

static const tcp_probe_t steady = {
	.name = "steady", .family = "test", .help = "sleeps a little", .arch = TCP_ARCH_HOST,
	.axes = axes, .naxes = 1, .metrics = metrics, .nmetrics = NMETRICS,
	.setup = steady_setup, .run = steady_run, .teardown = steady_teardown,
};
static const tcp_probe_t *const probes[] = { &steady };

/* Start a sweep (or a resume) of `dir` in a child; stderr into errpath. */
static pid_t start(const char *dir, int resume, const char *errpath)
{
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid)
		return pid;
	int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 2);
	int nul = open("/dev/null", O_WRONLY);
	dup2(nul, 1);
	tcp_spec_t s;
	char err[256];
	tcp_spec_init(&s);
	tcp_spec_add_probe(&s, "steady", "--probe", probes, 1, err, sizeof(err));
	tcp_sweep_opts_t o = {
		.spec = resume ? NULL : &s, .reps = resume ? -1 : 2, .warmup = resume ? -1 : 1,
		.timeout = -1, .gpu = -1, .counters = resume ? NULL : "none",
		.out_dir = resume ? NULL : dir, .resume_dir = resume ? dir : NULL,
	};
	_exit(tcp_sweep_run(probes, 1, &o));
}

/*
 *  check_csv()
 *	the CSV parses; every point in it is whole (all metrics), once, in
 *	place; a point seen before keeps its timestamp (never rewritten).
 *	Returns the number of points present.
 */
static int check_csv(const char *dir, char stamp[NPOINTS][32], unsigned seed)
{
	char path[512], err[1024];
	tcp_table_t t;
	int rows[NPOINTS] = { 0 };
	snprintf(path, sizeof(path), "%s/measurements.csv", dir);
	if (access(path, F_OK) != 0)
		return 0;
	if (tcp_table_load(path, &t, err, sizeof(err)))
		fail_msg("seed %u: %s", seed, err);
	for (int r = 0; r < t.nrows; r++) {
		int p = atoi(tcp_table_get(&t, r, "point"));
		char key[32];
		assert_true(p >= 0 && p < NPOINTS);
		snprintf(key, sizeof(key), "i=%d", p);
		assert_string_equal(tcp_table_get(&t, r, "axes"), key);
		assert_string_equal(tcp_table_get(&t, r, "status"), "OK");
		const char *m = tcp_table_get(&t, r, "metric");
		if (strcmp(m, metrics[rows[p] % NMETRICS].name) != 0)
			fail_msg("seed %u: point %d row %d is %s: duplicate or out of order", seed, p,
				 rows[p], m);
		if (rows[p] == 0) {
			char want[32];
			snprintf(want, sizeof(want), "%d", 10 * p);
			assert_string_equal(tcp_table_get(&t, r, "median"), want);
			const char *ts = tcp_table_get(&t, r, "timestamp");
			if (stamp[p][0] && strcmp(stamp[p], ts) != 0)
				fail_msg("seed %u: point %d was rewritten", seed, p);
			snprintf(stamp[p], 32, "%s", ts);
		}
		rows[p]++;
	}
	int n = 0;
	for (int p = 0; p < NPOINTS; p++) {
		if (rows[p] != 0 && rows[p] != NMETRICS)
			fail_msg("seed %u: point %d has %d rows, want %d", seed, p, rows[p], NMETRICS);
		n += rows[p] == NMETRICS;
	}
	tcp_table_free(&t);
	return n;
}

/* Lines in the CSV so far (a poll while the sweep still writes). */
static int csv_lines(const char *dir)
{
	char path[512];
	int n = 0, c;
	snprintf(path, sizeof(path), "%s/measurements.csv", dir);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

static int wait_exit(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0)
		assert_int_equal(errno, EINTR);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void test_kill_and_resume(void **state)
{
	(void)state;
	unsigned seed = (unsigned)time(NULL) ^ (unsigned)getpid();
	srand(seed);
	char tmpl[] = "/tmp/test-resume-XXXXXX", dir[256], plan[300], errp[300];
	char stamp[NPOINTS][32];
	memset(stamp, 0, sizeof(stamp));
	assert_non_null(mkdtemp(tmpl));
	snprintf(dir, sizeof(dir), "%s/run", tmpl);
	snprintf(plan, sizeof(plan), "%s/plan.txt", dir);
	snprintf(errp, sizeof(errp), "%s/stderr.txt", tmpl);
	int last = 0, kills = 0;
	for (int k = 0; k < 6; k++) {
		pid_t pid = start(dir, k > 0, errp);
		if (k == 0)	/* kill only once the run directory is a run */
			for (int i = 0; i < 2000 && access(plan, F_OK) != 0; i++)
				usleep(1000);
		usleep((useconds_t)(rand() % 120000));
		kill(pid, SIGKILL);
		int rc = wait_exit(pid);
		assert_true(rc == 128 + SIGKILL || rc == 0);
		kills += rc != 0;
		int n = check_csv(dir, stamp, seed);
		assert_true(n >= last);
		last = n;
		if (n == NPOINTS)
			break;
	}
	/* a torn last line (a write cut mid-line) and a partially written point */
	char path[512];
	snprintf(path, sizeof(path), "%s/measurements.csv", dir);
	if (last > 0 && last < NPOINTS) {
		struct stat sb;
		assert_int_equal(stat(path, &sb), 0);
		FILE *f = fopen(path, "r");
		char *buf = malloc((size_t)sb.st_size + 1);
		assert_int_equal(fread(buf, 1, (size_t)sb.st_size, f), (size_t)sb.st_size);
		fclose(f);
		/* drop the very last row: its point now lacks one metric */
		off_t cut = sb.st_size - 1;
		while (cut > 0 && buf[cut - 1] != '\n')
			cut--;
		assert_int_equal(truncate(path, cut), 0);
		int victim = -1;	/* field 4 of the dropped row: its point reruns */
		assert_int_equal(sscanf(buf + cut, "%*[^,],%*[^,],%*[^,],%d,", &victim), 1);
		stamp[victim][0] = '\0';
		f = fopen(path, "a");
		fputs("1,run,0,39,steady,host,i=39,val", f);
		fclose(f);
		free(buf);
		last--;
	}
	pid_t pid = start(dir, 1, errp);
	assert_int_equal(wait_exit(pid), 0);
	int n = check_csv(dir, stamp, seed);
	if (n != NPOINTS)
		fail_msg("seed %u: %d of %d points after the final resume", seed, n, NPOINTS);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "grep -q 'dropped the rows of 1 partially written point' %s/log.txt", dir);
	if (last > 0 && last < NPOINTS - 1)
		assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
	assert_int_equal(system(cmd), 0);
	print_message("kill/resume: %d kills (seed %u)\n", kills, seed);
}

static void test_sigint_hint(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/test-resume-XXXXXX", dir[256], errp[300], buf[2048] = "", want[700];
	char stamp[NPOINTS][32];
	memset(stamp, 0, sizeof(stamp));
	assert_non_null(mkdtemp(tmpl));
	snprintf(dir, sizeof(dir), "%s/run", tmpl);
	snprintf(errp, sizeof(errp), "%s/stderr.txt", tmpl);
	g_sleep_us = 20000;	/* slow enough to interrupt mid-run */
	pid_t pid = start(dir, 0, errp);
	/* interrupt once a point is written (however slow this machine is) */
	for (int i = 0; i < 3000 && csv_lines(dir) < 1 + NMETRICS; i++)
		usleep(10000);
	kill(pid, SIGINT);
	assert_int_equal(wait_exit(pid), TCP_EXIT_INTERRUPTED);
	int n = check_csv(dir, stamp, 0);
	assert_true(n > 0 && n < NPOINTS);
	FILE *f = fopen(errp, "r");
	size_t got = fread(buf, 1, sizeof(buf) - 1, f);
	buf[got] = '\0';
	fclose(f);
	snprintf(want, sizeof(want),
		 "interrupted: %d of %d points written to %s; finish with: tcprobe run --resume %s\n", n,
		 NPOINTS, dir, dir);
	if (!strstr(buf, want))
		fail_msg("stderr '%s' lacks '%s'", buf, want);
	g_sleep_us = 1000;
	pid = start(dir, 1, errp);
	assert_int_equal(wait_exit(pid), 0);
	assert_int_equal(check_csv(dir, stamp, 0), NPOINTS);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kill_and_resume),
		cmocka_unit_test(test_sigint_hint),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
