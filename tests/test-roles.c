/*
 * test-roles.c
 *	Metric roles (harness/store/metrics.h, a run's metrics.csv) and how
 *	`tcprobe compare` judges by them (harness/analyze/compare.h, "Roles"):
 *	  - the derivation from the unit, the harness's own rows, lookup;
 *	  - metrics.csv written and read back, and every malformation refused
 *	    with path:line;
 *	  - the sweep writes it (and --resume after a SIGKILL keeps it whole),
 *	    describing every row it writes;
 *	  - compare on runs of host-only fake probes swept by the real
 *	    supervisor and writer: a time-domain change the point's own
 *	    in-kernel clock explains is `slower (clock -3.2%)` and exits 0, a
 *	    change beyond it is a regression, a time row on a point without a
 *	    clock is `changed (no clock)`, an informational row is never gated
 *	    (--gate-all gates both), quantum and floor widen the band, a counter
 *	    row is set against the CUPTI clock of its own pass and the NVML
 *	    clock column is never used;
 *	  - where roles come from: BASE, else NEW (a run that predates them),
 *	    else --roles FILE; a pair with none is refused (exit 2, one line
 *	    naming both directories).
 *	No GPU: the fakes' points run in the real worker.  Counter rows (which
 *	only a GPU writes) are appended the way the supervisor writes them,
 *	through csvio and tcp_meta_from_harness.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
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

#include "harness/analyze/compare.h"
#include "harness/cmd/cmd-list.h"
#include "harness/store/csvio.h"
#include "harness/store/metrics.h"
#include "harness/store/run.h"
#include "harness/sweep/supervisor.h"
#include "test-util.h"

/* ---- the fake probes ---------------------------------------------------- */

enum { M_CYCLES, M_TFLOPS, M_KERNEL_NS, M_CLOCK, M_LAUNCH, M_TAIL, M_QUANT, NM_CLK };

static const tcp_axis_t axes[] = { { "i", "point number", NULL, "0:1" } };

/* rl_clk: a point with its own in-kernel clock, as wgmma_tput has */
static const tcp_metric_t clk_metrics[NM_CLK] = {
	{ "cycles", "cycles", 0, "gated (from the unit)", TCP_ROLE_AUTO, 0, 0 },
	{ "tflops", "TFLOP/s", 1, "time (a per-second rate)", TCP_ROLE_AUTO, 0, 0 },
	{ "kernel_ns", "ns", 0, "time (a time)", TCP_ROLE_AUTO, 0, 0 },
	{ "sm_clock_mhz", "MHz", 1, "the point's in-kernel clock", TCP_ROLE_CLOCK, 0, 0 },
	{ "launch_ns", "ns", 0, "launch latency: informational", TCP_ROLE_INFO, 0, 0 },
	{ "tail_pct", "%", 0, "near zero: an absolute floor", TCP_ROLE_AUTO, 0, 0.05 },
	{ "quant_cycles", "cycles", 0, "quantized in steps of 8", TCP_ROLE_AUTO, 8, 0 },
};
/* rl_noclk: time rows and no clock */
static const tcp_metric_t noclk_metrics[] = { { "wall_ns", "ns", 0, "time, no clock", TCP_ROLE_AUTO, 0, 0 } };

/* What every point's run() returns; the forked worker inherits it. */
static struct {
	double v[NM_CLK];
	double wall;
} g;

static tcp_status_t fake_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	(void)p;
	(void)c;
	*state = NULL;
	return TCP_OK;
}

static int g_sleep_us;	/* slows the points down for the kill-and-resume test */

static tcp_status_t clk_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	(void)state;
	(void)c;
	if (g_sleep_us)
		usleep((useconds_t)g_sleep_us);
	for (int m = 0; m < NM_CLK; m++)
		out->v[m] = g.v[m];
	return TCP_OK;
}

static tcp_status_t noclk_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	(void)state;
	(void)c;
	out->v[0] = g.wall;
	return TCP_OK;
}

static void fake_teardown(void *state)
{
	(void)state;
}

static const tcp_probe_t rl_clk = {
	.name = "rl_clk", .family = "test", .help = "a point with a clock", .arch = TCP_ARCH_HOST,
	.axes = axes, .naxes = 1, .metrics = clk_metrics, .nmetrics = NM_CLK,
	.setup = fake_setup, .run = clk_run, .teardown = fake_teardown,
};
static const tcp_probe_t rl_noclk = {
	.name = "rl_noclk", .family = "test", .help = "a point without one", .arch = TCP_ARCH_HOST,
	.axes = axes, .naxes = 1, .metrics = noclk_metrics, .nmetrics = 1,
	.setup = fake_setup, .run = noclk_run, .teardown = fake_teardown,
};
static const tcp_probe_t *const probes[] = { &rl_clk, &rl_noclk };
#define NPROBES 2

/* The base: clock 2000 MHz. */
static void base_values(void)
{
	const double v[NM_CLK] = { 2000, 500, 1000, 2000, 5000, 0.004, 40 };
	memcpy(g.v, v, sizeof(v));
	g.wall = 1000;
}

/* ---- sweeps and commands ------------------------------------------------- */

static char tmproot[64];
static int ndirs;

static int group_setup(void **state)
{
	(void)state;
	test_seed("test-roles");
	return test_mkdtemp(tmproot, sizeof(tmproot), "roles");
}

static int group_teardown(void **state)
{
	(void)state;
	return test_rm_tree(tmproot);
}

static void opts_for(tcp_sweep_opts_t *o, tcp_spec_t *s, const char *dir, const char *resume)
{
	*o = (tcp_sweep_opts_t){
		.spec = resume ? NULL : s, .reps = resume ? -1 : 3, .warmup = resume ? -1 : 0,
		.timeout = resume ? -1 : 10, .gpu = -1, .counters = resume ? NULL : "none",
		.out_dir = resume ? NULL : dir, .resume_dir = resume, .quiet = 1, .seed_set = !resume,
		.seed = next_u64(),
	};
}

static const char spec_text[] = "[rl_clk]\ni = 0:1\n[rl_noclk]\ni = 0:1\n";

