/*
 * test-cli.c
 *	The built binary (build/tcprobe, or $TCPROBE) against bad command lines
 *	and sweep files: exit status 2 and exactly one line on stderr naming
 *	the bad value; --help everywhere; --dry-run without a GPU; and no GPU
 *	(CUDA_VISIBLE_DEVICES="") is one line and exit 3.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "test-exec.h"

/* Exit 2, one stderr line starting "tcprobe: " and containing `needle`. */
#define BAD(needle, ...)                                                                    \
	do {                                                                                 \
		struct out *o_ = calloc(1, sizeof(*o_));                                     \
		run(o_, NULL, __VA_ARGS__, (char *)NULL);                                    \
		if (o_->status != 2 || lines(o_->err) != 1 ||                                \
		    strncmp(o_->err, "tcprobe: ", 9) != 0 || !strstr(o_->err, needle) ||     \
		    !strstr(o_->err, "expected"))                                            \
			fail_msg("line %d: exit %d, stderr '%s' (want exit 2, one line with '%s')", \
				 __LINE__, o_->status, o_->err, needle);                     \
		free(o_);                                                                    \
	} while (0)

static char spec_path[64];

static void write_spec(const char *text)
{
	FILE *f = fopen(spec_path, "w");
	fputs(text, f);
	fclose(f);
}

static void test_bad_command_lines(void **state)
{
	(void)state;
	char bad_spec[128];
	struct out *o = calloc(1, sizeof(*o));
	run(o, NULL, (char *)NULL);	/* argv = { bin } only */
	assert_int_equal(o->status, 2);
	assert_int_equal(lines(o->err), 1);
	assert_non_null(strstr(o->err, "tcprobe: no command: got nothing, expected one of list, "));
	free(o);
	BAD("unknown command: got 'frobnicate'", "frobnicate");
	BAD("help: unknown command: got 'nope'", "help", "nope");
	BAD("unknown option: got '--bogus'", "run", "--bogus");
	BAD("unexpected argument: got 'calib'", "run", "calib");
	BAD("--probe needs a value", "run", "--probe");
	BAD("unknown probe: got 'nope'", "run", "--probe", "nope");
	BAD("no probe to apply it to: got 'N=1'", "run", "--set", "N=1");
	BAD("unknown axis of probe calib: got 'N'", "run", "--probe", "calib", "--set", "N=1");
	BAD("missing '=': got 'spin_kcycles'", "run", "--probe", "calib", "--set", "spin_kcycles");
	BAD("bad number for axis spin_kcycles: got 'lots'", "run", "-p", "calib", "-a", "spin_kcycles=lots");
	BAD("step of axis spin_kcycles is zero: got '1:9:0'", "run", "-p", "calib", "--set=spin_kcycles=1:9:0");
	BAD("ends before it starts: got '9:1'", "run", "-p", "calib", "--set", "spin_kcycles=9:1");
	BAD("empty value list for axis spin_kcycles: got '[]'", "run", "-p", "calib", "--set", "spin_kcycles=[]");
	BAD("duplicate axis: got 'spin_kcycles'", "run", "-p", "calib", "--set", "spin_kcycles=1",
	    "--set", "spin_kcycles=2");
	BAD("--reps out of range: got '0'", "run", "-p", "calib", "--reps", "0");
	BAD("--reps: got 'x'", "run", "-p", "calib", "--reps=x");
	BAD("or auto", "run", "-p", "calib", "--reps=automatic");
	BAD("--noise: got 'lots'", "run", "-p", "calib", "--noise", "lots");
	BAD("--noise: got '0%'", "run", "-p", "calib", "--noise", "0%");
	BAD("--noise: got '101'", "run", "-p", "calib", "--noise=101");
	BAD("--noise: got '0.5%%'", "run", "-p", "calib", "--noise", "0.5%%");
	BAD("--rep-budget out of range: got '0'", "run", "-p", "calib", "--rep-budget", "0");
	BAD("--noise: only with --reps auto: got --reps 5", "run", "-p", "calib", "--reps", "5", "--noise", "1");
	BAD("--rep-budget: only with --reps auto", "run", "-p", "calib", "--reps", "5", "--rep-budget", "2");
	o = calloc(1, sizeof(*o));
	run(o, "TCPROBE_COUNTERS_SESSION=always", "run", "-p", "calib", "--dry-run", (char *)NULL);
	assert_int_equal(o->status, 2);
	assert_int_equal(lines(o->err), 1);
	assert_non_null(strstr(o->err, "tcprobe: TCPROBE_COUNTERS_SESSION: got 'always', expected keep, worker or point"));
	free(o);
	BAD("--warmup out of range: got '-1'", "run", "-p", "calib", "--warmup", "-1");
	BAD("--timeout out of range: got '0'", "run", "-p", "calib", "--timeout", "0");
	BAD("--seed: got '-3'", "run", "-p", "calib", "--seed", "-3");
	BAD("--gpu out of range: got '-1'", "run", "-p", "calib", "--gpu", "-1");
	BAD("--counters: got 'a b'", "run", "-p", "calib", "--counters", "a b");
	BAD("--out: got ''", "run", "-p", "calib", "--out", "");
	BAD("--out: cannot be combined with --resume", "run", "--resume", "/tmp", "--out", "/tmp/x");
	BAD("cannot read plan", "run", "--resume", "/nonexistent-run-dir");
	BAD("/nonexistent.sweep: cannot read sweep file", "run", "--spec", "/nonexistent.sweep");
	BAD("nothing to run", "run", "--reps", "3");
	BAD("--arch: got 'sm_80'", "list", "--arch", "sm_80");
	BAD("--probe: unknown probe: got 'nope'", "list", "--probe", "nope");
	BAD("unknown argument: got '--bogus'", "list", "--bogus");

	/* sweep files: file:line in the message */
	snprintf(bad_spec, sizeof(bad_spec), "%s:3: unknown axis of probe calib: got 'M'", spec_path);
	write_spec("[global]\n[calib]\nM = 1\n");
	BAD(bad_spec, "run", "--spec", spec_path);
	snprintf(bad_spec, sizeof(bad_spec), "%s:1: key outside a section: got 'reps'", spec_path);
	write_spec("reps = 2\n");
	BAD(bad_spec, "run", "--spec", spec_path);
	snprintf(bad_spec, sizeof(bad_spec), "%s:2: unknown probe: got 'nope'", spec_path);
	write_spec("\n[nope]\n");
	BAD(bad_spec, "run", "--spec", spec_path, "--dry-run");
	snprintf(bad_spec, sizeof(bad_spec), "%s:2: reps out of range: got '0'", spec_path);
	write_spec("[calib]\nreps = 0\n");
	BAD(bad_spec, "run", "--spec", spec_path);
}