/* Sweep both fakes (g's values) into a fresh directory, named into dir. */
static void sweep(char *dir, size_t len, const char *tag)
{
	char err[1024], path[700];
	tcp_spec_t s;
	tcp_sweep_opts_t o;

	snprintf(dir, len, "%s/%s-%d", tmproot, tag, ndirs++);
	tcp_spec_init(&s);
	if (tcp_spec_parse_string(&s, spec_text, "test", probes, NPROBES, err, sizeof(err)))
		fail_msg("%s", err);
	opts_for(&o, &s, dir, NULL);
	snprintf(path, sizeof(path), "%s/sweep-%d.txt", tmproot, ndirs++);
	fflush(NULL);
	int save1 = dup(1), save2 = dup(2), fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(save1 >= 0 && save2 >= 0 && fd >= 0);
	dup2(fd, 1);
	dup2(fd, 2);
	close(fd);
	int rc = tcp_sweep_run(probes, NPROBES, &o);
	fflush(NULL);
	dup2(save1, 1);
	dup2(save2, 2);
	close(save1);
	close(save2);
	tcp_spec_free(&s);
	assert_int_equal(rc, 0);
}

static test_cmd_t res;

/* res = tcprobe compare ARGS... (NULL-terminated) */
static void compare(const char *first, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;

	argv[argc++] = "compare";
	argv[argc++] = (char *)first;
	va_start(ap, first);
	for (char *a; (a = va_arg(ap, char *)) != NULL && argc < 31;)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	test_run_cmd(&res, tcp_cmd_compare, argc, argv);
}

static void expect_rc(int rc, const char *what)
{
	if (res.rc != rc)
		fail_msg("%s: exit %d, want %d\nstdout:\n%.6000s\nstderr:\n%s", what, res.rc, rc, res.out, res.err);
}

/* The --csv cell `col` of (probe, metric) at axes i=0. */
static void csv_cell(const char *csv, const char *probe, const char *metric, const char *col, char *out,
		     size_t len)
{
	tcp_table_t t;
	char err[512];
	if (tcp_table_load(csv, &t, err, sizeof(err)))
		fail_msg("%s", err);
	for (int r = 0; r < t.nrows; r++)
		if (!strcmp(tcp_table_get(&t, r, "probe"), probe) && !strcmp(tcp_table_get(&t, r, "metric"), metric) &&
		    !strcmp(tcp_table_get(&t, r, "axes"), "i=0")) {
			const char *v = tcp_table_get(&t, r, col);
			if (!v)
				fail_msg("%s: no column %s", csv, col);
			snprintf(out, len, "%s", v);
			tcp_table_free(&t);
			return;
		}
	tcp_table_free(&t);
	fail_msg("%s: no row %s %s", csv, probe, metric);
}

/* The row's verdict and judged columns equal want ("verdict/judged"). */
static void expect_row(const char *csv, const char *probe, const char *metric, const char *want)
{
	char v[64], j[64], got[140];
	csv_cell(csv, probe, metric, "verdict", v, sizeof(v));
	csv_cell(csv, probe, metric, "judged", j, sizeof(j));
	snprintf(got, sizeof(got), "%s/%s", v, j);
	if (strcmp(got, want))
		fail_msg("%s %s: got %s, want %s\n%.6000s", probe, metric, got, want, res.out);
}

static int has(const char *text, const char *s)
{
	return strstr(text, s) != NULL;
}

/* ---- the derivation -------------------------------------------------------- */

static void test_derive(void **state)
{
	(void)state;
	static const struct { const char *unit; tcp_role_t role; int better; } units[] = {
		{ "cycles", TCP_ROLE_GATED, 0 }, { "FLOP/clk/SM", TCP_ROLE_GATED, 1 },
		{ "B/clk/SM", TCP_ROLE_GATED, 1 }, { "%", TCP_ROLE_GATED, -1 }, { "count", TCP_ROLE_GATED, -1 },
		{ "ns", TCP_ROLE_TIME, 0 }, { "us", TCP_ROLE_TIME, 0 }, { "s", TCP_ROLE_TIME, 0 },
		{ "MHz", TCP_ROLE_TIME, 1 }, { "GHz", TCP_ROLE_TIME, 1 }, { "TFLOP/s", TCP_ROLE_TIME, 1 },
		{ "TB/s", TCP_ROLE_TIME, 1 }, { "", TCP_ROLE_GATED, -1 },
	};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		assert_int_equal(tcp_meta_role_of_unit(units[i].unit), units[i].role);
		assert_int_equal(tcp_meta_better_of_unit(units[i].unit), units[i].better);
	}
	assert_int_equal(tcp_meta_role_of_unit(NULL), TCP_ROLE_GATED);

	/* declared roles win; CLOCK is time with its clock; the declared direction wins */
	tcp_meta_t m;
	tcp_meta_from_metric("rl_clk", &clk_metrics[M_CLOCK], &m);
	assert_int_equal(m.role, TCP_ROLE_TIME);
	assert_int_equal(m.clock, TCP_CLOCK_KERNEL);
	tcp_meta_from_metric("rl_clk", &clk_metrics[M_LAUNCH], &m);
	assert_int_equal(m.role, TCP_ROLE_INFO);
	assert_int_equal(m.clock, TCP_CLOCK_NONE);
	tcp_meta_from_metric("rl_clk", &clk_metrics[M_TAIL], &m);
	assert_int_equal(m.role, TCP_ROLE_GATED);
	assert_int_equal(m.better, 0);		/* declared lower, though % says nothing */
	assert_true(m.abs_floor == 0.05 && m.quantum == 0);
	tcp_meta_from_metric("rl_clk", &clk_metrics[M_QUANT], &m);
	assert_true(m.quantum == 8 && m.abs_floor == 0);
	tcp_meta_from_metric("rl_clk", &clk_metrics[M_TFLOPS], &m);
	assert_int_equal(m.role, TCP_ROLE_TIME);
	assert_string_equal(m.probe, "rl_clk");

	/* the harness's rows: the CUPTI clock, the counter pass's floors, NVML info */
	tcp_meta_from_harness("cupti/gpc__cycles_elapsed.avg.per_second", "MHz", &m);
	assert_int_equal(m.role, TCP_ROLE_TIME);
	assert_int_equal(m.clock, TCP_CLOCK_CUPTI);
	assert_string_equal(m.probe, TCP_META_ANY);
	tcp_meta_from_harness("cupti/gpu__time_duration.sum", "ns", &m);
	assert_true(m.role == TCP_ROLE_TIME && m.abs_floor == 1000);
	tcp_meta_from_harness("cupti/gpc__cycles_elapsed.max", "cycles", &m);
	assert_true(m.role == TCP_ROLE_GATED && m.abs_floor == 2000);
	tcp_meta_from_harness("power_w_mean", "W", &m);
	assert_int_equal(m.role, TCP_ROLE_INFO);
	tcp_meta_from_harness("cupti/check/sm_clock_ratio", "ratio", &m);
	assert_int_equal(m.role, TCP_ROLE_INFO);
	tcp_meta_from_harness("cupti/dram__bytes_read.sum", "B", &m);	/* not in the table: the unit */
	assert_true(m.role == TCP_ROLE_GATED && m.better == -1 && m.clock == TCP_CLOCK_NONE);
	tcp_meta_from_harness("cupti/something.per_second", "MHz", &m);	/* a clock only by name */
	assert_true(m.role == TCP_ROLE_TIME && m.clock == TCP_CLOCK_NONE);
	assert_true(tcp_meta_counter_row("cupti/gpu__time_duration.sum"));
	assert_false(tcp_meta_counter_row("cupti_kernel_ns"));

	/* lookup: the probe's own entry first, then "*" */
	tcp_meta_set_t *s = tcp_meta_set_new();
	assert_non_null(s);
	assert_int_equal(tcp_meta_add_probes(s, probes, NPROBES), 0);
	assert_int_equal(tcp_meta_add_harness(s), 0);
	tcp_meta_t own = m;
	own.probe = "rl_clk";
	own.metric = "cupti/check/sm_clock_ratio";
	own.role = TCP_ROLE_GATED;
	assert_int_equal(tcp_meta_set_add(s, &own), 1);
	assert_int_equal(tcp_meta_set_add(s, &own), 0);	/* once */
	assert_int_equal(tcp_meta_find(s, "rl_clk", "cupti/check/sm_clock_ratio")->role, TCP_ROLE_GATED);
	assert_int_equal(tcp_meta_find(s, "rl_noclk", "cupti/check/sm_clock_ratio")->role, TCP_ROLE_INFO);
	assert_null(tcp_meta_find(s, "rl_noclk", "cycles"));
	assert_null(tcp_meta_find(NULL, "rl_clk", "cycles"));
	assert_int_equal(tcp_meta_find(s, "rl_clk", "launch_ns")->role, TCP_ROLE_INFO);
	tcp_meta_set_free(s);
}

/* ---- the file ------------------------------------------------------------------- */

static void test_file(void **state)
{
	(void)state;
	char dir[300], path[400], err[600];
	snprintf(dir, sizeof(dir), "%s/file", tmproot);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/%s", dir, TCP_META_FILE);

	/* written, read back the same (a doc with a comma and a quote: quoted) */
	tcp_meta_set_t *s = tcp_meta_set_new(), *back;
	assert_int_equal(tcp_meta_add_probes(s, probes, NPROBES), 0);
	assert_int_equal(tcp_meta_add_harness(s), 0);
	tcp_meta_t q = { .probe = "p,q", .metric = "m \"x\"", .unit = "ns", .role = TCP_ROLE_INFO, .better = -1,
			 .quantum = 0.5, .abs_floor = 1e-3, .doc = "a, b \"c\"" };
	assert_int_equal(tcp_meta_set_add(s, &q), 1);
	assert_int_equal(tcp_meta_write(s, path, err, sizeof(err)), 0);
	if (tcp_meta_load(path, &back, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(tcp_meta_set_count(back), tcp_meta_set_count(s));
	for (int i = 0; i < tcp_meta_set_count(s); i++) {
		const tcp_meta_t *a = tcp_meta_set_get(s, i), *b = tcp_meta_set_get(back, i);
		assert_string_equal(a->probe, b->probe);
		assert_string_equal(a->metric, b->metric);
		assert_string_equal(a->unit, b->unit);
		assert_string_equal(a->doc, b->doc);
		assert_int_equal(a->role, b->role);
		assert_int_equal(a->clock, b->clock);
		assert_int_equal(a->better, b->better);
		assert_true(a->quantum == b->quantum && a->abs_floor == b->abs_floor);
	}
	tcp_meta_set_free(back);
	tcp_meta_set_free(s);
	snprintf(err, sizeof(err), "%s.tmp", path);
	assert_int_equal(access(err, F_OK), -1);	/* renamed, nothing left behind */

	/* every malformation: one line, path:line */
	static const char hdr[] = "meta_version,probe,metric,unit,role,direction,clock,quantum,floor,doc\n";
	static const struct { const char *row, *want; } bad[] = {
		{ "1,p,m,ns,fast,lower,,,,d\n", ":2: role: got 'fast'" },
		{ "1,p,m,ns,time,up,,,,d\n", ":2: direction: got 'up'" },
		{ "1,p,m,ns,time,lower,nvml,,,d\n", ":2: clock: got 'nvml'" },
		{ "1,p,m,ns,time,lower,,-1,,d\n", ":2: quantum: got '-1'" },
		{ "1,p,m,ns,time,lower,,,x,d\n", ":2: floor: got 'x'" },
		{ "99,p,m,ns,time,lower,,,,d\n", ":2: meta_version 99 is newer" },
		{ "x,p,m,ns,time,lower,,,,d\n", ":2: meta_version: got 'x'" },
		{ "1,,m,ns,time,lower,,,,d\n", ":2: probe is empty" },
		{ "1,p,m,ns,time,lower,,,,d\n1,p,m,ns,gated,lower,,,,d\n", ":3: p m is described twice" },
	};
	char text[600];
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "%s%s", hdr, bad[i].row);
		assert_int_equal(test_write_file(dir, TCP_META_FILE, text), 0);
		tcp_meta_set_t *x = NULL;
		assert_int_equal(tcp_meta_load(path, &x, err, sizeof(err)), -1);
		assert_null(x);
		char want[600];
		snprintf(want, sizeof(want), "%s%s", path, bad[i].want);
		if (!has(err, want))
			fail_msg("got '%s', want '%s'", err, want);
	}
	assert_int_equal(test_write_file(dir, TCP_META_FILE, "probe,metric,role\np,m,time\n"), 0);
	assert_int_equal(tcp_meta_load(path, &back, err, sizeof(err)), -1);
	assert_true(has(err, ":1: missing required column 'meta_version'"));
	/* a torn last line is dropped, as every reader does */
	snprintf(text, sizeof(text), "%s1,p,m,ns,time,lower,,,,d\n1,p,n,ns,ti", hdr);
	assert_int_equal(test_write_file(dir, TCP_META_FILE, text), 0);
	assert_int_equal(tcp_meta_load(path, &back, err, sizeof(err)), 0);
	assert_int_equal(tcp_meta_set_count(back), 1);
	tcp_meta_set_free(back);

	/* `tcprobe list --metrics` prints what the writer writes, and reads back */
	char *argv[] = { "list", "--metrics", NULL };
	test_run_cmd(&res, tcp_cmd_list, 2, argv);
	assert_int_equal(res.rc, 0);
	assert_true(has(res.out, "meta_version,probe,metric,unit,role,direction,clock,quantum,floor,doc\n"));
	assert_true(has(res.out, "\n1,host_timer,resolution_ns,ns,info,lower,,1,,"));
	assert_true(has(res.out, "\n1,calib,sm_clock_mhz,MHz,time,higher,kernel,,,"));
	assert_true(has(res.out, "\n1,*,cupti/gpc__cycles_elapsed.avg.per_second,MHz,time,higher,cupti,,,"));
	assert_int_equal(test_write_file(dir, TCP_META_FILE, res.out), 0);
	assert_int_equal(tcp_meta_load(path, &back, err, sizeof(err)), 0);
	assert_int_equal(tcp_meta_find(back, "calib", "launch_overhead_ns")->role, TCP_ROLE_INFO);
	assert_true(tcp_meta_find(back, "wgmma_epilogue", "epi_tail_pct")->abs_floor > 0);
	tcp_meta_set_free(back);
}