static void test_help_and_dry_run(void **state)
{
	(void)state;
	struct out *o = calloc(1, sizeof(*o));
	const char *cmds[] = { "list", "run", "info" };
	run(o, NULL, "--help", (char *)NULL);
	assert_int_equal(o->status, 0);
	char *top = strdup(o->out);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char entry[32];
		snprintf(entry, sizeof(entry), "\n  %s ", cmds[i]);
		assert_non_null(strstr(top, entry));	/* the table lists it */
		run(o, NULL, cmds[i], "--help", (char *)NULL);
		assert_int_equal(o->status, 0);
		assert_non_null(strstr(o->out, "usage: tcprobe"));
		run(o, NULL, "help", cmds[i], (char *)NULL);
		assert_int_equal(o->status, 0);
	}
	free(top);
	/* list: every registered probe, detail and CSV */
	run(o, NULL, "list", (char *)NULL);
	assert_int_equal(o->status, 0);
	assert_non_null(strstr(o->out, "calib"));
	assert_non_null(strstr(o->out, "spin_kcycles=[100,1000,10000]"));
	run(o, NULL, "list", "--probe", "calib", "--csv", (char *)NULL);
	assert_int_equal(o->status, 0);
	assert_non_null(strstr(o->out, "calib,calib,\"sm_90a,sm_100a\",metric,sm_clock_mhz,higher is better,MHz,"));
	run(o, NULL, "list", "--arch", "host", (char *)NULL);
	assert_non_null(strstr(o->out, "host_timer"));
	assert_null(strstr(o->out, "\ncalib "));	/* calib runs on GPUs only */
	/* --dry-run: the plan, no GPU needed (this machine may have none) */
	run(o, "CUDA_VISIBLE_DEVICES=", "run", "--probe", "calib", "--set", "spin_kcycles=1:4",
	    "--dry-run", (char *)NULL);
	assert_int_equal(o->status, 0);
	assert_non_null(strstr(o->out, "total: 4 points, 4 to run, 0 skipped"));
	assert_string_equal(o->err, "");
	run(o, NULL, "run", "--spec", "sweeps/default.sweep", "--dry-run", (char *)NULL);
	assert_int_equal(o->status, 0);
	run(o, NULL, "run", "--spec", "sweeps/quick.sweep", "--dry-run", (char *)NULL);
	assert_int_equal(o->status, 0);
	free(o);
}

static void test_no_gpu_is_one_line(void **state)
{
	(void)state;
	struct out *o = calloc(1, sizeof(*o));
	char dir[] = "/tmp/test-cli-XXXXXX", out[64];
	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/run", dir);
	run(o, "CUDA_VISIBLE_DEVICES=", "run", "--probe", "calib", "--out", out, (char *)NULL);
	if (o->status != 3 || lines(o->err) != 1 ||
	    strncmp(o->err, "tcprobe: no CUDA GPU visible (", 30) != 0)
		fail_msg("exit %d, stderr '%s'", o->status, o->err);
	assert_int_equal(access(out, F_OK), -1);	/* no results directory for nothing */
	rmdir(dir);
	free(o);
}

int main(void)
{
	snprintf(spec_path, sizeof(spec_path), "/tmp/test-cli-%d.sweep", (int)getpid());
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_command_lines),
		cmocka_unit_test(test_help_and_dry_run),
		cmocka_unit_test(test_no_gpu_is_one_line),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(spec_path);
	return rc;
}