/* ---- the sweep writes it -------------------------------------------------------- */

/* Every row of the run's measurements.csv is described by its metrics.csv. */
static void expect_described(const char *dir)
{
	tcp_run_t *r;
	char err[600];
	if (tcp_run_open(dir, TCP_RUN_STRICT, &r, err, sizeof(err)))
		fail_msg("%s", err);
	assert_non_null(r->meta);
	for (int i = 0; i < r->nrows; i++)
		if (!tcp_meta_find(r->meta, r->rows[i].probe, r->rows[i].metric))
			fail_msg("%s: %s %s is not in metrics.csv", dir, r->rows[i].probe, r->rows[i].metric);
	tcp_run_free(r);
}

static void test_sweep_writes(void **state)
{
	(void)state;
	char dir[300], err[600];
	base_values();
	sweep(dir, sizeof(dir), "written");
	expect_described(dir);

	tcp_run_t *r;
	assert_int_equal(tcp_run_open(dir, TCP_RUN_STRICT, &r, err, sizeof(err)), 0);
	const tcp_meta_t *m = tcp_meta_find(r->meta, "rl_clk", "sm_clock_mhz");
	assert_true(m && m->role == TCP_ROLE_TIME && m->clock == TCP_CLOCK_KERNEL && m->better == 1);
	m = tcp_meta_find(r->meta, "rl_clk", "launch_ns");
	assert_true(m && m->role == TCP_ROLE_INFO);
	m = tcp_meta_find(r->meta, "rl_clk", "tail_pct");
	assert_true(m && m->role == TCP_ROLE_GATED && m->abs_floor == 0.05);
	m = tcp_meta_find(r->meta, "rl_noclk", "wall_ns");
	assert_true(m && m->role == TCP_ROLE_TIME && m->clock == TCP_CLOCK_NONE);
	assert_string_equal(m->doc, "time, no clock");
	assert_int_equal(tcp_meta_set_count(r->meta), NM_CLK + 1);
	tcp_run_free(r);
}

/* SIGKILL mid-sweep, then --resume: metrics.csv is whole at both moments. */
static void test_kill_resume(void **state)
{
	(void)state;
	char dir[300], twin[300], path[400], err[600];
	tcp_spec_t s;
	tcp_sweep_opts_t o;

	base_values();
	sweep(twin, sizeof(twin), "twin");
	snprintf(dir, sizeof(dir), "%s/killed-%d", tmproot, ndirs++);
	snprintf(path, sizeof(path), "%s/measurements.csv", dir);
	g_sleep_us = 40000;	/* 3 reps: ~0.12 s a point of rl_clk */
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int nul = open("/dev/null", O_WRONLY);
		dup2(nul, 1);
		dup2(nul, 2);
		tcp_spec_init(&s);
		if (tcp_spec_parse_string(&s, spec_text, "test", probes, NPROBES, err, sizeof(err)))
			_exit(3);
		opts_for(&o, &s, dir, NULL);
		_exit(tcp_sweep_run(probes, NPROBES, &o));
	}
	/* kill once the first point is on disk */
	for (int i = 0; i < 400; i++) {
		struct stat st;
		if (stat(path, &st) == 0 && st.st_size > 600)
			break;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	int ws;
	waitpid(pid, &ws, 0);
	assert_true(WIFSIGNALED(ws));
	g_sleep_us = 0;
	expect_described(dir);	/* what is written is described */
	tcp_run_t *r;
	assert_int_equal(tcp_run_open(dir, 0, &r, err, sizeof(err)), 0);
	assert_true(r->nunfinished > 0);	/* killed before the end */
	tcp_run_free(r);

	opts_for(&o, NULL, NULL, dir);
	fflush(NULL);
	int save1 = dup(1), save2 = dup(2), nul = open("/dev/null", O_WRONLY);
	dup2(nul, 1);
	dup2(nul, 2);
	close(nul);
	int rc = tcp_sweep_run(probes, NPROBES, &o);
	fflush(NULL);
	dup2(save1, 1);
	dup2(save2, 2);
	close(save1);
	close(save2);
	assert_int_equal(rc, 0);
	expect_described(dir);
	/* the resumed run against its uninterrupted twin: A/A, exit 0 */
	compare(twin, dir, NULL);
	expect_rc(0, "resumed vs twin");
	compare(dir, twin, NULL);
	expect_rc(0, "twin vs resumed");
}

/* ---- compare under roles --------------------------------------------------------- */

static char dir_a[300], dir_b[300];	/* base, and the clock 3.2% lower */

static void sweep_pair(void)
{
	if (*dir_a)
		return;
	base_values();
	sweep(dir_a, sizeof(dir_a), "a");
	/* B: the SM clock 3.2% lower; time rows follow it, cycles do not;
	 * launch latency 60% up; the near-zero tail and the quantized count move
	 * within their floor and quantum; the clockless wall time 10% up */
	const double c = 0.968;
	g.v[M_CLOCK] = 2000 * c;
	g.v[M_TFLOPS] = 500 * c;
	g.v[M_KERNEL_NS] = 1000 / c;
	g.v[M_LAUNCH] = 8000;
	g.v[M_TAIL] = 0.0063;
	g.v[M_QUANT] = 46;
	g.wall = 1100;
	sweep(dir_b, sizeof(dir_b), "b");
}

static void test_clock_explains(void **state)
{
	(void)state;
	char csv[400];
	sweep_pair();
	snprintf(csv, sizeof(csv), "%s/ab.csv", tmproot);
	compare(dir_a, dir_b, "--csv", csv, NULL);
	expect_rc(0, "the clock explains every time row");
	expect_row(csv, "rl_clk", "tflops", "slower/clock");
	expect_row(csv, "rl_clk", "kernel_ns", "slower/clock");
	expect_row(csv, "rl_clk", "sm_clock_mhz", "slower/clock");
	expect_row(csv, "rl_clk", "cycles", "same/gated");
	expect_row(csv, "rl_clk", "launch_ns", "slower/info");
	expect_row(csv, "rl_clk", "tail_pct", "same/gated");
	expect_row(csv, "rl_clk", "quant_cycles", "same/gated");
	expect_row(csv, "rl_noclk", "wall_ns", "changed/no_clock");
	char v[64];
	csv_cell(csv, "rl_clk", "tflops", "clock_pct", v, sizeof(v));
	assert_float_equal(strtod(v, NULL), -3.2, 1e-6);
	csv_cell(csv, "rl_clk", "tflops", "regression", v, sizeof(v));
	assert_string_equal(v, "0");
	csv_cell(csv, "rl_clk", "launch_ns", "role", v, sizeof(v));
	assert_string_equal(v, "info");
	csv_cell(csv, "rl_clk", "tail_pct", "noise_pct", v, sizeof(v));
	assert_float_equal(strtod(v, NULL), 0.05 / 0.004 * 100, 1e-6);	/* the floor, in % of base */
	csv_cell(csv, "rl_clk", "quant_cycles", "noise_pct", v, sizeof(v));
	assert_float_equal(strtod(v, NULL), 8.0 / 40 * 100, 1e-6);	/* one quantum */
	/* the report a person reads */
	assert_true(has(res.out, "slower (clock -3.2%)"));
	assert_true(has(res.out, "slower (info)"));
	assert_true(has(res.out, "changed (no clock)"));
	assert_true(has(res.out, "roles: "));
	assert_true(has(res.out, "Result: no regression beyond the 3.0% gate (exit 0)"));
	assert_true(has(res.out, "new   0 SLOWER beyond 3.0%"));
	assert_false(has(res.out, "SLOWER ("));

	/* --gate-all: the informational row and the clockless time row are gated */
	compare(dir_a, dir_b, "--gate-all", "--csv", csv, NULL);
	expect_rc(1, "--gate-all");
	csv_cell(csv, "rl_clk", "launch_ns", "regression", v, sizeof(v));
	assert_string_equal(v, "1");
	csv_cell(csv, "rl_noclk", "wall_ns", "regression", v, sizeof(v));
	assert_string_equal(v, "1");
	csv_cell(csv, "rl_clk", "tflops", "regression", v, sizeof(v));
	assert_string_equal(v, "0");	/* still explained by the clock */
	assert_true(has(res.out, "SLOWER (info)"));
	assert_true(has(res.out, "SLOWER (no clock)"));
	assert_true(has(res.out, "Result: REGRESSION: 4 points"));	/* two rows, two points each */

	/* --metric leaving the clock rows out of the join still judges at the clock */
	compare(dir_a, dir_b, "--metric", "tflops,wall_ns", "--csv", csv, NULL);
	expect_rc(0, "--metric without the clock");
	expect_row(csv, "rl_clk", "tflops", "slower/clock");
	expect_row(csv, "rl_noclk", "wall_ns", "changed/no_clock");
	compare(dir_a, dir_b, "--probe", "rl_noclk", "--csv", csv, NULL);	/* another probe's clock is not its */
	expect_rc(0, "--probe");
	expect_row(csv, "rl_noclk", "wall_ns", "changed/no_clock");

	/* A/A: each run against itself and the other way round */
	compare(dir_a, dir_a, "--quiet", NULL);
	expect_rc(0, "A vs A");
	compare(dir_b, dir_a, "--csv", csv, NULL);
	expect_rc(0, "B vs A");
	expect_row(csv, "rl_clk", "tflops", "faster/clock");
	assert_true(has(res.out, "faster (clock +3.3%)"));
}

static void test_beyond_clock(void **state)
{
	(void)state;
	char c1[300], c2[300], c3[300], csv[400], v[64];
	sweep_pair();
	snprintf(csv, sizeof(csv), "%s/beyond.csv", tmproot);

	/* the same clock, 10% fewer TFLOP/s: nothing explains it */
	base_values();
	g.v[M_TFLOPS] = 450;
	sweep(c1, sizeof(c1), "beyond");
	compare(dir_a, c1, "--csv", csv, NULL);
	expect_rc(1, "beyond the clock");
	expect_row(csv, "rl_clk", "tflops", "slower/beyond_clock");
	assert_true(has(res.out, "SLOWER (clock +0.0%, -10.0% beyond)"));
	/* the clock 3.2% lower and the rate 10% lower: 7% beyond it, still a regression */
	g.v[M_CLOCK] = 2000 * 0.968;
	g.v[M_TFLOPS] = 450;
	sweep(c2, sizeof(c2), "beyond2");
	compare(dir_a, c2, "--csv", csv, NULL);
	expect_rc(1, "part clock, part beyond");
	expect_row(csv, "rl_clk", "tflops", "slower/beyond_clock");
	csv_cell(csv, "rl_clk", "tflops", "clock_pct", v, sizeof(v));
	assert_float_equal(strtod(v, NULL), -3.2, 1e-6);
	assert_true(has(res.out, "SLOWER (clock -3.2%, -7.0% beyond)"));	/* 0.9 / 0.968 */

	/* cycles, the floor and the quantum, beyond their band: gated as ever */
	base_values();
	g.v[M_CYCLES] = 2200;
	g.v[M_TAIL] = 0.2;
	g.v[M_QUANT] = 52;
	sweep(c3, sizeof(c3), "gated");
	compare(dir_a, c3, "--csv", csv, NULL);
	expect_rc(1, "gated rows");
	expect_row(csv, "rl_clk", "cycles", "slower/gated");
	expect_row(csv, "rl_clk", "tail_pct", "slower/gated");
	expect_row(csv, "rl_clk", "quant_cycles", "slower/gated");
	assert_true(has(res.out, "Result: REGRESSION: 6 points"));	/* three rows, two points each */
}

/* ---- counter rows: the CUPTI clock of their own pass; never NVML's ---------------- */

/* Append to dir a counter row of (probe, i=k) the way the supervisor writes
 * one (K row: median = min = max = mean, stddev 0, reps 1), and describe it
 * as the supervisor does (tcp_meta_from_harness). */
static void add_counter(const char *dir, const char *probe, int k, const char *metric, const char *unit, double v)
{
	char path[400], err[600], num[64], axes_k[16];
	tcp_table_t t;
	snprintf(path, sizeof(path), "%s/measurements.csv", dir);
	snprintf(axes_k, sizeof(axes_k), "i=%d", k);
	if (tcp_table_load(path, &t, err, sizeof(err)))
		fail_msg("%s", err);
	int src = -1;
	for (int r = 0; r < t.nrows && src < 0; r++)
		if (!strcmp(tcp_table_get(&t, r, "probe"), probe) && !strcmp(tcp_table_get(&t, r, "axes"), axes_k))
			src = r;
	assert_true(src >= 0);
	const char **cells = calloc((size_t)t.ncols, sizeof(*cells));
	assert_non_null(cells);
	snprintf(num, sizeof(num), "%.10g", v);
	for (int c = 0; c < t.ncols; c++) {
		const char *col = t.cols[c], *x = tcp_table_cell(&t, src, c);
		if (!strcmp(col, "metric"))
			x = metric;
		else if (!strcmp(col, "unit"))
			x = unit;
		else if (!strcmp(col, "median") || !strcmp(col, "min") || !strcmp(col, "max") || !strcmp(col, "mean"))
			x = num;
		else if (!strcmp(col, "stddev") || !strcmp(col, "spread_pct"))
			x = "0";
		else if (!strcmp(col, "reps"))
			x = "1";
		else if (!strcmp(col, "ci_pct") || !strcmp(col, "reps_stop"))
			x = "";
		cells[c] = x;
	}
	tcp_csv_writer_t *w = tcp_csv_open(path, (const char *const *)t.cols, t.ncols, 1, err, sizeof(err));
	if (!w)
		fail_msg("%s", err);
	assert_int_equal(tcp_csv_write_rows(w, cells, 1), 0);
	assert_int_equal(tcp_csv_close(w), 0);
	free(cells);
	tcp_table_free(&t);

	tcp_meta_set_t *s;
	tcp_meta_t m;
	snprintf(path, sizeof(path), "%s/%s", dir, TCP_META_FILE);
	assert_int_equal(tcp_meta_load(path, &s, err, sizeof(err)), 0);
	tcp_meta_from_harness(metric, unit, &m);
	assert_true(tcp_meta_set_add(s, &m) >= 0);
	assert_int_equal(tcp_meta_write(s, path, err, sizeof(err)), 0);
	tcp_meta_set_free(s);
}

/* Set the NVML clock column (sm_clock_mhz) of every row of (probe, i=k). */
static void set_nvml_clock(const char *dir, const char *probe, int k, double mhz)
{
	char path[400], err[600], num[64], axes_k[16];
	tcp_table_t t;
	snprintf(path, sizeof(path), "%s/measurements.csv", dir);
	snprintf(axes_k, sizeof(axes_k), "i=%d", k);
	snprintf(num, sizeof(num), "%.10g", mhz);
	assert_int_equal(tcp_table_load(path, &t, err, sizeof(err)), 0);
	int cc = tcp_table_col(&t, "sm_clock_mhz");
	assert_true(cc >= 0);
	const char **cells = calloc((size_t)t.nrows * (size_t)t.ncols, sizeof(*cells));
	for (int r = 0; r < t.nrows; r++)
		for (int c = 0; c < t.ncols; c++) {
			int hit = c == cc && !strcmp(tcp_table_get(&t, r, "probe"), probe) &&
				  !strcmp(tcp_table_get(&t, r, "axes"), axes_k);
			cells[(size_t)r * (size_t)t.ncols + (size_t)c] = hit ? num : tcp_table_cell(&t, r, c);
		}
	tcp_csv_writer_t *w = tcp_csv_open(path, (const char *const *)t.cols, t.ncols, 0, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(tcp_csv_write_rows(w, cells, t.nrows), 0);
	assert_int_equal(tcp_csv_close(w), 0);
	free(cells);
	tcp_table_free(&t);
}

static void test_counter_clock(void **state)
{
	(void)state;
	char a[300], b[300], csv[400];
	base_values();
	sweep(a, sizeof(a), "ctr-a");
	sweep(b, sizeof(b), "ctr-b");	/* the same values: the counter rows and NVML differ */

	/* rl_noclk i=0: no in-kernel clock; its counter pass ran 3.2% slower */
	add_counter(a, "rl_noclk", 0, "cupti/gpc__cycles_elapsed.avg.per_second", "MHz", 2000);
	add_counter(b, "rl_noclk", 0, "cupti/gpc__cycles_elapsed.avg.per_second", "MHz", 1936);
	add_counter(a, "rl_noclk", 0, "cupti/gpu__time_duration.sum", "ns", 100000);
	add_counter(b, "rl_noclk", 0, "cupti/gpu__time_duration.sum", "ns", 100000 / 0.968);
	/* rl_clk i=0: its kernel clock unchanged, the counter pass's clock 5% lower:
	 * the counter row is set against the counter pass's clock, not the kernel's */
	add_counter(a, "rl_clk", 0, "cupti/gpc__cycles_elapsed.avg.per_second", "MHz", 2000);
	add_counter(b, "rl_clk", 0, "cupti/gpc__cycles_elapsed.avg.per_second", "MHz", 1900);
	add_counter(a, "rl_clk", 0, "cupti/gpu__time_duration.sum", "ns", 200000);
	add_counter(b, "rl_clk", 0, "cupti/gpu__time_duration.sum", "ns", 200000 / 0.95);
	/* rl_noclk i=1: no clock of its own, NVML's 9% lower, the time 10% up:
	 * never explained by NVML */
	set_nvml_clock(a, "rl_noclk", 1, 1980);
	set_nvml_clock(b, "rl_noclk", 1, 1800);
	expect_described(a);
	expect_described(b);

	snprintf(csv, sizeof(csv), "%s/ctr.csv", tmproot);
	compare(a, b, "--csv", csv, NULL);
	expect_rc(0, "counter rows at their own clock");
	expect_row(csv, "rl_noclk", "cupti/gpu__time_duration.sum", "slower/clock");
	expect_row(csv, "rl_noclk", "cupti/gpc__cycles_elapsed.avg.per_second", "slower/clock");
	expect_row(csv, "rl_clk", "cupti/gpu__time_duration.sum", "slower/clock");
	expect_row(csv, "rl_clk", "tflops", "same/clock");
	char v[64];
	csv_cell(csv, "rl_clk", "cupti/gpu__time_duration.sum", "clock_pct", v, sizeof(v));
	assert_float_equal(strtod(v, NULL), -5.0, 1e-6);
	assert_true(has(res.out, "slower (clock -5.0%)"));
	/* ... wall_ns of rl_noclk i=0 (a timed row) takes the counter clock, the only one */
	expect_row(csv, "rl_noclk", "wall_ns", "same/clock");

	/* the NVML column: never a clock */
	char c[300];
	g.wall = 1100;
	sweep(c, sizeof(c), "ctr-c");
	set_nvml_clock(c, "rl_noclk", 1, 1800);
	set_nvml_clock(a, "rl_noclk", 0, 1980);
	compare(a, c, "--allow-missing", "--csv", csv, NULL);	/* c has no counter rows */
	expect_rc(0, "NVML's clock column is not a clock");
	tcp_table_t t;
	char err[600];
	assert_int_equal(tcp_table_load(csv, &t, err, sizeof(err)), 0);
	int seen = 0;
	for (int r = 0; r < t.nrows; r++)
		if (!strcmp(tcp_table_get(&t, r, "metric"), "wall_ns") && !strcmp(tcp_table_get(&t, r, "axes"), "i=1")) {
			assert_string_equal(tcp_table_get(&t, r, "verdict"), "changed");
			assert_string_equal(tcp_table_get(&t, r, "judged"), "no_clock");
			assert_string_equal(tcp_table_get(&t, r, "clock_pct"), "");
			seen = 1;
		}
	tcp_table_free(&t);
	assert_true(seen);
}

/* ---- where the roles come from ---------------------------------------------------- */

static void copy_run(const char *from, char *to, size_t len, const char *tag, int with_roles)
{
	char cmd[1200];
	snprintf(to, len, "%s/%s-%d", tmproot, tag, ndirs++);
	snprintf(cmd, sizeof(cmd), "cp -r '%s' '%s'", from, to);
	assert_int_equal(system(cmd), 0);
	if (!with_roles) {
		snprintf(cmd, sizeof(cmd), "%s/%s", to, TCP_META_FILE);
		assert_int_equal(unlink(cmd), 0);
	}
}

static void test_roles_source(void **state)
{
	(void)state;
	char old_a[300], old_b[300], csv[400], path[400], err[600], want[800];
	sweep_pair();
	copy_run(dir_a, old_a, sizeof(old_a), "old-a", 0);
	copy_run(dir_b, old_b, sizeof(old_b), "old-b", 0);
	snprintf(csv, sizeof(csv), "%s/src.csv", tmproot);

	/* a base that predates roles takes the new run's */
	compare(old_a, dir_b, "--csv", csv, NULL);
	expect_rc(0, "roles from NEW");
	expect_row(csv, "rl_clk", "tflops", "slower/clock");
	snprintf(want, sizeof(want), "note: roles from %s/%s (base has none", dir_b, TCP_META_FILE);
	assert_true(has(res.out, want));
	/* ... and a new run that predates them takes the base's */
	compare(dir_a, old_b, "--quiet", NULL);
	expect_rc(0, "roles from BASE");

	/* neither: refused, one line naming both directories */
	compare(old_a, old_b, NULL);
	expect_rc(2, "no roles at all");
	assert_int_equal(res.err_lines, 1);
	snprintf(want, sizeof(want), "tcprobe compare: neither %s nor %s has a %s", old_a, old_b, TCP_META_FILE);
	if (!has(res.err, want))
		fail_msg("got '%s', want '%s'", res.err, want);
	assert_true(has(res.err, "--roles FILE"));
	/* N-way: the pair without any is the one named */
	compare(old_a, dir_b, old_b, NULL);
	expect_rc(2, "N-way, one pair without roles");
	assert_true(has(res.err, old_b));

	/* --roles FILE judges such a pair */
	snprintf(path, sizeof(path), "%s/roles.csv", tmproot);
	tcp_meta_set_t *s = tcp_meta_set_new();
	assert_int_equal(tcp_meta_add_probes(s, probes, NPROBES), 0);
	assert_int_equal(tcp_meta_write(s, path, err, sizeof(err)), 0);
	tcp_meta_set_free(s);
	compare(old_a, old_b, "--roles", path, "--csv", csv, NULL);
	expect_rc(0, "--roles");
	expect_row(csv, "rl_clk", "launch_ns", "slower/info");
	snprintf(want, sizeof(want), "note: roles from %s (--roles)", path);
	assert_true(has(res.out, want));
	/* a bad --roles file: one line, path:line */
	assert_int_equal(test_write_file(tmproot, "bad-roles.csv",
					 "meta_version,probe,metric,unit,role\n1,p,m,ns,sometimes\n"), 0);
	snprintf(path, sizeof(path), "%s/bad-roles.csv", tmproot);
	compare(old_a, old_b, "--roles", path, NULL);
	expect_rc(2, "bad --roles");
	assert_int_equal(res.err_lines, 1);
	assert_true(has(res.err, "bad-roles.csv:2: role: got 'sometimes'"));

	/* a run's own malformed metrics.csv is an input error naming it */
	char broken[300];
	copy_run(dir_b, broken, sizeof(broken), "broken", 1);
	assert_int_equal(test_write_file(broken, TCP_META_FILE,
					 "meta_version,probe,metric,unit,role\n1,rl_clk,cycles,cycles,gated\n1,rl_clk,x,ns,fast\n"),
			 0);
	compare(dir_a, broken, NULL);
	expect_rc(2, "malformed metrics.csv");
	snprintf(want, sizeof(want), "%s/%s:3: role: got 'fast'", broken, TCP_META_FILE);
	assert_true(has(res.err, want));

	/* both have roles: the base's; a row the base's file lacks: the new run's */
	char part[300];
	copy_run(dir_a, part, sizeof(part), "part", 1);
	s = tcp_meta_set_new();
	for (int m = 0; m < NM_CLK; m++) {
		tcp_meta_t e;
		tcp_meta_from_metric("rl_clk", &clk_metrics[m], &e);
		if (m == M_LAUNCH)
			e.role = TCP_ROLE_GATED;	/* the base says: gate it */
		assert_int_equal(tcp_meta_set_add(s, &e), 1);
	}
	snprintf(path, sizeof(path), "%s/%s", part, TCP_META_FILE);
	assert_int_equal(tcp_meta_write(s, path, err, sizeof(err)), 0);
	tcp_meta_set_free(s);
	compare(part, dir_b, "--csv", csv, NULL);
	expect_rc(1, "the base's roles gate launch_ns");
	expect_row(csv, "rl_clk", "launch_ns", "slower/gated");
	expect_row(csv, "rl_noclk", "wall_ns", "changed/no_clock");	/* only NEW describes it */

	/* a run without roles joined anyway (report --baseline): every row gated, as without roles */
	tcp_cmp_run_t runs[2];
	tcp_cmp_t c;
	assert_int_equal(tcp_cmp_run_load(old_a, NULL, &runs[0], err, sizeof(err)), 0);
	assert_int_equal(tcp_cmp_run_load(old_b, NULL, &runs[1], err, sizeof(err)), 0);
	assert_int_equal(tcp_cmp_join(&runs[0], &runs[1], 1, 1.0, 3.0, &c, err, sizeof(err)), 0);
	assert_int_equal(c.roles, 0);
	assert_null(c.roles_from[0]);
	for (int i = 0; i < c.nrows; i++)
		assert_int_equal(c.rows[i].cells[0].judged, TCP_J_NONE);
	assert_true(tcp_cmp_regressions(&c) >= 3);	/* launch, kernel_ns, tflops ... the rule before roles */
	FILE *f = tmpfile();
	assert_int_equal(tcp_cmp_write_csv(f, &c, &runs[0], &runs[1]), 0);
	char head[2048];
	rewind(f);
	assert_non_null(fgets(head, sizeof(head), f));
	assert_false(has(head, "judged"));	/* no roles: the columns of before */
	fclose(f);
	tcp_cmp_free(&c);
	tcp_cmp_run_free(&runs[0]);
	tcp_cmp_run_free(&runs[1]);
}

/* ---- the verdict of one cell, directly ---------------------------------------------- */

static tcp_cmp_point_t pt(double median, double spread)
{
	tcp_cmp_point_t p = { .probe = "p", .axes = "i=0", .metric = "m", .unit = "u", .status = "OK",
			      .reason = "", .median = median, .spread_pct = spread, .line = 2 };
	return p;
}

static void test_cell(void **state)
{
	(void)state;
	for (int trial = 0; trial < 2000; trial++) {
		double b = 10 + (double)(next_u64() % 100000), clk0 = 1500 + (double)(next_u64() % 500);
		double cr = 0.9 + 0.2 * (double)(next_u64() >> 11) / 9007199254740992.0;	/* clock ratio */
		int better = (int)(next_u64() % 2);
		double expl = better ? cr : 1 / cr;
		/* -10 .. +10 % beyond, never on the band's or the gate's edge */
		double extra = ((double)(next_u64() % 2001) - 1000) / 100.0 + 0.005;
		tcp_cmp_point_t pb = pt(b, 0), pn = pt(b * expl * (1 + extra / 100), 0);
		tcp_cmp_point_t cb = pt(clk0, 0.2), cn = pt(clk0 * cr, 0.3);
		tcp_cmp_judge_t j = { .better = better, .role = TCP_ROLE_TIME, .clk_base = &cb, .clk_cur = &cn,
				      .noise_floor_pct = 1.0, .threshold_pct = 3.0 };
		tcp_cmp_cell_t c;
		tcp_cmp_cell_judge(&pb, &pn, &j, &c);
		assert_float_equal(c.clock_pct, (cr - 1) * 100, 1e-9);
		if (fabs(c.change_pct) <= 1.0) {
			assert_int_equal(c.verdict, TCP_V_SAME);
			continue;
		}
		assert_float_equal(c.beyond_pct, extra, 1e-6);
		if (fabs(extra) <= 1.0) {
			assert_int_equal(c.judged, TCP_J_CLOCK);
			assert_int_equal(c.regression, 0);
			assert_int_equal(c.verdict, c.effect_pct > 0 ? TCP_V_FASTER : TCP_V_SLOWER);
		} else {
			double effect = better ? extra : -extra;
			assert_int_equal(c.judged, TCP_J_BEYOND_CLOCK);
			assert_int_equal(c.verdict, effect > 0 ? TCP_V_FASTER : TCP_V_SLOWER);
			assert_int_equal(c.regression, effect < -3.0);
		}
	}
	/* the clock's own spread widens the band for what is beyond it */
	tcp_cmp_point_t pb = pt(1000, 0), pn = pt(1000 / 0.95 * 1.015, 0), cb = pt(2000, 2), cn = pt(1900, 0);
	tcp_cmp_judge_t j = { .better = 0, .role = TCP_ROLE_TIME, .clk_base = &cb, .clk_cur = &cn,
			      .noise_floor_pct = 1.0, .threshold_pct = 3.0 };
	tcp_cmp_cell_t c;
	tcp_cmp_cell_judge(&pb, &pn, &j, &c);
	assert_int_equal(c.judged, TCP_J_CLOCK);
	cb.spread_pct = 0;
	tcp_cmp_cell_judge(&pb, &pn, &j, &c);
	assert_int_equal(c.judged, TCP_J_BEYOND_CLOCK);
	assert_int_equal(c.regression, 0);	/* 1.5% beyond: outside the band, within the gate */
	/* a clock that is not OK is no clock */
	cb.status = "FAILED";
	tcp_cmp_cell_judge(&pb, &pn, &j, &c);
	assert_int_equal(c.verdict, TCP_V_CHANGED);
	assert_int_equal(c.judged, TCP_J_NO_CLOCK);
	/* an absolute floor decides where the base is 0 */
	pb = pt(0, 0);
	pn = pt(0.004, 0);
	j = (tcp_cmp_judge_t){ .better = 0, .role = TCP_ROLE_GATED, .abs_floor = 0.05, .noise_floor_pct = 1,
			       .threshold_pct = 3 };
	tcp_cmp_cell_judge(&pb, &pn, &j, &c);
	assert_int_equal(c.verdict, TCP_V_SAME);
	pn = pt(0.06, 0);
	tcp_cmp_cell_judge(&pb, &pn, &j, &c);
	assert_int_equal(c.verdict, TCP_V_SLOWER);
	assert_int_equal(c.regression, 1);
	/* info: never a regression, unless gate_all */
	pb = pt(100, 0);
	pn = pt(200, 0);
	j = (tcp_cmp_judge_t){ .better = 0, .role = TCP_ROLE_INFO, .noise_floor_pct = 1, .threshold_pct = 3 };
	tcp_cmp_cell_judge(&pb, &pn, &j, &c);
	assert_true(c.verdict == TCP_V_SLOWER && c.judged == TCP_J_INFO && !c.regression);
	j.gate_all = 1;
	tcp_cmp_cell_judge(&pb, &pn, &j, &c);
	assert_true(c.verdict == TCP_V_SLOWER && c.regression);
	/* the rule without roles is the gated one, unchanged */
	tcp_cmp_cell(&pb, &pn, 0, 1, 3, &c);
	assert_true(c.verdict == TCP_V_SLOWER && c.regression && c.judged == TCP_J_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_derive),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_cell),
		cmocka_unit_test(test_sweep_writes),
		cmocka_unit_test(test_kill_resume),
		cmocka_unit_test(test_clock_explains),
		cmocka_unit_test(test_beyond_clock),
		cmocka_unit_test(test_counter_clock),
		cmocka_unit_test(test_roles_source),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
